package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"megaco/internal/capture/pcapng"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"megaco/internal/codec"
	"megaco/internal/codec/limits"
	"megaco/internal/mapping/termid"
	"megaco/internal/proxy"
)

const proxyUsage = `usage: megaco proxy --mgc ADDR --mg ADDR [flags]

Carries Megaco traffic between a controller (MGC) and a gateway (MG),
transcoding between the codecs they speak (RFC 3525 Annex D: UDP, one
message per datagram; TCP with TPKT framing; one side may be UDP and the
other TCP). The MG is configured with --mg-listen as its controller, the
MGC with --mgc-listen as its gateway. ADDR is udp://host:port or
tcp://host:port; a side's listen and peer addresses use one transport.
The same codec on both sides relays the bytes unchanged.

A request that cannot be decoded or transcoded is answered to its sender,
in its codec, with an error descriptor (400, 403, 406, 430, 440, 449, 500);
a reply that cannot be is dropped. SIGTERM (or SIGINT): new requests are
dropped, new TCP connections refused, /readyz says 503; replies still flow
until no request awaits its reply or --drain-timeout passes; exit 0.

Everything (flags, environment, --names and --packages files) is read once
at start; SIGHUP reloads nothing (it is ignored): restart to change them.

flags (environment variable in parentheses):
`

