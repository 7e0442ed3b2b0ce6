package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
	"google.golang.org/protobuf/proto"
)

// guard applies Limits to the gRPC calls: it is wrapped around each
// method's handler (wrapDesc), inside gRPC's own decoding, so it sees the
// request as soon as it is read and its size. It
//
//   - refuses a request over the in-flight byte cap (ResourceExhausted);
//   - answers a request that is not valid protobuf with InvalidArgument,
//     counted (gRPC itself says Internal);
//   - ends a stream whose Send is blocked for SendTimeout by a client
//     that does not read, closing its connection;
//   - ends each stream at the drain: at once when it waits for the next
//     message, after the answer to the message in hand otherwise.
type guard struct {
	limits   Limits
	inFlight *inFlight
	metrics  *serverMetrics
	conns    *limitListener // to close a stalled client's connection

	// streamMethods are the full names of the guarded streaming methods,
	// set by wrapDesc before the server starts.
	streamMethods map[string]bool

	mu       sync.Mutex
	draining bool
	streams  map[*streamCtl]struct{}
}

func newGuard(l Limits, f *inFlight, m *serverMetrics, conns *limitListener) *guard {
	return &guard{limits: l, inFlight: f, metrics: m, conns: conns, streams: make(map[*streamCtl]struct{}), streamMethods: make(map[string]bool)}
}

// options are the gRPC server options that carry the limits gRPC
// enforces itself. drain is the grace a connection closed for its age
// gives its calls, as SIGTERM does.
func (g *guard) options(drain time.Duration) []grpc.ServerOption {
	l := g.limits
	return []grpc.ServerOption{
		grpc.MaxConcurrentStreams(l.MaxStreams),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: l.KeepaliveMinTime, PermitWithoutStream: true}),
		grpc.KeepaliveParams(keepalive.ServerParameters{
			MaxConnectionIdle: l.MaxConnIdle, MaxConnectionAge: l.MaxConnAge, MaxConnectionAgeGrace: drain,
			Time: l.KeepaliveTime, Timeout: l.KeepaliveTimeout,
		}),
		grpc.InitialWindowSize(l.WindowSize),
		grpc.InitialConnWindowSize(l.ConnWindowSize),
		grpc.MaxHeaderListSize(uint32(l.MaxHeaderBytes)),
		grpc.ConnectionTimeout(l.HandshakeTimeout),
		grpc.InTapHandle(g.tap),
	}
}

// streamCtl is what the guard holds of one open stream: the cancel of
// its context, and whether it has a message in hand.
type streamCtl struct {
	cancel   context.CancelCauseFunc
	mu       sync.Mutex
	busy     bool
	timedOut bool // Send blocked for SendTimeout
}

type ctlKey struct{}

// errDraining is the cause a stream's context is cancelled with by the
// drain.
var errDraining = errors.New("server draining")

// tap gives each stream a context the guard can cancel: gRPC's own is
// cancelled only by the client or the transport, and Recv returns only
// when a message comes or the context ends. It runs on the connection's
// reader, so it does no more than that; unary calls are left alone.
func (g *guard) tap(ctx context.Context, info *tap.Info) (context.Context, error) {
	if !g.isStream(info.FullMethodName) {
		return ctx, nil
	}
	ctx, cancel := context.WithCancelCause(ctx)
	return context.WithValue(ctx, ctlKey{}, &streamCtl{cancel: cancel}), nil
}

func (g *guard) isStream(method string) bool { return g.streamMethods[method] }

// wrapDesc returns desc with every handler guarded.
func (g *guard) wrapDesc(desc *grpc.ServiceDesc) *grpc.ServiceDesc {
	d := *desc
	d.Methods = append([]grpc.MethodDesc(nil), desc.Methods...)
	for i := range d.Methods {
		d.Methods[i].Handler = g.unary(d.Methods[i].Handler)
	}
	d.Streams = append([]grpc.StreamDesc(nil), desc.Streams...)
	for i := range d.Streams {
		g.streamMethods["/"+desc.ServiceName+"/"+d.Streams[i].StreamName] = true
		d.Streams[i].Handler = g.stream(d.Streams[i].Handler)
	}
	return &d
}

func (g *guard) unary(h grpc.MethodHandler) grpc.MethodHandler {
	return func(srv any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
		var held int64
		defer func() { g.inFlight.release(held) }()
		return h(srv, ctx, func(m any) error {
			if err := dec(m); err != nil {
				return g.recvError(err)
			}
			n, err := g.acquire(m)
			held = n
			return err
		}, icpt)
	}
}

// recvError maps gRPC's error for a request it could not read: Internal
// there is a request that is not protobuf (or that does not decompress),
// which is the client's fault.
func (g *guard) recvError(err error) error {
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.Internal {
		return err
	}
	g.metrics.reject("grpc", reasonMalformed)
	msg := strings.TrimPrefix(st.Message(), "grpc: ")
	return status.Error(codes.InvalidArgument, "malformed request: "+clip(msg))
}

