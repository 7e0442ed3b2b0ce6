package server

import (
	"errors"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec"
	"megaco/internal/mapping"
)

// Metrics are the codec-level Prometheus series. Every label has a small,
// fixed set of values: codec names come from the registry, op is
// decode/encode, version 1..3 (or "0" when unknown), reason one of
// errorReasons.
type Metrics struct {
	duration *prometheus.HistogramVec
	size     *prometheus.HistogramVec
	errors   *prometheus.CounterVec
}

var errorReasons = []string{"malformed", "too_large", "unsupported", "mapping", "schema", "internal"}

// NewMetrics registers the series with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "megaco_codec_duration_seconds",
			Help: "Time to decode or encode one message, by codec, operation and protocol version.",
			// Classic buckets from 1 µs to about 4 ms, for scrapers without
			// native histograms; native ones give finer resolution.
			Buckets:                         prometheus.ExponentialBuckets(1e-6, 2, 13),
			NativeHistogramBucketFactor:     1.1,
			NativeHistogramMaxBucketNumber:  160,
			NativeHistogramMinResetDuration: time.Hour,
		}, []string{"codec", "op", "version"}),
		size: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:                            "megaco_message_size_bytes",
			Help:                            "Size of a message as decoded from or encoded to a codec.",
			Buckets:                         prometheus.ExponentialBuckets(16, 2, 13),
			NativeHistogramBucketFactor:     1.1,
			NativeHistogramMaxBucketNumber:  160,
			NativeHistogramMinResetDuration: time.Hour,
		}, []string{"codec", "op"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "megaco_codec_errors_total",
			Help: "Messages that failed to decode or encode, by codec, operation and reason.",
		}, []string{"codec", "op", "reason"}),
	}
	reg.MustRegister(m.duration, m.size, m.errors)
	// Pre-create the error series so that rates start at zero.
	for _, c := range codec.Names() {
		for _, op := range []string{"decode", "encode"} {
			for _, r := range errorReasons {
				m.errors.WithLabelValues(c, op, r)
			}
		}
	}
	return m
}

func (m *Metrics) observe(codecName, op string, version int, start time.Time, size int) {
	if m == nil {
		return
	}
	m.duration.WithLabelValues(codecName, op, versionLabel(version)).Observe(time.Since(start).Seconds())
	m.size.WithLabelValues(codecName, op).Observe(float64(size))
}

func (m *Metrics) failed(codecName, op string, err error) {
	if m == nil {
		return
	}
	m.errors.WithLabelValues(codecName, op, reason(err)).Inc()
}

func versionLabel(v int) string {
	if v < 1 || v > 3 {
		return "0"
	}
	return strconv.Itoa(v)
}

// reason maps an error to its bounded label value.
func reason(err error) string {
	var tooLarge *TooLargeError
	var me *mapping.Error
	switch {
	case errors.As(err, &tooLarge):
		return "too_large"
	case errors.As(err, &me):
		return "mapping"
	}
	if loc, ok := codec.Locate(err); ok {
		if loc.Position == "encode" {
			return "schema"
		}
		return "malformed"
	}
	if errors.Is(err, codec.ErrUndetected) {
		return "malformed"
	}
	return "internal"
}
