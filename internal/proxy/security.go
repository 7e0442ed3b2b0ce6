package proxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec"
)

// What the proxy refuses before decoding, and the error answers it
// withholds: traffic from hosts that are not a side's peers, datagrams
// that claim to come from the proxy's own sockets, and error answers past
// a source's budget.

type dropReason uint8

const (
	dropUnknownPeer dropReason = iota
	dropOwnSocket
	dropErrorRate
	numDropReasons
)

var dropReasons = [numDropReasons]string{"unknown_peer", "own_socket", "error_rate"}

func newDropMetrics(reg prometheus.Registerer) (m [2][numDropReasons]prometheus.Counter) {
	v := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "megaco_proxy_dropped_total",
		Help: "Traffic refused before decoding (unknown_peer, own_socket) and error answers withheld (error_rate), by the side it came from.",
	}, []string{"side", "reason"})
	reg.MustRegister(v)
	for s := range 2 {
		for r := range numDropReasons {
			m[s][r] = v.WithLabelValues(sideNames[s], dropReasons[r])
		}
	}
	return m
}

// ParseAllow reads an allowlist: CIDRs or single addresses, comma
// separated ("" is none).
func ParseAllow(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		var p netip.Prefix
		var err error
		if strings.Contains(f, "/") {
			p, err = netip.ParsePrefix(f)
		} else {
			var a netip.Addr
			a, err = netip.ParseAddr(f)
			p = netip.PrefixFrom(a, a.BitLen())
		}
		if err != nil {
			return nil, fmt.Errorf("allowlist entry %q: want a CIDR or an IP address", f)
		}
		out = append(out, unmapPrefix(p.Masked()))
	}
	return out, nil
}

// unmapPrefix writes ::ffff:a.b.c.d/n as a.b.c.d/(n-96): sources are
// compared unmapped.
func unmapPrefix(p netip.Prefix) netip.Prefix {
	if a := p.Addr(); a.Is4In6() {
		return netip.PrefixFrom(a.Unmap(), max(p.Bits()-96, 0))
	}
	return p
}

// allowed reports whether a may send to the side: it is one of the
// side's peers, or in its allowlist. Ports are not compared: a TCP peer
// connects from an ephemeral port, and a UDP peer may send from another
// port than the one it is sent to.
func (s *sideState) allowed(a netip.Addr) bool {
	a = a.Unmap().WithZone("")
	for _, p := range s.allow {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// allowPeer adds the addresses of a peer (host:port, the host resolved
// now, once) to the side's allowed sources. It runs before the side's
// loops start: allow is read without a lock.
func (s *sideState) allowPeer(hostport string) error {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if addrs, err = net.DefaultResolver.LookupNetIP(ctx, "ip", host); err != nil {
			return err
		}
	}
	for _, a := range addrs {
		a = a.Unmap().WithZone("")
		if p := netip.PrefixFrom(a, a.BitLen()); !slices.Contains(s.allow, p) {
			s.allow = append(s.allow, p)
		}
	}
	return nil
}

// findOwnSockets notes the UDP sockets' addresses once they are open; a
// wildcard address stands for every address of the host's interfaces. A
// UDP peer at one of them would be the proxy sending to itself.
func (p *Proxy) findOwnSockets() error {
	for _, s := range p.sides {
		u, ok := s.t.(*udpTransport)
		if !ok {
			continue
		}
		a := unmap(u.conn.LocalAddr().(*net.UDPAddr).AddrPort())
		p.own = append(p.own, netip.AddrPortFrom(a.Addr().WithZone(""), a.Port()))
		if a.Addr().IsUnspecified() && p.localIPs == nil {
			p.localIPs = localIPs()
		}
	}
	for _, s := range p.sides {
		if s.peer.IsValid() && p.ownSocket(s.peer) {
			return fmt.Errorf("%s side: the peer %s is one of the proxy's own sockets", sideNames[s.id], s.peer)
		}
	}
	return nil
}

func localIPs() []netip.Addr {
	out := []netip.Addr{}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok {
				out = append(out, ip.Unmap())
			}
		}
	}
	return out
}

// ownSocket reports whether a is one of the proxy's UDP sockets: nothing
// the proxy sends itself is ever handled (a forged one would start the
// two sides answering each other).
func (p *Proxy) ownSocket(a netip.AddrPort) bool {
	for _, o := range p.own {
		if o.Port() != a.Port() {
			continue
		}
		ip := a.Addr().WithZone("")
		if ip == o.Addr() || o.Addr().IsUnspecified() && (ip.IsLoopback() || slices.Contains(p.localIPs, ip)) {
			return true
		}
	}
	return false
}

