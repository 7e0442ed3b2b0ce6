package load

import (
	"time"

	"megaco/internal/udpbatch"
)

// answerQueue holds the answers one read batch of a UDP side makes,
// copied (the call that owns the bytes may end before they go out) and
// sent with one system call when the batch ends.
type answerQueue struct {
	w   *udpbatch.Writer
	b   sendBatch
	out []udpbatch.Out
}

func (q *answerQueue) queue(tid wireID, b []byte) {
	q.b.add(b, queuedMsg{tid: tid, answer: true})
}

// answerRequest checks request data of transaction tid (tx, answered by
// the read loop) as this side received it and queues the reply; a
// retransmitted request gets the reply again. It runs under the shard's
// lock, so the call cannot end the transaction meanwhile.
func (s *wireSide) answerRequest(tid wireID, tx *wireTx, a arrival, data []byte) {
	ans := &tx.ans
	if !ans.repSent.IsZero() {
		s.w.e.st.retransmits.Add(1)
		s.answers.queue(tid, ans.rep)
		return
	}
	a.data = data // compared, not kept
	if cause := ans.party.arrived(ans.base, a, a.at.Sub(ans.sent)); cause != OK {
		endInLoop(tx, cause)
		return
	}
	ans.repSent = time.Now()
	s.answers.queue(tid, ans.rep)
}

// endInLoop wakes the call of tx, which the read loop ended with cause
// (counted already).
func endInLoop(tx *wireTx, cause Cause) {
	if len(tx.inbox) < cap(tx.inbox) {
		tx.inbox <- arrival{over: true, cause: cause}
	}
}

// flushAnswers sends the queued answers; one that fails ends its
// transaction as a transport failure, as a failed send by the call would.
func (s *wireSide) flushAnswers() {
	q := &s.answers
	if len(q.b.ends) == 0 {
		return
	}
	s.writeBatch(q.w, &q.b, &q.out)
	q.b.reset()
}

// arm gives transaction tid (tx) what the read loops and the request
// queue need of it (a.on: the answering side's read loop answers it),
// before its request is sent.
func (w *wire) arm(tid wireID, tx *wireTx, a loopAnswer) {
	sh := &w.shards[tid%wireShards]
	sh.mu.Lock()
	tx.ans = a
	sh.mu.Unlock()
}

// answered tells whether the read loop answered transaction tid (tx).
func (w *wire) answered(tid wireID, tx *wireTx) bool {
	sh := &w.shards[tid%wireShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return tx.ans.on && !tx.ans.repSent.IsZero()
}
