package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec"
	"megaco/internal/model"
)

// MGC redundancy: the MGC side has an ordered list of MGCs (--mgc a,b,c;
// SideConfig.Peers), one of them in use. The proxy moves to another
//
//   - when the MGC in use does not answer: the MG's ServiceChange goes
//     unanswered through failoverRetries retransmissions (UDP), or a
//     connection to it is refused or reset (TCP). It moves to the next in
//     the list, and the MG's own ServiceChange (its retransmission, or
//     the one it sends when it registers again) is what reaches the new
//     MGC: the proxy never makes one up;
//   - when the MGC hands the MG off (a ServiceChange with Method=HandOff
//     and MgcIdToTry, or a ServiceChange reply with ServiceChangeMgcId):
//     it moves to the MGC named, which the MG is told is the proxy
//     (identity.go), so the MG goes on talking to the proxy.
//
// megaco_proxy_mgc_active{mgc} says which MGC is in use and
// megaco_proxy_mgc_switches_total{reason} how often and why it changed;
// each change is logged.

// Switch reasons (the reason label's values).
const (
	switchUnanswered = "unanswered"
	switchRefused    = "refused"
	switchHandoff    = "handoff"
)

// failoverRetries is how many retransmissions of an MG's ServiceChange
// the MGC in use leaves unanswered before the proxy moves to the next:
// one lost datagram is not a dead MGC.
const failoverRetries = 2

// maxMGCs bounds the list: the configured MGCs and those handed off to.
const maxMGCs = 32

// maxWatched bounds the ServiceChanges watched for an answer.
const maxWatched = 64

// mgcTarget is one MGC the proxy can send to.
type mgcTarget struct {
	addr Addr           // as configured, or made of a handoff's mId
	udp  netip.AddrPort // resolved (UDP)
}

// mgcSet is the MGC side's list and the one in use.
type mgcSet struct {
	p        *Proxy
	cur      atomic.Pointer[mgcTarget]
	size     atomic.Int32 // len(list), read without the lock
	watching atomic.Int32 // len(watched), read without the lock

	mu      sync.Mutex
	list    []*mgcTarget
	watched map[uint32]*scWatch // by the MG's transaction ID

	active   *prometheus.GaugeVec
	switches *prometheus.CounterVec
}

// scWatch is an MG ServiceChange awaiting the MGC's answer.
type scWatch struct {
	at     time.Time
	copies int // retransmissions seen since it went to the MGC in use
	to     *mgcTarget
}

func newMGCSet(p *Proxy, reg prometheus.Registerer) *mgcSet {
	m := &mgcSet{p: p, watched: make(map[uint32]*scWatch),
		active: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "megaco_proxy_mgc_active",
			Help: "1 for the MGC the proxy sends to, 0 for the other MGCs it knows (--mgc, and those handed off to)."}, []string{"mgc"}),
		switches: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "megaco_proxy_mgc_switches_total",
			Help: "Times the proxy moved to another MGC, by reason: unanswered (the MG's ServiceChange), refused (TCP connection refused or reset), handoff (the MGC named another)."}, []string{"reason"}),
	}
	for _, r := range []string{switchUnanswered, switchRefused, switchHandoff} {
		m.switches.WithLabelValues(r)
	}
	reg.MustRegister(m.active, m.switches)
	return m
}

// resolve makes the list from the configured addresses (UDP ones
// resolved) and puts the first in use.
func (m *mgcSet) resolve(peers []Addr) error {
	for _, a := range peers {
		t := &mgcTarget{addr: a}
		if a.Network == "udp" {
			u, err := net.ResolveUDPAddr("udp", a.Address)
			if err != nil {
				return fmt.Errorf("peer %s: %w", a, err)
			}
			t.udp = unmap(u.AddrPort())
		}
		m.list = append(m.list, t)
		m.active.WithLabelValues(a.String()).Set(0)
	}
	m.size.Store(int32(len(m.list)))
	m.cur.Store(m.list[0])
	m.active.WithLabelValues(m.list[0].addr.String()).Set(1)
	return nil
}

// current is the MGC in use.
func (m *mgcSet) current() *mgcTarget { return m.cur.Load() }

// switchFrom moves from the MGC from (if it is still the one in use) to
// the one after it in the list.
func (m *mgcSet) switchFrom(from *mgcTarget, reason string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cur.Load() == from {
		m.switchFromLocked(from, reason)
	}
}