// admit decides whether a datagram from a, on side s, is handled.
// handle takes the peer's own address (most of the traffic, and never
// one of the proxy's sockets: Start checks) without asking it.
func (p *Proxy) admit(s side, a netip.AddrPort) bool {
	switch {
	case p.ownSocket(a):
		p.drop(s, dropOwnSocket, a.String())
	case !p.sides[s].allowed(a.Addr()):
		p.drop(s, dropUnknownPeer, a.String())
	default:
		return true
	}
	return false
}

// admitConn decides whether an accepted connection is served; one from
// elsewhere than the side's peers is closed at once.
func (s *sideState) admitConn(nc net.Conn) bool {
	if s.allowed(remoteIP(nc)) {
		return true
	}
	nc.Close()
	s.p.drop(s.id, dropUnknownPeer, nc.RemoteAddr().String())
	return false
}

// drop counts what was refused, and logs it (rate-limited); a withheld
// error answer is logged with its message already.
func (p *Proxy) drop(s side, r dropReason, from string) {
	p.dropped[s][r].Inc()
	if r != dropErrorRate {
		p.limiter.warn("dropped", "side", sideNames[s], "reason", dropReasons[r], "from", from)
	}
}

func remoteIP(nc net.Conn) netip.Addr {
	if a, ok := nc.RemoteAddr().(*net.TCPAddr); ok {
		return a.AddrPort().Addr().Unmap()
	}
	return netip.Addr{}
}

// The error answers' budget per UDP source address: a burst, then a
// steady rate. A source past it gets no answer (its requests are still
// not forwarded); the sources tracked are bounded.
const (
	errorsPerSecond = 10
	errorBurst      = 20
	errorSources    = 4096
)

// errorBudget is a token bucket per source address.
type errorBudget struct {
	mu sync.Mutex
	m  map[netip.Addr]bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// take spends one of a's tokens, reporting false when it has none.
func (b *errorBudget) take(a netip.Addr, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = make(map[netip.Addr]bucket)
	}
	k, ok := b.m[a]
	if !ok {
		if len(b.m) >= errorSources {
			for old := range b.m { // any one: a source unheard of long enough is full again
				delete(b.m, old)
				break
			}
		}
		k = bucket{tokens: errorBurst, at: now}
	}
	k.tokens = min(errorBurst, k.tokens+now.Sub(k.at).Seconds()*errorsPerSecond)
	k.at = now
	ok = k.tokens >= 1
	if ok {
		k.tokens--
	}
	b.m[a] = k
	return ok
}

// An error answer is at most max(errorFloor, errorFactor × the bytes
// that provoked it), and answers at most maxAnswered requests: the
// diagnosis goes first, then requests (the rest get no answer, and their
// senders retransmit or time out).
const (
	errorFloor   = 512
	errorFactor  = 2
	maxAnswered  = 16
	maxDiagnosis = 160
)

var errTooLarge = errors.New("the error answer exceeds its bound")

// answerLimit is the largest error answer to in bytes.
func answerLimit(in int) int { return max(errorFloor, errorFactor*in) }

// errorAnswer encodes the error reply to reqs in side s's codec, within
// limit bytes: past it, the diagnosis goes, then half the requests at a
// time.
func (p *Proxy) errorAnswer(w *worker, s side, version int, reqs []uint32, code uint32, cause error, limit int) ([]byte, error) {
	in := p.sides[s]
	opts := w.opts
	opts.Version = version
	enc, err := codec.Lookup(in.cfg.Codec, opts)
	if err != nil {
		return nil, err
	}
	reqs = reqs[:min(len(reqs), maxAnswered)]
	text := errorText(code, cause)
	mid := p.midFor(s)
	for {
		b, err := codec.Encode(w.errOut[:0], enc, in.cfg.Codec, errorReply(version, mid, reqs, code, text), opts)
		if err != nil {
			return nil, err
		}
		w.errOut = b
		switch {
		case len(b) <= limit:
			return b, nil
		case text != codeTexts[code]:
			text = codeTexts[code]
		case len(reqs) > 1:
			reqs = reqs[:len(reqs)/2]
		default:
			return nil, errTooLarge
		}
	}
}
