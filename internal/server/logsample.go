package server

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// failureLog logs failed calls at info level at most perSecond times a
// second, and says how many it left out; at debug level it logs them all.
// A client sending garbage in a loop must not turn the log into a copy of
// its traffic: the metrics count every failure.
type failureLog struct {
	log       *slog.Logger
	perSecond int

	mu         sync.Mutex
	window     time.Time
	logged     int
	suppressed int
}

func newFailureLog(log *slog.Logger, perSecond int) *failureLog {
	return &failureLog{log: log, perSecond: perSecond}
}

// failed logs one failed call (attrs after the message).
func (f *failureLog) failed(ctx context.Context, msg string, args ...any) {
	if f.log.Enabled(ctx, slog.LevelDebug) {
		f.log.Debug(msg, args...)
		return
	}
	now := time.Now()
	f.mu.Lock()
	if now.Sub(f.window) >= time.Second {
		f.window, f.logged = now, 0
	}
	if f.logged >= f.perSecond {
		f.suppressed++
		f.mu.Unlock()
		return
	}
	f.logged++
	suppressed := f.suppressed
	f.suppressed = 0
	f.mu.Unlock()
	if suppressed > 0 {
		args = append(args, "suppressed_before", suppressed)
	}
	f.log.Info(msg, args...)
}
