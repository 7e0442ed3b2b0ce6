package proxy

import (
	"errors"
	"io"
	"net"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"megaco/internal/monotime"
	"megaco/internal/tpkt"
)

// tcpTransport is a side over TCP (RFC 3525 Annex D.2): messages in TPKT
// packets, on connections accepted from the side's peers or dialled to
// them. A connection accepted from a peer, when the other side is TCP
// too, gets a pair: a connection to the other peer, everything on one
// going to the other, the two closing together.
type tcpTransport struct {
	s  *sideState
	ln net.Listener

	dialFailed atomic.Int64 // when dialling the peer last failed (unix ns), 0 after a success

	mu    sync.Mutex
	conns map[*tcpConn]struct{}
	last  *tcpConn // the most recently active connection
}

func init() { transports["tcp"] = newTCP }

// redialAfter is how long a side waits after failing to reach its TCP
// peer before it tries again.
const redialAfter = time.Second

func newTCP(s *sideState) (transport, error) {
	ln, err := net.Listen("tcp", s.cfg.Listen.Address)
	if err != nil {
		return nil, err
	}
	return &tcpTransport{s: s, ln: ln, conns: make(map[*tcpConn]struct{})}, nil
}

func (t *tcpTransport) addr() net.Addr { return t.ln.Addr() }
func (t *tcpTransport) stop()          { t.ln.Close() }

// close closes the listener and every connection.
func (t *tcpTransport) close() {
	t.ln.Close()
	t.mu.Lock()
	conns := make([]*tcpConn, 0, len(t.conns))
	for c := range t.conns {
		conns = append(conns, c)
	}
	t.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
}

// defaultDest is the connection last active with the side, or a new one
// to the peer.
func (t *tcpTransport) defaultDest() (dest, error) {
	t.mu.Lock()
	last := t.last
	t.mu.Unlock()
	if last != nil && !last.closed.Load() {
		return dest{conn: last}, nil
	}
	// After a failed attempt, fail fast for a while: dialling happens in
	// a read loop, which must not wait on an unreachable peer per message.
	if at := t.dialFailed.Load(); at != 0 && time.Since(time.Unix(0, at)) < redialAfter {
		return dest{}, errors.New("the peer was unreachable less than a second ago")
	}
	c, err := t.dial()
	if err != nil {
		t.dialFailed.Store(time.Now().UnixNano())
		return dest{}, err
	}
	t.dialFailed.Store(0)
	return dest{conn: c}, nil
}

// send writes b to d's connection, or in a worker's batch holds it
// there (tcphold.go). Either way the caller counts the transactions:
// a held packet is as good as written (a failed flush closes the
// connection, and the requests' entries go with it).
func (t *tcpTransport) send(w *worker, _ side, d dest, b []byte, _ func(int) bool) (bool, error) {
	if w != nil && w.batch {
		return false, d.conn.hold(w, b) // captured there, in the connection's order
	}
	return false, d.conn.write(b) // captured there, in the connection's order
}

// retarget is the MGC side's part of a switch to mgc: connections to
// other MGCs are no longer where the MG's messages go (they stay open
// for what is still answered on them).
func (t *tcpTransport) retarget(mgc *mgcTarget) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.last != nil && t.last.mgc != mgc {
		t.last = nil
	}
	for c := range t.conns {
		if c.mgc != mgc {
			if pair := c.pair.Load(); pair != nil {
				pair.pair.CompareAndSwap(c, nil)
				c.pair.CompareAndSwap(pair, nil)
			}
		}
	}
}

