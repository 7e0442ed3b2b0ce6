package load

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"megaco/internal/codec"
	"megaco/internal/codec/ber"
	"megaco/internal/model"
	"megaco/internal/tpkt"
	"megaco/internal/udpbatch"
)

// Wire configures the wire mode (--transport udp|tcp): the generator is
// both peers of the call flow, on real sockets, around a running megaco
// proxy. Its MGC side sends to MGCTarget (the proxy's MGC-side listen
// address) from a socket on MGCListen (the proxy's --mgc); its MG side,
// likewise, MGTarget and MGListen (the proxy's --mg). Both gateways of
// the flow share the MG side's socket.
type Wire struct {
	Network             string // "udp" or "tcp"
	MGCTarget, MGTarget string
	MGCListen, MGListen string
	// RetransmitInitial is the first retransmission timer of a request
	// over UDP (RFC 3525 D.1.3); each retransmission doubles it, up to
	// RetransmitMax (D.1.3 suggests 4 s). --timeout bounds the whole
	// transaction: after it, the request is lost.
	RetransmitInitial, RetransmitMax time.Duration
	// AnswerDelay is how long the receiving side waits before it answers
	// a request: a slow peer, which keeps transactions in flight.
	AnswerDelay time.Duration
}

// Bounds of the wire mode's sockets.
const (
	wireReadBuf   = 65536   // largest datagram read
	wireSockBuf   = 4 << 20 // socket buffers asked for, UDP
	wireMaxConns  = 64      // TCP connections accepted per side
	wireIdle      = 5 * time.Minute
	wireWriteWait = 5 * time.Second
	wireShards    = 64
	wireReadBatch = 32 // datagrams per read
)

func (w *Wire) check() error {
	switch {
	case w.Network != "udp" && w.Network != "tcp":
		return fmt.Errorf("transport %q: want udp or tcp", w.Network)
	case w.MGCTarget == "" || w.MGTarget == "" || w.MGCListen == "" || w.MGListen == "":
		return errors.New("the wire mode needs both targets and both listen addresses")
	case w.RetransmitInitial <= 0 || w.RetransmitMax < w.RetransmitInitial:
		return errors.New("retransmission timers: want 0 < initial <= max")
	case w.AnswerDelay < 0:
		return errors.New("negative answer delay")
	}
	return nil
}

// arrival is one message received by a side, decoded in its read loop.
type arrival struct {
	side    Side // the side that received it
	kind    model.TransactionKind
	errDesc *model.ErrorDescriptor // a TransactionReply with an error
	data    []byte                 // a copy, owned by the receiver
	at      time.Time
	// repSent is when the answering side's read loop answered the
	// request (loopAnswer), for a reply; over is set when the read loop
	// ended the transaction with cause (counted already).
	repSent time.Time
	over    bool
	cause   Cause
}

// wireTx is a transaction a call waits on, in the table by transaction
// ID. After the call gives it up, it stays until expires so that what
// arrives late is told apart from what was never sent.
type wireTx struct {
	inbox   chan arrival
	gaveUp  bool      // under the shard's lock
	lost    bool      // given up as Lost: a late arrival makes it Late
	expires time.Time // after giving up
	// buf holds the bytes of the arrivals in inbox (deliver appends
	// under the shard's lock), and timer is the exchange's: both go back
	// to txPool with the wireTx, so a transaction allocates nothing.
	buf   []byte
	timer *time.Timer
	// ans is set when the answering side's read loop answers the request
	// itself (loopAnswer), under the shard's lock.
	ans loopAnswer
}

// loopAnswer is what the answering side's read loop needs to check a
// request and answer it without waking the call: over UDP, when the
// answer is the reply at once (no pending, no answer delay: on). The
// call then wakes once per transaction, for the reply, and the answers
// of a read batch go out in one system call. Over UDP the party and base
// are set in any case, to fail a request whose queued send fails.
type loopAnswer struct {
	on       bool
	answerer Side
	base     int
	party    wireParty
	rep      []byte
	sent     time.Time // the request, first
	repSent  time.Time // the reply, first
}

// txPool holds the wireTxs of transactions that ended and left the table.
var txPool = sync.Pool{New: func() any { return &wireTx{inbox: make(chan arrival, 8)} }}

// recycle puts tx back in txPool once it is out of the table (so that no
// read loop can deliver to it) and its exchange is over.
func recycle(tx *wireTx) {
	for len(tx.inbox) > 0 {
		<-tx.inbox
	}
	tx.gaveUp, tx.lost, tx.expires, tx.buf = false, false, time.Time{}, tx.buf[:0]
	tx.ans = loopAnswer{}
	txPool.Put(tx)
}

type wireShard struct {
	mu sync.Mutex
	m  map[wireID]*wireTx
}

