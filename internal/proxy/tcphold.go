package proxy

import (
	"net"

	"megaco/internal/tpkt"
)

// Holding TCP writes: a read loop that has more whole packets buffered
// (read with the same system call) holds what it sends on TCP
// connections, each in the connection's write buffer, and writes each
// connection's packets with one call once the buffered packets are
// handled (flushHeld), instead of a write per message. Anyone else
// writing to a held connection writes the held packets first, in order.

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
		w.held = append(w.held, c)
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

// flushHeld writes what every connection w held still holds.
func (w *worker) flushHeld() {
	for i, c := range w.held {
		c.flushHeld()
		w.held[i] = nil
	}
	w.held = w.held[:0]
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
