package server

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"megaco/internal/errclass"
)

// httpGate caps what the /v1 requests can make the server hold. In
// order, for each request:
//
//  1. a Content-Length over the message limit is refused at once (413,
//     by the service, from the header alone, the body unread);
//  2. the body is read under a minimum rate (minRate bytes a second
//     after a grace), each buffer charged to the in-flight cap as it
//     is allocated: a body that arrives slower is answered 408 and its
//     connection closed, one that does not fit the cap 503;
//  3. only then is a concurrency slot taken (503 with Retry-After when
//     none is free), so a slot is held only while the server works, and
//     slow clients cannot take the slots from fast ones.
//
// Nothing queues. Other routes (probes, metrics) pass, so that they
// answer under load.
type httpGate struct {
	next       http.Handler
	slots      chan struct{}
	maxMessage int64
	inFlight   *inFlight
	metrics    *serverMetrics
	// A body must arrive within grace plus one second per minRate
	// bytes, and within readTimeout in all.
	grace       time.Duration
	minRate     int64
	readTimeout time.Duration
}

func newHTTPGate(next http.Handler, l Limits, maxMessage int64, f *inFlight, m *serverMetrics) *httpGate {
	return &httpGate{
		next: next, slots: make(chan struct{}, l.HTTPMaxConcurrent), maxMessage: maxMessage, inFlight: f, metrics: m,
		grace: l.HTTPBodyGrace, minRate: l.HTTPBodyMinRate, readTimeout: l.HTTPReadTimeout,
	}
}

func (g *httpGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/v1/") {
		g.next.ServeHTTP(w, r)
		return
	}
	if r.ContentLength > g.maxMessage {
		// The service answers 413 from the header; the body is not
		// read, so the connection cannot be reused.
		w.Header().Set("Connection", "close")
		g.next.ServeHTTP(w, r)
		return
	}
	body, held, err := g.read(w, r)
	defer g.inFlight.release(held)
	switch {
	case errors.Is(err, errNoRoom):
		g.metrics.reject("http", reasonInFlight)
		busy(w, "too many request bytes in flight")
		return
	case errors.Is(err, os.ErrDeadlineExceeded):
		g.metrics.reject("http", reasonSlowBody)
		w.Header().Set("Connection", "close")
		writeStatus(w, http.StatusRequestTimeout, "request body too slow: want "+strconv.FormatInt(g.minRate, 10)+" bytes a second after "+g.grace.String())
		return
	case err != nil:
		w.Header().Set("Connection", "close")
		writeHTTPError(w, &RequestError{"reading the body: " + err.Error()})
		return
	}
	select {
	case g.slots <- struct{}{}:
		defer func() { <-g.slots }()
	default:
		g.metrics.reject("http", reasonConcurrency)
		busy(w, "too many requests at once (limit "+strconv.Itoa(cap(g.slots))+")")
		return
	}
	// A shallow copy with the body read: net/http still sees its own
	// body, to tell whether the connection can be reused.
	r2 := new(http.Request)
	*r2 = *r
	r2.Body = body
	g.next.ServeHTTP(w, r2)
}

var errNoRoom = errors.New("over the in-flight cap")

// read reads r's body, or up to maxMessage+1 bytes of it when its length
// is not given (one more tells an overflow, which the service answers),
// and returns it with the bytes it charged to the in-flight cap. The
// buffer starts at 4 KiB and doubles as it fills, each size charged when
// taken, so a body that trickles holds little. Each size has a deadline:
// its bytes must have arrived within grace plus a second per minRate
// bytes, and within the read timeout (so the deadline needs no resetting
// after the body: one that passed would cancel the request). A body of a
// few KiB, the usual, sets one deadline.
func (g *httpGate) read(w http.ResponseWriter, r *http.Request) (*readBody, int64, error) {
	rc := http.NewResponseController(w)
	start := time.Now()
	limit := g.maxMessage + 1
	if r.ContentLength >= 0 {
		limit = r.ContentLength // at most maxMessage: ServeHTTP checked
	}
	var held int64
	var buf []byte
	take := func(n int64) bool { // grow the buffer to n bytes
		if !g.inFlight.acquire(n - int64(cap(buf))) {
			return false
		}
		held += n - int64(cap(buf))
		buf = append(make([]byte, 0, n), buf...)
		allowed := g.grace + time.Duration(n*int64(time.Second)/max(g.minRate, 1))
		_ = rc.SetReadDeadline(start.Add(min(allowed, g.readTimeout)))
		return true
	}
	for int64(len(buf)) < limit {
		if len(buf) == cap(buf) && !take(min(max(2*int64(cap(buf)), 4<<10), limit)) {
			return nil, held, errNoRoom
		}
		n, err := r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, held, err
		}
	}
	return &readBody{data: buf, rest: r.Body}, held, nil
}

// readBody is a body the gate has read: data, then what it left unread
// (after an overflow).
type readBody struct {
	data []byte
	off  int
	rest io.ReadCloser
}

func (b *readBody) Read(p []byte) (int, error) {
	if b.off < len(b.data) {
		n := copy(p, b.data[b.off:])
		b.off += n
		return n, nil
	}
	return b.rest.Read(p)
}

func (b *readBody) Close() error { return b.rest.Close() }

// busy answers 503 with Retry-After, and closes the connection: a client
// refused for load should come back later, not keep a connection here.
func busy(w http.ResponseWriter, why string) {
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Connection", "close")
	writeHTTPError(w, &busyError{why})
}

// writeStatus answers with code and a JSON error body, for refusals the
// error classifier has no error type for (405, 408).
func writeStatus(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(httpErrorBody{Error: msg})
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
