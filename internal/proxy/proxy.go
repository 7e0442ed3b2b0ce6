// Package proxy is `megaco proxy`: a sidecar that carries live Megaco
// traffic between a controller (MGC) and a gateway (MG), transcoding
// between the codecs each side speaks, over UDP (RFC 3525 Annex D.1, one
// message per datagram) and TCP (Annex D.2, TPKT framing), in any mix.
//
// Every message is decoded (for routing and metrics), encoded in the
// other side's codec and sent on; when both sides speak the same codec
// its bytes are relayed unchanged, routed from a scan when the codec has
// a scanner (relayscan.go). Replies, pendings and
// acknowledgements go back to where their request came from, by a table
// of outstanding transactions bounded in time and size. A request that
// cannot be decoded or transcoded is answered to its sender, in its own
// codec, with an error descriptor; nothing half-transcoded is forwarded.
package proxy

import (
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec"
	"megaco/internal/model"
	"megaco/internal/monotime"
)

// side is one of the proxy's two sides; a message's direction is named by
// the side it came from.
type side uint8

const (
	mgcSide side = 0
	mgSide  side = 1
)

func (s side) other() side { return 1 - s }

// Addr is a transport address, written udp://host:port or tcp://host:port.
type Addr struct {
	Network string // "udp" or "tcp"
	Address string // host:port
}

// ParseAddr reads udp://host:port or tcp://host:port.
func ParseAddr(s string) (Addr, error) {
	network, hostport, ok := strings.Cut(s, "://")
	if _, known := transports[network]; !ok || !known {
		return Addr{}, fmt.Errorf("address %q: want udp://host:port or tcp://host:port", s)
	}
	if _, _, err := net.SplitHostPort(hostport); err != nil {
		return Addr{}, fmt.Errorf("address %q: %w", s, err)
	}
	return Addr{network, hostport}, nil
}

func (a Addr) String() string { return a.Network + "://" + a.Address }

// SideConfig is one side: the codec its peer speaks, where the proxy
// listens for it and the peer's own address.
type SideConfig struct {
	Codec  string
	Listen Addr
	Peer   Addr
	// Peers is the MGC side's ordered list of MGCs (--mgc a,b,c): the
	// first is used until it fails or hands off (mgcset.go). Peer is its
	// first; either may be given alone. The MG side has one peer.
	Peers []Addr
	// Allow are the sources, besides the peers' addresses (their hosts'
	// IPs, resolved at Start), the side takes traffic from; the rest is
	// dropped before decoding.
	Allow []netip.Prefix
}

// Config configures a proxy. Zero durations and sizes take the defaults.
type Config struct {
	MGC, MG SideConfig
	// Options are the codec pipeline's (version, profile, layout, names,
	// packages, limits); Observer, when nil, becomes the service's codec
	// metrics on Registry.
	Options codec.Options
	// Remember is how long a transaction stays in the routing table after
	// its first request or its last pending (default 60 s: longer than a
	// peer retransmits).
	Remember time.Duration
	// MaxTransactions bounds the table (default 100000); past it the
	// oldest entry goes.
	MaxTransactions int
	// MaxConns bounds the TCP connections of each side (default 1024).
	MaxConns int
	// HandshakeTimeout: an accepted TCP connection must bring its first
	// message within it (default 10 s).
	HandshakeTimeout time.Duration
	// IdleTimeout closes a TCP connection (and its pair) that carried
	// nothing in either direction for so long (default 30 min).
	IdleTimeout time.Duration
	// WriteTimeout bounds a TCP write; a peer that does not read is
	// disconnected (default 5 s). It also bounds dialling a peer.
	WriteTimeout time.Duration
	Log          *slog.Logger
	Registry     prometheus.Registerer // nil: a private registry
	// Capture, if set, records every message in and out (--capture).
	Capture Capturer
	// IdentityOff passes the peers' mIds and addresses on as they are
	// (--identity=off); by default the proxy presents itself to each
	// side (identity.go).
	IdentityOff bool
	// MGMID, if set, is the mId the proxy presents to the MGC for the MG
	// (--mg-mid); by default the address of its MGC side.
	MGMID *model.MId
}

func (c *Config) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.Remember, time.Minute)
	def(&c.HandshakeTimeout, 10*time.Second)
	def(&c.IdleTimeout, 30*time.Minute)
	def(&c.WriteTimeout, 5*time.Second)
	if c.MaxTransactions <= 0 {
		c.MaxTransactions = 100000
	}
	if c.MaxConns <= 0 {
		c.MaxConns = 1024
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Registry == nil {
		c.Registry = prometheus.NewRegistry()
	}
}

