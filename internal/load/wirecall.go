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
// the reply the other side answers with, each in its sender's codec. The
// party checks and counts what arrives as message base (the request) and
// base+1 (the reply).
type wireTxn struct {
	from     Side
	tid      uint32
	req, rep []byte
	base     int
	party    wireParty
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
// side is answered again (at-most-once: the same reply), and a
// TransactionPending restarts the timer at its maximum. --timeout bounds
// the whole transaction: after it the request is lost.
func (w *wire) exchange(ctx context.Context, x wireTxn) (cause Cause) {
	e, p, i := w.e, x.party, x.base
	from, to := w.sides[x.from], w.sides[1-x.from]
	tx := x.claimed
	if tx == nil {
		tx = w.begin(wireID(x.tid))
	}
	defer func() { w.end(wireID(x.tid), tx, cause) }()

	sent := time.Now()
	if err := from.send(x.req); err != nil {
		return p.fail(i, Transport, fmt.Errorf("send: %w", err))
	}
	retrans := w.network() == "udp"
	interval := w.cfg.RetransmitInitial
	deadline := sent.Add(e.cfg.Timeout)
	timer := time.NewTimer(min(interval, e.cfg.Timeout))
	defer timer.Stop()
	var repSent time.Time
	for {
		select {
		case <-ctx.Done():
			return Aborted
		case a := <-tx.inbox:
			switch {
			case a.side == to.side && a.kind == model.Transaction_TransactionRequest:
				if !repSent.IsZero() { // a retransmission got through: answer again
					e.st.retransmits.Add(1)
					if err := to.send(x.rep); err != nil {
						return p.fail(i+1, Transport, fmt.Errorf("send: %w", err))
					}
					continue
				}
				if cause := p.arrived(i, a, a.at.Sub(sent)); cause != OK {
					return cause
				}
				if d := w.cfg.AnswerDelay; d > 0 && !hold(ctx, d) {
					return Aborted
				}
				repSent = time.Now()
				if err := to.send(x.rep); err != nil {
					return p.fail(i+1, Transport, fmt.Errorf("send: %w", err))
				}
			case a.side == from.side && a.kind == model.Transaction_TransactionReply:
				if repSent.IsZero() { // the proxy answered the request itself
					return p.fail(i, Rejected, replyError(a))
				}
				return p.arrived(i+1, a, a.at.Sub(repSent))
			case a.side == from.side && a.kind == model.Transaction_TransactionPending:
				interval = w.cfg.RetransmitMax
				timer.Reset(min(interval, time.Until(deadline)))
			default:
				return p.fail(i, Mismatch, fmt.Errorf("the %s side received a %v of this transaction", a.side, a.kind))
			}
		case now := <-timer.C:
			if !now.Before(deadline) {
				step := i
				if !repSent.IsZero() {
					step = i + 1
				}
				return p.fail(step, Lost, fmt.Errorf("no answer within %v (%s)", e.cfg.Timeout, w.network()))
			}
			if retrans {
				e.st.retransmits.Add(1)
				if err := from.send(x.req); err != nil {
					return p.fail(i, Transport, fmt.Errorf("retransmission: %w", err))
				}
				interval = min(2*interval, w.cfg.RetransmitMax)
			}
			timer.Reset(min(interval, time.Until(deadline)))
		}
	}
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
	if cause == Aborted {
		return cause
	}
	c.e.st.msgs.Add(1)
	c.e.st.msgsFailed.Add(1)
	c.note(i, cause, err)
	return cause
}

func (c *callRun) note(i int, cause Cause, err error) {
	step := &c.e.flow.Steps[i]
	c.e.noteError(cause, fmt.Sprintf("call %d, %s (%s -> %s): %v", c.n, step.Name, c.b.Src(i), c.b.Dst(i), err))
}
