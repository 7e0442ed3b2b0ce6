package server

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	pb "megaco/api/megaco/v1"

	// Registers the proto codec lenientCodec wraps.
	_ "google.golang.org/grpc/encoding/proto"
)

// lenientCodec is gRPC's proto codec, except that a request of the
// guarded services that does not unmarshal is not an error to gRPC: gRPC
// would answer it Internal itself, before any handler or interceptor
// could say that the client is at fault. The failure is kept for the
// message instead, and the guard's handler, which reads the message
// right after, answers InvalidArgument and counts it (guard.malformed).
// Messages of other services fail as usual, so no failure is kept that
// no handler takes.
type lenientCodec struct {
	encoding.CodecV2
	pending  atomic.Int64 // failures kept: the success path looks only when some are
	failures sync.Map     // message -> error
	inFlight *inFlight    // charged with the answers' buffers (nil: none)
}

func newLenientCodec(f *inFlight) *lenientCodec {
	return &lenientCodec{CodecV2: encoding.GetCodecV2("proto"), inFlight: f}
}

// Marshal is the proto codec's, with buffers from bufferPool rather than
// gRPC's default pool: an answer queued for a client that reads slowly
// holds its buffer, and the default pool's size classes jump from 32 KiB
// to 1 MiB. Each pooled buffer is charged to the in-flight cap until
// gRPC has written it (answerBuf). An answer the service marshalled
// itself (wireReply) goes as it is, charged alike.
func (c *lenientCodec) Marshal(v any) (mem.BufferSlice, error) {
	switch m := v.(type) {
	case *wireReply:
		return m.buffers(c.inFlight), nil
	case proto.Message:
		r, err := marshalReply(m)
		if err != nil {
			return nil, err
		}
		return r.buffers(c.inFlight), nil
	}
	return c.CodecV2.Marshal(v)
}

// pooledSize is the size of the buffer Marshal takes for a message of
// size bytes (0: none, it is below gRPC's pooling threshold).
func pooledSize(size int) int64 {
	if mem.IsBelowBufferPoolingThreshold(size) {
		return 0
	}
	return int64(1) << bits.Len(uint(size-1))
}

// answerBuf is the pool one answer's buffer goes back to: it gives the
// buffer's bytes back to the in-flight cap, then the buffer to
// bufferPool. gRPC gives a buffer back once written, or when its stream
// is cleaned up; one it drops instead (a connection torn down with
// answers queued) is given back to the cap when the collector frees
// the answerBuf.
type answerBuf struct {
	cleanup runtime.Cleanup
	f       *inFlight
	n       int64
}

func newAnswerBuf(f *inFlight, n int) mem.BufferPool {
	if f == nil {
		return bufferPool
	}
	a := &answerBuf{f: f, n: int64(n)}
	f.force(a.n)
	a.cleanup = runtime.AddCleanup(a, func(r release) { r.f.release(r.n) }, release{f, a.n})
	return a
}

type release struct {
	f *inFlight
	n int64
}

func (a *answerBuf) Get(n int) *[]byte { return bufferPool.Get(n) }

func (a *answerBuf) Put(b *[]byte) {
	a.cleanup.Stop()
	a.f.release(a.n)
	bufferPool.Put(b)
}

func (c *lenientCodec) Unmarshal(data mem.BufferSlice, v any) error {
	if len(data) == 1 {
		switch m := v.(type) {
		case *pb.TranscodeRequest:
			if readTranscodeRequest(data[0].ReadOnlyData(), m) {
				return nil
			}
		case *pb.TranscodeStreamRequest:
			if readTranscodeStreamRequest(data[0].ReadOnlyData(), m) {
				return nil
			}
		}
	}
	err := c.CodecV2.Unmarshal(data, v)
	if err == nil || !guarded(v) {
		return err
	}
	c.failures.Store(v, err)
	c.pending.Add(1)
	return nil
}

