package server

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// Timeouts of the pprof listener. A CPU profile or trace streams for as
// long as asked (?seconds=N), so the write timeout is generous; pprof
// refuses a duration longer than it.
const (
	pprofWriteTimeout = 2 * time.Minute
	pprofIdleTimeout  = time.Minute
)

// StartPprof (megaco serve and megaco proxy) serves net/http/pprof on its own listener at addr, never on
// the public HTTP port: profiles show internals and cost CPU, so the
// listener is opt-in (an empty addr starts nothing) and best bound to
// loopback (kubectl port-forward reaches it there). It returns the bound
// address and what stops the listener.
func StartPprof(addr string, log *slog.Logger) (net.Addr, func(), error) {
	if addr == "" {
		return nil, func() {}, nil
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("pprof listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      pprofWriteTimeout,
		IdleTimeout:       pprofIdleTimeout,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
			log.Warn("pprof listener stopped", "error", err)
		}
	}()
	log.Info("pprof listening", "addr", l.Addr().String())
	return l.Addr(), func() {
		_ = srv.Close() // profiles in progress are cut off: the process is stopping
		<-done
	}, nil
}
