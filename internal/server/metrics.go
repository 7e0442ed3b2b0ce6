package server

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codecmetrics"
)

// Metrics are the codec-level Prometheus series (internal/codecmetrics,
// which the proxy exports too) and the service's batch histogram.
type Metrics struct {
	codec *codecmetrics.Metrics
	// observers are codecmetrics.Observers, each counting into a shard
	// of its own: a pool keeps one per processor at hand, so a call's
	// observations need no shared counter to pick a shard, and take a
	// lock no other processor is taking.
	observers sync.Pool
	shards    atomic.Int64
	// batch is the messages per TranscodeStream request (1, or the
	// batch's length): how well clients batch.
	batch prometheus.Histogram
}

const (
	opDecode = codecerr.Decode
	opEncode = codecerr.Encode
)

// NewMetrics registers the series with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{codec: codecmetrics.New(reg)}
	m.observers.New = func() any { return m.codec.Observer(int(m.shards.Add(1))) }
	m.batch = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "megaco_stream_request_messages",
		Help:    "Messages per TranscodeStream request: 1, or the length of its batch.",
		Buckets: prometheus.ExponentialBuckets(1, 2, 11), // 1 .. 1024 (MaxBatch)
	})
	reg.MustRegister(m.batch)
	return m
}

// streamRequest records one TranscodeStream request of n messages.
func (m *Metrics) streamRequest(n int) {
	if m != nil {
		m.batch.Observe(float64(n))
	}
}

func (m *Metrics) failed(codecName string, op codecerr.Op, err error) {
	if m != nil {
		m.codec.Failed(codecName, op, err)
	}
}

// observer is an Observer of the pool, to give back with release.
func (m *Metrics) observer() *codecmetrics.Observer {
	return m.observers.Get().(*codecmetrics.Observer)
}

func (m *Metrics) release(o *codecmetrics.Observer) { m.observers.Put(o) }

// Done implements codec.Observer.
func (m *Metrics) Done(codecName string, op codecerr.Op, version int, took time.Duration, size int) {
	if m != nil {
		m.codec.Done(codecName, op, version, took, size)
	}
}

// Failed implements codec.Observer.
func (m *Metrics) Failed(codecName string, op codecerr.Op, err error) {
	m.failed(nameOr(codecName), op, err)
}
