package proxy

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/codec"
	"megaco/internal/codec/codecerr"
	"megaco/internal/server"
)

// codecMetrics are the service's codec series (internal/server's
// megaco_codec_duration_seconds, megaco_message_size_bytes and
// megaco_codec_errors_total, of its definitions), so that
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
	errors   [len(codecOps)][]prometheus.Counter // by op, index in server.ErrorReasons
}

func newCodecMetrics(reg prometheus.Registerer) *codecMetrics {
	m := &codecMetrics{
		duration: newHistVec(server.CodecDurationOpts, server.CodecDurationLabels, false),
		size:     newHistVec(server.MessageSizeOpts, server.MessageSizeLabels, false),
		byCodec:  map[string]*codecSeries{},
	}
	errs := prometheus.NewCounterVec(server.CodecErrorsOpts, server.CodecErrorsLabels)
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
			for _, r := range server.ErrorReasons {
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
	o.series(name).errors[op][server.ErrorReason(err)].Inc()
}
