package load

import (
	"bytes"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"megaco/internal/model"
)

func TestRampRateAt(t *testing.T) {
	r := Ramp{Rate: 10, Period: time.Second, Step: 5, Max: 22, Interval: 2 * time.Second}
	for _, c := range []struct {
		at   time.Duration
		want float64
	}{{0, 10}, {1999 * time.Millisecond, 10}, {2 * time.Second, 15}, {4 * time.Second, 20}, {6 * time.Second, 22}, {time.Hour, 22}} {
		if got := r.RateAt(c.at); got != c.want {
			t.Errorf("RateAt(%v) = %v, want %v", c.at, got, c.want)
		}
	}
	if got := (Ramp{Rate: 7, Period: 2 * time.Second}).PerSecond(7); got != 3.5 {
		t.Errorf("-r 7 -rp 2000: %v cps, want 3.5", got)
	}
	down := Ramp{Rate: 10, Period: time.Second, Step: -4, Max: 3, Interval: time.Second}
	if got := down.RateAt(5 * time.Second); got != 3 {
		t.Errorf("a falling ramp stops at its bound: %v", got)
	}
}

func TestPacer(t *testing.T) {
	p := newPacer(time.Second, 50)
	// Calls are due at 0, 20 ms, 40 ms...: 250 in [0, 5 s).
	if got := p.Due(0); got != 1 {
		t.Errorf("Due(0) = %d", got)
	}
	if got := p.Due(5*time.Second - time.Nanosecond); got != 250 {
		t.Errorf("Due(5s-) = %d, want 250", got)
	}
	if got := p.When(250); got != 5*time.Second {
		t.Errorf("When(250) = %v", got)
	}
	// A rate change keeps the calls already due and goes on from there.
	p.SetRate(time.Second, 100) // 50 due in the first second
	if got := p.Due(2*time.Second - time.Nanosecond); got != 150 {
		t.Errorf("after 1 s at 50 and 1 s at 100: %d due, want 150", got)
	}
	if got := p.When(150); got != 2*time.Second {
		t.Errorf("When(150) = %v", got)
	}
	// -r 7 -rp 2000: 3.5 per second.
	p = newPacer(2*time.Second, 7)
	if got := p.Due(10*time.Second - time.Nanosecond); got != 35 {
		t.Errorf("-r 7 -rp 2000 over 10 s: %d, want 35", got)
	}
	p.SetRate(10*time.Second, 0)
	if got := p.Due(time.Hour); got != 36 {
		t.Errorf("rate 0 makes no more calls due: %d", got)
	}
	if got := p.When(40); got < time.Hour {
		t.Errorf("rate 0: When = %v", got)
	}
}

func TestHistQuantiles(t *testing.T) {
	var h Hist
	rng := rand.New(rand.NewPCG(1, 2))
	var vals []int64
	for range 100000 {
		// log-uniform from 1 µs to 1 s
		v := int64(math.Exp(rng.Float64()*math.Log(1e6)) * 1e3)
		vals = append(vals, v)
		h.Record(time.Duration(v))
	}
	slices.Sort(vals)
	s := h.Snapshot()
	if s.Count != uint64(len(vals)) {
		t.Fatalf("count %d", s.Count)
	}
	for _, q := range []float64{0.01, 0.5, 0.9, 0.99, 0.999} {
		exact := float64(vals[int(math.Ceil(q*float64(len(vals))))-1])
		got := float64(s.Quantile(q))
		if math.Abs(got-exact)/exact > 1.0/64 {
			t.Errorf("q%v: %v, exact %v (error %.2f %%)", q, got, exact, 100*math.Abs(got-exact)/exact)
		}
	}
	if s.Max != vals[len(vals)-1] || s.Quantile(1) != time.Duration(s.Max) {
		t.Errorf("max %d, want %d", s.Max, vals[len(vals)-1])
	}
	// Every bucket's range holds exactly the values that index it.
	for _, v := range []int64{0, 1, 127, 128, 129, 255, 256, 1000, 1 << 20, 1<<40 - 1} {
		lo, hi := histRange(histIndex(v))
		if v < lo || v > hi {
			t.Errorf("%d in bucket %d [%d, %d]", v, histIndex(v), lo, hi)
		}
	}
	if histIndex(1<<50) != histBuckets-1 {
		t.Error("huge values go to the last bucket")
	}
	// A period is the difference of two snapshots.
	h.Record(5 * time.Second)
	d := h.Snapshot().Sub(s)
	if d.Count != 1 || d.Quantile(0.5) < 4900*time.Millisecond || d.Quantile(0.5) > 5*time.Second {
		t.Errorf("period: count %d, p50 %v", d.Count, d.Quantile(0.5))
	}
	if (&HistSnap{}).Quantile(0.5) != 0 {
		t.Error("empty histogram")
	}
}

