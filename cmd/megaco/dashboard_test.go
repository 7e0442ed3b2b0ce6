package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"megaco/internal/proxy"
	"megaco/internal/testbin"
)

// TestDashboardProxyQueries runs a proxy (as megaco proxy does: proxy.Run,
// its /metrics) under megaco load, scraped by a real Prometheus, and
// checks that every dashboard query about proxies (the proxy row, and the
// runtime row's and build versions' queries, which cover proxies too)
// returns data, as internal/server's TestDashboardQueries does for the
// service row.
func TestDashboardProxyQueries(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a real Prometheus and a load run; skipped in -short mode")
	}
	exprs := testbin.DashboardExprs(t, "../../deploy/grafana/megaco-dashboard.json", "$proxy")
	peers := testbin.FreeAddrs(t, "udp", 2)
	type addrs struct{ mgc, mg, http net.Addr }
	ready := make(chan addrs, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- proxy.Run(ctx, proxy.RunOptions{
			// IdentityOff: megaco load compares what arrives byte for byte.
			Config:       proxy.Config{MGC: loopbackSide("udp", "compact", peers[0]), MG: loopbackSide("udp", "ber", peers[1]), IdentityOff: true},
			HTTPAddr:     "127.0.0.1:0",
			DrainTimeout: time.Second,
			Ready:        func(mgc, mg, h net.Addr) { ready <- addrs{mgc, mg, h} },
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	var a addrs
	select {
	case a = <-ready:
	case err := <-done:
		t.Fatalf("proxy: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the proxy did not start")
	}
	query, plog := testbin.Prometheus(t, map[string][]string{"megaco-proxy": {a.http.String()}})
	load := func() {
		args := []string{"load", "--transport", "udp", "-r", "100", "-m", "50", "-d", "0", "-q",
			"--mgc-listen", peers[0], "--mg-listen", peers[1], "--mgc-target", a.mgc.String(), "--mg-target", a.mg.String()}
		if code := run(args, nil, io.Discard, io.Discard); code != 0 {
			t.Logf("load: exit %d", code)
		}
	}
	deadline := time.Now().Add(90 * time.Second)
	var missing []string
	for time.Now().Before(deadline) {
		load() // keep the rates non-zero across scrapes
		missing = missing[:0]
		for _, e := range exprs {
			if n, err := query(e); err != nil || n == 0 {
				missing = append(missing, fmt.Sprintf("%s (%v)", e, err))
			}
		}
		if len(missing) == 0 {
			t.Logf("all %d dashboard queries about proxies return data from a real Prometheus scraping a proxy under load", len(exprs))
			return
		}
	}
	t.Errorf("dashboard queries without data after 90 s:\n%s\nprometheus log:\n%s", strings.Join(missing, "\n"), plog.String())
}
