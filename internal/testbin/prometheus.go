package testbin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// DashboardExprs returns the queries of the Grafana dashboard at path
// (those that use one of the variables vars, e.g. "$proxy"; all without),
// with Grafana's variables replaced by what Prometheus understands (every
// instance).
func DashboardExprs(t testing.TB, path string, vars ...string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
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
	r := strings.NewReplacer(`$__rate_interval`, `30s`, `"$instance|$proxy"`, `".*"`, `"$instance"`, `".*"`, `"$proxy"`, `".*"`)
	var out []string
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			if len(vars) == 0 || slices.ContainsFunc(vars, func(v string) bool { return strings.Contains(tg.Expr, v) }) {
				out = append(out, r.Replace(tg.Expr))
			}
		}
	}
	if len(out) < 8 {
		t.Fatalf("only %d queries in the dashboard", len(out))
	}
	return out
}

// Prometheus runs a real Prometheus (the test is skipped without one)
// scraping the targets of each job every second, until the test ends. It
// returns a function that runs an instant query and counts the series it
// returns, and Prometheus's log.
func Prometheus(t *testing.T, jobs map[string][]string) (query func(expr string) (int, error), log *Buffer) {
	t.Helper()
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus is not installed (apt-get install prometheus); .ci/run installs it")
	}
	dir := t.TempDir()
	addr := FreeAddr(t, "tcp")
	var cfg bytes.Buffer
	cfg.WriteString("global:\n  scrape_interval: 1s\nscrape_configs:\n")
	for job, targets := range jobs {
		fmt.Fprintf(&cfg, "  - job_name: %q\n    static_configs:\n      - targets: [\"%s\"]\n", job, strings.Join(targets, `", "`))
	}
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), cfg.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	prom := exec.CommandContext(ctx, bin, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+addr)
	log = &Buffer{}
	prom.Stdout, prom.Stderr = log, log
	if err := prom.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel() // kills our Prometheus, by its PID
		_ = prom.Wait()
	})
	client := &http.Client{Timeout: 10 * time.Second}
	query = func(expr string) (int, error) {
		resp, err := client.Get("http://" + addr + "/api/v1/query?query=" + url.QueryEscape(expr))
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
	return query, log
}
