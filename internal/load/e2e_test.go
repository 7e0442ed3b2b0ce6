package load

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/csv"
	"errors"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "megaco/api/megaco/v1"
	"megaco/internal/server"
	"megaco/internal/tlsconfig"
	"megaco/internal/tlsconfig/tlstest"
)

// startServer runs the real service (server.Run) on loopback.
func startServer(t *testing.T) string {
	t.Helper()
	return startServerTLS(t, nil)
}

// startServerTLS is startServer with TLS on the listeners.
func startServerTLS(t *testing.T, tlsCfg *tls.Config) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, server.Options{
			GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0", Config: server.DefaultConfig(), DrainTimeout: 5 * time.Second,
			Log:   slog.New(slog.NewTextHandler(io.Discard, nil)),
			Ready: func(g, _ net.Addr) { ready <- g.String() },
			TLS:   tlsCfg,
		})
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("server did not start: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return addr
}

// faultyService is the real service with faults: every period-th message
// (counting from 1) at offset reject is rejected, at offset delay answered
// after the delay, at offset corrupt answered with a damaged output.
type faultyService struct {
	pb.UnimplementedCodecServiceServer
	real                          *server.Service
	n                             atomic.Int64
	period, reject, delay, corrup int64
	sleep                         time.Duration
}

func (f *faultyService) Transcode(ctx context.Context, req *pb.TranscodeRequest) (*pb.TranscodeResponse, error) {
	n := f.n.Add(1)
	switch n % f.period {
	case f.reject:
		return nil, status.Error(codes.InvalidArgument, "rejected by the test")
	case f.delay:
		select {
		case <-time.After(f.sleep):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	resp, err := f.real.Transcode(ctx, req)
	if err == nil && n%f.period == f.corrup {
		resp.Data = append([]byte(nil), resp.Data...)
		resp.Data[len(resp.Data)/2] ^= 0x20
	}
	return resp, err
}

func (f *faultyService) TranscodeStream(stream pb.CodecService_TranscodeStreamServer) error {
	for {
		req, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		resp, err := f.Transcode(stream.Context(), req.GetRequest())
		if err != nil {
			resp = &pb.TranscodeResponse{Error: &pb.Error{Code: status.Code(err).String(), Message: err.Error()}}
		}
		if err := stream.Send(&pb.TranscodeStreamResponse{Response: resp}); err != nil {
			return err
		}
	}
}

func startFaulty(t *testing.T, f *faultyService) string {
	t.Helper()
	f.real = server.New(server.DefaultConfig(), nil, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	pb.RegisterCodecServiceServer(gs, f)
	go func() { _ = gs.Serve(l) }()
	t.Cleanup(gs.Stop)
	return l.Addr().String()
}

// deadAddr is a loopback address nothing listens on.
func deadAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func baseConfig(targets ...string) Config {
	codecs, _ := DefaultCodecs()
	return Config{
		Targets: targets, Mode: "unary", Streams: 2, Codecs: codecs,
		Ramp:    Ramp{Rate: 50, Period: time.Second},
		Timeout: time.Second, DecodeOutput: true,
	}
}

// TestRate50 is the acceptance run: 5 s at 50 calls per second against
// the real service, at least 99 % of the target and no failed call.
func TestRate50(t *testing.T) {
	if testing.Short() {
		t.Skip("5 s run")
	}
	addr := startServer(t)
	var live, stat bytes.Buffer
	cfg := baseConfig(addr)
	cfg.Duration = 5 * time.Second
	cfg.Live, cfg.Stat, cfg.StatPeriod = &live, &stat, 2*time.Second
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var sum bytes.Buffer
	res.WriteSummary(&sum)
	t.Logf("\n%s%s", live.String(), sum.String())
	f := res.Final
	if f.Started < 248 || res.AchievedCPS() < 0.99*50 {
		t.Errorf("achieved %.2f cps, %d calls: want >= 99 %% of 50 cps", res.AchievedCPS(), f.Started)
	}
	if f.FailedCalls() != 0 || f.OK != f.Started || res.Failed() {
		t.Errorf("%d ok of %d, %d failed: %v", f.OK, f.Started, f.FailedCalls(), res.Errors)
	}
	if f.Msgs != 28*f.Started {
		t.Errorf("%d messages for %d calls", f.Msgs, f.Started)
	}
	for i, typ := range res.Flow.Types {
		if f.Types[i].Count == 0 || f.Types[i].Quantile(0.99) <= 0 {
			t.Errorf("no latency for %s", typ)
		}
	}
	if n := strings.Count(live.String(), "achieved"); n < 4 {
		t.Errorf("%d live lines in 5 s", n)
	}
	recs, err := csv.NewReader(&stat).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 3 {
		t.Fatalf("%d CSV records", len(recs))
	}
	last := recs[len(recs)-1]
	for i, h := range recs[0] {
		if h == "successful_c" && last[i] != itoa(f.OK) {
			t.Errorf("last CSV row: successful_c %s, want %d", last[i], f.OK)
		}
	}
	for _, want := range []string{"calls: started", "successful", "response time ms: p50", "ServiceChangeReply", "SubtractReply"} {
		if !strings.Contains(sum.String(), want) {
			t.Errorf("the summary has no %q", want)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// rateGate rejects the messages over limit in each wall-clock second.
type rateGate struct {
	pb.UnimplementedCodecServiceServer
	real   *server.Service
	limit  int64
	second atomic.Int64
	n      atomic.Int64
}

func (g *rateGate) Transcode(ctx context.Context, req *pb.TranscodeRequest) (*pb.TranscodeResponse, error) {
	now := time.Now().Unix()
	if old := g.second.Load(); old != now && g.second.CompareAndSwap(old, now) {
		g.n.Store(0)
	}
	if g.n.Add(1) > g.limit {
		return nil, status.Error(codes.ResourceExhausted, "over the test's rate")
	}
	return g.real.Transcode(ctx, req)
}

// TestStreamMode: the same over TranscodeStream, with a call hold.
// TestTLS: both modes against a service that requires client
// certificates: every call succeeds with one, every call fails without.
func TestTLS(t *testing.T) {
	f := tlstest.Write(t)
	srvTLS, err := tlsconfig.Server(f.ServerCert, f.ServerKey, f.CA)
	if err != nil {
		t.Fatal(err)
	}
	addr := startServerTLS(t, srvTLS)
	withCert, err := tlsconfig.Client(f.CA, f.ClientCert, f.ClientKey, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"unary", "stream"} {
		cfg := baseConfig(addr)
		cfg.Mode, cfg.Duration, cfg.TLS = mode, time.Second, withCert
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Final; f.FailedCalls() != 0 || f.OK < 40 {
			t.Errorf("%s over TLS: %d ok of %d, %v", mode, f.OK, f.Started, res.Errors)
		}
		cfg.TLS = nil
		cfg.MaxCalls = 5
		res, err = Run(context.Background(), cfg)
		if err == nil && res.Final.OK != 0 {
			t.Errorf("%s in plain text against TLS: %d calls succeeded", mode, res.Final.OK)
		}
	}
}

func TestStreamMode(t *testing.T) {
	addr := startServer(t)
	cfg := baseConfig(addr)
	cfg.Mode, cfg.Hold, cfg.Duration = "stream", 300*time.Millisecond, 2*time.Second
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Final
	if f.FailedCalls() != 0 || f.OK != f.Started || f.Started < 99 {
		t.Errorf("stream: %d ok of %d, %v", f.OK, f.Started, res.Errors)
	}
	// With a 300 ms hold at 50 cps, about 15 calls are in progress.
	if f.ActiveMax < 10 {
		t.Errorf("at most %d calls in progress with -d 300ms", f.ActiveMax)
	}
	if f.CallLen.Quantile(0.5) > 200*time.Millisecond {
		t.Errorf("the call length (without the hold) is %v", f.CallLen.Quantile(0.5))
	}
}

// TestFailureCauses: a service that rejects, delays past the timeout and
// damages some messages, and a target that is down, show up as failed
// calls by cause; the other calls succeed.
func TestFailureCauses(t *testing.T) {
	for _, mode := range []string{"unary", "stream"} {
		t.Run(mode, func(t *testing.T) {
			addr := startFaulty(t, &faultyService{period: 97, reject: 10, delay: 40, corrup: 70, sleep: 600 * time.Millisecond})
			cfg := baseConfig(addr, deadAddr(t))
			cfg.Mode, cfg.Timeout, cfg.Duration, cfg.Ramp.Rate = mode, 200*time.Millisecond, 2*time.Second, 40
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			f := res.Final
			var sum bytes.Buffer
			res.WriteSummary(&sum)
			t.Logf("\n%s", sum.String())
			for _, c := range FailureCauses {
				if f.Failed[c] == 0 {
					t.Errorf("no call failed with %s", c)
				}
			}
			// Half the calls go to the dead target.
			if tr := f.Failed[Transport]; tr < f.Started/2-1 || tr > f.Started/2+1 {
				t.Errorf("%d transport failures of %d calls, want half", tr, f.Started)
			}
			if f.OK == 0 || f.OK+f.FailedCalls() != f.Started {
				t.Errorf("ok %d + failed %d != started %d", f.OK, f.FailedCalls(), f.Started)
			}
			if !res.Failed() {
				t.Error("a run with failed calls passes --max-failed 0")
			}
			for _, want := range []string{"errors (the first", "  timeout: call", "  rejected: call", "rejected by the test", "  mismatch: call", "  transport: call"} {
				if !strings.Contains(sum.String(), want) {
					t.Errorf("the summary has no %q", want)
				}
			}
		})
	}
}

// TestCancel: stopping the run (as SIGINT does) aborts the calls in
// progress and still reports what ran.
func TestCancel(t *testing.T) {
	addr := startServer(t)
	cfg := baseConfig(addr)
	cfg.Hold = 10 * time.Second // every call is in progress when the run stops
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(1500*time.Millisecond, cancel)
	start := time.Now()
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("the run took %v to stop", d)
	}
	f := res.Final
	if res.Stopped != "interrupted" || f.Started < 50 || f.Aborted != f.Started || f.FailedCalls() != 0 || res.Failed() {
		t.Errorf("stopped %q: started %d, aborted %d, failed %d", res.Stopped, f.Started, f.Aborted, f.FailedCalls())
	}
	var sum bytes.Buffer
	res.WriteSummary(&sum)
	if !strings.Contains(sum.String(), "stopped: interrupted") || !strings.Contains(sum.String(), "aborted "+itoa(f.Aborted)) {
		t.Errorf("summary:\n%s", sum.String())
	}
}

// TestLimit: -l holds calls back when the service is slower than the rate,
// and says so.
func TestLimit(t *testing.T) {
	addr := startServer(t)
	var log bytes.Buffer
	cfg := baseConfig(addr)
	cfg.Limit, cfg.Hold, cfg.Duration, cfg.Log = 5, 500*time.Millisecond, 2500*time.Millisecond, &log
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Final
	if f.ActiveMax > 5 || f.Limited == 0 || f.FailedCalls() != 0 {
		t.Errorf("max %d in progress with -l 5, limited %d, failed %d", f.ActiveMax, f.Limited, f.FailedCalls())
	}
	// 5 calls of ~0.5 s each: about 10 cps instead of 50.
	if res.AchievedCPS() > 15 {
		t.Errorf("achieved %.1f cps with -l 5 and -d 500ms", res.AchievedCPS())
	}
	if !strings.Contains(log.String(), "reached the limit (-l 5)") {
		t.Errorf("no note about -l:\n%s", log.String())
	}
}

// TestFindMaxRun: the search against a service that rejects above a
// fixed message rate stops at the first failed level (linear steps).
func TestFindMaxRun(t *testing.T) {
	if testing.Short() {
		t.Skip("8 s run")
	}
	// At most 700 messages a second (25 calls a second) pass.
	gate := &rateGate{real: server.New(server.DefaultConfig(), nil, nil), limit: 700}
	gs := grpc.NewServer()
	pb.RegisterCodecServiceServer(gs, gate)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = gs.Serve(l) }()
	defer gs.Stop()

	var log bytes.Buffer
	cfg := baseConfig(l.Addr().String())
	cfg.Ramp = Ramp{Rate: 10, Period: time.Second, Step: 10}
	cfg.FindMax = &FindMax{P99: 50 * time.Millisecond, Interval: 2 * time.Second}
	cfg.Log = &log
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var sum bytes.Buffer
	res.WriteSummary(&sum)
	t.Logf("\n%s\n%s", log.String(), sum.String())
	fm := res.FindMax
	if fm == nil || fm.Best == nil || fm.Failed == nil {
		t.Fatalf("find-max: %+v", fm)
	}
	if fm.Best.Target != 20 || fm.Failed.Target != 30 {
		t.Errorf("best %.1f cps, failed %.1f cps (%s); want 20 and 30", fm.Best.Target, fm.Failed.Target, fm.Failed.Why)
	}
	if res.Failed() {
		t.Error("a search that found a level fails the run")
	}
	if !strings.Contains(sum.String(), "find-max: maximum sustained") {
		t.Errorf("summary:\n%s", sum.String())
	}
}
