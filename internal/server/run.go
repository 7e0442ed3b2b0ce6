package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"

	pb "megaco/api/megaco/v1"
	"megaco/internal/buildinfo"
	"megaco/internal/pprofhttp"
)

// Options configure a running server.
type Options struct {
	GRPCAddr, HTTPAddr string
	Config             Config
	// DrainTimeout bounds how long a shutdown waits for calls in flight.
	DrainTimeout time.Duration
	Log          *slog.Logger
	// Ready, if set, is called with the bound addresses once both
	// listeners accept connections.
	Ready func(grpcAddr, httpAddr net.Addr)
	// GCPercent, if positive, sets the garbage collector's target
	// (as GOGC does) while Run runs; DefaultGCPercent is why.
	GCPercent int
	// TLS, if set, secures both listeners (tlsconfig.Server builds it;
	// with ClientCAs, clients must present certificates).
	TLS *tls.Config
	// Limits bound connections, streams, bytes and time (zero fields:
	// DefaultLimits).
	Limits Limits
	// MemoryLimit, if positive, is the runtime's soft memory limit in
	// bytes; otherwise it is MemoryLimitShare of the cgroup's limit, if
	// any. GOMEMLIMIT, when set, rules.
	MemoryLimit int64
	// NoReflection leaves out the gRPC reflection service.
	NoReflection bool
	// DrainDelay is how long the drain keeps serving after /readyz and
	// the health checks turn false, before it stops taking calls: time
	// for a load balancer's probe to see it (0: none).
	DrainDelay time.Duration
	// PprofAddr, if set, serves net/http/pprof on a listener of its own
	// (see pprofhttp.Start); empty, the default, serves no profiles at all.
	PprofAddr string
}

// DefaultGCPercent is the collector target `megaco serve` uses unless GOGC
// is set. The service's live heap is a few MiB while every call allocates
// (gRPC alone about 140 objects per unary call), so with Go's default of
// 100 the collector runs hundreds of times a second under load and costs
// a quarter of the CPU. At 400 the heap peaks at a few tens of MiB and
// unary throughput rises by about a third (see the README's performance
// section); the memory limit (GOMEMLIMIT, or 90% of the container's
// limit: setMemoryLimit) still caps the heap.
const DefaultGCPercent = 400

// Run serves gRPC and HTTP until ctx is done, then drains: it stops
// taking new calls, lets the ones in flight finish (up to DrainTimeout)
// and returns.
func Run(ctx context.Context, o Options) error {
	log := o.Log
	if log == nil {
		log = slog.Default()
	}
	gcPercent, restoreGC := setGCPercent(o.GCPercent)
	defer restoreGC()
	memLimit, memSource, restoreMem := setMemoryLimit(o.MemoryLimit)
	defer restoreMem()
	reg, metrics, grpcMetrics := newRegistry()
	svc := New(o.Config, metrics, log)
	gl, hl, err := listen(o.GRPCAddr, o.HTTPAddr)
	if err != nil {
		return err
	}
	h := newHardening(o, reg, gl, hl)
	gl, hl = h.grpcConns, h.httpConns
	srv := newServers(o, svc, reg, grpcMetrics, log, h)
	_, stopPprof, err := pprofhttp.Start(o.PprofAddr, log)
	if err != nil {
		gl.Close()
		hl.Close()
		return err
	}
	defer stopPprof()
	log.Info("serving", "grpc", gl.Addr().String(), "http", hl.Addr().String(),
		"max_message_size", o.Config.MaxMessageSize, "gc_percent", gcPercent, "memory_limit", memLimit, "memory_limit_from", memSource, "profile", string(o.Config.Profile), "termid_layout", o.Config.Layout.String(),
		"termid_names", o.Config.Names.TermIDCount(), "digitmap_names", o.Config.Names.DigitMapCount(),
		"tls", o.TLS != nil, "client_certs", o.TLS != nil && o.TLS.ClientAuth == tls.RequireAndVerifyClientCert, "reflection", !o.NoReflection)
	h.logLimits(log)
	if o.Ready != nil {
		o.Ready(gl.Addr(), hl.Addr())
	}
	errc := srv.serve(gl, hl)
	select {
	case <-ctx.Done():
	case err := <-errc:
		srv.grpc.Stop()
		_ = srv.http.Close()
		return err
	}
	log.Info("draining", "timeout", o.DrainTimeout, "delay", o.DrainDelay)
	if srv.drain(o.DrainDelay, o.DrainTimeout) {
		log.Warn("drain timed out: calls still open were cut off", "timeout", o.DrainTimeout)
	}
	log.Info("stopped")
	return nil
}

// setGCPercent sets the collector's target while Run runs, if percent is
// positive, and returns the target in force (for the log) and what
// restores the one before.
func setGCPercent(percent int) (int, func()) {
	if percent > 0 {
		old := debug.SetGCPercent(percent)
		return percent, func() { debug.SetGCPercent(old) }
	}
	percent = debug.SetGCPercent(-1) // the only way to read it
	debug.SetGCPercent(percent)
	return percent, func() {}
}

// newRegistry is the registry /metrics serves: Go's and the process's
// collectors, the service's metrics and the gRPC server's, with buckets
// fine enough for calls of tens of microseconds.
func newRegistry() (*prometheus.Registry, *Metrics, *callMetrics) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	metrics := NewMetrics(reg)
	grpcMetrics := newCallMetrics(reg)
	reg.MustRegister(buildinfo.Collector())
	return reg, metrics, grpcMetrics
}

// servers are Run's gRPC and HTTP servers.
type servers struct {
	grpc    *grpc.Server
	health  *health.Server
	http    *http.Server
	serving atomic.Bool // false once draining: /healthz and /readyz say so
	tls     bool
	guard   *guard
}

