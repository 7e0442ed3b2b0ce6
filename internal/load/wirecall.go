package load

import (
	"context"
	"fmt"
	"time"

	"megaco/internal/model"
)

// runWire plays one call on the wire: each request of the flow (an odd
// step) goes from its sender's socket through the proxy; the receiving
// side checks it and answers with the flow's next step, the reply, which
// must come back to the requester.
func (c *callRun) runWire(ctx context.Context) (cause Cause, held time.Duration) {
	e := c.e
	for i := 0; i+1 < len(e.flow.Steps); i += 2 {
		if cause := c.exchange(ctx, i); cause != OK {
			return cause, held
		}
		if (i == e.flow.HoldAfter || i+1 == e.flow.HoldAfter) && e.cfg.Hold > 0 {
			if !hold(ctx, e.cfg.Hold) {
				return Aborted, held
			}
			held = e.cfg.Hold
		}
	}
	return OK, held
}

// exchange runs the transaction of request step i and reply step i+1.
func (c *callRun) exchange(ctx context.Context, i int) Cause {
	w := c.e.wire
	return w.exchange(ctx, wireTxn{
		from: c.e.flow.Steps[i].From, base: i, party: c,
		tid: CallTransactionID(w.tids[i], uint32(len(c.e.flow.tids)), c.n),
		req: c.cm.In[i], rep: c.cm.In[i+1],
	})
}

// wireTxn is one transaction on the wire: a request sent by side from and
// the reply the other side answers with (after a pending, when pend is
// set), each in its sender's codec. The party checks and counts what
// arrives as message base (the request), base+1 (the reply) and base+2
// (the pending).
type wireTxn struct {
	from           Side
	tid            uint32
	req, rep, pend []byte
	base           int
	party          wireParty
	// claimed is the transaction already registered (claim), if it is.
	claimed *wireTx
}

// wireParty is what a transaction's messages are counted against: a call
// of the flow, or a captured transaction replayed.
type wireParty interface {
	arrived(i int, a arrival, lat time.Duration) Cause
	fail(i int, cause Cause, err error) Cause
}

// exchange runs transaction x. Over UDP an unanswered request is
// retransmitted per RFC 3525 D.1.3 (the timer doubles, up to
// Wire.RetransmitMax), a retransmitted request that reaches the answering
// side is answered again (at-most-once: the same answer), and a
// TransactionPending restarts the timer at its maximum. --timeout bounds
// the whole transaction: after it the request is lost. The answering
// side's pending, when there is one, goes first; the reply once the
// pending has arrived.
func (w *wire) exchange(ctx context.Context, x wireTxn) (cause Cause) {
	tx := x.claimed
	if tx == nil {
		tx = w.begin(wireID(x.tid))
	}
	defer func() { w.end(wireID(x.tid), tx, cause) }()
	r := exchangeRun{w: w, x: x, p: x.party, from: w.sides[x.from], to: w.sides[1-x.from], sent: time.Now(), tx: tx}
	if w.network() == "udp" {
		on := x.pend == nil && w.cfg.AnswerDelay == 0
		w.arm(wireID(x.tid), tx, loopAnswer{on: on, answerer: 1 - x.from, base: x.base, party: x.party, rep: x.rep, sent: r.sent})
		r.from.sendRequest(x.req, wireID(x.tid), false)
	} else if err := r.from.send(x.req); err != nil {
		return r.p.fail(x.base, Transport, fmt.Errorf("send: %w", err))
	}
	r.interval, r.deadline = w.cfg.RetransmitInitial, r.sent.Add(w.e.cfg.Timeout)
	r.timer = tx.startTimer(min(r.interval, w.e.cfg.Timeout))
	defer r.timer.Stop()
	for {
		var done bool
		select {
		case <-ctx.Done():
			return Aborted
		case a := <-tx.inbox:
			cause, done = r.arrival(ctx, a)
		case now := <-r.timer.C:
			cause, done = r.expired(now)
		}
		if done {
			return cause
		}
	}
}

// startTimer starts the transaction's timer to fire after d: the one it
// had before txPool gave it back, reset (stopped, it holds no stale
// tick), or a new one.
func (tx *wireTx) startTimer(d time.Duration) *time.Timer {
	if tx.timer == nil {
		tx.timer = time.NewTimer(d)
	} else {
		tx.timer.Reset(d)
	}
	return tx.timer
}

// exchangeRun is a transaction in progress (exchange).
type exchangeRun struct {
	w                       *wire
	x                       wireTxn
	p                       wireParty
	from, to                *wireSide
	sent, pendSent, repSent time.Time
	interval                time.Duration
	deadline                time.Time
	timer                   *time.Timer
	tx                      *wireTx
}

