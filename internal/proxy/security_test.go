package proxy

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"megaco/internal/monotime"
	"megaco/internal/tpkt"
)

func dropCount(t testing.TB, r *rig, side, reason string) float64 {
	t.Helper()
	return counterValue(t, r.reg, "megaco_proxy_dropped_total", map[string]string{"side": side, "reason": reason})
}

// waitDrop waits for a drop count to reach want.
func waitDrop(t testing.TB, r *rig, side, reason string, want float64) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for dropCount(t, r, side, reason) < want {
		if time.Now().After(deadline) {
			t.Fatalf("dropped{side=%s,reason=%s}: %v, want %v", side, reason, dropCount(t, r, side, reason), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestParseAllow(t *testing.T) {
	got, err := ParseAllow(" 10.0.0.0/8, 127.0.0.2,::1 ,::ffff:192.168.0.0/112,10.1.2.3/16")
	want := []string{"10.0.0.0/8", "127.0.0.2/32", "::1/128", "192.168.0.0/16", "10.1.0.0/16"}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v %v, want %v", got, err, want)
	}
	for _, bad := range []string{"10.0.0.0/33", "host.example", "1.2.3"} {
		if _, err := ParseAllow(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if got, err := ParseAllow(""); err != nil || len(got) != 0 {
		t.Errorf("empty: %v %v", got, err)
	}
}

// listenUDPOn opens a UDP socket on ip (all of 127/8 is loopback).
func listenUDPOn(t testing.TB, ip string) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.ParseIP(ip)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestUnknownPeerUDP: the MGC is 127.0.0.1; a request from 127.0.0.2 to
// the MGC side, and a reply from 127.0.0.2 to the MG side, are dropped
// and counted; a request from the MGC's host on another port passes;
// with 127.0.0.2 allowed it passes too.
func TestUnknownPeerUDP(t *testing.T) {
	r := setup(t, "compact", "udp", "ber", "udp", nil)
	stranger := listenUDPOn(t, "127.0.0.2")
	to := func(addr string) *net.UDPAddr { a, _ := net.ResolveUDPAddr("udp", addr); return a }
	stranger.WriteTo(corpusFile(t, "msg01a.compact.txt"), to(r.mgc.proxyAddr))
	stranger.WriteTo(corpusFile(t, "msg06a.ber"), to(r.mg.proxyAddr))
	waitDrop(t, r, "mgc", "unknown_peer", 1)
	waitDrop(t, r, "mg", "unknown_peer", 1)
	// The MGC's host from another port: taken (the first message the MG
	// gets is this one, not the stranger's).
	other := listenUDPOn(t, "127.0.0.1")
	other.WriteTo(corpusFile(t, "msg03.compact.txt"), to(r.mgc.proxyAddr))
	expect(t, "request from the MGC's host", r.mg.recv(), corpusFile(t, "msg03.ber"))
	pass(t, r.mg, r.mgc, "msg04.ber", "msg04.compact.txt")
	r.wantCount(t, "mgc_to_mg", "request", "forwarded", 1)

	allowed := setup(t, "compact", "udp", "ber", "udp", func(c *Config) {
		c.MGC.Allow = []netip.Prefix{netip.MustParsePrefix("127.0.0.2/32")}
	})
	stranger.WriteTo(corpusFile(t, "msg01a.compact.txt"), to(allowed.mgc.proxyAddr))
	expect(t, "request from an allowed source", allowed.mg.recv(), corpusFile(t, "msg01a.ber"))
	if n := dropCount(t, allowed, "mgc", "unknown_peer"); n != 0 {
		t.Errorf("allowed source dropped: %v", n)
	}
}

// TestUnknownPeerTCP: a connection from 127.0.0.2 to the MGC side is
// closed at once, nothing it sends reaches the MG; the MGC's own
// connection is served.
func TestUnknownPeerTCP(t *testing.T) {
	r := setup(t, "compact", "tcp", "ber", "tcp", nil)
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}, Timeout: waitFor}
	c, err := d.Dial("tcp", r.mgc.proxyAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	frame, _ := tpkt.AppendFrame(nil, corpusFile(t, "msg01a.compact.txt"))
	c.Write(frame) // may fail: the proxy may have closed it already
	c.SetReadDeadline(time.Now().Add(waitFor))
	if _, err := c.Read(make([]byte, 1)); errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("connection from an unknown peer not closed: %v", err)
	}
	waitDrop(t, r, "mgc", "unknown_peer", 1)
	pass(t, r.mgc, r.mg, "msg03.compact.txt", "msg03.ber") // the first the MG gets
}

// TestOwnSocket: the proxy's own UDP addresses, also behind a wildcard
// listen address.
func TestOwnSocket(t *testing.T) {
	ap := netip.MustParseAddrPort
	p := &Proxy{own: []netip.AddrPort{ap("127.0.0.1:2944"), ap("[::]:2945")}, localIPs: []netip.Addr{netip.MustParseAddr("192.0.2.7")}}
	for a, want := range map[string]bool{
		"127.0.0.1:2944": true, "127.0.0.2:2944": false, "127.0.0.1:2946": false,
		"127.0.0.5:2945": true, "[::1]:2945": true, "192.0.2.7:2945": true, "192.0.2.8:2945": false, "192.0.2.7:2944": false,
	} {
		if got := p.ownSocket(ap(a)); got != want {
			t.Errorf("%s: own %v, want %v", a, got, want)
		}
	}
}

// TestErrorBudget: a burst, then a steady rate, per source; the sources
// tracked are bounded.
func TestErrorBudget(t *testing.T) {
	var b errorBudget
	a, o := netip.MustParseAddr("127.0.0.2"), netip.MustParseAddr("127.0.0.3")
	now := time.Unix(1000, 0)
	n := 0
	for range 100 {
		if b.take(a, now) {
			n++
		}
	}
	if n != errorBurst || !b.take(o, now) {
		t.Errorf("burst: %d answers, want %d; another source refused", n, errorBurst)
	}
	n = 0
	for i := range 1000 { // 10 s, a try every 10 ms
		if b.take(a, now.Add(time.Duration(i+1)*10*time.Millisecond)) {
			n++
		}
	}
	if n < 9*errorsPerSecond || n > 11*errorsPerSecond {
		t.Errorf("10 s: %d answers, want about %d", n, 10*errorsPerSecond)
	}
	for i := range 3 * errorSources {
		b.take(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}), now)
	}
	if len(b.m) > errorSources {
		t.Errorf("%d sources tracked, bound %d", len(b.m), errorSources)
	}
}

