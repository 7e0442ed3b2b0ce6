package load

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	pb "megaco/api/megaco/v1"
)

// Cause is how a message, and so its call, ended.
type Cause int

const (
	OK Cause = iota
	// Timeout: no answer within --timeout.
	Timeout
	// Rejected: the service answered with an error (a gRPC status, or a
	// stream's per-message error).
	Rejected
	// Mismatch: the service's output is not the expected bytes, or does not
	// decode.
	Mismatch
	// Transport: the connection or stream failed (unavailable, reset...).
	Transport
	// Lost (--transport udp|tcp): a request, retransmitted per RFC 3525
	// Annex D.1 over UDP, got no answer within --timeout.
	Lost
	// Late (--transport udp|tcp): a message given up as lost arrived
	// after all (after --timeout).
	Late
	// Aborted: the run was stopped (SIGINT) while the call was in progress;
	// not a failure.
	Aborted
	nCauses
)

// FailureCauses are the causes of a failed call, in report order.
var FailureCauses = []Cause{Timeout, Rejected, Mismatch, Transport, Lost, Late}

// causeNames are the causes' names, by value.
var causeNames = [nCauses]string{"ok", "timeout", "rejected", "mismatch", "transport", "lost", "late", "aborted"}

func (c Cause) String() string {
	if c >= 0 && c < nCauses {
		return causeNames[c]
	}
	return fmt.Sprintf("Cause(%d)", int(c))
}

// transport sends one transcoding request and waits for its answer.
type transport interface {
	transcode(ctx context.Context, req *pb.TranscodeRequest, timeout time.Duration) ([]byte, Cause, error)
	close()
}

func dial(target string, tlsCfg *tls.Config) (*grpc.ClientConn, error) {
	creds := insecure.NewCredentials()
	if tlsCfg != nil {
		creds = credentials.NewTLS(tlsCfg)
	}
	return grpc.NewClient(target, grpc.WithTransportCredentials(creds))
}

// classify tells the cause of a failed call. ctx is the call's context:
// when it is done, the run was stopped.
func classify(ctx context.Context, err error) Cause {
	if ctx.Err() != nil {
		return Aborted
	}
	switch status.Code(err) {
	case codes.DeadlineExceeded:
		return Timeout
	case codes.Unavailable, codes.Canceled:
		return Transport
	}
	return Rejected
}

// unary sends each message as one Transcode call.
type unary struct {
	conn   *grpc.ClientConn
	client pb.CodecServiceClient
}

func newUnary(target string, tlsCfg *tls.Config) (*unary, error) {
	conn, err := dial(target, tlsCfg)
	if err != nil {
		return nil, err
	}
	return &unary{conn: conn, client: pb.NewCodecServiceClient(conn)}, nil
}

func (u *unary) transcode(ctx context.Context, req *pb.TranscodeRequest, timeout time.Duration) ([]byte, Cause, error) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, err := u.client.Transcode(cctx, req)
	if err != nil {
		return nil, classify(ctx, err), err
	}
	return resp.GetData(), OK, nil
}

func (u *unary) close() { u.conn.Close() }

// streams multiplexes messages over a few long-lived TranscodeStream
// calls, as a sidecar would: the service answers each stream in order, so
// the answers are matched to the requests first in, first out. A message
// that times out keeps its place; its late answer is dropped. A stream that
// fails fails the messages waiting on it and is opened again on next use.
type streams struct {
	conn   *grpc.ClientConn
	client pb.CodecServiceClient
	ctx    context.Context // the streams' lifetime
	slots  []*streamSlot
	next   atomic.Uint64
}

type streamSlot struct {
	mu sync.Mutex // sends, and the order of the queue
	st *streamState
}

type streamState struct {
	stream pb.CodecService_TranscodeStreamClient
	cancel context.CancelFunc
	mu     sync.Mutex
	q      []*waiter
	head   int
	dead   bool
}

type waiter struct {
	ch chan streamAnswer // buffered: the receiver never blocks
}

type streamAnswer struct {
	resp *pb.TranscodeResponse
	err  error
}

func newStreams(ctx context.Context, target string, n int, tlsCfg *tls.Config) (*streams, error) {
	conn, err := dial(target, tlsCfg)
	if err != nil {
		return nil, err
	}
	s := &streams{conn: conn, client: pb.NewCodecServiceClient(conn), ctx: ctx}
	for range max(n, 1) {
		s.slots = append(s.slots, &streamSlot{})
	}
	return s, nil
}

func (s *streams) open() (*streamState, error) {
	ctx, cancel := context.WithCancel(s.ctx)
	stream, err := s.client.TranscodeStream(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	st := &streamState{stream: stream, cancel: cancel}
	go st.receive()
	return st, nil
}

func (st *streamState) receive() {
	for {
		resp, err := st.stream.Recv()
		if err != nil {
			st.fail(err)
			return
		}
		st.mu.Lock()
		if st.head == len(st.q) {
			st.mu.Unlock()
			st.fail(errors.New("stream: an answer without a request"))
			return
		}
		w := st.q[st.head]
		st.q[st.head] = nil
		st.head++
		if st.head == len(st.q) { // reuse the queue's memory
			st.q, st.head = st.q[:0], 0
		}
		st.mu.Unlock()
		w.ch <- streamAnswer{resp: resp.GetResponse()}
	}
}

// fail ends the stream and fails every message waiting on it.
func (st *streamState) fail(err error) {
	st.mu.Lock()
	q := st.q[st.head:]
	st.q, st.head, st.dead = nil, 0, true
	st.mu.Unlock()
	st.cancel()
	for _, w := range q {
		w.ch <- streamAnswer{err: err}
	}
}

func (st *streamState) push(w *waiter) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.dead {
		return false
	}
	st.q = append(st.q, w)
	return true
}

func (s *streams) transcode(ctx context.Context, req *pb.TranscodeRequest, timeout time.Duration) ([]byte, Cause, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	slot := s.slots[s.next.Add(1)%uint64(len(s.slots))]
	w := &waiter{ch: make(chan streamAnswer, 1)}
	slot.mu.Lock()
	st := slot.st
	if st == nil || !st.push(w) {
		var err error
		if st, err = s.open(); err != nil {
			slot.mu.Unlock()
			return nil, classify(ctx, err), err
		}
		slot.st = st
		st.push(w)
	}
	err := st.stream.Send(&pb.TranscodeStreamRequest{Request: req})
	slot.mu.Unlock()
	if err != nil {
		st.fail(err) // w gets the error too
	}
	select {
	case a := <-w.ch:
		switch {
		case a.err != nil:
			if ctx.Err() != nil {
				return nil, Aborted, a.err
			}
			if status.Code(a.err) == codes.DeadlineExceeded {
				return nil, Timeout, a.err
			}
			return nil, Transport, a.err
		case a.resp.GetError() != nil:
			e := a.resp.GetError()
			return nil, Rejected, fmt.Errorf("%s: %s", e.GetCode(), e.GetMessage())
		}
		return a.resp.GetData(), OK, nil
	case <-timer.C:
		return nil, Timeout, fmt.Errorf("no answer on the stream within %v", timeout)
	case <-ctx.Done():
		return nil, Aborted, ctx.Err()
	}
}

func (s *streams) close() {
	for _, sl := range s.slots {
		sl.mu.Lock()
		if sl.st != nil {
			_ = sl.st.stream.CloseSend()
			sl.st.cancel()
		}
		sl.mu.Unlock()
	}
	s.conn.Close()
}
