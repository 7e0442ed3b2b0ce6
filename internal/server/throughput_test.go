package server

import (
	"context"
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

func BenchmarkStream(b *testing.B) {
	ts := startOpts(b, Options{Config: DefaultConfig(), GCPercent: gcPercent()})
	msgs, from, to := throughputInput(b)
	const streams = 4
	per := (b.N + streams - 1) / streams
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
			// At most window messages in flight, as a sidecar with a
			// bounded queue would have; latency is then meaningful.
			const window = 64
			sent := make(chan time.Time, window)
			go func() {
				for i := 0; i < per; i++ {
					sent <- time.Now()
					if err := stream.Send(&pb.TranscodeStreamRequest{Request: &pb.TranscodeRequest{Data: msgs[i%len(msgs)], From: from, To: to}}); err != nil {
						return
					}
				}
				_ = stream.CloseSend()
			}()
			mine := make([]time.Duration, 0, per)
			for {
				resp, err := stream.Recv()
				if err == io.EOF {
					break
				}
				if err != nil || resp.GetResponse().GetError() != nil {
					b.Error(err, resp.GetResponse().GetError())
					return
				}
				mine = append(mine, time.Since(<-sent))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	report(b, int64(per*streams), lat)
}
