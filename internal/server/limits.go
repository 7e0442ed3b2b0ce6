package server

import (
	"time"
)

// Limits bound what a client can make the server hold: connections,
// streams, bytes and time. Going over one is answered (ResourceExhausted,
// 503 with Retry-After, or a closed connection) and counted in
// megaco_server_rejected_total; no limit queues work. Zero fields take
// DefaultLimits' values.
//
// The defaults fit both a sidecar (one client, a handful of connections)
// and a shared service (hundreds of clients): a well-behaved client never
// meets them, and together they cap the memory a hostile one can pin at
// a few hundred MiB (MaxInFlightBytes plus the per-connection buffers).
type Limits struct {
	// gRPC.

	// MaxConns is the most gRPC connections open at once; one more is
	// accepted and closed at once.
	MaxConns int
	// MaxStreams is the most concurrent calls (streams) on one gRPC
	// connection; HTTP/2 tells the client, which waits for a free one.
	MaxStreams uint32
	// MaxCalls is the most gRPC calls open at once over all
	// connections; one more is refused with ResourceExhausted before it
	// gets a goroutine. With WindowSize it bounds what the calls can
	// make the server buffer: MaxCalls x (WindowSize + 64 KiB queued
	// to send + the message in hand).
	MaxCalls int
	// KeepaliveMinTime is the shortest interval between a client's
	// pings the server allows; a client pinging faster is disconnected.
	KeepaliveMinTime time.Duration
	// KeepaliveTime and KeepaliveTimeout: the server pings a connection
	// quiet for KeepaliveTime and closes it if no answer comes within
	// KeepaliveTimeout (a peer gone without a FIN).
	KeepaliveTime, KeepaliveTimeout time.Duration
	// MaxConnIdle closes a gRPC connection with no call for this long.
	MaxConnIdle time.Duration
	// MaxConnAge closes a gRPC connection this old (with a GOAWAY, so
	// clients reconnect, spreading over replicas); calls open then get
	// the drain timeout to finish.
	MaxConnAge time.Duration
	// WindowSize and ConnWindowSize are the HTTP/2 flow-control windows
	// of a stream and of a connection: what a client can send before the
	// server reads it. Setting them turns off gRPC's window growth (BDP
	// estimation), which otherwise lets one connection buffer up to
	// 16 MiB per stream. gRPC ignores values under 64 KiB.
	WindowSize, ConnWindowSize int32
	// SendTimeout bounds how long a stream's Send may wait for a client
	// that does not read (flow control); past it the stream ends and its
	// connection is closed, since what is queued for a client that does
	// not read is freed only with its connection.
	SendTimeout time.Duration
	// HandshakeTimeout bounds a new gRPC connection's TLS and HTTP/2
	// handshake.
	HandshakeTimeout time.Duration

	// Both transports.

	// MaxInFlightBytes caps the request bytes being worked on across all
	// calls of both transports (a unary request, the stream message in
	// hand, an HTTP body as its Content-Length says, or the maximum
	// message size when it does not say). A call that would go past it
	// is refused at once: ResourceExhausted, or 503 with Retry-After.
	MaxInFlightBytes int64
	// MaxHeaderBytes bounds a request's headers (HTTP) or metadata
	// (gRPC).
	MaxHeaderBytes int

	// HTTP.

	// HTTPMaxConns is the most HTTP connections open at once.
	HTTPMaxConns int
	// HTTPMaxConcurrent is the most /v1 requests served at once; one
	// more is answered 503 with Retry-After. A request takes its place
	// only once its body is read, so slow senders do not hold places.
	// /metrics, /healthz and /readyz are not counted, so probes work
	// under load.
	HTTPMaxConcurrent int
	// HTTPBodyGrace and HTTPBodyMinRate bound how slowly a /v1 body may
	// arrive: its first n bytes within HTTPBodyGrace plus one second per
	// HTTPBodyMinRate bytes of n (n counted in steps of the read buffer,
	// 4 KiB, then doubling). A slower body is answered 408 and its
	// connection closed.
	HTTPBodyGrace   time.Duration
	HTTPBodyMinRate int64
	// HTTPReadHeaderTimeout, HTTPReadTimeout (headers and body),
	// HTTPWriteTimeout (from the end of the headers to the end of the
	// response) and HTTPIdleTimeout (between requests of a keep-alive
	// connection) are net/http's.
	HTTPReadHeaderTimeout, HTTPReadTimeout, HTTPWriteTimeout, HTTPIdleTimeout time.Duration
}

// DefaultLimits are the limits `megaco serve` uses; the README's
// security section explains each.
func DefaultLimits() Limits {
	return Limits{
		MaxConns:              1000,
		MaxStreams:            100,
		MaxCalls:              1000,
		KeepaliveMinTime:      10 * time.Second,
		KeepaliveTime:         time.Minute,
		KeepaliveTimeout:      20 * time.Second,
		MaxConnIdle:           5 * time.Minute,
		MaxConnAge:            30 * time.Minute,
		WindowSize:            64 << 10,
		ConnWindowSize:        1 << 20,
		SendTimeout:           10 * time.Second,
		HandshakeTimeout:      10 * time.Second,
		MaxInFlightBytes:      64 << 20,
		MaxHeaderBytes:        64 << 10,
		HTTPMaxConns:          1000,
		HTTPMaxConcurrent:     256,
		HTTPBodyGrace:         5 * time.Second,
		HTTPBodyMinRate:       4 << 10,
		HTTPReadHeaderTimeout: 5 * time.Second,
		HTTPReadTimeout:       30 * time.Second,
		HTTPWriteTimeout:      30 * time.Second,
		HTTPIdleTimeout:       time.Minute,
	}
}

// withDefaults fills the zero fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	fill(&l.MaxConns, d.MaxConns)
	fill(&l.MaxStreams, d.MaxStreams)
	fill(&l.MaxCalls, d.MaxCalls)
	fill(&l.KeepaliveMinTime, d.KeepaliveMinTime)
	fill(&l.KeepaliveTime, d.KeepaliveTime)
	fill(&l.KeepaliveTimeout, d.KeepaliveTimeout)
	fill(&l.MaxConnIdle, d.MaxConnIdle)
	fill(&l.MaxConnAge, d.MaxConnAge)
	fill(&l.WindowSize, d.WindowSize)
	fill(&l.ConnWindowSize, d.ConnWindowSize)
	fill(&l.SendTimeout, d.SendTimeout)
	fill(&l.HandshakeTimeout, d.HandshakeTimeout)
	fill(&l.MaxInFlightBytes, d.MaxInFlightBytes)
	fill(&l.MaxHeaderBytes, d.MaxHeaderBytes)
	fill(&l.HTTPMaxConns, d.HTTPMaxConns)
	fill(&l.HTTPMaxConcurrent, d.HTTPMaxConcurrent)
	fill(&l.HTTPBodyGrace, d.HTTPBodyGrace)
	fill(&l.HTTPBodyMinRate, d.HTTPBodyMinRate)
	fill(&l.HTTPReadHeaderTimeout, d.HTTPReadHeaderTimeout)
	fill(&l.HTTPReadTimeout, d.HTTPReadTimeout)
	fill(&l.HTTPWriteTimeout, d.HTTPWriteTimeout)
	fill(&l.HTTPIdleTimeout, d.HTTPIdleTimeout)
	return l
}

func fill[T comparable](p *T, def T) {
	var zero T
	if *p == zero {
		*p = def
	}
}
