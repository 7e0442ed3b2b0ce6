package proxy

import (
	"bytes"
	"errors"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec"
	"megaco/internal/model"
	"megaco/internal/monotime"
	"megaco/internal/tpkt"
)

// waitFor bounds every wait of these tests: generous, for a busy machine.
const waitFor = 10 * time.Second

// corpusFile reads a file of the OTP corpus (corpus/otp-time-test).
func corpusFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "corpus", "otp-time-test", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// encode gives text (any text style) in codec to, through the pipeline.
func encode(t testing.TB, text, to string) []byte {
	t.Helper()
	b, _, err := codec.Transcode(nil, []byte(text), "", to, codec.Options{})
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return b
}

// peer is a fake MGC or MG: real sockets, UDP or TCP (TPKT).
type peer struct {
	t         testing.TB
	network   string
	proxyAddr string // the proxy's listen address on this peer's side
	udp       *net.UDPConn
	ln        net.Listener // TCP: where the proxy connects to this peer
	msgs      chan []byte
	mu        sync.Mutex
	conn      net.Conn // TCP: where send writes (dialled, or last heard on)
	conns     []net.Conn
}

func newPeer(t testing.TB, network string) *peer {
	t.Helper()
	p := &peer{t: t, network: network, msgs: make(chan []byte, 256)}
	if network == "udp" {
		c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		p.udp = c
		go func() {
			for {
				buf := make([]byte, 65536)
				n, _, err := c.ReadFrom(buf)
				if err != nil {
					return
				}
				p.msgs <- buf[:n]
			}
		}()
	} else {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p.ln = ln
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				p.track(c)
			}
		}()
	}
	t.Cleanup(p.close)
	return p
}

func (p *peer) addr() Addr {
	if p.udp != nil {
		return Addr{"udp", p.udp.LocalAddr().String()}
	}
	return Addr{"tcp", p.ln.Addr().String()}
}

// track reads TPKT packets from c into msgs; what is sent next goes to
// the connection last heard on.
func (p *peer) track(c net.Conn) {
	p.mu.Lock()
	p.conns = append(p.conns, c)
	if p.conn == nil {
		p.conn = c
	}
	p.mu.Unlock()
	go func() {
		r := tpkt.NewReader(c)
		for {
			m, err := r.Next()
			if err != nil {
				return
			}
			p.mu.Lock()
			p.conn = c
			p.mu.Unlock()
			p.msgs <- bytes.Clone(m)
		}
	}()
}

func (p *peer) send(b []byte) {
	p.t.Helper()
	if p.udp != nil {
		a, _ := net.ResolveUDPAddr("udp", p.proxyAddr)
		if _, err := p.udp.WriteTo(b, a); err != nil {
			p.t.Fatal(err)
		}
		return
	}
	p.mu.Lock()
	c := p.conn
	p.mu.Unlock()
	if c == nil {
		var err error
		if c, err = net.Dial("tcp", p.proxyAddr); err != nil {
			p.t.Fatal(err)
		}
		p.track(c)
	}
	frame, _ := tpkt.AppendFrame(nil, b)
	if _, err := c.Write(frame); err != nil {
		p.t.Fatal(err)
	}
}

func (p *peer) recv() []byte {
	p.t.Helper()
	select {
	case m := <-p.msgs:
		return m
	case <-time.After(waitFor):
		p.t.Fatalf("%s peer: nothing received in %v", p.network, waitFor)
		return nil
	}
}

func (p *peer) close() {
	if p.udp != nil {
		p.udp.Close()
	}
	if p.ln != nil {
		p.ln.Close()
	}
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
}

type rig struct {
	p       *Proxy
	mgc, mg *peer
	reg     *prometheus.Registry
}

