package proxy

import (
	"net"
	"net/netip"
)

// The transport seam. A transport carries one side's messages: it
// listens, reads its peers and writes to them. handle (handle.go) and the
// routing table see only dests; everything about sockets, framing and
// connections is behind this interface. UDP (udp.go: one message per
// datagram, RFC 3525 Annex D.1) and TCP (tcp.go: TPKT-framed, Annex D.2)
// are the two; a new one (SCTP, H.248.4) is one more file that adds its
// maker to transports (in an init function), plus its tests.
type transport interface {
	// serve reads the side's peers until the proxy closes: each read
	// loop has a worker of its own, hands every message to p.handle and
	// calls p.flush before it waits for more.
	serve()
	// send sends b to d. In a worker's batch (w.batch) it may keep b
	// until flush, taking on the counting of the transactions of w.infos
	// that in selects (it reports kept); otherwise its caller counts them
	// by err. w is nil for a message sent now, outside any batch (error
	// answers).
	send(w *worker, from side, d dest, b []byte, in func(int) bool) (kept bool, err error)
	// flush writes what send kept for w.
	flush(w *worker)
	// defaultDest is where a message goes when nothing routes it: the
	// side's peer (the MGC in use on the MGC side).
	defaultDest() (dest, error)
	// addr is where the side listens.
	addr() net.Addr
	// stop takes no new peers (connections) from now on: Drain.
	stop()
	// close closes the side's sockets and connections.
	close()
}

// transports makes a side's transport by the network of its addresses
// (Addr.Network, the scheme of udp://host:port), listening on the side's
// Listen address. Each transport's file adds its own.
var transports = map[string]func(s *sideState) (transport, error){}

// retargeter is a transport that reacts to the MGC side's switch to
// another MGC (mgcset.go), beyond sending to it from then on: TCP no
// longer sends the MG's messages on connections to the old one.
type retargeter interface {
	retarget(t *mgcTarget)
}

// dest is where a message goes on a side, or where it came from: a
// datagram address on the side's socket (addr), or a connection (conn).
// It is a value, compared with ==: the routing table keeps one per
// transaction.
type dest struct {
	addr netip.AddrPort
	conn *tcpConn
}

func (d dest) String() string {
	if d.conn != nil {
		return "tcp://" + d.conn.c.RemoteAddr().String()
	}
	return "udp://" + d.addr.String()
}

func (d dest) usable() bool {
	if d.conn != nil {
		return !d.conn.closed.Load()
	}
	return d.addr.IsValid()
}

func unmap(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// flush has each side's transport write what w's batch kept for it.
func (p *Proxy) flush(w *worker) {
	for o := range w.kept {
		if w.kept[o] {
			w.kept[o] = false
			p.sides[o].t.flush(w)
		}
	}
}