// switchLocked puts t in use; m.mu is held.
func (m *mgcSet) switchLocked(t *mgcTarget, reason string) {
	old := m.cur.Load()
	if t == old {
		return
	}
	m.cur.Store(t)
	m.active.WithLabelValues(old.addr.String()).Set(0)
	m.active.WithLabelValues(t.addr.String()).Set(1)
	m.switches.WithLabelValues(reason).Inc()
	m.p.log.Warn("MGC switched", "from", old.addr.String(), "to", t.addr.String(), "reason", reason)
	m.p.sides[mgcSide].turned(t)
}

// sentServiceChange notes an MG ServiceChange request on its way to the
// MGC in use; a copy seen failoverRetries times unanswered moves the
// proxy to the next MGC first, so that this copy goes there.
func (m *mgcSet) sentServiceChange(tid uint32, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cur := m.cur.Load()
	w, ok := m.watched[tid]
	if !ok || w.to != cur {
		if !ok && len(m.watched) >= maxWatched {
			m.pruneLocked(now)
		}
		m.watched[tid] = &scWatch{at: now, to: cur}
		m.watching.Store(int32(len(m.watched)))
		return
	}
	w.copies++
	if w.copies >= failoverRetries && len(m.list) > 1 {
		m.p.log.Warn("MGC does not answer the MG's ServiceChange", "mgc", cur.addr.String(),
			"transaction", tid, "copies", w.copies+1, "since", now.Sub(w.at).String())
		m.switchFromLocked(cur, switchUnanswered)
		w.copies, w.to = 0, m.cur.Load()
	}
}

// switchFromLocked is switchFrom with m.mu held.
func (m *mgcSet) switchFromLocked(from *mgcTarget, reason string) {
	for i, t := range m.list {
		if t == from {
			m.switchLocked(m.list[(i+1)%len(m.list)], reason)
			return
		}
	}
}

// answered notes the MGC's answer (reply or pending) to an MG request:
// a watched ServiceChange is no longer.
func (m *mgcSet) answered(tid uint32) {
	if m.watching.Load() == 0 {
		return
	}
	m.mu.Lock()
	if _, ok := m.watched[tid]; ok {
		delete(m.watched, tid)
		m.watching.Store(int32(len(m.watched)))
	}
	m.mu.Unlock()
}

// pruneLocked drops the oldest watched ServiceChanges, and those older
// than the routing table remembers anything.
func (m *mgcSet) pruneLocked(now time.Time) {
	var oldest uint32
	var at time.Time
	for tid, w := range m.watched {
		if now.Sub(w.at) > m.p.cfg.Remember {
			delete(m.watched, tid)
			continue
		}
		if at.IsZero() || w.at.Before(at) {
			oldest, at = tid, w.at
		}
	}
	if len(m.watched) >= maxWatched {
		delete(m.watched, oldest)
	}
}

// followMGC turns the MGC side to the MGC that id names (a handoff),
// reporting whether it could: an mId with an IP address, or a domain
// name that resolves; without a port, the codec's default (RFC 3525
// Annex D: 2944 text, 2945 binary).
func (p *Proxy) followMGC(id *model.MId) bool {
	m := p.mgcs
	cur := m.current()
	ap, ok := p.midAddrPort(id)
	if !ok {
		p.log.Warn("MGC handoff not followed: the MGC named has no address", "mgc", cur.addr.String(), "named", midString(id))
		return false
	}
	addr := Addr{Network: cur.addr.Network, Address: ap.String()}
	m.mu.Lock()
	defer m.mu.Unlock()
	var t *mgcTarget
	for _, c := range m.list {
		if c.addr == addr || c.udp == ap && c.addr.Network == addr.Network {
			t = c
		}
	}
	if t == nil {
		if len(m.list) >= maxMGCs {
			p.log.Warn("MGC handoff not followed: too many MGCs", "named", addr.String(), "max", maxMGCs)
			return false
		}
		t = &mgcTarget{addr: addr, udp: ap}
		m.list = append(m.list, t)
		m.size.Store(int32(len(m.list)))
	}
	m.switchLocked(t, switchHandoff)
	return true
}

