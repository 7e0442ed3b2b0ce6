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

// throughput is a benchmark's server, on the collector target of megaco
// serve, and its input.
type throughput struct {
	ts       *testServer
	msgs     [][]byte
	from, to pb.Codec
}

func newThroughput(b *testing.B) *throughput {
	tp := &throughput{from: pb.Codec_CODEC_COMPACT, to: pb.Codec_CODEC_BER}
	ext := ".compact.txt"
	if _, err := codec.Lookup("compact", codec.Options{}); err != nil {
		tp.from, tp.to, ext = pb.Codec_CODEC_BER, pb.Codec_CODEC_PER, ".ber"
	}
	paths, _ := filepath.Glob("../../corpus/otp-time-test/*" + ext)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		tp.msgs = append(tp.msgs, data)
	}
	b.Logf("transcoding %d messages %s -> %s", len(tp.msgs), strings.ToLower(tp.from.String()[6:]), strings.ToLower(tp.to.String()[6:]))
	tp.ts = startOpts(b, Options{Config: DefaultConfig(), GCPercent: gcPercent()})
	return tp
}

// request is the request for message k of the corpus, in turn.
func (tp *throughput) request(k int64) *pb.TranscodeRequest {
	return &pb.TranscodeRequest{Data: tp.msgs[k%int64(len(tp.msgs))], From: tp.from, To: tp.to}
}

// parallel resets the timer and runs work in n goroutines; it returns the
// latencies they measured, all together.
func parallel(b *testing.B, n int, work func(w int) []time.Duration) []time.Duration {
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	b.ResetTimer()
	for w := range n {
		wg.Go(func() {
			mine := work(w)
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return lat
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
	tp := newThroughput(b)
	var next atomic.Int64
	lat := parallel(b, 32, func(int) []time.Duration {
		var mine []time.Duration
		for {
			i := next.Add(1) - 1
			if i >= int64(b.N) {
				return mine
			}
			t0 := time.Now()
			if _, err := tp.ts.client.Transcode(context.Background(), tp.request(i)); err != nil {
				b.Error(err)
				return nil
			}
			mine = append(mine, time.Since(t0))
		}
	})
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
	tp := newThroughput(b)
	const streams = 4
	frames := (b.N + streams*batch - 1) / (streams * batch) // per stream
	lat := parallel(b, streams, func(s int) []time.Duration {
		stream, err := tp.ts.client.TranscodeStream(context.Background())
		if err != nil {
			b.Error(err)
			return nil
		}
		// At most 64 messages in flight, as a sidecar with a bounded
		// queue would have; latency is then meaningful.
		sent := make(chan time.Time, max(64/batch, 1))
		go sendFrames(stream, tp, s, frames, batch, sent)
		mine := make([]time.Duration, 0, frames*batch)
		for {
			resp, err := stream.Recv()
			if err == io.EOF {
				return mine
			}
			if err != nil {
				b.Error(err)
				return nil
			}
			answers := resp.Batch
			if resp.Response != nil {
				answers = append(answers, resp.Response)
			}
			if len(answers) != batch {
				b.Errorf("%d answers for a batch of %d", len(answers), batch)
				return nil
			}
			d := time.Since(<-sent)
			for _, a := range answers {
				if a.Error != nil {
					b.Error(a.Error)
					return nil
				}
				mine = append(mine, d)
			}
		}
	})
	report(b, int64(frames*streams*batch), lat)
}

// sendFrames sends frames of batch messages from message k on, each
// message alone in its frame when batch is 1; sent gets each frame's time.
func sendFrames(stream pb.CodecService_TranscodeStreamClient, tp *throughput, k, frames, batch int, sent chan<- time.Time) {
	for range frames {
		req := &pb.TranscodeStreamRequest{}
		for range batch {
			r := tp.request(int64(k))
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
}
