package abuse

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	pb "megaco/api/megaco/v1"
)

// binary is the megaco binary TestMain builds.
var binary string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	goTool, err := exec.LookPath("go")
	if err != nil {
		fmt.Println("abuse: skipped: the go tool is not on PATH to build megaco")
		return 0
	}
	dir, err := os.MkdirTemp("", "megaco-abuse")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "megaco")
	build := exec.Command(goTool, "build", "-o", binary, "megaco/cmd/megaco")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Println("abuse: building megaco:", err)
		return 1
	}
	return m.Run()
}

// server is a running `megaco serve`.
type server struct {
	t                  *testing.T
	cmd                *exec.Cmd
	grpcAddr, httpAddr string
	log                *lockedBuffer
	exited             chan struct{}
	exitErr            error
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

var servingLine = regexp.MustCompile(`msg=serving grpc=(\S+) http=(\S+)`)

// start runs megaco serve on loopback ports with flags, until the test
// ends (SIGKILL then, if it has not exited).
func start(t *testing.T, flags ...string) *server {
	t.Helper()
	args := append([]string{"serve", "--grpc-addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0", "--drain-timeout", "5s"}, flags...)
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, cmd: cmd, log: &lockedBuffer{}, exited: make(chan struct{})}
	addrs := make(chan []string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(s.log, line)
			if m := servingLine.FindStringSubmatch(line); m != nil && !sent {
				addrs <- m[1:]
				sent = true
			}
		}
		_, _ = io.Copy(s.log, stderr)
		s.exitErr = cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // ours, by PID; harmless when it has exited
		<-s.exited
		if t.Failed() {
			t.Logf("server log (last 4 KiB):\n%s", tail(s.log.String(), 4096))
		}
	})
	select {
	case a := <-addrs:
		s.grpcAddr, s.httpAddr = a[0], a[1]
	case <-s.exited:
		t.Fatalf("megaco serve exited: %v\n%s", s.exitErr, s.log.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("megaco serve did not start\n%s", s.log.String())
	}
	return s
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// signal sends SIGTERM.
func (s *server) terminate() {
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		s.t.Fatal(err)
	}
}

// wait waits for the exit, up to d, and returns its status (-1: still
// running).
func (s *server) wait(d time.Duration) int {
	select {
	case <-s.exited:
		return s.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		return -1
	}
}

// metrics scrapes /metrics into series -> value (series as written:
// name{labels}).
func (s *server) metrics() map[string]float64 {
	s.t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get("http://" + s.httpAddr + "/metrics")
	if err != nil {
		s.t.Fatalf("scraping /metrics: %v", err)
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			out[line[:i]] = v
		}
	}
	return out
}

// figures are what the tests report and bound.
type figures struct {
	goroutines, heapMiB, rssMiB float64
	grpcConns, httpConns        float64
}

func (s *server) figures() figures {
	m := s.metrics()
	return figures{
		goroutines: m["go_goroutines"],
		heapMiB:    m["go_memstats_heap_inuse_bytes"] / (1 << 20),
		rssMiB:     m["process_resident_memory_bytes"] / (1 << 20),
		grpcConns:  m[`megaco_server_connections{transport="grpc"}`],
		httpConns:  m[`megaco_server_connections{transport="http"}`],
	}
}

func (f figures) String() string {
	return fmt.Sprintf("goroutines %.0f, heap in use %.1f MiB, RSS %.1f MiB, connections grpc %.0f http %.0f",
		f.goroutines, f.heapMiB, f.rssMiB, f.grpcConns, f.httpConns)
}

func (s *server) rejected(transport, reason string) float64 {
	return s.metrics()[fmt.Sprintf(`megaco_server_rejected_total{reason=%q,transport=%q}`, reason, transport)]
}

// peakFigures samples the figures every 100 ms until stop is closed and
// returns the highest of each.
func (s *server) peakFigures(stop <-chan struct{}) <-chan figures {
	out := make(chan figures, 1)
	go func() {
		var peak figures
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			f := s.figures()
			peak.goroutines = max(peak.goroutines, f.goroutines)
			peak.heapMiB = max(peak.heapMiB, f.heapMiB)
			peak.rssMiB = max(peak.rssMiB, f.rssMiB)
			peak.grpcConns = max(peak.grpcConns, f.grpcConns)
			peak.httpConns = max(peak.httpConns, f.httpConns)
			select {
			case <-stop:
				out <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// msg is a small message every codec takes.
func msg(t testing.TB) []byte {
	b, err := os.ReadFile("../../../corpus/otp-time-test/msg03.ber")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func dial(t testing.TB, addr string, opts ...grpc.DialOption) (*grpc.ClientConn, pb.CodecServiceClient) {
	t.Helper()
	conn, err := grpc.NewClient(addr, append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn, pb.NewCodecServiceClient(conn)
}

// bystander is a well-behaved client on the side: a unary gRPC call and
// an HTTP request every 100 ms, each on its own connection opened before
// the abuse, each allowed 10 s. Stop returns how many of each it made
// and the failures.
type bystander struct {
	// Allow503 takes an HTTP 503 (the concurrency cap's fair refusal)
	// as an answer.
	Allow503        atomic.Bool
	calls, failures atomic.Int64
	mu              sync.Mutex
	errs            []string
	stop            chan struct{}
	done            chan struct{}
}

func watch(t *testing.T, s *server) *bystander {
	t.Helper()
	_, client := dial(t, s.grpcAddr)
	data := msg(t)
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxConnsPerHost: 1}}
	b := &bystander{stop: make(chan struct{}), done: make(chan struct{})}
	call := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := client.Transcode(ctx, &pb.TranscodeRequest{Data: data, To: pb.Codec_CODEC_PER}); err != nil {
			return fmt.Errorf("grpc: %w", err)
		}
		resp, err := hc.Post("http://"+s.httpAddr+"/v1/transcode?to=per", "application/octet-stream", bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("http: %w", err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 && !(resp.StatusCode == 503 && b.Allow503.Load() && resp.Header.Get("Retry-After") != "") {
			return fmt.Errorf("http: %s", resp.Status)
		}
		return nil
	}
	if err := call(); err != nil { // the connections are open before the abuse
		t.Fatalf("bystander: %v", err)
	}
	go func() {
		defer close(b.done)
		for {
			select {
			case <-b.stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			b.calls.Add(1)
			if err := call(); err != nil {
				b.failures.Add(1)
				b.mu.Lock()
				if len(b.errs) < 5 {
					b.errs = append(b.errs, err.Error())
				}
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// check stops the bystander and fails the test if any of its calls
// failed or none was made.
func (b *bystander) check(t *testing.T) {
	t.Helper()
	eventually(5*time.Second, func() bool { return b.calls.Load() >= 3 })
	close(b.stop)
	<-b.done
	if b.failures.Load() > 0 || b.calls.Load() == 0 {
		t.Errorf("the well-behaved client got %d failures in %d calls: %v", b.failures.Load(), b.calls.Load(), b.errs)
	} else {
		t.Logf("the well-behaved client: %d calls, all answered", b.calls.Load())
	}
}

// eventually polls cond every 100 ms for up to d.
func eventually(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return cond()
}
