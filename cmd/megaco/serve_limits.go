package main

import (
	"flag"
	"fmt"
	"strconv"
	"time"

	"megaco/internal/server"
)

// hardeningFlags are serve's flags for server.Limits, the memory limit
// and reflection, each with its MEGACO_* variable.
type hardeningFlags struct {
	ints       map[string]*string // flag name -> value, parsed by parse
	durations  map[string]*string
	memLimit   *string
	reflect    *string
	drainDelay *string
}

// limitFlag describes one Limits field as a flag.
type limitFlag struct {
	name, env, help string
	ptr             any // *int, *uint32, *int32, *int64 or *time.Duration in a Limits
}

func limitFlagsOf(l *server.Limits) []limitFlag {
	return []limitFlag{
		{"grpc-max-conns", "MEGACO_GRPC_MAX_CONNS", "most gRPC connections open at once; more are closed at once", &l.MaxConns},
		{"grpc-max-streams", "MEGACO_GRPC_MAX_STREAMS", "most concurrent calls on one gRPC connection", &l.MaxStreams},
		{"grpc-max-calls", "MEGACO_GRPC_MAX_CALLS", "most gRPC calls open at once over all connections; more get ResourceExhausted", &l.MaxCalls},
		{"grpc-keepalive-min-time", "MEGACO_GRPC_KEEPALIVE_MIN_TIME", "shortest interval between client pings; faster clients are disconnected", &l.KeepaliveMinTime},
		{"grpc-keepalive-time", "MEGACO_GRPC_KEEPALIVE_TIME", "ping a gRPC connection quiet for this long", &l.KeepaliveTime},
		{"grpc-keepalive-timeout", "MEGACO_GRPC_KEEPALIVE_TIMEOUT", "close a gRPC connection whose ping is not answered in this long", &l.KeepaliveTimeout},
		{"grpc-max-conn-idle", "MEGACO_GRPC_MAX_CONN_IDLE", "close a gRPC connection with no call for this long", &l.MaxConnIdle},
		{"grpc-max-conn-age", "MEGACO_GRPC_MAX_CONN_AGE", "close a gRPC connection this old (GOAWAY; open calls get the drain timeout)", &l.MaxConnAge},
		{"grpc-window-size", "MEGACO_GRPC_WINDOW_SIZE", "HTTP/2 flow-control window of a gRPC stream, bytes (64 KiB or more)", &l.WindowSize},
		{"grpc-conn-window-size", "MEGACO_GRPC_CONN_WINDOW_SIZE", "HTTP/2 flow-control window of a gRPC connection, bytes (64 KiB or more)", &l.ConnWindowSize},
		{"grpc-send-timeout", "MEGACO_GRPC_SEND_TIMEOUT", "end a stream (and close its connection) whose client has not read for this long", &l.SendTimeout},
		{"grpc-handshake-timeout", "MEGACO_GRPC_HANDSHAKE_TIMEOUT", "bound on a new gRPC connection's TLS and HTTP/2 handshake", &l.HandshakeTimeout},
		{"max-in-flight-bytes", "MEGACO_MAX_IN_FLIGHT_BYTES", "request bytes worked on at once across all calls; more are refused (ResourceExhausted, 503)", &l.MaxInFlightBytes},
		{"max-header-bytes", "MEGACO_MAX_HEADER_BYTES", "largest HTTP headers or gRPC metadata of a request, bytes", &l.MaxHeaderBytes},
		{"http-max-conns", "MEGACO_HTTP_MAX_CONNS", "most HTTP connections open at once; more are closed at once", &l.HTTPMaxConns},
		{"http-max-concurrent", "MEGACO_HTTP_MAX_CONCURRENT", "most /v1 requests served at once; more get 503 with Retry-After", &l.HTTPMaxConcurrent},
		{"http-body-grace", "MEGACO_HTTP_BODY_GRACE", "time a /v1 body may take before --http-body-min-rate applies; slower bodies get 408", &l.HTTPBodyGrace},
		{"http-body-min-rate", "MEGACO_HTTP_BODY_MIN_RATE", "slowest a /v1 body may arrive after --http-body-grace, bytes a second", &l.HTTPBodyMinRate},
		{"http-read-header-timeout", "MEGACO_HTTP_READ_HEADER_TIMEOUT", "time to read a request's headers", &l.HTTPReadHeaderTimeout},
		{"http-read-timeout", "MEGACO_HTTP_READ_TIMEOUT", "time to read a whole request, body included", &l.HTTPReadTimeout},
		{"http-write-timeout", "MEGACO_HTTP_WRITE_TIMEOUT", "time from the end of a request's headers to the end of its response", &l.HTTPWriteTimeout},
		{"http-idle-timeout", "MEGACO_HTTP_IDLE_TIMEOUT", "close a keep-alive HTTP connection idle for this long", &l.HTTPIdleTimeout},
	}
}

