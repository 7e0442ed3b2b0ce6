package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/experimental"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/mem"
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

	// methods are the full names of the guarded methods (true: a
	// stream), set by wrapDesc before the server starts.
	methods map[string]bool
	calls   atomic.Int64 // guarded calls open
	codec   *lenientCodec

	mu       sync.Mutex
	draining bool
	streams  map[*streamCtl]struct{}
}

func newGuard(l Limits, f *inFlight, m *serverMetrics, conns *limitListener) *guard {
	return &guard{limits: l, inFlight: f, metrics: m, conns: conns, streams: make(map[*streamCtl]struct{}), methods: make(map[string]bool), codec: newLenientCodec(f)}
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
		grpc.ForceServerCodecV2(g.codec),
		experimental.BufferPool(bufferPool),
	}
}

// bufferPool is gRPC's buffer pool with a size class for every power of
// two from 4 KiB to 4 MiB. gRPC's default has none between 32 KiB and
// 1 MiB, so each 40 KiB answer queued for a client that reads slowly
// held a 1 MiB buffer: about 1.3 MB per stream a client stops reading.
var bufferPool = func() mem.BufferPool {
	p, err := mem.NewBinaryTieredBufferPool(8, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22)
	if err != nil {
		panic(err)
	}
	return p
}()

// streamCtl is what the guard holds of one open stream: the cancel of
// its context, and whether it has a message in hand.
type streamCtl struct {
	cancel   context.CancelCauseFunc
	status   statusWriter // nil: gRPC's stream does not offer it
	stop     func() bool  // stops the release of the call's slot at the context's end
	mu       sync.Mutex
	busy     bool
	timedOut bool // Send blocked for SendTimeout
}

type ctlKey struct{}

// statusWriter is gRPC's transport stream, which ends a stream with a
// status of its own choosing. The drain uses it to end a stream waiting
// for its next message with Unavailable: a cancelled context alone would
// make gRPC answer Canceled, which clients do not retry.
type statusWriter interface {
	WriteStatus(*status.Status) error
}

// errDraining is the cause a stream's context is cancelled with by the
// drain.
var errDraining = errors.New("server draining")

// tap runs on the connection's reader before a call gets a goroutine:
// it refuses a call over MaxCalls (all connections together; a refusal
// here costs no goroutine and reads no message), and gives a stream a
// context the guard can cancel: gRPC's own is cancelled only by the
// client or the transport, and Recv returns only when a message comes or
// the context ends. Methods the guard does not wrap (reflection) pass.
func (g *guard) tap(ctx context.Context, info *tap.Info) (context.Context, error) {
	isStream, ok := g.methods[info.FullMethodName]
	if !ok {
		return ctx, nil
	}
	if n := g.calls.Add(1); n > int64(g.limits.MaxCalls) {
		g.calls.Add(-1)
		g.metrics.reject("grpc", reasonCalls)
		return nil, status.Errorf(codes.ResourceExhausted, "server busy: %d calls open (limit %d); retry later", n-1, g.limits.MaxCalls)
	}
	ctl := &streamCtl{}
	if isStream { // a unary call is never cancelled by the guard
		ctx, ctl.cancel = context.WithCancelCause(ctx)
	}
	// The slot is given back when the handler ends (stop) or, for a call
	// that never reaches it (an expired deadline), when its context ends.
	ctl.stop = context.AfterFunc(ctx, g.releaseCall)
	return context.WithValue(ctx, ctlKey{}, ctl), nil
}

func (g *guard) releaseCall() { g.calls.Add(-1) }

// end gives back the call's slot.
func (g *guard) end(ctl *streamCtl) {
	if ctl != nil && ctl.stop() {
		g.releaseCall()
	}
}

// wrapDesc returns desc with every handler guarded.
func (g *guard) wrapDesc(desc *grpc.ServiceDesc) *grpc.ServiceDesc {
	d := *desc
	d.Methods = append([]grpc.MethodDesc(nil), desc.Methods...)
	for i := range d.Methods {
		g.methods["/"+desc.ServiceName+"/"+d.Methods[i].MethodName] = false
		d.Methods[i].Handler = g.unary(d.Methods[i].Handler)
	}
	d.Streams = append([]grpc.StreamDesc(nil), desc.Streams...)
	for i := range d.Streams {
		g.methods["/"+desc.ServiceName+"/"+d.Streams[i].StreamName] = true
		d.Streams[i].Handler = g.stream(d.Streams[i].Handler)
	}
	return &d
}

