package proxy

import (
	"net"
	"net/netip"

	"megaco/internal/capture/pcapng"
)

// Capturer records what the proxy relays as packets (a pcapng file: see
// internal/capture/pcapng), both sides with their real addresses: a
// transcoding shows as the message in, in the sender's codec, and the
// message out, in the receiver's. Frames are stamped as they are handed
// over: one received after its read returned (Record), one sent before its
// write starts (Reserve), then marked sent or not (Done); so a reply never
// comes before its request in the file (pcapng.Recorder).
type Capturer interface {
	Record(f pcapng.Frame)
	Reserve(f pcapng.Frame) pcapng.Ticket
	Done(t pcapng.Ticket, sent bool)
}

// captureIn records data arriving from src on side s.
func (p *Proxy) captureIn(s side, src dest, data []byte) {
	if p.cfg.Capture == nil {
		return
	}
	if src.conn != nil {
		p.cfg.Capture.Record(tcpFrame(src.conn.c.RemoteAddr(), src.conn.c.LocalAddr(), data))
		return
	}
	p.cfg.Capture.Record(pcapng.Frame{Src: src.addr, Dst: p.sides[s].localUDP(), Data: data})
}

// captureOut places b, about to be sent to d on side s; captureDone
// follows with the outcome.
func (s *sideState) captureOut(d dest, b []byte) pcapng.Ticket {
	c := s.p.cfg.Capture
	if c == nil {
		return 0
	}
	if d.conn != nil {
		return c.Reserve(tcpFrame(d.conn.c.LocalAddr(), d.conn.c.RemoteAddr(), b))
	}
	return c.Reserve(pcapng.Frame{Src: s.localUDP(), Dst: d.addr, Data: b})
}

func (p *Proxy) captureDone(t pcapng.Ticket, err error) {
	if t != 0 {
		p.cfg.Capture.Done(t, err == nil)
	}
}

// tcpFrame is one message on a TCP connection, framed as it was on the
// wire (TPKT: version 3, a reserved octet, the length with the header).
func tcpFrame(from, to net.Addr, msg []byte) pcapng.Frame {
	n := len(msg) + 4
	return pcapng.Frame{TCP: true, Src: addrPort(from), Dst: addrPort(to), Head: []byte{3, 0, byte(n >> 8), byte(n)}, Data: msg}
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
