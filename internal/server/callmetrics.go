package server

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// callMetrics are the gRPC server's grpc_server_* series, with the names,
// labels, help and buckets of go-grpc-middleware's server metrics (which
// dashboards and alerts know), each method's series resolved once at
// start: looking a series up by its label values at every call and
// message (hashing four strings, locking the vector) cost more than the
// counting itself, several per cent of the server's CPU.
type callMetrics struct {
	started, handled, received, sent *prometheus.CounterVec
	handling                         *prometheus.HistogramVec
	// methods are the series by full method name, filled by init before
	// the server starts and only read after.
	methods map[string]*methodSeries
}

// methodSeries are one method's series.
type methodSeries struct {
	started, received, sent prometheus.Counter
	handled                 [codes.Unauthenticated + 1]prometheus.Counter // by code
	handling                prometheus.Observer
}

func newCallMetrics(reg prometheus.Registerer) *callMetrics {
	labels := []string{"grpc_type", "grpc_service", "grpc_method"}
	counter := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	}
	m := &callMetrics{
		started:  counter("grpc_server_started_total", "Total number of RPCs started on the server.", labels...),
		handled:  counter("grpc_server_handled_total", "Total number of RPCs completed on the server, regardless of success or failure.", append(labels, "grpc_code")...),
		received: counter("grpc_server_msg_received_total", "Total number of RPC stream messages received on the server.", labels...),
		sent:     counter("grpc_server_msg_sent_total", "Total number of gRPC stream messages sent by the server.", labels...),
		handling: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "grpc_server_handling_seconds",
			Help: "Histogram of response latency (seconds) of gRPC that had been application-level handled by the server.",
			// Fine enough for calls of tens of microseconds.
			Buckets: prometheus.ExponentialBuckets(50e-6, 2, 14),
		}, labels),
		methods: make(map[string]*methodSeries),
	}
	reg.MustRegister(m.started, m.handled, m.received, m.sent, m.handling)
	return m
}

// init resolves the series of every method gs serves (so that they are
// exported, at zero, from the start).
func (m *callMetrics) init(gs *grpc.Server) {
	for service, info := range gs.GetServiceInfo() {
		for _, mi := range info.Methods {
			m.methods["/"+service+"/"+mi.Name] = m.resolve(methodType(mi.IsClientStream, mi.IsServerStream), service, mi.Name)
		}
	}
}

func methodType(clientStream, serverStream bool) string {
	switch {
	case clientStream && serverStream:
		return "bidi_stream"
	case clientStream:
		return "client_stream"
	case serverStream:
		return "server_stream"
	}
	return "unary"
}

func (m *callMetrics) resolve(typ, service, method string) *methodSeries {
	s := &methodSeries{
		started:  m.started.WithLabelValues(typ, service, method),
		received: m.received.WithLabelValues(typ, service, method),
		sent:     m.sent.WithLabelValues(typ, service, method),
		handling: m.handling.WithLabelValues(typ, service, method),
	}
	for c := range s.handled {
		s.handled[c] = m.handled.WithLabelValues(typ, service, method, codes.Code(c).String())
	}
	return s
}

// series are fullMethod's series; a method init did not see (none, in
// practice) is resolved on the spot.
func (m *callMetrics) series(fullMethod, typ string) *methodSeries {
	if s, ok := m.methods[fullMethod]; ok {
		return s
	}
	service, method, _ := strings.Cut(strings.TrimPrefix(fullMethod, "/"), "/")
	return m.resolve(typ, service, method)
}

// done counts a call's end, after d.
func (s *methodSeries) done(err error, d time.Duration) {
	code := codes.OK
	if err != nil {
		st, ok := status.FromError(err)
		if !ok {
			st = status.FromContextError(err)
		}
		code = st.Code()
	}
	if int(code) < len(s.handled) {
		s.handled[code].Inc()
	}
	s.handling.Observe(d.Seconds())
}

// interceptors are the one unary and the one stream interceptor of the
// server: each counts the call (callMetrics), turns a panic into an
// Internal error (recovered, which logs it) and, for unary calls, logs
// it (failures; every call at debug level). One interceptor rather than
// a chain of three: gRPC calls a single one without the chain's closures,
// and one pair of clock reads times the call for the metrics and the log.
type interceptors struct {
	metrics   *callMetrics
	failures  *failureLog
	recovered func(p any) error
}

func (ic *interceptors) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	s := ic.metrics.series(info.FullMethod, "unary")
	start := time.Now()
	s.started.Inc()
	s.received.Inc()
	resp, err := ic.callUnary(ctx, req, handler)
	d := time.Since(start)
	if err == nil {
		s.sent.Inc()
	}
	s.done(err, d)
	if err != nil {
		ic.failures.failed(ctx, "call failed", "method", info.FullMethod, "code", status.Code(err).String(), "error", clip(status.Convert(err).Message()), "duration", d)
	} else if log := ic.failures.log; log.Enabled(ctx, slog.LevelDebug) {
		log.Debug("call", "method", info.FullMethod, "duration", d)
	}
	return resp, err
}

func (ic *interceptors) callUnary(ctx context.Context, req any, handler grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, ic.recovered(p)
		}
	}()
	return handler(ctx, req)
}

func (ic *interceptors) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	s := ic.metrics.series(info.FullMethod, methodType(info.IsClientStream, info.IsServerStream))
	start := time.Now()
	s.started.Inc()
	err := ic.callStream(srv, &countedStream{ServerStream: ss, s: s}, handler)
	s.done(err, time.Since(start))
	return err
}

func (ic *interceptors) callStream(srv any, ss grpc.ServerStream, handler grpc.StreamHandler) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = ic.recovered(p)
		}
	}()
	return handler(srv, ss)
}

// countedStream counts a stream's messages.
type countedStream struct {
	grpc.ServerStream
	s *methodSeries
}

func (c *countedStream) RecvMsg(m any) error {
	err := c.ServerStream.RecvMsg(m)
	if err == nil {
		c.s.received.Inc()
	}
	return err
}

func (c *countedStream) SendMsg(m any) error {
	err := c.ServerStream.SendMsg(m)
	if err == nil {
		c.s.sent.Inc()
	}
	return err
}
