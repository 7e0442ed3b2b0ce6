package server

import (
	"net"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// limitListener accepts at most max connections at once: one more is
// accepted and closed at once (the client sees its connection closed,
// the refusal is counted) rather than left in the kernel's backlog, where
// a client cannot tell a full server from a slow one. It also finds an
// open connection by its remote address, so that a handler can close the
// connection of a client that stopped reading.
type limitListener struct {
	net.Listener
	max      int64
	open     atomic.Int64
	gauge    prometheus.Gauge // nil: not counted
	onReject func()
	conns    sync.Map // remote address string -> *limitConn
}

func newLimitListener(l net.Listener, max int, transport string, m *serverMetrics) *limitListener {
	ll := &limitListener{Listener: l, max: int64(max), onReject: func() {}}
	if m != nil {
		ll.gauge = m.connections.WithLabelValues(transport)
		ll.onReject = func() { m.reject(transport, reasonConnections) }
	}
	return ll
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Add(1) > l.max {
			l.open.Add(-1)
			l.onReject()
			c.Close()
			continue
		}
		if l.gauge != nil {
			l.gauge.Inc()
		}
		lc := &limitConn{Conn: c, l: l, key: c.RemoteAddr().String()}
		l.conns.Store(lc.key, lc)
		return lc, nil
	}
}

// closeConn closes the open connection from addr, if there is one.
func (l *limitListener) closeConn(addr net.Addr) bool {
	if addr == nil {
		return false
	}
	c, ok := l.conns.Load(addr.String())
	if ok {
		c.(*limitConn).Close()
	}
	return ok
}

type limitConn struct {
	net.Conn
	l    *limitListener
	key  string
	once sync.Once
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.conns.CompareAndDelete(c.key, c)
		c.l.open.Add(-1)
		if c.l.gauge != nil {
			c.l.gauge.Dec()
		}
	})
	return err
}

// inFlight is the cap on request bytes worked on at once, shared by both
// transports. It never waits: work that does not fit is refused, since a
// queue would hold the very memory the cap is there to bound.
type inFlight struct {
	max   int64
	used  atomic.Int64
	gauge prometheus.Gauge
}

func newInFlight(max int64, m *serverMetrics) *inFlight {
	f := &inFlight{max: max}
	if m != nil {
		f.gauge = m.inFlight
	}
	return f
}

// acquire takes n bytes, or reports that they do not fit. A request
// larger than the whole cap still runs when nothing else does, so that
// a cap set below the message size does not refuse everything.
func (f *inFlight) acquire(n int64) bool {
	if f == nil || n <= 0 {
		return true
	}
	if used := f.used.Add(n); used > f.max && used != n {
		f.used.Add(-n)
		return false
	}
	f.set()
	return true
}

// force takes n bytes whether they fit or not: memory already taken,
// which work to come must then fit beside.
func (f *inFlight) force(n int64) {
	f.used.Add(n)
	f.set()
}

// fits tells whether n more bytes fit share of the cap now (or nothing
// is held).
func (f *inFlight) fits(n int64, share float64) bool {
	if f == nil || n <= 0 {
		return true
	}
	used := f.used.Load()
	return used == 0 || used+n <= int64(float64(f.max)*share)
}

// answerShare is the part of the in-flight cap that answers queued for
// clients may fill.
const answerShare = 0.75

func (f *inFlight) release(n int64) {
	if f == nil || n <= 0 {
		return
	}
	f.used.Add(-n)
	f.set()
}

func (f *inFlight) set() {
	if f.gauge != nil {
		f.gauge.Set(float64(f.used.Load()))
	}
}
