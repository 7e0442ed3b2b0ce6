package load

import (
	"bytes"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestLagVerdict: the lag is the generator's only when it measurably
// lacked CPU; on a busy machine where it used little of its cores, the
// machine's other load is named instead, and with neither the generator
// is cleared.
func TestLagVerdict(t *testing.T) {
	for _, c := range []struct {
		name string
		m    cpuMeasure
		want lagCause
		says string
	}{
		{"saturated", cpuMeasure{Cores: 1.9, CPUKnown: true, Procs: 2, SchedP99: 40 * time.Millisecond}, lagGenerator, "used 1.90 of its 2 cores"},
		{"saturated, no wait measured", cpuMeasure{Cores: 0.95, CPUKnown: true, Procs: 1, SchedP99: -1}, lagGenerator, "the generator's CPU is the bottleneck"},
		{"busy machine", cpuMeasure{Cores: 0.17, CPUKnown: true, Procs: 2, SchedP99: 30 * time.Millisecond}, lagOtherLoad, "used 0.17 of its 2 cores, its goroutines waited p99 30.0"},
		{"idle generator", cpuMeasure{Cores: 0.17, CPUKnown: true, Procs: 2, SchedP99: time.Millisecond}, lagNotCPU, "was not short of CPU"},
		{"no CPU time, waits", cpuMeasure{Procs: 2, SchedP99: 30 * time.Millisecond}, lagGenerator, "cannot be read"},
		{"nothing measured", cpuMeasure{Procs: 2, SchedP99: -1}, lagNotCPU, "not measured"},
	} {
		got, says := c.m.verdict()
		if got != c.want || !strings.Contains(says, c.says) {
			t.Errorf("%s: %v %q, want %v saying %q", c.name, got, says, c.want, c.says)
		}
	}
}

// TestReporterBehind: a second behind the rate is a warning (counted in
// the summary) only when the generator lacked CPU; else a note that says
// what was measured, at most every 10 s.
func TestReporterBehind(t *testing.T) {
	var log bytes.Buffer
	r := &reporter{e: &engine{log: &log}, lastLagN: -time.Hour}
	lag := &HistSnap{}
	p := &Snapshot{Started: 50, Due: 100, Lag: lag}
	busy := cpuMeasure{Cores: 0.17, CPUKnown: true, Procs: 2, SchedP99: 30 * time.Millisecond}
	for i := range 3 {
		r.behind(&Snapshot{At: time.Duration(i) * time.Second, Target: 100}, p, time.Second, busy)
	}
	if r.warnings != 0 || r.otherLoad != 3 || strings.Count(log.String(), "note:") != 1 || strings.Contains(log.String(), "warning") {
		t.Errorf("busy machine: %d warnings, %d other-load seconds:\n%s", r.warnings, r.otherLoad, log.String())
	}
	log.Reset()
	full := cpuMeasure{Cores: 2, CPUKnown: true, Procs: 2, SchedP99: 30 * time.Millisecond}
	r.behind(&Snapshot{At: 4 * time.Second, Target: 100}, p, time.Second, full)
	if r.warnings != 1 || !strings.Contains(log.String(), "warning: the generator cannot keep 100.0 cps itself") || !strings.Contains(log.String(), "used 2.00 of its 2 cores") {
		t.Errorf("saturated generator: %d warnings:\n%s", r.warnings, log.String())
	}
	res := &Result{Final: &Snapshot{RT: lag, CallLen: lag, Lag: lag}, Flow: &Flow{}, Warnings: r.warnings, OtherLoad: r.otherLoad}
	var sum bytes.Buffer
	res.WriteSummary(&sum)
	if !strings.Contains(sum.String(), "in 1 second(s) the generator lacked the CPU") || !strings.Contains(sum.String(), "in 3 second(s) behind the rate the generator had cores to spare") {
		t.Errorf("summary:\n%s", sum.String())
	}
}

// TestCPUWatchMeasures: the watch measures this process: CPU time while
// it spins, and the scheduling latencies of the goroutines it starts.
func TestCPUWatchMeasures(t *testing.T) {
	w := newCPUWatch()
	end := time.Now().Add(200 * time.Millisecond)
	x := 1.0
	for time.Now().Before(end) {
		x = math.Sqrt(x + 1)
	}
	done := make(chan struct{})
	for range 100 {
		go func() { done <- struct{}{} }()
	}
	for range 100 {
		<-done
	}
	m := w.measure()
	if m.Procs != runtime.GOMAXPROCS(0) {
		t.Errorf("procs %d", m.Procs)
	}
	if processCPU() > 0 && (!m.CPUKnown || m.Cores <= 0) {
		t.Errorf("spinning measured %v cores (%v)", m.Cores, x)
	}
	if m.SchedP99 < 0 {
		t.Errorf("100 goroutines ran, no scheduling latency measured")
	}
}

func TestHistQuantile(t *testing.T) {
	bounds := []float64{0, 0.001, 0.01, math.Inf(1)}
	prev := []uint64{5, 5, 5}
	if got := histQuantile(bounds, []uint64{5 + 98, 5 + 1, 5 + 1}, prev, 0.99); got != 10*time.Millisecond {
		t.Errorf("p99 = %v, want the 10 ms bucket's bound", got)
	}
	if got := histQuantile(bounds, []uint64{5, 5, 6}, prev, 0.99); got != 10*time.Millisecond {
		t.Errorf("unbounded bucket: %v, want its lower bound", got)
	}
	if got := histQuantile(bounds, prev, prev, 0.99); got != -1 {
		t.Errorf("nothing counted: %v", got)
	}
}

// TestFindMaxLagWhy: a find-max level that missed its rate says whom the
// seconds behind it were put down to, within its window only.
func TestFindMaxLagWhy(t *testing.T) {
	f := &findMax{}
	f.lag = [3]int{lagGenerator: 2, lagOtherLoad: 1}
	f.lagFrom = f.lag
	if got := f.lagWhy(); !strings.Contains(got, "not short of CPU") {
		t.Errorf("nothing in the window: %q", got)
	}
	f.lag[lagOtherLoad] += 3
	if got := f.lagWhy(); !strings.Contains(got, "other load held the generator back in 3 s") {
		t.Errorf("other load: %q", got)
	}
	f.lag[lagGenerator]++
	if got := f.lagWhy(); !strings.Contains(got, "the generator lacked CPU in 1 s") {
		t.Errorf("generator: %q", got)
	}
}
