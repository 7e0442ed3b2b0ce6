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
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "megaco/api/megaco/v1"
	"megaco/internal/codec"
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
}

// New returns a service; metrics and log may be nil.
func New(cfg Config, metrics *Metrics, log *slog.Logger) *Service {
	if cfg.MaxMessageSize <= 0 {
		cfg.MaxMessageSize = DefaultConfig().MaxMessageSize
	}
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Service{cfg: cfg, metrics: metrics, log: log}
}

// TooLargeError is an input over the configured maximum.
type TooLargeError struct{ Size, Max int }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("message of %d bytes exceeds the limit of %d", e.Size, e.Max)
}

// RequestError is a request that names something that does not exist
// (a codec, a profile, a layout).
type RequestError struct{ Msg string }

func (e *RequestError) Error() string { return e.Msg }

// options turns request options into codec options.
func (s *Service) options(version uint32, profile, layout string) (codec.Options, error) {
	o := codec.Options{Version: int(version), Profile: s.cfg.Profile, Layout: s.cfg.Layout}
	o.Limits = codec.DefaultLimits
	o.Limits.MaxSize = s.cfg.MaxMessageSize
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
		o.Layout = l
	}
	return o, nil
}

func (s *Service) lookup(name string, opts codec.Options) (codec.Codec, error) {
	c, err := codec.Lookup(name, opts)
	if err != nil {
		return nil, &RequestError{err.Error()}
	}
	return c, nil
}

// Do is the one implementation of transcoding behind gRPC and HTTP; from
// may be "" to detect the input codec.
func (s *Service) Do(data []byte, from, to string, opts codec.Options) ([]byte, codec.Result, error) {
	var res codec.Result
	enc, err := s.lookup(to, opts)
	if err != nil {
		return nil, res, err
	}
	m, release, from, err := s.decodeWith(data, from, codec.FormOf(to), opts, true)
	res.From = from
	if err != nil {
		return nil, res, err
	}
	defer release()
	res.Version = int(m.Mess.Version)
	out, err := s.encode(enc, to, m, opts, len(data))
	return out, res, err
}

// decode decodes data (detecting the codec when from is empty) into form want.
func (s *Service) decode(data []byte, from string, want codec.Form, opts codec.Options) (*model.MegacoMessage, string, error) {
	m, _, from, err := s.decodeWith(data, from, want, opts, false)
	return m, from, err
}

// decodeWith decodes, with reused decoder memory when transient (the
// message is then valid until release is called).
func (s *Service) decodeWith(data []byte, from string, want codec.Form, opts codec.Options, transient bool) (*model.MegacoMessage, func(), string, error) {
	nop := func() {}
	if len(data) > s.cfg.MaxMessageSize {
		err := &TooLargeError{len(data), s.cfg.MaxMessageSize}
		s.metrics.failed(nameOr(from), opDecode, err)
		return nil, nop, from, err
	}
	if from == "" || from == "auto" {
		var err error
		if from, err = codec.Detect(data); err != nil {
			s.metrics.failed("unknown", opDecode, err)
			return nil, nop, "", err
		}
	}
	if _, err := s.lookup(from, opts); err != nil {
		return nil, nop, from, err
	}
	start := time.Now()
	var m *model.MegacoMessage
	release := nop
	var err error
	if transient {
		m, release, _, err = codec.DecodeTransient(data, from, want, opts)
	} else {
		m, _, err = codec.DecodeAs(data, from, want, opts)
	}
	if err != nil {
		s.metrics.failed(from, opDecode, err)
		return nil, nop, from, err
	}
	s.metrics.observe(from, opDecode, int(m.Mess.Version), start, len(data))
	return m, release, from, nil
}

func (s *Service) encode(enc codec.Codec, to string, m *model.MegacoMessage, opts codec.Options, sizeHint int) ([]byte, error) {
	start := time.Now()
	// One allocation for the output: encodings of one message differ in
	// size by a small factor (pretty text is about twice BER).
	out, err := enc.Append(make([]byte, 0, 2*sizeHint+256), m)
	if err != nil {
		s.metrics.failed(to, opEncode, err)
		return nil, err
	}
	v := opts.Version
	if v == 0 {
		v = int(m.Mess.Version)
	}
	s.metrics.observe(to, opEncode, v, start, len(out))
	return out, nil
}

func nameOr(s string) string {
	if s == "" || s == "auto" {
		return "unknown"
	}
	return s
}

