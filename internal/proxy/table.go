package proxy

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/monotime"
)

// txKey names an outstanding transaction: the side its request came from
// (its direction) and its ID. Two requesters on one side using the same ID
// at once are indistinguishable to the answering peer as well (it sees
// one proxy), so the newest wins.
//
// It is one integer, the side above the ID: a map with such keys hashes
// them with its 8-byte fast path, where a struct of a side and an ID
// (with padding) goes through the generic hash, on every message.
type txKey uint64

func newKey(from side, tid uint32) txKey { return txKey(from)<<32 | txKey(tid) }

func (k txKey) from() side { return side(k >> 32) }

type txEntry struct {
	key       txKey
	requester dest             // where the request came from: replies go there
	start     monotime.Instant // when the request was first forwarded
	expires   monotime.Instant
	seq       uint64 // tells this entry from an earlier one in its slot or under its key; 0: a free slot
	command   uint8  // index in commands
	answered  bool   // a final reply went back; kept for retransmissions
	// prev and next link the entries whose requester is one TCP
	// connection (slot+1; 0: none), so that its close finds them
	// without scanning the table.
	prev, next uint32
}

// table remembers outstanding transactions, bounded in time (ttl from the
// first request) and in size (the oldest entry goes first).
//
// The entries live in slots of one slice, the map giving a key's slot:
// at the size bound the map holds 100,000 keys, and a map of small values
// keeps each message's lookups to fewer cache lines than one holding the
// entries (a profile at 1,200 calls/s put 6% of the proxy's CPU in those
// lookups). A freed slot is the next one taken: a reply finds its entry
// where its request was written just before.
type table struct {
	mu      sync.Mutex
	ttl     time.Duration
	max     int
	m       map[txKey]uint32 // the key's slot in ents
	ents    []txEntry        // values, not pointers: no allocation per request
	free    []uint32         // slots of ents no entry holds
	seq     uint64
	queue   []queued // in order of insertion, hence of expiry
	head    int
	pending [2]int // unanswered entries by direction
}

// queued is an entry's place in the expiry order; an entry whose expiry
// was pushed back by a pending has a later place too.
type queued struct {
	slot    uint32
	seq     uint64
	expires monotime.Instant
}

// newTable makes a table and registers its gauges with reg (none when
// nil).
func newTable(ttl time.Duration, max int, reg prometheus.Registerer) *table {
	t := &table{ttl: ttl, max: max, m: make(map[txKey]uint32)}
	if reg != nil {
		t.register(reg)
	}
	return t
}

// register exports the table's size and its unanswered entries by
// direction as gauges read when scraped: setting them on each request
// and reply cost the proxy about 1% of its CPU at 1,000 calls/s.
func (t *table) register(reg prometheus.Registerer) {
	read := func(f func() int) func() float64 {
		return func() float64 {
			t.mu.Lock()
			defer t.mu.Unlock()
			return float64(f())
		}
	}
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "megaco_proxy_remembered_transactions",
		Help: "Entries of the routing table (answered ones stay until they expire).",
	}, read(func() int { return len(t.m) })))
	for d := range t.pending {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "megaco_proxy_transactions_in_flight",
			Help:        "Requests forwarded and not yet finally answered, by direction.",
			ConstLabels: prometheus.Labels{"direction": directions[d]},
		}, read(func() int { return t.pending[d] })))
	}
}

// request records a request forwarded from side s; it reports false when
// admitNew is unset (draining) and the request is new, not a
// retransmission of one the table holds.
// evicted counts an entry pushed out by the size bound.
func (t *table) request(now monotime.Instant, k txKey, from dest, command uint8, admitNew bool) (ok, evicted bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.expire(now)
	if i, ok := t.m[k]; ok {
		e := &t.ents[i]
		if !e.answered || !admitNew {
			// A retransmission, maybe from another address; while
			// draining also one whose reply was lost on the way back.
			t.requester(i, from)
			return true, false
		}
		t.remove(i) // a reused ID after its answer: a new transaction
	}
	if !admitNew {
		return false, false
	}
	if len(t.m) >= t.max {
		t.evictOldest()
		evicted = true
	}
	t.seq++
	i := t.slot()
	t.ents[i] = txEntry{key: k, requester: from, start: now, expires: now.Add(t.ttl), seq: t.seq, command: command}
	t.m[k] = i
	t.link(i, from.conn)
	from.conn.owe()
	t.queue = append(t.queue, queued{i, t.seq, t.ents[i].expires})
	if len(t.queue)-t.head > 2*t.max+64 {
		t.sweep() // replaced entries left behind by reused IDs
	}
	t.pending[k.from()]++
	return true, evicted
}

// slot takes a free slot of ents, the one freed last, or a new one.
func (t *table) slot() uint32 {
	if n := len(t.free); n > 0 {
		i := t.free[n-1]
		t.free = t.free[:n-1]
		return i
	}
	t.ents = append(t.ents, txEntry{})
	return uint32(len(t.ents) - 1)
}

