// Package server is the codec service behind both gRPC (CodecService) and
// HTTP: one Service does the work, the transports only translate requests,
// responses and errors.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "megaco/api/megaco/v1"
	"megaco/internal/codec"
	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/errclass"
	"megaco/internal/mapping"
	"megaco/internal/mapping/pkgs"
	"megaco/internal/mapping/termid"
	"megaco/internal/model"
	"megaco/internal/protoconv"
)

// Config is what the service needs to know.
type Config struct {
	// MaxMessageSize bounds every input, in bytes.
	MaxMessageSize int
	// Profile is the default text<->binary profile.
	Profile codec.Profile
	// Layout is the default termination ID layout.
	Layout termid.Layout
	// Names are the provisioned termination ID and digit map names (nil:
	// none). Their termination IDs are for Layout, so a request with a
	// names file may not choose another layout.
	Names *mapping.Names
	// Registry maps package names (nil: the embedded registry); see
	// codec.Options.Registry.
	Registry *pkgs.Registry
}

// DefaultConfig: messages up to 64 KiB (the largest a UDP datagram can
// carry; TCP/SCTP peers rarely send more), OTP profile, [8,8,8].
func DefaultConfig() Config {
	return Config{MaxMessageSize: 64 << 10, Profile: codec.ProfileOTP, Layout: termid.Default()}
}

// Service implements the codec operations.
type Service struct {
	pb.UnimplementedCodecServiceServer
	cfg     Config
	metrics *Metrics
	log     *slog.Logger
	// wire: the gRPC server's codec is lenientCodec, which sends
	// wireReplies (codecServiceDesc sets it); otherwise streams answer
	// with protobuf messages.
	wire bool
	// defaults are the codec options of a request that sets none, made
	// once rather than at every call.
	defaults codec.Options
	// transcodeInfo is what the interceptor is told of a Transcode call
	// (codecServiceDesc sets it): the same for every call.
	transcodeInfo *grpc.UnaryServerInfo
	// transcodeFunc is transcodeWire as a value, made once: a method
	// value made at each call is an allocation.
	transcodeFunc grpc.UnaryHandler
}

// New returns a service; metrics and log may be nil.
func New(cfg Config, metrics *Metrics, log *slog.Logger) *Service {
	if cfg.MaxMessageSize <= 0 {
		cfg.MaxMessageSize = DefaultConfig().MaxMessageSize
	}
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Service{cfg: cfg, metrics: metrics, log: log}
	s.defaults = codec.Options{Profile: cfg.Profile, Layout: cfg.Layout, Limits: limits.Default, Names: cfg.Names, Registry: cfg.Registry}
	s.defaults.Limits.MaxSize = cfg.MaxMessageSize
	if metrics != nil {
		s.defaults.Observer = metrics
	}
	return s
}

// TooLargeError is an input over a configured maximum: a message of Size
// bytes, or What of Size Unit.
type TooLargeError struct {
	What      string // "" is a message
	Size, Max int
	Unit      string // "" is bytes
	AtLeast   bool   // Size is a lower bound: the rest was not read
}

// ErrorClass implements errclass.Classed: a limit of the service.
func (e *TooLargeError) ErrorClass() errclass.Class { return errclass.Limit }

func (e *TooLargeError) Error() string {
	if e.What == "" {
		more := ""
		if e.AtLeast {
			more = "more than "
		}
		return fmt.Sprintf("message of %s%d bytes exceeds the limit of %d", more, e.Size, e.Max)
	}
	return fmt.Sprintf("%s of %d %s exceeds the limit of %d", e.What, e.Size, e.Unit, e.Max)
}

// RequestError is a request that names something that does not exist
// (a codec, a profile, a layout).
type RequestError struct{ Msg string }

func (e *RequestError) Error() string { return e.Msg }

// ErrorClass implements errclass.Classed.
func (e *RequestError) ErrorClass() errclass.Class { return errclass.Request }

