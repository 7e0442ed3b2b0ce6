package abuse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"megaco/internal/codec"
	"megaco/internal/tpkt"
)

// The bounds the tests assert: generous, for a busy 2-core machine; the
// figures measured are logged for comparison.
const (
	maxHeapMiB = 64
	maxRSSMiB  = 200
	// maxGoroutines is the bound without TCP connections; each accepted
	// connection adds two (its reader and its pair's).
	maxGoroutines = 40
)

// flooder sends from one UDP socket to addr, as fast as it can, until
// stop is closed: requests with random transaction IDs (below the
// pair's), and one datagram in garbageEvery of random bytes (0: none).
func flooder(t *testing.T, addr string, garbageEvery int, stop <-chan struct{}) <-chan int {
	t.Helper()
	c, err := net.Dial("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	sent := make(chan int, 1)
	go func() {
		defer c.Close()
		r := rand.New(rand.NewPCG(1, 2))
		var buf []byte
		n := 0
		for {
			select {
			case <-stop:
				sent <- n
				return
			default:
			}
			if garbageEvery > 0 && n%garbageEvery == 0 {
				buf = buf[:0]
				for range 1 + r.IntN(1400) {
					buf = append(buf, byte(r.Uint32()))
				}
			} else {
				buf = fmt.Appendf(buf[:0], "!/1 [124.124.124.222]:55555\nT=%d{C=-{MF=11111111/00000000/00000000}}", 1+r.Uint32N(hostileTIDs))
			}
			// The proxy's answers to the garbage come back to this socket
			// and are never read: the kernel drops them, and the refused
			// sends it may report are of no interest.
			_, _ = c.Write(buf)
			n++
		}
	}()
	return sent
}

// TestUDPFlood: one source floods the MGC side with requests (random
// transaction IDs, never answered) and garbage for a few seconds. The
// routing table stays at --max-transactions (a small bound, which the
// flood passes many times, and the default, which it may fill), the
// heap, RSS and goroutines bounded, the log a few lines a second, and the
// well-behaved pair gets every answer (retransmitting what the flood cost
// it, as peers do).
func TestUDPFlood(t *testing.T) {
	for _, bound := range []int{1000, 100000} {
		t.Run(fmt.Sprint(bound), func(t *testing.T) { udpFlood(t, bound) })
	}
}

func udpFlood(t *testing.T, bound int) {
	pr := newPair(t, "udp", "udp")
	p := start(t, pr, "--max-transactions", fmt.Sprint(bound))
	before := p.figures()
	pr.watch()
	logBefore := p.Log.Len()
	stop := make(chan struct{})
	peak := p.peakFigures(stop)
	sent := flooder(t, p.mgcAddr, 4, stop)
	const floodFor = 4 * time.Second
	time.Sleep(floodFor)
	close(stop)
	n := <-sent
	pk := <-peak
	pr.check()
	m := p.metrics()
	forwarded := sum(m, "megaco_proxy_messages_total", `direction="mgc_to_mg"`, `kind="request"`, `outcome="forwarded"`)
	decode := sum(m, "megaco_proxy_errors_total", `side="mgc"`, `reason="decode"`)
	evicted := sum(m, "megaco_proxy_errors_total", `side="mgc"`, `reason="limit"`)
	t.Logf("flood: %d datagrams sent in %v; forwarded %.0f requests, %.0f undecodable, %.0f routes evicted", n, floodFor, forwarded, decode, evicted)
	t.Logf("before: %v", before)
	t.Logf("peak:   %v", pk)
	if pk.remembered > float64(bound) {
		t.Errorf("routing table reached %.0f entries, over --max-transactions %d", pk.remembered, bound)
	}
	// The small bound is passed whatever the machine's speed.
	if forwarded < 1000 || decode == 0 || bound == 1000 && evicted == 0 {
		t.Errorf("the flood did not reach the proxy's bounds: forwarded %.0f, undecodable %.0f, evicted %.0f", forwarded, decode, evicted)
	}
	checkPeak(t, pk, 0, bound)
	checkLog(t, p, logBefore, floodFor)
}

// checkPeak bounds the peak heap, RSS and goroutines, allowing conns
// accepted connections and a routing table of routes entries at most.
func checkPeak(t *testing.T, pk figures, conns, routes int) {
	t.Helper()
	g := maxGoroutines + 2*conns
	// A route costs about 400 bytes (measured: 100,000 took the heap
	// from 12 to 44 MiB); allow 1 KiB.
	extra := float64(routes) / 1024
	heap, rss := maxHeapMiB+extra, maxRSSMiB+extra
	if pk.heapMiB > heap || pk.rssMiB > rss || pk.goroutines > float64(g) {
		t.Errorf("peak over the bounds (heap %.0f MiB, RSS %.0f MiB, %d goroutines): %v", heap, rss, g, pk)
	}
}

// checkLog bounds what the proxy logged since offset during d: the error
// logs are limited to 10 lines a second plus a count of those left out.
func checkLog(t *testing.T, p *proxy, offset int, d time.Duration) {
	t.Helper()
	logged := p.Log.String()[offset:]
	lines := strings.Count(logged, "\n")
	limit := int(d.Seconds()+3) * 12
	t.Logf("log: %d lines, %d bytes in %v", lines, len(logged), d)
	if lines > limit || len(logged) > limit*1024 {
		t.Errorf("log not rate-limited: %d lines, %d bytes (want at most %d lines of 1 KiB)", lines, len(logged), limit)
	}
}

// TestGarbage: random bytes, truncated BER, huge text and oversized
// datagrams. Requests whose transaction ID can be read are answered with
// a transaction error (RFC 3525 section 8.2.2); what shows no request is
// not answered; the answers are small whatever the input's size;
// everything is counted; then a burst of each is sent and the log stays
// rate-limited.
func TestGarbage(t *testing.T) {
	pr := newPair(t, "udp", "udp")
	p := start(t, pr, "--max-message-size", "8192")
	pr.watch()
	huge := "!/1 [124.124.124.222]:55555\nT=78{C=-{MF=" + strings.Repeat("a", 60000) + "}}"
	ber, err := os.ReadFile("../../../corpus/otp-time-test/msg01a.ber")
	if err != nil {
		t.Fatal(err)
	}
	random := make([]byte, 700)
	for i := range random {
		random[i] = byte(rand.Uint32())
	}
	cases := []struct {
		name, side string
		data       []byte
		want       []string // in the answer, as compact text; nil: no answer needed
	}{
		{"syntax error", "mgc", []byte("!/1 [124.124.124.222]:55555\nT=77{C=-{XX=1}}"), []string{"P=77", "ER=403"}},
		{"huge text", "mgc", []byte(huge), []string{"P=78", "ER="}},
		{"oversized datagram", "mgc", bytes.Repeat([]byte("x"), 65507), nil},
		{"random bytes (text side)", "mgc", random, nil},
		{"truncated BER", "mg", ber[:len(ber)/2], []string{"P=9999", "ER="}},
		{"random bytes (BER side)", "mg", random, nil},
	}
	hostile, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer hostile.Close()
	to := map[string]*net.UDPAddr{}
	for side, a := range map[string]string{"mgc": p.mgcAddr, "mg": p.mgAddr} {
		if to[side], err = net.ResolveUDPAddr("udp", a); err != nil {
			t.Fatal(err)
		}
	}
	// A case answered on a side is the probe of what is not: the probe's
	// answer comes after any to the case before it (one socket, one loop).
	probes := map[string]int{"mgc": 0, "mg": 4}
	buf := make([]byte, 65536)
	for _, c := range cases {
		if _, err := hostile.WriteTo(c.data, to[c.side]); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		hostile.SetReadDeadline(time.Now().Add(10 * time.Second))
		if c.want == nil {
			probe := cases[probes[c.side]]
			hostile.WriteTo(probe.data, to[c.side])
			n, _, err := hostile.ReadFrom(buf)
			if err != nil || !bytes.Contains(asText(c.side, buf[:n]), []byte(probe.want[0])) {
				t.Errorf("%s: answered (%d bytes, %v) where nothing is due", c.name, n, err)
			}
			continue
		}
		n, _, err := hostile.ReadFrom(buf)
		if err != nil {
			t.Errorf("%s: no answer: %v", c.name, err)
			continue
		}
		answer := asText(c.side, buf[:n])
		if answer == nil {
			t.Errorf("%s: the answer is not BER: %q", c.name, buf[:n])
			continue
		}
		t.Logf("%s (%d bytes): answered with %d bytes: %.160q", c.name, len(c.data), n, answer)
		for _, w := range c.want {
			if !bytes.Contains(answer, []byte(w)) {
				t.Errorf("%s: answer %q lacks %q", c.name, answer, w)
			}
		}
		if n > 2048 {
			t.Errorf("%s: a %d-byte answer: input echoed?", c.name, n)
		}
	}

	// A burst of each, unread answers and all: counted, logged a few
	// lines a second.
	logBefore := p.Log.Len()
	stop := make(chan struct{})
	peak := p.peakFigures(stop)
	began := time.Now()
	for range 300 {
		for _, c := range cases {
			hostile.WriteTo(c.data, to[c.side])
		}
		time.Sleep(5 * time.Millisecond) // the socket drops what it cannot hold: keep most
	}
	took := time.Since(began)
	time.Sleep(time.Second)
	close(stop)
	pk := <-peak
	pr.check()
	m := p.metrics()
	for _, s := range []string{
		`megaco_proxy_errors_total{reason="decode",side="mgc"}`,
		`megaco_proxy_errors_total{reason="decode",side="mg"}`,
		`megaco_proxy_messages_total{direction="mgc_to_mg",kind="request",outcome="rejected"}`,
		`megaco_proxy_messages_total{direction="mgc_to_mg",kind="error",outcome="dropped"}`,
		`megaco_proxy_messages_total{direction="mg_to_mgc",kind="request",outcome="rejected"}`,
	} {
		t.Logf("%s %.0f", s, m[s])
		if m[s] < 50 {
			t.Errorf("%s: %.0f, want the burst counted", s, m[s])
		}
	}
	t.Logf("peak: %v", pk)
	checkPeak(t, pk, 0, 0)
	checkLog(t, p, logBefore, took+time.Second)
}

// asText is an answer from side as compact text (the MG side's is BER),
// nil if it does not decode.
func asText(side string, b []byte) []byte {
	if side == "mgc" {
		return b
	}
	text, _, err := codec.Transcode(nil, b, "ber", "compact", codec.Options{})
	if err != nil {
		return nil
	}
	return text
}

// tcpFlags are the TCP tests' limits: short timeouts, so that the tests
// see them act.
var tcpFlags = []string{"--max-conns", "50", "--handshake-timeout", "2s", "--write-timeout", "2s", "--idle-timeout", "4s",
	"--max-transactions", "1000"}

// startTCP starts the pair and the proxy over TCP, and returns the
// goroutines with the pair's connections open.
func startTCP(t *testing.T) (*pair, *proxy, figures) {
	t.Helper()
	pr := newPair(t, "tcp", "tcp")
	p := start(t, pr, tcpFlags...)
	pr.watch()
	time.Sleep(200 * time.Millisecond)
	return pr, p, p.figures()
}

// settle waits for the proxy to hold only the pair's connections again
// and its goroutines to return to near the baseline.
func settle(t *testing.T, p *proxy, base figures) {
	t.Helper()
	var f figures
	ok := eventually(20*time.Second, func() bool {
		f = p.figures()
		return f.mgcConns == 1 && f.mgConns == 1 && f.goroutines <= base.goroutines+3
	})
	t.Logf("after: %v", f)
	if !ok {
		t.Errorf("the proxy did not return to its baseline (%v)", base)
	}
}

// closedByProxy waits up to d for the proxy to close c (a read ending
// in EOF or a reset), reading and discarding whatever comes.
func closedByProxy(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	return err == nil || errors.Is(err, syscall.ECONNRESET)
}

// sendAndWait connects to addr, sends data and waits up to d for the
// proxy to close the connection, reporting how long that took.
func sendAndWait(t *testing.T, addr string, data []byte, d time.Duration) (time.Duration, bool) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	began := time.Now()
	c.SetWriteDeadline(began.Add(d))
	if _, err := c.Write(data); err != nil {
		t.Fatal(err)
	}
	ok := closedByProxy(c, d)
	return time.Since(began).Round(time.Millisecond), ok
}

