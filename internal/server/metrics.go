package server

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codecmetrics"
)

// Metrics are the codec-level Prometheus series (internal/codecmetrics,
// which the proxy exports too) and the service's batch histogram.
type Metrics struct {
	codec *codecmetrics.Metrics
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

// Done implements codec.Observer.
func (m *Metrics) Done(codecName string, op codecerr.Op, version int, start time.Time, size int) {
	if m != nil {
		m.codec.Done(codecName, op, version, start, size)
	}
}

// Failed implements codec.Observer.
func (m *Metrics) Failed(codecName string, op codecerr.Op, err error) {
	m.failed(nameOr(codecName), op, err)
}