// midAddrPort is the transport address an MGC's mId names.
func (p *Proxy) midAddrPort(id *model.MId) (netip.AddrPort, bool) {
	port := uint16(2944)
	if p.sides[mgcSide].form != codec.Text {
		port = 2945
	}
	pick := func(o model.Opt[uint32]) uint16 {
		if o.Present && o.Value > 0 && o.Value <= 65535 {
			return uint16(o.Value)
		}
		return port
	}
	switch id.Kind {
	case model.MId_Ip4Address:
		if ip, ok := netip.AddrFromSlice(id.Ip4Address.Address); ok && ip.Is4() {
			return netip.AddrPortFrom(ip, pick(id.Ip4Address.PortNumber)), true
		}
	case model.MId_Ip6Address:
		if ip, ok := netip.AddrFromSlice(id.Ip6Address.Address); ok {
			return netip.AddrPortFrom(ip.Unmap(), pick(id.Ip6Address.PortNumber)), true
		}
	case model.MId_DomainName:
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", id.DomainName.Name)
		if err == nil && len(ips) > 0 {
			return netip.AddrPortFrom(ips[0].Unmap(), pick(id.DomainName.PortNumber)), true
		}
	}
	return netip.AddrPort{}, false
}

// midString writes an mId as text does (for logs and capture notes).
func midString(id *model.MId) string {
	port := func(o model.Opt[uint32]) string {
		if o.Present {
			return ":" + strconv.Itoa(int(o.Value))
		}
		return ""
	}
	switch id.Kind {
	case model.MId_Ip4Address:
		ip, _ := netip.AddrFromSlice(id.Ip4Address.Address)
		return "[" + ip.String() + "]" + port(id.Ip4Address.PortNumber)
	case model.MId_Ip6Address:
		ip, _ := netip.AddrFromSlice(id.Ip6Address.Address)
		return "[" + ip.String() + "]" + port(id.Ip6Address.PortNumber)
	case model.MId_DomainName:
		return "<" + id.DomainName.Name + ">" + port(id.DomainName.PortNumber)
	case model.MId_DeviceName:
		return id.DeviceName
	}
	return "MTP"
}

// watchMGC is what the MGC set learns of a message from side s that is
// about to be routed: the MG's ServiceChanges, the MGC's answers.
func (p *Proxy) watchMGC(w *worker, s side) {
	if p.mgcs.size.Load() < 2 && p.mgcs.watching.Load() == 0 {
		return // one MGC: nowhere to move to (a handoff needs no watching)
	}
	now := time.Time{}
	for _, t := range w.infos {
		switch {
		case s == mgSide && t.kind == kindRequest && t.command == commandIndex[model.Command_ServiceChangeReq]:
			if now.IsZero() {
				now = time.Now()
			}
			p.mgcs.sentServiceChange(t.tid, now)
		case s == mgcSide && (t.kind == kindReply || t.kind == kindPending):
			p.mgcs.answered(t.tid)
		}
	}
}

// connectTries is how many MGCs a connection attempt tries: each of the
// list once on the MGC side.
func (s *sideState) connectTries() int {
	if s.id == mgcSide {
		return int(s.p.mgcs.size.Load())
	}
	return 1
}

// mgcLost handles a connection to an MGC that closed: when the proxy has
// other MGCs and did not close it itself, the MGC in use refused or
// reset it, and the proxy moves to the next; the MG's connection (its
// pair) stays open, unpaired, and its next message goes to the next MGC.
// It reports whether the pair is to stay.
func (p *Proxy) mgcLost(c *tcpConn) bool {
	if c.mgc == nil || !c.gone.Load() || p.mgcs.size.Load() < 2 || p.closing.Load() || p.draining.Load() {
		return false
	}
	p.mgcs.switchFrom(c.mgc, switchRefused)
	if pair := c.pair.Load(); pair != nil {
		pair.pair.CompareAndSwap(c, nil)
	}
	return true
}

// turned is the MGC side's part of a switch to t: its transport's (TCP:
// connections to other MGCs are no longer where the MG's messages go),
// and the proxy's address toward the MGC is found again (a wildcard's
// may differ).
func (s *sideState) turned(t *mgcTarget) {
	if r, ok := s.t.(retargeter); ok {
		r.retarget(t)
	}
	if s.self.Load() != nil {
		s.present()
	}
}

// noteGone marks a connection the peer closed or reset (not one the proxy
// closed, timed out or found broken): for an MGC, a reason to move on.
func (c *tcpConn) noteGone(err error) {
	if !c.closed.Load() && (errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)) {
		c.gone.Store(true)
	}
}

// failsOver reports whether the connection is one to an MGC of a list of
// several: its peer's close moves the proxy to the next MGC at once,
// without the wait for owed replies that a half-closing peer gets.
func (c *tcpConn) failsOver() bool {
	return c.mgc != nil && c.s.p.mgcs.size.Load() >= 2
}
