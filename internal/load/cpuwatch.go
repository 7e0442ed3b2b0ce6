package load

import (
	"fmt"
	"math"
	"runtime"
	"runtime/metrics"
	"time"
)

// schedLatencies is the Go runtime's histogram of how long goroutines
// were runnable before they ran: the generator's own wait for a CPU.
const schedLatencies = "/sched/latencies:seconds"

// cpuSample is the generator's cumulative CPU measures at one instant.
type cpuSample struct {
	at    time.Time
	cpu   time.Duration // process CPU time (0: cannot be read here)
	sched []uint64      // schedLatencies counts
}

// cpuWatch takes a sample each second and tells, for a second in which
// the calls fell behind, whether the generator was short of CPU.
type cpuWatch struct {
	buckets []float64 // schedLatencies bucket bounds, seconds
	prev    cpuSample
	sample  []metrics.Sample
}

func newCPUWatch() *cpuWatch {
	w := &cpuWatch{sample: []metrics.Sample{{Name: schedLatencies}}}
	w.prev = w.take()
	return w
}

func (w *cpuWatch) take() cpuSample {
	s := cpuSample{at: time.Now(), cpu: processCPU()}
	metrics.Read(w.sample)
	if v := w.sample[0].Value; v.Kind() == metrics.KindFloat64Histogram {
		h := v.Float64Histogram()
		w.buckets = h.Buckets
		s.sched = append([]uint64(nil), h.Counts...)
	}
	return s
}

// measure is what the generator measured since the previous call.
func (w *cpuWatch) measure() cpuMeasure {
	cur := w.take()
	prev := w.prev
	w.prev = cur
	m := cpuMeasure{Procs: runtime.GOMAXPROCS(0), SchedP99: -1}
	if wall := cur.at.Sub(prev.at); cur.cpu > 0 && prev.cpu > 0 && wall > 0 {
		m.Cores, m.CPUKnown = (cur.cpu-prev.cpu).Seconds()/wall.Seconds(), true
	}
	if len(cur.sched) == len(prev.sched) && len(w.buckets) == len(cur.sched)+1 {
		m.SchedP99 = histQuantile(w.buckets, cur.sched, prev.sched, 0.99)
	}
	return m
}

// histQuantile is quantile q of the counts added between prev and cur, as
// the upper bound of its bucket (the lower one for the last, unbounded
// bucket); -1 when nothing was counted.
func histQuantile(bounds []float64, cur, prev []uint64, q float64) time.Duration {
	var total uint64
	for i := range cur {
		total += cur[i] - prev[i]
	}
	if total == 0 {
		return -1
	}
	rank := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i := range cur {
		if seen += cur[i] - prev[i]; seen >= rank {
			b := bounds[i+1]
			if math.IsInf(b, 1) {
				b = bounds[i]
			}
			return time.Duration(b * float64(time.Second))
		}
	}
	return -1
}

// cpuMeasure is one interval's measures of the generator's CPU.
type cpuMeasure struct {
	Cores    float64       // CPU time used / wall time
	CPUKnown bool          // Cores could be measured
	Procs    int           // cores the generator may use (GOMAXPROCS follows a cgroup quota)
	SchedP99 time.Duration // goroutines' wait to run, p99; -1: not measured
}

// Thresholds of the verdict: the generator is saturated when it uses this
// share of its cores, and its goroutines are held back when the p99 of
// their wait to run exceeds schedWaitBound (a timer tick's order: the
// sender's lag bound is 20 ms).
const (
	saturated      = 0.85
	schedWaitBound = 5 * time.Millisecond
)

// lagCause is whom a second behind the rate is put down to.
type lagCause int

const (
	lagGenerator lagCause = iota // it used the cores it has
	lagOtherLoad                 // it had cores to spare, yet waited for a CPU
	lagNotCPU                    // it neither lacked nor waited for CPU
)

// verdict puts the lag down to the generator only when it measurably
// lacked CPU, and says what was measured.
func (m cpuMeasure) verdict() (lagCause, string) {
	used := "its CPU time cannot be read here"
	if m.CPUKnown {
		used = fmt.Sprintf("it used %.2f of its %d cores", m.Cores, m.Procs)
	}
	wait := "its goroutines' wait to run was not measured"
	if m.SchedP99 >= 0 {
		wait = fmt.Sprintf("its goroutines waited p99 %s ms to run", ms(m.SchedP99))
	}
	held := m.SchedP99 > schedWaitBound
	switch {
	case m.CPUKnown && m.Cores >= saturated*float64(m.Procs):
		return lagGenerator, fmt.Sprintf("%s, %s: the generator's CPU is the bottleneck", used, wait)
	case held && m.CPUKnown:
		return lagOtherLoad, fmt.Sprintf("%s, %s: the machine's other processes (the service or proxy, if on this machine) take the CPU it could use", used, wait)
	case held:
		return lagGenerator, fmt.Sprintf("%s, %s: the generator is short of CPU", used, wait)
	}
	return lagNotCPU, fmt.Sprintf("%s, %s: the generator was not short of CPU", used, wait)
}
