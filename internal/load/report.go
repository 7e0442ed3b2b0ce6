package load

import (
	"fmt"
	"io"
	"math"
	"time"
)

// reporter turns the per-second snapshots into the live line, the CSV,
// the bottleneck warnings and the find-max search. It runs in one
// goroutine; final and findMaxResult are called after it stopped.
type reporter struct {
	e          *engine
	res        *Result
	zero       *Snapshot
	prev       *Snapshot
	lastRow    *Snapshot
	rowMax     int64 // most calls in progress since the last CSV row
	allMax     int64
	csv        *statWriter
	warnings   int
	lastLimitN time.Duration
	lastLagN   time.Duration
	cpu        *cpuWatch
	// otherLoad counts the seconds behind the rate in which the generator
	// waited for a CPU it did not use up: the machine's other load.
	otherLoad int
	fm        *findMax
}

func newReporter(e *engine, res *Result) *reporter {
	z := e.st.snapshot(0, e.cfg.Ramp.PerSecond(e.targetRate(0)), 0)
	r := &reporter{e: e, res: res, zero: z, prev: z, lastRow: z, lastLimitN: -time.Hour, lastLagN: -time.Hour, cpu: newCPUWatch()}
	if e.cfg.Stat != nil {
		var err error
		if r.csv, err = newStatWriter(e.cfg.Stat, e.flow.Types, e.start); err != nil {
			fmt.Fprintln(e.log, "warning: stat file:", err)
			r.csv = nil
		}
	}
	if e.cfg.FindMax != nil {
		r.fm = &findMax{cfg: *e.cfg.FindMax, ramp: e.cfg.Ramp, level: e.cfg.Ramp.Rate, e: e}
	}
	return r
}

func (r *reporter) snapshot() *Snapshot {
	e := r.e
	el := time.Since(e.start)
	return e.st.snapshot(el, e.cfg.Ramp.PerSecond(e.targetRate(el)), e.dueNow.Load())
}

// tick handles one second; a non-empty result stops the run.
func (r *reporter) tick() string {
	e := r.e
	s := r.snapshot()
	p := s.Sub(r.prev)
	interval := s.At - r.prev.At
	r.rowMax = max(r.rowMax, s.ActiveMax)
	r.allMax = max(r.allMax, s.ActiveMax)
	if e.cfg.Live != nil {
		fmt.Fprintln(e.cfg.Live, liveLine(p, s, interval))
	}
	m := r.cpu.measure()
	// Who holds the rate back: the -l limit (the service is slower than the
	// rate), or the generator itself (it cannot start the calls in time).
	behind := p.Due >= 5 && float64(p.Started) < 0.95*float64(p.Due)
	lagging := p.Lag.Count > 0 && p.Lag.Quantile(0.99) > stallLag
	if s.Target == 0 { // a capture replayed at its own timing: no rate to keep (the lag is in the summary)
		behind, lagging = false, false
	}
	switch {
	case (behind || lagging) && p.Limited > 0:
		if s.At-r.lastLimitN >= 10*time.Second {
			r.lastLimitN = s.At
			fmt.Fprintf(e.log, "note: %d calls in progress reached the limit (-l %d): calls wait, the service is slower than the rate\n", s.Active, e.cfg.Limit)
		}
	case behind || lagging:
		r.behind(s, p, interval, m)
	}
	if r.csv != nil && s.At-r.lastRow.At >= e.cfg.StatPeriod-500*time.Millisecond {
		r.row(s)
	}
	why := ""
	if r.fm != nil {
		why = r.fm.tick(s)
	}
	r.prev = s
	return why
}

// behind says who held the calls back in a second behind the rate without
// -l holding them: a warning when the generator measurably lacked CPU, else
// a note (at most every 10 s) with what it measured.
func (r *reporter) behind(s, p *Snapshot, interval time.Duration, m cpuMeasure) {
	e := r.e
	cause, why := m.verdict()
	if r.fm != nil {
		r.fm.lag[cause]++
	}
	what := fmt.Sprintf("%d of %d calls due started in the last %.1f s, scheduling lag p99 %s ms, not for want of -l", p.Started, p.Due, interval.Seconds(), ms(p.Lag.Quantile(0.99)))
	if cause == lagGenerator {
		r.warnings++
		fmt.Fprintf(e.log, "warning: the generator cannot keep %.1f cps itself: %s; %s\n", s.Target, what, why)
		return
	}
	if cause == lagOtherLoad {
		r.otherLoad++
	}
	if s.At-r.lastLagN >= 10*time.Second {
		r.lastLagN = s.At
		fmt.Fprintf(e.log, "note: behind the rate of %.1f cps: %s; %s\n", s.Target, what, why)
	}
}