// reply looks up the requester of the transaction a reply (final or not)
// answers; final marks it answered and returns how long it took. A
// pending (or a segment) keeps the route for another ttl: the requester
// keeps waiting too.
func (t *table) reply(now monotime.Instant, k txKey, final bool) (requester dest, took time.Duration, command uint8, first, found bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.expire(now)
	i, ok := t.m[k]
	if !ok {
		return dest{}, 0, 0, false, false
	}
	e := &t.ents[i]
	if final && !e.answered {
		e.answered, first = true, true
		t.pending[k.from()]--
	} else if !final && now.Add(t.ttl).Sub(e.expires) > t.ttl/8 {
		// Pushed back in steps, so a stream of pendings adds few places.
		e.expires = now.Add(t.ttl)
		t.queue = append(t.queue, queued{i, e.seq, e.expires})
		if len(t.queue)-t.head > 2*t.max+64 {
			t.sweep()
		}
	}
	return e.requester, now.Sub(e.start), e.command, first, true
}

// cancel forgets a request that could not be forwarded, so that nobody
// waits for its reply (a drain, the in-flight gauge).
func (t *table) cancel(k txKey) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.m[k]; ok && !t.ents[i].answered {
		t.remove(i)
	}
}

// inFlight is the number of unanswered transactions.
func (t *table) inFlight(now monotime.Instant) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.expire(now)
	return t.pending[0] + t.pending[1]
}

// forget drops every entry whose requester is the connection c, by
// the connection's own list: its cost is its entries, not the table's.
func (t *table) forget(c *tcpConn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for c.txs != 0 {
		t.remove(c.txs - 1)
	}
}

// requester changes the requester of the entry in slot i (a
// retransmission from elsewhere), moving it between connections' lists
// and what they are owed.
func (t *table) requester(i uint32, from dest) {
	e := &t.ents[i]
	old := e.requester.conn
	e.requester = from
	if old == from.conn {
		return
	}
	t.unlink(i, old)
	t.link(i, from.conn)
	if !e.answered {
		old.settle(1)
		from.conn.owe()
	}
}

// link puts the entry in slot i, new or moved to requester c, at the
// head of c's list (nothing for a UDP requester).
func (t *table) link(i uint32, c *tcpConn) {
	if c == nil {
		return
	}
	e := &t.ents[i]
	e.prev, e.next = 0, c.txs
	if c.txs != 0 {
		t.ents[c.txs-1].prev = i + 1
	}
	c.txs = i + 1
}

// unlink takes the entry in slot i off c's list.
func (t *table) unlink(i uint32, c *tcpConn) {
	if c == nil {
		return
	}
	e := &t.ents[i]
	if e.prev != 0 {
		t.ents[e.prev-1].next = e.next
	} else {
		c.txs = e.next
	}
	if e.next != 0 {
		t.ents[e.next-1].prev = e.prev
	}
	e.prev, e.next = 0, 0
}

func (t *table) expire(now monotime.Instant) {
	for t.head < len(t.queue) && !now.Before(t.queue[t.head].expires) {
		t.pop(now)
	}
	t.compact()
}

func (t *table) evictOldest() {
	for t.head < len(t.queue) {
		if t.pop(always) {
			break
		}
	}
	t.compact()
}

// always is the now that makes pop remove an entry whether or not it
// has expired (evictOldest's).
const always = monotime.Instant(-1 << 63)

// pop removes the queue's head and its entry, unless the entry was
// replaced since or, when now is not always, has not expired yet (a
// pending pushed it back: a later place holds it).
func (t *table) pop(now monotime.Instant) (removed bool) {
	q := t.queue[t.head]
	t.queue[t.head] = queued{}
	t.head++
	if e := &t.ents[q.slot]; e.seq == q.seq && (now == always || !now.Before(e.expires)) {
		t.remove(q.slot)
		return true
	}
	return false
}

// remove drops the entry in slot i and frees the slot.
func (t *table) remove(i uint32) {
	e := &t.ents[i]
	delete(t.m, e.key)
	if !e.answered {
		t.pending[e.key.from()]--
	}
	if c := e.requester.conn; c != nil {
		t.unlink(i, c)
		if !e.answered {
			c.settle(1) // no reply will be delivered
		}
	}
	*e = txEntry{} // seq 0: no queue place matches it; no connection kept
	t.free = append(t.free, i)
}

// sweep drops queue items whose entry was replaced or removed, so the
// queue stays within a small multiple of the table's bound.
func (t *table) sweep() {
	live := t.queue[:0]
	for _, q := range t.queue[t.head:] {
		if e := &t.ents[q.slot]; e.seq == q.seq && q.expires == e.expires {
			live = append(live, q)
		}
	}
	clear(t.queue[len(live):])
	t.queue, t.head = live, 0
}

// compact reclaims the queue's consumed head once it is half the queue.
func (t *table) compact() {
	if t.head > 0 && t.head*2 >= len(t.queue) {
		n := copy(t.queue, t.queue[t.head:])
		clear(t.queue[n:])
		t.queue, t.head = t.queue[:n], 0
	}
}