// setup starts a proxy between a fake MGC and a fake MG.
func setup(t testing.TB, mgcCodec, mgcNet, mgCodec, mgNet string, tweak func(*Config)) *rig {
	t.Helper()
	r := &rig{mgc: newPeer(t, mgcNet), mg: newPeer(t, mgNet), reg: prometheus.NewRegistry()}
	cfg := Config{
		MGC:      SideConfig{Codec: mgcCodec, Listen: Addr{mgcNet, "127.0.0.1:0"}, Peer: r.mgc.addr()},
		MG:       SideConfig{Codec: mgCodec, Listen: Addr{mgNet, "127.0.0.1:0"}, Peer: r.mg.addr()},
		Registry: r.reg,
		// These tests check the bytes each peer gets against the corpus:
		// the peers' identities pass on as they are. identity_test.go
		// has the proxy present itself.
		IdentityOff: true,
	}
	if tweak != nil {
		tweak(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	r.p = p
	r.mgc.proxyAddr = p.ListenAddr(true).String()
	r.mg.proxyAddr = p.ListenAddr(false).String()
	return r
}

func (r *rig) count(t testing.TB, dir, kind, outcome string) float64 {
	t.Helper()
	return counterValue(t, r.reg, "megaco_proxy_messages_total", map[string]string{"direction": dir, "kind": kind, "outcome": outcome})
}

// counterValue reads one series of a registry.
func counterValue(t testing.TB, reg *prometheus.Registry, name string, labels map[string]string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	next:
		for _, m := range mf.Metric {
			for _, l := range m.Label {
				if v, ok := labels[l.GetName()]; ok && v != l.GetValue() {
					continue next
				}
			}
			switch {
			case m.Counter != nil:
				return m.Counter.GetValue()
			case m.Gauge != nil:
				return m.Gauge.GetValue()
			case m.Histogram != nil:
				return float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return 0
}

// pass sends a corpus file from one peer and checks that the other
// receives the other file.
func pass(t testing.TB, from, to *peer, send, want string) {
	t.Helper()
	from.send(corpusFile(t, send))
	expect(t, send+" as "+want, to.recv(), corpusFile(t, want))
}

// wantCount waits for a message count: the proxy counts a message after
// sending it, so the peer may have it first.
func (r *rig) wantCount(t testing.TB, dir, kind, outcome string, want float64) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		got := r.count(t, dir, kind, outcome)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s %s %s: %v, want %v", dir, kind, outcome, got, want)
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func expect(t testing.TB, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Fatalf("%s:\ngot  %q\nwant %q", what, got, want)
	}
}

// TestTranscode carries the corpus' exchange between a compact-text MGC
// and a BER MG over every mix of transports, checking the bytes each
// peer receives against the corpus (the OTP encoders' output).
func TestTranscode(t *testing.T) {
	for _, nets := range [][2]string{{"udp", "udp"}, {"tcp", "tcp"}, {"udp", "tcp"}, {"tcp", "udp"}} {
		t.Run(nets[0]+"-"+nets[1], func(t *testing.T) {
			r := setup(t, "compact", nets[0], "ber", nets[1], nil)
			// MGC request, MG reply.
			pass(t, r.mgc, r.mg, "msg01a.compact.txt", "msg01a.ber")
			pass(t, r.mg, r.mgc, "msg06a.ber", "msg06a.compact.txt")
			// MG request (ServiceChange), MGC reply, MGC ack.
			pass(t, r.mg, r.mgc, "msg04.ber", "msg04.compact.txt")
			pass(t, r.mgc, r.mg, "msg05.compact.txt", "msg05.ber")
			pass(t, r.mgc, r.mg, "msg30b.compact.txt", "msg30b.ber")
			r.wantCount(t, "mgc_to_mg", "request", "forwarded", 1)
			r.wantCount(t, "mg_to_mgc", "ack", "forwarded", 0)
			r.wantCount(t, "mgc_to_mg", "ack", "forwarded", 1)
			dur := counterValue(t, r.reg, "megaco_proxy_transaction_duration_seconds", map[string]string{"direction": "mg_to_mgc", "command": "serviceChange"})
			if dur != 1 {
				t.Errorf("serviceChange durations observed: %v", dur)
			}
			if n := counterValue(t, r.reg, "megaco_codec_duration_seconds", map[string]string{"codec": "ber", "op": "decode"}); n == 0 {
				t.Error("no codec metrics")
			}
		})
	}
}

// TestRelay: one codec on both sides relays the bytes exactly, also text
// that the encoder would write otherwise (pretty, comments).
func TestRelay(t *testing.T) {
	r := setup(t, "compact", "udp", "compact", "udp", nil)
	pretty := corpusFile(t, "msg01a.pretty.txt")
	pretty = append([]byte("; a comment the encoder would not write\n"), pretty...)
	r.mgc.send(pretty)
	expect(t, "relayed request", r.mg.recv(), pretty)
	reply := corpusFile(t, "msg06a.compact.txt")
	r.mg.send(reply)
	expect(t, "relayed reply", r.mgc.recv(), reply)

	b := setup(t, "ber", "tcp", "ber", "udp", nil)
	pass(t, b.mgc, b.mg, "msg10.ber", "msg10.ber")
	pass(t, b.mg, b.mgc, "msg11.ber", "msg11.ber")
}

// TestRouting: two controllers on different addresses; each reply and
// pending goes to the controller whose request it answers, requests the
// MG originates to the configured one.
func TestRouting(t *testing.T) {
	r := setup(t, "compact", "udp", "ber", "udp", nil)
	other := newPeer(t, "udp")
	other.proxyAddr = r.mgc.proxyAddr

	pass(t, other, r.mg, "msg10.compact.txt", "msg10.ber")   // T=10003
	pass(t, r.mgc, r.mg, "msg01a.compact.txt", "msg01a.ber") // T=9999

	pending := "!/1 [124.124.124.222]:55555\nPN=10003{}"
	r.mg.send(encode(t, pending, "ber"))
	expect(t, "pending at B", other.recv(), encode(t, pending, "compact"))
	pass(t, r.mg, r.mgc, "msg06a.ber", "msg06a.compact.txt") // P=9999
	if n := counterValue(t, r.reg, "megaco_proxy_transactions_in_flight", map[string]string{"direction": "mgc_to_mg"}); n != 1 {
		t.Errorf("in flight after one of two replies: %v", n)
	}
	pass(t, r.mg, other, "msg11.ber", "msg11.compact.txt") // P=10003

	pass(t, r.mg, r.mgc, "msg04.ber", "msg04.compact.txt") // an MG request: to the configured MGC
	// B acknowledges: acks go to the MG.
	pass(t, other, r.mg, "msg30a.compact.txt", "msg30a.ber")

	if n := counterValue(t, r.reg, "megaco_proxy_transactions_in_flight", map[string]string{"direction": "mgc_to_mg"}); n != 0 {
		t.Errorf("in flight after the replies: %v", n)
	}
	if n := counterValue(t, r.reg, "megaco_proxy_transaction_duration_seconds", map[string]string{"direction": "mgc_to_mg", "command": "modify"}); n != 1 {
		t.Errorf("modify durations: %v", n)
	}
	if n := counterValue(t, r.reg, "megaco_proxy_transaction_duration_seconds", map[string]string{"direction": "mgc_to_mg", "command": "add"}); n != 1 {
		t.Errorf("add durations: %v", n)
	}
	r.wantCount(t, "mg_to_mgc", "pending", "forwarded", 1)
}

// TestSplit: an MG batching replies to two controllers' requests in one
// message: each controller gets a message with its own.
func TestSplit(t *testing.T) {
	r := setup(t, "compact", "udp", "ber", "udp", nil)
	other := newPeer(t, "udp")
	other.proxyAddr = r.mgc.proxyAddr
	r.mgc.send([]byte("!/1 [123.123.123.4]:55555\nT=1{C=-{N=root{OE=1{al/of}}}}"))
	r.mg.recv()
	other.send([]byte("!/1 [123.123.123.5]:55555\nT=2{C=-{N=root{OE=1{al/of}}}}"))
	r.mg.recv()
	r.mg.send(encode(t, "!/1 [124.124.124.222]:55555\nP=1{C=-{N=root}}P=2{C=-{N=root}}", "ber"))
	expect(t, "A's part", r.mgc.recv(), []byte("!/1 [124.124.124.222]:55555\nP=1{C=-{N=root}}"))
	expect(t, "B's part", other.recv(), []byte("!/1 [124.124.124.222]:55555\nP=2{C=-{N=root}}"))
}

// replyError decodes an error reply and returns its transaction IDs (none
// for a message-level error) and code.
func replyError(t testing.TB, b []byte, codecName string) ([]uint32, uint32) {
	t.Helper()
	m, _, err := codec.DecodeAs(b, codecName, codec.InputForm, codec.Options{})
	if err != nil {
		t.Fatalf("error reply %q: %v", b, err)
	}
	body := m.Mess.MessageBody
	if body.Kind == model.MessageMessageBody_MessageError {
		return nil, body.MessageError.ErrorCode
	}
	var ids []uint32
	var code uint32
	for _, tr := range body.Transactions {
		rep := tr.TransactionReply
		if rep == nil || rep.TransactionResult.TransactionError == nil {
			t.Fatalf("not an error reply: %q", b)
		}
		ids = append(ids, rep.TransactionId)
		code = rep.TransactionResult.TransactionError.ErrorCode
	}
	return ids, code
}

// TestBadTraffic: requests that do not decode or transcode are answered
// in the sender's codec with the fitting error; nothing of them is
// forwarded (the next good message is the next one the peer sees); an
// undecodable reply, and what shows no request, are dropped unanswered.
func TestBadTraffic(t *testing.T) {
	for _, network := range []string{"udp", "tcp"} {
		t.Run(network, func(t *testing.T) { badTraffic(t, network) })
	}
}

func badTraffic(t *testing.T, network string) {
	r := setup(t, "compact", network, "ber", network, nil)
	good := corpusFile(t, "msg03.compact.txt")
	cases := []struct {
		name  string
		from  *peer
		codec string
		data  []byte
		ids   []uint32
		code  uint32
	}{
		{"text syntax", r.mgc, "compact", []byte("!/1 [1.2.3.4]:5\nT=77{C=-{MF=11111111/00000000/00000000{M{ST=1{O{MO=bogus}}}}}}"), []uint32{77}, 403},
		{"two transactions", r.mgc, "compact", []byte("!/1 [1.2.3.4]:5\nT=78{C=-{N=root{OE=1{al/of}}}}T=79{C=-{N=ro{"), []uint32{78, 79}, 403},
		{"unprovisioned name", r.mgc, "compact", []byte("!/1 [1.2.3.4]:5\nT=80{C=-{MF=A4444{M{ST=1{O{MO=SR}}}}}}"), []uint32{80}, 430},
		{"version 4", r.mgc, "compact", []byte("!/4 [1.2.3.4]:5\nT=81{C=-{N=root{OE=1{al/of}}}}"), []uint32{81}, 406},
		{"truncated BER", r.mg, "ber", corpusFile(t, "msg01a.ber")[:60], []uint32{9999}, 403},
	}
	for _, c := range cases {
		c.from.send(c.data)
		ids, code := replyError(t, c.from.recv(), c.codec)
		if code != c.code || !slicesEqual(ids, c.ids) {
			t.Errorf("%s: answered %v with %d, want %v with %d", c.name, ids, code, c.ids, c.code)
		}
	}
	// A broken reply and a message that is not Megaco are dropped
	// without an answer; then a good message shows that nothing else went
	// through (and the next message each peer gets is not an answer).
	r.mg.send(corpusFile(t, "msg06a.ber")[:30])
	r.mgc.send([]byte("hello"))
	r.mgc.send(good)
	expect(t, "the good message after the bad ones", r.mg.recv(), corpusFile(t, "msg03.ber"))
	pass(t, r.mg, r.mgc, "msg04.ber", "msg04.compact.txt")
	r.wantCount(t, "mgc_to_mg", "request", "rejected", 5)
	r.wantCount(t, "mgc_to_mg", "error", "dropped", 1)
	r.wantCount(t, "mg_to_mgc", "reply", "dropped", 1)
}

func slicesEqual(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBrokenConnections: a broken TPKT header and a silent connection are
// dropped; another connection goes on working.
func TestBrokenConnections(t *testing.T) {
	r := setup(t, "compact", "tcp", "ber", "tcp", func(c *Config) { c.HandshakeTimeout = 300 * time.Millisecond })
	pass(t, r.mgc, r.mg, "msg01a.compact.txt", "msg01a.ber")

	broken, err := net.Dial("tcp", r.mgc.proxyAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer broken.Close()
	broken.Write([]byte{9, 9, 9, 9, 9, 9})
	silent, err := net.Dial("tcp", r.mgc.proxyAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	for name, c := range map[string]net.Conn{"broken": broken, "silent": silent} {
		c.SetReadDeadline(time.Now().Add(waitFor))
		if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("%s connection: %v, want it closed by the proxy", name, err)
		}
	}
	pass(t, r.mg, r.mgc, "msg06a.ber", "msg06a.compact.txt")
	pass(t, r.mgc, r.mg, "msg03.compact.txt", "msg03.ber")
	if n := counterValue(t, r.reg, "megaco_proxy_errors_total", map[string]string{"side": "mgc", "reason": "decode"}); n != 1 {
		t.Errorf("decode errors: %v", n)
	}
	if n := counterValue(t, r.reg, "megaco_proxy_errors_total", map[string]string{"side": "mgc", "reason": "limit"}); n != 1 {
		t.Errorf("limit errors: %v", n)
	}
}

// TestIdleDeadlineMoves: a TCP connection's read deadline is set once
// per idle period, not per message; traffic that goes on past several
// idle timeouts keeps both connections (no drop, no re-dial), and a
// connection silent for the idle timeout, with its pair silent too, is
// then dropped.
func TestIdleDeadlineMoves(t *testing.T) {
	const idle = time.Second
	r := setup(t, "compact", "tcp", "ber", "tcp", func(c *Config) { c.IdleTimeout = idle })
	for start := time.Now(); time.Since(start) < 3*idle+idle/2; time.Sleep(idle / 10) {
		pass(t, r.mgc, r.mg, "msg01a.compact.txt", "msg01a.ber")
		pass(t, r.mg, r.mgc, "msg06a.ber", "msg06a.compact.txt")
	}
	r.mg.mu.Lock()
	dialled := len(r.mg.conns)
	r.mg.mu.Unlock()
	if dialled != 1 {
		t.Errorf("the proxy dialled the MG %d times, want once", dialled)
	}
	if n := counterValue(t, r.reg, "megaco_proxy_errors_total", map[string]string{"side": "mgc", "reason": "limit"}); n != 0 {
		t.Errorf("connections dropped as silent while busy: %v", n)
	}
	r.mgc.mu.Lock()
	c := r.mgc.conn
	r.mgc.mu.Unlock()
	c.SetReadDeadline(time.Now().Add(idle + waitFor))
	if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("silent connection: %v, want it closed by the proxy", err)
	}
}

// TestConnLimit: past --max-conns a connection is refused at once.
func TestConnLimit(t *testing.T) {
	r := setup(t, "compact", "tcp", "ber", "udp", func(c *Config) { c.MaxConns = 1 })
	r.mgc.send(corpusFile(t, "msg01a.compact.txt"))
	r.mg.recv()
	extra, err := net.Dial("tcp", r.mgc.proxyAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	extra.SetReadDeadline(time.Now().Add(waitFor))
	if _, err := extra.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("connection past the limit: %v", err)
	}
}

// TestTable: entries expire, the size bound pushes out the oldest, and a
// draining table takes only retransmissions.
func TestTable(t *testing.T) {
	reg := prometheus.NewRegistry()
	tb := newTable(time.Minute, 3, reg)
	t0 := monotime.Instant(1000 * time.Second)
	a := dest{conn: &tcpConn{}}
	for i := range 5 {
		_, evicted := tb.request(t0.Add(time.Duration(i)*time.Second), newKey(mgcSide, uint32(i)), a, 0, true)
		if evicted != (i >= 3) {
			t.Errorf("request %d: evicted %v", i, evicted)
		}
	}
	if n := len(tb.m); n != 3 {
		t.Fatalf("%d entries, want 3", n)
	}
	if _, _, _, _, found := tb.reply(t0.Add(5*time.Second), newKey(mgcSide, 0), true); found {
		t.Error("evicted entry found")
	}
	req, took, _, first, found := tb.reply(t0.Add(6*time.Second), newKey(mgcSide, 4), true)
	if !found || !first || req != a || took != 2*time.Second {
		t.Errorf("reply: %v %v %v %v", req, took, first, found)
	}
	if n := tb.inFlight(t0.Add(6 * time.Second)); n != 2 {
		t.Errorf("in flight %d, want 2", n)
	}
	if ok, _ := tb.request(t0.Add(7*time.Second), newKey(mgcSide, 3), a, 0, false); !ok {
		t.Error("draining: a retransmission refused")
	}
	if ok, _ := tb.request(t0.Add(7*time.Second), newKey(mgSide, 3), a, 0, false); ok {
		t.Error("draining: a new request taken")
	}
	if n := tb.inFlight(t0.Add(2 * time.Minute)); n != 0 || len(tb.m) != 0 {
		t.Errorf("after expiry: %d in flight, %d entries", n, len(tb.m))
	}
	if v := counterValue(t, reg, "megaco_proxy_remembered_transactions", nil); v != 0 {
		t.Errorf("remembered gauge %v", v)
	}
	// A pending keeps the route past the ttl from the request.
	t1 := t0.Add(10 * time.Minute)
	tb.request(t1, newKey(mgSide, 9), a, 0, true)
	tb.reply(t1.Add(50*time.Second), newKey(mgSide, 9), false)
	if _, _, _, _, found := tb.reply(t1.Add(100*time.Second), newKey(mgSide, 9), false); !found {
		t.Error("route lost despite a pending")
	}
	if _, _, _, _, found := tb.reply(t1.Add(161*time.Second), newKey(mgSide, 9), true); found {
		t.Error("route kept a ttl after the last pending")
	}
	// Reused IDs cannot grow the queue without bound.
	for i := range 10000 {
		now := t0.Add(3 * time.Minute)
		tb.request(now, newKey(mgcSide, 7), a, 0, true)
		tb.reply(now, newKey(mgcSide, 7), true)
		_ = i
	}
	if len(tb.queue) > 2*tb.max+64+1 {
		t.Errorf("queue of %d for %d entries", len(tb.queue), len(tb.m))
	}
}

// TestTableSlotReuse: the queue place an entry left behind neither
// expires nor evicts the later entry in its slot; eviction at the bound
// takes the oldest live entry; forget drops a connection's entries and
// their pending counts.
func TestTableSlotReuse(t *testing.T) {
	tb := newTable(time.Minute, 2, nil)
	t0 := monotime.Instant(1000 * time.Second)
	a, b := dest{conn: &tcpConn{}}, dest{conn: &tcpConn{}}
	tb.request(t0, newKey(mgcSide, 1), a, 0, true)
	tb.request(t0.Add(time.Second), newKey(mgcSide, 2), a, 0, true)
	tb.cancel(newKey(mgcSide, 1))
	tb.request(t0.Add(2*time.Second), newKey(mgSide, 3), b, 0, true)
	if i, ok := tb.m[newKey(mgSide, 3)]; !ok || i != 0 || len(tb.ents) != 2 {
		t.Fatalf("slot %d (%v) of %d, want the freed slot 0", i, ok, len(tb.ents))
	}
	// The queue's head is the cancelled entry's place: eviction passes
	// over it to the oldest live entry, not to slot 0's newer one.
	if _, evicted := tb.request(t0.Add(3*time.Second), newKey(mgcSide, 4), a, 0, true); !evicted {
		t.Fatal("no eviction at the bound")
	}
	if _, ok := tb.m[newKey(mgcSide, 2)]; ok || len(tb.m) != 2 || len(tb.ents) != 2 {
		t.Fatalf("after eviction: %d keys, %d slots, the oldest kept: %v", len(tb.m), len(tb.ents), ok)
	}
	// Nor does the place expire it: at t0+60s only the cancelled
	// entry's place is due.
	if req, _, _, _, found := tb.reply(t0.Add(60*time.Second), newKey(mgSide, 3), false); !found || req != b {
		t.Fatalf("slot 0's entry lost with its predecessor's place: %v %v", req, found)
	}
	if n := tb.inFlight(t0.Add(60 * time.Second)); n != 2 || tb.pending[mgcSide] != 1 {
		t.Fatalf("in flight %d, pending %v", n, tb.pending)
	}
	tb.forget(a.conn)
	tb.forget(b.conn)
	if len(tb.m) != 0 || tb.pending != [2]int{} || len(tb.free) != len(tb.ents) {
		t.Fatalf("after forget: %d keys, pending %v, %d of %d slots free", len(tb.m), tb.pending, len(tb.free), len(tb.ents))
	}
}

// TestTableSlots: past the size bound, with IDs reused, answered,
// cancelled and pushed back by pendings, every key finds its own entry
// and its requester, the slots stay within the bound and the in-flight
// count agrees with the entries.
func TestTableSlots(t *testing.T) {
	const bound = 50
	tb := newTable(time.Minute, bound, nil)
	now := monotime.Instant(1000 * time.Second)
	reqs := map[txKey]dest{}
	for i := range 2000 {
		now = now.Add(time.Millisecond)
		k := newKey(side(i%2), uint32(i*7%131))
		d := dest{addr: netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), uint16(i+1))}
		tb.request(now, k, d, uint8(i%3), true)
		reqs[k] = d
		switch i % 5 {
		case 0:
			tb.reply(now, k, true)
		case 1:
			tb.reply(now, k, false)
		case 2:
			tb.cancel(k)
			delete(reqs, k)
		}
	}
	if len(tb.ents) > bound || len(tb.m) > bound {
		t.Fatalf("%d slots, %d keys for a bound of %d", len(tb.ents), len(tb.m), bound)
	}
	unanswered := 0
	for k, i := range tb.m {
		e := tb.ents[i]
		if e.key != k || e.seq == 0 || e.requester != reqs[k] {
			t.Errorf("key %x: slot %d holds %+v, want its requester %v", uint64(k), i, e, reqs[k])
		}
		if !e.answered {
			unanswered++
		}
	}
	if n := tb.inFlight(now); n != unanswered {
		t.Errorf("in flight %d, %d entries unanswered", n, unanswered)
	}
	if n := tb.inFlight(now.Add(3 * time.Minute)); n != 0 || len(tb.m) != 0 || len(tb.free) != len(tb.ents) {
		t.Errorf("after expiry: %d in flight, %d keys, %d of %d slots free", n, len(tb.m), len(tb.free), len(tb.ents))
	}
}

func TestParseAddr(t *testing.T) {
	for _, s := range []string{"udp://:2944", "tcp://127.0.0.1:2945", "udp://[::1]:1"} {
		if _, err := ParseAddr(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range []string{"", "127.0.0.1:2944", "sctp://:1", "udp://nohost"} {
		if _, err := ParseAddr(s); err == nil {
			t.Errorf("%s: accepted", s)
		}
	}
}

func TestErrorText(t *testing.T) {
	if !strings.HasPrefix(errorText(codeBadTransaction, errors.New("x \"y\"\n")), "Syntax error in transaction request (proxy: x 'y' ") {
		t.Error(errorText(codeBadTransaction, errors.New("x \"y\"\n")))
	}
}

// TestSegments: a v3 segmented reply passes segment by segment to the
// requester, the transaction ends with the last, and the requester's
// segment replies go back to the MG.
func TestSegments(t *testing.T) {
	r := setup(t, "compact", "udp", "ber", "tcp", nil)
	other := newPeer(t, "udp") // not the configured MGC: routing must find it
	other.proxyAddr = r.mgc.proxyAddr
	const mg = "!/3 [124.124.124.222]:55555\n"
	other.send([]byte("!/3 [123.123.123.4]:55555\nT=5{C=-{AV=root{AT{}}}}"))
	r.mg.recv()
	for i, seg := range []string{"P=5/1{C=-{AV=root}}", "P=5/2/&{C=-{AV=root}}"} {
		r.mg.send(encode(t, mg+seg, "ber"))
		expect(t, "segment", other.recv(), []byte(mg+seg))
		want := 1.0
		if i == 0 {
			want = 0
		}
		if n := counterValue(t, r.reg, "megaco_proxy_transactions_in_flight", map[string]string{"direction": "mgc_to_mg"}); n != 1-want {
			t.Errorf("after segment %d: %v in flight", i+1, n)
		}
	}
	other.send([]byte("!/3 [123.123.123.4]:55555\nSM=5/2/&"))
	expect(t, "segment reply", r.mg.recv(), encode(t, "!/3 [123.123.123.4]:55555\nSM=5/2/&", "ber"))
	r.wantCount(t, "mg_to_mgc", "reply", "forwarded", 2)
	r.wantCount(t, "mgc_to_mg", "ack", "forwarded", 1)
	if n := counterValue(t, r.reg, "megaco_proxy_transaction_duration_seconds", map[string]string{"direction": "mgc_to_mg", "command": "auditValue"}); n != 1 {
		t.Errorf("auditValue durations: %v, want 1 (at the last segment)", n)
	}
}

// TestWildcardListen: the default listen addresses (":2944") are dual
// stack; IPv4 peers are reached from them all the same.
func TestWildcardListen(t *testing.T) {
	r := setup(t, "compact", "udp", "ber", "udp", func(c *Config) {
		c.MGC.Listen.Address, c.MG.Listen.Address = ":0", ":0"
	})
	_, mgcPort, _ := net.SplitHostPort(r.mgc.proxyAddr)
	_, mgPort, _ := net.SplitHostPort(r.mg.proxyAddr)
	r.mgc.proxyAddr, r.mg.proxyAddr = "127.0.0.1:"+mgcPort, "127.0.0.1:"+mgPort
	// Before the MG spoke, the proxy's error replies name it with a
	// device name (the address it listens on says nothing); after, with
	// the MG's own identity.
	for _, wantMID := range []string{"!/1 megacoProxy\n", "!/1 [124.124.124.222]:55555\n"} {
		r.mgc.send([]byte("!/1 [1.2.3.4]:5\nT=1{"))
		b := r.mgc.recv()
		if ids, code := replyError(t, b, "compact"); code != 403 || len(ids) != 1 || !bytes.HasPrefix(b, []byte(wantMID)) {
			t.Errorf("error reply %q: %v %d", b, ids, code)
		}
		pass(t, r.mgc, r.mg, "msg01a.compact.txt", "msg01a.ber")
		pass(t, r.mg, r.mgc, "msg06a.ber", "msg06a.compact.txt")
	}
}

// TestPeerDown: a TCP peer that cannot be reached drops what goes to it
// (counted), and the other direction goes on.
func TestPeerDown(t *testing.T) {
	r := setup(t, "compact", "udp", "ber", "tcp", nil)
	r.mg.ln.Close()
	r.mgc.send(corpusFile(t, "msg01a.compact.txt"))
	r.mgc.send(corpusFile(t, "msg03.compact.txt"))
	r.wantCount(t, "mgc_to_mg", "request", "dropped", 2)
	if n := counterValue(t, r.reg, "megaco_proxy_errors_total", map[string]string{"side": "mg", "reason": "route"}); n != 2 {
		t.Errorf("route errors: %v", n)
	}
	if n := r.p.table.inFlight(monotime.Now()); n != 0 {
		t.Errorf("%d dropped requests still in flight", n)
	}
}

// TestTCPHeldWrites: packets that arrive together on a TCP connection
// (here twenty in one write) are handled with their writes to the pair
// held and written together: every one arrives, whole and in order, and
// each is counted once.
func TestTCPHeldWrites(t *testing.T) {
	r := setup(t, "compact", "tcp", "ber", "tcp", nil)
	in, want := corpusFile(t, "msg01a.compact.txt"), corpusFile(t, "msg01a.ber")
	pass(t, r.mgc, r.mg, "msg01a.compact.txt", "msg01a.ber") // connects the pair
	const n = 20
	var burst []byte
	for range n {
		burst, _ = tpkt.AppendFrame(burst, in)
	}
	r.mgc.mu.Lock()
	c := r.mgc.conn
	r.mgc.mu.Unlock()
	if _, err := c.Write(burst); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		expect(t, "message "+strconv.Itoa(i)+" of the burst", r.mg.recv(), want)
	}
	r.wantCount(t, "mgc_to_mg", "request", "forwarded", n+1)
}
