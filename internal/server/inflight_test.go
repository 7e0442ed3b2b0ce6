package server

import (
	"runtime"
	"testing"
	"time"
)

// TestAnswerBufCharge: an answer's buffer is charged to the in-flight cap
// until gRPC gives it back, or, when gRPC drops it, until the collector
// frees it.
func TestAnswerBufCharge(t *testing.T) {
	f := newInFlight(1<<20, nil)
	p := newAnswerBuf(f, 4096)
	if f.used.Load() != 4096 {
		t.Fatalf("charged %d, want 4096", f.used.Load())
	}
	p.Put(bufferPool.Get(4096))
	if f.used.Load() != 0 {
		t.Fatalf("after Put: %d charged, want 0", f.used.Load())
	}
	newAnswerBuf(f, 8192) // dropped
	deadline := time.Now().Add(10 * time.Second)
	for f.used.Load() != 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if f.used.Load() != 0 {
		t.Errorf("a dropped buffer still charged after 10 s: %d", f.used.Load())
	}
	f.force(1)
	if !f.fits(1<<20-1, 1) || f.fits(1<<20, 1) || !f.fits(1<<19-1, 0.5) || f.fits(1<<19, 0.5) {
		t.Error("fits: with 1 byte held, want room for the share of the cap less 1 and no more")
	}
}
