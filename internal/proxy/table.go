package proxy

import (
	"sync"
	"time"
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
	requester dest      // where the request came from: replies go there
	start     time.Time // when the request was first forwarded
	expires   time.Time
	seq       uint64 // tells this entry from an earlier one under its key
	command   uint8  // index in commands
	answered  bool   // a final reply went back; kept for retransmissions
}

// table remembers outstanding transactions, bounded in time (ttl from the
// first request) and in size (the oldest entry goes first).
type table struct {
	mu      sync.Mutex
	ttl     time.Duration
	max     int
	m       map[txKey]txEntry // values, not pointers: no allocation per request
	seq     uint64
	queue   []queued // in order of insertion, hence of expiry
	head    int
	met     *metrics
	pending [2]int // unanswered entries by direction
}

// queued is an entry's place in the expiry order; an entry whose expiry
// was pushed back by a pending has a later place too.
type queued struct {
	key     txKey
	seq     uint64
	expires time.Time
}

func newTable(ttl time.Duration, max int, met *metrics) *table {
	return &table{ttl: ttl, max: max, m: make(map[txKey]txEntry), met: met}
}

// request records a request forwarded from side s; it reports false when
// admitNew is unset (draining) and the request is new, not a
// retransmission of one the table holds.
// evicted counts an entry pushed out by the size bound.
func (t *table) request(now time.Time, k txKey, from dest, command uint8, admitNew bool) (ok, evicted bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.expire(now)
	if e, ok := t.m[k]; ok {
		if !e.answered || !admitNew {
			// A retransmission, maybe from another address; while
			// draining also one whose reply was lost on the way back.
			e.requester = from
			t.m[k] = e
			return true, false
		}
		t.remove(k, e) // a reused ID after its answer: a new transaction
	}
	if !admitNew {
		return false, false
	}
	if len(t.m) >= t.max {
		t.evictOldest()
		evicted = true
	}
	t.seq++
	e := txEntry{requester: from, start: now, expires: now.Add(t.ttl), seq: t.seq, command: command}
	t.m[k] = e
	t.queue = append(t.queue, queued{k, e.seq, e.expires})
	if len(t.queue)-t.head > 2*t.max+64 {
		t.sweep() // replaced entries left behind by reused IDs
	}
	t.pending[k.from()]++
	t.gauges()
	return true, evicted
}

// reply looks up the requester of the transaction a reply (final or not)
// answers; final marks it answered and returns how long it took. A
// pending (or a segment) keeps the route for another ttl: the requester
// keeps waiting too.
func (t *table) reply(now time.Time, k txKey, final bool) (requester dest, took time.Duration, command uint8, first, found bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.expire(now)
	e, ok := t.m[k]
	if !ok {
		return dest{}, 0, 0, false, false
	}
	if final && !e.answered {
		e.answered, first = true, true
		t.m[k] = e
		t.pending[k.from()]--
		t.gauges()
	} else if !final && now.Add(t.ttl).Sub(e.expires) > t.ttl/8 {
		// Pushed back in steps, so a stream of pendings adds few places.
		e.expires = now.Add(t.ttl)
		t.m[k] = e
		t.queue = append(t.queue, queued{k, e.seq, e.expires})
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
	if e, ok := t.m[k]; ok && !e.answered {
		t.remove(k, e)
		t.gauges()
	}
}

// inFlight is the number of unanswered transactions.
func (t *table) inFlight(now time.Time) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.expire(now)
	return t.pending[0] + t.pending[1]
}

// forget drops every entry whose requester is the connection c.
func (t *table) forget(c *tcpConn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, e := range t.m {
		if e.requester.conn == c {
			t.remove(k, e)
		}
	}
	t.gauges()
}

func (t *table) expire(now time.Time) {
	for t.head < len(t.queue) && !now.Before(t.queue[t.head].expires) {
		t.pop(now)
	}
	t.compact()
	t.gauges()
}

func (t *table) evictOldest() {
	for t.head < len(t.queue) {
		if t.pop(time.Time{}) {
			break
		}
	}
	t.compact()
}

// pop removes the queue's head and its entry, unless the entry was
// replaced since or, when now is set, has not expired yet (a pending
// pushed it back: a later place holds it).
func (t *table) pop(now time.Time) (removed bool) {
	q := t.queue[t.head]
	t.queue[t.head] = queued{}
	t.head++
	if e, ok := t.m[q.key]; ok && e.seq == q.seq && (now.IsZero() || !now.Before(e.expires)) {
		t.remove(q.key, e)
		return true
	}
	return false
}

func (t *table) remove(k txKey, e txEntry) {
	delete(t.m, k)
	if !e.answered {
		t.pending[k.from()]--
	}
}

// sweep drops queue items whose entry was replaced or removed, so the
// queue stays within a small multiple of the table's bound.
func (t *table) sweep() {
	live := t.queue[:0]
	for _, q := range t.queue[t.head:] {
		if e, ok := t.m[q.key]; ok && e.seq == q.seq && q.expires.Equal(e.expires) {
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

func (t *table) gauges() {
	if t.met == nil {
		return
	}
	t.met.remembered.Set(float64(len(t.m)))
	t.met.inflight[0].Set(float64(t.pending[0]))
	t.met.inflight[1].Set(float64(t.pending[1]))
}
