package abuse

import (
	be "encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"megaco/internal/tpkt"
)

// The attacks of a hostile network on the proxy's addresses: traffic
// from hosts that are not the peers, datagrams forged to come from the
// proxy's own sockets, error answers as an amplifier, connection churn
// with a full routing table, and half-closed connections.

// listenOn opens a UDP socket on ip until the test ends.
func listenOn(t *testing.T, ip string) *net.UDPConn { return listenAt(t, "udp", ip).udp }

func udpAddr(t *testing.T, a string) *net.UDPAddr {
	t.Helper()
	u, err := net.ResolveUDPAddr("udp", a)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestUnknownPeer: the MGC and the MG are 127.0.0.1. Requests from
// 127.0.0.2 to the MGC side (over UDP, and over TCP, where the
// connection is closed at once) and replies from 127.0.0.2 to the MG side
// reach neither peer; they are counted as unknown_peer drops. The
// well-behaved pair is served throughout.
func TestUnknownPeer(t *testing.T) {
	for _, network := range []string{"udp", "tcp"} {
		t.Run(network, func(t *testing.T) { unknownPeer(t, network) })
	}
}

func unknownPeer(t *testing.T, network string) {
	pr := newPair(t, network, network)
	p := start(t, pr)
	pr.watch()
	n := 20 // datagrams each way
	if network == "tcp" {
		n = 5 // connections each way
	}
	var u *net.UDPConn
	if network == "udp" {
		u = listenOn(t, "127.0.0.2")
	}
	stranger := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}, Timeout: 10 * time.Second}
	for i := range n {
		req := encode(t, requestText(uint32(hostileTIDs+i)), "compact")
		reply := encode(t, replyText(uint32(hostileTIDs+i)), "ber")
		if u != nil {
			u.WriteTo(req, udpAddr(t, p.mgcAddr))
			u.WriteTo(reply, udpAddr(t, p.mgAddr))
			continue
		}
		for _, x := range []struct {
			to  string
			msg []byte
		}{{p.mgcAddr, req}, {p.mgAddr, reply}} {
			c, err := stranger.Dial("tcp", x.to)
			if err != nil {
				continue // refused: as good as closed
			}
			frame, _ := tpkt.AppendFrame(nil, x.msg)
			c.Write(frame)
			closed := closedByProxy(c, 5*time.Second)
			c.Close()
			if !closed {
				t.Fatalf("a connection from 127.0.0.2 to %s left open for 5 s", x.to)
			}
		}
	}
	var mgc, mg float64
	want := float64(n)
	counted := eventually(10*time.Second, func() bool {
		m := p.metrics()
		mgc = m[`megaco_proxy_dropped_total{reason="unknown_peer",side="mgc"}`]
		mg = m[`megaco_proxy_dropped_total{reason="unknown_peer",side="mg"}`]
		return mgc >= want && mg >= want || pr.mgStrays.Load()+pr.mgcStrays.Load() > 0
	})
	pr.check() // the pair's messages, after the strangers', on the same paths
	t.Logf("from 127.0.0.2: %d requests, %d replies (%s); dropped as unknown peers: mgc side %.0f, mg side %.0f; reached the MG %d, the MGC %d",
		n, n, network, mgc, mg, pr.mgStrays.Load(), pr.mgcStrays.Load())
	if !counted || mgc < want || mg < want {
		t.Errorf("unknown_peer drops: mgc %.0f, mg %.0f, want %d each", mgc, mg, n)
	}
	if pr.mgStrays.Load() > 0 || pr.mgcStrays.Load() > 0 {
		t.Errorf("forwarded for 127.0.0.2: %d to the MG, %d to the MGC", pr.mgStrays.Load(), pr.mgcStrays.Load())
	}
}

// forgeUDP sends payload in a UDP datagram whose source is from, to to,
// through a raw socket (CAP_NET_RAW; the test is skipped without it).
func forgeUDP(t *testing.T, from, to netip.AddrPort, payload []byte) {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_RAW, syscall.IPPROTO_RAW)
	if err != nil {
		t.Skipf("a raw socket, to forge the source address: %v (needs CAP_NET_RAW)", err)
	}
	defer syscall.Close(fd)
	pkt := make([]byte, 28, 28+len(payload))
	pkt[0] = 0x45 // IPv4, 5 words of header
	be.BigEndian.PutUint16(pkt[2:], uint16(28+len(payload)))
	pkt[8] = 64 // TTL
	pkt[9] = syscall.IPPROTO_UDP
	src, dst := from.Addr().As4(), to.Addr().As4()
	copy(pkt[12:], src[:])
	copy(pkt[16:], dst[:])
	be.BigEndian.PutUint16(pkt[20:], from.Port())
	be.BigEndian.PutUint16(pkt[22:], to.Port())
	be.BigEndian.PutUint16(pkt[24:], uint16(8+len(payload)))
	// The UDP checksum 0: none (IPv4); the kernel fills the IP header's.
	pkt = append(pkt, payload...)
	if err := syscall.Sendto(fd, pkt, 0, &syscall.SockaddrInet4{Addr: dst}); err != nil {
		t.Fatalf("sending the forged datagram: %v", err)
	}
}

