package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

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

With --transport udp or tcp the generator plays both peers instead,
on real sockets, through a running megaco proxy: its MGC side sends from
--mgc-listen to --mgc-target (the proxy's --mgc-listen), its MG side from
--mg-listen to --mg-target (the proxy's --mg-listen); start the proxy with
--mgc at the generator's --mgc-listen and --mg at its --mg-listen. Each
message that arrives is compared with the expected bytes and decoded; the
receiving side answers each request with the flow's reply. Over UDP
unanswered requests are retransmitted (RFC 3525 D.1.3: the timer starts
at --retransmit-initial and doubles up to --retransmit-max); --timeout
bounds each transaction (then it is lost).

With --pcap FILE the generator replays a capture's Megaco messages
instead of the call flow, at their times in the capture (relative to the
first) or, when -r is given, at -r calls per -rp in capture order.
Through the service (gRPC) each message is one call, transcoded from its
detected codec to the other side's (text to --mg-codec, binary to
--mgc-codec). Through the proxy (--transport udp|tcp) each captured
request is one call: the side that sent it in the capture sends it in
that side's codec (the MGC side's is the address --pcap-mgc names, else
the address whose requests are Add, Modify, Subtract, Move or audits, or
whose replies answer Notify), the other side receives it and answers with
the reply captured for that transaction (transcoded) or, if there is
none, a plain reply (each command with its termination IDs), after the
pending captured for it if there is one; an acknowledgement is sent on
its own; replies and pendings to no captured request and retransmitted
requests are skipped. Each output is compared with this program's own
transcoding. Messages that do not transcode here
(a name with no binary form, say) are skipped with a note; the report
counts per message type as for the call flow.

Times take a unit: -rp 1s, -d 100ms, --timeout 2s (SIPp's plain
milliseconds are refused, not guessed).

