package server

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Reasons a call or connection is refused: the reason label of
// megaco_server_rejected_total.
const (
	reasonConnections = "connections"       // over MaxConns / HTTPMaxConns
	reasonInFlight    = "in_flight_bytes"   // over MaxInFlightBytes
	reasonConcurrency = "concurrency"       // over HTTPMaxConcurrent
	reasonSendTimeout = "send_timeout"      // a stream's client stopped reading
	reasonMalformed   = "malformed_request" // a request that is not valid protobuf
	reasonCalls       = "calls"             // over MaxCalls
	reasonDraining    = "draining"          // a stream ended by the drain
	reasonSlowBody    = "slow_body"         // an HTTP body slower than HTTPBodyMinRate
)

// serverMetrics are the network layer's series: what the limits refused
// and what is open.
type serverMetrics struct {
	rejected    *prometheus.CounterVec
	connections *prometheus.GaugeVec
	inFlight    prometheus.Gauge
}

func newServerMetrics(reg prometheus.Registerer) *serverMetrics {
	m := &serverMetrics{
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "megaco_server_rejected_total",
			Help: "Connections, calls and streams refused or ended by a limit, by transport (grpc, http) and reason.",
		}, []string{"transport", "reason"}),
		connections: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "megaco_server_connections",
			Help: "Connections open, by transport.",
		}, []string{"transport"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "megaco_server_in_flight_bytes",
			Help: "Request bytes being worked on across all calls (bounded by --max-in-flight-bytes).",
		}),
	}
	reg.MustRegister(m.rejected, m.connections, m.inFlight)
	// Series that exist from the start, so that rates start at zero.
	for _, t := range []string{"grpc", "http"} {
		m.connections.WithLabelValues(t)
		m.rejected.WithLabelValues(t, reasonConnections)
		m.rejected.WithLabelValues(t, reasonInFlight)
	}
	for _, r := range []string{reasonCalls, reasonSendTimeout, reasonMalformed, reasonDraining} {
		m.rejected.WithLabelValues("grpc", r)
	}
	m.rejected.WithLabelValues("http", reasonConcurrency)
	m.rejected.WithLabelValues("http", reasonSlowBody)
	return m
}

func (m *serverMetrics) reject(transport, reason string) {
	if m != nil {
		m.rejected.WithLabelValues(transport, reason).Inc()
	}
}