// options turns request options into codec options.
func (s *Service) options(version uint32, profile, layout string) (codec.Options, error) {
	o := s.defaults
	o.Version = int(version)
	if version > 3 {
		return o, &RequestError{fmt.Sprintf("unsupported protocol version %d (want 1, 2 or 3, or 0 to read it from the message)", version)}
	}
	if profile != "" {
		p, err := codec.ParseProfile(profile)
		if err != nil {
			return o, &RequestError{err.Error()}
		}
		o.Profile = p
	}
	if layout != "" {
		l, err := termid.ParseLayout(layout)
		if err != nil {
			return o, &RequestError{err.Error()}
		}
		if s.cfg.Names != nil && s.cfg.Names.TermIDs != nil && l.String() != s.cfg.Layout.String() {
			return o, &RequestError{fmt.Sprintf("termination ID layout [%s] differs from the server's [%s], for which its termination ID names are provisioned", l, s.cfg.Layout)}
		}
		o.Layout = l
	}
	return o, nil
}

// Do is the one implementation of transcoding behind gRPC and HTTP: the
// pipeline's, with the metrics observing it (opts.Observer); from may be
// "" to detect the input codec. It appends the output to dst (nil for a
// new slice).
func (s *Service) Do(dst, data []byte, from, to string, opts codec.Options) ([]byte, codec.Result, error) {
	if err := s.checkSize(data, from); err != nil {
		return dst, codec.Result{From: from}, err
	}
	if dst == nil {
		// One allocation for the output: encodings of one message differ
		// in size by a small factor (pretty text is about twice BER).
		dst = make([]byte, 0, 2*len(data)+256)
	}
	if m, ok := opts.Observer.(*Metrics); ok && m != nil {
		o := m.observer()
		opts.Observer = o
		out, res, err := codec.Transcode(dst, data, from, to, opts)
		m.release(o)
		return out, res, requestError(err)
	}
	out, res, err := codec.Transcode(dst, data, from, to, opts)
	return out, res, requestError(err)
}

// decode decodes data (detecting the codec when from is empty) into form
// want (codec.InputForm: the codec's own).
func (s *Service) decode(data []byte, from string, want codec.Form, opts codec.Options) (*model.MegacoMessage, string, error) {
	if err := s.checkSize(data, from); err != nil {
		return nil, from, err
	}
	m, from, err := codec.DecodeAs(data, from, want, opts)
	return m, from, requestError(err)
}

// checkSize refuses an input over the service's maximum before any codec
// sees it.
func (s *Service) checkSize(data []byte, from string) error {
	if len(data) <= s.cfg.MaxMessageSize {
		return nil
	}
	err := &TooLargeError{Size: len(data), Max: s.cfg.MaxMessageSize}
	s.metrics.failed(nameOr(strings.ToLower(from)), opDecode, err)
	return err
}

// requestError turns the pipeline's errors about the request itself (a
// codec name no codec has) into RequestErrors.
func requestError(err error) error {
	if errors.Is(err, codec.ErrUnknownCodec) {
		return &RequestError{err.Error()}
	}
	return err
}

func nameOr(s string) string {
	if s == "" || s == "auto" {
		return "unknown"
	}
	return s
}

func codecEnum(name string) pb.Codec { return protoconv.CodecEnum(name) }

func profileName(p pb.Profile) string {
	switch p {
	case pb.Profile_PROFILE_OTP:
		return "otp"
	case pb.Profile_PROFILE_RFC:
		return "rfc"
	}
	return ""
}

func (s *Service) pbOptions(o *pb.Options) (codec.Options, error) {
	return s.options(o.GetVersion(), profileName(o.GetProfile()), o.GetTerminationIdLayout())
}

func outputCodec(c pb.Codec) (string, error) {
	name, ok := protoconv.CodecName(c)
	if !ok {
		return "", &RequestError{fmt.Sprintf("unknown codec %d", c)}
	}
	if name == "" {
		return "", &RequestError{"the output codec must be given (CODEC_UNSPECIFIED only detects an input)"}
	}
	return name, nil
}

// Transcode implements CodecService.
func (s *Service) Transcode(ctx context.Context, req *pb.TranscodeRequest) (*pb.TranscodeResponse, error) {
	a, _, err := s.transcodeOne(nil, req)
	if err != nil {
		return nil, grpcError(err)
	}
	return a.proto(), nil
}

