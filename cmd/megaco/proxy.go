package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"megaco/internal/capture/pcapng"
	"megaco/internal/codec"
	"megaco/internal/codec/limits"
	"megaco/internal/logging"
	"megaco/internal/proxy"
)

const proxyUsage = `usage: megaco proxy --mgc ADDR --mg ADDR [flags]

Carries Megaco traffic between a controller (MGC) and a gateway (MG),
transcoding between the codecs they speak (RFC 3525 Annex D: UDP, one
message per datagram; TCP with TPKT framing; one side may be UDP and the
other TCP). The MG is configured with --mg-listen as its controller, the
MGC with --mgc-listen as its gateway. ADDR is udp://host:port or
tcp://host:port; a side's listen and peer addresses use one transport.
The same codec on both sides relays the bytes, the mId aside.

The proxy presents itself to each side as the other side's peer: the mId
of every message, and the ServiceChangeAddress and MgcId of ServiceChanges,
name the proxy's own address on the side they go to (--identity=off
passes them on). --mgc may list several MGCs, primary first: the proxy
moves to the next when the one in use leaves the MG's ServiceChange
unanswered or refuses or resets its TCP connection, and follows handoffs
(docs/softswitch.md).

Each side takes traffic only from its peer's host (--mgc, --mg; any port)
and the sources of --mgc-allow, --mg-allow; the rest is dropped and counted.
A request that cannot be decoded or transcoded is answered to its sender,
in its codec, with an error descriptor (403, 406, 430, 440, 449, 500),
within a rate per source and a size bound; what shows no request (a reply,
an error, garbage) is dropped unanswered. SIGTERM (or SIGINT): new requests are
dropped, new TCP connections refused, /readyz says 503; replies still flow
until no request awaits its reply or --drain-timeout passes; exit 0.

Everything (flags, environment, --names and --packages files) is read once
at start; SIGHUP reloads nothing (it is ignored): restart to change them.

flags:
`

