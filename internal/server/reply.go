package server

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	pb "megaco/api/megaco/v1"
)

// The Transcode answers of gRPC are marshalled by the service itself, the
// codec's output taken from a pooled buffer that goes back as soon as the
// answer is marshalled: each call used to allocate its output buffer
// (twice the input, about 1 KiB; a batch's, tens of KiB) for gRPC to
// marshal from once the handler had returned, when nothing could give it
// back.

// wireReply is an answer already in protobuf's wire form: lenientCodec
// hands it to gRPC as it is.
type wireReply struct {
	buf  *[]byte // from bufferPool; nil: data is a slice of its own
	data []byte
}

// marshalReply marshals m: into a buffer of bufferPool when it is over
// gRPC's pooling threshold (charged to the in-flight cap once gRPC takes
// it: buffers), else into a slice of its own, as gRPC's codec does.
func marshalReply(m proto.Message) (wireReply, error) {
	r := newWireReply(proto.Size(m))
	var err error
	r.data, err = proto.MarshalOptions{UseCachedSize: true}.MarshalAppend(r.data, m) // Size just ran
	if err != nil {
		r.free()
		return wireReply{}, err
	}
	return r, nil
}

// newWireReply is an empty reply with room for size bytes: in a buffer
// of bufferPool when that is over gRPC's pooling threshold, else in a
// slice of its own, as gRPC's codec does.
func newWireReply(size int) wireReply {
	if mem.IsBelowBufferPoolingThreshold(size) {
		return wireReply{data: make([]byte, 0, size)}
	}
	buf := bufferPool.Get(size)
	return wireReply{buf: buf, data: (*buf)[:0]}
}

// free gives back the pooled buffer of a reply that is not sent.
func (r *wireReply) free() {
	if r.buf != nil {
		bufferPool.Put(r.buf)
	}
}

// pooled is the size of the pooled buffer the answer holds (0: none).
func (r *wireReply) pooled() int64 {
	if r.buf == nil {
		return 0
	}
	return int64(cap(*r.buf))
}

// buffers hands the answer to gRPC, a pooled buffer charged to f until
// gRPC has written it (answerBuf).
func (r *wireReply) buffers(f *inFlight) mem.BufferSlice {
	if r.buf == nil {
		return mem.BufferSlice{mem.SliceBuffer(r.data)}
	}
	*r.buf = r.data
	return mem.BufferSlice{mem.NewBuffer(r.buf, newAnswerBuf(f, cap(*r.buf)))}
}

// outBufs are the codecs' output buffers, *[]byte.
var outBufs = sync.Pool{New: func() any {
	b := make([]byte, 0, 4<<10)
	return &b
}}

// maxPooledOut bounds the buffers outBufs keeps: a few large messages
// must not leave every pooled buffer large.
const maxPooledOut = 64 << 10

func getOut() *[]byte { return outBufs.Get().(*[]byte) }

// putOut gives bp back to outBufs, holding out (what was appended to it,
// maybe grown) unless that is too large to keep.
func putOut(bp *[]byte, out []byte) {
	if cap(out) <= maxPooledOut {
		*bp = out[:0]
		outBufs.Put(bp)
	}
}

// codecServiceDesc is CodecService's description with Transcode's
// handler answering a wireReply, for a server whose codec is
// lenientCodec; TranscodeStream then answers wireReplies too.
func (s *Service) codecServiceDesc() *grpc.ServiceDesc {
	s.wire = true
	s.transcodeInfo = &grpc.UnaryServerInfo{Server: s, FullMethod: pb.CodecService_Transcode_FullMethodName}
	s.transcodeFunc = s.transcodeWire
	d := pb.CodecService_ServiceDesc
	d.Methods = append([]grpc.MethodDesc(nil), d.Methods...)
	for i := range d.Methods {
		if d.Methods[i].MethodName == "Transcode" {
			d.Methods[i].Handler = s.transcodeHandler
		}
	}
	return &d
}

// transcodeHandler is the generated Transcode handler, but for its
// answer: a wireReply, not a *pb.TranscodeResponse.
func (s *Service) transcodeHandler(srv any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
	in := getRequest()
	if err := dec(in); err != nil {
		return nil, err // in is not reused: its failure may be kept (lenientCodec)
	}
	// Nothing holds the request once answered: the answer is in a
	// buffer of its own, and errors and logs copy what they quote.
	defer putRequest(in)
	if icpt == nil {
		return s.transcodeWire(ctx, in)
	}
	info := s.transcodeInfo
	if srv != info.Server {
		info = &grpc.UnaryServerInfo{Server: srv, FullMethod: info.FullMethod}
	}
	return icpt(ctx, in, info, s.transcodeFunc)
}

// transcodeWire is Transcode with the answer marshalled.
func (s *Service) transcodeWire(_ context.Context, req any) (any, error) {
	bp := getOut()
	a, out, err := s.transcodeOne((*bp)[:0], req.(*pb.TranscodeRequest))
	if err != nil {
		putOut(bp, out)
		return nil, grpcError(err)
	}
	r := newWireReply(a.size())
	r.data, err = a.appendTo(r.data)
	putOut(bp, out)
	if err != nil {
		r.free()
		return nil, status.Errorf(codes.Internal, "marshalling the answer: %v", err)
	}
	return &r, nil
}