// TestOwnSocketForgery: one datagram whose source is the proxy's own MG
// socket, sent to its MGC socket: a request the MGC side cannot decode,
// so that an answer would go to the MG socket, which cannot decode the
// MGC side's codec either, and so on. It is dropped (own_socket); over
// the 3 s that follow the proxy answers at most 2 errors (the ping-pong
// ran at 36,000 a second, for ever).
func TestOwnSocketForgery(t *testing.T) {
	pr := newPair(t, "udp", "udp")
	p := start(t, pr)
	pr.watch()
	errorsNow := func() (float64, float64) {
		m := p.metrics()
		return sum(m, "megaco_proxy_errors_total", `reason="decode"`), m[`megaco_proxy_dropped_total{reason="own_socket",side="mgc"}`]
	}
	before, _ := errorsNow()
	forgeUDP(t, netip.MustParseAddrPort(p.mgAddr), netip.MustParseAddrPort(p.mgcAddr),
		[]byte("!/1 [124.124.124.222]:55555\nT=1{C=-{XX=1}}"))
	var errs, own float64
	eventually(10*time.Second, func() bool {
		errs, own = errorsNow()
		return own > 0 || errs-before > 100
	})
	const window, bound = 3 * time.Second, 2
	for end := time.Now().Add(window); time.Now().Before(end) && errs-before <= bound; {
		time.Sleep(100 * time.Millisecond) // observing, not synchronising
		errs, own = errorsNow()
	}
	pr.check()
	t.Logf("after the forged datagram: own_socket drops %.0f, decode errors %.0f (in %v or less)", own, errs-before, window)
	if own != 1 || errs-before > bound {
		t.Errorf("own_socket drops %.0f (want 1), decode errors %.0f (want at most %d)", own, errs-before, bound)
	}
}

// TestAmplification: every error answer is at most max(512 bytes, 2 ×
// what provoked it), what shows no request is not answered at all, and
// a source sending bad requests faster than 10 a second (after a burst
// of 20) gets no answer past that (error_rate drops).
func TestAmplification(t *testing.T) {
	pr := newPair(t, "udp", "udp")
	p := start(t, pr)
	pr.watch()
	var many strings.Builder // 496 bytes: 32 requests, each to be answered
	many.WriteString("!/1 [1.2.3.4]:5\n")
	for i := range 32 {
		fmt.Fprintf(&many, "T=%d{C=-{XX}}", 1000+i)
	}
	long := "!/1 [1.2.3.4]:5\nT=7{C=-{MF=" + strings.Repeat("A", 3000) + "}}"
	probe := []byte("!/1 [1.2.3.4]:5\nT=99{C=-{XX}}")
	cases := []struct {
		name string
		data []byte
	}{
		{"1 byte", []byte("x")},
		{"32 requests in 496 bytes", []byte(many.String())},
		{"a long name", []byte(long)},
		{"an error reply", []byte("!/1 [1.2.3.4]:5\nP=5{ER=400{\"x\"}}")},
		{"a message error", []byte("!/1 [1.2.3.4]:5\nER=400{\"x\"}")},
		{"garbage", []byte(strings.Repeat("\x80zz", 300))},
	}
	h := listenOn(t, "127.0.0.1") // the MGC's host: taken, as any port of it
	to := udpAddr(t, p.mgcAddr)
	buf := make([]byte, 65536)
	var in, out int
	for _, c := range cases {
		// The probe after the case: its answer comes after the case's,
		// if any (one socket, one loop, in order).
		h.WriteTo(c.data, to)
		h.WriteTo(probe, to)
		h.SetReadDeadline(time.Now().Add(10 * time.Second))
		n, _, err := h.ReadFrom(buf)
		if err != nil {
			t.Fatalf("%s: no answer to the probe: %v", c.name, err)
		}
		answer := 0
		if !strings.Contains(string(buf[:n]), "P=99{") {
			answer = n
			if n, _, err = h.ReadFrom(buf); err != nil || !strings.Contains(string(buf[:n]), "P=99{") {
				t.Fatalf("%s: no answer to the probe after the case's: %v", c.name, err)
			}
		}
		in += len(c.data)
		out += answer
		bound := max(512, 2*len(c.data))
		t.Logf("%s: %d bytes in, %d out (bound %d)", c.name, len(c.data), answer, bound)
		if answer > bound {
			t.Errorf("%s: a %d-byte answer to %d bytes, over %d", c.name, answer, len(c.data), bound)
		}
	}
	t.Logf("all cases: %d bytes in, %d out", in, out)

	// The rate: 100 bad requests at once from another port of the same
	// host (the budget is the host's: the cases above took 8 of it).
	r := listenOn(t, "127.0.0.1")
	const sent = 100
	began := time.Now()
	for i := range sent {
		r.WriteTo(fmt.Appendf(nil, "!/1 [1.2.3.4]:5\nT=%d{C=-{XX}}", 2000+i), to)
	}
	answers := 0
	var limited float64
	for time.Since(began) < 10*time.Second {
		r.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		if _, _, err := r.ReadFrom(buf); err == nil {
			answers++
			continue
		}
		limited = p.metrics()[`megaco_proxy_dropped_total{reason="error_rate",side="mgc"}`]
		if answers+int(limited) >= sent {
			break
		}
	}
	took := time.Since(began)
	allowed := 20 + int(10*took.Seconds()) + 1
	t.Logf("%d bad requests at once: %d answered, %.0f withheld (error_rate) in %v (allowed %d)", sent, answers, limited, took.Round(time.Millisecond), allowed)
	if answers > allowed || answers+int(limited) < sent {
		t.Errorf("%d answered and %.0f withheld of %d, want at most %d answered and the rest withheld", answers, limited, sent, allowed)
	}
	pr.check()
}

