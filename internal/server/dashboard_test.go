package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pb "megaco/api/megaco/v1"
)

// dashboardExprs returns every query of the Grafana dashboard, with
// Grafana's variables replaced by what Prometheus understands.
func dashboardExprs(t *testing.T) []string {
	b, err := os.ReadFile("../../deploy/grafana/megaco-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer(`$__rate_interval`, `30s`, `"$instance"`, `".*"`, `"$proxy"`, `".*"`)
	var out []string
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			out = append(out, r.Replace(tg.Expr))
		}
	}
	if len(out) < 8 {
		t.Fatalf("only %d queries in the dashboard", len(out))
	}
	return out
}

// TestDashboardQueries scrapes a real server with a real Prometheus and
// checks that every dashboard query returns data. The proxy row's queries
// (megaco_proxy_* series, which megaco serve does not expose) are only
// checked to be valid PromQL that Prometheus accepts.
func TestDashboardQueries(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a real Prometheus; skipped in -short mode")
	}
	promBin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus is not installed (apt-get install prometheus); .ci/run installs it")
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

	dir := t.TempDir()
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	promAddr := l.Addr().String()
	l.Close()
	cfg := fmt.Sprintf("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: megaco\n    static_configs:\n      - targets: [%q]\n", ts.httpAddr)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prom := exec.CommandContext(pctx, promBin, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+promAddr)
	var plog bytes.Buffer
	prom.Stdout, prom.Stderr = &plog, &plog
	if err := prom.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		_ = prom.Wait()
	}()

	query := func(expr string) (int, error) {
		u := "http://" + promAddr + "/api/v1/query?query=" + url.QueryEscape(expr)
		resp, err := http.Get(u)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		var r struct {
			Status string
			Error  string
			Data   struct{ Result []json.RawMessage }
		}
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			return 0, err
		}
		if r.Status != "success" {
			return 0, fmt.Errorf("%s", r.Error)
		}
		return len(r.Data.Result), nil
	}
	exprs := dashboardExprs(t)
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
