package server

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "megaco/api/megaco/v1"
	"megaco/internal/testbin"
)

// TestCallMetrics: the grpc_server_* series count calls, messages, codes
// and durations as go-grpc-middleware's did (names and labels the
// dashboard and alerts use), and every method's exist from the start.
func TestCallMetrics(t *testing.T) {
	ts := start(t, DefaultConfig())
	ber := read(t, "../../corpus/otp-time-test/msg03.ber")
	ctx := context.Background()
	if _, err := ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: ber, To: pb.Codec_CODEC_PER}); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: []byte("junk"), To: pb.Codec_CODEC_PER}); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("junk: %v", err)
	}
	st, err := ts.client.TranscodeStream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := st.Send(&pb.TranscodeStreamRequest{Request: &pb.TranscodeRequest{Data: ber, To: pb.Codec_CODEC_PER}}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Recv(); err != nil {
			t.Fatal(err)
		}
	}
	_ = st.CloseSend()
	if _, err := st.Recv(); err == nil {
		t.Fatal("the stream did not end")
	}
	const unary = `grpc_method="Transcode",grpc_service="megaco.v1.CodecService",grpc_type="unary"`
	const bidi = `grpc_method="TranscodeStream",grpc_service="megaco.v1.CodecService",grpc_type="bidi_stream"`
	want := map[string]float64{
		`grpc_server_started_total{` + unary + `}`:                                                                                      2,
		`grpc_server_msg_received_total{` + unary + `}`:                                                                                 2,
		`grpc_server_msg_sent_total{` + unary + `}`:                                                                                     1,
		`grpc_server_handled_total{grpc_code="OK",` + unary + `}`:                                                                       1,
		`grpc_server_handled_total{grpc_code="InvalidArgument",` + unary + `}`:                                                          1,
		`grpc_server_handling_seconds_count{` + unary + `}`:                                                                             2,
		`grpc_server_started_total{` + bidi + `}`:                                                                                       1,
		`grpc_server_msg_received_total{` + bidi + `}`:                                                                                  2,
		`grpc_server_msg_sent_total{` + bidi + `}`:                                                                                      2,
		`grpc_server_handled_total{grpc_code="OK",` + bidi + `}`:                                                                        1,
		`grpc_server_handling_seconds_count{` + bidi + `}`:                                                                              1,
		`grpc_server_started_total{grpc_method="Decode",grpc_service="megaco.v1.CodecService",grpc_type="unary"}`:                       0,
		`grpc_server_handled_total{grpc_code="Unavailable",grpc_method="Check",grpc_service="grpc.health.v1.Health",grpc_type="unary"}`: 0,
	}
	// The stream's end is counted once the handler returns, just after
	// the client sees it.
	var got map[string]float64
	testbin.Eventually(5e9, func() bool {
		got, err = testbin.Scrape("http://" + ts.httpAddr + "/metrics")
		return err == nil && got[`grpc_server_handled_total{grpc_code="OK",`+bidi+`}`] == 1
	})
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %v (exported %v), want %v", k, g, ok, v)
		}
	}
}
