package server

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"megaco/internal/pprofhttp"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func TestBuildInfoMetric(t *testing.T) {
	ts := start(t, DefaultConfig())
	_, body := get(t, "http://"+ts.httpAddr+"/metrics")
	var line string
	for l := range strings.Lines(body) {
		if strings.HasPrefix(l, "megaco_build_info{") {
			line = strings.TrimSpace(l)
		}
	}
	if !strings.Contains(line, `goversion="`+runtime.Version()+`"`) || !strings.HasSuffix(line, " 1") {
		t.Errorf("megaco_build_info: %q", line)
	}
}

func TestPprofListener(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	addr, stop, err := pprofhttp.Start("127.0.0.1:0", log)
	if err != nil {
		t.Fatal(err)
	}
	if code, body := get(t, "http://"+addr.String()+"/debug/pprof/cmdline"); code != 200 || body == "" {
		t.Errorf("pprof cmdline: %d %q", code, body)
	}
	if code, _ := get(t, "http://"+addr.String()+"/debug/pprof/goroutine?debug=1"); code != 200 {
		t.Errorf("pprof goroutine: %d", code)
	}
	stop()
	if _, err := net.Dial("tcp", addr.String()); err == nil {
		t.Error("pprof listener still accepts after stop")
	}
	// Off by default, and never on the public port.
	if a, stop, err := pprofhttp.Start("", log); a != nil || err != nil {
		t.Errorf("pprofhttp.Start(\"\") = %v, %v", a, err)
	} else {
		stop()
	}
	ts := start(t, DefaultConfig())
	if code, _ := get(t, "http://"+ts.httpAddr+"/debug/pprof/"); code != http.StatusNotFound {
		t.Errorf("public HTTP port serves /debug/pprof/: %d", code)
	}
}

func TestPprofAddrInUse(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	err = Run(t.Context(), Options{GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0", PprofAddr: l.Addr().String(),
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err == nil || !strings.Contains(err.Error(), "pprof listen") {
		t.Errorf("Run with a busy pprof address: %v", err)
	}
}