func TestStatCSV(t *testing.T) {
	types := []string{"Notify", "NotifyReply"}
	st := newStats(len(types))
	var buf bytes.Buffer
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sw, err := newStatWriter(&buf, types, start)
	if err != nil {
		t.Fatal(err)
	}
	zero := st.snapshot(0, 10, 0)
	for range 10 {
		st.callStarted()
	}
	st.ok.Add(7)
	st.failed[Timeout].Add(2)
	st.failed[Mismatch].Add(1)
	st.active.Store(0)
	st.msgs.Add(100)
	for i := range 100 {
		st.rt.Record(time.Duration(i+1) * time.Millisecond)
		st.types[i%2].Record(time.Duration(i+1) * time.Millisecond)
	}
	s1 := st.snapshot(2*time.Second, 10, 20)
	if err := sw.row(s1.Sub(zero), s1, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	st.ok.Add(5)
	st.started.Add(5)
	st.failed[Rejected].Add(1)
	s2 := st.snapshot(4*time.Second, 10, 40)
	if err := sw.row(s2.Sub(s1), s2, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Fatalf("%d records, want a header and 2 rows", len(recs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, h := range []string{"time", "target_cps", "call_rate_p", "call_rate_c", "current_calls", "successful_p", "successful_c",
		"failed_timeout_p", "failed_rejected_c", "failed_mismatch_c", "failed_transport_c", "rt_p99_ms_p", "rt_p99_ms_c",
		"rt_Notify_p50_ms_c", "rt_NotifyReply_p99_ms_p"} {
		if _, ok := col[h]; !ok {
			t.Errorf("no column %s", h)
		}
	}
	get := func(row int, name string) string { return recs[row][col[name]] }
	for row, want := range map[int]map[string]string{
		1: {"time": "2026-01-02T03:04:07Z", "call_rate_p": "5.00", "successful_p": "7", "successful_c": "7", "failed_p": "3",
			"failed_timeout_p": "2", "failed_mismatch_c": "1", "failed_rejected_c": "0", "calls_due_p": "20", "max_calls_p": "10"},
		2: {"successful_p": "5", "successful_c": "12", "failed_p": "1", "failed_c": "4", "failed_rejected_p": "1",
			"failed_timeout_p": "0", "failed_timeout_c": "2", "call_rate_c": "3.75", "messages_p": "0", "messages_c": "100"},
	} {
		for k, v := range want {
			if got := get(row, k); got != v {
				t.Errorf("row %d %s = %s, want %s", row, k, got, v)
			}
		}
	}
	// p99 of 1..100 ms is 99 ms within the histogram's 1.6 %.
	p99 := get(1, "rt_p99_ms_p")
	if !strings.HasPrefix(p99, "98.") && !strings.HasPrefix(p99, "99.") && !strings.HasPrefix(p99, "100.") {
		t.Errorf("rt_p99_ms_p = %s", p99)
	}
	if get(2, "rt_p99_ms_p") != "0.000" || get(2, "rt_p99_ms_c") != p99 {
		t.Errorf("second period has no messages: p99 %s / cumulative %s", get(2, "rt_p99_ms_p"), get(2, "rt_p99_ms_c"))
	}
}

// TestFindMaxSearch drives the search with made-up seconds: the service
// holds p99 under the bound up to 300 cps. A level's first try may meet a
// stall of the machine (one slow second, or a failed call); it fails only
// if its second try fails too, or if p99 misses over at least MinCalls
// calls.
func TestFindMaxSearch(t *testing.T) {
	type try struct {
		level float64
		retry bool
	}
	for _, c := range []struct {
		name  string
		stall func(r float64, tries int) (lat time.Duration, failed int64) // the first second of a try
		lag   float64                                                      // the level whose first second the machine holds back
		piled bool                                                         // with more than a second's calls in progress
		want  []try
	}{
		{"steady", func(float64, int) (time.Duration, int64) { return 0, 0 }, 0, false,
			// 312.5 cps over 4 s is 1,250 calls, slow in every second: its
			// p99 is a verdict.
			[]try{{50, false}, {100, false}, {200, false}, {400, false}, {300, false}, {350, false}, {325, false}, {312.5, false}}},
		{"stalls", func(r float64, tries int) (time.Duration, int64) {
			switch {
			case r == 100 && tries == 0: // one stall: tried again, passes
				return 200 * time.Millisecond, 0
			case r == 200 && tries == 0: // a call lost in a stall: the same
				return 0, 1
			case r == 300 && tries < 2: // stalls twice: fails
				return 200 * time.Millisecond, 0
			}
			return 0, 0
		}, 0, false, []try{{50, false}, {100, false}, {100, true}, {200, false}, {200, true}, {400, false}, {300, false}, {300, true},
			{250, false}, {275, false}, {287.5, false}}},
		// A slow second in which the generator's calls started late too is
		// the machine's: left out, with no second try.
		{"machine stall", func(r float64, tries int) (time.Duration, int64) {
			if r == 200 {
				return 200 * time.Millisecond, 0
			}
			return 0, 0
		}, 200, false, []try{{50, false}, {100, false}, {200, false}, {400, false}, {300, false}, {350, false}, {325, false}, {312.5, false}}},
		// The same with calls piling up: the service is behind, its
		// late generator is its own doing, and the second counts.
		{"piled up", func(r float64, tries int) (time.Duration, int64) {
			if r == 200 {
				return 200 * time.Millisecond, 0
			}
			return 0, 0
		}, 200, true, []try{{50, false}, {100, false}, {200, false}, {200, true}, {400, false}, {300, false}, {350, false}, {325, false}, {312.5, false}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &engine{log: &bytes.Buffer{}}
			ramp := Ramp{Rate: 50, Period: time.Second}
			f := &findMax{cfg: FindMax{P99: 10 * time.Millisecond, Interval: 5 * time.Second}, ramp: ramp, level: 50, e: e}
			e.fmRate.Store(math.Float64bits(50))
			var at time.Duration
			cum := &Snapshot{RT: &HistSnap{}, CallLen: &HistSnap{}, Lag: &HistSnap{}}
			tries := map[float64]int{}
			var got []try
			for i := 0; i < 300 && f.done == ""; i++ {
				at += time.Second
				r := math.Float64frombits(e.fmRate.Load())
				s := *cum
				s.At = at
				s.RT = &HistSnap{}
				s.RT.Add(cum.RT)
				n := int64(r)
				s.Due += n
				s.Started += n
				s.OK += n
				s.Msgs += 28 * n
				lat := time.Millisecond
				switch {
				case r > 350:
					lat = 30 * time.Millisecond
				case r > 300:
					lat = 15 * time.Millisecond
				}
				if f.ticks == 1 && r > 0 { // the try's first measured second
					if l, failed := c.stall(r, tries[r]); l > 0 {
						lat = l
					} else if failed > 0 {
						s.OK -= failed
						s.Failed[Timeout] += failed
					}
				}
				s.RT.Counts[histIndex(int64(lat))] += uint64(28 * n)
				s.RT.Count += uint64(28 * n)
				s.Lag = &HistSnap{}
				s.Lag.Add(cum.Lag)
				lag := time.Millisecond
				s.ActiveMax = 0
				if f.ticks == 1 && r == c.lag && r > 0 {
					lag = 100 * time.Millisecond
					if c.piled && tries[r] == 0 {
						s.ActiveMax = 2 * n
					}
				}
				s.Lag.Counts[histIndex(int64(lag))] += uint64(n)
				s.Lag.Count += uint64(n)
				s.Active = 0
				cum = &s
				before := len(f.levels)
				f.tick(cum)
				if len(f.levels) > before {
					l := f.levels[len(f.levels)-1]
					got = append(got, try{l.Target, l.Retry})
					tries[l.Target]++
				}
			}
			if f.done != "find-max: converged" {
				t.Fatalf("done = %q after levels %v", f.done, got)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("levels %v, want %v", got, c.want)
			}
			for _, l := range f.levels {
				if want := 0; l.Target == c.lag && c.piled {
					if want = 1; !l.Retry {
						want = 0 // piled up on the first try: counted
					}
					if l.Stalled != want {
						t.Errorf("level %.1f (second try %v): %d s left out, want %d", l.Target, l.Retry, l.Stalled, want)
					}
				} else if l.Target == c.lag {
					want = 1
					if l.Stalled != want || l.Calls != 4*int64(l.Target) {
						t.Errorf("level %.1f: %d s left out, %d calls measured; want 1 and 4 s of calls", l.Target, l.Stalled, l.Calls)
					}
				} else if l.Stalled != want {
					t.Errorf("level %.1f: %d s left out", l.Target, l.Stalled)
				}
			}
			if got := math.Float64frombits(e.fmRate.Load()); got != 0 {
				t.Errorf("the rate after the search: %v", got)
			}
		})
	}
}

// TestLiveLine: the line printed every second has the target and the
// achieved rate of the last second, and the run's counts.
func TestLiveLine(t *testing.T) {
	var rt Hist
	rt.Record(2 * time.Millisecond)
	run := &Snapshot{At: 3 * time.Second, Target: 40, Active: 2, OK: 100, RT: rt.Snapshot()}
	run.Failed[Timeout] = 1
	last := &Snapshot{Started: 40, Msgs: 1120, RT: rt.Snapshot()}
	got := liveLine(last, run, time.Second)
	for _, want := range []string{"3.0s", "target 40.0 cps", "achieved 40.0 cps", "calls 2 active", "ok 100", "failed 1", "1120 msg/s", "p50 2.0", "p99 2.0"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
}

// TestCommandNames: a command's request and reply kinds have the same
// number (commandName relies on it): their ASN.1 names differ only in
// the ending.
func TestCommandNames(t *testing.T) {
	for k := model.CommandKind(1); k <= model.Command_ServiceChangeReq; k++ {
		req := strings.TrimSuffix(strings.TrimSuffix(k.String(), "Request"), "Req")
		reply := strings.TrimSuffix(model.CommandReplyKind(k).String(), "Reply")
		if req != reply || commandName(k) != commandName(model.CommandReplyKind(k)) {
			t.Errorf("kind %d: request %s, reply %s", k, k, model.CommandReplyKind(k))
		}
	}
	if got := commandName(model.CommandKind(9)); got != "Command9" {
		t.Errorf("kind 9: %s", got)
	}
}