func (r *reporter) row(s *Snapshot) {
	pr := s.Sub(r.lastRow)
	pr.ActiveMax = r.rowMax
	if err := r.csv.row(pr, s, s.At-r.lastRow.At); err != nil {
		fmt.Fprintln(r.e.log, "warning: stat file:", err)
		r.csv = nil
	}
	r.lastRow, r.rowMax = s, 0
}

// final is the snapshot of the whole run; the CSV gets its last row.
func (r *reporter) final() *Snapshot {
	s := r.snapshot()
	r.rowMax = max(r.rowMax, s.ActiveMax)
	r.allMax = max(r.allMax, s.ActiveMax)
	if r.csv != nil && s.At > r.lastRow.At {
		r.row(s)
	}
	s.ActiveMax = r.allMax
	return s
}

// findMax drives the search for the highest sustained rate, one level at a
// time (see FindMax).
type findMax struct {
	cfg    FindMax
	ramp   Ramp
	e      *engine
	level  float64 // calls per period
	ticks  int     // seconds into the level
	anchor *Snapshot
	last   *Snapshot // the previous second's, in the window
	winMax int64
	// secs counts the seconds of the window, slowSecs those whose own p99
	// is over the bound; stalled are the seconds left out (the generator's
	// scheduling lag p99 over stallLag), stallDur their length.
	secs, slowSecs int
	stalled        []*Snapshot
	stallDur       time.Duration
	lo, hi         float64 // best passed, lowest failed (0: none yet)
	best           *FindMaxLevel
	failed         *FindMaxLevel
	levels         []FindMaxLevel
	cooling        bool
	coolFrom       time.Duration
	retried        bool // the current level failed once and is being tried again
	done           string
	// lag counts the seconds behind the rate by cause (the reporter's
	// verdicts), lagFrom at the start of the level's window.
	lag, lagFrom [3]int
}

// lagWhy says whom the seconds behind the rate in the level's window
// were put down to.
func (f *findMax) lagWhy() string {
	var d [3]int
	for i := range d {
		d[i] = f.lag[i] - f.lagFrom[i]
	}
	switch {
	case d[lagGenerator] > 0:
		return fmt.Sprintf("the generator lacked CPU in %d s (see the warnings)", d[lagGenerator])
	case d[lagOtherLoad] > 0:
		return fmt.Sprintf("the machine's other load held the generator back in %d s (see the notes)", d[lagOtherLoad])
	}
	return "calls due were not started in time, and the generator was not short of CPU"
}

// FindMaxLevel is one level of the search.
type FindMaxLevel struct {
	Target    float64 // calls per second
	Achieved  float64
	P99       time.Duration
	ActiveMax int64
	MsgRate   float64
	Failed    int64
	Calls     int64 // calls started in the measured window
	Stalled   int   // seconds left out: the machine held the generator back
	Pass      bool
	Retry     bool   // the level's second try (its first failed)
	Why       string // why it failed
}

// FindMaxResult is the outcome of the search.
type FindMaxResult struct {
	Levels []FindMaxLevel
	Best   *FindMaxLevel // nil: no level passed
	Failed *FindMaxLevel // the lowest level that failed, if any
	Done   string
	P99    time.Duration
}

const maxFindLevels = 24

// stallLag is the scheduling lag p99 (calls started late) that marks a
// second in which the machine, not the service, held the generator back;
// such seconds are left out of a level's verdict, and the level runs
// longer to make up for them, up to maxStretch times its interval.
const (
	stallLag   = 20 * time.Millisecond
	maxStretch = 3
)

func (f *findMax) setRate(r float64) {
	f.e.fmRate.Store(math.Float64bits(r))
}

