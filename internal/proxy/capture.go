package proxy

import (
	"net"
	"net/netip"
	"time"

	"megaco/internal/tpkt"
)

// Capturer records what the proxy relays as packets (a pcapng file: see
// internal/capture/pcapng), both sides with their real addresses: a
// transcoding shows as the message in, in the sender's codec, and the
// message out, in the receiver's.
type Capturer interface {
	UDP(t time.Time, src, dst netip.AddrPort, payload []byte) error
	TCP(t time.Time, src, dst netip.AddrPort, data []byte) error
}

// captureIn records data arriving from src on side s.
func (p *Proxy) captureIn(s side, src dest, data []byte) {
	if p.cfg.Capture == nil {
		return
	}
	if src.conn != nil {
		p.captureTCP(src.conn.c.RemoteAddr(), src.conn.c.LocalAddr(), data)
		return
	}
	p.captureErr(p.cfg.Capture.UDP(time.Now(), src.addr, p.sides[s].localUDP(), data))
}

// captureOut records b sent to d on side s.
func (s *sideState) captureOut(d dest, b []byte) {
	p := s.p
	if p.cfg.Capture == nil {
		return
	}
	if d.conn != nil {
		p.captureTCP(d.conn.c.LocalAddr(), d.conn.c.RemoteAddr(), b)
		return
	}
	p.captureErr(p.cfg.Capture.UDP(time.Now(), s.localUDP(), d.addr, b))
}

// captureTCP records one message on a TCP connection, framed as it was on
// the wire (TPKT).
func (p *Proxy) captureTCP(from, to net.Addr, msg []byte) {
	framed, err := tpkt.AppendFrame(nil, msg)
	if err == nil {
		err = p.cfg.Capture.TCP(time.Now(), addrPort(from), addrPort(to), framed)
	}
	p.captureErr(err)
}

func (p *Proxy) captureErr(err error) {
	if err != nil {
		p.limiter.warn("capture failed", "err", err)
	}
}

// localUDP is the side's socket address (unspecified when it listens on
// all addresses).
func (s *sideState) localUDP() netip.AddrPort {
	u, ok := s.t.(*udpTransport)
	if !ok {
		return netip.AddrPort{}
	}
	return addrPort(u.conn.LocalAddr())
}

func addrPort(a net.Addr) netip.AddrPort {
	switch a := a.(type) {
	case *net.UDPAddr:
		return unmap(a.AddrPort())
	case *net.TCPAddr:
		return unmap(a.AddrPort())
	}
	return netip.AddrPort{}
}