// tcpConn is one TCP connection with a side's peer, accepted or dialled.
// An accepted connection whose other side is TCP too has a pair: the
// connection the proxy opened for it to the other peer; the two close
// together.
type tcpConn struct {
	s        *sideState
	t        *tcpTransport
	c        net.Conn
	pair     atomic.Pointer[tcpConn]
	accepted bool
	mgc      *mgcTarget  // the MGC a connection of the MGC side goes to
	gone     atomic.Bool // the peer closed or reset it
	closed   atomic.Bool
	lastRead atomic.Int64 // an monotime.Instant (clock)
	raw      *rawIO       // nil: the net package's calls

	// txs heads the list of the routing table's entries whose requester
	// this connection is (slot+1, 0: none); the table's lock guards it.
	txs uint32
	// owed counts the replies owed to the peer: its requests not yet
	// finally answered (and the answer written). After the peer's EOF
	// the connection stays open for them; settled signals each decrease
	// to zero, done the close.
	owed    atomic.Int64
	settled chan struct{}
	done    chan struct{}

	wmu  sync.Mutex
	wbuf []byte
	held bool // wbuf holds packets not yet written (tcphold.go)
}

// owe counts a reply owed to c (a UDP requester, nil, owes nothing).
func (c *tcpConn) owe() {
	if c != nil {
		c.owed.Add(1)
	}
}

// settle counts n replies owed to c as delivered, or as never coming.
func (c *tcpConn) settle(n int64) {
	if c != nil && c.owed.Add(-n) <= 0 {
		select {
		case c.settled <- struct{}{}:
		default:
		}
	}
}

// awaitOwed keeps a connection whose peer sent EOF (a half-close: it
// may still read) open until the replies owed to it are written or
// --remember passes. Meanwhile it is no longer where the other side's
// unrouted messages go (its pair's still come to it).
func (c *tcpConn) awaitOwed() {
	s, t := c.s, c.t
	t.mu.Lock()
	if t.last == c {
		t.last = nil
	}
	t.mu.Unlock()
	if c.owed.Load() <= 0 {
		return
	}
	timer := time.NewTimer(s.p.cfg.Remember)
	defer timer.Stop()
	for c.owed.Load() > 0 {
		select {
		case <-c.settled:
		case <-timer.C:
			return
		case <-c.done:
			return
		}
	}
}

// serve accepts connections and reads each in a goroutine of its own.
func (t *tcpTransport) serve() {
	s, p := t.s, t.s.p
	backoff := 5 * time.Millisecond
	for {
		nc, err := t.ln.Accept()
		if err != nil {
			if p.closing.Load() || p.draining.Load() || errors.Is(err, net.ErrClosed) {
				return
			}
			p.met.errors[s.id][reasonIO].Inc()
			time.Sleep(backoff) // e.g. out of file descriptors
			backoff = min(2*backoff, time.Second)
			continue
		}
		backoff = 5 * time.Millisecond
		if !s.admitConn(nc) {
			continue
		}
		c, ok := t.add(nc, true)
		if !ok {
			continue
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			if o, ok := p.sides[s.id.other()].t.(*tcpTransport); ok {
				pair, err := o.connect()
				if err != nil {
					p.met.errors[o.s.id][reasonRoute].Inc()
					p.limiter.warn("cannot connect to the peer for an accepted connection", "peer", o.s.cfg.Peer.String(), "err", err)
					c.close()
					return
				}
				c.pair.Store(pair) // before either reads
				pair.pair.Store(c)
				p.wg.Add(1)
				go func() { defer p.wg.Done(); pair.readLoop() }()
			}
			c.readLoop()
		}()
	}
}

// add registers a connection, refusing it past the side's bound.
func (t *tcpTransport) add(nc net.Conn, accepted bool) (*tcpConn, bool) {
	s := t.s
	t.mu.Lock()
	if len(t.conns) >= s.p.cfg.MaxConns || s.p.closing.Load() {
		t.mu.Unlock()
		nc.Close()
		s.p.met.errors[s.id][reasonLimit].Inc()
		s.p.limiter.warn("connection refused: too many", "side", sideNames[s.id], "max", s.p.cfg.MaxConns)
		return nil, false
	}
	c := &tcpConn{s: s, t: t, c: nc, accepted: accepted, settled: make(chan struct{}, 1), done: make(chan struct{}),
		raw: newRawIO(nc, s.p.cfg.WriteTimeout)}
	c.lastRead.Store(int64(monotime.Now()))
	t.conns[c] = struct{}{}
	if !accepted {
		// An accepted connection becomes the one messages from the
		// other side go on only once it has sent a message (readLoop):
		// anyone may connect, and a connection that sends nothing must
		// not swallow the other side's requests.
		t.last = c
	}
	n := len(t.conns)
	t.mu.Unlock()
	s.p.met.conns[s.id].Set(float64(n))
	return c, true
}

