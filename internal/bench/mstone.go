package bench

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// throughput measures messages per second the way OTP's mstone tools do:
// g goroutines, each decoding and re-encoding the corpus messages in turn
// for d, for g = 1..n. Each goroutine starts at a different message and
// has its own decoder and buffers.
func (p *prepared) throughput(ctx context.Context, n int, d time.Duration) (Throughput, error) {
	t := Throughput{Config: p.cfg.Label, Codec: p.cfg.Codec}
	var items []*item
	for _, it := range p.items {
		if !it.failed {
			items = append(items, it)
		}
	}
	if len(items) == 0 {
		return t, errors.New("no messages")
	}
	for g := 1; g <= n; g++ {
		if err := ctx.Err(); err != nil {
			return t, err
		}
		runtime.GC()
		var total atomic.Int64
		var mu sync.Mutex
		var firstErr error
		var wg sync.WaitGroup
		start := time.Now()
		deadline := start.Add(d)
		for w := range g {
			wg.Go(func() {
				r := p.newRunner()
				i := w * len(items) / g
				var count int64
				for {
					if err := r.roundTrip(items[i]); err != nil {
						mu.Lock()
						if firstErr == nil {
							firstErr = err
						}
						mu.Unlock()
						break
					}
					count++
					if i++; i == len(items) {
						i = 0
					}
					if count%8 == 0 && time.Now().After(deadline) {
						break
					}
				}
				total.Add(count)
			})
		}
		wg.Wait()
		if firstErr != nil {
			return t, firstErr
		}
		t.PerSec = append(t.PerSec, float64(total.Load())/time.Since(start).Seconds())
	}
	t.Scaling = t.PerSec[n-1] / t.PerSec[0]
	return t, nil
}
