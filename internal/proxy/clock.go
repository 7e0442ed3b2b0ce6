package proxy

import "time"

// instant is a moment on the monotonic clock: the time since epoch. The
// routing table and the TCP idle check keep instants rather than
// time.Times: reading one (clock) reads the monotonic clock alone, half
// of time.Now's cost, which reads the wall clock too, and a step of the
// wall clock (NTP, an operator) moves nothing.
type instant time.Duration

// epoch is the moment instants count from.
var epoch = time.Now()

// clock reads the monotonic clock (time.Since of a fixed time.Time with a
// monotonic reading does so without the wall clock).
func clock() instant { return instant(time.Since(epoch)) }

func (t instant) Add(d time.Duration) instant { return t + instant(d) }
func (t instant) Sub(u instant) time.Duration { return time.Duration(t - u) }
func (t instant) Before(u instant) bool       { return t < u }
