package abuse

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	pb "megaco/api/megaco/v1"
	"megaco/internal/testbin"
)

// binary is the megaco binary TestMain builds.
var binary string

func TestMain(m *testing.M) {
	os.Exit(testbin.Main(m, "megaco/cmd/megaco", &binary))
}

// server is a running `megaco serve`.
type server struct {
	*testbin.Proc
	t                  *testing.T
	grpcAddr, httpAddr string
}

var servingLine = regexp.MustCompile(`msg=serving grpc=(\S+) http=(\S+)`)

// start runs megaco serve on loopback ports with flags, until the test
// ends.
func start(t *testing.T, flags ...string) *server {
	t.Helper()
	args := append([]string{"serve", "--grpc-addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0", "--drain-timeout", "5s"}, flags...)
	proc, a := testbin.Start(t, binary, args, servingLine)
	return &server{Proc: proc, t: t, grpcAddr: a[0], httpAddr: a[1]}
}

// metrics scrapes /metrics (series as written: name{labels}, labels in
// alphabetical order).
func (s *server) metrics() map[string]float64 {
	s.t.Helper()
	m, err := testbin.Scrape("http://" + s.httpAddr + "/metrics")
	if err != nil {
		s.t.Fatalf("scraping /metrics: %v", err)
	}
	return m
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

// peakFigures samples the figures until stop is closed and returns the
// highest of each.
func (s *server) peakFigures(stop <-chan struct{}) <-chan figures {
	return testbin.Peak(stop, s.figures, func(a, b figures) figures {
		return figures{max(a.goroutines, b.goroutines), max(a.heapMiB, b.heapMiB), max(a.rssMiB, b.rssMiB),
			max(a.grpcConns, b.grpcConns), max(a.httpConns, b.httpConns)}
	})
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

var eventually = testbin.Eventually

// neverReading opens conns x perConn TranscodeStreams (conns connections
// with small windows, as a hostile client would choose: the server's
// answers fill them at once) that send up to 20 batches of 200 messages
// with large answers and never read. placed counts the streams that
// have sent twice (so the server has answered once) or were refused;
// wg is done when every sender has stopped (ctx ended, or the server
// stopped reading or ended the stream).
func neverReading(ctx context.Context, t *testing.T, s *server, conns, perConn int) (placed *atomic.Int64, wg *sync.WaitGroup) {
	batch := make([]*pb.TranscodeRequest, 200)
	for i := range batch {
		batch[i] = &pb.TranscodeRequest{Data: msg(t), To: pb.Codec_CODEC_PRETTY}
	}
	placed, wg = &atomic.Int64{}, &sync.WaitGroup{}
	for range conns {
		_, client := dial(t, s.grpcAddr, grpc.WithInitialWindowSize(64<<10), grpc.WithInitialConnWindowSize(64<<10))
		for range perConn {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st, err := client.TranscodeStream(ctx)
				if err != nil {
					placed.Add(1)
					return
				}
				for i := range 20 {
					if st.Send(&pb.TranscodeStreamRequest{Batch: batch}) != nil {
						if i < 2 {
							placed.Add(1)
						}
						return
					}
					if i == 1 {
						placed.Add(1)
					}
				}
				// Never Recv: the client holds the stream open.
			}()
		}
	}
	return placed, wg
}