// wireID is what a call waits on: a transaction ID, or (ackBit set) the
// acknowledgement of one, which a replayed capture sends on its own.
type wireID uint64

const ackBit wireID = 1 << 32

// idOf is the wireID a received transaction answers to.
func idOf(t *model.Transaction) wireID {
	if t.Kind == model.Transaction_TransactionResponseAck && len(t.TransactionResponseAck) > 0 {
		return ackBit | wireID(t.TransactionResponseAck[0].FirstAck)
	}
	return wireID(transactionID(t))
}

// wire is the running wire mode: the two sides' sockets, their read
// loops and the table of transactions in flight.
type wire struct {
	cfg    *Wire
	e      *engine
	sides  [2]*wireSide
	shards [wireShards]wireShard
	kept   atomic.Int64 // given-up transactions kept
	// tids[i] is the ordinal (in Flow.tids) of step i's transaction.
	tids []uint32

	unmatched, late atomic.Int64
	closing         atomic.Bool
	wg              sync.WaitGroup
	quit            chan struct{}
}

// wireSide is one peer's sockets: a UDP socket, or a TCP listener (for the
// connections the proxy makes to this peer) and a connection this peer
// makes to the proxy when it has none from it.
type wireSide struct {
	w      *wire
	side   Side
	dec    codec.Reusing
	target netip.AddrPort // UDP
	udp    *net.UDPConn

	answers  answerQueue // the UDP read loop's
	requests requestQueue
	taddr    string
	ln       net.Listener
	mu       sync.Mutex
	accepted []*wireConn // newest last
	dialled  *wireConn
	conns    int
}

type wireConn struct {
	c      net.Conn
	mu     sync.Mutex // serialises writes
	buf    []byte
	closed atomic.Bool
}

// openWire opens both sides' sockets and starts their read loops.
func openWire(e *engine) (*wire, error) {
	cfg := e.cfg.Wire
	w := &wire{cfg: cfg, e: e, quit: make(chan struct{})}
	for i := range w.shards {
		w.shards[i].m = map[wireID]*wireTx{}
	}
	var err error
	if w.tids, err = stepTransactions(e.flow); err != nil {
		return nil, err
	}
	names := [2]string{e.cfg.Codecs.MGC, e.cfg.Codecs.MG}
	targets := [2]string{cfg.MGCTarget, cfg.MGTarget}
	listens := [2]string{cfg.MGCListen, cfg.MGListen}
	for s := range w.sides {
		c, err := codec.Lookup(names[s], Options())
		if err != nil {
			return nil, err
		}
		dec, ok := c.(codec.Reusing)
		if !ok {
			dec = plainDecoder{c}
		}
		ws := &wireSide{w: w, side: Side(s), dec: dec, taddr: targets[s]}
		if err := ws.open(listens[s]); err != nil {
			w.close()
			return nil, fmt.Errorf("%s side: %w", Side(s), err)
		}
		w.sides[s] = ws
	}
	w.wg.Add(1)
	go w.janitor()
	return w, nil
}

// plainDecoder makes a codec without pooling look like one with.
type plainDecoder struct{ c codec.Codec }

func (p plainDecoder) DecodeReused(data []byte) (*model.MegacoMessage, func(), error) {
	m, err := p.c.Decode(data)
	return m, func() {}, err
}

// stepTransactions reads each step's transaction ordinal.
func stepTransactions(f *Flow) ([]uint32, error) {
	out := make([]uint32, len(f.Steps))
	for i, st := range f.Steps {
		m, err := ber.Decode(st.Template, ber.Options{})
		if err != nil {
			return nil, err
		}
		ts := m.Mess.MessageBody.Transactions
		if len(ts) != 1 {
			return nil, fmt.Errorf("call flow %s: %d transactions, the wire mode wants 1", st.Name, len(ts))
		}
		out[i] = f.tids[transactionID(&ts[0])]
	}
	return out, nil
}

func (s *wireSide) open(listen string) error {
	w := s.w
	if w.cfg.Network == "udp" {
		ap, err := resolveUDP(s.taddr)
		if err != nil {
			return fmt.Errorf("target %s: %w", s.taddr, err)
		}
		s.target = ap
		la, err := net.ResolveUDPAddr("udp", listen)
		if err != nil {
			return err
		}
		if s.udp, err = net.ListenUDP("udp", la); err != nil {
			return err
		}
		_ = s.udp.SetReadBuffer(wireSockBuf)
		_ = s.udp.SetWriteBuffer(wireSockBuf)
		w.wg.Add(1)
		go s.readUDP()
		return nil
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	s.ln = ln
	w.wg.Add(1)
	go s.accept()
	return nil
}

func resolveUDP(addr string) (netip.AddrPort, error) {
	a, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return netip.AddrPort{}, err
	}
	ap := a.AddrPort()
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
}

