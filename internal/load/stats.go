package load

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"sync/atomic"
	"time"
)

// stats are the live counters of a run, updated from every call goroutine.
type stats struct {
	started, ok, aborted, skipped atomic.Int64
	failed                        [nCauses]atomic.Int64
	active, activeMax             atomic.Int64 // activeMax: since the last snapshot
	msgs, msgsFailed              atomic.Int64
	limited                       atomic.Int64 // times the scheduler waited on -l
	failovers                     atomic.Int64 // messages sent again to another target
	retransmits                   atomic.Int64 // wire mode: requests and replies sent again
	rt, callLen, lag              Hist
	types                         []Hist
}

func newStats(types int) *stats { return &stats{types: make([]Hist, types)} }

// unanswered counts message i of a wire-mode transaction as failed without
// an answer and has note report why; a stopped run (Aborted) counts
// nothing, as the message did not fail.
func (s *stats) unanswered(note func(i int, cause Cause, err error), i int, cause Cause, err error) Cause {
	if cause == Aborted {
		return cause
	}
	s.msgs.Add(1)
	s.msgsFailed.Add(1)
	note(i, cause, err)
	return cause
}

func (s *stats) callStarted() {
	s.started.Add(1)
	a := s.active.Add(1)
	for {
		m := s.activeMax.Load()
		if a <= m || s.activeMax.CompareAndSwap(m, a) {
			return
		}
	}
}

// Snapshot is the state of a run at one moment, or (from Sub) what
// happened between two moments.
type Snapshot struct {
	At      time.Duration // since the start
	Target  float64       // target calls per second at At
	Due     int64         // calls due by At
	Started int64
	OK      int64
	Failed  [nCauses]int64 // by cause (Timeout..Transport)
	Aborted int64
	Skipped int64
	Msgs    int64 // messages answered or failed
	// MsgsFailed counts the messages that failed (a failed call has one).
	MsgsFailed int64
	Limited    int64
	// Failovers counts messages sent again to the next target after a
	// transport failure (an instance stopped or unreachable).
	Failovers int64
	// Retransmits counts requests retransmitted (Annex D.1) and replies
	// sent again to a retransmitted request (wire mode).
	Retransmits int64
	Active      int64 // calls in progress at At
	ActiveMax   int64 // most calls in progress since the previous snapshot
	RT          *HistSnap
	CallLen     *HistSnap
	Lag         *HistSnap
	Types       []*HistSnap
}

func (s *stats) snapshot(at time.Duration, target float64, due int64) *Snapshot {
	a := s.active.Load()
	sn := &Snapshot{
		At: at, Target: target, Due: due,
		Started: s.started.Load(), OK: s.ok.Load(), Aborted: s.aborted.Load(), Skipped: s.skipped.Load(),
		Msgs: s.msgs.Load(), MsgsFailed: s.msgsFailed.Load(), Limited: s.limited.Load(),
		Failovers: s.failovers.Load(), Retransmits: s.retransmits.Load(),
		Active: a, ActiveMax: max(s.activeMax.Swap(a), a),
		RT: s.rt.Snapshot(), CallLen: s.callLen.Snapshot(), Lag: s.lag.Snapshot(),
	}
	for i := range s.failed {
		sn.Failed[i] = s.failed[i].Load()
	}
	for i := range s.types {
		sn.Types = append(sn.Types, s.types[i].Snapshot())
	}
	return sn
}

// FailedCalls is the number of failed calls.
func (s *Snapshot) FailedCalls() int64 {
	var n int64
	for _, c := range FailureCauses {
		n += s.Failed[c]
	}
	return n
}

// Sub is what happened between prev and s. ActiveMax is s's (the caller
// combines the maxima of the snapshots in between).
func (s *Snapshot) Sub(prev *Snapshot) *Snapshot {
	if prev == nil {
		return s
	}
	d := *s
	d.Due -= prev.Due
	d.Started -= prev.Started
	d.OK -= prev.OK
	d.Aborted -= prev.Aborted
	d.Skipped -= prev.Skipped
	d.Msgs -= prev.Msgs
	d.MsgsFailed -= prev.MsgsFailed
	d.Limited -= prev.Limited
	d.Failovers -= prev.Failovers
	d.Retransmits -= prev.Retransmits
	for i := range d.Failed {
		d.Failed[i] -= prev.Failed[i]
	}
	d.RT = s.RT.Sub(prev.RT)
	d.CallLen = s.CallLen.Sub(prev.CallLen)
	d.Lag = s.Lag.Sub(prev.Lag)
	d.Types = make([]*HistSnap, len(s.Types))
	for i := range s.Types {
		d.Types[i] = s.Types[i].Sub(prev.Types[i])
	}
	return &d
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/1e6, 'f', 3, 64)
}