// addHardeningFlags defines the flags on fs, with DefaultLimits'
// values as defaults.
func addHardeningFlags(fs *flag.FlagSet) *hardeningFlags {
	h := &hardeningFlags{ints: map[string]*string{}, durations: map[string]*string{}}
	def := server.DefaultLimits()
	for _, f := range limitFlagsOf(&def) {
		var val string
		if d, ok := f.ptr.(*time.Duration); ok {
			val = d.String()
			h.durations[f.name] = fs.String(f.name, env(f.env, val), f.help+" ("+f.env+")")
			continue
		}
		switch p := f.ptr.(type) {
		case *int:
			val = strconv.Itoa(*p)
		case *uint32:
			val = strconv.FormatUint(uint64(*p), 10)
		case *int32:
			val = strconv.Itoa(int(*p))
		case *int64:
			val = strconv.FormatInt(*p, 10)
		}
		h.ints[f.name] = fs.String(f.name, env(f.env, val), f.help+" ("+f.env+")")
	}
	h.memLimit = fs.String("memory-limit", env("MEGACO_MEMORY_LIMIT", "auto"),
		"Go soft memory limit: bytes (or with KiB, MiB, GiB), or auto: 90% of the container's memory limit, if any; GOMEMLIMIT, when set, rules (MEGACO_MEMORY_LIMIT)")
	h.reflect = fs.String("reflection", env("MEGACO_REFLECTION", "true"), "serve the gRPC reflection service (MEGACO_REFLECTION)")
	h.drainDelay = fs.String("drain-delay", env("MEGACO_DRAIN_DELAY", "0s"), "after SIGTERM, keep serving this long with /readyz false before draining, for load balancers (MEGACO_DRAIN_DELAY)")
	return h
}

// apply reads the flags into o.
func (h *hardeningFlags) apply(o *server.Options) error {
	var err error
	if o.DrainDelay, err = time.ParseDuration(*h.drainDelay); err != nil || o.DrainDelay < 0 {
		return fmt.Errorf("serve: bad --drain-delay %q", *h.drainDelay)
	}
	var reflection bool
	o.Limits, o.MemoryLimit, reflection, err = h.parse()
	o.NoReflection = !reflection
	return err
}

// parse reads the flags into limits, the memory limit (0: auto) and
// whether to serve reflection.
func (h *hardeningFlags) parse() (server.Limits, int64, bool, error) {
	var l server.Limits
	for _, f := range limitFlagsOf(&l) {
		if s, ok := h.durations[f.name]; ok {
			d, err := time.ParseDuration(*s)
			if err != nil || d <= 0 {
				return l, 0, false, fmt.Errorf("serve: bad --%s %q (want a positive duration)", f.name, *s)
			}
			*f.ptr.(*time.Duration) = d
			continue
		}
		s := *h.ints[f.name]
		n, err := server.ParseBytes(s)
		if err != nil || n <= 0 {
			return l, 0, false, fmt.Errorf("serve: bad --%s %q (want a positive number)", f.name, s)
		}
		switch p := f.ptr.(type) {
		case *int:
			*p = int(n)
		case *uint32:
			*p = uint32(min(n, 1<<32-1))
		case *int32:
			*p = int32(min(n, 1<<31-1))
		case *int64:
			*p = n
		}
	}
	var mem int64
	if *h.memLimit != "auto" {
		var err error
		if mem, err = server.ParseBytes(*h.memLimit); err != nil || mem <= 0 {
			return l, 0, false, fmt.Errorf("serve: bad --memory-limit %q (want auto or a positive size)", *h.memLimit)
		}
	}
	reflect, err := strconv.ParseBool(*h.reflect)
	if err != nil {
		return l, 0, false, fmt.Errorf("serve: bad --reflection %q (want true or false)", *h.reflect)
	}
	return l, mem, reflect, nil
}