// TestChurnFullTable: with the routing table full (100,000 entries),
// connections to the proxy's TCP side open and close as fast as 50
// clients can for 4 s. Each close removes its own entries, not a scan of
// the table under its lock (3.3 ms per close, which stalled all routing
// for seconds): the well-behaved pair's transactions all succeed and the
// slowest takes under 2 s.
func TestChurnFullTable(t *testing.T) {
	pr := newPair(t, "udp", "tcp")
	p := start(t, pr, "--max-transactions", "100000", "--remember", "5m")
	// Fill the table: requests the MG never answers.
	stop := make(chan struct{})
	sent := flooder(t, p.mgcAddr, 0, stop)
	var remembered float64
	full := eventually(120*time.Second, func() bool {
		remembered = p.metrics()["megaco_proxy_remembered_transactions"]
		return remembered >= 99000
	})
	close(stop)
	<-sent
	if !full {
		t.Fatalf("the table did not fill: %.0f entries", remembered)
	}
	pr.watch()
	var churns atomic.Int64
	var wg sync.WaitGroup
	end := time.Now().Add(4 * time.Second)
	for range 50 {
		wg.Go(func() {
			for time.Now().Before(end) {
				c, err := net.DialTimeout("tcp", p.mgAddr, 10*time.Second)
				if err != nil {
					continue
				}
				c.Close()
				churns.Add(1)
			}
		})
	}
	wg.Wait()
	pr.check()
	slowest := time.Duration(pr.slowest.Load())
	t.Logf("table %.0f entries; %d connections opened and closed in 4 s; the pair's slowest transaction %v", remembered, churns.Load(), slowest.Round(time.Millisecond))
	if churns.Load() < 500 {
		t.Errorf("only %d churns: the test did not churn", churns.Load())
	}
	if slowest > 2*time.Second {
		t.Errorf("a transaction took %v during the churn, want under 2 s", slowest)
	}
}

// TestHalfClose: a TCP client sends the pair's request and shuts down
// its sending side (SHUT_WR) at once; it still gets its reply, then the
// proxy closes the connection.
func TestHalfClose(t *testing.T) {
	pr := newPair(t, "tcp", "tcp")
	p := start(t, pr)
	pr.watch()
	for i := range 5 {
		c, err := net.DialTimeout("tcp", p.mgcAddr, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		frame, _ := tpkt.AppendFrame(nil, ex.requests[100+i])
		c.Write(frame)
		c.(*net.TCPConn).CloseWrite()
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		r := tpkt.NewReader(c)
		m, err := r.Next()
		if err != nil || ex.answers[string(m)] != uint32(bystanderTID+100+i) {
			t.Errorf("request %d then SHUT_WR: %q, %v; want its reply", i, m, err)
		} else if _, err := r.Next(); err != io.EOF && !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("request %d: after the reply %v, want the connection closed", i, err)
		}
		c.Close()
	}
	pr.check()
}