// guarded tells the requests of the services the guard wraps.
func guarded(v any) bool {
	m, ok := v.(proto.Message)
	if !ok {
		return false
	}
	switch m.ProtoReflect().Descriptor().ParentFile().Package() {
	case "megaco.v1", "grpc.health.v1":
		return true
	}
	return false
}

// failure returns, and forgets, the unmarshal failure of m.
func (c *lenientCodec) failure(m any) error {
	if c.pending.Load() == 0 {
		return nil
	}
	err, ok := c.failures.LoadAndDelete(m)
	if !ok {
		return nil
	}
	c.pending.Add(-1)
	return err.(error)
}

// readTranscodeRequest reads the usual TranscodeRequest, data and codecs
// only, into m (a new message, or one reset by putRequest), the data
// copied into m's own Data, whose memory is reused from call to call
// (getRequest): protobuf's Unmarshal allocates the message and a copy
// of the data at every call, and finds its way through the message by
// reflection. A request with anything else (options, a field it does not
// know, a malformed one) is left to Unmarshal: false.
func readTranscodeRequest(b []byte, m *pb.TranscodeRequest) bool {
	var data []byte
	var from, to uint64
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		switch {
		case num == reqData && typ == protowire.BytesType:
			data, n = protowire.ConsumeBytes(b)
		case num == reqFrom && typ == protowire.VarintType:
			from, n = protowire.ConsumeVarint(b)
		case num == reqTo && typ == protowire.VarintType:
			to, n = protowire.ConsumeVarint(b)
		default:
			return false
		}
		if n < 0 {
			return false
		}
		b = b[n:]
	}
	// As protobuf reads them: the last of a repeated field wins, and an
	// enum is the low 32 bits of its varint.
	m.Data = append(m.Data[:0], data...)
	m.From, m.To = pb.Codec(int32(from)), pb.Codec(int32(to))
	return true
}

// requests are TranscodeRequests with their Data's memory, for
// readTranscodeRequest.
var requests = sync.Pool{New: func() any { return new(pb.TranscodeRequest) }}

func getRequest() *pb.TranscodeRequest { return requests.Get().(*pb.TranscodeRequest) }

// putRequest gives m back once nothing holds it or its data, reset but
// for its Data's memory (unless that is too large to keep).
func putRequest(m *pb.TranscodeRequest) {
	data := m.Data[:0]
	m.Reset()
	if cap(data) <= maxPooledOut {
		m.Data = data
	}
	requests.Put(m)
}

// readTranscodeStreamRequest reads a TranscodeStreamRequest of one usual
// request (readTranscodeRequest) into m (a new message, or one reset by
// putStreamRequest), the request taken from getRequest. Anything else is
// left to Unmarshal (false): a batch, or a request given twice (which
// protobuf merges). Batches gained nothing from reused requests: giving
// dozens back to a sync.Pool at every batch allocates as much as they
// save.
func readTranscodeStreamRequest(b []byte, m *pb.TranscodeStreamRequest) bool {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num != fieldRequest || typ != protowire.BytesType || m.Request != nil {
			return false
		}
		b = b[n:]
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		r := getRequest()
		if !readTranscodeRequest(v, r) {
			requests.Put(r) // as it was: read wrote nothing
			return false
		}
		m.Request = r
	}
	return true
}

// streamRequests are TranscodeStreamRequests, for
// readTranscodeStreamRequest.
var streamRequests = sync.Pool{New: func() any { return new(pb.TranscodeStreamRequest) }}

func getStreamRequest() *pb.TranscodeStreamRequest {
	return streamRequests.Get().(*pb.TranscodeStreamRequest)
}

// putStreamRequest gives m and its request back once nothing holds them;
// a batch's requests (Unmarshal's) go to the collector.
func putStreamRequest(m *pb.TranscodeStreamRequest) {
	if m.Request != nil {
		putRequest(m.Request)
	}
	m.Reset()
	streamRequests.Put(m)
}
