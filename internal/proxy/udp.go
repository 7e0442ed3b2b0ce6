package proxy

import (
	"errors"
	"fmt"
	"net"

	"megaco/internal/capture/pcapng"
	"megaco/internal/udpbatch"
)

// udpTransport is a side over UDP (RFC 3525 Annex D.1): one message per
// datagram, every peer on one socket. A read loop takes datagrams in
// batches (recvmmsg on Linux) and, in a worker's batch, sends what the
// batch forwards with one call when the batch ends (sendmmsg).
type udpTransport struct {
	s    *sideState
	conn *net.UDPConn
}

// udpBuffer is the socket buffer size asked for each UDP socket.
const udpBuffer = 4 << 20

// maxDatagram is the largest UDP payload over IPv4 (65535 less the IP and
// UDP headers); reads use a larger buffer so nothing is cut.
const maxDatagram = 65507

func init() { transports["udp"] = newUDP }

// readBatch is how many datagrams one read takes at most (recvmmsg on
// Linux); 0 reads one at a time.
var readBatch = 32

// writeBatch has a batched read loop write the datagrams it forwards
// with one call per batch (sendmmsg on Linux).
var writeBatch = true

// newUDP resolves the side's peer (the MG side's: the MGC side's are the
// MGC set's) and opens the side's socket.
func newUDP(s *sideState) (transport, error) {
	if s.id != mgcSide {
		a, err := net.ResolveUDPAddr("udp", s.cfg.Peer.Address)
		if err != nil {
			return nil, fmt.Errorf("peer %s: %w", s.cfg.Peer, err)
		}
		s.peer = unmap(a.AddrPort()) // allowed already: open ran allowPeer on it
	}
	c, err := net.ListenPacket("udp", s.cfg.Listen.Address)
	if err != nil {
		return nil, err
	}
	u := &udpTransport{s: s, conn: c.(*net.UDPConn)}
	// Room for bursts while the one read loop transcodes: the kernel
	// drops what does not fit (it may cap the size; best effort).
	u.conn.SetReadBuffer(udpBuffer)
	u.conn.SetWriteBuffer(udpBuffer)
	return u, nil
}

func (u *udpTransport) addr() net.Addr { return u.conn.LocalAddr() }
func (u *udpTransport) stop()          {}
func (u *udpTransport) close()         { u.conn.Close() }

// defaultDest is the side's peer (the MGC in use on the MGC side).
func (u *udpTransport) defaultDest() (dest, error) {
	return dest{addr: u.s.peerUDP()}, nil
}

// serve reads the side's socket: one message per datagram, handled in
// this goroutine (no goroutine per datagram), until the socket closes.
func (u *udpTransport) serve() {
	s := u.s
	if readBatch > 1 {
		if r, err := udpbatch.NewReader(u.conn, readBatch, maxDatagram+1); err == nil {
			// Raw: the socket is non-blocking, so a recvmmsg returns at
			// once. As an ordinary call, one that copies a batch takes
			// longer than the scheduler's monitor's 20 us tick: it would
			// hand the loop's P to another thread, wake one to run it,
			// and keep polling at its shortest period (a profile showed
			// ~20% of the proxy's CPU there). A loop never short of
			// datagrams is still preempted like any running goroutine.
			r.Raw()
			u.serveBatches(r)
			return
		}
	}
	buf := make([]byte, maxDatagram+1)
	w := new(worker)
	for {
		n, addr, err := u.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if s.p.closing.Load() || errors.Is(err, net.ErrClosed) {
				return
			}
			// ICMP errors surface here on some systems; they concern an
			// earlier send, not this socket.
			s.p.met.errors[s.id][reasonIO].Inc()
			continue
		}
		s.p.handle(w, s.id, dest{addr: unmap(addr)}, buf[:n])
	}
}

// serveBatches is serve taking several datagrams per system call. It
// waits for the socket only once a read has emptied it (Reader.Each),
// and sends what a batch kept when the batch ends.
func (u *udpTransport) serveBatches(r *udpbatch.Reader) {
	s := u.s
	w := &worker{batch: writeBatch}
	batch := func(k int) bool {
		for i := range k {
			b, from := r.Datagram(i)
			s.p.handle(w, s.id, dest{addr: from}, b)
		}
		s.p.flush(w) // a lone datagram waits for nothing
		return !s.p.closing.Load()
	}
	for {
		err := r.Each(batch)
		if err == nil || s.p.closing.Load() || errors.Is(err, net.ErrClosed) {
			return
		}
		s.p.met.errors[s.id][reasonIO].Inc()
	}
}