// Proxy carries traffic between the two sides until Close.
type Proxy struct {
	cfg      Config
	opts     codec.Options
	quiet    codec.Options // opts without the observer, for second looks at bad input
	sides    [2]*sideState
	table    *table
	mgcs     *mgcSet // the MGC side's MGCs
	met      *metrics
	codecMet *codecMetrics // nil when Options brought an observer
	workers  atomic.Int64  // workers prepared: each takes the next shard
	log      *slog.Logger
	limiter  limiter
	draining atomic.Bool
	closing  atomic.Bool
	wg       sync.WaitGroup

	// What is refused before decoding, and error answers withheld
	// (security.go).
	dropped   [2][numDropReasons]prometheus.Counter
	errBudget errorBudget      // error answers per source
	own       []netip.AddrPort // the UDP sockets' addresses
	localIPs  []netip.Addr     // the host's, when a UDP socket has a wildcard address
}

// sideState is one side at run time.
type sideState struct {
	p    *Proxy
	id   side
	cfg  SideConfig
	enc  codec.Codec // encodes messages sent to this side
	form codec.Form
	t    transport      // udp.go, tcp.go
	peer netip.AddrPort // the MG side's peer's resolved UDP address
	// allow are the sources the side takes traffic from (allowed).
	allow []netip.Prefix
	// mid is the identity this side's peer last sent: the proxy answers
	// the other side with it when it must speak for that peer.
	mid atomic.Pointer[model.MId]
	// scanned is mid as a scanner reports it (relaying without decoding).
	scanned atomic.Pointer[scannedMID]
	scans   bool // the peer's codec has a scanner

	// self is how the proxy presents itself to this side's peer
	// (identity.go); rewrite rewrites the mId of messages in this side's
	// codec (relaying), splice puts it where a scan found it (nil: the
	// codec has no splicer).
	self    atomic.Pointer[presence]
	rewrite codec.Rewriter
	splice  codec.MIDSplicer
}

// New checks the configuration and makes a proxy; Start opens its sockets.
func New(cfg Config) (*Proxy, error) {
	cfg.defaults()
	p := &Proxy{cfg: cfg, log: cfg.Log, met: newMetrics(cfg.Registry), dropped: newDropMetrics(cfg.Registry)}
	p.limiter.log = cfg.Log
	p.opts = cfg.Options
	if p.opts.Observer == nil {
		// Each worker gets its own observer (prepare).
		p.codecMet = newCodecMetrics(cfg.Registry)
	}
	p.quiet = p.opts
	p.quiet.Observer = nil
	p.table = newTable(cfg.Remember, cfg.MaxTransactions, cfg.Registry)
	p.mgcs = newMGCSet(p, cfg.Registry)
	registerLimit(cfg.Registry, cfg.MaxTransactions)
	for i, sc := range [2]SideConfig{cfg.MGC, cfg.MG} {
		name := sideNames[i]
		if len(sc.Peers) == 0 {
			sc.Peers = []Addr{sc.Peer}
		}
		if sc.Peer.Network == "" {
			sc.Peer = sc.Peers[0]
		}
		if side(i) == mgSide && len(sc.Peers) > 1 {
			return nil, fmt.Errorf("%s side: one peer, not %d", name, len(sc.Peers))
		}
		for _, peer := range sc.Peers {
			if sc.Listen.Network == "" || peer.Network == "" {
				return nil, fmt.Errorf("%s side: listen and peer addresses are required", name)
			}
			if sc.Listen.Network != peer.Network {
				return nil, fmt.Errorf("%s side: listen (%s) and peer (%s) must use one transport", name, sc.Listen, peer)
			}
		}
		sc.Codec = strings.ToLower(sc.Codec)
		enc, err := codec.Lookup(sc.Codec, p.opts)
		if err != nil {
			return nil, fmt.Errorf("%s side: %w", name, err)
		}
		rw, err := codec.NewRewriter(sc.Codec)
		if err != nil {
			return nil, fmt.Errorf("%s side: %w", name, err)
		}
		p.sides[i] = &sideState{p: p, id: side(i), cfg: sc, enc: enc, form: codec.FormOf(sc.Codec),
			scans: hasScanner(sc.Codec), allow: slices.Clone(sc.Allow), rewrite: rw,
			splice: codec.SpliceMID(sc.Codec)}
	}
	return p, nil
}

// Start opens both sides' sockets and starts serving.
func (p *Proxy) Start() error {
	for _, s := range p.sides {
		if err := s.open(); err != nil {
			p.Close()
			return fmt.Errorf("%s side: %w", sideNames[s.id], err)
		}
	}
	if err := p.findOwnSockets(); err != nil {
		p.Close()
		return err
	}
	for _, s := range p.sides {
		s.present()
	}
	for _, s := range p.sides {
		p.wg.Add(1)
		go func() { defer p.wg.Done(); s.t.serve() }()
	}
	return nil
}

func (s *sideState) open() error {
	if s.id == mgcSide {
		if err := s.p.mgcs.resolve(s.cfg.Peers); err != nil {
			return err
		}
	}
	for _, peer := range s.cfg.Peers { // every MGC of the list may speak
		if err := s.allowPeer(peer.Address); err != nil {
			return fmt.Errorf("peer %s: %w", peer, err)
		}
	}
	t, err := transports[s.cfg.Listen.Network](s)
	if err != nil {
		return err
	}
	s.t = t
	return nil
}

