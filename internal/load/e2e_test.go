package load

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "megaco/api/megaco/v1"
	"megaco/internal/server"
	"megaco/internal/server/servertest"
	"megaco/internal/tlsconfig"
	"megaco/internal/tlsconfig/tlstest"
)

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

// baseConfig is 50 cps against targets. The 10 s timeout is far above
// what a message takes even on a busy machine: a test that wants
// timeouts sets its own.
func baseConfig(targets ...string) Config {
	codecs := DefaultCodecs
	return Config{
		Targets: targets, Mode: "unary", Streams: 2, Codecs: codecs,
		Ramp:    Ramp{Rate: 50, Period: time.Second},
		Timeout: 10 * time.Second, DecodeOutput: true,
	}
}

// runLoad runs cfg and logs the summary, which it returns.
func runLoad(t *testing.T, ctx context.Context, cfg Config) (*Result, string) {
	t.Helper()
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var sum bytes.Buffer
	res.WriteSummary(&sum)
	t.Logf("\n%s", sum.String())
	return res, sum.String()
}

// checkEnded checks that the counts add up: every call started ended, ok,
// failed or aborted, and none was left out of the messages' count.
func checkEnded(t *testing.T, f *Snapshot) {
	t.Helper()
	if f.OK+f.FailedCalls()+f.Aborted != f.Started || f.Started < 1 {
		t.Errorf("started %d: %d ok, %d failed, %d aborted", f.Started, f.OK, f.FailedCalls(), f.Aborted)
	}
	if f.Active != 0 {
		t.Errorf("%d calls still in progress at the end", f.Active)
	}
}

// watchLog is a log that calls seen once a line with want is written:
// a test waits for an event instead of a time.
type watchLog struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen func()
	once sync.Once
}

func (w *watchLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(w.seen)
	}
	return len(p), nil
}

func (w *watchLog) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestRate50 runs 5 s at 50 calls per second against the real service:
// every call started succeeds, with its 28 messages checked, and the live
// lines, the CSV and the summary say so. How many calls start depends on
// the machine's load (BenchmarkCalls measures the rate); never more than
// the 250 that fall due.
func TestRate50(t *testing.T) {
	if testing.Short() {
		t.Skip("5 s run")
	}
	addr := servertest.Start(t, nil)
	var live, stat bytes.Buffer
	cfg := baseConfig(addr)
	cfg.Duration = 5 * time.Second
	cfg.Live, cfg.Stat, cfg.StatPeriod = &live, &stat, 2*time.Second
	res, sum := runLoad(t, context.Background(), cfg)
	t.Logf("achieved %.2f cps\n%s", res.AchievedCPS(), live.String())
	f := res.Final
	checkEnded(t, f)
	if f.Started > 250 || f.Started+f.Skipped > f.Due {
		t.Errorf("%d calls started and %d skipped of %d due in 5 s at 50 cps", f.Started, f.Skipped, f.Due)
	}
	if f.FailedCalls() != 0 || f.OK != f.Started || res.Failed() || res.Stopped != "duration 5s reached" {
		t.Errorf("stopped %q: %d ok of %d, %d failed: %v", res.Stopped, f.OK, f.Started, f.FailedCalls(), res.Errors)
	}
	if f.Msgs != 28*f.Started {
		t.Errorf("%d messages for %d calls", f.Msgs, f.Started)
	}
	for i, typ := range res.Flow.Types {
		if f.Types[i].Count == 0 || f.Types[i].Quantile(0.99) <= 0 {
			t.Errorf("no latency for %s", typ)
		}
	}
	if !strings.Contains(live.String(), "achieved") {
		t.Errorf("no live line in 5 s:\n%s", live.String())
	}
	recs, err := csv.NewReader(&stat).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 2 {
		t.Fatalf("%d CSV records", len(recs))
	}
	// The last row is written at the end of the run.
	last := recs[len(recs)-1]
	for i, h := range recs[0] {
		if h == "successful_c" && last[i] != itoa(f.OK) {
			t.Errorf("last CSV row: successful_c %s, want %d", last[i], f.OK)
		}
	}
	for _, want := range []string{"calls: started", "successful", "response time ms: p50", "ServiceChangeReply", "SubtractReply"} {
		if !strings.Contains(sum, want) {
			t.Errorf("the summary has no %q", want)
		}
	}
}

