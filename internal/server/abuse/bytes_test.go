package abuse

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"megaco/internal/testbin"
)

// liveHeap is the server's live heap: HeapAlloc read right after a
// collection, which /debug/pprof/heap?gc=1 runs (twice: the second
// frees what the first left in sync.Pools' victim caches).
func liveHeap(t *testing.T, pprofAddr string) float64 {
	t.Helper()
	var heap float64
	for range 2 {
		resp, err := http.Get("http://" + pprofAddr + "/debug/pprof/heap?gc=1&debug=1")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		m := heapAllocLine.FindSubmatch(b)
		if m == nil {
			t.Fatalf("no HeapAlloc in the heap profile: %.300s", b)
		}
		heap, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	return heap / (1 << 20)
}

var heapAllocLine = regexp.MustCompile(`# HeapAlloc = (\d+)`)

// TestNeverReadingStreamsHeap: 500 streams (10 connections) send large
// batches and never read, with the send timeout out of the way (60 s).
// The measure: about 590 KB of live heap each (586 MB at the
// 1,000-call cap), 2.4 times the bound the README gave. The server's live
// heap, measured after a collection, stays within the bound the service
// documents (docs/service.md): 20 MiB of its own, 2 x
// --max-in-flight-bytes (the requests in hand and the answers queued,
// which are charged to that cap), 128 KiB a call (its receive window and
// the small answers gRPC queues uncharged) and 80 KiB a connection.
func TestNeverReadingStreamsHeap(t *testing.T) {
	pprof := testbin.FreeAddr(t, "tcp")
	const inFlightMiB, conns, perConn = 16, 10, 50
	s := start(t, "--grpc-send-timeout", "60s", "--max-in-flight-bytes", strconv.Itoa(inFlightMiB<<20), "--pprof-addr", pprof)
	b := watch(t, s)
	before := liveHeap(t, pprof)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	placed, wg := neverReading(ctx, t, s, conns, perConn)
	if !eventually(60*time.Second, func() bool { return placed.Load() == conns*perConn }) {
		t.Logf("after 60 s only %d of %d streams have sent twice", placed.Load(), conns*perConn)
	}
	var peak float64
	for range 3 {
		peak = max(peak, liveHeap(t, pprof))
	}
	bound := 20 + 2*inFlightMiB + float64(conns*perConn)*128/1024 + float64(conns+2)*80/1024
	t.Logf("live heap before %.1f MiB, with %d never-reading streams %.1f MiB (%.0f KB a stream); bound %.1f MiB; refused for the in-flight cap: %.0f",
		before, conns*perConn, peak, (peak-before)*(1<<20)/1000/(conns*perConn), bound, s.rejected("grpc", "in_flight_bytes"))
	if peak > bound {
		t.Errorf("live heap %.1f MiB over the documented bound of %.1f MiB", peak, bound)
	}
	cancel()
	wg.Wait()
	// What the refused and cancelled streams held is given back: the
	// gauge returns to (about) nothing.
	if !eventually(20*time.Second, func() bool { return s.metrics()["megaco_server_in_flight_bytes"] < 1<<20 }) {
		t.Errorf("in-flight bytes still %.0f after the streams ended", s.metrics()["megaco_server_in_flight_bytes"])
	}
	b.check(t)
}

// slowBody opens a connection and sends a request's headers (a body of
// size bytes), then a byte of it every gap, until the server answers or
// closes; it returns the status line (or the error) and when it came.
func slowBody(addr string, size int, gap, limit time.Duration) (string, time.Duration) {
	t0 := time.Now()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err.Error(), 0
	}
	defer c.Close()
	_ = c.SetDeadline(t0.Add(limit))
	fmt.Fprintf(c, "POST /v1/transcode?to=per HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", size)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for range size {
			if _, err := c.Write([]byte{'x'}); err != nil {
				return
			}
			select {
			case <-stop:
				return
			case <-time.After(gap):
			}
		}
	}()
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return noAnswer(err), time.Since(t0)
	}
	return line[:len(line)-2], time.Since(t0)
}

// TestSlowBodies: 48 clients send a body a byte a second, beside a
// well-behaved client that must get every answer (no 503). The issue's
// measure: 300 clients sending a byte every 2 s took all 256 /v1 places,
// and curl got 503 for 30 s; here 48 against 16 places. Slow bodies take
// no place while they arrive, and are cut (408) once slower than the
// minimum rate after its grace (5 s by default).
func TestSlowBodies(t *testing.T) {
	s := start(t, "--http-max-concurrent", "16")
	b := watch(t, s)
	const clients = 48
	answers := make([]string, clients)
	took := make([]time.Duration, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i], took[i] = slowBody(s.httpAddr, 1000, time.Second, 30*time.Second)
		}()
	}
	wg.Wait()
	counts := map[string]int{}
	var longest time.Duration
	for i, a := range answers {
		counts[a]++
		longest = max(longest, took[i])
	}
	t.Logf("%d slow bodies: %v, the last after %v; rejected slow_body %.0f", clients, counts, longest.Round(time.Millisecond), s.rejected("http", "slow_body"))
	if counts["HTTP/1.1 408 Request Timeout"] != clients || longest > 20*time.Second {
		t.Errorf("want every slow body answered 408 within 20 s")
	}
	b.check(t)
}

// TestContentLengthOverLimit: 100 clients announce a 10 MB body, over
// the 64 KiB message limit, and send none of it. Each is refused at once
// from the header (413, connection closed), rather than holding a place
// and in-flight bytes until the read timeout.
func TestContentLengthOverLimit(t *testing.T) {
	s := start(t, "--max-message-size", "65536")
	b := watch(t, s)
	const clients = 100
	answers := make([]string, clients)
	var slowest atomic.Int64
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			c, err := net.Dial("tcp", s.httpAddr)
			if err != nil {
				answers[i] = err.Error()
				return
			}
			defer c.Close()
			_ = c.SetDeadline(t0.Add(10 * time.Second))
			fmt.Fprintf(c, "POST /v1/transcode?to=per HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n")
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				answers[i] = noAnswer(err)
				return
			}
			resp.Body.Close()
			answers[i] = resp.Status
			if !resp.Close {
				answers[i] += " (connection kept)"
			}
			for d := int64(time.Since(t0)); ; {
				cur := slowest.Load()
				if d <= cur || slowest.CompareAndSwap(cur, d) {
					break
				}
			}
		}()
	}
	wg.Wait()
	counts := map[string]int{}
	for _, a := range answers {
		counts[a]++
	}
	t.Logf("%d bodies of 10 MB announced: %v, the slowest answer after %v", clients, counts, time.Duration(slowest.Load()).Round(time.Millisecond))
	if counts["413 Request Entity Too Large"] != clients {
		t.Errorf("want every one refused 413 with the connection closed, within 10 s")
	}
	b.check(t)
}

// noAnswer names a read that got no answer, without the addresses.
func noAnswer(err error) string {
	if isTimeout(err) {
		return "no answer in time"
	}
	return "no answer: connection closed"
}
