package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"megaco/internal/codec"
	"megaco/internal/load"
	"megaco/internal/tlsconfig"
)

const loadUsage = `usage: megaco load [flags]

Replays the RFC 3525 call flow (Appendix I A.1: 28 messages, registration
to hang-up) through the codec service at a chosen call rate, as a sidecar
would use it, SIPp-style. The MGC's messages are transcoded from the MGC's
codec to the gateways' and the gateways' the other way; each output is
compared with the expected bytes and decoded. Each call has its own
transaction, context and termination IDs.

A line every second on stderr, a summary on stdout, a CSV every
--stat-period with --stat-file. The exit status is 1 when the failed-call
ratio exceeds --max-failed (with --find-max: when no level passed).
SIGINT stops the run: the calls in progress are aborted and the summary
tells what ran.

Times: a plain number is milliseconds (as SIPp's), or give a unit (2s).

flags:
`

// msDuration is a duration flag that takes SIPp's plain milliseconds too.
type msDuration struct{ d *time.Duration }

func (m msDuration) String() string {
	if m.d == nil {
		return "0s"
	}
	return m.d.String()
}

func (m msDuration) Set(s string) error {
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		*m.d = time.Duration(n * float64(time.Millisecond))
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("want milliseconds or a duration such as 2s")
	}
	*m.d = d
	return nil
}

// listFlag collects repeated (or comma-separated) values.
type listFlag struct {
	vals *[]string
	set  bool
}

func (l *listFlag) String() string {
	if l.vals == nil {
		return ""
	}
	return strings.Join(*l.vals, ",")
}

func (l *listFlag) Set(s string) error {
	if !l.set {
		*l.vals, l.set = nil, true
	}
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l.vals = append(*l.vals, v)
		}
	}
	return nil
}

func loadCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), loadUsage)
		fs.PrintDefaults()
	}
	cfg := load.Config{
		Targets: []string{"127.0.0.1:9090"}, Mode: "unary", Streams: 4,
		Ramp:    load.Ramp{Rate: 10, Period: time.Second, Interval: 5 * time.Second},
		Timeout: 2 * time.Second, StatPeriod: 10 * time.Second,
	}
	var statFile, metricsAddr, check string
	var quiet, findMax bool
	p99 := 10 * time.Millisecond
	fs.Float64Var(&cfg.Ramp.Rate, "r", cfg.Ramp.Rate, "call rate: calls per -rp period (with --find-max: the starting rate)")
	fs.Var(msDuration{&cfg.Ramp.Period}, "rp", "rate period (-r 7 -rp 2000: 3.5 calls per second)")
	fs.IntVar(&cfg.Limit, "l", 0, "most calls in progress; more wait (0: 3 x rate x (hold + 1s), at least 100)")
	fs.Var(msDuration{&cfg.Hold}, "d", "call hold: time between the answer and the hang-up")
	fs.Int64Var(&cfg.MaxCalls, "m", 0, "stop after this many calls (0: no bound)")
	fs.DurationVar(&cfg.Duration, "duration", 0, "stop starting calls after this long (0: no bound)")
	fs.Float64Var(&cfg.Ramp.Step, "rate-step", 0, "add this to the rate every --rate-interval (with --find-max: grow linearly instead of doubling)")
	fs.Float64Var(&cfg.Ramp.Max, "rate-max", 0, "highest rate of the ramp (0: no bound)")
	fs.Var(msDuration{&cfg.Ramp.Interval}, "rate-interval", "ramp step interval; with --find-max, the time at each level")
	fs.Var(&listFlag{vals: &cfg.Targets}, "target", "service gRPC address; repeat (or comma-separate) for several: calls go round-robin")
	fs.StringVar(&cfg.Mode, "mode", cfg.Mode, "unary (a Transcode call per message) or stream (TranscodeStream)")
	fs.IntVar(&cfg.Streams, "streams", cfg.Streams, "with --mode stream: streams per target")
	fs.StringVar(&cfg.Codecs.MGC, "mgc-codec", "", "codec of the MGC's messages (default compact; per while the text codec is not registered)")
	fs.StringVar(&cfg.Codecs.MG, "mg-codec", "", "codec of the gateways' messages (default ber)")
	fs.Var(msDuration{&cfg.Timeout}, "timeout", "timeout of each message")
	fs.StringVar(&check, "check", "full", "check of each output: full (bytes and decode) or bytes")
	fs.StringVar(&statFile, "stat-file", "", "write the periodic statistics CSV to this file")
	fs.Var(msDuration{&cfg.StatPeriod}, "stat-period", "period of the CSV rows (whole seconds)")
	fs.Float64Var(&cfg.MaxFailed, "max-failed", 0, "largest failed-call ratio (failed / (ok + failed)) for exit status 0")
	fs.StringVar(&metricsAddr, "metrics-addr", "", "serve the generator's Prometheus metrics on this address (/metrics)")
	fs.BoolVar(&findMax, "find-max", false, "search for the highest sustained call rate: double the rate each --rate-interval until p99 exceeds --find-max-p99 or a call fails, then bisect")
	fs.Var(msDuration{&p99}, "find-max-p99", "with --find-max: the p99 response-time bound")
	fs.BoolVar(&quiet, "q", false, "no line every second")
	var tlsCA, tlsCert, tlsKey, tlsName string
	fs.StringVar(&tlsCA, "tls-ca", "", "connect over TLS, trusting the PEM CA certificates in this file")
	fs.StringVar(&tlsCert, "tls-cert", "", "with --tls-ca: PEM client certificate, for a service that requires one")
	fs.StringVar(&tlsKey, "tls-key", "", "with --tls-cert: its PEM private key")
	fs.StringVar(&tlsName, "tls-server-name", "", "with --tls-ca: the name to check in the service's certificate (default: the target's host)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "load: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	switch check {
	case "full":
		cfg.DecodeOutput = true
	case "bytes":
	default:
		fmt.Fprintf(stderr, "load: --check %q: want full or bytes\n", check)
		return errUsage
	}
	if cfg.MaxFailed < 0 || cfg.MaxFailed > 1 {
		fmt.Fprintln(stderr, "load: --max-failed is a ratio, 0 to 1")
		return errUsage
	}
	def, note := load.DefaultCodecs()
	if cfg.Codecs.MGC == "" {
		cfg.Codecs.MGC = def.MGC
		if note != "" {
			fmt.Fprintln(stderr, "load: note:", note)
		}
	}
	if cfg.Codecs.MG == "" {
		cfg.Codecs.MG = def.MG
	}
	for _, c := range []string{cfg.Codecs.MGC, cfg.Codecs.MG} {
		if _, err := codec.Lookup(c, codec.Options{}); err != nil {
			return fmt.Errorf("load: %w", err)
		}
	}
	if tlsCA != "" || tlsCert != "" || tlsKey != "" || tlsName != "" {
		if tlsCA == "" {
			fmt.Fprintln(stderr, "load: the --tls-* options need --tls-ca")
			return errUsage
		}
		var err error
		if cfg.TLS, err = tlsconfig.Client(tlsCA, tlsCert, tlsKey, tlsName); err != nil {
			return fmt.Errorf("load: %w", err)
		}
	}
	if findMax {
		cfg.FindMax = &load.FindMax{P99: p99, Interval: cfg.Ramp.Interval}
	}
	if !quiet {
		cfg.Live = stderr
	}
	cfg.Log = stderr
	if statFile != "" {
		f, err := os.Create(statFile)
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		defer f.Close()
		cfg.Stat = f
	}
	if metricsAddr != "" {
		reg := prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		cfg.Metrics = reg
		l, err := net.Listen("tcp", metricsAddr)
		if err != nil {
			return fmt.Errorf("load: metrics: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(l) }()
		defer srv.Close()
		fmt.Fprintf(stderr, "load: metrics on http://%s/metrics\n", l.Addr())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := load.Run(ctx, cfg)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	res.WriteSummary(stdout)
	switch {
	case res.Failed() && res.FindMax != nil:
		return errors.New("load: find-max: no level passed")
	case res.Failed():
		return fmt.Errorf("load: failed-call ratio %.4f exceeds --max-failed %g", res.FailedRatio(), cfg.MaxFailed)
	}
	return nil
}
