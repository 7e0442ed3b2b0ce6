package load

import (
	"math"
	"time"
)

// Ramp is the target rate over time, as SIPp's -r, -rp, -rate_increase,
// -rate_max and -rate_interval: Rate calls per Period, plus Step every
// Interval, up to Max (0: no bound).
type Ramp struct {
	Rate     float64
	Period   time.Duration
	Step     float64
	Max      float64
	Interval time.Duration
}

// PerSecond converts a rate in calls per Period to calls per second.
func (r Ramp) PerSecond(rate float64) float64 {
	if r.Period <= 0 {
		return rate
	}
	return rate * float64(time.Second) / float64(r.Period)
}

// RateAt is the target rate (calls per Period) at elapsed time t.
func (r Ramp) RateAt(t time.Duration) float64 {
	rate := r.Rate
	if r.Step != 0 && r.Interval > 0 && t > 0 {
		rate += r.Step * float64(t/r.Interval)
	}
	if r.Max > 0 && ((r.Step > 0 && rate > r.Max) || (r.Step < 0 && rate < r.Max)) {
		rate = r.Max
	}
	return max(rate, 0)
}

// pacer counts the calls due since the start at a rate that may change:
// the integral of the rate over time. Calls are due at 0, 1/rate, 2/rate...
// so Due(0) is 1.
type pacer struct {
	period time.Duration
	rate   float64       // calls per period since t0
	t0     time.Duration // when rate took effect
	base   float64       // calls due before t0 (fractional)
}

func newPacer(period time.Duration, rate float64) *pacer {
	if period <= 0 {
		period = time.Second
	}
	return &pacer{period: period, rate: rate}
}

// perNs is the rate in calls per nanosecond.
func (p *pacer) perNs() float64 { return p.rate / float64(p.period) }

// SetRate changes the rate from time now on.
func (p *pacer) SetRate(now time.Duration, rate float64) {
	if rate == p.rate {
		return
	}
	if now > p.t0 {
		p.base += float64(now-p.t0) * p.perNs()
		p.t0 = now
	}
	p.rate = rate
}

// Due is the number of calls that should have started by now.
func (p *pacer) Due(now time.Duration) int64 {
	d := p.base
	if now > p.t0 {
		d += float64(now-p.t0) * p.perNs()
	}
	return int64(math.Floor(d+1e-9)) + 1
}

// When is the time call number n (0-based) is due, for n not yet due at
// the current rate (earlier calls: t0). A zero rate never makes another
// call due: When returns a day later.
func (p *pacer) When(n int64) time.Duration {
	need := float64(n) - p.base
	if need <= 0 {
		return p.t0
	}
	if p.rate <= 0 {
		return p.t0 + 24*time.Hour
	}
	return p.t0 + time.Duration(math.Ceil(need/p.perNs()))
}