// readUDP is the side's one read loop: no goroutine per datagram, and
// the datagrams queued are taken several per system call; the answers
// the batch makes (loopAnswer) go out together when it ends.
func (s *wireSide) readUDP() {
	defer s.w.wg.Done()
	r, err := udpbatch.NewReader(s.udp, wireReadBatch, wireReadBuf)
	if err != nil {
		return // closed already
	}
	if s.answers.w, err = udpbatch.NewWriter(s.udp); err != nil {
		return
	}
	// This loop has no other work to yield to while datagrams come.
	r.Raw()
	s.answers.w.Raw()
	for {
		n, err := r.Read()
		if err != nil {
			if s.w.closing.Load() {
				return
			}
			continue // an ICMP error on the socket: the next read goes on
		}
		at := time.Now()
		for i := range n {
			b, _ := r.Datagram(i)
			s.deliver(b, at)
		}
		s.flushAnswers()
	}
}

// accept takes the proxy's connections to this side, at most
// wireMaxConns at once.
func (s *wireSide) accept() {
	defer s.w.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if s.w.closing.Load() || errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond)
			continue
		}
		s.mu.Lock()
		if s.conns >= wireMaxConns {
			s.mu.Unlock()
			c.Close()
			continue
		}
		s.conns++
		wc := &wireConn{c: c}
		s.accepted = append(s.accepted, wc)
		s.mu.Unlock()
		s.w.wg.Add(1)
		go s.readTCP(wc)
	}
}

// readTCP reads one connection's TPKT packets until it closes.
func (s *wireSide) readTCP(wc *wireConn) {
	defer s.w.wg.Done()
	defer s.drop(wc)
	r := tpkt.NewReader(wc.c)
	for {
		_ = wc.c.SetReadDeadline(time.Now().Add(wireIdle))
		msg, err := r.Next()
		if err != nil {
			if !s.w.closing.Load() && !wc.closed.Load() && !errors.Is(err, net.ErrClosed) {
				s.w.e.noteError(Transport, fmt.Sprintf("%s side, connection from %s: %v", s.side, wc.c.RemoteAddr(), err))
			}
			return
		}
		s.deliver(msg, time.Now())
	}
}

// drop forgets a connection that closed.
func (s *wireSide) drop(wc *wireConn) {
	wc.closed.Store(true)
	wc.c.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dialled == wc {
		s.dialled = nil
		return
	}
	for i, a := range s.accepted {
		if a == wc {
			s.accepted = append(s.accepted[:i], s.accepted[i+1:]...)
			s.conns--
			return
		}
	}
}

// conn is the connection this side sends on, as a TCP peer would: the
// newest the proxy opened to it, else its own to the proxy (dialled now
// if it has none).
func (s *wireSide) conn() (*wireConn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.accepted) - 1; i >= 0; i-- {
		if !s.accepted[i].closed.Load() {
			return s.accepted[i], nil
		}
	}
	if s.dialled != nil && !s.dialled.closed.Load() {
		return s.dialled, nil
	}
	if s.w.closing.Load() {
		return nil, net.ErrClosed
	}
	c, err := net.DialTimeout("tcp", s.taddr, wireWriteWait)
	if err != nil {
		return nil, err
	}
	s.dialled = &wireConn{c: c}
	s.w.wg.Add(1)
	go s.readTCP(s.dialled)
	return s.dialled, nil
}

// send sends one message from this side to the proxy.
func (s *wireSide) send(msg []byte) error {
	if s.udp != nil {
		_, err := s.udp.WriteToUDPAddrPort(msg, s.target)
		return err
	}
	wc, err := s.conn()
	if err != nil {
		return err
	}
	wc.mu.Lock()
	defer wc.mu.Unlock()
	if wc.buf, err = tpkt.AppendFrame(wc.buf[:0], msg); err != nil {
		return err
	}
	_ = wc.c.SetWriteDeadline(time.Now().Add(wireWriteWait))
	if _, err = wc.c.Write(wc.buf); err != nil {
		wc.closed.Store(true)
		wc.c.Close()
	}
	return err
}