// BenchmarkCalls runs b.N calls of the flow against the real service in
// this process, at most 64 at a time: the calls per second this machine
// sustains (the figure TestRate50 does not assert) and the p99 response
// time.
func BenchmarkCalls(b *testing.B) {
	addr := servertest.Start(b, nil)
	cfg := baseConfig(addr)
	cfg.Ramp.Rate, cfg.Limit, cfg.MaxCalls = 1e6, 64, int64(b.N)
	b.ResetTimer()
	res, err := Run(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	f := res.Final
	if f.OK != f.Started {
		b.Fatalf("%d ok of %d: %v", f.OK, f.Started, res.Errors)
	}
	b.ReportMetric(float64(f.OK)/res.Elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(f.RT.Quantile(0.99).Microseconds()), "p99-µs")
	b.ReportMetric(0, "ns/op")
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

// TestTLS: both modes against a service that requires client
// certificates: every call succeeds with one, every call fails without.
func TestTLS(t *testing.T) {
	f := tlstest.Write(t)
	srvTLS, err := tlsconfig.Server(f.ServerCert, f.ServerKey, f.CA)
	if err != nil {
		t.Fatal(err)
	}
	addr := servertest.Start(t, srvTLS)
	withCert, err := tlsconfig.Client(f.CA, f.ClientCert, f.ClientKey, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"unary", "stream"} {
		cfg := baseConfig(addr)
		cfg.Mode, cfg.Duration, cfg.TLS = mode, time.Second, withCert
		res, _ := runLoad(t, context.Background(), cfg)
		if f := res.Final; f.FailedCalls() != 0 || f.OK < 1 || f.OK != f.Started {
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

// TestStreamMode: calls over TranscodeStream, with a call hold.
func TestStreamMode(t *testing.T) {
	addr := servertest.Start(t, nil)
	cfg := baseConfig(addr)
	cfg.Mode, cfg.Hold, cfg.Duration = "stream", 300*time.Millisecond, 2*time.Second
	res, _ := runLoad(t, context.Background(), cfg)
	f := res.Final
	checkEnded(t, f)
	if f.FailedCalls() != 0 || f.OK != f.Started {
		t.Errorf("stream: %d ok of %d, %v", f.OK, f.Started, res.Errors)
	}
	// Each call was in progress for at least the hold: if together they
	// held longer than the run, some were in progress at once.
	if time.Duration(f.OK)*cfg.Hold > res.Elapsed && f.ActiveMax < 2 {
		t.Errorf("%d calls of 300 ms in %v, at most %d in progress", f.OK, res.Elapsed, f.ActiveMax)
	}
	if f.CallLen.Count != uint64(f.OK) {
		t.Errorf("%d call lengths for %d calls", f.CallLen.Count, f.OK)
	}
}

// TestFailureCauses: a service that rejects, delays past the timeout and
// damages a message, and a target that is down, show up as failed calls
// by cause; the other calls succeed. With -l 1 the calls run one after
// another, so the faults fall on known calls whatever the machine's
// speed: call 0 is rejected at its 10th message, call 2 damaged at its
// 10th, calls 4 and 6 succeed, call 8 times out; the odd calls go to the
// dead target.
func TestFailureCauses(t *testing.T) {
	for _, mode := range []string{"unary", "stream"} {
		t.Run(mode, func(t *testing.T) {
			addr := startFaulty(t, &faultyService{period: 1000, reject: 10, corrup: 20, delay: 80, sleep: 1500 * time.Millisecond})
			cfg := baseConfig(addr, deadAddr(t))
			cfg.Mode, cfg.Timeout, cfg.MaxCalls, cfg.Limit, cfg.Ramp.Rate = mode, time.Second, 20, 1, 40
			res, sum := runLoad(t, context.Background(), cfg)
			f := res.Final
			checkEnded(t, f)
			for _, c := range []Cause{Timeout, Rejected, Mismatch, Transport} { // the gRPC mode's (lost and late: the wire mode's)
				if f.Failed[c] == 0 {
					t.Errorf("no call failed with %s", c)
				}
			}
			if f.Started != 20 || f.ActiveMax > 1 {
				t.Errorf("%d calls started with -m 20, %d at once with -l 1", f.Started, f.ActiveMax)
			}
			// Half the calls go to the dead target: they all fail, and only
			// they fail on transport.
			if f.OK < 1 || f.OK > f.Started/2 || f.Failed[Transport] > f.Started/2 {
				t.Errorf("%d ok, %d transport failures of %d calls", f.OK, f.Failed[Transport], f.Started)
			}
			if !res.Failed() {
				t.Error("a run with failed calls passes --max-failed 0")
			}
			for _, want := range []string{"errors (the first", "  timeout: call", "  rejected: call", "rejected by the test", "  mismatch: call", "  transport: call"} {
				if !strings.Contains(sum, want) {
					t.Errorf("the summary has no %q", want)
				}
			}
		})
	}
}

// TestCancel: stopping the run (as SIGINT does) aborts the calls in
// progress and still reports what ran. Every call holds for an hour: had
// the run waited for them, the test would not end.
func TestCancel(t *testing.T) {
	addr := servertest.Start(t, nil)
	cfg := baseConfig(addr)
	cfg.Hold = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(1500*time.Millisecond, cancel)
	res, sum := runLoad(t, ctx, cfg)
	f := res.Final
	checkEnded(t, f)
	if res.Stopped != "interrupted" || f.Aborted != f.Started || f.FailedCalls() != 0 || res.Failed() {
		t.Errorf("stopped %q: started %d, aborted %d, failed %d", res.Stopped, f.Started, f.Aborted, f.FailedCalls())
	}
	if !strings.Contains(sum, "stopped: interrupted") || !strings.Contains(sum, "aborted "+itoa(f.Aborted)) {
		t.Errorf("summary:\n%s", sum)
	}
}

// TestLimit: -l holds calls back when the service is slower than the rate
// (here, calls that hold 500 ms at 50 cps), and says so. The run ends
// when the note is out, however long that takes.
func TestLimit(t *testing.T) {
	addr := servertest.Start(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &watchLog{want: "reached the limit (-l 5)", seen: cancel}
	cfg := baseConfig(addr)
	cfg.Limit, cfg.Hold, cfg.Duration, cfg.Log = 5, 500*time.Millisecond, 2*time.Minute, log
	res, _ := runLoad(t, ctx, cfg)
	f := res.Final
	checkEnded(t, f)
	if f.ActiveMax > 5 || f.Limited == 0 || f.FailedCalls() != 0 {
		t.Errorf("max %d in progress with -l 5, limited %d, failed %d", f.ActiveMax, f.Limited, f.FailedCalls())
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
	// A p99 bound no busy machine misses: the gate decides.
	cfg.FindMax = &FindMax{P99: time.Second, Interval: 2 * time.Second}
	cfg.Log = &log
	res, sum := runLoad(t, context.Background(), cfg)
	t.Logf("\n%s", log.String())
	fm := res.FindMax
	if fm == nil || fm.Best == nil || fm.Failed == nil {
		t.Fatalf("find-max: %+v", fm)
	}
	// 30 cps is over the gate: it fails, and so may 20 cps on a busy
	// machine (a late second's calls crowd into the next): the search
	// stops at the first failed level, one step above the best.
	if (fm.Best.Target != 10 && fm.Best.Target != 20) || fm.Failed.Target != fm.Best.Target+10 {
		t.Errorf("best %.1f cps, failed %.1f cps (%s); want 20 and 30, or 10 and 20", fm.Best.Target, fm.Failed.Target, fm.Failed.Why)
	}
	if fm.Done != "find-max: a level failed" || !strings.HasPrefix(res.Stopped, fm.Done) {
		t.Errorf("done %q, stopped %q", fm.Done, res.Stopped)
	}
	if res.Failed() {
		t.Error("a search that found a level fails the run")
	}
	if !strings.Contains(sum, "find-max: maximum sustained") {
		t.Errorf("summary:\n%s", sum)
	}
}
