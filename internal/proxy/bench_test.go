package proxy

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/monotime"
)

// sink is a UDP socket that reads and discards everything.
func sink(b *testing.B) *net.UDPConn {
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.Fatal(err)
	}
	go func() {
		buf := make([]byte, 65536)
		for {
			// ReadFromUDPAddrPort allocates nothing: the benchmark's
			// allocations are the proxy's alone.
			if _, _, err := c.ReadFromUDPAddrPort(buf); err != nil {
				return
			}
		}
	}()
	b.Cleanup(func() { c.Close() })
	return c
}

// udpProxy starts a proxy on loopback UDP between the two peers.
func udpProxy(b *testing.B, mgcCodec string, mgc net.Addr, mgCodec string, mg net.Addr) *Proxy {
	return udpProxyIdentity(b, mgcCodec, mgc, mgCodec, mg, false)
}

// udpProxyIdentity is udpProxy with identity rewriting on or off.
func udpProxyIdentity(b *testing.B, mgcCodec string, mgc net.Addr, mgCodec string, mg net.Addr, off bool) *Proxy {
	p, err := New(Config{
		MGC:         SideConfig{Codec: mgcCodec, Listen: Addr{"udp", "127.0.0.1:0"}, Peer: Addr{"udp", mgc.String()}},
		MG:          SideConfig{Codec: mgCodec, Listen: Addr{"udp", "127.0.0.1:0"}, Peer: Addr{"udp", mg.String()}},
		Registry:    prometheus.NewRegistry(),
		IdentityOff: off,
	})
	if err != nil {
		b.Fatal(err)
	}
	if err := p.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(p.Close)
	return p
}