// arrival handles a message of the transaction; done: it ended.
func (r *exchangeRun) arrival(ctx context.Context, a arrival) (Cause, bool) {
	i := r.x.base
	switch {
	case a.over: // the read loop answering the request ended it
		return a.cause, true
	case a.side == r.to.side && a.kind == model.Transaction_TransactionRequest:
		return r.requestArrived(ctx, a)
	case a.side == r.from.side && a.kind == model.Transaction_TransactionReply:
		repSent := r.repSent
		if repSent.IsZero() {
			repSent = a.repSent // the read loop's answer
		}
		if repSent.IsZero() { // the proxy answered the request itself
			return r.p.fail(i, Rejected, replyError(a)), true
		}
		return r.p.arrived(i+1, a, a.at.Sub(repSent)), true
	case a.side == r.from.side && a.kind == model.Transaction_TransactionPending:
		r.interval = r.w.cfg.RetransmitMax
		r.timer.Reset(min(r.interval, time.Until(r.deadline)))
		if r.pendSent.IsZero() || !r.repSent.IsZero() {
			return OK, false // not ours to check
		}
		if cause := r.p.arrived(i+2, a, a.at.Sub(r.pendSent)); cause != OK {
			return cause, true
		}
		r.repSent = time.Now()
		return r.answer(i+1, r.x.rep)
	}
	return r.p.fail(i, Mismatch, fmt.Errorf("the %s side received a %v of this transaction", a.side, a.kind)), true
}

// requestArrived checks the request at the answering side and answers
// it: with the pending first if there is one; a retransmission gets the
// answer sent last again.
func (r *exchangeRun) requestArrived(ctx context.Context, a arrival) (Cause, bool) {
	i, st := r.x.base, r.w.e.st
	switch {
	case !r.repSent.IsZero():
		st.retransmits.Add(1)
		return r.answer(i+1, r.x.rep)
	case !r.pendSent.IsZero():
		st.retransmits.Add(1)
		return r.answer(i+2, r.x.pend)
	}
	if cause := r.p.arrived(i, a, a.at.Sub(r.sent)); cause != OK {
		return cause, true
	}
	if d := r.w.cfg.AnswerDelay; d > 0 && !hold(ctx, d) {
		return Aborted, true
	}
	if r.x.pend != nil {
		r.pendSent = time.Now()
		return r.answer(i+2, r.x.pend)
	}
	r.repSent = time.Now()
	return r.answer(i+1, r.x.rep)
}

// answer sends message i from the answering side.
func (r *exchangeRun) answer(i int, msg []byte) (Cause, bool) {
	if err := r.to.send(msg); err != nil {
		return r.p.fail(i, Transport, fmt.Errorf("send: %w", err)), true
	}
	return OK, false
}

// expired handles the timer: the transaction is lost at its deadline,
// else the request is retransmitted (UDP) and the timer doubles.
func (r *exchangeRun) expired(now time.Time) (Cause, bool) {
	i := r.x.base
	if !now.Before(r.deadline) {
		step := i
		switch {
		case !r.repSent.IsZero() || r.w.answered(wireID(r.x.tid), r.tx):
			step = i + 1
		case !r.pendSent.IsZero():
			step = i + 2
		}
		return r.p.fail(step, Lost, fmt.Errorf("no answer within %v (%s)", r.w.e.cfg.Timeout, r.w.network())), true
	}
	if r.w.network() == "udp" {
		r.w.e.st.retransmits.Add(1)
		r.from.sendRequest(r.x.req, wireID(r.x.tid), true)
		r.interval = min(2*r.interval, r.w.cfg.RetransmitMax)
	}
	r.timer.Reset(min(r.interval, time.Until(r.deadline)))
	return OK, false
}

func (w *wire) network() string { return w.cfg.Network }

// replyError describes a reply the proxy sent instead of forwarding.
func replyError(a arrival) error {
	if a.errDesc != nil {
		return fmt.Errorf("error descriptor %d %q received", a.errDesc.ErrorCode, a.errDesc.ErrorText.Value)
	}
	return fmt.Errorf("a reply came before the request reached the other side")
}

// arrived checks message i as received (its bytes against the expected
// encoding in the receiver's codec; it was decoded in the read loop) and
// counts it with its delay through the proxy.
func (c *callRun) arrived(i int, a arrival, lat time.Duration) Cause {
	e, st := c.e, c.e.st
	cause := OK
	var err error
	switch {
	case a.errDesc != nil:
		cause, err = Rejected, replyError(a)
	default:
		if err = c.b.CheckOutput(i, a.data, c.cm.Want[i], false); err != nil {
			cause = Mismatch
		}
	}
	st.msgs.Add(1)
	st.rt.Record(lat)
	st.types[e.typeIndex(e.flow.Steps[i].Type)].Record(lat)
	if cause != OK {
		st.msgsFailed.Add(1)
		c.note(i, cause, err)
	}
	return cause
}

// fail counts message i as failed without an answer.
func (c *callRun) fail(i int, cause Cause, err error) Cause {
	return c.e.st.unanswered(c.note, i, cause, err)
}

func (c *callRun) note(i int, cause Cause, err error) {
	step := &c.e.flow.Steps[i]
	c.e.noteError(cause, fmt.Sprintf("call %d, %s (%s -> %s): %v", c.n, step.Name, c.b.Src(i), c.b.Dst(i), err))
}