func proxyCmd(args []string, stderr io.Writer) error {
	fs := newFlags("proxy", proxyUsage, stderr)
	lim := limits.Default
	lim.MaxSize = 64 << 10
	cfg := proxy.Config{Remember: time.Minute, MaxTransactions: 100000, MaxConns: 1024,
		HandshakeTimeout: 10 * time.Second, IdleTimeout: 30 * time.Minute, WriteTimeout: 5 * time.Second,
		Options: codec.Options{Limits: lim}}
	sides := proxySides{mgcCodec: "compact", mgcListen: "udp://:2944", mgCodec: "ber", mgListen: "udp://:2945"}
	run := proxy.RunOptions{HTTPAddr: ":9102", DrainTimeout: 10 * time.Second}
	m, lg := newMappingArgs(), logArgs{level: "info", format: "text"}
	capture := captureArgs{maxBytes: 100 << 20, keep: 3}
	fs.Var(codecOf(&sides.mgcCodec), "mgc-codec", "MEGACO_MGC_CODEC", "codec the MGC speaks")
	fs.Var(proxyAddrOf(&sides.mgcListen), "mgc-listen", "MEGACO_MGC_LISTEN", "where the proxy listens for the MGC")
	fs.Var(checkedOf(&sides.mgc, "udp|tcp://host:port,...", checkProxyAddrs), "mgc", "MEGACO_MGC", "the MGC's address, required; or a comma-separated list, primary first: the proxy moves to the next when the one in use does not answer, and follows handoffs")
	fs.Var(codecOf(&sides.mgCodec), "mg-codec", "MEGACO_MG_CODEC", "codec the MG speaks")
	fs.Var(proxyAddrOf(&sides.mgListen), "mg-listen", "MEGACO_MG_LISTEN", "where the proxy listens for the MG")
	fs.Var(proxyAddrOf(&sides.mg), "mg", "MEGACO_MG", "the MG's address, required")
	var mgcAllow, mgAllow []string
	fs.Var(listOf(&mgcAllow, "cidr", checkAllow), "mgc-allow", "MEGACO_PROXY_MGC_ALLOW", "more sources the MGC side takes traffic from besides --mgc's host: CIDRs or IPs")
	fs.Var(listOf(&mgAllow, "cidr", checkAllow), "mg-allow", "MEGACO_PROXY_MG_ALLOW", "more sources the MG side takes traffic from besides --mg's host: CIDRs or IPs")
	fs.Var(addrOf(&run.HTTPAddr), "http-addr", "MEGACO_PROXY_HTTP_ADDR", "HTTP address for /metrics, /healthz, /readyz")
	fs.Var(optionalAddrOf(&run.PprofAddr), "pprof-addr", "MEGACO_PPROF_ADDR", "serve net/http/pprof on this address, e.g. 127.0.0.1:6061; off when empty")
	fs.Var(durationOf(&run.DrainTimeout, 0), "drain-timeout", "MEGACO_DRAIN_TIMEOUT", "how long SIGTERM waits for replies to requests in flight")
	fs.Var(durationOf(&cfg.Remember, 0), "remember", "MEGACO_PROXY_REMEMBER", "how long a transaction's route is kept after its request or last pending")
	fs.Var(countOf(&cfg.MaxTransactions, 0, math.MaxInt32), "max-transactions", "MEGACO_PROXY_MAX_TRANSACTIONS", "routing table bound; past it the oldest entry goes")
	fs.Var(countOf(&cfg.MaxConns, 0, math.MaxInt32), "max-conns", "MEGACO_PROXY_MAX_CONNS", "TCP connections per side")
	fs.Var(durationOf(&cfg.HandshakeTimeout, 0), "handshake-timeout", "MEGACO_PROXY_HANDSHAKE_TIMEOUT", "an accepted TCP connection's first message must come within it")
	fs.Var(durationOf(&cfg.IdleTimeout, 0), "idle-timeout", "MEGACO_PROXY_IDLE_TIMEOUT", "close a TCP connection pair silent both ways for so long")
	fs.Var(durationOf(&cfg.WriteTimeout, 0), "write-timeout", "MEGACO_PROXY_WRITE_TIMEOUT", "TCP connect and write timeout; a peer that does not read is dropped")
	fs.Var(countOf(&cfg.Options.Version, 0, 3), "version", "MEGACO_VERSION", "protocol version 1, 2 or 3 to force; 0: read it from each message")
	m.define(fs, true)
	fs.Var(sizeOf(&cfg.Options.Limits.MaxSize, 1), "max-message-size", "MEGACO_MAX_MESSAGE_SIZE", "largest message decoded")
	lg.define(fs, "log level; debug logs a line per message")
	capture.define(fs)
	identity, mgMID := "rewrite", ""
	fs.Var(choiceOf(&identity, "rewrite", "off"), "identity", "MEGACO_PROXY_IDENTITY", "rewrite: present the proxy to each side as the other side's peer (mId, ServiceChangeAddress, MgcId); off: pass them on as they are")
	fs.Var(textOf(&mgMID, "mid"), "mg-mid", "MEGACO_PROXY_MG_MID", "the mId the MGC is shown for the MG, e.g. [192.0.2.7]:2944, <mg1.example.net>:2944 or gw/1; default: the MGC side's address")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	var err error
	if err = sides.apply(&cfg); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	if cfg.MGC.Allow, err = proxy.ParseAllow(strings.Join(mgcAllow, ",")); err != nil {
		return fmt.Errorf("proxy: --mgc-allow: %w", err)
	}
	if cfg.MG.Allow, err = proxy.ParseAllow(strings.Join(mgAllow, ",")); err != nil {
		return fmt.Errorf("proxy: --mg-allow: %w", err)
	}
	if err := identityConfig(&cfg, identity, mgMID); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	if cfg.Options.Profile, cfg.Options.Layout, cfg.Options.Names, cfg.Options.Registry, err = m.read(); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	if cfg.Log, err = lg.logger(stderr); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	if capture.file != "" {
		w, err := pcapng.Create(capture.file, pcapng.Options{MaxBytes: capture.maxBytes, Keep: capture.keep})
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
	run.Config = cfg
	return proxy.Run(ctx, run)
}

// captureArgs are the --capture flags.
type captureArgs struct {
	file     string
	maxBytes int64
	keep     int
}

func (c *captureArgs) define(fs *flagSet) {
	fs.Var(textOf(&c.file, "file"), "capture", "MEGACO_PROXY_CAPTURE", "write every message in and out to this pcapng file; off when empty")
	fs.Var(sizeOf(&c.maxBytes, 1), "capture-max-bytes", "MEGACO_PROXY_CAPTURE_MAX_BYTES", "largest capture file; then FILE.1...")
	fs.Var(countOf(&c.keep, 0, 1000), "capture-keep", "MEGACO_PROXY_CAPTURE_KEEP", "rotated capture files kept; 0: stop capturing when full")
}

// identityConfig reads --identity (its flag took only rewrite or off)
// and --mg-mid.
func identityConfig(cfg *proxy.Config, identity, mgMID string) error {
	cfg.IdentityOff = identity == "off"
	if mgMID == "" {
		return nil
	}
	if cfg.IdentityOff {
		return fmt.Errorf("--mg-mid needs --identity=rewrite")
	}
	var err error
	cfg.MGMID, err = proxy.ParseMID(mgMID)
	return err
}

// proxyAddrOf is a proxy address flag, udp://host:port or tcp://host:port.
func proxyAddrOf(p *string) *textValue {
	return checkedOf(p, "udp|tcp://host:port", checkProxyAddr)
}

// checkProxyAddr checks an address as proxy.ParseAddr reads it.
func checkProxyAddr(s string) error {
	if _, err := proxy.ParseAddr(s); err != nil {
		return errors.New("want udp://host:port or tcp://host:port")
	}
	return nil
}

// checkProxyAddrs checks a comma-separated list of proxy addresses.
func checkProxyAddrs(s string) error {
	for a := range strings.SplitSeq(s, ",") {
		if err := checkProxyAddr(strings.TrimSpace(a)); err != nil {
			return err
		}
	}
	return nil
}

// proxySides are the two sides' codecs and addresses as given.
type proxySides struct{ mgcCodec, mgcListen, mgc, mgCodec, mgListen, mg string }

// apply reads the two sides' codecs and addresses into cfg.
func (f proxySides) apply(cfg *proxy.Config) error {
	if f.mgc == "" || f.mg == "" {
		return fmt.Errorf("--mgc and --mg are required (the MGC's and the MG's addresses)")
	}
	sides := []struct {
		codec, listen, peer string
		to                  *proxy.SideConfig
	}{{f.mgcCodec, f.mgcListen, f.mgc, &cfg.MGC}, {f.mgCodec, f.mgListen, f.mg, &cfg.MG}}
	for _, s := range sides {
		var err error
		s.to.Codec = s.codec
		if s.to.Listen, err = proxy.ParseAddr(s.listen); err != nil {
			return err
		}
		for _, a := range strings.Split(s.peer, ",") {
			addr, err := proxy.ParseAddr(strings.TrimSpace(a))
			if err != nil {
				return err
			}
			s.to.Peers = append(s.to.Peers, addr)
		}
		if s.to == &cfg.MG && len(s.to.Peers) > 1 {
			return fmt.Errorf("--mg takes one address")
		}
		s.to.Peer = s.to.Peers[0]
	}
	return nil
}

// logArgs are the --log-level and --log-format flags.
type logArgs struct{ level, format string }

func (l *logArgs) define(fs *flagSet, levelHelp string) {
	fs.Var(choiceOf(&l.level, "debug", "info", "warn", "error"), "log-level", "MEGACO_LOG_LEVEL", levelHelp)
	fs.Var(choiceOf(&l.format, "text", "json"), "log-format", "MEGACO_LOG_FORMAT", "log line format")
}

// logger is a slog logger at the level, in the format, the flags chose.
func (l *logArgs) logger(w io.Writer) (*slog.Logger, error) {
	return logging.New(l.level, l.format, w)
}

// checkAllow checks one --mgc-allow or --mg-allow entry: a CIDR or an IP.
func checkAllow(s string) error {
	_, err := proxy.ParseAllow(s)
	return err
}
