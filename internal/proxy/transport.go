package proxy

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"megaco/internal/tpkt"
	"megaco/internal/udpbatch"
)

// readBatch is how many datagrams one read takes at most (recvmmsg on
// Linux); 0 reads one at a time.
var readBatch = 32

// writeBatch has a batched read loop write the datagrams it forwards
// with one call per batch (sendmmsg on Linux).
var writeBatch = true

// udpLoop reads the side's socket: one message per datagram, handled in
// this goroutine (no goroutine per datagram), until the socket closes.
func (s *sideState) udpLoop() {
	if readBatch > 1 {
		if r, err := udpbatch.NewReader(s.udp, readBatch, maxDatagram+1); err == nil {
			// Raw: the socket is non-blocking, so a recvmmsg returns at
			// once. As an ordinary call, one that copies a batch takes
			// longer than the scheduler's monitor's 20 us tick: it would
			// hand the loop's P to another thread, wake one to run it,
			// and keep polling at its shortest period (a profile showed
			// ~20% of the proxy's CPU there). A loop never short of
			// datagrams is still preempted like any running goroutine.
			r.Raw()
			s.udpBatchLoop(r)
			return
		}
	}
	buf := make([]byte, maxDatagram+1)
	w := new(worker)
	for {
		n, addr, err := s.udp.ReadFromUDPAddrPort(buf)
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

// udpBatchLoop is udpLoop taking several datagrams per system call. It
// waits for the socket only once a read has emptied it (Reader.Each),
// and sends what a batch forwards with one call when the batch ends.
func (s *sideState) udpBatchLoop(r *udpbatch.Reader) {
	w := &worker{batched: writeBatch}
	o := s.id.other()
	batch := func(k int) bool {
		for i := range k {
			b, from := r.Datagram(i)
			s.p.handle(w, s.id, dest{addr: from}, b)
		}
		s.p.flush(&w.sends[o], o) // a lone datagram waits for nothing
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

// tcpConn is one TCP connection with a side's peer, accepted or dialled.
// An accepted connection whose other side is TCP too has a pair: the
// connection the proxy opened for it to the other peer; the two close
// together.
type tcpConn struct {
	s        *sideState
	c        net.Conn
	pair     atomic.Pointer[tcpConn]
	accepted bool
	mgc      *mgcTarget  // the MGC a connection of the MGC side goes to
	gone     atomic.Bool // the peer closed or reset it
	closed   atomic.Bool
	lastRead atomic.Int64 // unix nanoseconds
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
	s := c.s
	s.mu.Lock()
	if s.last == c {
		s.last = nil
	}
	s.mu.Unlock()
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

func (s *sideState) acceptLoop() {
	p := s.p
	backoff := 5 * time.Millisecond
	for {
		nc, err := s.ln.Accept()
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
		c, ok := s.add(nc, true)
		if !ok {
			continue
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			if o := p.sides[s.id.other()]; o.ln != nil {
				pair, err := o.connect()
				if err != nil {
					p.met.errors[o.id][reasonRoute].Inc()
					p.limiter.warn("cannot connect to the peer for an accepted connection", "peer", o.cfg.Peer.String(), "err", err)
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
func (s *sideState) add(nc net.Conn, accepted bool) (*tcpConn, bool) {
	s.mu.Lock()
	if len(s.conns) >= s.p.cfg.MaxConns || s.p.closing.Load() {
		s.mu.Unlock()
		nc.Close()
		s.p.met.errors[s.id][reasonLimit].Inc()
		s.p.limiter.warn("connection refused: too many", "side", sideNames[s.id], "max", s.p.cfg.MaxConns)
		return nil, false
	}
	c := &tcpConn{s: s, c: nc, accepted: accepted, settled: make(chan struct{}, 1), done: make(chan struct{}),
		raw: newRawIO(nc, s.p.cfg.WriteTimeout)}
	c.lastRead.Store(time.Now().UnixNano())
	s.conns[c] = struct{}{}
	if !accepted {
		// An accepted connection becomes the one messages from the
		// other side go on only once it has sent a message (readLoop):
		// anyone may connect, and a connection that sends nothing must
		// not swallow the other side's requests.
		s.last = c
	}
	n := len(s.conns)
	s.mu.Unlock()
	s.p.met.conns[s.id].Set(float64(n))
	return c, true
}

// connect opens a connection to the side's peer: on the MGC side, to
// the MGC in use, and when it refuses, to the next ones (mgcset.go).
func (s *sideState) connect() (*tcpConn, error) {
	var mgc *mgcTarget
	var nc net.Conn
	var err error
	for range s.connectTries() {
		if s.id == mgcSide {
			mgc = s.p.mgcs.current()
		}
		if nc, err = s.dialer().Dial("tcp", s.peerAddress()); err == nil {
			break
		}
		if mgc != nil {
			s.p.mgcs.switchFrom(mgc, switchRefused)
		}
	}
	if err != nil {
		return nil, err
	}
	c, ok := s.add(nc, false)
	if !ok {
		return nil, errors.New("too many connections")
	}
	s.mu.Lock() // turned reads it under the lock; add has published c
	c.mgc = mgc
	s.mu.Unlock()
	return c, nil
}

// dial opens a connection to the side's peer and starts reading it.
func (s *sideState) dial() (*tcpConn, error) {
	c, err := s.connect()
	if err != nil {
		return nil, err
	}
	s.p.wg.Add(1)
	go func() { defer s.p.wg.Done(); c.readLoop() }()
	return c, nil
}

// readLoop reads TPKT packets and handles each, until the peer closes,
// sends a broken header, stays silent too long, or the proxy closes.
func (c *tcpConn) readLoop() {
	defer c.close()
	w := new(worker)
	defer w.flushHeld()
	p := c.s.p
	var src io.Reader = c.c
	if c.raw != nil {
		src = c.raw
	}
	r := tpkt.NewReader(src)
	timeout := p.cfg.IdleTimeout
	if c.accepted {
		timeout = p.cfg.HandshakeTimeout
	}
	now := time.Now()
	for {
		c.c.SetReadDeadline(now.Add(timeout))
		msg, err := r.Next()
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) && timeout == p.cfg.IdleTimeout && c.pairActive() {
				now = time.Now()
				continue
			}
			c.noteGone(err)
			if err == io.EOF && !c.failsOver() {
				c.awaitOwed()
			}
			c.readError(err)
			return
		}
		timeout = p.cfg.IdleTimeout
		now = time.Now() // one clock read a message: the read time and the next deadline
		c.lastRead.Store(now.UnixNano())
		c.s.mu.Lock()
		if _, ok := c.s.conns[c]; ok {
			c.s.last = c
		}
		c.s.mu.Unlock()
		w.hold = r.HasPacket() // more to handle before the loop waits: hold the writes
		p.handle(w, c.s.id, dest{conn: c}, msg)
		if !w.hold {
			w.flushHeld()
		}
		if c.closed.Load() {
			// Closed meanwhile, e.g. by a write to a peer that stopped
			// reading: the messages still buffered would each be
			// handled and fail to be answered (an I/O error apiece).
			return
		}
	}
}

// pairActive reports whether the pair read within the idle timeout: a
// pair is idle only when both directions are.
func (c *tcpConn) pairActive() bool {
	pair := c.pair.Load()
	return pair != nil && !pair.closed.Load() &&
		time.Since(time.Unix(0, pair.lastRead.Load())) < c.s.p.cfg.IdleTimeout
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

// writeLocked writes buf; c.wmu is held. A failed write closes c.
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
	s := c.s
	s.mu.Lock()
	delete(s.conns, c)
	if s.last == c {
		s.last = nil
	}
	n := len(s.conns)
	s.mu.Unlock()
	s.p.met.conns[s.id].Set(float64(n))
	s.p.table.forget(c)
	if s.p.mgcLost(c) {
		return // the pair stays, for the next MGC
	}
	if pair := c.pair.Load(); pair != nil {
		pair.close()
	}
}