func rate(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// liveLine is the line printed every second: p is the last second, c the
// whole run so far.
func liveLine(p, c *Snapshot, interval time.Duration) string {
	return fmt.Sprintf("%7.1fs  target %.1f cps  achieved %.1f cps  calls %d active  ok %d  failed %d  %.0f msg/s  p50 %s ms  p99 %s ms",
		c.At.Seconds(), c.Target, rate(p.Started, interval), c.Active, c.OK, c.FailedCalls(),
		rate(p.Msgs, interval), ms(p.RT.Quantile(0.50)), ms(p.RT.Quantile(0.99)))
}

// statWriter writes the periodic CSV (--stat-file), in the spirit of
// SIPp's -trace_stat: one row per period, P columns for the period and C
// columns cumulative.
type statWriter struct {
	w     *csv.Writer
	types []string
	start time.Time
}

var statQuantiles = []struct {
	name string
	q    float64
}{{"p50", 0.50}, {"p90", 0.90}, {"p99", 0.99}, {"p999", 0.999}}

func newStatWriter(w io.Writer, types []string, start time.Time) (*statWriter, error) {
	sw := &statWriter{w: csv.NewWriter(w), types: types, start: start}
	h := []string{"time", "elapsed_s", "period_s", "target_cps", "call_rate_p", "call_rate_c", "current_calls", "max_calls_p",
		"calls_due_p", "calls_due_c", "calls_started_p", "calls_started_c", "successful_p", "successful_c", "failed_p", "failed_c"}
	for _, c := range FailureCauses {
		h = append(h, "failed_"+c.String()+"_p", "failed_"+c.String()+"_c")
	}
	h = append(h, "aborted_c", "skipped_c", "messages_p", "messages_c", "msg_rate_p")
	for _, pc := range []string{"p", "c"} {
		for _, q := range statQuantiles {
			h = append(h, "rt_"+q.name+"_ms_"+pc)
		}
		h = append(h, "rt_max_ms_"+pc)
	}
	for _, pc := range []string{"p", "c"} {
		h = append(h, "call_p50_ms_"+pc, "call_p99_ms_"+pc)
	}
	h = append(h, "sched_lag_p99_ms_p")
	for _, t := range types {
		for _, pc := range []string{"p", "c"} {
			h = append(h, "rt_"+t+"_p50_ms_"+pc, "rt_"+t+"_p99_ms_"+pc)
		}
	}
	if err := sw.w.Write(h); err != nil {
		return nil, err
	}
	sw.w.Flush()
	return sw, sw.w.Error()
}

func (sw *statWriter) row(p, c *Snapshot, period time.Duration) error {
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
	r := []string{sw.start.Add(c.At).UTC().Format(time.RFC3339Nano), f(c.At.Seconds()), f(period.Seconds()), f(c.Target),
		f(rate(p.Started, period)), f(rate(c.Started, c.At)), i(c.Active), i(p.ActiveMax),
		i(p.Due), i(c.Due), i(p.Started), i(c.Started), i(p.OK), i(c.OK), i(p.FailedCalls()), i(c.FailedCalls())}
	for _, cause := range FailureCauses {
		r = append(r, i(p.Failed[cause]), i(c.Failed[cause]))
	}
	r = append(r, i(c.Aborted), i(c.Skipped), i(p.Msgs), i(c.Msgs), f(rate(p.Msgs, period)))
	for _, s := range []*Snapshot{p, c} {
		for _, q := range statQuantiles {
			r = append(r, ms(s.RT.Quantile(q.q)))
		}
		r = append(r, ms(time.Duration(s.RT.Max)))
	}
	for _, s := range []*Snapshot{p, c} {
		r = append(r, ms(s.CallLen.Quantile(0.5)), ms(s.CallLen.Quantile(0.99)))
	}
	r = append(r, ms(p.Lag.Quantile(0.99)))
	for k := range sw.types {
		for _, s := range []*Snapshot{p, c} {
			r = append(r, ms(s.Types[k].Quantile(0.5)), ms(s.Types[k].Quantile(0.99)))
		}
	}
	if err := sw.w.Write(r); err != nil {
		return err
	}
	sw.w.Flush()
	return sw.w.Error()
}

// callEnded counts a call that ended with cause, and its length if it
// succeeded.
func (s *stats) callEnded(cause Cause, length time.Duration) {
	switch cause {
	case OK:
		s.ok.Add(1)
		s.callLen.Record(length)
	case Aborted:
		s.aborted.Add(1)
	default:
		s.failed[cause].Add(1)
	}
}