// send writes b to d, or in a batch queues it (flush); after a batch,
// until the flush, it queues too: datagrams keep their order.
func (u *udpTransport) send(w *worker, from side, d dest, b []byte, in func(int) bool) (bool, error) {
	if w != nil && (w.batch || w.kept[u.s.id]) {
		q, _ := w.tx[u.s.id].(*sendQueue)
		if q == nil {
			q = new(sendQueue)
			w.tx[u.s.id] = q
		}
		q.queue(w, from, d, b, in)
		w.kept[u.s.id] = true
		return true, nil
	}
	t := u.s.captureOut(d, b)
	_, err := u.conn.WriteToUDPAddrPort(b, d.addr)
	u.s.p.captureDone(t, err)
	return false, err
}

// sendQueue holds the datagrams one read batch sends out of one UDP
// socket, written with one call (sendmmsg on Linux) when the batch ends.
// Each datagram keeps its place, so the order per destination holds; the
// transactions it carries are counted when the write's outcome is known.
type sendQueue struct {
	data  []byte // the datagrams, end to end
	ends  []int  // where each datagram ends in data
	dests []dest
	recs  []sendRec // the transactions each datagram carries
	rends []int     // where each datagram's records end in recs
	out   []udpbatch.Out
	w     *udpbatch.Writer // made on first use, for the socket it writes
	// tickets place each datagram in the capture before the write.
	tickets []pcapng.Ticket
}

// sendRec is one transaction a queued datagram carries, from side s.
type sendRec struct {
	s    side
	kind kind
	tid  uint32
}

// queue adds b, bound for d, carrying the transactions of w.infos for
// which in holds.
func (q *sendQueue) queue(w *worker, s side, d dest, b []byte, in func(int) bool) {
	q.data = append(q.data, b...)
	q.ends = append(q.ends, len(q.data))
	q.dests = append(q.dests, d)
	for j, t := range w.infos {
		if in(j) {
			q.recs = append(q.recs, sendRec{s, t.kind, t.tid})
		}
	}
	q.rends = append(q.rends, len(q.recs))
}

// flush writes the datagrams queued for w out of the side's socket and
// counts their transactions as forwarded, or dropped when a write failed.
func (u *udpTransport) flush(w *worker) {
	q, _ := w.tx[u.s.id].(*sendQueue)
	if q == nil {
		return
	}
	p, o := u.s.p, u.s.id
	n := len(q.ends)
	if n == 0 {
		return
	}
	defer q.reset()
	if q.w == nil {
		w, err := udpbatch.NewWriter(u.conn)
		if err != nil { // the socket is closed
			for i := range n {
				p.sent(q, o, i, err)
			}
			return
		}
		// Raw: the socket is non-blocking, so a sendmmsg returns at once
		// and the scheduler's bookkeeping of a blocking call is saved.
		w.Raw()
		q.w = w
	}
	q.out = q.out[:0]
	start := 0
	for i := range n {
		q.out = append(q.out, udpbatch.Out{B: q.data[start:q.ends[i]], To: q.dests[i].addr})
		start = q.ends[i]
	}
	for i := range n {
		q.tickets = append(q.tickets, u.s.captureOut(q.dests[i], q.out[i].B))
	}
	for sent := 0; sent < n; {
		k, err := q.w.Write(q.out[sent:n])
		if err != nil {
			p.sent(q, o, sent, err) // the first one not written failed
			k = 1
		} else {
			for i := sent; i < sent+k; i++ {
				p.sent(q, o, i, nil)
			}
		}
		sent += k
	}
}

func (q *sendQueue) reset() {
	clear(q.out) // no reference to data outlives the batch
	q.data, q.ends, q.dests = q.data[:0], q.ends[:0], q.dests[:0]
	q.recs, q.rends = q.recs[:0], q.rends[:0]
	q.tickets = q.tickets[:0]
}

// sent accounts for queued datagram i, written out of side o's socket or
// failed with err.
func (p *Proxy) sent(q *sendQueue, o side, i int, err error) {
	res := forwarded
	if err != nil {
		res = dropped
		p.met.errors[o][reasonIO].Inc()
		p.limiter.warn("send failed", "to", q.dests[i].String(), "err", err)
	}
	if i < len(q.tickets) {
		p.captureDone(q.tickets[i], err)
	}
	first := 0
	if i > 0 {
		first = q.rends[i-1]
	}
	for _, r := range q.recs[first:q.rends[i]] {
		p.met.messages[r.s][r.kind][res].Inc()
		if err != nil && r.kind == kindRequest {
			p.table.cancel(newKey(r.s, r.tid))
		}
	}
}
