package load

import (
	"math"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Registerer is where the generator's metrics go.
type Registerer = prometheus.Registerer

// The generator's own metrics, read from its counters and histograms at
// scrape time (nothing is added to the per-message path).
var (
	mCalls = prometheus.NewDesc("megaco_load_calls_total",
		"Calls that ended, by result: ok, timeout, rejected, mismatch, transport, lost, late (the failure causes) or aborted.", []string{"result"}, nil)
	mStarted = prometheus.NewDesc("megaco_load_calls_started_total", "Calls started.", nil, nil)
	mSkipped = prometheus.NewDesc("megaco_load_calls_skipped_total",
		"Calls due that were not started: more than a second of calls waited (on -l or on the generator).", nil, nil)
	mFailovers = prometheus.NewDesc("megaco_load_failovers_total",
		"Messages sent again to the next target after a transport failure (an instance stopped or unreachable).", nil, nil)
	mRetransmits = prometheus.NewDesc("megaco_load_retransmissions_total",
		"Wire mode: requests retransmitted (RFC 3525 D.1.3) and replies sent again to a retransmitted request.", nil, nil)
	mActive  = prometheus.NewDesc("megaco_load_calls_active", "Calls in progress.", nil, nil)
	mLimit   = prometheus.NewDesc("megaco_load_calls_limit", "The limit on calls in progress (-l).", nil, nil)
	mTarget  = prometheus.NewDesc("megaco_load_target_calls_per_second", "The target call rate.", nil, nil)
	mMsgs    = prometheus.NewDesc("megaco_load_messages_total", "Messages sent to the service, by outcome (ok, failed).", []string{"outcome"}, nil)
	mLatency = prometheus.NewDesc("megaco_load_message_duration_seconds",
		"Response time of one transcoding, by message type (answered messages).", []string{"type"}, nil)
	mCallLen = prometheus.NewDesc("megaco_load_call_duration_seconds", "Length of a successful call, without the hold time (-d).", nil, nil)
	mLag     = prometheus.NewDesc("megaco_load_schedule_lag_seconds", "How late calls were started against the rate: the generator's own delay.", nil, nil)
)

// metricBuckets: 50 µs to about 1.6 s, doubling, as the service's own.
var metricBuckets = prometheus.ExponentialBuckets(50e-6, 2, 16)

type collector struct{ e *engine }

func (e *engine) registerMetrics(r Registerer) error { return r.Register(collector{e}) }

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{mCalls, mStarted, mSkipped, mFailovers, mRetransmits, mActive, mLimit, mTarget, mMsgs, mLatency, mCallLen, mLag} {
		ch <- d
	}
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	e := c.e
	st := e.st
	ch <- prometheus.MustNewConstMetric(mCalls, prometheus.CounterValue, float64(st.ok.Load()), "ok")
	for _, cause := range FailureCauses {
		ch <- prometheus.MustNewConstMetric(mCalls, prometheus.CounterValue, float64(st.failed[cause].Load()), cause.String())
	}
	ch <- prometheus.MustNewConstMetric(mCalls, prometheus.CounterValue, float64(st.aborted.Load()), "aborted")
	ch <- prometheus.MustNewConstMetric(mStarted, prometheus.CounterValue, float64(st.started.Load()))
	ch <- prometheus.MustNewConstMetric(mSkipped, prometheus.CounterValue, float64(st.skipped.Load()))
	ch <- prometheus.MustNewConstMetric(mFailovers, prometheus.CounterValue, float64(st.failovers.Load()))
	ch <- prometheus.MustNewConstMetric(mRetransmits, prometheus.CounterValue, float64(st.retransmits.Load()))
	ch <- prometheus.MustNewConstMetric(mActive, prometheus.GaugeValue, float64(st.active.Load()))
	ch <- prometheus.MustNewConstMetric(mLimit, prometheus.GaugeValue, float64(e.cfg.Limit))
	el := time.Since(e.start)
	ch <- prometheus.MustNewConstMetric(mTarget, prometheus.GaugeValue, e.cfg.Ramp.PerSecond(e.targetRate(el)))
	failed := st.msgsFailed.Load()
	ch <- prometheus.MustNewConstMetric(mMsgs, prometheus.CounterValue, float64(st.msgs.Load()-failed), "ok")
	ch <- prometheus.MustNewConstMetric(mMsgs, prometheus.CounterValue, float64(failed), "failed")
	for i, t := range e.flow.Types {
		ch <- promHist(mLatency, st.types[i].Snapshot(), t)
	}
	ch <- promHist(mCallLen, st.callLen.Snapshot())
	ch <- promHist(mLag, st.lag.Snapshot())
}

// promHist turns a histogram into a Prometheus one (bucket resolution:
// a value counts under the first bound at or above its bucket's top).
func promHist(d *prometheus.Desc, s *HistSnap, labels ...string) prometheus.Metric {
	buckets := make(map[float64]uint64, len(metricBuckets))
	for _, b := range metricBuckets {
		buckets[b] = s.CountAtOrBelow(time.Duration(math.Round(b * 1e9)))
	}
	return prometheus.MustNewConstHistogram(d, s.Count, float64(s.Sum)/1e9, buckets, labels...)
}