// BenchmarkHandle is the per-message path without the peers: decode,
// transcode (or not, relay), route through the table and send, for a
// request one way and its reply the other (2 messages per op).
// relay-ber-decode is relay-ber with the BER scanner turned off: the
// ratio of the two is what relaying from a scan saves. The -identity-off
// modes pass the peers' mIds on (Config.IdentityOff): against relay and
// relay-ber, what presenting the proxy (the mId spliced in) costs.
func BenchmarkHandle(b *testing.B) {
	for _, mode := range []struct{ name, mgc, mg string }{{"transcode", "compact", "ber"}, {"relay", "compact", "compact"},
		{"relay-identity-off", "compact", "compact"}, {"relay-ber", "ber", "ber"}, {"relay-ber-identity-off", "ber", "ber"},
		{"relay-ber-decode", "ber", "ber"}} {
		b.Run(mode.name, func(b *testing.B) {
			if mode.name == "relay-ber-decode" {
				defer func(f func(string, []byte, *scan.Summary, limits.Limits) error) { scanner = f }(scanner)
				scanner = func(string, []byte, *scan.Summary, limits.Limits) error { return errNoScanner }
			}
			mgcSink, mgSink := sink(b), sink(b)
			p := udpProxyIdentity(b, mode.mgc, mgcSink.LocalAddr(), mode.mg, mgSink.LocalAddr(), strings.HasSuffix(mode.name, "-identity-off"))
			req := encode(b, string(corpusFile(b, "msg01a.compact.txt")), mode.mgc)
			reply := encode(b, string(corpusFile(b, "msg06a.compact.txt")), mode.mg)
			from := dest{addr: netip.MustParseAddrPort(mgcSink.LocalAddr().String())}
			mgFrom := dest{addr: netip.MustParseAddrPort(mgSink.LocalAddr().String())}
			w := new(worker)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p.handle(w, mgcSide, from, req)
				p.handle(w, mgSide, mgFrom, reply)
			}
			b.ReportMetric(float64(2*b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}

var errNoScanner = errors.New("no scanner")

// BenchmarkUDP is end to end on loopback: a fake MGC sends a request,
// a fake MG answers it at once, the MGC waits for the reply (one in
// flight). "direct" has no proxy between them: the baseline the others'
// latencies add to. Reported: round-trip p50/p99 and messages/s through
// the proxy (two per round trip).
func BenchmarkUDP(b *testing.B) {
	for _, mode := range []struct{ name, mgc, mg string }{{"direct", "compact", "compact"}, {"relay", "compact", "compact"}, {"transcode", "compact", "ber"}} {
		b.Run(mode.name, func(b *testing.B) {
			mgc, mg := udpSocket(b), udpSocket(b)
			target := mg.LocalAddr()
			if mode.name != "direct" {
				target = udpProxy(b, mode.mgc, mgc.LocalAddr(), mode.mg, mg.LocalAddr()).ListenAddr(true)
			}
			req := corpusFile(b, "msg01a.compact.txt")
			reply := encode(b, string(corpusFile(b, "msg06a.compact.txt")), mode.mg)
			go answer(mg, reply)
			buf := make([]byte, 65536)
			rtts := make([]time.Duration, 0, b.N)
			lost := 0
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				mgc.WriteTo(req, target)
				mgc.SetReadDeadline(start.Add(time.Second))
				if _, _, err := mgc.ReadFrom(buf); err != nil {
					lost++
					continue
				}
				rtts = append(rtts, time.Since(start))
			}
			b.StopTimer()
			if len(rtts) == 0 {
				b.Fatal("no replies")
			}
			slices.Sort(rtts)
			b.ReportMetric(float64(rtts[len(rtts)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(rtts[len(rtts)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(2*len(rtts))/b.Elapsed().Seconds(), "msgs/s")
			if lost > 0 {
				b.ReportMetric(float64(lost), "lost")
			}
		})
	}
}

// BenchmarkUDPWindow is throughput end to end: the MGC keeps 16 requests
// outstanding (a lost one is replaced after 100 ms), the MG answers each.
// Reported: messages/s through the proxy (requests and replies).
func BenchmarkUDPWindow(b *testing.B) {
	for _, mode := range []struct{ name, mgc, mg string }{{"relay", "compact", "compact"}, {"transcode", "compact", "ber"}} {
		for _, v := range []struct {
			read  int
			write bool
		}{{1, false}, {32, false}, {32, true}} {
			b.Run(fmt.Sprintf("%s/read%d/writebatch=%v", mode.name, v.read, v.write), func(b *testing.B) {
				defer func(r int, w bool) { readBatch, writeBatch = r, w }(readBatch, writeBatch)
				readBatch, writeBatch = v.read, v.write
				udpWindow(b, mode.mgc, mode.mg)
			})
		}
	}
}

// udpWindow runs BenchmarkUDPWindow for one pair of codecs; it reports
// the process's CPU time per message too (the peers' included), steadier
// than the rate on a busy machine.
func udpWindow(b *testing.B, mgcCodec, mgCodec string) {
	const window = 16
	mode := struct{ mgc, mg string }{mgcCodec, mgCodec}
	mgc, mg := udpSocket(b), udpSocket(b)
	target := udpProxy(b, mode.mgc, mgc.LocalAddr(), mode.mg, mg.LocalAddr()).ListenAddr(true)
	req := corpusFile(b, "msg01a.compact.txt")
	reply := encode(b, string(corpusFile(b, "msg06a.compact.txt")), mode.mg)
	go answer(mg, reply)
	buf := make([]byte, 65536)
	b.ResetTimer()
	cpu0 := cpuTime()
	sent, got, out := 0, 0, 0
	for got < b.N {
		for out < window && sent < b.N+window {
			mgc.WriteTo(req, target)
			sent++
			out++
		}
		mgc.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		if _, _, err := mgc.ReadFrom(buf); err != nil {
			out = 0 // lost: refill the window
			continue
		}
		got++
		out--
	}
	b.ReportMetric(float64(2*got)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(2*got), "cpu-ns/msg")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func udpSocket(b *testing.B) *net.UDPConn {
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

// answer sends reply for every datagram c receives, until c closes.
func answer(c *net.UDPConn, reply []byte) {
	buf := make([]byte, 65536)
	for {
		_, from, err := c.ReadFrom(buf)
		if err != nil {
			return
		}
		c.WriteTo(reply, from)
	}
}

// BenchmarkTable is the table's share of a request and its reply at the
// size bound (the default 100,000 entries, as under sustained load: each
// request evicts the oldest), IDs spread as a generator's are.
func BenchmarkTable(b *testing.B) {
	tb := newTable(time.Minute, 100000, nil)
	now := monotime.Instant(1000 * time.Second)
	d := dest{addr: netip.MustParseAddrPort("127.0.0.1:2944")}
	var tid uint32
	b.ReportAllocs()
	for b.Loop() {
		tid += 7919 // a prime: consecutive transactions land far apart
		now = now.Add(time.Microsecond)
		tb.request(now, newKey(mgcSide, tid), d, 0, true)
		tb.reply(now, newKey(mgcSide, tid), true)
	}
}

// BenchmarkPresent is what identity rewriting adds to relaying a scanned
// message: the mId spliced into a copy (compact text, BER), next to the
// scan that relaying does anyway.
func BenchmarkPresent(b *testing.B) {
	for _, name := range []string{"compact", "ber"} {
		b.Run(name, func(b *testing.B) {
			p := udpProxyIdentity(b, name, sink(b).LocalAddr(), name, sink(b).LocalAddr(), false)
			req := encode(b, string(corpusFile(b, "msg01a.compact.txt")), name)
			w := new(worker)
			w.sum.Want = scan.Commands
			if err := scanner(name, req, &w.sum, p.opts.Limits); err != nil {
				b.Fatal(err)
			}
			b.Run("scan", func(b *testing.B) {
				for b.Loop() {
					scanner(name, req, &w.sum, p.opts.Limits)
				}
			})
			b.Run("splice", func(b *testing.B) {
				for b.Loop() {
					if _, ok := p.relayPayload(w, mgcSide, req); !ok {
						b.Fatal("not spliced")
					}
				}
			})
		})
	}
}