// TestErrorAnswerBound: requests (many in one message, or a long
// diagnosis) get an answer of at most max(512, 2 × the input) bytes;
// garbage of no request gets none.
func TestErrorAnswerBound(t *testing.T) {
	r := setup(t, "compact", "udp", "ber", "udp", nil)
	var many strings.Builder
	many.WriteString("!/1 [1.2.3.4]:5\n")
	for i := range 60 {
		fmt.Fprintf(&many, "T=%d{C=-{XX}}", 1000+i)
	}
	long := "!/1 [1.2.3.4]:5\nT=7{C=-{MF=" + strings.Repeat("Abcdefgh", 200) + "{M{ST=1{O{MO=SR}}}}}}"
	for _, in := range []string{many.String(), long, "!/1 [1.2.3.4]:5\nT=8{C=-{XX}}"} {
		r.mgc.send([]byte(in))
		b := r.mgc.recv()
		ids, code := replyError(t, b, "compact")
		t.Logf("%d bytes in, %d out: %d requests answered with %d", len(in), len(b), len(ids), code)
		if len(b) > answerLimit(len(in)) || len(ids) == 0 || len(ids) > maxAnswered {
			t.Errorf("%d bytes in, %d out (bound %d), %d requests answered", len(in), len(b), answerLimit(len(in)), len(ids))
		}
	}
	// One byte, and a reply: no answer (the next message the MGC gets is
	// the answer to the request sent after them).
	r.mgc.send([]byte("x"))
	r.mgc.send([]byte("!/1 [1.2.3.4]:5\nP=9{C=-{XX}}"))
	r.mgc.send([]byte("!/1 [1.2.3.4]:5\nT=10{C=-{XX}}"))
	if ids, _ := replyError(t, r.mgc.recv(), "compact"); len(ids) != 1 || ids[0] != 10 {
		t.Errorf("answered %v, want only T=10", ids)
	}
}