func proxyCmd(args []string, stderr io.Writer) error {
	fs := newFlags("proxy", proxyUsage, stderr)
	mgcCodec := fs.String("mgc-codec", env("MEGACO_MGC_CODEC", "compact"), "codec the MGC speaks (MEGACO_MGC_CODEC)")
	mgcListen := fs.String("mgc-listen", env("MEGACO_MGC_LISTEN", "udp://:2944"), "where the proxy listens for the MGC (MEGACO_MGC_LISTEN)")
	mgc := fs.String("mgc", env("MEGACO_MGC", ""), "the MGC's address, required (MEGACO_MGC)")
	mgCodec := fs.String("mg-codec", env("MEGACO_MG_CODEC", "ber"), "codec the MG speaks (MEGACO_MG_CODEC)")
	mgListen := fs.String("mg-listen", env("MEGACO_MG_LISTEN", "udp://:2945"), "where the proxy listens for the MG (MEGACO_MG_LISTEN)")
	mg := fs.String("mg", env("MEGACO_MG", ""), "the MG's address, required (MEGACO_MG)")
	httpAddr := fs.String("http-addr", env("MEGACO_PROXY_HTTP_ADDR", ":9102"), "HTTP address for /metrics, /healthz, /readyz (MEGACO_PROXY_HTTP_ADDR)")
	pprofAddr := fs.String("pprof-addr", env("MEGACO_PPROF_ADDR", ""), "serve net/http/pprof on this address, e.g. 127.0.0.1:6061; off when empty (MEGACO_PPROF_ADDR)")
	drain := fs.String("drain-timeout", env("MEGACO_DRAIN_TIMEOUT", "10s"), "how long SIGTERM waits for replies to requests in flight (MEGACO_DRAIN_TIMEOUT)")
	remember := fs.String("remember", env("MEGACO_PROXY_REMEMBER", "60s"), "how long a transaction's route is kept after its request or last pending (MEGACO_PROXY_REMEMBER)")
	maxTx := fs.String("max-transactions", env("MEGACO_PROXY_MAX_TRANSACTIONS", "100000"), "routing table bound; past it the oldest entry goes (MEGACO_PROXY_MAX_TRANSACTIONS)")
	maxConns := fs.String("max-conns", env("MEGACO_PROXY_MAX_CONNS", "1024"), "TCP connections per side (MEGACO_PROXY_MAX_CONNS)")
	handshake := fs.String("handshake-timeout", env("MEGACO_PROXY_HANDSHAKE_TIMEOUT", "10s"), "an accepted TCP connection's first message must come within it (MEGACO_PROXY_HANDSHAKE_TIMEOUT)")
	idle := fs.String("idle-timeout", env("MEGACO_PROXY_IDLE_TIMEOUT", "30m"), "close a TCP connection pair silent both ways for so long (MEGACO_PROXY_IDLE_TIMEOUT)")
	writeTimeout := fs.String("write-timeout", env("MEGACO_PROXY_WRITE_TIMEOUT", "5s"), "TCP connect and write timeout; a peer that does not read is dropped (MEGACO_PROXY_WRITE_TIMEOUT)")
	version := fs.String("version", env("MEGACO_VERSION", "0"), "protocol version 1, 2 or 3 to force, 0 to read it from each message (MEGACO_VERSION)")
	profile := fs.String("profile", env("MEGACO_PROFILE", "otp"), "text<->binary profile, otp or rfc (MEGACO_PROFILE)")
	layout := fs.String("termid-layout", env("MEGACO_TERMID_LAYOUT", "8,8,8"), "termination ID level layout (MEGACO_TERMID_LAYOUT)")
	namesFile := fs.String("names", env("MEGACO_NAMES", ""), "names file: provisioned termination ID and digit map names (MEGACO_NAMES)")
	packagesFile := fs.String("packages", env("MEGACO_PACKAGES", ""), "private packages in the format of packages.tsv (MEGACO_PACKAGES)")
	maxSize := fs.String("max-message-size", env("MEGACO_MAX_MESSAGE_SIZE", "65536"), "largest message decoded, in bytes (MEGACO_MAX_MESSAGE_SIZE)")
	logLevel := fs.String("log-level", env("MEGACO_LOG_LEVEL", "info"), "debug (a line per message), info, warn or error (MEGACO_LOG_LEVEL)")
	logFormat := fs.String("log-format", env("MEGACO_LOG_FORMAT", "text"), "text or json (MEGACO_LOG_FORMAT)")
	captureFile := fs.String("capture", env("MEGACO_PROXY_CAPTURE", ""), "write every message in and out to this pcapng file (off by default; MEGACO_PROXY_CAPTURE)")
	captureMax := fs.String("capture-max-bytes", env("MEGACO_PROXY_CAPTURE_MAX_BYTES", "104857600"), "largest capture file; then FILE.1... (MEGACO_PROXY_CAPTURE_MAX_BYTES)")
	captureKeep := fs.String("capture-keep", env("MEGACO_PROXY_CAPTURE_KEEP", "3"), "rotated capture files kept; 0: stop capturing when full (MEGACO_PROXY_CAPTURE_KEEP)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	cfg, err := proxyConfig(proxyFlags{*mgcCodec, *mgcListen, *mgc, *mgCodec, *mgListen, *mg})
	if err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	durations := []struct {
		name, v string
		to      *time.Duration
	}{{"drain-timeout", *drain, new(time.Duration)}, {"remember", *remember, &cfg.Remember},
		{"handshake-timeout", *handshake, &cfg.HandshakeTimeout}, {"idle-timeout", *idle, &cfg.IdleTimeout},
		{"write-timeout", *writeTimeout, &cfg.WriteTimeout}}
	for _, d := range durations {
		if *d.to, err = time.ParseDuration(d.v); err != nil || *d.to < 0 {
			return fmt.Errorf("proxy: bad --%s %q", d.name, d.v)
		}
	}
	ints := []struct {
		name, v string
		to      *int
	}{{"max-transactions", *maxTx, &cfg.MaxTransactions}, {"max-conns", *maxConns, &cfg.MaxConns},
		{"version", *version, &cfg.Options.Version}, {"max-message-size", *maxSize, &cfg.Options.Limits.MaxSize}}
	cfg.Options.Limits = limits.Default
	for _, n := range ints {
		if *n.to, err = strconv.Atoi(n.v); err != nil || *n.to < 0 {
			return fmt.Errorf("proxy: bad --%s %q", n.name, n.v)
		}
	}
	if cfg.Options.Profile, err = codec.ParseProfile(*profile); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	if cfg.Options.Layout, err = termid.ParseLayout(*layout); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	if cfg.Options.Names, err = readNames(*namesFile, cfg.Options.Layout); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	if cfg.Options.Registry, err = readPackages(*packagesFile); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	if cfg.Log, err = newLogger(*logLevel, *logFormat, stderr); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	if *captureFile != "" {
		w, err := openCapture(*captureFile, *captureMax, *captureKeep)
		if err != nil {
			return fmt.Errorf("proxy: %w", err)
		}
		log := cfg.Log
		rec := pcapng.NewRecorder(w, pcapng.RecorderOptions{OnError: func(err error) { log.Warn("capture failed", "err", err) }})
		defer rec.Close()
		cfg.Capture = rec
	}
	signal.Ignore(syscall.SIGHUP) // nothing is reloaded; say so by not dying
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	return proxy.Run(ctx, proxy.RunOptions{Config: cfg, HTTPAddr: *httpAddr, DrainTimeout: *durations[0].to, PprofAddr: *pprofAddr})
}

// openCapture creates the --capture file, bounded in size.
func openCapture(path, maxBytes, keep string) (*pcapng.Writer, error) {
	max, err := strconv.ParseInt(maxBytes, 10, 64)
	if err != nil || max < 0 {
		return nil, fmt.Errorf("bad --capture-max-bytes %q", maxBytes)
	}
	k, err := strconv.Atoi(keep)
	if err != nil || k < 0 {
		return nil, fmt.Errorf("bad --capture-keep %q", keep)
	}
	return pcapng.Create(path, pcapng.Options{MaxBytes: max, Keep: k})
}

type proxyFlags struct{ mgcCodec, mgcListen, mgc, mgCodec, mgListen, mg string }

// proxyConfig reads the two sides' codecs and addresses.
func proxyConfig(f proxyFlags) (proxy.Config, error) {
	var cfg proxy.Config
	if f.mgc == "" || f.mg == "" {
		return cfg, fmt.Errorf("--mgc and --mg are required (the MGC's and the MG's addresses)")
	}
	sides := []struct {
		codec, listen, peer string
		to                  *proxy.SideConfig
	}{{f.mgcCodec, f.mgcListen, f.mgc, &cfg.MGC}, {f.mgCodec, f.mgListen, f.mg, &cfg.MG}}
	for _, s := range sides {
		var err error
		s.to.Codec = s.codec
		if s.to.Listen, err = proxy.ParseAddr(s.listen); err != nil {
			return cfg, err
		}
		if s.to.Peer, err = proxy.ParseAddr(s.peer); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// newLogger is a slog logger at a level, in text or JSON.
func newLogger(level, format string, w io.Writer) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("bad log level %q", level)
	}
	opts := &slog.HandlerOptions{Level: l}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("bad log format %q (text or json)", format)
}
