// Package servertest runs the codec service (server.Run, as megaco serve
// does) on loopback ports, for the tests of its clients.
package servertest

import (
	"context"
	"crypto/tls"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc/mem"

	"megaco/internal/server"
)

// Start runs the service with its default configuration and tlsCfg (nil:
// plain text) until the test ends, and returns its gRPC address.
func Start(t testing.TB, tlsCfg *tls.Config) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, server.Options{
			GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0", Config: server.DefaultConfig(), DrainTimeout: 5 * time.Second,
			Log:   slog.New(slog.NewTextHandler(io.Discard, nil)),
			Ready: func(g, _ net.Addr) { ready <- g.String() },
			TLS:   tlsCfg,
		})
	}()
	select {
	case addr := <-ready:
		t.Cleanup(func() {
			cancel()
			<-done
		})
		return addr
	case err := <-done:
		cancel()
		t.Fatalf("server did not start: %v", err)
		return ""
	}
}

// RawCodec is a gRPC codec that sends and receives bytes as they are,
// under the name "proto": what a client sending something other than
// protobuf does. Pass it with grpc.ForceCodecV2; requests are []byte,
// responses *[]byte.
type RawCodec struct{}

func (RawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(v.([]byte))}, nil
}

func (RawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*(v.(*[]byte)) = data.Materialize()
	return nil
}

func (RawCodec) Name() string { return "proto" }