// TestErrorTextWords: a long diagnosis is cut at a word's end and marked.
func TestErrorTextWords(t *testing.T) {
	words := strings.Repeat("termination name is not a provisioned name ", 10)
	got := errorText(codeTermID, errors.New(words))
	diag := strings.TrimSuffix(strings.TrimPrefix(got, codeTexts[codeTermID]+" (proxy: "), ")")
	if !strings.HasSuffix(diag, ellipsis) || len(diag) > maxDiagnosis {
		t.Fatalf("%q: not cut and marked within %d", got, maxDiagnosis)
	}
	kept := strings.TrimSuffix(diag, ellipsis)
	if !strings.HasPrefix(words, kept+" ") || strings.HasSuffix(kept, " ") {
		t.Errorf("%q: cut inside a word", kept)
	}
	short := errorText(codeTermID, errors.New("short \"x\"\n"))
	if short != codeTexts[codeTermID]+" (proxy: short 'x' )" {
		t.Errorf("short: %q", short)
	}
	// One word longer than the room has no end to cut at.
	if got := errorText(codeTermID, errors.New(strings.Repeat("x", 500))); len(got) > len(codeTexts[codeTermID])+len(" (proxy: )")+maxDiagnosis {
		t.Errorf("one long word: %d bytes", len(got))
	}
}

// TestForget: forget removes exactly one connection's entries, whatever
// became of them (answered, moved to another connection by a
// retransmission, evicted), and what is owed to each connection follows.
func TestForget(t *testing.T) {
	tb := newTable(time.Minute, 1000, nil)
	now := monotime.Instant(1000 * time.Second)
	a, b := &tcpConn{settled: make(chan struct{}, 1)}, &tcpConn{settled: make(chan struct{}, 1)}
	u := dest{addr: netip.MustParseAddrPort("127.0.0.1:5")}
	want := map[txKey]*tcpConn{}
	for i := range 300 {
		k := newKey(side(i%2), uint32(i))
		var d dest
		switch i % 3 {
		case 0:
			d = dest{conn: a}
		case 1:
			d = dest{conn: b}
		default:
			d = u
		}
		tb.request(now, k, d, 0, true)
		want[k] = d.conn
	}
	// Answered: some of a's; moved: some of a's to b and of b's to a.
	for i := 0; i < 300; i += 9 {
		tb.reply(now, newKey(side(i%2), uint32(i)), true)
		a.settle(1) // delivered
	}
	for i := 3; i < 300; i += 18 {
		k := newKey(side(i%2), uint32(i))
		tb.request(now, k, dest{conn: b}, 0, true)
		want[k] = b
	}
	for i := 1; i < 300; i += 15 {
		k := newKey(side(i%2), uint32(i))
		tb.request(now, k, dest{conn: a}, 0, true)
		want[k] = a
	}
	owedA, owedB := a.owed.Load(), b.owed.Load()
	tb.forget(a)
	for k, c := range want {
		_, ok := tb.m[k]
		if ok == (c == a) {
			t.Errorf("key %x of %p: kept %v after forgetting a", uint64(k), c, ok)
		}
		if ok && tb.ents[tb.m[k]].requester.conn != c {
			t.Errorf("key %x: requester changed", uint64(k))
		}
	}
	if a.txs != 0 || a.owed.Load() != 0 || b.owed.Load() != owedB || owedA <= 0 {
		t.Errorf("owed a %d -> %d, b %d -> %d; a's list %d", owedA, a.owed.Load(), owedB, b.owed.Load(), a.txs)
	}
	nb := 0
	for i := b.txs; i != 0; i = tb.ents[i-1].next {
		nb++
	}
	wantB := 0
	for _, c := range want {
		if c == b {
			wantB++
		}
	}
	if nb != wantB || int64(nb) != b.owed.Load() {
		t.Errorf("b's list %d entries, owed %d, want %d", nb, b.owed.Load(), wantB)
	}
	tb.forget(b)
	if len(tb.m) != 100 || tb.pending[0]+tb.pending[1] != 100 {
		t.Errorf("after forgetting both: %d entries, pending %v, want the 100 UDP ones", len(tb.m), tb.pending)
	}
}

