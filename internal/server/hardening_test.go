package server

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	pb "megaco/api/megaco/v1"
)

func TestLimitListener(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newLimitListener(inner, 2, "test", nil)
	defer l.Close()
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	var clients []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		clients = append(clients, c)
	}
	first := <-accepted
	<-accepted
	// The third is closed by the listener: its read ends.
	_ = clients[2].SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := clients[2].Read(make([]byte, 1)); err == nil || isTimeout(err) {
		t.Errorf("the connection over the limit was not closed: %v", err)
	}
	if !l.closeConn(first.RemoteAddr()) {
		t.Error("closeConn did not find an open connection")
	}
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	select {
	case <-accepted:
	case <-time.After(10 * time.Second):
		t.Error("a connection under the limit again was not accepted")
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

func TestInFlight(t *testing.T) {
	f := newInFlight(100, nil)
	if !f.acquire(60) || f.acquire(50) || !f.acquire(40) {
		t.Fatal("60 + 40 fit in 100, 50 more does not")
	}
	f.release(60)
	f.release(40)
	if !f.acquire(500) {
		t.Error("a request larger than the cap is refused even when nothing else runs")
	}
	if f.acquire(1) {
		t.Error("the cap is full")
	}
}

func TestParseCgroupLimit(t *testing.T) {
	for in, want := range map[string]int64{"max\n": 0, "536870912\n": 512 << 20, "9223372036854771712\n": 0, "": 0} {
		if got, _ := parseCgroupLimit(in); got != want {
			t.Errorf("%q: %d, want %d", in, got, want)
		}
	}
}

// TestGuard runs the server in process (for the race detector) through
// the guard's paths: a stream whose client does not read is ended, a
// call over MaxCalls is refused. (The abuse suite sends malformed
// protobuf: the codec that does is in servertest, which this package's
// tests cannot import.)
func TestGuard(t *testing.T) {
	ts := startOpts(t, Options{Config: DefaultConfig(), Limits: Limits{SendTimeout: time.Second, MaxCalls: 3}})
	ber := read(t, "../../corpus/otp-time-test/msg03.ber")

	// A client with small windows that never reads.
	conn, err := grpc.NewClient(ts.grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithInitialWindowSize(64<<10), grpc.WithInitialConnWindowSize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	batch := make([]*pb.TranscodeRequest, 300)
	for i := range batch {
		batch[i] = &pb.TranscodeRequest{Data: ber, To: pb.Codec_CODEC_PRETTY}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := pb.NewCodecServiceClient(conn).TranscodeStream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sendErr := make(chan error, 1)
	go func() {
		for {
			if err := st.Send(&pb.TranscodeStreamRequest{Batch: batch}); err != nil {
				sendErr <- err
				return
			}
		}
	}()
	select {
	case <-sendErr: // the server closed the connection
	case <-time.After(20 * time.Second):
		t.Error("the stream of a client that does not read was not ended")
	}

	// MaxCalls 3: three open streams, the fourth call is refused. The
	// ended stream's call is released when its handler returns, which on a
	// busy machine may be a moment after its client saw the connection
	// close: a stream refused meanwhile is tried again.
	for range 3 {
		openStream(t, ctx, ts.client, ber)
	}
	if _, err := ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: ber, To: pb.Codec_CODEC_PER}); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("a call over MaxCalls: %v, want ResourceExhausted", err)
	}
}

// openStream opens a stream and has one message answered on it, trying
// again for a few seconds while the server is busy (ResourceExhausted).
func openStream(t *testing.T, ctx context.Context, c pb.CodecServiceClient, ber []byte) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		s, err := c.TranscodeStream(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Send(&pb.TranscodeStreamRequest{Request: &pb.TranscodeRequest{Data: ber, To: pb.Codec_CODEC_PER}}); err != nil {
			t.Fatal(err)
		}
		_, err = s.Recv()
		if err == nil {
			return
		}
		if status.Code(err) != codes.ResourceExhausted || time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
}
