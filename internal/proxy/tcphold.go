package proxy

import (
	"net"

	"megaco/internal/tpkt"
)

// Holding TCP writes: a read loop with more messages in hand (a worker's
// batch: TCP packets read with the same system call, a UDP read's batch)
// holds what it sends on TCP connections, each in the connection's write
// buffer, and writes each connection's packets with one call once the
// messages in hand are handled (the transport's flush), instead of a
// write per message. Anyone else writing to a held connection writes the
// held packets first, in order.

// heldConns are the connections a worker holds packets in, on one side.
type heldConns []*tcpConn

// hold appends b, framed, to what c holds for w, and counts c among the
// connections w must flush.
func (c *tcpConn) hold(w *worker, b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closed.Load() {
		return net.ErrClosed
	}
	if !c.held {
		c.wbuf = c.wbuf[:0]
	}
	buf, err := tpkt.AppendFrame(c.wbuf, b)
	if err != nil {
		return err
	}
	c.wbuf = buf
	// Placed in the capture now: the write follows within this batch of
	// reads, before any answer to it can come back.
	c.s.p.captureDone(c.s.captureOut(dest{conn: c}, b), nil)
	if !c.held {
		c.held = true
		h, _ := w.tx[c.s.id].(*heldConns)
		if h == nil {
			h = new(heldConns)
			w.tx[c.s.id] = h
		}
		*h = append(*h, c)
		w.kept[c.s.id] = true
	}
	return nil
}

// pending is what c holds, to go before a new write; c.wmu is held.
func (c *tcpConn) pending() []byte {
	if c.held {
		c.held = false
		return c.wbuf
	}
	return c.wbuf[:0]
}

// flush writes what every connection of the side w held still holds.
func (t *tcpTransport) flush(w *worker) {
	h, _ := w.tx[t.s.id].(*heldConns)
	if h == nil {
		return
	}
	for i, c := range *h {
		c.flushHeld()
		(*h)[i] = nil
	}
	*h = (*h)[:0]
}

func (c *tcpConn) flushHeld() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if !c.held || c.closed.Load() {
		c.held = false
		return
	}
	buf := c.pending()
	if err := c.writeLocked(buf); err != nil {
		p := c.s.p
		p.met.errors[c.s.id][reasonIO].Inc()
		p.limiter.warn("send failed", "to", dest{conn: c}.String(), "err", err)
	}
}
