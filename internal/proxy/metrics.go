package proxy

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/hist"
)

// Label values. Every label of the proxy's series has a small fixed set.
var (
	directions = [2]string{"mgc_to_mg", "mg_to_mgc"} // by the side a message came from
	sideNames  = [2]string{"mgc", "mg"}
	kindNames  = [numKinds]string{"request", "reply", "pending", "ack", "error"}
	outcomes   = [numOutcomes]string{"forwarded", "rejected", "dropped"}
	reasons    = [numReasons]string{"decode", "transcode", "route", "io", "limit"}
	// commands are the command label's values: a transaction's first
	// command, "none" when its first action has none.
	commands = []string{"add", "move", "modify", "subtract", "auditCapability", "auditValue", "notify", "serviceChange", "none"}
)

type kind uint8

const (
	kindRequest kind = iota
	kindReply        // a final reply, or a segment of one
	kindPending
	kindAck // TransactionResponseAck, and the v3 SegmentReply
	kindError
	numKinds
)

type outcome uint8

const (
	forwarded outcome = iota
	rejected          // a request the proxy answered with an error
	dropped
	numOutcomes
)

type reason uint8

const (
	reasonDecode reason = iota
	reasonTranscode
	reasonRoute
	reasonIO
	reasonLimit
	numReasons
)

// metrics are the proxy's series, resolved once so that counting costs
// no label hashing on the per-message path.
type metrics struct {
	messages   [2][numKinds][numOutcomes]prometheus.Counter
	duration   *hist.Vec
	durations  [2][]*hist.Series // by direction, index in commands
	inflight   [2]prometheus.Gauge
	remembered prometheus.Gauge
	conns      [2]prometheus.Gauge
	errors     [2][numReasons]prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) *metrics {
	messages := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "megaco_proxy_messages_total",
		Help: "Transactions (and message-level errors) through the proxy, by direction, kind and outcome.",
	}, []string{"direction", "kind", "outcome"})
	duration := hist.NewVec(prometheus.HistogramOpts{
		Name: "megaco_proxy_transaction_duration_seconds",
		Help: "Time from a request forwarded to its final reply, by the request's direction and first command: the answering peer's response time.",
		// Classic buckets from 1 ms to about 16 s for scrapers without
		// native histograms.
		Buckets:                        prometheus.ExponentialBuckets(0.001, 2, 15),
		NativeHistogramBucketFactor:    1.1,
		NativeHistogramMaxBucketNumber: 160,
	}, []string{"direction", "command"}, true)
	remembered := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "megaco_proxy_remembered_transactions",
		Help: "Entries of the routing table (answered ones stay until they expire).",
	})
	errs := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "megaco_proxy_errors_total",
		Help: "Failures, by the side the traffic came from or went to, and reason.",
	}, []string{"side", "reason"})
	reg.MustRegister(messages, duration, remembered, errs)
	m := &metrics{remembered: remembered, duration: duration,
		inflight: gaugePair(reg, "megaco_proxy_transactions_in_flight",
			"Requests forwarded and not yet finally answered, by direction.", "direction", directions),
		conns: gaugePair(reg, "megaco_proxy_connections", "Open TCP connections, by side.", "side", sideNames),
	}
	for d := range 2 {
		for k := range numKinds {
			for o := range numOutcomes {
				m.messages[d][k][o] = messages.WithLabelValues(directions[d], kindNames[k], outcomes[o])
			}
		}
		for _, c := range commands {
			m.durations[d] = append(m.durations[d], duration.With(directions[d], c))
		}
		for r := range numReasons {
			m.errors[d][r] = errs.WithLabelValues(sideNames[d], reasons[r])
		}
	}
	return m
}

// gaugePair registers a gauge with one label of two values (a direction
// or a side) and resolves both.
func gaugePair(reg prometheus.Registerer, name, help, label string, values [2]string) (g [2]prometheus.Gauge) {
	v := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, []string{label})
	reg.MustRegister(v)
	for i, l := range values {
		g[i] = v.WithLabelValues(l)
	}
	return g
}

// observeDuration counts a transaction's duration, in shard.
func (m *metrics) observeDuration(shard int, d side, command uint8, took time.Duration) {
	m.duration.Observe(m.durations[d][command], shard, took.Seconds())
}

// registerLimit exports the routing table's bound, for an alert on
// megaco_proxy_remembered_transactions nearing it (past it the oldest
// routes go and their late replies are dropped).
func registerLimit(reg prometheus.Registerer, limit int) {
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "megaco_proxy_transactions_limit",
		Help: "The routing table's bound (--max-transactions): the most entries megaco_proxy_remembered_transactions can reach.",
	}, func() float64 { return float64(limit) }))
}