// connect opens a connection to the side's peer: on the MGC side, to
// the MGC in use, and when it refuses, to the next ones (mgcset.go).
func (t *tcpTransport) connect() (*tcpConn, error) {
	s := t.s
	var mgc *mgcTarget
	var nc net.Conn
	var err error
	for range s.connectTries() {
		if s.id == mgcSide {
			mgc = s.p.mgcs.current()
		}
		if nc, err = t.dialer().Dial("tcp", s.peerAddress()); err == nil {
			break
		}
		if mgc != nil {
			s.p.mgcs.switchFrom(mgc, switchRefused)
		}
	}
	if err != nil {
		return nil, err
	}
	c, ok := t.add(nc, false)
	if !ok {
		return nil, errors.New("too many connections")
	}
	t.mu.Lock() // retarget reads it under the lock; add has published c
	c.mgc = mgc
	t.mu.Unlock()
	return c, nil
}

// dial opens a connection to the side's peer and starts reading it.
func (t *tcpTransport) dial() (*tcpConn, error) {
	c, err := t.connect()
	if err != nil {
		return nil, err
	}
	p := t.s.p
	p.wg.Add(1)
	go func() { defer p.wg.Done(); c.readLoop() }()
	return c, nil
}

// dialer dials the side's peer from the address the side listens on,
// when that is one address (not a wildcard) of the peer's family: the
// peer sees the connection come from the address the proxy presents.
func (t *tcpTransport) dialer() *net.Dialer {
	s := t.s
	d := &net.Dialer{Timeout: s.p.cfg.WriteTimeout}
	ip := addrPort(s.listenAddr()).Addr()
	peer, err := netip.ParseAddrPort(s.peerAddress())
	if err == nil && ip.IsValid() && !ip.IsUnspecified() && ip.Is4() == peer.Addr().Unmap().Is4() {
		d.LocalAddr = &net.TCPAddr{IP: ip.AsSlice()}
	}
	return d
}

// readLoop reads TPKT packets and handles each, until the peer closes,
// sends a broken header, stays silent too long, or the proxy closes.
func (c *tcpConn) readLoop() {
	defer c.close()
	w := new(worker)
	p := c.s.p
	defer p.flush(w)
	var src io.Reader = c.c
	if c.raw != nil {
		src = c.raw
	}
	r := tpkt.NewReader(src)
	idle := p.cfg.IdleTimeout
	greeted := !c.accepted // read a message, or dialled: the idle timeout holds
	first := idle
	if !greeted {
		first = p.cfg.HandshakeTimeout
	}
	c.c.SetReadDeadline(time.Now().Add(first))
	if c.raw != nil {
		c.raw.extend = func() (time.Time, bool) { return c.extendRead(greeted) }
	}
	for {
		msg, err := r.Next()
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) && greeted && c.pairActive() {
				c.c.SetReadDeadline(time.Now().Add(idle)) // the net package's reads (raw ones extend inside)
				continue
			}
			c.noteGone(err)
			if err == io.EOF && !c.failsOver() {
				c.awaitOwed()
			}
			c.readError(err)
			return
		}
		c.lastRead.Store(int64(monotime.Now())) // one clock read a message, the monotonic clock's
		if c.raw == nil || !greeted {
			greeted = true
			c.c.SetReadDeadline(time.Now().Add(idle))
		}
		c.t.mu.Lock()
		if _, ok := c.t.conns[c]; ok {
			c.t.last = c
		}
		c.t.mu.Unlock()
		w.batch = r.HasPacket() // more to handle before the loop waits: keep the writes
		p.handle(w, c.s.id, dest{conn: c}, msg)
		if !w.batch {
			p.flush(w)
		}
		if c.closed.Load() {
			// Closed meanwhile, e.g. by a write to a peer that stopped
			// reading: the messages still buffered would each be
			// handled and fail to be answered (an I/O error apiece).
			return
		}
	}
}

