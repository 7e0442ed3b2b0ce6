package server

import (
	"bytes"
	"fmt"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
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

// The answers the service writes itself are the bytes protobuf's Marshal
// makes of the same messages: one answer, a stream's, a batch's, with
// fields left out at zero and failures among them.
func TestAnswerWire(t *testing.T) {
	answers := []answer{
		{data: bytes.Repeat([]byte{0x30}, 280), from: pb.Codec_CODEC_COMPACT, version: 3},
		{data: bytes.Repeat([]byte{'!'}, 2000), from: pb.Codec_CODEC_PRETTY, version: 1},
		{data: []byte{1}},
		{from: pb.Codec_CODEC_BER},
		{version: 2},
		{},
		{from: pb.Codec(-1), version: 1 << 31},
		streamError(&RequestError{"bad request"}),
		streamError(&TooLargeError{What: "batch", Size: 2000, Max: MaxBatch, Unit: "requests"}),
	}
	check := func(what string, r wireReply, err error, m proto.Message) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		want, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(r.data, want) {
			t.Errorf("%s: wrote %x, protobuf's Marshal %x", what, r.data, want)
		}
		r.free()
	}
	for i, a := range answers {
		r := newWireReply(a.size())
		var err error
		r.data, err = a.appendTo(r.data)
		check(fmt.Sprintf("answer %d", i), r, err, a.proto())
		r, err = streamReply(a, nil)
		check(fmt.Sprintf("stream answer %d", i), r, err, streamResponse(a, nil))
	}
	r, err := streamReply(answer{}, answers)
	check("batch", r, err, streamResponse(answer{}, answers))
	r, err = streamReply(answer{}, answers[:0])
	check("empty batch", r, err, streamResponse(answer{}, answers[:0]))
}

// A TranscodeRequest read without protobuf's Unmarshal, into a reused
// message, is the one Unmarshal reads; anything else is left to it.
func TestReadTranscodeRequest(t *testing.T) {
	msg := bytes.Repeat([]byte("!/1 [1.2.3.4] "), 30)
	marshal := func(m proto.Message) []byte { return mustMarshal(t, m) }
	tag := func(b []byte, num protowire.Number, typ protowire.Type) []byte {
		return protowire.AppendTag(b, num, typ)
	}
	read := [][]byte{
		marshal(&pb.TranscodeRequest{Data: msg, To: pb.Codec_CODEC_BER}),
		marshal(&pb.TranscodeRequest{Data: msg[:3], From: pb.Codec_CODEC_COMPACT, To: pb.Codec_CODEC_PRETTY}),
		marshal(&pb.TranscodeRequest{To: pb.Codec_CODEC_BER}),
		{},
		// Repeated fields (the last wins) and an enum beyond 32 bits.
		protowire.AppendVarint(tag(protowire.AppendBytes(tag(marshal(&pb.TranscodeRequest{Data: msg, From: 3}), reqData, protowire.BytesType), []byte("x")), reqFrom, protowire.VarintType), 1<<40|7),
	}
	left := [][]byte{
		marshal(&pb.TranscodeRequest{Data: msg, To: pb.Codec_CODEC_BER, Options: &pb.Options{Version: 2}}),
		protowire.AppendVarint(tag(nil, 9, protowire.VarintType), 1), // unknown field
		tag(nil, reqData, protowire.VarintType),                      // wrong type, truncated
		protowire.AppendVarint(tag(nil, reqData, protowire.BytesType), 5),
		{0x80},
	}
	m := getRequest()
	m.Data = append(m.Data, bytes.Repeat([]byte{'z'}, 1000)...) // memory of an earlier request
	putRequest(m)
	checkRead(t, getRequest, putRequest, readTranscodeRequest, read, left)
}

