package server

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	pb "megaco/api/megaco/v1"
	"megaco/internal/codec"
)

// The throughput benchmarks run client and server in one process over
// loopback, transcoding the corpus as a sidecar would: the MGC side's
// compact text to BER (BER to PER until the text codec is registered).
// They report messages/s and the p50/p99 latency of one call (unary) or of
// one message's round trip on a stream.

func throughputInput(b *testing.B) (msgs [][]byte, from, to pb.Codec) {
	from, to, ext := pb.Codec_CODEC_COMPACT, pb.Codec_CODEC_BER, ".compact.txt"
	if _, err := codec.Lookup("compact", codec.Options{}); err != nil {
		from, to, ext = pb.Codec_CODEC_BER, pb.Codec_CODEC_PER, ".ber"
	}
	paths, _ := filepath.Glob("../../corpus/otp-time-test/*" + ext)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		msgs = append(msgs, data)
	}
	b.Logf("transcoding %d messages %s -> %s", len(msgs), strings.ToLower(from.String()[6:]), strings.ToLower(to.String()[6:]))
	return msgs, from, to
}

// gcPercent is the collector target of the benchmarks: megaco serve's
// default, or GOGC's when that is set (to compare).
func gcPercent() int {
	if _, set := os.LookupEnv("GOGC"); set {
		return 0
	}
	return DefaultGCPercent
}

func report(b *testing.B, n int64, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "msgs/s")
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
	b.ReportMetric(0, "ns/op")
}

func BenchmarkUnary(b *testing.B) {
	ts := startOpts(b, Options{Config: DefaultConfig(), GCPercent: gcPercent()})
	msgs, from, to := throughputInput(b)
	const callers = 32
	var next atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	b.ResetTimer()
	var wg sync.WaitGroup
	for c := 0; c < callers; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					break
				}
				t0 := time.Now()
				_, err := ts.client.Transcode(context.Background(), &pb.TranscodeRequest{Data: msgs[i%int64(len(msgs))], From: from, To: to})
				if err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	report(b, int64(b.N), lat)
}

// BenchmarkStream sends one message per stream request (batch=1) or
// batches of them, as a sidecar batching what arrives together would.
func BenchmarkStream(b *testing.B) {
	for _, batch := range []int{1, 16} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) { benchStream(b, batch) })
	}
}

func benchStream(b *testing.B, batch int) {
	ts := startOpts(b, Options{Config: DefaultConfig(), GCPercent: gcPercent()})
	msgs, from, to := throughputInput(b)
	const streams = 4
	frames := (b.N + streams*batch - 1) / (streams * batch) // per stream
	var mu sync.Mutex
	var lat []time.Duration
	b.ResetTimer()
	var wg sync.WaitGroup
	for s := 0; s < streams; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stream, err := ts.client.TranscodeStream(context.Background())
			if err != nil {
				b.Error(err)
				return
			}
			// At most 64 messages in flight, as a sidecar with a bounded
			// queue would have; latency is then meaningful.
			window := max(64/batch, 1)
			sent := make(chan time.Time, window)
			go func() {
				k := s
				for range frames {
					req := &pb.TranscodeStreamRequest{}
					for range batch {
						r := &pb.TranscodeRequest{Data: msgs[k%len(msgs)], From: from, To: to}
						k++
						if batch == 1 {
							req.Request = r
						} else {
							req.Batch = append(req.Batch, r)
						}
					}
					sent <- time.Now()
					if err := stream.Send(req); err != nil {
						return
					}
				}
				_ = stream.CloseSend()
			}()
			mine := make([]time.Duration, 0, frames*batch)
			for {
				resp, err := stream.Recv()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Error(err)
					return
				}
				answers := resp.Batch
				if resp.Response != nil {
					answers = append(answers, resp.Response)
				}
				if len(answers) != batch {
					b.Errorf("%d answers for a batch of %d", len(answers), batch)
					return
				}
				d := time.Since(<-sent)
				for _, a := range answers {
					if a.Error != nil {
						b.Error(a.Error)
						return
					}
					mine = append(mine, d)
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	report(b, int64(frames*streams*batch), lat)
}