// extendRead is the read deadline's next value when it passes on a
// connection that is not idle: one that read within the idle timeout
// (raw I/O sets the deadline once per idle period, not per message) or
// whose pair did. Before its first message an accepted connection has
// the handshake timeout alone.
func (c *tcpConn) extendRead(greeted bool) (time.Time, bool) {
	if !greeted {
		return time.Time{}, false
	}
	idle := c.s.p.cfg.IdleTimeout
	if since := monotime.Now().Sub(monotime.Instant(c.lastRead.Load())); since < idle {
		return time.Now().Add(idle - since), true
	}
	if c.pairActive() {
		return time.Now().Add(idle), true
	}
	return time.Time{}, false
}

// pairActive reports whether the pair read within the idle timeout: a
// pair is idle only when both directions are.
func (c *tcpConn) pairActive() bool {
	pair := c.pair.Load()
	return pair != nil && !pair.closed.Load() &&
		monotime.Now().Sub(monotime.Instant(pair.lastRead.Load())) < c.s.p.cfg.IdleTimeout
}

func (c *tcpConn) readError(err error) {
	p := c.s.p
	switch {
	case c.closed.Load() || p.closing.Load() || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed):
	case errors.Is(err, tpkt.ErrHeader):
		p.met.errors[c.s.id][reasonDecode].Inc()
		p.limiter.warn("connection dropped: broken TPKT header", "from", c.c.RemoteAddr().String(), "err", err)
	case errors.Is(err, os.ErrDeadlineExceeded):
		p.met.errors[c.s.id][reasonLimit].Inc()
		p.limiter.warn("connection dropped: silent too long", "from", c.c.RemoteAddr().String())
	default:
		p.met.errors[c.s.id][reasonIO].Inc()
		p.limiter.warn("connection dropped", "from", c.c.RemoteAddr().String(), "err", err)
	}
}

// write sends one message in a TPKT packet, after any the connection
// holds; a peer that does not take it within the write timeout is
// disconnected.
func (c *tcpConn) write(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closed.Load() {
		return net.ErrClosed
	}
	buf, err := tpkt.AppendFrame(c.pending(), b)
	if err != nil {
		return err
	}
	c.wbuf = buf
	t := c.s.captureOut(dest{conn: c}, b)
	err = c.writeLocked(buf)
	c.s.p.captureDone(t, err)
	return err
}

// writeLocked writes buf; c.wmu is held.
func (c *tcpConn) writeLocked(buf []byte) error {
	var err error
	if c.raw != nil {
		_, err = c.raw.Write(buf) // sets the deadline only if it must wait
	} else {
		c.c.SetWriteDeadline(time.Now().Add(c.s.p.cfg.WriteTimeout))
		_, err = c.c.Write(buf)
	}
	if err != nil {
		c.close()
	}
	return err
}

// close closes the connection and its pair, and forgets the transactions
// whose replies would have gone to it.
func (c *tcpConn) close() {
	if c.closed.Swap(true) {
		return
	}
	if c.done != nil {
		close(c.done)
	}
	c.c.Close()
	s, t := c.s, c.t
	t.mu.Lock()
	delete(t.conns, c)
	if t.last == c {
		t.last = nil
	}
	n := len(t.conns)
	t.mu.Unlock()
	s.p.met.conns[s.id].Set(float64(n))
	s.p.table.forget(c)
	if s.p.mgcLost(c) {
		return // the pair stays, for the next MGC
	}
	if pair := c.pair.Load(); pair != nil {
		pair.close()
	}
}