func (g *guard) unary(h grpc.MethodHandler) grpc.MethodHandler {
	return func(srv any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
		var held int64
		ctl, _ := ctx.Value(ctlKey{}).(*streamCtl)
		defer func() {
			g.inFlight.release(held)
			g.end(ctl)
		}()
		return h(srv, ctx, func(m any) error {
			if err := dec(m); err != nil {
				return err
			}
			if err := g.malformed(m); err != nil {
				return err
			}
			n, err := g.acquire(m)
			held = n
			return err
		}, icpt)
	}
}

// malformed answers a request the codec could not unmarshal (see
// lenientCodec) with InvalidArgument, counted.
func (g *guard) malformed(m any) error {
	err := g.codec.failure(m)
	if err == nil {
		return nil
	}
	g.metrics.reject("grpc", reasonMalformed)
	return status.Error(codes.InvalidArgument, "malformed request: not a valid protobuf message: "+clip(err.Error()))
}

// busy is the refusal of work over the in-flight cap.
func (g *guard) busy() error {
	return status.Errorf(codes.ResourceExhausted, "server busy: %d bytes of requests and answers in flight (limit %d); retry later", g.inFlight.used.Load(), g.inFlight.max)
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
		return 0, g.busy()
	}
	return n, nil
}

func (g *guard) stream(h grpc.StreamHandler) grpc.StreamHandler {
	return func(srv any, ss grpc.ServerStream) error {
		ctl, _ := ss.Context().Value(ctlKey{}).(*streamCtl)
		if ctl == nil { // not tapped: a method added after wrapDesc
			return h(srv, ss)
		}
		defer g.end(ctl)
		ctl.status, _ = grpc.ServerTransportStreamFromContext(ss.Context()).(statusWriter)
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
			if c.status != nil {
				_ = c.status.WriteStatus(status.Convert(errDrained))
			}
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
		// A stream the drain ended while it waited: the drain has
		// already answered it Unavailable (gRPC writes the status of a
		// failed Recv itself, Canceled, unless one was written first).
		if errors.Is(context.Cause(s.Context()), errDraining) {
			s.g.metrics.reject("grpc", reasonDraining)
			return errDrained
		}
		return err
	}
	if err := s.g.malformed(m); err != nil {
		return err
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
	// An answer is sent only if its buffer fits the in-flight cap (the
	// codec charges it: lenientCodec.Marshal): gRPC queues it whole, and
	// for a client that does not read, it stays until the connection
	// closes. Answers may fill only answerShare of the cap, so that
	// streams whose clients do not read leave room for new requests.
	if !s.roomFor(answerSize(m)) {
		s.g.metrics.reject("grpc", reasonInFlight)
		return s.g.busy()
	}
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

// answerSize is the pooled buffer an answer takes (see pooledSize).
func answerSize(m any) int64 {
	switch m := m.(type) {
	case *wireReply:
		return m.pooled()
	case proto.Message:
		return pooledSize(proto.Size(m))
	}
	return 0
}

// roomFor waits, up to SendTimeout, for an answer of n bytes to fit the
// answers' share of the in-flight cap. The answers that fill it are
// queued for clients that do not read (gRPC keeps them until their
// connection ends); those clients' streams end at their send timeout,
// which gives the room back. When no room comes, the stream is ended as
// one whose Send stalled, its connection closed: the answers it has
// queued go with it, and a client that does not read learns no other
// way that its stream has ended (the end queues behind them).
func (s *guardedStream) roomFor(n int64) bool {
	if s.g.inFlight.fits(n, answerShare) {
		return true
	}
	deadline := time.Now().Add(s.g.limits.SendTimeout)
	for wait := time.Millisecond; time.Now().Before(deadline); wait = min(2*wait, 50*time.Millisecond) {
		select {
		case <-s.Context().Done():
			return false
		case <-time.After(wait):
		}
		if s.g.inFlight.fits(n, answerShare) {
			return true
		}
	}
	s.stalled()
	return false
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