// BenchmarkForget is a connection's close with the table full (100,000
// entries): ten requests of a new connection (each evicting the oldest
// entry), then its close.
func BenchmarkForget(b *testing.B) {
	const full = 100000
	tb := newTable(time.Hour, full, nil)
	now := monotime.Instant(1000 * time.Second)
	others := make([]*tcpConn, 100)
	for i := range others {
		others[i] = &tcpConn{}
	}
	for i := range full {
		tb.request(now, newKey(mgcSide, uint32(i)), dest{conn: others[i%len(others)]}, 0, true)
	}
	next := uint32(full)
	b.ReportAllocs()
	for b.Loop() {
		c := &tcpConn{}
		for range 10 {
			tb.request(now, newKey(mgSide, next), dest{conn: c}, 0, true)
			next++
		}
		tb.forget(c)
	}
	if len(tb.m) > full {
		b.Fatalf("%d entries", len(tb.m))
	}
}

// TestHalfClose: a TCP peer that sends a request and shuts down its
// sending side still gets its reply; then the proxy closes the
// connection. The MG over TCP (a pair) and over UDP.
func TestHalfClose(t *testing.T) {
	for _, mgNet := range []string{"tcp", "udp"} {
		t.Run(mgNet, func(t *testing.T) {
			r := setup(t, "compact", "tcp", "ber", mgNet, nil)
			c, err := net.DialTimeout("tcp", r.mgc.proxyAddr, waitFor)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			frame, _ := tpkt.AppendFrame(nil, corpusFile(t, "msg01a.compact.txt"))
			if _, err := c.Write(frame); err != nil {
				t.Fatal(err)
			}
			if err := c.(*net.TCPConn).CloseWrite(); err != nil {
				t.Fatal(err)
			}
			expect(t, "the request", r.mg.recv(), corpusFile(t, "msg01a.ber"))
			r.mg.send(corpusFile(t, "msg06a.ber"))
			c.SetReadDeadline(time.Now().Add(waitFor))
			rd := tpkt.NewReader(c)
			m, err := rd.Next()
			if err != nil {
				t.Fatalf("no reply after the half-close: %v", err)
			}
			expect(t, "the reply", m, corpusFile(t, "msg06a.compact.txt"))
			if _, err := rd.Next(); err != io.EOF {
				t.Errorf("after the reply: %v, want EOF (the proxy closes)", err)
			}
		})
	}
}

// TestHalfCloseNothingOwed: a peer that half-closes with nothing owed
// is closed at once.
func TestHalfCloseNothingOwed(t *testing.T) {
	r := setup(t, "compact", "tcp", "ber", "tcp", nil)
	pass(t, r.mgc, r.mg, "msg01a.compact.txt", "msg01a.ber")
	pass(t, r.mg, r.mgc, "msg06a.ber", "msg06a.compact.txt")
	r.mgc.mu.Lock()
	c := r.mgc.conn.(*net.TCPConn)
	r.mgc.mu.Unlock()
	c.CloseWrite()
	began := time.Now()
	deadline := began.Add(waitFor)
	for r.p.sides[mgcSide].connCount() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := r.p.sides[mgcSide].connCount(); n != 0 {
		t.Errorf("%d connections after a half-close with nothing owed", n)
	}
}

func (s *sideState) connCount() int {
	t := s.t.(*tcpTransport)
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.conns)
}

// TestPeerIsOwnSocket: a UDP peer at the proxy's own listen address
// (the proxy sending to itself) is refused at start.
func TestPeerIsOwnSocket(t *testing.T) {
	free := listenUDPOn(t, "127.0.0.1")
	addr := free.LocalAddr().String()
	free.Close()
	mg := listenUDPOn(t, "127.0.0.1")
	p, err := New(Config{
		MGC: SideConfig{Codec: "compact", Listen: Addr{"udp", addr}, Peer: Addr{"udp", mg.LocalAddr().String()}},
		MG:  SideConfig{Codec: "ber", Listen: Addr{"udp", "127.0.0.1:0"}, Peer: Addr{"udp", addr}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(); err == nil || !strings.Contains(err.Error(), "own sockets") {
		p.Close()
		t.Errorf("started with a peer at its own socket: %v", err)
	}
}
