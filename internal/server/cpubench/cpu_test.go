package cpubench

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"

	pb "megaco/api/megaco/v1"
	"megaco/internal/codec"
	"megaco/internal/codec/limits"
	"megaco/internal/mapping/termid"
	"megaco/internal/testbin"
)

var binary string

// only, if set, runs only the kinds of calls it names (comma-separated),
// e.g. to profile one: -kinds=transcode.
var only = flag.String("kinds", "", "run only these kinds of calls (comma-separated: health,transcode,healthz,http,reflect,stream,batch,codec)")

func TestMain(m *testing.M) {
	os.Exit(testbin.Main(m, "megaco/cmd/megaco", &binary))
}

// server is a `megaco serve` child process.
type server struct {
	*testbin.Proc
	grpcAddr, httpAddr string
}

var servingLine = regexp.MustCompile(`msg=serving grpc=(\S+) http=(\S+)`)

// startServer runs the binary bin on loopback ports until cleanup, with
// net/http/pprof on pprofAddr if that is set.
func startServer(tb testing.TB, bin, pprofAddr string) *server {
	tb.Helper()
	args := []string{"serve", "--grpc-addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0"}
	if pprofAddr != "" {
		args = append(args, "--pprof-addr", pprofAddr)
	}
	p, a := testbin.Start(tb, bin, args, servingLine)
	return &server{Proc: p, grpcAddr: a[0], httpAddr: a[1]}
}

// profile, if set, is where the CPU profile (profile+".cpu") and the
// allocation profile (profile+".allocs") of the server (this build's,
// or with profileAgainst the -against binary's) are written, taken over profileFor while the rounds run:
// they go on, interleaved as usual, until both profiles are in.
var (
	profile        = flag.String("server-profile", "", "write the server's CPU and allocation profiles to this path plus .cpu and .allocs")
	profileFor     = flag.Duration("server-profile-for", 5*time.Second, "how long -server-profile profiles")
	profileAgainst = flag.Bool("server-profile-against", false, "-server-profile profiles the -against binary")
)

// fetchProfiles takes the CPU and allocation profiles from the pprof
// listener at addr over profileFor and writes them; done is closed
// when both are written (or failed, reported on errc).
func fetchProfiles(addr string) (done chan struct{}, errc chan error) {
	done, errc = make(chan struct{}), make(chan error, 2)
	var wg sync.WaitGroup
	secs := strconv.Itoa(max(int(profileFor.Seconds()), 1))
	for _, p := range [][2]string{{"profile", ".cpu"}, {"allocs", ".allocs"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fetch("http://"+addr+"/debug/pprof/"+p[0]+"?seconds="+secs, *profile+p[1]); err != nil {
				errc <- err
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	return done, errc
}

// profiling tells whether the profiles started with done are still
// being taken.
func profiling(done chan struct{}) bool {
	if done == nil {
		return false
	}
	select {
	case <-done:
		return false
	default:
		return true
	}
}

func fetch(url, path string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 {
		return fmt.Errorf("%s: %s: %s", url, resp.Status, b)
	}
	return os.WriteFile(path, b, 0o644)
}

// cpu is the CPU time the process pid has used: the sum of its threads'
// time on a CPU (/proc/PID/task/*/schedstat, nanoseconds).
func cpu(tb testing.TB, pid int) time.Duration {
	tb.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		tb.Skipf("no /proc/%d/task/*/schedstat: %v", pid, err)
	}
	var sum time.Duration
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // a thread gone meanwhile
		}
		ns, err := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
		if err == nil {
			sum += time.Duration(ns)
		}
	}
	return sum
}

// selfCPU is this process's CPU time (the clients').
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// workers is how many calls are open at once: enough to keep a
// GOMAXPROCS=2 server busy over loopback.
const workers = 16

// kind is one kind of call: do makes one, of per messages, as worker w.
type kind struct {
	name string
	per  int
	do   func(w int) error
	// local: do is work in this process (the codec alone, for
	// reference), reported as its CPU per message
	local bool
	// server and client CPU, bytes the server allocated and messages,
	// summed over the rounds
	server, client time.Duration
	allocated      float64
	msgs           int64
}

// round makes about n messages' worth of k's calls over the workers and
// adds the server's and the clients' CPU to k.
//
// The bytes the server allocated meanwhile (its
// go_memstats_alloc_bytes_total, read from metrics, outside the CPU
// measurement) are added too; they include what one scrape allocates,
// the same for every kind and binary.
func (k *kind) round(b *testing.B, pid int, metrics string, n int) {
	a0 := allocated(b, metrics)
	defer func() { k.allocated += allocated(b, metrics) - a0 }()
	var left, done atomic.Int64
	left.Store(int64(n))
	var failed atomic.Value
	var wg sync.WaitGroup
	s0, c0 := cpu(b, pid), selfCPU()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left.Add(-int64(k.per)) > -int64(k.per) {
				if err := k.do(w); err != nil {
					failed.Store(err)
					return
				}
				done.Add(int64(k.per))
			}
		}()
	}
	wg.Wait()
	k.server += cpu(b, pid) - s0
	k.client += selfCPU() - c0
	k.msgs += done.Load()
	if err := failed.Load(); err != nil {
		b.Fatalf("%s: %v", k.name, err)
	}
}

