package server

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A handler's panic becomes the error recovered makes, counted under
// its code, for unary calls and streams alike.
func TestInterceptorsRecover(t *testing.T) {
	m := newCallMetrics(prometheus.NewRegistry())
	var recovered []any
	ic := &interceptors{metrics: m, failures: newFailureLog(slog.New(slog.NewTextHandler(io.Discard, nil)), 10), recovered: func(p any) error {
		recovered = append(recovered, p)
		return status.Error(codes.Internal, "internal error")
	}}
	resp, err := ic.unary(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: "/t.S/Unary"}, func(context.Context, any) (any, error) {
		panic("unary boom")
	})
	if resp != nil || status.Code(err) != codes.Internal {
		t.Errorf("unary: %v, %v; want nil and Internal", resp, err)
	}
	err = ic.stream(nil, nil, &grpc.StreamServerInfo{FullMethod: "/t.S/Stream", IsClientStream: true, IsServerStream: true}, func(any, grpc.ServerStream) error {
		panic("stream boom")
	})
	if status.Code(err) != codes.Internal {
		t.Errorf("stream: %v; want Internal", err)
	}
	if len(recovered) != 2 || recovered[0] != "unary boom" || recovered[1] != "stream boom" {
		t.Errorf("recovered %v", recovered)
	}
	for _, c := range []struct{ typ, method string }{{"unary", "Unary"}, {"bidi_stream", "Stream"}} {
		if n := testutil.ToFloat64(m.handled.WithLabelValues(c.typ, "t.S", c.method, "Internal")); n != 1 {
			t.Errorf("%s: %v counted Internal, want 1", c.method, n)
		}
	}
}
