package server

import (
	"context"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

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
	size := proto.Size(m)
	opts := proto.MarshalOptions{UseCachedSize: true} // Size just ran
	if mem.IsBelowBufferPoolingThreshold(size) {
		b, err := opts.MarshalAppend(make([]byte, 0, size), m)
		return wireReply{data: b}, err
	}
	buf := bufferPool.Get(size)
	b, err := opts.MarshalAppend((*buf)[:0], m)
	if err != nil {
		bufferPool.Put(buf)
		return wireReply{}, err
	}
	return wireReply{buf: buf, data: b}, nil
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
	in := new(pb.TranscodeRequest)
	if err := dec(in); err != nil {
		return nil, err
	}
	if icpt == nil {
		return s.transcodeWire(ctx, in)
	}
	info := &grpc.UnaryServerInfo{Server: srv, FullMethod: pb.CodecService_Transcode_FullMethodName}
	return icpt(ctx, in, info, s.transcodeWire)
}

// transcodeWire is Transcode with the answer marshalled.
func (s *Service) transcodeWire(_ context.Context, req any) (any, error) {
	bp := getOut()
	resp, out, err := s.transcodeOne((*bp)[:0], req.(*pb.TranscodeRequest))
	if err != nil {
		putOut(bp, out)
		return nil, grpcError(err)
	}
	r, err := marshalReply(resp)
	putOut(bp, out)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "marshalling the answer: %v", err)
	}
	return &r, nil
}
