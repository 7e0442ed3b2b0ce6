package server

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "megaco/api/megaco/v1"
)

// A reply the service marshals itself is the bytes protobuf's Marshal
// makes, and one in a pooled buffer holds its share of the in-flight cap
// until gRPC frees it.
func TestWireReply(t *testing.T) {
	for _, size := range []int{0, 100, 1 << 10, 40 << 10} {
		resp := &pb.TranscodeStreamResponse{Batch: []*pb.TranscodeResponse{
			{Data: bytes.Repeat([]byte{0x30}, size), From: pb.Codec_CODEC_COMPACT, Version: 3},
			{Error: &pb.Error{Code: "InvalidArgument", Message: "bad"}},
		}}
		want, err := proto.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		r, err := marshalReply(resp)
		if err != nil {
			t.Fatal(err)
		}
		f := newInFlight(1<<30, nil)
		bufs := r.buffers(f)
		if got := bufs.Materialize(); !bytes.Equal(got, want) {
			t.Fatalf("size %d: marshalled %d bytes, protobuf's Marshal %d, or other bytes", size, len(got), len(want))
		}
		if held := f.used.Load(); held != r.pooled() || (held == 0) != (len(want) <= 1<<10) {
			t.Errorf("size %d (%d bytes marshalled): %d bytes charged to the cap, want the pooled buffer's %d", size, len(want), held, r.pooled())
		}
		bufs.Free()
		if held := f.used.Load(); held != 0 {
			t.Errorf("size %d: %d bytes still charged after Free", size, held)
		}
	}
}
