package server

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pb "megaco/api/megaco/v1"
	"megaco/internal/testbin"
)

// TestDashboardQueries scrapes a real server with a real Prometheus and
// checks that every dashboard query returns data. The proxy row's queries
// (megaco_proxy_* series, which megaco serve does not expose) are only
// checked to be valid PromQL that Prometheus accepts.
func TestDashboardQueries(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a real Prometheus; skipped in -short mode")
	}
	if promtool, err := exec.LookPath("promtool"); err == nil {
		if out, err := exec.Command(promtool, "check", "config", "../../deploy/prometheus/prometheus.yml").CombinedOutput(); err != nil {
			t.Errorf("promtool check config: %v\n%s", err, out)
		}
	}
	ts := start(t, DefaultConfig())
	// Traffic: good messages through several codecs, and some bad ones.
	ctx := context.Background()
	paths, _ := filepath.Glob("../../corpus/otp-time-test/*.ber")
	send := func() {
		var batch []*pb.TranscodeRequest
		for _, p := range paths[:30] {
			data, _ := os.ReadFile(p)
			_, _ = ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: data, To: pb.Codec_CODEC_PER})
			_, _ = ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: data, To: pb.Codec_CODEC_NATIVE_ZSTD})
			_, _ = ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: data[:len(data)/2], To: pb.Codec_CODEC_PER})
			batch = append(batch, &pb.TranscodeRequest{Data: data, To: pb.Codec_CODEC_PER})
		}
		// A stream with a batch and a single message.
		if stream, err := ts.client.TranscodeStream(ctx); err == nil {
			_ = stream.Send(&pb.TranscodeStreamRequest{Batch: batch})
			_ = stream.Send(&pb.TranscodeStreamRequest{Request: batch[0]})
			_ = stream.CloseSend()
			for {
				if _, err := stream.Recv(); err != nil {
					break
				}
			}
		}
	}
	send()

	query, plog := testbin.Prometheus(t, map[string][]string{"megaco": {ts.httpAddr}})
	exprs := testbin.DashboardExprs(t, "../../deploy/grafana/megaco-dashboard.json")
	deadline := time.Now().Add(60 * time.Second)
	var missing []string
	for time.Now().Before(deadline) {
		send() // keep rates non-zero across scrapes
		missing = missing[:0]
		for _, e := range exprs {
			n, err := query(e)
			if strings.Contains(e, "megaco_proxy_") && err == nil {
				continue
			}
			if err != nil || n == 0 {
				missing = append(missing, fmt.Sprintf("%s (%v)", e, err))
			}
		}
		if len(missing) == 0 {
			t.Logf("all %d dashboard queries are accepted by a real Prometheus; all but the %d proxy queries return data",
				len(exprs), strings.Count(strings.Join(exprs, "\n"), "megaco_proxy_"))
			return
		}
		time.Sleep(time.Second)
	}
	t.Errorf("dashboard queries without data after 60 s:\n%s\nprometheus log:\n%s", strings.Join(missing, "\n"), plog.String())
}
