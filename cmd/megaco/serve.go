package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"megaco/internal/codec"
	"megaco/internal/logging"
	"megaco/internal/mapping/termid"
	"megaco/internal/server"
	"megaco/internal/tlsconfig"
)

// env returns the environment variable's value, or def.
func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

const serveUsage = `usage: megaco serve [flags]

Runs the codec service: gRPC (CodecService, health, reflection) and HTTP
(/v1/transcode, /v1/decode, /metrics, /healthz, /readyz), on its embedded
defaults without any flag. Every flag has an environment variable. SIGTERM
drains and exits.

Example:
  megaco serve --grpc-addr 127.0.0.1:9090 --http-addr 127.0.0.1:8080

flags:
`

func serve(args []string, stderr io.Writer) error {
	fs := newFlags("serve", serveUsage, stderr)
	def := server.DefaultConfig()
	grpcAddr := fs.String("grpc-addr", env("MEGACO_GRPC_ADDR", ":9090"), "gRPC listen address (MEGACO_GRPC_ADDR)")
	httpAddr := fs.String("http-addr", env("MEGACO_HTTP_ADDR", ":8080"), "HTTP listen address for /v1, /metrics, /healthz, /readyz (MEGACO_HTTP_ADDR)")
	maxSize := fs.String("max-message-size", env("MEGACO_MAX_MESSAGE_SIZE", strconv.Itoa(def.MaxMessageSize)), "largest message accepted, in bytes (MEGACO_MAX_MESSAGE_SIZE)")
	profile := fs.String("profile", env("MEGACO_PROFILE", "otp"), "default text<->binary profile, otp or rfc (MEGACO_PROFILE)")
	layout := fs.String("termid-layout", env("MEGACO_TERMID_LAYOUT", "8,8,8"), "termination ID level layout (MEGACO_TERMID_LAYOUT)")
	namesFile := fs.String("names", env("MEGACO_NAMES", ""), "names file: provisioned termination ID and digit map names (MEGACO_NAMES)")
	packagesFile := fs.String("packages", env("MEGACO_PACKAGES", ""), "private packages: rows in the format of packages.tsv, added to the embedded ones (MEGACO_PACKAGES)")
	tlsCert := fs.String("tls-cert", env("MEGACO_TLS_CERT", ""), "PEM certificate chain: serve gRPC and HTTP over TLS (MEGACO_TLS_CERT)")
	tlsKey := fs.String("tls-key", env("MEGACO_TLS_KEY", ""), "PEM private key of --tls-cert (MEGACO_TLS_KEY)")
	tlsClientCA := fs.String("tls-client-ca", env("MEGACO_TLS_CLIENT_CA", ""), "PEM CA certificates: require client certificates they sign, mutual TLS (MEGACO_TLS_CLIENT_CA)")
	logLevel := fs.String("log-level", env("MEGACO_LOG_LEVEL", "info"), "debug, info, warn or error (MEGACO_LOG_LEVEL)")
	logFormat := fs.String("log-format", env("MEGACO_LOG_FORMAT", "text"), "text or json (MEGACO_LOG_FORMAT)")
	pprofAddr := fs.String("pprof-addr", env("MEGACO_PPROF_ADDR", ""), "serve net/http/pprof on this address, e.g. 127.0.0.1:6060; off when empty (MEGACO_PPROF_ADDR)")
	drain := fs.String("drain-timeout", env("MEGACO_DRAIN_TIMEOUT", "10s"), "how long SIGTERM waits for calls in flight (MEGACO_DRAIN_TIMEOUT)")
	gcDefault := strconv.Itoa(server.DefaultGCPercent)
	if _, set := os.LookupEnv("GOGC"); set {
		gcDefault = "0" // GOGC rules
	}
	gcPercent := fs.String("gc-percent", env("MEGACO_GC_PERCENT", gcDefault), "garbage collector target as GOGC, 0 to leave GOGC's (MEGACO_GC_PERCENT; default 0 when GOGC is set)")
	hardening := addHardeningFlags(fs)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	cfg := def
	var err error
	if cfg.MaxMessageSize, err = strconv.Atoi(*maxSize); err != nil || cfg.MaxMessageSize <= 0 {
		return fmt.Errorf("serve: bad max message size %q", *maxSize)
	}
	if cfg.Profile, err = codec.ParseProfile(*profile); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if cfg.Layout, err = termid.ParseLayout(*layout); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	gc, err := strconv.Atoi(*gcPercent)
	if err != nil || gc < 0 {
		return fmt.Errorf("serve: bad gc percent %q (want 0 or more)", *gcPercent)
	}
	if cfg.Names, err = readNames(*namesFile, cfg.Layout); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if cfg.Registry, err = readPackages(*packagesFile); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	tlsCfg, err := tlsconfig.Server(*tlsCert, *tlsKey, *tlsClientCA)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	drainTimeout, err := time.ParseDuration(*drain)
	if err != nil {
		return fmt.Errorf("serve: bad drain timeout: %w", err)
	}
	log, err := logging.New(*logLevel, *logFormat, stderr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	opts := server.Options{
		GRPCAddr: *grpcAddr, HTTPAddr: *httpAddr, Config: cfg,
		DrainTimeout: drainTimeout, Log: log, GCPercent: gc, TLS: tlsCfg,
		PprofAddr: *pprofAddr,
	}
	if err := hardening.apply(&opts); err != nil {
		return err
	}
	return server.Run(ctx, opts)
}
