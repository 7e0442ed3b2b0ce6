package load

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	pb "megaco/api/megaco/v1"
)

// streams multiplexes messages over a few long-lived TranscodeStream
// calls, as a sidecar would: the service answers each stream in order, so
// the answers are matched to the requests first in, first out. A message
// that times out keeps its place; its late answer is dropped. A stream that
// fails fails the messages waiting on it and is opened again on next use.
type streams struct {
	service
	ctx   context.Context // the streams' lifetime
	slots []*streamSlot
	next  atomic.Uint64
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
	svc, err := dial(target, tlsCfg)
	if err != nil {
		return nil, err
	}
	s := &streams{service: svc, ctx: ctx}
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
			// The stream failed, not this message: what classify
			// takes for a refusal is the transport's failure here.
			c := classify(ctx, a.err)
			if c == Rejected {
				c = Transport
			}
			return nil, c, a.err
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
