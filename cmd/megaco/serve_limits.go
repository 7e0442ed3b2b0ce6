package main

import (
	"math"
	"time"

	"megaco/internal/server"
)

// addLimitFlags defines serve's flags for server.Limits, l's values
// being the defaults.
func addLimitFlags(fs *flagSet, l *server.Limits) {
	const many, ms = math.MaxInt32, time.Millisecond
	fs.Var(countOf(&l.MaxConns, 1, many), "grpc-max-conns", "MEGACO_GRPC_MAX_CONNS", "most gRPC connections open at once; more are closed at once")
	fs.Var(countOf(&l.MaxStreams, 1, many), "grpc-max-streams", "MEGACO_GRPC_MAX_STREAMS", "most concurrent calls on one gRPC connection")
	fs.Var(countOf(&l.MaxCalls, 1, many), "grpc-max-calls", "MEGACO_GRPC_MAX_CALLS", "most gRPC calls open at once over all connections; more get ResourceExhausted")
	fs.Var(durationOf(&l.KeepaliveMinTime, ms), "grpc-keepalive-min-time", "MEGACO_GRPC_KEEPALIVE_MIN_TIME", "shortest interval between client pings; faster clients are disconnected")
	fs.Var(durationOf(&l.KeepaliveTime, ms), "grpc-keepalive-time", "MEGACO_GRPC_KEEPALIVE_TIME", "ping a gRPC connection quiet for this long")
	fs.Var(durationOf(&l.KeepaliveTimeout, ms), "grpc-keepalive-timeout", "MEGACO_GRPC_KEEPALIVE_TIMEOUT", "close a gRPC connection whose ping is not answered in this long")
	fs.Var(durationOf(&l.MaxConnIdle, ms), "grpc-max-conn-idle", "MEGACO_GRPC_MAX_CONN_IDLE", "close a gRPC connection with no call for this long")
	fs.Var(durationOf(&l.MaxConnAge, ms), "grpc-max-conn-age", "MEGACO_GRPC_MAX_CONN_AGE", "close a gRPC connection this old (GOAWAY; open calls get the drain timeout)")
	fs.Var(sizeOf(&l.WindowSize, 64<<10), "grpc-window-size", "MEGACO_GRPC_WINDOW_SIZE", "HTTP/2 flow-control window of a gRPC stream")
	fs.Var(sizeOf(&l.ConnWindowSize, 64<<10), "grpc-conn-window-size", "MEGACO_GRPC_CONN_WINDOW_SIZE", "HTTP/2 flow-control window of a gRPC connection")
	fs.Var(durationOf(&l.SendTimeout, ms), "grpc-send-timeout", "MEGACO_GRPC_SEND_TIMEOUT", "end a stream (and close its connection) whose client has not read for this long")
	fs.Var(durationOf(&l.HandshakeTimeout, ms), "grpc-handshake-timeout", "MEGACO_GRPC_HANDSHAKE_TIMEOUT", "bound on a new gRPC connection's TLS and HTTP/2 handshake")
	fs.Var(sizeOf(&l.MaxInFlightBytes, 1), "max-in-flight-bytes", "MEGACO_MAX_IN_FLIGHT_BYTES", "request bytes worked on at once across all calls; more are refused (ResourceExhausted, 503)")
	fs.Var(sizeOf(&l.MaxHeaderBytes, 1), "max-header-bytes", "MEGACO_MAX_HEADER_BYTES", "largest HTTP headers or gRPC metadata of a request")
	fs.Var(countOf(&l.HTTPMaxConns, 1, many), "http-max-conns", "MEGACO_HTTP_MAX_CONNS", "most HTTP connections open at once; more are closed at once")
	fs.Var(countOf(&l.HTTPMaxConcurrent, 1, many), "http-max-concurrent", "MEGACO_HTTP_MAX_CONCURRENT", "most /v1 requests served at once; more get 503 with Retry-After")
	fs.Var(durationOf(&l.HTTPBodyGrace, ms), "http-body-grace", "MEGACO_HTTP_BODY_GRACE", "time a /v1 body may take before --http-body-min-rate applies; slower bodies get 408")
	fs.Var(sizeOf(&l.HTTPBodyMinRate, 1), "http-body-min-rate", "MEGACO_HTTP_BODY_MIN_RATE", "slowest a /v1 body may arrive after --http-body-grace, a size a second")
	fs.Var(durationOf(&l.HTTPReadHeaderTimeout, ms), "http-read-header-timeout", "MEGACO_HTTP_READ_HEADER_TIMEOUT", "time to read a request's headers")
	fs.Var(durationOf(&l.HTTPReadTimeout, ms), "http-read-timeout", "MEGACO_HTTP_READ_TIMEOUT", "time to read a whole request, body included")
	fs.Var(durationOf(&l.HTTPWriteTimeout, ms), "http-write-timeout", "MEGACO_HTTP_WRITE_TIMEOUT", "time from the end of a request's headers to the end of its response")
	fs.Var(durationOf(&l.HTTPIdleTimeout, ms), "http-idle-timeout", "MEGACO_HTTP_IDLE_TIMEOUT", "close a keep-alive HTTP connection idle for this long")
}
