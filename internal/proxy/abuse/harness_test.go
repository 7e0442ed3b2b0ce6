package abuse

import (
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"megaco/internal/codec"
	"megaco/internal/testbin"
	"megaco/internal/tpkt"
)

// binary is the megaco binary TestMain builds.
var binary string

func TestMain(m *testing.M) {
	os.Exit(testbin.Main(m, "megaco/cmd/megaco", &binary))
}

// proxy is a running `megaco proxy`.
type proxy struct {
	*testbin.Proc
	t                       *testing.T
	mgcAddr, mgAddr, httpAd string
}

var listeningLine = regexp.MustCompile(`msg="proxy listening" mgc_listen=(\S+) .* mg_listen=(\S+) .* http=(\S+)`)

// start runs megaco proxy on loopback between the pair's MGC and MG, on
// their transports, with flags, until the test ends.
func start(t *testing.T, pr *pair, flags ...string) *proxy {
	t.Helper()
	c, g := pr.mgc.network, pr.mg.network
	args := append([]string{"proxy",
		"--mgc-codec", "compact", "--mgc-listen", c + "://127.0.0.1:0", "--mgc", c + "://" + pr.mgc.addr(),
		"--mg-codec", "ber", "--mg-listen", g + "://127.0.0.1:0", "--mg", g + "://" + pr.mg.addr(),
		"--http-addr", "127.0.0.1:0", "--drain-timeout", "3s",
		// The fake MG answers the requests it knows byte for byte: the
		// MGC's mId must reach it unchanged.
		"--identity=off"}, flags...)
	proc, a := testbin.Start(t, binary, args, listeningLine)
	p := &proxy{Proc: proc, t: t, mgcAddr: a[0], mgAddr: a[1], httpAd: a[2]}
	pr.mgc.proxyAddr = p.mgcAddr
	return p
}

// metrics scrapes /metrics (series as written: name{labels}, labels in
// alphabetical order).
func (p *proxy) metrics() map[string]float64 {
	p.t.Helper()
	m, err := testbin.Scrape("http://" + p.httpAd + "/metrics")
	if err != nil {
		p.t.Errorf("scraping /metrics: %v", err)
	}
	return m
}

// sum adds the series of a metric whose labels contain every one given.
func sum(m map[string]float64, name string, labels ...string) float64 {
	var s float64
next:
	for k, v := range m {
		if k != name && !strings.HasPrefix(k, name+"{") {
			continue
		}
		for _, l := range labels {
			if !strings.Contains(k, l) {
				continue next
			}
		}
		s += v
	}
	return s
}

// figures are what the tests report and bound.
type figures struct {
	goroutines, heapMiB, rssMiB, remembered, mgcConns, mgConns float64
}

func (p *proxy) figures() figures {
	m := p.metrics()
	return figures{
		goroutines: m["go_goroutines"],
		heapMiB:    m["go_memstats_heap_inuse_bytes"] / (1 << 20),
		rssMiB:     m["process_resident_memory_bytes"] / (1 << 20),
		remembered: m["megaco_proxy_remembered_transactions"],
		mgcConns:   m[`megaco_proxy_connections{side="mgc"}`],
		mgConns:    m[`megaco_proxy_connections{side="mg"}`],
	}
}

func (f figures) String() string {
	return fmt.Sprintf("goroutines %.0f, heap in use %.1f MiB, RSS %.1f MiB, remembered transactions %.0f, connections mgc %.0f mg %.0f",
		f.goroutines, f.heapMiB, f.rssMiB, f.remembered, f.mgcConns, f.mgConns)
}

// peakFigures samples the figures until stop is closed and returns the
// highest of each.
func (p *proxy) peakFigures(stop <-chan struct{}) <-chan figures {
	return testbin.Peak(stop, p.figures, func(a, b figures) figures {
		return figures{max(a.goroutines, b.goroutines), max(a.heapMiB, b.heapMiB), max(a.rssMiB, b.rssMiB),
			max(a.remembered, b.remembered), max(a.mgcConns, b.mgcConns), max(a.mgConns, b.mgConns)}
	})
}

// The well-behaved pair's transactions: a compact-text Modify from the
// MGC, its BER reply from the MG. Their IDs start at bystanderTID, far
// from the hostile peers' (below hostileTIDs), so that no flood takes
// over their routes.
const (
	bystanderTID = 3_000_000_000
	bystanderN   = 2000
	hostileTIDs  = 2_000_000_000
)

func requestText(tid uint32) string {
	return fmt.Sprintf("!/1 [124.124.124.222]:55555\nT=%d{C=-{MF=11111111/00000000/00000000}}", tid)
}

