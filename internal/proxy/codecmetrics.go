package proxy

import (
	"errors"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec"
	"megaco/internal/codec/codecerr"
)

// codecMetrics are the service's codec series (internal/server's
// megaco_codec_duration_seconds, megaco_message_size_bytes and
// megaco_codec_errors_total: same names, labels and buckets), so that
// dashboards read the proxy's codec work as they read the service's. The
// histograms are histVecs: the proxy observes four per message it
// transcodes, and the client library's histograms cost it 6 % of its CPU.
type codecMetrics struct {
	duration, size *histVec
	byCodec        map[string]*codecSeries
}

// codecOps are the op label's values, indexed by codecerr.Op (Decode,
// Encode).
var codecOps = [...]string{codecerr.Decode.String(), codecerr.Encode.String()}

type codecSeries struct {
	duration [len(codecOps)][4]*histSeries // by op, version label 0..3
	size     [len(codecOps)]*histSeries
	errors   [len(codecOps)][]prometheus.Counter // by op, errorReason
}

// codecReasons are the error reason label's values: the kinds of codec
// errors in codecerr.Kind order, then "internal" for anything else.
var codecReasons = func() []string {
	var out []string
	for _, k := range codecerr.Kinds() {
		out = append(out, k.String())
	}
	return append(out, "internal")
}()

func newCodecMetrics(reg prometheus.Registerer) *codecMetrics {
	m := &codecMetrics{
		duration: newHistVec(histOpts{
			name:   "megaco_codec_duration_seconds",
			help:   "Time to decode or encode one message, by codec, operation and protocol version.",
			labels: []string{"codec", "op", "version"},
			// Classic buckets from 1 µs to about 4 ms, for scrapers
			// without native histograms.
			bounds: prometheus.ExponentialBuckets(1e-6, 2, 13),
		}),
		size: newHistVec(histOpts{
			name:   "megaco_message_size_bytes",
			help:   "Size of a message as decoded from or encoded to a codec.",
			labels: []string{"codec", "op"},
			bounds: prometheus.ExponentialBuckets(16, 2, 13),
		}),
		byCodec: map[string]*codecSeries{},
	}
	errs := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "megaco_codec_errors_total",
		Help: "Messages that failed to decode or encode, by codec, operation and reason.",
	}, []string{"codec", "op", "reason"})
	reg.MustRegister(m.duration, m.size, errs)
	// Error series start at zero; duration and size series appear with
	// their first observation (histVec without eager).
	for _, c := range append(codec.Names(), "unknown") {
		cs := &codecSeries{}
		for op, opName := range codecOps {
			for v := range cs.duration[op] {
				cs.duration[op][v] = m.duration.with(c, opName, strconv.Itoa(v))
			}
			cs.size[op] = m.size.with(c, opName)
			for _, r := range codecReasons {
				cs.errors[op] = append(cs.errors[op], errs.WithLabelValues(c, opName, r))
			}
		}
		m.byCodec[c] = cs
	}
	return m
}

func (m *codecMetrics) series(name string) *codecSeries {
	if cs := m.byCodec[name]; cs != nil {
		return cs
	}
	return m.byCodec["unknown"]
}

// codecObserver is the codec.Observer of one worker, used by its
// goroutine alone: it counts into the worker's shard, and remembers the
// series of the two codecs it saw last (a worker's two sides') to skip
// looking them up by name.
type codecObserver struct {
	m     *codecMetrics
	shard int
	names [2]string
	last  [2]*codecSeries
}

func (o *codecObserver) series(name string) *codecSeries {
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
func (o *codecObserver) Done(name string, op codecerr.Op, version int, start time.Time, size int) {
	cs := o.series(name)
	if version < 1 || version > 3 {
		version = 0
	}
	o.m.duration.observe(cs.duration[op][version], o.shard, time.Since(start).Seconds())
	o.m.size.observe(cs.size[op], o.shard, float64(size))
}

// Failed implements codec.Observer.
func (o *codecObserver) Failed(name string, op codecerr.Op, err error) {
	o.series(name).errors[op][codecReason(err)].Inc()
}

// codecReason is err's index in codecReasons.
func codecReason(err error) int {
	if e, ok := codecerr.As(err); ok {
		return int(e.Kind)
	}
	if errors.Is(err, codec.ErrUndetected) {
		return int(codecerr.Malformed)
	}
	return len(codecReasons) - 1
}