// transcodeOne transcodes one request, appending the output to dst; the
// answer's data is the appended part.
func (s *Service) transcodeOne(dst []byte, req *pb.TranscodeRequest) (answer, []byte, error) {
	opts, err := s.pbOptions(req.GetOptions())
	if err != nil {
		return answer{}, dst, err
	}
	to, err := outputCodec(req.GetTo())
	if err != nil {
		return answer{}, dst, err
	}
	from, ok := protoconv.CodecName(req.GetFrom())
	if !ok {
		return answer{}, dst, &RequestError{fmt.Sprintf("unknown codec %d", req.GetFrom())}
	}
	n := len(dst)
	out, res, err := s.Do(dst, req.GetData(), from, to, opts)
	if err != nil {
		return answer{}, dst, err
	}
	return answer{data: out[n:len(out):len(out)], from: codecEnum(res.From), version: uint32(res.Version)}, out, nil
}

// MaxBatch bounds the requests of one TranscodeStream batch.
const MaxBatch = 1024

// TranscodeStream implements CodecService: each request, or batch of
// requests, is answered in order; a failing message gets its error in its
// response and the stream goes on.
func (s *Service) TranscodeStream(stream pb.CodecService_TranscodeStreamServer) error {
	for {
		// The request is reused (see readTranscodeStreamRequest): it is
		// free again once answered.
		req := getStreamRequest()
		err := stream.RecvMsg(req)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err // req is not reused: its failure may be kept (lenientCodec)
		}
		err = s.answerStream(stream, req)
		putStreamRequest(req)
		if err != nil {
			return err
		}
	}
}

// answerStream answers one stream request: the outputs go to a pooled
// buffer, which is free again once the answer is marshalled.
func (s *Service) answerStream(stream grpc.ServerStream, req *pb.TranscodeStreamRequest) error {
	s.metrics.streamRequest(max(len(req.GetBatch()), 1))
	bp := getOut()
	out := (*bp)[:0]
	var one answer
	var batch []answer
	switch b := req.GetBatch(); {
	case len(b) == 0:
		one, out = s.streamOne(out, req.GetRequest())
	case req.GetRequest() != nil:
		one = streamError(&RequestError{"a stream request sets request or batch, not both"})
	case len(b) > MaxBatch:
		one = streamError(&TooLargeError{What: "batch", Size: len(b), Max: MaxBatch, Unit: "requests"})
	default:
		batch, out = s.streamBatch(out, b)
	}
	if !s.wire {
		err := stream.SendMsg(streamResponse(one, batch))
		putOut(bp, out)
		return err
	}
	r, err := streamReply(one, batch)
	putOut(bp, out)
	if err != nil {
		return status.Errorf(codes.Internal, "marshalling the answer: %v", err)
	}
	return stream.SendMsg(&r)
}

// streamOne answers one request of a stream, an error included, its
// output appended to dst.
func (s *Service) streamOne(dst []byte, req *pb.TranscodeRequest) (answer, []byte) {
	a, out, err := s.transcodeOne(dst, req)
	if err != nil {
		return streamError(err), dst
	}
	return a, out
}

// streamBatch answers a batch, the outputs appended to dst.
func (s *Service) streamBatch(dst []byte, batch []*pb.TranscodeRequest) ([]answer, []byte) {
	size := 256
	for _, r := range batch {
		size += 2 * len(r.GetData())
	}
	// One buffer for the batch: the outputs are slices of it.
	buf := slices.Grow(dst, size)
	out := make([]answer, len(batch))
	total := 0
	for i, r := range batch {
		if total > MaxBatchResponse {
			// What does not fit is answered with an error: clients take
			// 4 MiB per stream message by default, and a response they
			// refuse would end the stream.
			out[i] = streamError(&TooLargeError{What: "batch response", Size: total, Max: MaxBatchResponse, Unit: "bytes (send smaller batches)"})
			continue
		}
		a, next, err := s.transcodeOne(buf, r)
		if err != nil {
			a = streamError(err)
		}
		out[i], buf = a, next
		total += len(a.data) + 64 // and what frames it
	}
	return out, buf
}