func replyText(tid uint32) string {
	return fmt.Sprintf("!/1 [125.125.125.111]:55555\nP=%d{C=-{MF=11111111/00000000/00000000}}", tid)
}

func encode(t testing.TB, text, to string) []byte {
	t.Helper()
	b, _, err := codec.Transcode(nil, []byte(text), "", to, codec.Options{})
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return b
}

// exchange holds the pair's messages, made once: the MG answers a
// request by looking up its exact bytes (what the proxy makes of the
// MGC's text), so that it can ignore a flood without decoding it.
type exchange struct {
	requests [][]byte          // compact text, by index
	replies  map[string][]byte // BER request -> BER reply
	answers  map[string]uint32 // compact reply -> transaction ID
}

var (
	exOnce sync.Once
	ex     exchange
)

func theExchange(t testing.TB) *exchange {
	exOnce.Do(func() {
		ex = exchange{replies: map[string][]byte{}, answers: map[string]uint32{}}
		for i := range bystanderN {
			tid := uint32(bystanderTID + i)
			ex.requests = append(ex.requests, encode(t, requestText(tid), "compact"))
			ex.replies[string(encode(t, requestText(tid), "ber"))] = encode(t, replyText(tid), "ber")
			ex.answers[string(encode(t, replyText(tid), "compact"))] = tid
		}
	})
	return &ex
}

// endpoint is a fake peer's socket: UDP, or a TCP listener (the MG,
// which the proxy dials) or a TCP connection to the proxy (the MGC).
type endpoint struct {
	network   string
	udp       *net.UDPConn
	ln        net.Listener
	proxyAddr string
}

func (e *endpoint) addr() string {
	if e.udp != nil {
		return e.udp.LocalAddr().String()
	}
	return e.ln.Addr().String()
}

// pair is a well-behaved MGC (compact text) and MG (BER) with the proxy
// between them: the MGC sends a request every 100 ms and must have its
// reply within 10 s (over UDP it retransmits every 500 ms meanwhile, as
// a real peer does: a flood on the same socket may cost it datagrams);
// the MG answers each request.
type pair struct {
	t        *testing.T
	mgc, mg  *endpoint
	next     int
	answered atomic.Int64
	retrans  atomic.Int64
	failures atomic.Int64
	// strays count what reached the MG, or the MGC, that is not the
	// pair's own traffic (what the proxy forwarded for others); slowest
	// is the longest transaction (ns).
	mgStrays, mgcStrays atomic.Int64
	slowest             atomic.Int64
	mu                  sync.Mutex
	errs                []string
	mgConns             []net.Conn // the MG's, closed at the end
	stop                chan struct{}
	done                chan struct{}
}

// newPair makes the pair, the MGC on transport mgcNet, the MG on mgNet.
func newPair(t *testing.T, mgcNet, mgNet string) *pair {
	t.Helper()
	theExchange(t)
	pr := &pair{t: t, mgc: listen(t, mgcNet), mg: listen(t, mgNet), stop: make(chan struct{}), done: make(chan struct{})}
	if mgNet == "udp" {
		go pr.serveUDP()
		return pr
	}
	t.Cleanup(func() {
		pr.mu.Lock()
		defer pr.mu.Unlock()
		for _, c := range pr.mgConns {
			c.Close()
		}
	})
	go pr.serveTCP()
	return pr
}

// listen opens an endpoint's socket on loopback, until the test ends.
func listen(t *testing.T, network string) *endpoint { return listenAt(t, network, "127.0.0.1") }