// ListenAddr is where side mgc (true) or mg (false) listens.
func (p *Proxy) ListenAddr(mgc bool) net.Addr {
	s := p.sides[mgSide]
	if mgc {
		s = p.sides[mgcSide]
	}
	return s.t.addr()
}

// Draining reports whether Drain has begun.
func (p *Proxy) Draining() bool { return p.draining.Load() }

// Drain stops taking new requests (new ones are dropped, and new TCP
// connections refused); what is in flight is still forwarded, and
// replies, pendings and acknowledgements still flow, until no request
// awaits its final reply or timeout passes. Then it closes the proxy and
// reports how many requests were still unanswered.
func (p *Proxy) Drain(timeout time.Duration) int {
	p.draining.Store(true)
	for _, s := range p.sides {
		if s.t != nil {
			s.t.stop()
		}
	}
	deadline := time.Now().Add(timeout)
	n := p.table.inFlight(monotime.Now())
	for n > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		n = p.table.inFlight(monotime.Now())
	}
	p.Close()
	return n
}

// Close closes every socket and connection and waits for the proxy's
// goroutines.
func (p *Proxy) Close() {
	if p.closing.Swap(true) {
		p.wg.Wait()
		return
	}
	for _, s := range p.sides {
		if s.t != nil { // nil: Start failed before it opened the side
			s.t.close()
		}
	}
	p.wg.Wait()
}

// mid is the identity to answer side s's sender with, speaking for the
// other side's peer: the one that peer last used, else one made of the
// address the sender sent to.
func (p *Proxy) midFor(s side) model.MId {
	if p.identityOn() {
		return p.sides[s].self.Load().mid // what s is told everywhere else
	}
	if m := p.sides[s.other()].mid.Load(); m != nil {
		return *m
	}
	var ap netip.AddrPort
	if a, ok := p.ListenAddr(s == mgcSide).(interface{ AddrPort() netip.AddrPort }); ok {
		ap = unmap(a.AddrPort())
	}
	if ip := ap.Addr(); ip.IsValid() && !ip.IsUnspecified() {
		port := model.Some(uint32(ap.Port()))
		if ip.Is4() {
			b := ip.As4()
			return model.MId{Kind: model.MId_Ip4Address, Ip4Address: &model.IP4Address{Address: b[:], PortNumber: port}}
		}
		b := ip.As16()
		return model.MId{Kind: model.MId_Ip6Address, Ip6Address: &model.IP6Address{Address: b[:], PortNumber: port}}
	}
	return model.MId{Kind: model.MId_DeviceName, DeviceName: "megacoProxy"}
}

// learnMID keeps the identity the side's peer sent, m, when it differs
// from the one kept. m belongs to a transient decoding
// (codec.DecodeTransient): its strings and bytes alias the decoder's
// reused memory and the read loop's buffer, and the kept mId outlives
// both, so it keeps a clone (TestLearnMIDOutlivesDecode holds it to
// that). Decoding the message again with memory of its own would do too,
// but costs a whole decoding per change, and the kept mId changes with
// every message when several gateways share the MG side (--mg-allow).
func (s *sideState) learnMID(m *model.MId) {
	if old := s.mid.Load(); old != nil && midEqual(old, m) {
		return
	}
	s.mid.Store(m.Clone())
}

func midEqual(a, b *model.MId) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case model.MId_Ip4Address:
		return string(a.Ip4Address.Address) == string(b.Ip4Address.Address) && a.Ip4Address.PortNumber == b.Ip4Address.PortNumber
	case model.MId_Ip6Address:
		return string(a.Ip6Address.Address) == string(b.Ip6Address.Address) && a.Ip6Address.PortNumber == b.Ip6Address.PortNumber
	case model.MId_DomainName:
		return a.DomainName.Name == b.DomainName.Name && a.DomainName.PortNumber == b.DomainName.PortNumber
	case model.MId_DeviceName:
		return a.DeviceName == b.DeviceName
	case model.MId_MtpAddress:
		return string(a.MtpAddress) == string(b.MtpAddress)
	}
	return true
}

// limiter keeps error logs to a few a second, saying how many it left out.
type limiter struct {
	log        *slog.Logger
	mu         sync.Mutex
	second     time.Time
	n, dropped int
}

const logsPerSecond = 10

func (l *limiter) warn(msg string, args ...any) {
	l.mu.Lock()
	now := time.Now()
	if now.Sub(l.second) >= time.Second {
		if l.dropped > 0 {
			l.log.Warn("error logs suppressed", "count", l.dropped)
		}
		l.second, l.n, l.dropped = now, 0, 0
	}
	ok := l.n < logsPerSecond
	if ok {
		l.n++
	} else {
		l.dropped++
	}
	l.mu.Unlock()
	if ok {
		l.log.Warn(msg, args...)
	}
}