// A TranscodeStreamRequest of one request is read likewise, its request
// reused; a batch, or a request given twice (which protobuf merges), or
// one readTranscodeRequest leaves, is left to Unmarshal.
func TestReadTranscodeStreamRequest(t *testing.T) {
	msg := bytes.Repeat([]byte("!/1 [1.2.3.4] "), 30)
	one := &pb.TranscodeRequest{Data: msg, To: pb.Codec_CODEC_BER}
	marshal := func(m proto.Message) []byte { return mustMarshal(t, m) }
	read := [][]byte{
		marshal(&pb.TranscodeStreamRequest{Request: one}),
		marshal(&pb.TranscodeStreamRequest{Request: &pb.TranscodeRequest{Data: msg[:5], From: pb.Codec_CODEC_PRETTY, To: pb.Codec_CODEC_PER}}),
		marshal(&pb.TranscodeStreamRequest{Request: &pb.TranscodeRequest{}}),
		{},
	}
	left := [][]byte{
		append(marshal(&pb.TranscodeStreamRequest{Request: one}), marshal(&pb.TranscodeStreamRequest{Request: &pb.TranscodeRequest{From: 2}})...),
		marshal(&pb.TranscodeStreamRequest{Batch: []*pb.TranscodeRequest{one}}),
		marshal(&pb.TranscodeStreamRequest{Request: &pb.TranscodeRequest{Options: &pb.Options{Version: 1}}}),
		protowire.AppendVarint(protowire.AppendTag(nil, 3, protowire.VarintType), 1),
		protowire.AppendTag(nil, fieldRequest, protowire.BytesType),
	}
	checkRead(t, getStreamRequest, putStreamRequest, readTranscodeStreamRequest, read, left)
}

func mustMarshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkRead reads each of read with readFunc into a message from get,
// given back with put before the next: it must be what protobuf's
// Unmarshal reads. Each of left must be left to Unmarshal.
func checkRead[M interface {
	proto.Message
	*T
}, T any](t *testing.T, get func() M, put func(M), readFunc func([]byte, M) bool, read, left [][]byte) {
	t.Helper()
	for i, b := range read {
		m := get()
		want := M(new(T))
		if err := proto.Unmarshal(b, want); err != nil {
			t.Fatal(err)
		}
		if !readFunc(b, m) {
			t.Fatalf("message %d (%x) left to Unmarshal", i, b)
		}
		if !bytes.Equal(mustMarshal(t, m), mustMarshal(t, want)) {
			t.Errorf("message %d: read %v, Unmarshal %v", i, m, want)
		}
		put(m)
	}
	for i, b := range left {
		if readFunc(b, M(new(T))) {
			t.Errorf("message %d (%x) read, not left to Unmarshal", i, b)
		}
	}
}

// FuzzReadTranscodeRequest: on any bytes, what readTranscodeRequest
// reads (into a reused message) is what protobuf's Unmarshal reads, and
// what it does not read it leaves wholly to Unmarshal; the stream
// request's reader likewise.
func FuzzReadTranscodeRequest(f *testing.F) {
	f.Add([]byte{})
	f.Add(mustMarshalF(f, &pb.TranscodeRequest{Data: []byte("!/1 [1.2.3.4] T=1{}"), From: pb.Codec_CODEC_COMPACT, To: pb.Codec_CODEC_BER}))
	f.Add(mustMarshalF(f, &pb.TranscodeStreamRequest{Request: &pb.TranscodeRequest{Data: []byte("x"), To: pb.Codec_CODEC_PER}}))
	f.Add(mustMarshalF(f, &pb.TranscodeRequest{Options: &pb.Options{Version: 2}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		m := getRequest()
		if readTranscodeRequest(b, m) {
			var want pb.TranscodeRequest
			if err := proto.Unmarshal(b, &want); err != nil {
				t.Fatalf("read %x, which Unmarshal refuses: %v", b, err)
			}
			if !proto.Equal(m, &want) && !(len(m.Data) == 0 && len(want.Data) == 0 && m.From == want.From && m.To == want.To) {
				t.Fatalf("read %v from %x, Unmarshal %v", m, b, &want)
			}
		}
		putRequest(m)
		s := getStreamRequest()
		if readTranscodeStreamRequest(b, s) {
			var want pb.TranscodeStreamRequest
			if err := proto.Unmarshal(b, &want); err != nil {
				t.Fatalf("stream: read %x, which Unmarshal refuses: %v", b, err)
			}
			if !bytes.Equal(mustMarshal(t, s), mustMarshal(t, &want)) {
				t.Fatalf("stream: read %v from %x, Unmarshal %v", s, b, &want)
			}
		}
		putStreamRequest(s)
	})
}

func mustMarshalF(f *testing.F, m proto.Message) []byte {
	b, err := proto.Marshal(m)
	if err != nil {
		f.Fatal(err)
	}
	return b
}