func (k *kind) report(b *testing.B, prefix string) (server float64) {
	n := float64(max(k.msgs, 1))
	if k.local {
		b.ReportMetric(float64(k.client.Nanoseconds())/1e3/n, prefix+k.name+"-µs/msg")
		return 0
	}
	server = float64(k.server.Nanoseconds()) / 1e3 / n
	b.ReportMetric(server, prefix+k.name+"-server-µs/msg")
	b.ReportMetric(k.allocated/n, prefix+k.name+"-server-B/msg")
	b.ReportMetric(float64(k.client.Nanoseconds())/1e3/n, prefix+k.name+"-client-µs/msg")
	return server
}

// allocated is the bytes the server at metrics (its /metrics URL) has
// allocated so far.
func allocated(b *testing.B, metrics string) float64 {
	m, err := testbin.Scrape(metrics)
	if err != nil {
		b.Fatal(err)
	}
	return m["go_memstats_alloc_bytes_total"]
}

// rounds is how many times each kind takes its turn: interleaving them
// spreads what other processes do to the machine over all kinds alike.
const rounds = 10

// against, if set, is another megaco binary (say, an earlier build)
// run beside this one: every kind of call takes its turn on both, and
// its figures are reported with the prefix "against-".
var against = flag.String("against", "", "also measure this megaco binary, side by side")

// BenchmarkServerCPU measures the server's CPU per message of each kind
// of call, side by side against one server (GOMAXPROCS=2), in
// interleaved rounds: health is gRPC's empty call
// (grpc.health.v1.Health/Check), the floor of any unary RPC; transcode a
// unary compact-text to BER Transcode of a 280-byte message; healthz an
// HTTP GET /healthz, the floor of any HTTP request; http the Transcode
// over /v1/transcode, both with keep-alive clients; reflect a message
// on an open server reflection stream (list the services), the floor of
// a stream message; stream the Transcode on TranscodeStream, one message
// a request; batch 64 messages a request; codec the codec work alone,
// done in this process, for reference. b.N is the messages of each kind;
// run with -benchtime=20000x or more. transcode-over-health is the unary
// Transcode's server CPU less the empty call's, http-over-healthz the
// same over HTTP, stream-over-reflect a stream message's.
func BenchmarkServerCPU(b *testing.B) {
	data, err := os.ReadFile("../../../corpus/otp-time-test/msg78a06.compact.txt")
	if err != nil {
		b.Fatal(err)
	}
	type target struct {
		prefix             string
		pid                int
		kinds              []*kind
		pprofAddr, metrics string
	}
	bins := []string{binary}
	if *against != "" {
		bins = append(bins, *against)
	}
	var targets []target
	pprofAddr := ""
	if *profile != "" {
		pprofAddr = testbin.FreeAddr(b, "tcp")
	}
	if *profileAgainst && *against != "" {
		bins[0], bins[1] = bins[1], bins[0] // profiled first, reported as against
	}
	for i, bin := range bins {
		s := startServer(b, bin, pprofAddr)
		t := target{pid: s.PID(), kinds: kindsFor(b, s, data), pprofAddr: pprofAddr, metrics: "http://" + s.httpAddr + "/metrics"}
		pprofAddr = "" // one binary's profile only
		if (i > 0) != (*profileAgainst && *against != "") {
			t.prefix = "against-"
		}
		targets = append(targets, t)
	}
	if targets[0].prefix != "" { // the -against binary went first: rounds in the usual order
		targets[0], targets[1] = targets[1], targets[0]
	}
	for _, t := range targets { // connections, streams and stacks in place
		for _, k := range t.kinds {
			k.round(b, t.pid, t.metrics, workers*k.per)
			k.server, k.client, k.allocated, k.msgs = 0, 0, 0, 0
		}
	}
	b.ResetTimer()
	var profiled chan struct{}
	var profileErr chan error
	if *profile != "" {
		for _, t := range targets {
			if t.pprofAddr != "" {
				profiled, profileErr = fetchProfiles(t.pprofAddr)
			}
		}
	}
	for r := 0; r < rounds || profiling(profiled); r++ {
		for i := range targets[0].kinds {
			// Which binary goes first alternates: the one that goes
			// second finds the same work just done, its client side warm.
			for j := range targets {
				t := targets[(j+r)%len(targets)]
				k := t.kinds[i]
				k.round(b, t.pid, t.metrics, max(b.N/rounds, workers*k.per))
			}
		}
	}
	b.StopTimer()
	if profileErr != nil {
		select {
		case err := <-profileErr:
			b.Fatal(err)
		default:
		}
	}
	for _, t := range targets {
		byName := map[string]float64{}
		for _, k := range t.kinds {
			byName[k.name] = k.report(b, t.prefix)
		}
		for _, d := range [][2]string{{"transcode", "health"}, {"http", "healthz"}, {"stream", "reflect"}} {
			v, ok1 := byName[d[0]]
			floor, ok2 := byName[d[1]]
			if ok1 && ok2 {
				b.ReportMetric(v-floor, t.prefix+d[0]+"-over-"+d[1]+"-µs")
			}
		}
	}
}

