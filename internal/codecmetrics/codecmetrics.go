// Package codecmetrics is the one implementation of the codec series
// that the service and the proxy both export, so that dashboards read
// either's codec work alike: megaco_codec_duration_seconds,
// megaco_message_size_bytes and megaco_codec_errors_total. Every label has
// a small fixed set of values: codec names from the registry (or
// "unknown"), op decode/encode, version 1..3 ("0" when unknown), reason
// one of errclass.Reasons.
//
// The histograms are hist.Vecs: a proxy observes four per message it
// transcodes, and the client library's histograms cost it 6 % of its CPU.
package codecmetrics

import (
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec"
	"megaco/internal/codec/codecerr"
	"megaco/internal/errclass"
	"megaco/internal/hist"
)

// The series' definitions.
var (
	DurationOpts = prometheus.HistogramOpts{
		Name: "megaco_codec_duration_seconds",
		Help: "Time to decode or encode one message, by codec, operation and protocol version.",
		// Classic buckets from 1 µs to about 4 ms, for scrapers without
		// native histograms; native ones give finer resolution.
		Buckets:                         prometheus.ExponentialBuckets(1e-6, 2, 13),
		NativeHistogramBucketFactor:     1.1,
		NativeHistogramMaxBucketNumber:  160,
		NativeHistogramMinResetDuration: time.Hour,
	}
	DurationLabels = []string{"codec", "op", "version"}
	SizeOpts       = prometheus.HistogramOpts{
		Name:                            "megaco_message_size_bytes",
		Help:                            "Size of a message as decoded from or encoded to a codec.",
		Buckets:                         prometheus.ExponentialBuckets(16, 2, 13),
		NativeHistogramBucketFactor:     1.1,
		NativeHistogramMaxBucketNumber:  160,
		NativeHistogramMinResetDuration: time.Hour,
	}
	SizeLabels = []string{"codec", "op"}
	ErrorsOpts = prometheus.CounterOpts{
		Name: "megaco_codec_errors_total",
		Help: "Messages that failed to decode or encode, by codec, operation and reason.",
	}
	ErrorsLabels = []string{"codec", "op", "reason"}
)

// ops are the op label's values, indexed by codecerr.Op (Decode, Encode).
var ops = [...]string{codecerr.Decode.String(), codecerr.Encode.String()}

// Metrics are the codec series, registered once per process (or
// registry). Each codec's series are resolved up front, so that counting
// costs no label hashing on the per-message path.
type Metrics struct {
	duration, size *hist.Vec
	byCodec        map[string]*series
	next           atomic.Uint32 // the shard of the next Done from any goroutine
}

type series struct {
	duration [len(ops)][4]*hist.Series // by op, version label 0..3
	size     [len(ops)]*hist.Series
	errors   [len(ops)][]prometheus.Counter // by op, index in errclass.Reasons
}

// New registers the series with reg. Error series start at zero; duration
// and size series appear with their first observation.
func New(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		duration: hist.NewVec(DurationOpts, DurationLabels, false),
		size:     hist.NewVec(SizeOpts, SizeLabels, false),
		byCodec:  map[string]*series{},
	}
	errs := prometheus.NewCounterVec(ErrorsOpts, ErrorsLabels)
	reg.MustRegister(m.duration, m.size, errs)
	for _, c := range append(codec.Names(), "unknown") {
		cs := &series{}
		for op, opName := range ops {
			for v := range cs.duration[op] {
				cs.duration[op][v] = m.duration.With(c, opName, strconv.Itoa(v))
			}
			cs.size[op] = m.size.With(c, opName)
			for _, r := range errclass.Reasons {
				cs.errors[op] = append(cs.errors[op], errs.WithLabelValues(c, opName, r))
			}
		}
		m.byCodec[c] = cs
	}
	return m
}

func (m *Metrics) series(name string) *series {
	if cs := m.byCodec[name]; cs != nil {
		return cs
	}
	return m.byCodec["unknown"]
}

func (m *Metrics) done(cs *series, shard int, op codecerr.Op, version int, took time.Duration, size int) {
	if version < 1 || version > 3 {
		version = 0
	}
	m.duration.Observe(cs.duration[op][version], shard, took.Seconds())
	m.size.Observe(cs.size[op], shard, float64(size))
}

// Done implements codec.Observer for callers on any goroutine (a
// service's handlers): calls take the shards in turn. A nil *Metrics
// counts nothing.
func (m *Metrics) Done(name string, op codecerr.Op, version int, took time.Duration, size int) {
	if m != nil {
		m.done(m.series(name), int(m.next.Add(1)), op, version, took, size)
	}
}

// Failed implements codec.Observer: the error counts under its reason
// (errclass).
func (m *Metrics) Failed(name string, op codecerr.Op, err error) {
	if m != nil {
		m.series(name).errors[op][errclass.ReasonIndex(err)].Inc()
	}
}

// Observer is a codec.Observer for one goroutine (a proxy's read loop):
// it counts into its own shard, and remembers the series of the two codecs
// it saw last (a loop's two sides') to skip looking them up by name.
type Observer struct {
	m     *Metrics
	shard int
	names [2]string
	last  [2]*series
}

// Observer returns an observer that counts into shard (any int).
func (m *Metrics) Observer(shard int) *Observer { return &Observer{m: m, shard: shard} }

func (o *Observer) series(name string) *series {
	for i, cs := range o.last {
		if cs != nil && o.names[i] == name {
			return cs
		}
	}
	cs := o.m.series(name)
	o.names[1], o.last[1] = o.names[0], o.last[0]
	o.names[0], o.last[0] = name, cs
	return cs
}

// Done implements codec.Observer.
func (o *Observer) Done(name string, op codecerr.Op, version int, took time.Duration, size int) {
	o.m.done(o.series(name), o.shard, op, version, took, size)
}

// Failed implements codec.Observer.
func (o *Observer) Failed(name string, op codecerr.Op, err error) {
	o.series(name).errors[op][errclass.ReasonIndex(err)].Inc()
}