// MaxBatchResponse bounds the outputs of one batch: gRPC clients refuse
// stream messages over 4 MiB unless told otherwise.
const MaxBatchResponse = 4<<20 - 256<<10

// streamError is a failed message's answer on a stream.
func streamError(err error) answer {
	pe := &pb.Error{Code: status.Code(grpcError(err)).String(), Message: clip(err.Error())}
	if e, ok := codecerr.As(err); ok {
		pe.Codec, pe.Field, pe.Position = e.Codec, e.Path(), e.Where()
	}
	return answer{failed: &pb.TranscodeResponse{Error: pe}}
}

// Decode implements CodecService.
func (s *Service) Decode(ctx context.Context, req *pb.DecodeRequest) (*pb.DecodeResponse, error) {
	opts, err := s.pbOptions(req.GetOptions())
	if err != nil {
		return nil, grpcError(err)
	}
	from, ok := protoconv.CodecName(req.GetCodec())
	if !ok {
		return nil, grpcError(&RequestError{fmt.Sprintf("unknown codec %d", req.GetCodec())})
	}
	if _, ok := pb.DecodeView_name[int32(req.GetView())]; !ok {
		return nil, grpcError(&RequestError{fmt.Sprintf("unknown view %d", req.GetView())})
	}
	want, wantSet := formOf(req.GetOptions().GetForm())
	if !wantSet {
		want = codec.InputForm
	}
	m, from, err := s.decode(req.GetData(), from, want, opts)
	if err != nil {
		return nil, grpcError(err)
	}
	if want == codec.InputForm {
		want = codec.FormOf(from)
	}
	resp, err := protoconv.NewDecodeResponse(m, from, want, req.GetView(), opts)
	if err != nil {
		return nil, grpcError(err)
	}
	return resp, nil
}

func formOf(f pb.Form) (codec.Form, bool) {
	switch f {
	case pb.Form_FORM_TEXT:
		return codec.Text, true
	case pb.Form_FORM_BINARY:
		return codec.Binary, true
	}
	return codec.Binary, false
}

// Encode implements CodecService.
func (s *Service) Encode(ctx context.Context, req *pb.EncodeRequest) (*pb.EncodeResponse, error) {
	opts, err := s.pbOptions(req.GetOptions())
	if err != nil {
		return nil, grpcError(err)
	}
	to, err := outputCodec(req.GetCodec())
	if err != nil {
		return nil, grpcError(err)
	}
	enc, err := codec.Lookup(to, opts)
	if err != nil {
		return nil, grpcError(requestError(err))
	}
	if req.GetMessage().GetMess() == nil {
		return nil, grpcError(&RequestError{"message.mess is missing"})
	}
	m := protoconv.FromProto(req.GetMessage())
	given, set := formOf(req.GetOptions().GetForm())
	if !set {
		given = codec.FormOf(to)
	}
	if err := codec.Convert(m, given, codec.FormOf(to), opts); err != nil {
		s.metrics.failed(to, opEncode, err)
		return nil, grpcError(err)
	}
	out, err := codec.Encode(make([]byte, 0, 512), enc, to, m, opts)
	if err != nil {
		return nil, grpcError(err)
	}
	return &pb.EncodeResponse{Data: out}, nil
}

// grpcError maps an error to a status with google.rpc.BadRequest details
// naming the field and where in the input it went wrong.
func grpcError(err error) error {
	// Messages are clipped: a codec that echoes its input must not make
	// a status as large as the request.
	msg := clip(err.Error())
	class := errclass.Of(err)
	st := status.New(class.Row().GRPC, msg)
	if e, ok := codecerr.As(err); ok && class.IsCodec() {
		field := e.Path()
		if field == "" {
			field = "data"
		}
		if d, derr := st.WithDetails(&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: field, Description: msg},
		}}); derr == nil {
			st = d
		}
	}
	return st.Err()
}
