package proxy

import (
	"megaco/internal/capture/pcapng"
	"megaco/internal/udpbatch"
)

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

// flush writes the queued datagrams out of side o's socket and counts
// their transactions as forwarded, or dropped when a write failed.
func (p *Proxy) flush(q *sendQueue, o side) {
	n := len(q.ends)
	if n == 0 {
		return
	}
	defer q.reset()
	if q.w == nil {
		w, err := udpbatch.NewWriter(p.sides[o].udp)
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
		q.tickets = append(q.tickets, p.sides[o].captureOut(q.dests[i], q.out[i].B))
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
