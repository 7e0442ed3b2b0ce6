package bench

import (
	"runtime"
	"time"
)

// op is one timed operation on one message.
type op struct {
	// run does the operation once. With slots > 0, run(i) consumes what
	// prepare(i) made, for i < slots.
	run func(i int) error
	// slots and prepare are for operations that use their input up (an
	// in-place conversion): a batch of slots inputs is prepared untimed,
	// then the batch is timed.
	slots   int
	prepare func(i int) error
}

// sample is the time, the count and the allocations of a run of an op.
type sample struct {
	ns, n, allocs int64
}

func (s *sample) add(t sample) {
	s.ns += t.ns
	s.n += t.n
	s.allocs += t.allocs
}

// timing accumulates the rounds of one operation on one message.
type timing struct {
	sum  sample // every round
	best sample // the round with the lowest mean
}

func (t *timing) add(s sample) {
	t.sum.add(s)
	if s.n > 0 && (t.best.n == 0 || s.ns*t.best.n < t.best.ns*s.n) {
		t.best = s
	}
}

// us is the mean time in µs: over all rounds, or of the fastest round.
func (t *timing) us(fastest bool) float64 {
	s := t.sum
	if fastest {
		s = t.best
	}
	if s.n == 0 {
		return 0
	}
	return float64(s.ns) / float64(s.n) / 1e3
}

// mallocs is the count of heap allocations so far.
func mallocs() int64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.Mallocs)
}

// measure runs o for about budget of timed work after a warm-up of a fifth
// of it (as OTP's measurement warms up before its timed loop). The timed
// loops only read the clock; allocations are counted apart (allocs).
func (o *op) measure(budget time.Duration) (sample, error) {
	if _, err := o.timed(budget / 5); err != nil {
		return sample{}, err
	}
	return o.timed(budget)
}

func (o *op) timed(budget time.Duration) (sample, error) {
	if budget <= 0 {
		budget = 1
	}
	if o.slots > 0 {
		return o.timedSlots(budget)
	}
	start := time.Now()
	var n, batch int64 = 0, 1
	var el time.Duration
	for {
		for range batch {
			if err := o.run(0); err != nil {
				return sample{}, err
			}
		}
		n += batch
		el = time.Since(start)
		if el >= budget {
			break
		}
		// Size the next batch at a quarter of what is left, so the clock
		// is read rarely and the budget is not overshot by much.
		per := max(el/time.Duration(n), 1)
		batch = max(int64((budget-el)/4/per), 1)
	}
	return sample{ns: el.Nanoseconds(), n: n}, nil
}

func (o *op) timedSlots(budget time.Duration) (sample, error) {
	var s sample
	for s.ns < budget.Nanoseconds() {
		if err := o.prepareSlots(); err != nil {
			return sample{}, err
		}
		start := time.Now()
		for i := range o.slots {
			if err := o.run(i); err != nil {
				return sample{}, err
			}
		}
		s.add(sample{ns: time.Since(start).Nanoseconds(), n: int64(o.slots)})
	}
	return s, nil
}

func (o *op) prepareSlots() error {
	for i := range o.slots {
		if err := o.prepare(i); err != nil {
			return err
		}
	}
	return nil
}

// allocs counts the heap allocations of runs of o (as
// testing.AllocsPerRun does), after a warm-up run.
func (o *op) allocs() (sample, error) {
	runs := max(o.slots, 16)
	if err := o.prepareSlots(); err != nil {
		return sample{}, err
	}
	if err := o.run(0); err != nil {
		return sample{}, err
	}
	if err := o.prepareSlots(); err != nil {
		return sample{}, err
	}
	a0 := mallocs()
	for i := range runs {
		if err := o.run(i % max(o.slots, 1)); err != nil {
			return sample{}, err
		}
	}
	return sample{n: int64(runs), allocs: mallocs() - a0}, nil
}