// answer is one message's TranscodeResponse: its output, a slice of the
// (pooled) buffer the codec appended it to, and what the input was; or
// its failure (on a stream). The service writes an answer's wire form
// itself (appendTo), the bytes protobuf's Marshal makes: without the
// response message, and without protobuf's reflection sizing and
// marshalling it, which cost as much as the rest of the call around the
// codec.
type answer struct {
	data    []byte
	from    pb.Codec
	version uint32
	failed  *pb.TranscodeResponse // set: the answer is this
	n       int                   // its wire size, once streamReply has taken it
}

// The field numbers of the messages the service reads and writes in
// their wire form itself, taken from the generated descriptors: the
// .proto (api/megaco/v1/codec.proto) stays their one source.
var (
	fieldData     = fieldNumber(&pb.TranscodeResponse{}, "data")
	fieldFrom     = fieldNumber(&pb.TranscodeResponse{}, "from")
	fieldVersion  = fieldNumber(&pb.TranscodeResponse{}, "version")
	reqData       = fieldNumber(&pb.TranscodeRequest{}, "data")
	reqFrom       = fieldNumber(&pb.TranscodeRequest{}, "from")
	reqTo         = fieldNumber(&pb.TranscodeRequest{}, "to")
	fieldResponse = fieldNumber(&pb.TranscodeStreamResponse{}, "response")
	fieldBatch    = fieldNumber(&pb.TranscodeStreamResponse{}, "batch")
	fieldRequest  = fieldNumber(&pb.TranscodeStreamRequest{}, "request")
)

func fieldNumber(m proto.Message, name protoreflect.Name) protowire.Number {
	f := m.ProtoReflect().Descriptor().Fields().ByName(name)
	if f == nil {
		panic(fmt.Sprintf("server: %s has no field %s", m.ProtoReflect().Descriptor().FullName(), name))
	}
	return f.Number()
}

func (a *answer) proto() *pb.TranscodeResponse {
	if a.failed != nil {
		return a.failed
	}
	return &pb.TranscodeResponse{Data: a.data, From: a.from, Version: a.version}
}

// size is the answer's wire size.
func (a *answer) size() int {
	if a.failed != nil {
		return proto.Size(a.failed)
	}
	n := 0
	if len(a.data) > 0 {
		n += protowire.SizeTag(fieldData) + protowire.SizeBytes(len(a.data))
	}
	if a.from != 0 {
		n += protowire.SizeTag(fieldFrom) + protowire.SizeVarint(uint64(a.from))
	}
	if a.version != 0 {
		n += protowire.SizeTag(fieldVersion) + protowire.SizeVarint(uint64(a.version))
	}
	return n
}

// appendTo appends the answer's wire form to b, after size (which sized
// a failure's message).
func (a *answer) appendTo(b []byte) ([]byte, error) {
	if a.failed != nil {
		return proto.MarshalOptions{UseCachedSize: true}.MarshalAppend(b, a.failed)
	}
	// Fields in order of their numbers, zero values left out: as
	// protobuf writes them.
	if len(a.data) > 0 {
		b = protowire.AppendTag(b, fieldData, protowire.BytesType)
		b = protowire.AppendBytes(b, a.data)
	}
	if a.from != 0 {
		b = protowire.AppendTag(b, fieldFrom, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(a.from))
	}
	if a.version != 0 {
		b = protowire.AppendTag(b, fieldVersion, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(a.version))
	}
	return b, nil
}

// streamResponse is a stream's answer as a message: one answer, or a
// batch's (batch not nil).
func streamResponse(one answer, batch []answer) *pb.TranscodeStreamResponse {
	if batch == nil {
		return &pb.TranscodeStreamResponse{Response: one.proto()}
	}
	resp := &pb.TranscodeStreamResponse{Batch: make([]*pb.TranscodeResponse, len(batch))}
	for i := range batch {
		resp.Batch[i] = batch[i].proto()
	}
	return resp
}

// streamReply is streamResponse's wire form.
func streamReply(one answer, batch []answer) (wireReply, error) {
	field, answers := fieldResponse, []answer{one}
	if batch != nil {
		field, answers = fieldBatch, batch
	}
	size := 0
	for i := range answers {
		answers[i].n = answers[i].size()
		size += protowire.SizeTag(field) + protowire.SizeBytes(answers[i].n)
	}
	r := newWireReply(size)
	for i := range answers {
		r.data = protowire.AppendTag(r.data, field, protowire.BytesType)
		r.data = protowire.AppendVarint(r.data, uint64(answers[i].n))
		var err error
		if r.data, err = answers[i].appendTo(r.data); err != nil {
			r.free()
			return wireReply{}, err
		}
	}
	return r, nil
}
