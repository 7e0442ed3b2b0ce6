package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"syscall"
	"time"

	"megaco/internal/server"
	"megaco/internal/tlsconfig"
)

const serveUsage = `usage: megaco serve [flags]

Runs the codec service: gRPC (CodecService, health, reflection) and HTTP
(/v1/transcode, /v1/decode, /metrics, /healthz, /readyz), on its embedded
defaults without any flag. Every flag has an environment variable. SIGTERM
drains and exits.

Example:
  megaco serve --grpc-addr 127.0.0.1:50051 --http-addr 127.0.0.1:8080

flags:
`

func serve(args []string, stderr io.Writer) error {
	fs := newFlags("serve", serveUsage, stderr)
	o := server.Options{GRPCAddr: ":50051", HTTPAddr: ":8080", Config: server.DefaultConfig(),
		DrainTimeout: 10 * time.Second, GCPercent: server.DefaultGCPercent, Limits: server.DefaultLimits()}
	m, lg, reflection := newMappingArgs(), logArgs{level: "info", format: "text"}, true
	var tlsCert, tlsKey, tlsClientCA string
	fs.Var(addrOf(&o.GRPCAddr), "grpc-addr", "MEGACO_GRPC_ADDR", "gRPC listen address")
	fs.Var(addrOf(&o.HTTPAddr), "http-addr", "MEGACO_HTTP_ADDR", "HTTP listen address for /v1, /metrics, /healthz, /readyz")
	fs.Var(sizeOf(&o.Config.MaxMessageSize, 1), "max-message-size", "MEGACO_MAX_MESSAGE_SIZE", "largest message accepted")
	m.define(fs, true)
	fs.Var(textOf(&tlsCert, "file"), "tls-cert", "MEGACO_TLS_CERT", "PEM certificate chain: serve gRPC and HTTP over TLS")
	fs.Var(textOf(&tlsKey, "file"), "tls-key", "MEGACO_TLS_KEY", "PEM private key of --tls-cert")
	fs.Var(textOf(&tlsClientCA, "file"), "tls-client-ca", "MEGACO_TLS_CLIENT_CA", "PEM CA certificates: require client certificates they sign, mutual TLS")
	lg.define(fs, "log level")
	fs.Var(optionalAddrOf(&o.PprofAddr), "pprof-addr", "MEGACO_PPROF_ADDR", "serve net/http/pprof on this address, e.g. 127.0.0.1:6060; off when empty")
	fs.Var(durationOf(&o.DrainTimeout, 0), "drain-timeout", "MEGACO_DRAIN_TIMEOUT", "how long SIGTERM waits for calls in flight")
	fs.Var(countOf(&o.GCPercent, 0, math.MaxInt), "gc-percent", "MEGACO_GC_PERCENT", "garbage collector target as GOGC, 0 to leave GOGC's (0 when GOGC is set)")
	addLimitFlags(fs, &o.Limits)
	fs.Var(sizeOf(&o.MemoryLimit, 1).or("auto"), "memory-limit", "MEGACO_MEMORY_LIMIT",
		"Go soft memory limit, or auto: 90% of the container's memory limit, if any; GOMEMLIMIT, when set, rules")
	fs.Var(boolOf(&reflection), "reflection", "MEGACO_REFLECTION", "serve the gRPC reflection service")
	fs.Var(durationOf(&o.DrainDelay, 0), "drain-delay", "MEGACO_DRAIN_DELAY", "after SIGTERM, keep serving this long with /readyz false before draining, for load balancers")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if _, set := os.LookupEnv("GOGC"); set && !fs.given("gc-percent") {
		o.GCPercent = 0 // GOGC rules
	}
	o.NoReflection = !reflection
	var err error
	if o.Config.Profile, o.Config.Layout, o.Config.Names, o.Config.Registry, err = m.read(); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if o.TLS, err = tlsconfig.Server(tlsCert, tlsKey, tlsClientCA); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if o.Log, err = lg.logger(stderr); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	return server.Run(ctx, o)
}
