package server

import (
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec"
	"megaco/internal/codec/codecerr"
)

// Metrics are the codec-level Prometheus series. Every label has a small,
// fixed set of values: codec names come from the registry, op is
// decode/encode, version 1..3 (or "0" when unknown), reason one of
// ErrorReasons.
type Metrics struct {
	duration *prometheus.HistogramVec
	size     *prometheus.HistogramVec
	errors   *prometheus.CounterVec
	// batch is the messages per TranscodeStream request (1, or the
	// batch's length): how well clients batch.
	batch prometheus.Histogram
	// byCodec holds every codec's series resolved once: looking a series
	// up by label values hashes the labels and locks the vector, which at
	// 100k messages/s cost more than the observation itself.
	byCodec map[string]*codecSeries
}

// ops are the op label's values, indexed by the codecerr.Op values
// Decode and Encode.
var ops = [...]string{codecerr.Decode.String(), codecerr.Encode.String()}

const (
	opDecode = int(codecerr.Decode)
	opEncode = int(codecerr.Encode)
)

type codecSeries struct {
	duration [len(ops)][4]prometheus.Observer // by op, version label 0..3
	size     [len(ops)]prometheus.Observer
	errors   [len(ops)][]prometheus.Counter // by op, index in ErrorReasons
}

// ErrorReasons are the reason label's values: the kinds of codec errors,
// in codecerr.Kind order, then "internal" for anything else (index
// reasonInternal).
var ErrorReasons = func() []string {
	var out []string
	for _, k := range codecerr.Kinds() {
		out = append(out, k.String())
	}
	return append(out, "internal")
}()

var reasonInternal = len(codecerr.Kinds())

// The codec series' definitions, shared with the proxy, which registers
// the same series with its own histograms.
var (
	CodecDurationOpts = prometheus.HistogramOpts{
		Name: "megaco_codec_duration_seconds",
		Help: "Time to decode or encode one message, by codec, operation and protocol version.",
		// Classic buckets from 1 µs to about 4 ms, for scrapers without
		// native histograms; native ones give finer resolution.
		Buckets:                         prometheus.ExponentialBuckets(1e-6, 2, 13),
		NativeHistogramBucketFactor:     1.1,
		NativeHistogramMaxBucketNumber:  160,
		NativeHistogramMinResetDuration: time.Hour,
	}
	CodecDurationLabels = []string{"codec", "op", "version"}
	MessageSizeOpts     = prometheus.HistogramOpts{
		Name:                            "megaco_message_size_bytes",
		Help:                            "Size of a message as decoded from or encoded to a codec.",
		Buckets:                         prometheus.ExponentialBuckets(16, 2, 13),
		NativeHistogramBucketFactor:     1.1,
		NativeHistogramMaxBucketNumber:  160,
		NativeHistogramMinResetDuration: time.Hour,
	}
	MessageSizeLabels = []string{"codec", "op"}
	CodecErrorsOpts   = prometheus.CounterOpts{
		Name: "megaco_codec_errors_total",
		Help: "Messages that failed to decode or encode, by codec, operation and reason.",
	}
	CodecErrorsLabels = []string{"codec", "op", "reason"}
)

// NewMetrics registers the series with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		duration: prometheus.NewHistogramVec(CodecDurationOpts, CodecDurationLabels),
		size:     prometheus.NewHistogramVec(MessageSizeOpts, MessageSizeLabels),
		errors:   prometheus.NewCounterVec(CodecErrorsOpts, CodecErrorsLabels),
	}
	m.batch = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "megaco_stream_request_messages",
		Help:    "Messages per TranscodeStream request: 1, or the length of its batch.",
		Buckets: prometheus.ExponentialBuckets(1, 2, 11), // 1 .. 1024 (MaxBatch)
	})
	reg.MustRegister(m.duration, m.size, m.errors, m.batch)
	// The error series are created up front so that rates start at zero;
	// duration and size series appear with their first observation.
	m.byCodec = make(map[string]*codecSeries)
	for _, c := range append(codec.Names(), "unknown") {
		cs := &codecSeries{}
		for op, opName := range ops {
			for v := range cs.duration[op] {
				cs.duration[op][v] = lazyObserver(m.duration, c, opName, strconv.Itoa(v))
			}
			cs.size[op] = lazyObserver(m.size, c, opName)
			for _, r := range ErrorReasons {
				cs.errors[op] = append(cs.errors[op], m.errors.WithLabelValues(c, opName, r))
			}
		}
		m.byCodec[c] = cs
	}
	return m
}

// lazyObserver resolves a histogram series on its first observation, so
// that /metrics lists only series that saw traffic.
func lazyObserver(vec *prometheus.HistogramVec, labels ...string) prometheus.Observer {
	var once sync.Once
	var obs prometheus.Observer
	return prometheus.ObserverFunc(func(v float64) {
		once.Do(func() { obs = vec.WithLabelValues(labels...) })
		obs.Observe(v)
	})
}

func (m *Metrics) observe(codecName string, op, version int, start time.Time, size int) {
	if m == nil {
		return
	}
	cs := m.byCodec[codecName]
	if cs == nil {
		cs = m.byCodec["unknown"]
	}
	if version < 1 || version > 3 {
		version = 0
	}
	cs.duration[op][version].Observe(time.Since(start).Seconds())
	cs.size[op].Observe(float64(size))
}

// streamRequest records one TranscodeStream request of n messages.
func (m *Metrics) streamRequest(n int) {
	if m != nil {
		m.batch.Observe(float64(n))
	}
}

func (m *Metrics) failed(codecName string, op int, err error) {
	if m == nil {
		return
	}
	cs := m.byCodec[codecName]
	if cs == nil {
		cs = m.byCodec["unknown"]
	}
	cs.errors[op][ErrorReason(err)].Inc()
}

// ErrorReason maps an error to its bounded label value's index in
// ErrorReasons.
func ErrorReason(err error) int {
	var tooLarge *TooLargeError
	if errors.As(err, &tooLarge) {
		return int(codecerr.TooLarge)
	}
	if e, ok := codecerr.As(err); ok {
		return int(e.Kind)
	}
	if errors.Is(err, codec.ErrUndetected) {
		return int(codecerr.Malformed)
	}
	return reasonInternal
}

// Done implements codec.Observer.
func (m *Metrics) Done(codecName string, op codecerr.Op, version int, start time.Time, size int) {
	m.observe(codecName, int(op), version, start, size)
}

// Failed implements codec.Observer.
func (m *Metrics) Failed(codecName string, op codecerr.Op, err error) {
	m.failed(nameOr(codecName), int(op), err)
}
