package server

import (
	"log/slog"
	"net"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
)

// hardening is what Run builds from Limits: the limited listeners, the
// shared in-flight cap, the gRPC guard and their metrics.
type hardening struct {
	limits               Limits
	metrics              *serverMetrics
	inFlight             *inFlight
	grpcConns, httpConns *limitListener
	guard                *guard
}

func newHardening(o Options, reg prometheus.Registerer, gl, hl net.Listener) *hardening {
	l := o.Limits.withDefaults()
	m := newServerMetrics(reg)
	h := &hardening{limits: l, metrics: m, inFlight: newInFlight(l.MaxInFlightBytes, m)}
	h.grpcConns = newLimitListener(gl, l.MaxConns, "grpc", m)
	h.httpConns = newLimitListener(hl, l.HTTPMaxConns, "http", m)
	h.guard = newGuard(l, h.inFlight, m, h.grpcConns)
	return h
}

func (h *hardening) httpHandler(next http.Handler, maxMessage int) http.Handler {
	return newHTTPGate(next, h.limits, int64(maxMessage), h.inFlight, h.metrics)
}

func (h *hardening) logLimits(log *slog.Logger) {
	l := h.limits
	log.Info("limits",
		"grpc_max_conns", l.MaxConns, "grpc_max_streams", l.MaxStreams, "grpc_max_conn_idle", l.MaxConnIdle, "grpc_max_conn_age", l.MaxConnAge,
		"grpc_window", l.WindowSize, "grpc_conn_window", l.ConnWindowSize, "grpc_send_timeout", l.SendTimeout,
		"max_in_flight_bytes", l.MaxInFlightBytes, "max_header_bytes", l.MaxHeaderBytes,
		"http_max_conns", l.HTTPMaxConns, "http_max_concurrent", l.HTTPMaxConcurrent, "http_body_grace", l.HTTPBodyGrace, "http_body_min_rate", l.HTTPBodyMinRate,
		"http_read_header_timeout", l.HTTPReadHeaderTimeout, "http_read_timeout", l.HTTPReadTimeout,
		"http_write_timeout", l.HTTPWriteTimeout, "http_idle_timeout", l.HTTPIdleTimeout)
}