// TestTCPSilentConnections: four times --max-conns connections that
// connect and send nothing. Those past the bound are closed at once, the
// rest after the handshake timeout; the pair's connection is untouched.
func TestTCPSilentConnections(t *testing.T) {
	pr, p, base := startTCP(t)
	stop := make(chan struct{})
	peak := p.peakFigures(stop)
	const n = 200
	conns := make([]net.Conn, 0, n)
	for range n {
		c, err := net.DialTimeout("tcp", p.mgcAddr, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	var closed sync.WaitGroup
	var mu sync.Mutex
	open := 0
	for _, c := range conns {
		closed.Go(func() {
			if !closedByProxy(c, 20*time.Second) {
				mu.Lock()
				open++
				mu.Unlock()
			}
		})
	}
	closed.Wait()
	close(stop)
	pk := <-peak
	pr.check()
	t.Logf("before: %v", base)
	t.Logf("peak:   %v", pk)
	if open > 0 {
		t.Errorf("%d of %d silent connections still open after 20 s", open, n)
	}
	if pk.mgcConns > 50 || pk.mgConns > 50 {
		t.Errorf("connections over --max-conns 50: %v", pk)
	}
	m := p.metrics()
	if l := m[`megaco_proxy_errors_total{reason="limit",side="mgc"}`]; l < n {
		t.Errorf("limit errors: %.0f, want %d (refused or silent)", l, n)
	}
	checkPeak(t, pk, 50, 0)
	settle(t, p, base)
}

// TestTCPBrokenHeader: connections that send something other than TPKT
// (at once, or after a good message) are closed at once and counted.
func TestTCPBrokenHeader(t *testing.T) {
	pr, p, base := startTCP(t)
	good, _ := tpkt.AppendFrame(nil, []byte(requestText(12345)))
	for _, data := range [][]byte{
		[]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
		{3, 0, 0, 4}, // a packet of no message
		append(good, 2, 0, 0, 100),
	} {
		// Closed well before the handshake (2 s) and idle (4 s)
		// timeouts, on a machine that is not stalled.
		if took, ok := sendAndWait(t, p.mgcAddr, data, 10*time.Second); !ok {
			t.Errorf("%q: not closed", data)
		} else {
			t.Logf("%.40q: closed after %v", data, took)
		}
	}
	pr.check()
	if d := p.metrics()[`megaco_proxy_errors_total{reason="decode",side="mgc"}`]; d != 3 {
		t.Errorf("decode errors: %.0f, want 3", d)
	}
	settle(t, p, base)
}

// TestTCPHalfMessage: a connection that sends half of its first message
// and stalls is closed at the handshake timeout; one that stalls in the
// middle of a later message, at the idle timeout (the pair silent too).
func TestTCPHalfMessage(t *testing.T) {
	pr, p, base := startTCP(t)
	good, _ := tpkt.AppendFrame(nil, []byte(requestText(12345)))
	half := good[:len(good)/2]
	for _, data := range [][]byte{half, append(bytes.Clone(good), half...)} {
		if took, ok := sendAndWait(t, p.mgcAddr, data, 20*time.Second); !ok {
			t.Errorf("%d bytes and a stall: not closed in 20 s", len(data))
		} else {
			t.Logf("%d bytes and a stall: closed after %v", len(data), took)
		}
	}
	pr.check()
	settle(t, p, base)
}

// TestTCPNotReading: a peer that sends requests the proxy answers (with
// errors) and never reads them. Once the socket buffers are full, the
// proxy's write waits --write-timeout and drops the connection; only
// that connection's goroutine waits meanwhile.
func TestTCPNotReading(t *testing.T) {
	pr, p, base := startTCP(t)
	stop := make(chan struct{})
	peak := p.peakFigures(stop)
	// A small receive buffer fills sooner.
	d := net.Dialer{Timeout: 10 * time.Second, Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	c, err := d.Dial("tcp", p.mgcAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var stream []byte
	for i := range 100 {
		stream, _ = tpkt.AppendFrame(stream, fmt.Appendf(nil, "!/1 [124.124.124.222]:55555\nT=%d{C=-{XX=1}}", 1000+i))
	}
	began := time.Now()
	var wrote, off int
	for time.Since(began) < 30*time.Second {
		c.SetWriteDeadline(time.Now().Add(time.Second))
		n, err := c.Write(stream[off:]) // on where a cut-short write stopped, as in TestTCPFlood
		wrote += n
		off = (off + n) % len(stream)
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			break // the proxy closed it
		}
		if p.metrics()[`megaco_proxy_errors_total{reason="io",side="mgc"}`] > 0 {
			break
		}
	}
	took := time.Since(began)
	close(stop)
	pk := <-peak
	// The proxy counts the failed write just after closing.
	var io float64
	eventually(10*time.Second, func() bool {
		io = p.metrics()[`megaco_proxy_errors_total{reason="io",side="mgc"}`]
		return io > 0
	})
	t.Logf("sent %d KiB of requests without reading; dropped after %v (io errors %.0f)", wrote>>10, took.Round(time.Millisecond), io)
	if io == 0 {
		t.Errorf("the peer that does not read was not dropped in %v", took)
	}
	pr.check()
	t.Logf("before: %v", base)
	t.Logf("peak:   %v", pk)
	checkPeak(t, pk, 2, 0)
	settle(t, p, base)
}

// TestTCPFlood: one connection sends requests (random transaction IDs,
// never answered) as fast as it can for a few seconds. They go to the MG
// on that connection's own pair; the pair's connection is served as
// before, the routing table stays at --max-transactions, and when the
// flooder leaves everything returns to the baseline.
func TestTCPFlood(t *testing.T) {
	pr, p, base := startTCP(t)
	stop := make(chan struct{})
	peak := p.peakFigures(stop)
	var stream []byte
	r := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		stream, _ = tpkt.AppendFrame(stream, []byte(requestText(1+r.Uint32N(hostileTIDs))))
	}
	c, err := net.DialTimeout("tcp", p.mgcAddr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	const floodFor = 4 * time.Second
	var wrote, off int
	for began := time.Now(); time.Since(began) < floodFor; {
		c.SetWriteDeadline(time.Now().Add(time.Second))
		// A write cut short by its deadline goes on where it stopped: a
		// stream restarted mid-frame would be a broken TPKT stream, which
		// the proxy rightly drops (a busy machine cuts writes short).
		n, err := c.Write(stream[off:])
		wrote += n
		off = (off + n) % len(stream)
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("the flooding connection: %v", err)
			break
		}
	}
	c.Close()
	close(stop)
	pk := <-peak
	pr.check()
	m := p.metrics()
	t.Logf("flood: %d KiB in %v; forwarded %.0f requests", wrote>>10, floodFor,
		m[`megaco_proxy_messages_total{direction="mgc_to_mg",kind="request",outcome="forwarded"}`])
	t.Logf("before: %v", base)
	t.Logf("peak:   %v", pk)
	if pk.remembered > 1000 {
		t.Errorf("routing table reached %.0f entries, over --max-transactions 1000", pk.remembered)
	}
	checkPeak(t, pk, 2, 1000)
	settle(t, p, base)
}

// TestSIGTERMDuringFlood: SIGTERM while a flood of requests (never
// answered, so always in flight) goes on: the proxy drops the new ones,
// waits --drain-timeout (3 s) for the rest and exits 0, well within the
// margin.
func TestSIGTERMDuringFlood(t *testing.T) {
	pr := newPair(t, "udp", "udp")
	// A table of 20,000: the flood's requests are never answered, so
	// each evicts the oldest entry; with 1,000 the pair's entry lived a
	// few milliseconds on a fast flood, less than a busy machine takes to
	// answer it (the pair then failed though the proxy was sound).
	p := start(t, pr, "--max-transactions", "20000", "--drain-timeout", "3s")
	pr.watch()
	stop := make(chan struct{})
	sent := flooder(t, p.mgcAddr, 0, stop)
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		<-sent
	}()
	time.Sleep(time.Second)
	pr.check()
	began := time.Now()
	p.Terminate()
	code := p.Wait(3*time.Second + 20*time.Second)
	t.Logf("exit status %d after %v", code, time.Since(began).Round(time.Millisecond))
	if code != 0 {
		t.Errorf("exit status %d (-1: still running after the drain timeout and 20 s), want 0", code)
	}
}

// TestMixedSilentConnections: with the MGC on UDP and the MG on TCP, the
// MGC's requests go on the MG side's connection last active. Connections
// to the proxy's MG side that send nothing (anyone may connect there)
// must not become that connection and swallow the MGC's requests.
func TestMixedSilentConnections(t *testing.T) {
	pr := newPair(t, "udp", "tcp")
	p := start(t, pr, "--handshake-timeout", "30s")
	pr.watch()
	for range 5 {
		c, err := net.DialTimeout("tcp", p.mgAddr, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	time.Sleep(2 * time.Second)
	pr.check()
	t.Logf("figures: %v", p.figures())
}