// listenAt opens an endpoint's socket on ip (all of 127/8 is loopback).
func listenAt(t *testing.T, network, ip string) *endpoint {
	t.Helper()
	e := &endpoint{network: network}
	if network == "udp" {
		c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.ParseIP(ip)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		e.udp = c
		return e
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	e.ln = ln
	return e
}

// serveUDP is the MG over UDP: it answers the pair's requests, and drops
// everything else (a flood forwarded to it).
func (pr *pair) serveUDP() {
	buf := make([]byte, 65536)
	for {
		n, from, err := pr.mg.udp.ReadFromUDPAddrPort(buf)
		if err != nil {
			return
		}
		if reply, ok := ex.replies[string(buf[:n])]; ok {
			pr.mg.udp.WriteToUDPAddrPort(reply, from)
		} else {
			pr.mgStrays.Add(1)
		}
	}
}

// serveTCP is the MG over TCP: each connection the proxy opens is read
// and answered on.
func (pr *pair) serveTCP() {
	for {
		c, err := pr.mg.ln.Accept()
		if err != nil {
			return
		}
		pr.mu.Lock()
		pr.mgConns = append(pr.mgConns, c)
		pr.mu.Unlock()
		go func() {
			defer c.Close()
			r := tpkt.NewReader(c)
			for {
				m, err := r.Next()
				if err != nil {
					return
				}
				reply, ok := ex.replies[string(m)]
				if !ok {
					pr.mgStrays.Add(1)
					continue
				}
				frame, _ := tpkt.AppendFrame(nil, reply)
				c.SetWriteDeadline(time.Now().Add(10 * time.Second))
				if _, err := c.Write(frame); err != nil {
					return
				}
			}
		}()
	}
}

// transact sends one request from the MGC and waits for its reply.
func (pr *pair) transact(tcp net.Conn, r *tpkt.Reader) error {
	i := pr.next % bystanderN
	pr.next++
	tid := uint32(bystanderTID + i)
	req := ex.requests[i]
	deadline := time.Now().Add(10 * time.Second)
	if tcp != nil {
		frame, _ := tpkt.AppendFrame(nil, req)
		tcp.SetDeadline(deadline)
		if _, err := tcp.Write(frame); err != nil {
			return fmt.Errorf("T=%d: %w", tid, err)
		}
		for {
			m, err := r.Next()
			if err != nil {
				return fmt.Errorf("T=%d: %w", tid, err)
			}
			if pr.answers(m, tid) {
				return nil
			}
		}
	}
	to, err := net.ResolveUDPAddr("udp", pr.mgc.proxyAddr)
	if err != nil {
		return err
	}
	buf := make([]byte, 65536)
	for sent := 0; time.Now().Before(deadline); sent++ {
		if sent > 0 {
			pr.retrans.Add(1)
		}
		if _, err := pr.mgc.udp.WriteTo(req, to); err != nil {
			return fmt.Errorf("T=%d: %w", tid, err)
		}
		wait := time.Now().Add(500 * time.Millisecond)
		if wait.After(deadline) {
			wait = deadline
		}
		pr.mgc.udp.SetReadDeadline(wait)
		for {
			n, _, err := pr.mgc.udp.ReadFrom(buf)
			if err != nil {
				break // retransmit
			}
			if pr.answers(buf[:n], tid) {
				return nil
			}
		}
	}
	return fmt.Errorf("T=%d: no reply in 10 s", tid)
}

// answers reports whether m is the reply to tid, counting what is no
// reply of the pair's as a stray.
func (pr *pair) answers(m []byte, tid uint32) bool {
	id, ok := ex.answers[string(m)]
	if !ok {
		pr.mgcStrays.Add(1)
	}
	return ok && id == tid
}

// watch starts the pair's traffic; one transaction must succeed first
// (before the abuse).
func (pr *pair) watch() {
	t := pr.t
	t.Helper()
	var conn net.Conn
	var r *tpkt.Reader
	if pr.mgc.network == "tcp" {
		var err error
		if conn, err = net.DialTimeout("tcp", pr.mgc.proxyAddr, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		r = tpkt.NewReader(conn)
	}
	if err := pr.transact(conn, r); err != nil {
		t.Fatalf("the well-behaved pair, before any abuse: %v", err)
	}
	go func() {
		defer close(pr.done)
		for {
			select {
			case <-pr.stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			began := time.Now()
			err := pr.transact(conn, r)
			if took := int64(time.Since(began)); took > pr.slowest.Load() {
				pr.slowest.Store(took)
			}
			if err != nil {
				pr.failures.Add(1)
				pr.mu.Lock()
				if len(pr.errs) < 5 {
					pr.errs = append(pr.errs, err.Error())
				}
				pr.mu.Unlock()
				continue
			}
			pr.answered.Add(1)
		}
	}()
}

// check stops the pair and fails the test if any of its transactions
// went unanswered, or none was made.
func (pr *pair) check() {
	t := pr.t
	t.Helper()
	eventually(15*time.Second, func() bool { return pr.answered.Load()+pr.failures.Load() >= 3 })
	close(pr.stop)
	<-pr.done
	if pr.failures.Load() > 0 || pr.answered.Load() == 0 {
		t.Errorf("the well-behaved pair: %d transactions unanswered, %d answered: %v", pr.failures.Load(), pr.answered.Load(), pr.errs)
	} else {
		t.Logf("the well-behaved pair: %d transactions, all answered (%d retransmissions)", pr.answered.Load(), pr.retrans.Load())
	}
}

var eventually = testbin.Eventually