// kindsFor are the kinds of calls to s (those -kinds names, if set).
func kindsFor(b *testing.B, s *server, data []byte) []*kind {
	conns := make([]*grpc.ClientConn, 4)
	for i := range conns {
		var err error
		if conns[i], err = grpc.NewClient(s.grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials())); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { conns[i].Close() })
	}
	ctx := context.Background()
	req := &pb.TranscodeRequest{Data: data, To: pb.Codec_CODEC_BER}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	b.Cleanup(hc.CloseIdleConnections)
	url := "http://" + s.httpAddr + "/v1/transcode?to=ber"
	single, batch := streams(b, conns, 1, req), streams(b, conns, 64, req)
	reflect := reflectStreams(b, conns)
	kinds := []*kind{
		{name: "health", per: 1, do: func(w int) error {
			_, err := healthpb.NewHealthClient(conns[w%len(conns)]).Check(ctx, &healthpb.HealthCheckRequest{})
			return err
		}},
		{name: "transcode", per: 1, do: func(w int) error {
			_, err := pb.NewCodecServiceClient(conns[w%len(conns)]).Transcode(ctx, req)
			return err
		}},
		{name: "healthz", per: 1, do: func(int) error {
			return httpOK(hc.Get("http://" + s.httpAddr + "/healthz"))
		}},
		{name: "http", per: 1, do: func(int) error {
			return httpOK(hc.Post(url, "text/plain", bytes.NewReader(data)))
		}},
		{name: "reflect", per: 1, do: reflect},
		{name: "stream", per: 1, do: single},
		{name: "batch", per: 64, do: batch},
		{name: "codec", per: 1, local: true, do: codecAlone(b, data)},
	}
	if *only != "" {
		kinds = slices.DeleteFunc(kinds, func(k *kind) bool { return !slices.Contains(strings.Split(*only, ","), k.name) })
	}
	return kinds
}

// httpOK reads and closes an answer, which must be 200.
func httpOK(resp *http.Response, err error) error {
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("http: %s", resp.Status)
	}
	return nil
}

// streams opens a TranscodeStream per worker and returns what sends
// worker w's one request (per messages: 1, or a batch) and reads the
// answer.
func streams(b *testing.B, conns []*grpc.ClientConn, per int, req *pb.TranscodeRequest) func(w int) error {
	msg := &pb.TranscodeStreamRequest{Request: req}
	if per > 1 {
		msg = &pb.TranscodeStreamRequest{Batch: make([]*pb.TranscodeRequest, per)}
		for i := range msg.Batch {
			msg.Batch[i] = req
		}
	}
	return exchanges(b, conns, msg, func(c *grpc.ClientConn) (pb.CodecService_TranscodeStreamClient, error) {
		return pb.NewCodecServiceClient(c).TranscodeStream(context.Background())
	})
}

// reflectStreams opens a server reflection stream per worker and returns
// what asks worker w's for the list of services: the floor of a stream
// message, answered by gRPC's own service with no codec work.
func reflectStreams(b *testing.B, conns []*grpc.ClientConn) func(w int) error {
	req := &reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{ListServices: "*"}}
	return exchanges(b, conns, req, func(c *grpc.ClientConn) (reflectionpb.ServerReflection_ServerReflectionInfoClient, error) {
		return reflectionpb.NewServerReflectionClient(c).ServerReflectionInfo(context.Background())
	})
}

// bidi is a bidirectional stream's client side.
type bidi[Req, Resp any] interface {
	Send(*Req) error
	Recv() (*Resp, error)
	CloseSend() error
}

// exchanges opens a stream per worker (on the workers' connections in
// turn, closed when the benchmark ends) and returns what sends msg on
// worker w's and reads one answer.
func exchanges[Req, Resp any, S bidi[Req, Resp]](b *testing.B, conns []*grpc.ClientConn, msg *Req, open func(*grpc.ClientConn) (S, error)) func(w int) error {
	sts := make([]S, workers)
	for w := range sts {
		var err error
		if sts[w], err = open(conns[w%len(conns)]); err != nil {
			b.Fatal(err)
		}
	}
	b.Cleanup(func() {
		for _, st := range sts {
			_ = st.CloseSend()
		}
	})
	return func(w int) error {
		if err := sts[w].Send(msg); err != nil {
			return err
		}
		_, err := sts[w].Recv()
		return err
	}
}

// codecAlone is the codec work of a Transcode done here, with the
// service's default options and reused output buffers (one a worker):
// what the server's CPU per message is compared with.
func codecAlone(b *testing.B, data []byte) func(w int) error {
	opts := codec.Options{Profile: codec.ProfileOTP, Limits: limits.Default, Layout: termid.Default()}
	opts.Limits.MaxSize = 64 << 10
	outs := make([][]byte, workers)
	return func(w int) error {
		var err error
		outs[w], _, err = codec.Transcode(outs[w][:0], data, "compact", "ber", opts)
		return err
	}
}
