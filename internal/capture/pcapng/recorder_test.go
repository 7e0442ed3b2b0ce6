package pcapng_test

import (
	"bytes"
	"fmt"
	"net/netip"
	"runtime"
	"sync"
	"testing"

	"github.com/gopacket/gopacket/pcapgo"

	"megaco/internal/capture/pcapng"
)

// TestRecorderOrder: goroutines reserve a request, have another goroutine
// record its reply, and only then say the request was sent (as a proxy's
// sender may be descheduled between its write and its bookkeeping). The
// file has every request before its reply, times that never go back, no
// request whose send failed, and the comments given.
func TestRecorderOrder(t *testing.T) {
	var buf bytes.Buffer
	w, err := pcapng.NewWriter(&buf, pcapng.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := pcapng.NewRecorder(w, pcapng.RecorderOptions{})
	a, b := netip.MustParseAddrPort("10.0.0.1:2944"), netip.MustParseAddrPort("10.0.0.2:2944")
	const n = 400
	replies := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the reply reader
		defer wg.Done()
		for i := range replies {
			rec.Record(pcapng.Frame{TCP: i%2 == 1, Src: b, Dst: a, Data: fmt.Appendf(nil, "reply %d", i)})
		}
	}()
	var senders sync.WaitGroup
	for g := range 8 {
		senders.Add(1)
		go func() {
			defer senders.Done()
			for i := g; i < n; i += 8 {
				f := pcapng.Frame{TCP: i%2 == 1, Src: a, Dst: b, Head: []byte("request "), Data: fmt.Appendf(nil, "%d", i)}
				if i%10 == 0 {
					f.Comment = fmt.Sprintf("note %d", i)
				}
				tk := rec.Reserve(f)
				replies <- i
				runtime.Gosched()
				rec.Done(tk, i%7 != 3)
			}
		}()
	}
	senders.Wait()
	close(replies)
	wg.Wait()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	r, err := pcapgo.NewNgReader(&buf, pcapgo.DefaultNgReaderOptions)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	var last int64
	for k := 0; ; k++ {
		data, ci, opts, err := r.ReadPacketDataWithOptions()
		if err != nil {
			break
		}
		if ts := ci.Timestamp.UnixNano(); ts < last {
			t.Errorf("frame %d: time goes back %d ns", k+1, last-ts)
		} else {
			last = ts
		}
		var kind string
		var i int
		p := data[bytes.LastIndex(data, []byte("re")):]
		if _, err := fmt.Sscanf(string(p), "%s %d", &kind, &i); err != nil {
			t.Fatalf("frame %d: %q: %v", k+1, p, err)
		}
		seen[fmt.Sprint(kind, i)] = k
		wantComment := kind == "request" && i%10 == 0
		if got := len(opts.Comments) == 1 && opts.Comments[0] == fmt.Sprintf("note %d", i); got != wantComment {
			t.Errorf("frame %d (%s %d): comments %q", k+1, kind, i, opts.Comments)
		}
	}
	for i := range n {
		req, sent := seen[fmt.Sprint("request", i)]
		rep, ok := seen[fmt.Sprint("reply", i)]
		switch {
		case !ok:
			t.Errorf("reply %d missing", i)
		case sent != (i%7 != 3):
			t.Errorf("request %d in the file: %v, sent: %v", i, sent, i%7 != 3)
		case sent && req > rep:
			t.Errorf("request %d is frame %d, after its reply (frame %d)", i, req+1, rep+1)
		}
	}
	if d := rec.Dropped(); d != 0 {
		t.Errorf("%d dropped", d)
	}
}

// TestRecorderBound: frames past the queue's bound are dropped and
// counted, not waited for, while the first frame waits for its send.
func TestRecorderBound(t *testing.T) {
	var buf bytes.Buffer
	w, err := pcapng.NewWriter(&buf, pcapng.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var told []error
	var mu sync.Mutex
	rec := pcapng.NewRecorder(w, pcapng.RecorderOptions{MaxQueued: 1000, OnError: func(err error) {
		mu.Lock()
		told = append(told, err)
		mu.Unlock()
	}})
	a, b := netip.MustParseAddrPort("[::1]:2944"), netip.MustParseAddrPort("[::1]:2945")
	first := rec.Reserve(pcapng.Frame{Src: a, Dst: b, Data: make([]byte, 100)})
	var dropped int
	for range 20 {
		if rec.Reserve(pcapng.Frame{Src: a, Dst: b, Data: make([]byte, 100)}) == 0 {
			dropped++
		}
	}
	if dropped != 11 || rec.Dropped() != 11 {
		t.Errorf("%d reservations refused, %d counted; want 11 of 20 past a 1000-byte bound", dropped, rec.Dropped())
	}
	rec.Done(first, true)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 1 {
		t.Errorf("told %q, want one report of the drops", told)
	}
}
