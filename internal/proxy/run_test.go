package proxy

import (
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"megaco/internal/testbin"
)

// TestRunPprof: Run serves /metrics on its HTTP address, with the
// process's megaco_build_info (as megaco serve's) and the routing table's
// bound, and, with PprofAddr, net/http/pprof on a listener of its own (and
// only there).
func TestRunPprof(t *testing.T) {
	addrs := testbin.FreeAddrs(t, "tcp", 1)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, RunOptions{
			Config: Config{
				MGC: SideConfig{Codec: "compact", Listen: Addr{"udp", "127.0.0.1:0"}, Peer: Addr{"udp", "127.0.0.1:9"}},
				MG:  SideConfig{Codec: "ber", Listen: Addr{"udp", "127.0.0.1:0"}, Peer: Addr{"udp", "127.0.0.1:9"}},
			},
			HTTPAddr:     "127.0.0.1:0",
			PprofAddr:    addrs[0],
			DrainTimeout: time.Second,
			Ready:        func(_, _, h net.Addr) { ready <- h },
		})
	}()
	var h net.Addr
	select {
	case h = <-ready:
	case err := <-done:
		t.Fatalf("Run: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("not ready")
	}
	get := func(url string) (int, string) {
		t.Helper()
		r, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return r.StatusCode, string(b)
	}
	if code, body := get("http://" + addrs[0] + "/debug/pprof/"); code != 200 || !strings.Contains(body, "goroutine") {
		t.Errorf("pprof index: %d %.80q", code, body)
	}
	if code, _ := get("http://" + h.String() + "/debug/pprof/"); code == 200 {
		t.Error("pprof served on the metrics address too")
	}
	_, metrics := get("http://" + h.String() + "/metrics")
	for _, want := range []string{`goversion="` + runtime.Version() + `"`, "\nmegaco_proxy_transactions_limit 100000\n"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics has no %q", want)
		}
	}
	if !regexp.MustCompile(`(?m)^megaco_build_info\{.*\} 1$`).MatchString(metrics) {
		t.Error("/metrics has no megaco_build_info 1")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
	}
}

func TestProcsFor(t *testing.T) {
	udp, tcp := Addr{Network: "udp"}, Addr{Network: "tcp"}
	side := func(a Addr) SideConfig { return SideConfig{Listen: a, Peer: a} }
	for _, c := range []struct {
		mgc, mg   Addr
		cpus, out int
	}{
		{udp, udp, 8, 1}, {udp, udp, 1, 1},
		{tcp, udp, 4, 4}, {udp, tcp, 2, 2}, {tcp, tcp, 1, 1}, {tcp, tcp, 0, 1},
	} {
		if got := procsFor(Config{MGC: side(c.mgc), MG: side(c.mg)}, c.cpus); got != c.out {
			t.Errorf("%s/%s on %d CPUs: %d, want %d", c.mgc.Network, c.mg.Network, c.cpus, got, c.out)
		}
	}
}