// acquire takes the request's size from the in-flight cap.
func (g *guard) acquire(m any) (int64, error) {
	pm, ok := m.(proto.Message)
	if !ok {
		return 0, nil
	}
	n := int64(proto.Size(pm))
	if !g.inFlight.acquire(n) {
		g.metrics.reject("grpc", reasonInFlight)
		return 0, status.Errorf(codes.ResourceExhausted, "server busy: %d bytes of requests in flight (limit %d); retry later", g.inFlight.used.Load(), g.inFlight.max)
	}
	return n, nil
}

func (g *guard) stream(h grpc.StreamHandler) grpc.StreamHandler {
	return func(srv any, ss grpc.ServerStream) error {
		ctl, _ := ss.Context().Value(ctlKey{}).(*streamCtl)
		if ctl == nil { // not tapped: a method added after wrapDesc
			return h(srv, ss)
		}
		if !g.add(ctl) {
			g.metrics.reject("grpc", reasonDraining)
			return status.Error(codes.Unavailable, "server draining")
		}
		gs := &guardedStream{ServerStream: ss, g: g, ctl: ctl}
		defer func() {
			g.remove(ctl)
			g.inFlight.release(gs.held)
			if gs.timer != nil {
				gs.timer.Stop()
			}
		}()
		return h(srv, gs)
	}
}

func (g *guard) add(c *streamCtl) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.draining {
		return false
	}
	g.streams[c] = struct{}{}
	return true
}

func (g *guard) remove(c *streamCtl) {
	g.mu.Lock()
	delete(g.streams, c)
	g.mu.Unlock()
}

// drain ends the streams waiting for their next message and marks the
// others to end once their answer is sent.
func (g *guard) drain() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.draining = true
	for c := range g.streams {
		c.mu.Lock()
		if !c.busy {
			c.cancel(errDraining)
		}
		c.mu.Unlock()
	}
}

func (g *guard) isDraining() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.draining
}

// guardedStream is a stream under the guard.
type guardedStream struct {
	grpc.ServerStream
	g     *guard
	ctl   *streamCtl
	held  int64 // in-flight bytes of the message in hand
	timer *time.Timer
}

var errDrained = status.Error(codes.Unavailable, "server draining: the stream is ended; open a new one")

func (s *guardedStream) RecvMsg(m any) error {
	// The previous message is answered: it no longer counts.
	s.g.inFlight.release(s.held)
	s.held = 0
	s.ctl.mu.Lock()
	s.ctl.busy = false
	s.ctl.mu.Unlock()
	if s.g.isDraining() {
		s.g.metrics.reject("grpc", reasonDraining)
		return errDrained
	}
	err := s.ServerStream.RecvMsg(m)
	if err != nil {
		// A stream the drain ended while it waited: gRPC has already
		// answered it Canceled (it writes the status of a failed Recv
		// itself), so the status here only reaches the log.
		if errors.Is(context.Cause(s.Context()), errDraining) {
			s.g.metrics.reject("grpc", reasonDraining)
			return errDrained
		}
		return s.g.recvError(err)
	}
	s.ctl.mu.Lock()
	s.ctl.busy = true
	s.ctl.mu.Unlock()
	s.held, err = s.g.acquire(m)
	return err
}

// SendMsg sends with a deadline: gRPC's Send blocks while the client's
// flow-control window is full, and only the end of the stream's context
// or of its connection unblocks it. The guard closes the connection: the
// data already queued for a client that does not read would otherwise
// stay queued (behind it, even the stream's end) until the connection
// ends.
func (s *guardedStream) SendMsg(m any) error {
	if s.timer == nil {
		s.timer = time.AfterFunc(s.g.limits.SendTimeout, s.stalled)
	} else {
		s.timer.Reset(s.g.limits.SendTimeout)
	}
	err := s.ServerStream.SendMsg(m)
	if !s.timer.Stop() && err != nil {
		s.ctl.mu.Lock()
		t := s.ctl.timedOut
		s.ctl.mu.Unlock()
		if t {
			return status.Errorf(codes.ResourceExhausted, "send blocked for %s: the client is not reading", s.g.limits.SendTimeout)
		}
	}
	return err
}

// stalled ends a stream whose Send has been blocked for SendTimeout.
func (s *guardedStream) stalled() {
	s.ctl.mu.Lock()
	s.ctl.timedOut = true
	s.ctl.mu.Unlock()
	s.g.metrics.reject("grpc", reasonSendTimeout)
	s.ctl.cancel(fmt.Errorf("send blocked for %s", s.g.limits.SendTimeout))
	if p, ok := peer.FromContext(s.Context()); ok && s.g.conns != nil {
		s.g.conns.closeConn(p.Addr)
	}
}