flags:
`

func loadCmd(args []string, stdout, stderr io.Writer) error {
	fs, a := newLoadFlags(stderr)
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if err := a.configure(stderr); err != nil {
		return err
	}
	if err := a.replay.load(fs, &a.cfg, os.Stdin, stderr); err != nil {
		return err
	}
	if a.statFile != "" {
		f, err := os.Create(a.statFile)
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		defer f.Close()
		a.cfg.Stat = f
	}
	if a.metricsAddr != "" {
		stop, err := serveLoadMetrics(&a.cfg, a.metricsAddr, stderr)
		if err != nil {
			return err
		}
		defer stop()
	}
	return runLoad(a.cfg, stdout)
}

// loadArgs are megaco load's flags: the run's Config, and the flags that
// make parts of it.
type loadArgs struct {
	cfg                             load.Config
	statFile, metricsAddr, check    string
	quiet, findMax                  bool
	p99                             time.Duration
	minCalls                        int
	tlsCA, tlsCert, tlsKey, tlsName string
	transport                       string
	wire                            load.Wire
	replay                          replayArgs
}

// newLoadFlags defines megaco load's flags (SIPp's names where SIPp has
// the option) with their defaults.
func newLoadFlags(stderr io.Writer) (*flagSet, *loadArgs) {
	fs := newFlags("load", loadUsage, stderr)
	a := &loadArgs{p99: 10 * time.Millisecond, minCalls: 500, transport: "grpc", check: "full", wire: load.Wire{
		MGCTarget: "127.0.0.1:2944", MGTarget: "127.0.0.1:2945", MGCListen: "127.0.0.1:3944", MGListen: "127.0.0.1:3945",
		RetransmitInitial: 250 * time.Millisecond, RetransmitMax: 4 * time.Second,
	}, cfg: load.Config{
		Targets: []string{"127.0.0.1:50051"}, Mode: "unary", Streams: 4,
		Ramp:    load.Ramp{Rate: 10, Period: time.Second, Interval: 5 * time.Second},
		Timeout: 2 * time.Second, StatPeriod: 10 * time.Second, Codecs: load.DefaultCodecs,
	}}
	cfg, one, many := &a.cfg, time.Millisecond, int64(math.MaxInt32)
	fs.Var(floatOf(&cfg.Ramp.Rate, 0, math.MaxFloat64), "r", "", "call rate: calls per -rp period (with --find-max: the starting rate)")
	fs.Var(durationOf(&cfg.Ramp.Period, one), "rp", "", "rate period (-r 7 -rp 2s: 3.5 calls per second)")
	fs.Var(countOf(&cfg.Limit, 0, many), "l", "", "most calls in progress; more wait (0: 3 x rate x (hold + 1s), at least 100)")
	fs.Var(durationOf(&cfg.Hold, 0), "d", "", "call hold: time between the answer and the hang-up")
	fs.Var(countOf(&cfg.MaxCalls, 0, math.MaxInt64), "m", "", "stop after this many calls (0: no bound)")
	fs.Var(durationOf(&cfg.Duration, 0), "duration", "", "stop starting calls after this long (0: no bound)")
	fs.Var(floatOf(&cfg.Ramp.Step, 0, math.MaxFloat64), "rate-step", "", "add this to the rate every --rate-interval (with --find-max: grow linearly instead of doubling)")
	fs.Var(floatOf(&cfg.Ramp.Max, 0, math.MaxFloat64), "rate-max", "", "highest rate of the ramp (0: no bound)")
	fs.Var(durationOf(&cfg.Ramp.Interval, one), "rate-interval", "", "ramp step interval; with --find-max, the time at each level")
	fs.Var(listOf(&cfg.Targets, "host:port", checkHostPort), "target", "", "service gRPC address; repeat (or comma-separate) for several: calls go round-robin")
	fs.Var(choiceOf(&cfg.Mode, "unary", "stream"), "mode", "", "unary (a Transcode call per message) or stream (TranscodeStream)")
	fs.Var(countOf(&cfg.Streams, 1, many), "streams", "", "with --mode stream: streams per target")
	fs.Var(codecOf(&cfg.Codecs.MGC), "mgc-codec", "", "codec of the MGC's messages")
	fs.Var(codecOf(&cfg.Codecs.MG), "mg-codec", "", "codec of the gateways' messages")
	fs.Var(durationOf(&cfg.Timeout, one), "timeout", "", "timeout of each message")
	fs.Var(choiceOf(&a.check, "full", "bytes"), "check", "", "check of each output: full (bytes and decode) or bytes")
	fs.Var(textOf(&a.statFile, "file"), "stat-file", "", "write the periodic statistics CSV to this file")
	fs.Var(durationOf(&cfg.StatPeriod, time.Second), "stat-period", "", "period of the CSV rows (whole seconds)")
	fs.Var(boolOf(&cfg.Failover), "failover", "", "with several targets, send a message that failed on transport to the next target (the call moves there)")
	fs.Var(floatOf(&cfg.MaxFailed, 0, 1), "max-failed", "", "largest failed-call ratio (failed / (ok + failed)) for exit status 0")
	fs.Var(optionalAddrOf(&a.metricsAddr), "metrics-addr", "", "serve the generator's Prometheus metrics on this address (/metrics)")
	fs.Var(boolOf(&a.findMax), "find-max", "", "search for the highest sustained call rate: double the rate each --rate-interval until a level fails (p99 over --find-max-p99, a failed call, or the rate not kept, twice in a row), then bisect")
	fs.Var(durationOf(&a.p99, one), "find-max-p99", "", "with --find-max: the p99 response-time bound")
	fs.Var(countOf(&a.minCalls, 1, many), "find-max-min-calls", "", "with --find-max: p99 over the bound across at least this many calls fails a level at once; over fewer, or for another reason, it fails only if its second try fails too")
	fs.Var(boolOf(&a.quiet), "q", "", "no line every second")
	fs.Var(countOf(&a.cfg.WatchPID, 0, math.MaxInt32), "watch-pid", "", "report this process's (the proxy's) CPU time, context switches and system calls per message, from /proc and perf stat (Linux)")
	fs.Var(textOf(&a.tlsCA, "file"), "tls-ca", "", "connect over TLS, trusting the PEM CA certificates in this file")
	fs.Var(textOf(&a.tlsCert, "file"), "tls-cert", "", "with --tls-ca: PEM client certificate, for a service that requires one")
	fs.Var(textOf(&a.tlsKey, "file"), "tls-key", "", "with --tls-cert: its PEM private key")
	fs.Var(textOf(&a.tlsName, "name"), "tls-server-name", "", "with --tls-ca: the name to check in the service's certificate (default: the target's host)")
	fs.Var(choiceOf(&a.transport, "grpc", "udp", "tcp"), "transport", "", "grpc (the codec service at --target), or udp or tcp: both peers through a megaco proxy")
	fs.Var(wireAddrOf(&a.wire.MGCTarget), "mgc-target", "", "with --transport udp|tcp: the proxy's MGC-side address (its --mgc-listen)")
	fs.Var(wireAddrOf(&a.wire.MGTarget), "mg-target", "", "with --transport udp|tcp: the proxy's MG-side address (its --mg-listen)")
	fs.Var(wireAddrOf(&a.wire.MGCListen), "mgc-listen", "", "with --transport udp|tcp: the generator's MGC socket (the proxy's --mgc)")
	fs.Var(wireAddrOf(&a.wire.MGListen), "mg-listen", "", "with --transport udp|tcp: the generator's MG socket (the proxy's --mg)")
	fs.Var(durationOf(&a.wire.RetransmitInitial, one), "retransmit-initial", "", "with --transport udp: first retransmission timer of a request (doubles each time)")
	fs.Var(durationOf(&a.wire.RetransmitMax, one), "retransmit-max", "", "with --transport udp: largest retransmission timer")
	fs.Var(durationOf(&a.wire.AnswerDelay, 0), "answer-delay", "", "with --transport udp|tcp: how long the receiving side waits before it answers a request (a slow peer)")
	a.replay.define(fs)
	return fs, a
}

// configure completes the Config from the flags: the output check, the
// wire addresses, TLS, find-max and where the lines go. Usage errors are
// said on stderr.
func (a *loadArgs) configure(stderr io.Writer) error {
	a.cfg.DecodeOutput = a.check == "full"
	if a.transport != "grpc" {
		a.wire.Network = a.transport
		a.cfg.Wire = &a.wire
		for _, addr := range []*string{&a.wire.MGCTarget, &a.wire.MGTarget, &a.wire.MGCListen, &a.wire.MGListen} {
			if err := stripScheme(addr, a.transport); err != nil {
				fmt.Fprintf(stderr, "load: %v\n", err)
				return errUsage
			}
		}
	}
	if err := a.setTLS(stderr); err != nil {
		return err
	}
	if a.findMax {
		a.cfg.FindMax = &load.FindMax{P99: a.p99, Interval: a.cfg.Ramp.Interval, MinCalls: a.minCalls}
	}
	if !a.quiet {
		a.cfg.Live = stderr
	}
	a.cfg.Log = stderr
	return nil
}

// wireAddrOf is an address of the generator's wire mode: host:port, or
// the proxy's form udp://host:port (the scheme is checked against
// --transport later).
func wireAddrOf(p *string) *textValue {
	return checkedOf(p, "[udp|tcp://]host:port", func(s string) error {
		if _, rest, ok := strings.Cut(s, "://"); ok {
			s = rest
		}
		return checkHostPort(s)
	})
}

// stripScheme takes the proxy's form of an address (udp://host:port) as
// well as host:port; the scheme must be the transport's.
func stripScheme(addr *string, transport string) error {
	scheme, rest, ok := strings.Cut(*addr, "://")
	if !ok {
		return nil
	}
	if scheme != transport {
		return fmt.Errorf("address %s with --transport %s", *addr, transport)
	}
	*addr = rest
	return nil
}

// setTLS makes the client's TLS configuration from the --tls-* flags.
func (a *loadArgs) setTLS(stderr io.Writer) error {
	if a.tlsCA == "" && a.tlsCert == "" && a.tlsKey == "" && a.tlsName == "" {
		return nil
	}
	if a.tlsCA == "" {
		fmt.Fprintln(stderr, "load: the --tls-* options need --tls-ca")
		return errUsage
	}
	var err error
	if a.cfg.TLS, err = tlsconfig.Client(a.tlsCA, a.tlsCert, a.tlsKey, a.tlsName); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	return nil
}

// serveLoadMetrics registers the generator's metrics, with Go's and the
// process's, in cfg and serves them on addr for the length of the run.
func serveLoadMetrics(cfg *load.Config, addr string, stderr io.Writer) (stop func(), err error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	cfg.Metrics = reg
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("load: metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	fmt.Fprintf(stderr, "load: metrics on http://%s/metrics\n", l.Addr())
	return func() { srv.Close() }, nil
}

// runLoad runs until the bounds or SIGINT/SIGTERM (which abort the calls
// in progress), prints the summary, and fails when the failed-call ratio
// exceeds --max-failed or, with --find-max, when no level passed.
func runLoad(cfg load.Config, stdout io.Writer) error {
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
