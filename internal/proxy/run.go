package proxy

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"megaco/internal/buildinfo"
	"megaco/internal/pprofhttp"
)

// RunOptions are Run's: the proxy's configuration (its Registry is
// ignored: Run makes one), the HTTP address for /metrics, /healthz and
// /readyz, and how long SIGTERM's drain waits.
type RunOptions struct {
	Config       Config
	HTTPAddr     string
	DrainTimeout time.Duration
	// PprofAddr, if set, serves net/http/pprof on a listener of its own
	// (as megaco serve's --pprof-addr); empty serves no profiles.
	PprofAddr string
	// Ready, if set, is called with the addresses once everything listens.
	Ready func(mgc, mg, http net.Addr)
}

// Run proxies until ctx is done, then drains (Drain) and returns. It is
// the process's proxy: it sizes the process's parallelism (sizeProcs).
func Run(ctx context.Context, o RunOptions) error {
	procs := sizeProcs(o.Config)
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), buildinfo.Collector())
	cfg := o.Config
	cfg.Registry = reg
	p, err := New(cfg)
	if err != nil {
		return err
	}
	hl, err := net.Listen("tcp", o.HTTPAddr)
	if err != nil {
		return err
	}
	_, stopPprof, err := pprofhttp.Start(o.PprofAddr, p.log)
	if err != nil {
		hl.Close()
		return err
	}
	defer stopPprof()
	if err := p.Start(); err != nil {
		hl.Close()
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if p.Draining() {
			http.Error(w, "draining", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 16 << 10}
	herr := make(chan error, 1)
	go func() { herr <- hs.Serve(hl) }()
	log := p.log
	log.Info("proxy listening", "mgc_listen", p.ListenAddr(true).String(), "mgc", cfg.MGC.Peer.String(), "mgc_codec", cfg.MGC.Codec,
		"mg_listen", p.ListenAddr(false).String(), "mg", cfg.MG.Peer.String(), "mg_codec", cfg.MG.Codec, "http", hl.Addr().String(),
		"gomaxprocs", procs)
	if o.Ready != nil {
		o.Ready(p.ListenAddr(true), p.ListenAddr(false), hl.Addr())
	}
	select {
	case <-ctx.Done():
	case err := <-herr:
		p.Close()
		return err
	}
	log.Info("draining", "timeout", o.DrainTimeout.String())
	left := p.Drain(o.DrainTimeout)
	if left > 0 {
		log.Warn("drain timed out", "unanswered", left)
	} else {
		log.Info("drained")
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
