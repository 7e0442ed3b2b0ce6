package server

import (
	"net/http"
	"strconv"
	"strings"

	"megaco/internal/errclass"
)

// httpGuard caps the /v1 requests served at once and the bytes they
// bring: past either, the answer is 503 with Retry-After at once, never a
// queue. Other routes (probes, metrics) pass, so that they answer under
// load.
func httpGuard(next http.Handler, maxConcurrent int, maxMessage int64, f *inFlight, m *serverMetrics) http.Handler {
	slots := make(chan struct{}, maxConcurrent)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/v1/") {
			next.ServeHTTP(w, r)
			return
		}
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
		default:
			m.reject("http", reasonConcurrency)
			busy(w, "too many requests at once (limit "+strconv.Itoa(maxConcurrent)+")")
			return
		}
		// The body is not read yet: what it will hold is what its
		// Content-Length says, or at most the largest message.
		n := r.ContentLength
		if n < 0 || n > maxMessage {
			n = maxMessage
		}
		if !f.acquire(n) {
			m.reject("http", reasonInFlight)
			busy(w, "too many request bytes in flight")
			return
		}
		defer f.release(n)
		next.ServeHTTP(w, r)
	})
}

// busy answers 503 with Retry-After, and closes the connection: a client
// refused for load should come back later, not keep a connection here.
func busy(w http.ResponseWriter, why string) {
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Connection", "close")
	writeHTTPError(w, &busyError{why})
}

// busyError is a request refused for load.
type busyError struct{ why string }

func (e *busyError) Error() string { return "server busy: " + e.why + "; retry later" }

// ErrorClass implements errclass.Classed.
func (e *busyError) ErrorClass() errclass.Class { return errclass.Busy }

// clip bounds a message made from a client's input (an error, a status,
// a log line) to a few hundred bytes plus its length: errors quote input
// with codecerr.Quote, and clip catches any that does not.
func clip(s string) string {
	const max = 512
	if len(s) <= max {
		return s
	}
	return s[:max] + "... (" + strconv.Itoa(len(s)) + " bytes)"
}