func (f *findMax) tick(s *Snapshot) string {
	if f.done != "" {
		return f.done
	}
	if f.cooling {
		// Between a failed level and the next, let the calls of the failed
		// one end so they do not weigh on the next.
		if s.Active == 0 || s.At-f.coolFrom > f.e.longestCall() {
			f.cooling = false
			f.ticks, f.anchor = 0, nil
			f.setRate(f.level)
		}
		return ""
	}
	f.ticks++
	if f.ticks == 1 { // the first second of a level settles
		f.anchor, f.last, f.winMax, f.secs, f.slowSecs = s, s, 0, 0, 0
		f.stalled, f.stallDur = f.stalled[:0], 0
		f.lagFrom = f.lag
		return ""
	}
	f.winMax = max(f.winMax, s.ActiveMax)
	p := s.Sub(f.last)
	// A stall delays the calls of its moment; it does not pile up more
	// than a second's calls in progress: that is a service behind the
	// rate, whose late generator is its own doing, and every second counts.
	piled := float64(f.winMax) > f.ramp.PerSecond(f.level)
	if p.Lag.Count > 0 && p.Lag.Quantile(0.99) > stallLag && !piled {
		// The machine held the generator back: its calls started late,
		// and the service, on the same machine or not, is not what this
		// second measures. It is left out, and the level runs on.
		f.stalled = append(f.stalled, p)
		f.stallDur += s.At - f.last.At
	} else {
		f.secs++
		if p.RT.Quantile(0.99) > f.cfg.P99 {
			f.slowSecs++
		}
	}
	f.last = s
	measured := time.Duration(f.ticks) * time.Second
	full := s.Sub(f.anchor)
	// Failed calls end the stretching: they are a verdict whenever they
	// came (an overloaded service makes the generator late too).
	stretch := measured-f.stallDur+time.Second/2 < f.cfg.Interval && measured < maxStretch*f.cfg.Interval && full.FailedCalls() == 0 && !piled
	if measured < f.cfg.Interval || stretch {
		return ""
	}
	w := full
	dur := s.At - f.anchor.At
	if !piled && time.Duration(2*f.secs)*time.Second >= f.cfg.Interval-time.Second {
		// Enough seconds the machine did not spoil (half the window) to
		// judge on them alone; else all of them are judged.
		for _, st := range f.stalled {
			w = w.Sub(st)
		}
		dur -= f.stallDur
	}
	lv := FindMaxLevel{Stalled: len(f.stalled),
		Target: f.ramp.PerSecond(f.level), Achieved: rate(w.Started, dur), P99: w.RT.Quantile(0.99),
		ActiveMax: f.winMax, MsgRate: rate(w.Msgs, dur), Failed: full.FailedCalls(), Pass: true,
	}
	lv.Calls, lv.Retry = w.Started, f.retried
	// p99 over enough calls, and in most of the window's seconds, is a
	// verdict by itself. Over fewer calls, or in a second or two only, a
	// stall of a busy machine may make it (a 160 ms stall is 4 % of a 4 s
	// window's calls, whatever the rate), and the level is tried again.
	sure := false
	switch {
	case lv.Failed > 0:
		lv.Pass, lv.Why = false, fmt.Sprintf("%d calls failed", lv.Failed)
	case lv.P99 > f.cfg.P99:
		lv.Pass, lv.Why = false, fmt.Sprintf("p99 %s ms > %s ms", ms(lv.P99), ms(f.cfg.P99))
		sure = lv.Calls >= int64(f.cfg.minCalls()) && f.slowSecs >= 3 && 2*f.slowSecs > f.secs
	case w.Due > 0 && float64(w.Started) < 0.95*float64(w.Due):
		lv.Pass = false
		if w.Limited > 0 {
			lv.Why = fmt.Sprintf("%.1f of %.1f cps achieved: the -l limit held calls back", lv.Achieved, lv.Target)
		} else {
			lv.Why = fmt.Sprintf("%.1f of %.1f cps achieved, not for want of -l: %s", lv.Achieved, lv.Target, f.lagWhy())
		}
	}
	f.levels = append(f.levels, lv)
	next := f.level
	if lv.Pass {
		l := lv
		f.best, f.lo = &l, f.level
		switch {
		case f.ramp.Max > 0 && f.level >= f.ramp.Max:
			f.done = "find-max: the rate maximum was reached"
		case f.hi == 0 && f.ramp.Step > 0:
			next = f.level + f.ramp.Step
		case f.hi == 0:
			next = f.level * 2
		default:
			next = (f.lo + f.hi) / 2
		}
		if f.ramp.Max > 0 && next > f.ramp.Max {
			next = f.ramp.Max
		}
	} else if !f.retried && !sure {
		// A level fails only when it fails twice (or p99 misses over
		// enough calls): on a shared machine one stall should not end
		// the search.
		f.retried = true
		f.levels[len(f.levels)-1].Why += "; trying it again"
	} else {
		l := lv
		f.failed, f.hi = &l, f.level
		if f.ramp.Step > 0 && f.best != nil {
			f.done = "find-max: a level failed"
		}
		next = (f.lo + f.hi) / 2
	}
	if next != f.level {
		f.retried = false
	}
	l := f.levels[len(f.levels)-1]
	again, left := "", ""
	if l.Retry {
		again = " (second try)"
	}
	if l.Stalled > 0 {
		left = fmt.Sprintf(" (%d s left out: the machine held the generator back)", l.Stalled)
	}
	fmt.Fprintf(f.e.log, "find-max: %.1f cps%s: achieved %.1f, %d calls%s, p99 %s ms, max %d concurrent calls, %.0f msg/s: %s\n",
		l.Target, again, l.Achieved, l.Calls, left, ms(l.P99), l.ActiveMax, l.MsgRate, passWord(l))
	if f.done == "" && f.hi > 0 && f.hi-f.lo <= max(0.05*f.lo, f.ramp.Rate/64) {
		f.done = "find-max: converged"
	}
	if f.done == "" && len(f.levels) >= maxFindLevels {
		f.done = "find-max: too many levels"
	}
	if f.done != "" {
		f.setRate(0)
		return f.done
	}
	f.level = next
	f.ticks, f.anchor = 0, nil
	if !lv.Pass {
		f.cooling, f.coolFrom = true, s.At
		f.setRate(0)
		return ""
	}
	f.setRate(next)
	return ""
}

