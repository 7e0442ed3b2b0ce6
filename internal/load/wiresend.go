package load

import (
	"fmt"
	"runtime"
	"sync"

	"megaco/internal/udpbatch"
)

// requestQueue gathers the requests the calls send out of one UDP side:
// a call that finds no send in progress yields once (so that the other
// calls ready to send queue theirs), then sends what is queued, and goes
// on while more was queued meanwhile; a call that finds one returns at
// once, its request sent with the next batch. No goroutine is woken to
// send, and calls sending at once share system calls.
type requestQueue struct {
	mu       sync.Mutex
	cur      sendBatch
	flushing bool // a call is sending: it will send cur too

	// Used by the call sending only.
	w     *udpbatch.Writer
	spare sendBatch
	out   []udpbatch.Out
}

// sendBatch is requests (or a read loop's answers) queued: their bytes
// end to end, and for each the transaction and message it is, to fail
// them should the send fail.
type sendBatch struct {
	data []byte
	ends []int
	msgs []queuedMsg
}

type queuedMsg struct {
	tid     wireID
	retrans bool // a request sent again
	answer  bool // a read loop's answer, not a request
}

func (b *sendBatch) add(msg []byte, m queuedMsg) {
	b.data = append(b.data, msg...)
	b.ends = append(b.ends, len(b.data))
	b.msgs = append(b.msgs, m)
}

func (b *sendBatch) reset() {
	b.data, b.ends, b.msgs = b.data[:0], b.ends[:0], b.msgs[:0]
}

// sendRequest queues the request of transaction tid (a retransmission
// when retrans) to go out of this UDP side. A send that fails ends the
// transaction as a transport failure.
func (s *wireSide) sendRequest(msg []byte, tid wireID, retrans bool) {
	q := &s.requests
	q.mu.Lock()
	q.cur.add(msg, queuedMsg{tid: tid, retrans: retrans})
	if q.flushing {
		q.mu.Unlock()
		return
	}
	q.flushing = true
	// The calls the same read batch woke are runnable now: let them
	// queue their requests first, to go out in this one system call. A
	// yield costs no system call and wakes no goroutine.
	q.mu.Unlock()
	runtime.Gosched()
	q.mu.Lock()
	for len(q.cur.ends) > 0 {
		q.cur, q.spare = q.spare, q.cur
		q.mu.Unlock()
		s.sendBatch(&q.spare)
		q.spare.reset()
		q.mu.Lock()
	}
	q.flushing = false
	q.mu.Unlock()
}

// sendBatch sends b, as the one call sending.
func (s *wireSide) sendBatch(b *sendBatch) {
	q := &s.requests
	if q.w == nil {
		w, err := udpbatch.NewWriter(s.udp)
		if err != nil {
			for _, m := range b.msgs {
				s.sendFailed(m, err)
			}
			return
		}
		// Raw, as the read loops' calls: the socket is non-blocking, and a
		// sendmmsg of a batch as an ordinary call outlasts the scheduler
		// monitor's 20 us tick, which then hands the P to another thread
		// and keeps polling at that period.
		w.Raw()
		q.w = w
	}
	s.writeBatch(q.w, b, &q.out)
}

// writeBatch writes b to the side's target with w, out the memory of the
// datagram list; a message whose write fails ends its transaction.
func (s *wireSide) writeBatch(w *udpbatch.Writer, b *sendBatch, out *[]udpbatch.Out) {
	o := (*out)[:0]
	start := 0
	for _, end := range b.ends {
		o = append(o, udpbatch.Out{B: b.data[start:end], To: s.target})
		start = end
	}
	for sent := 0; sent < len(o); {
		k, err := w.Write(o[sent:])
		if err != nil {
			s.sendFailed(b.msgs[sent], err)
			k = 1
		}
		sent += k
	}
	clear(o) // no reference to data outlives the batch
	*out = o
}

// sendFailed ends the transaction of m, whose send failed with err.
func (s *wireSide) sendFailed(m queuedMsg, err error) {
	what := "send"
	if m.retrans {
		what = "retransmission"
	}
	s.w.failSend(m.tid, m.answer, fmt.Errorf("%s: %w", what, err))
}

// failSend ends transaction tid as a transport failure of its request
// (or answer), sent by a queue or a read loop rather than by its call.
func (w *wire) failSend(tid wireID, answer bool, err error) {
	sh := &w.shards[tid%wireShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	tx := sh.m[tid]
	if tx == nil || tx.gaveUp || tx.ans.party == nil {
		return
	}
	step := tx.ans.base
	if answer {
		step++
	}
	tx.ans.party.fail(step, Transport, err)
	endInLoop(tx, Transport)
}