// Codec names between the API enum and the registry.
var codecNames = map[pb.Codec]string{
	pb.Codec_CODEC_UNSPECIFIED: "",
	pb.Codec_CODEC_BER:         "ber",
	pb.Codec_CODEC_PER:         "per",
	pb.Codec_CODEC_PRETTY:      "pretty",
	pb.Codec_CODEC_COMPACT:     "compact",
	pb.Codec_CODEC_NATIVE:      "native",
	pb.Codec_CODEC_NATIVE_ZSTD: "native-zstd",
	pb.Codec_CODEC_NATIVE_S2:   "native-s2",
}

func codecEnum(name string) pb.Codec {
	for k, v := range codecNames {
		if v == name {
			return k
		}
	}
	return pb.Codec_CODEC_UNSPECIFIED
}

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
	name, ok := codecNames[c]
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
	resp, err := s.transcodeOne(req)
	if err != nil {
		return nil, grpcError(err)
	}
	return resp, nil
}

func (s *Service) transcodeOne(req *pb.TranscodeRequest) (*pb.TranscodeResponse, error) {
	opts, err := s.pbOptions(req.GetOptions())
	if err != nil {
		return nil, err
	}
	to, err := outputCodec(req.GetTo())
	if err != nil {
		return nil, err
	}
	from, ok := codecNames[req.GetFrom()]
	if !ok {
		return nil, &RequestError{fmt.Sprintf("unknown codec %d", req.GetFrom())}
	}
	out, res, err := s.Do(req.GetData(), from, to, opts)
	if err != nil {
		return nil, err
	}
	return &pb.TranscodeResponse{Data: out, From: codecEnum(res.From), Version: uint32(res.Version)}, nil
}

// TranscodeStream implements CodecService: each request is answered in
// order; a failing message gets its error in the response, the stream
// goes on.
func (s *Service) TranscodeStream(stream pb.CodecService_TranscodeStreamServer) error {
	for {
		req, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		resp, err := s.transcodeOne(req.GetRequest())
		if err != nil {
			st := grpcError(err)
			loc, _ := codec.Locate(err)
			resp = &pb.TranscodeResponse{Error: &pb.Error{
				Code: status.Code(st).String(), Message: err.Error(),
				Codec: loc.Codec, Field: loc.Field, Position: loc.Position,
			}}
		}
		if err := stream.Send(&pb.TranscodeStreamResponse{Response: resp}); err != nil {
			return err
		}
	}
}

// Decode implements CodecService.
func (s *Service) Decode(ctx context.Context, req *pb.DecodeRequest) (*pb.DecodeResponse, error) {
	opts, err := s.pbOptions(req.GetOptions())
	if err != nil {
		return nil, grpcError(err)
	}
	from, ok := codecNames[req.GetCodec()]
	if !ok {
		return nil, grpcError(&RequestError{fmt.Sprintf("unknown codec %d", req.GetCodec())})
	}
	want, wantSet := formOf(req.GetOptions().GetForm())
	data := req.GetData()
	if from == "" {
		if from, err = codec.Detect(data); err != nil {
			return nil, grpcError(err)
		}
	}
	if !wantSet {
		want = codec.FormOf(from)
	}
	m, from, err := s.decode(data, from, want, opts)
	if err != nil {
		return nil, grpcError(err)
	}
	form := pb.Form_FORM_BINARY
	if want == codec.Text {
		form = pb.Form_FORM_TEXT
	}
	return &pb.DecodeResponse{Message: protoconv.ToProto(m), Codec: codecEnum(from), Version: m.Mess.Version, Form: form}, nil
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
	enc, err := s.lookup(to, opts)
	if err != nil {
		return nil, grpcError(err)
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
	out, err := s.encode(enc, to, m, opts, 512)
	if err != nil {
		return nil, grpcError(err)
	}
	return &pb.EncodeResponse{Data: out}, nil
}

// grpcError maps an error to a status with google.rpc.BadRequest details
// naming the field and where in the input it went wrong.
func grpcError(err error) error {
	var tooLarge *TooLargeError
	var reqErr *RequestError
	switch {
	case errors.As(err, &tooLarge):
		return status.Error(codes.ResourceExhausted, err.Error())
	case errors.As(err, &reqErr):
		return status.Error(codes.InvalidArgument, err.Error())
	}
	if loc, ok := codec.Locate(err); ok {
		st := status.New(codes.InvalidArgument, err.Error())
		field := loc.Field
		if field == "" {
			field = "data"
		}
		if d, derr := st.WithDetails(&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: field, Description: err.Error()},
		}}); derr == nil {
			st = d
		}
		return st.Err()
	}
	if errors.Is(err, codec.ErrUndetected) {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	return status.Error(codes.Internal, err.Error())
}