func newServers(o Options, svc *Service, reg *prometheus.Registry, grpcMetrics *callMetrics, log *slog.Logger, h *hardening) *servers {
	s := &servers{tls: o.TLS != nil, guard: h.guard}
	s.serving.Store(true)
	s.grpc, s.health = newGRPCServer(o, svc, grpcMetrics, log, h)
	s.http = &http.Server{
		Handler: h.httpHandler(svc.HTTPHandler(reg, s.serving.Load), o.Config.MaxMessageSize),
		// Every phase of a connection has a bound: a client that
		// stalls is disconnected.
		ReadHeaderTimeout: h.limits.HTTPReadHeaderTimeout,
		ReadTimeout:       h.limits.HTTPReadTimeout,
		WriteTimeout:      h.limits.HTTPWriteTimeout,
		IdleTimeout:       h.limits.HTTPIdleTimeout,
		MaxHeaderBytes:    h.limits.MaxHeaderBytes,
		// net/http's own complaints (TLS handshakes, bad requests) go to
		// the service's structured log.
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if o.TLS != nil {
		s.http.TLSConfig = o.TLS.Clone()
	}
	return s
}

// newGRPCServer is the gRPC server with the codec service, health checks
// (serving) and reflection, its metrics, call logs, and panics turned
// into Internal errors.
func newGRPCServer(o Options, svc *Service, grpcMetrics *callMetrics, log *slog.Logger, h *hardening) (*grpc.Server, *health.Server) {
	ic := &interceptors{metrics: grpcMetrics, failures: newFailureLog(log, 10), recovered: func(p any) error {
		log.Error("panic in handler", "panic", p, "stack", string(debug.Stack()))
		return status.Error(codes.Internal, "internal error")
	}}
	var creds grpc.ServerOption = grpc.EmptyServerOption{}
	if o.TLS != nil {
		creds = grpc.Creds(credentials.NewTLS(o.TLS))
	}
	opts := append(h.guard.options(o.DrainTimeout),
		creds,
		// One message plus the request around it, or a stream batch of
		// many messages (gRPC's default of 4 MiB); each message in it is
		// still held to MaxMessageSize.
		grpc.MaxRecvMsgSize(max(o.Config.MaxMessageSize*2+4096, 4<<20)),
		// Reuse handler goroutines: many small messages are the normal
		// load of a transcoding sidecar.
		grpc.NumStreamWorkers(streamWorkers(h.limits.MaxCalls)),
		grpc.UnaryInterceptor(ic.unary),
		grpc.StreamInterceptor(ic.stream),
	)
	gs := grpc.NewServer(opts...)
	// The guard wraps each handler (see guard): RegisterCodecServiceServer
	// with the wrapped descriptions.
	gs.RegisterService(h.guard.wrapDesc(svc.codecServiceDesc()), svc)
	hs := health.NewServer()
	gs.RegisterService(h.guard.wrapDesc(&healthpb.Health_ServiceDesc), hs)
	hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	hs.SetServingStatus(pb.CodecService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	if !o.NoReflection {
		reflection.Register(gs)
	}
	grpcMetrics.init(gs)
	return gs, hs
}

// listen opens both listeners, or neither.
func listen(grpcAddr, httpAddr string) (gl, hl net.Listener, err error) {
	gl, err = net.Listen("tcp", grpcAddr)
	if err != nil {
		return nil, nil, fmt.Errorf("grpc listen: %w", err)
	}
	hl, err = net.Listen("tcp", httpAddr)
	if err != nil {
		gl.Close()
		return nil, nil, fmt.Errorf("http listen: %w", err)
	}
	return gl, hl, nil
}

// serve serves both listeners; the channel gets each server's error when
// it stops (nil for HTTP's normal close).
func (s *servers) serve(gl, hl net.Listener) <-chan error {
	errc := make(chan error, 2)
	go func() { errc <- s.grpc.Serve(gl) }()
	go func() {
		serve := s.http.Serve
		if s.tls {
			serve = func(l net.Listener) error { return s.http.ServeTLS(l, "", "") }
		}
		if err := serve(hl); !errors.Is(err, http.ErrServerClosed) {
			errc <- err
			return
		}
		errc <- nil
	}()
	return errc
}

// drain stops taking calls (/readyz and health checks say so first, so
// that a load balancer moves away; delay gives it time to look), ends the open streams after the
// message in hand and lets the calls in flight finish, within timeout;
// then it closes what is left, on both transports alike, and reports
// whether it had to. Either way the server has done what SIGTERM asks,
// so Run returns nil (exit status 0) and logs a warning when it cut
// calls off.
func (s *servers) drain(delay, timeout time.Duration) (cut bool) {
	s.serving.Store(false)
	s.health.Shutdown() // health checks now say NOT_SERVING
	time.Sleep(delay)
	s.guard.drain()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	done := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(done)
	}()
	if err := s.http.Shutdown(ctx); err != nil {
		cut = true
		_ = s.http.Close()
	}
	select {
	case <-done:
	case <-ctx.Done():
		cut = true
		s.grpc.Stop()
	}
	return cut
}

// streamWorkers is how many long-lived goroutines gRPC runs calls on.
// A call that finds none idle gets a goroutine of its own, whose stack
// the codec grows (copying it, several times) and which is then thrown
// away: with one worker a CPU, under load most calls did, and stack
// growth was a fifth of the server's CPU. Enough workers for the calls
// a busy server has under way at once keep their grown stacks instead
// (about 16-32 KiB each, shrunk again by the collector when idle).
func streamWorkers(maxCalls int) uint32 {
	return uint32(min(max(64, 16*runtime.GOMAXPROCS(0)), maxCalls))
}