func passWord(l FindMaxLevel) string {
	if l.Pass {
		return "pass"
	}
	return "fail (" + l.Why + ")"
}

func (r *reporter) findMaxResult() *FindMaxResult {
	if r.fm == nil {
		return nil
	}
	done := r.fm.done
	if done == "" {
		done = "find-max: stopped before the search ended (" + r.res.Stopped + ")"
	}
	return &FindMaxResult{Levels: r.fm.levels, Best: r.fm.best, Failed: r.fm.failed, Done: done, P99: r.fm.cfg.P99}
}

func (f *FindMaxResult) write(w io.Writer) {
	fmt.Fprintf(w, "%s\n", f.Done)
	fmt.Fprintf(w, "%-12s %5s %12s %8s %9s %10s %14s %10s  %s\n", "level cps", "try", "achieved", "calls", "stalled s", "p99 ms", "max concurrent", "msg/s", "result")
	for _, l := range f.Levels {
		try := 1
		if l.Retry {
			try = 2
		}
		fmt.Fprintf(w, "%-12.1f %5d %12.1f %8d %9d %10s %14d %10.0f  %s\n", l.Target, try, l.Achieved, l.Calls, l.Stalled, ms(l.P99), l.ActiveMax, l.MsgRate, passWord(l))
	}
	if f.Best == nil {
		fmt.Fprintf(w, "find-max: no level passed (p99 bound %s ms, no failed call)\n", ms(f.P99))
		return
	}
	fmt.Fprintf(w, "find-max: maximum sustained %.1f cps (target %.1f), %d concurrent calls at most, p99 %s ms, %.0f msg/s",
		f.Best.Achieved, f.Best.Target, f.Best.ActiveMax, ms(f.Best.P99), f.Best.MsgRate)
	if f.Failed != nil {
		fmt.Fprintf(w, "; %.1f cps failed: %s", f.Failed.Target, f.Failed.Why)
	}
	fmt.Fprintln(w)
}