// deliver decodes a message that arrived and hands it to the call that
// waits on its transaction. What no call waits on is counted: late
// (the call gave it up) or unmatched.
func (s *wireSide) deliver(data []byte, at time.Time) {
	w := s.w
	m, release, err := s.dec.DecodeReused(data)
	if err != nil {
		release()
		w.unmatched.Add(1)
		w.e.noteError(Mismatch, fmt.Sprintf("%s side received %d bytes that do not decode: %v", s.side, len(data), err))
		return
	}
	body := &m.Mess.MessageBody
	if body.Kind != model.MessageMessageBody_Transactions || len(body.Transactions) == 0 {
		release()
		w.unmatched.Add(1)
		w.e.noteError(Rejected, fmt.Sprintf("%s side received a message-level error or an empty message", s.side))
		return
	}
	t := &body.Transactions[0]
	a := arrival{side: s.side, kind: t.Kind, at: at}
	tid := idOf(t)
	if t.Kind == model.Transaction_TransactionReply {
		if r := &t.TransactionReply.TransactionResult; r.Kind == model.TransactionReplyTransactionResult_TransactionError && r.TransactionError != nil {
			d := *r.TransactionError
			if d.ErrorText.Present { // the decoder's memory: copied
				d.ErrorText.Value = string([]byte(d.ErrorText.Value))
			}
			a.errDesc = &d
		}
	}
	release()
	sh := &w.shards[tid%wireShards]
	sh.mu.Lock()
	tx := sh.m[tid]
	if tx != nil && tx.gaveUp {
		late := tx.lost
		tx.lost = false
		sh.mu.Unlock()
		w.late.Add(1)
		if late { // the call counted as lost was only late
			w.e.st.failed[Lost].Add(-1)
			w.e.st.failed[Late].Add(1)
		}
		return
	}
	if tx == nil {
		sh.mu.Unlock()
		w.unmatched.Add(1)
		return
	}
	if tx.ans.on {
		if a.side == tx.ans.answerer && a.kind == model.Transaction_TransactionRequest {
			s.answerRequest(tid, tx, a, data)
			sh.mu.Unlock()
			return
		}
		a.repSent = tx.ans.repSent
	}
	// Only the read loops send to the inbox, under the shard's lock: when
	// it has room, the send below does not block.
	if len(tx.inbox) < cap(tx.inbox) {
		start := len(tx.buf)
		tx.buf = append(tx.buf, data...)
		a.data = tx.buf[start:len(tx.buf):len(tx.buf)]
		tx.inbox <- a
	} // else the call is not reading: it has what it needs
	sh.mu.Unlock()
}

// begin registers call transaction tid.
func (w *wire) begin(tid wireID) *wireTx {
	tx, _ := w.tryBegin(tid, true)
	return tx
}

// tryBegin registers transaction tid unless (force false) another call
// has it in flight.
func (w *wire) tryBegin(tid wireID, force bool) (*wireTx, bool) {
	sh := &w.shards[tid%wireShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	old := sh.m[tid]
	if old != nil && !old.gaveUp && !force {
		return nil, false
	}
	if old != nil && old.gaveUp {
		w.kept.Add(-1)
	}
	tx := txPool.Get().(*wireTx)
	sh.m[tid] = tx
	return tx, true
}

// claim registers transaction tid once no other call has it in flight,
// within --timeout (then it takes it over): two transactions with one ID
// at once would be one to the proxy, which sees both from one socket.
func (w *wire) claim(ctx context.Context, tid wireID) (*wireTx, bool) {
	deadline := time.Now().Add(w.e.cfg.Timeout)
	for {
		if tx, ok := w.tryBegin(tid, time.Now().After(deadline)); ok {
			return tx, true
		}
		if !hold(ctx, time.Millisecond) {
			return nil, false
		}
	}
}

// end removes a finished transaction, or keeps a failed one for a
// --timeout more to tell late answers apart, within a bound.
func (w *wire) end(tid wireID, tx *wireTx, cause Cause) {
	sh := &w.shards[tid%wireShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.m[tid] != tx {
		return
	}
	if cause == OK || cause == Aborted || w.kept.Load() >= maxKept {
		delete(sh.m, tid)
		recycle(tx)
		return
	}
	tx.gaveUp, tx.lost, tx.expires = true, cause == Lost, time.Now().Add(w.e.cfg.Timeout)
	w.kept.Add(1)
}

// maxKept bounds the given-up transactions kept.
const maxKept = 100000

// janitor drops the given-up transactions that expired, once a second.
func (w *wire) janitor() {
	defer w.wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-w.quit:
			return
		case now := <-t.C:
			for i := range w.shards {
				sh := &w.shards[i]
				sh.mu.Lock()
				for id, tx := range sh.m {
					if tx.gaveUp && now.After(tx.expires) {
						delete(sh.m, id)
						w.kept.Add(-1)
					}
				}
				sh.mu.Unlock()
			}
		}
	}
}

// close closes every socket and waits for the read loops.
func (w *wire) close() {
	if w.closing.Swap(true) {
		return
	}
	close(w.quit)
	for _, s := range w.sides {
		if s == nil {
			continue
		}
		if s.udp != nil {
			s.udp.Close()
		}
		if s.ln != nil {
			s.ln.Close()
		}
		s.mu.Lock()
		for _, c := range append(s.accepted, s.dialled) {
			if c != nil {
				c.closed.Store(true)
				c.c.Close()
			}
		}
		s.mu.Unlock()
	}
	w.wg.Wait()
}
