package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"megaco/internal/codec"
	"megaco/internal/codec/codecerr"
	"megaco/internal/errclass"
	"megaco/internal/protoconv"
)

// HTTPHandler serves the curl-friendly routes:
//
//	POST /v1/transcode?from=CODEC&to=CODEC[&version=N][&profile=otp|rfc][&layout=8,8,8]
//	     body: the message; response: the message in the output codec
//	POST /v1/decode?from=CODEC[&form=text|binary][&view=document|message|both]
//	     response: the DecodeResponse in protobuf's JSON mapping (as grpcurl
//	     prints the gRPC Decode's)
//	GET  /healthz                                   "ok" while serving
//	GET  /readyz                                    "ok" while serving, 503 once draining
//	GET  /metrics                                   Prometheus metrics
//
// from may be left out (or "auto") to detect the input codec.
func (s *Service) HTTPHandler(gatherer prometheus.Gatherer, healthy func() bool) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/v1/transcode", v1Route(s.httpTranscode, "from", "to", "version", "profile", "layout"))
	mux.Handle("/v1/decode", v1Route(s.httpDecode, "from", "form", "view", "version", "profile", "layout"))
	mux.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		writeStatus(w, http.StatusNotFound, "no such route "+codecerr.Quote(r.URL.Path)+" (the routes are POST /v1/transcode and POST /v1/decode)")
	})
	probe := func(w http.ResponseWriter, r *http.Request) {
		if healthy != nil && !healthy() {
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, "ok\n")
	}
	mux.HandleFunc("GET /healthz", probe)
	// /readyz turns 503 the moment the drain starts, before the
	// listeners close, so that a load balancer stops sending first.
	mux.HandleFunc("GET /readyz", probe)
	if gatherer != nil {
		mux.Handle("GET /metrics", promhttp.HandlerFor(gatherer, promhttp.HandlerOpts{EnableOpenMetrics: true}))
	}
	return mux
}

// v1Route serves a /v1 route: POST only (another method gets 405 with
// Allow), with only the query parameters it knows (another gets 400
// naming it: a misspelt option is an error, not a default).
func v1Route(h func(http.ResponseWriter, *http.Request, query), params ...string) http.Handler {
	known := strings.Join(params, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeStatus(w, http.StatusMethodNotAllowed, "method "+codecerr.Quote(r.Method)+" not allowed on "+r.URL.Path+": use POST")
			return
		}
		q := parseQuery(r.URL.RawQuery) // parsed once for the route
		if name, ok := q.unknown(params); ok {
			writeHTTPError(w, &RequestError{"unknown query parameter " + codecerr.Quote(name) + " (known: " + known + ")"})
			return
		}
		h(w, r, q)
	})
}

// readBody is the request's body: refused from its Content-Length alone
// when that is over the configured maximum, taken as the HTTP gate read
// it (readBody), or read here (at most the maximum plus one byte, to
// tell an exact fit from an overflow).
func (s *Service) readBody(r *http.Request) ([]byte, error) {
	max := s.cfg.MaxMessageSize
	if r.ContentLength > int64(max) {
		return nil, s.tooLarge(r, &TooLargeError{Size: int(min(r.ContentLength, 1<<62)), Max: max})
	}
	var data []byte
	rest := r.Body
	if b, ok := r.Body.(*readBody); ok && b.off == 0 {
		data, rest = b.data, b.rest
	} else {
		var err error
		if data, err = io.ReadAll(io.LimitReader(r.Body, int64(max)+1)); err != nil {
			return nil, &RequestError{"reading the body: " + err.Error()}
		}
	}
	if len(data) > max {
		err := &TooLargeError{Size: len(data), Max: max}
		err.Size, err.AtLeast = bodySize(r, rest, len(data))
		return nil, s.tooLarge(r, err)
	}
	return data, nil
}

// tooLarge counts an oversized body and returns its error.
func (s *Service) tooLarge(r *http.Request, err *TooLargeError) error {
	s.metrics.failed(nameOr(r.URL.Query().Get("from")), opDecode, err)
	return err
}

// maxDrain bounds the rest of an oversized body read to tell its size.
const maxDrain = 64 << 20

// bodySize is the size of a body of which read bytes were read: its
// Content-Length, or else read and the rest counted up to maxDrain
// (atLeast: there was more).
func bodySize(r *http.Request, rest io.Reader, read int) (size int, atLeast bool) {
	if r.ContentLength >= int64(read) {
		return int(r.ContentLength), false
	}
	n, _ := io.Copy(io.Discard, io.LimitReader(rest, maxDrain))
	return read + int(n), n == maxDrain
}

func (s *Service) httpOptions(q *query) (codec.Options, error) {
	var version uint64
	if v := q.Get("version"); v != "" {
		var err error
		if version, err = strconv.ParseUint(v, 10, 32); err != nil {
			return codec.Options{}, &RequestError{fmt.Sprintf("bad version %s", codecerr.Quote(v))}
		}
	}
	return s.options(uint32(version), q.Get("profile"), q.Get("layout"))
}

func (s *Service) httpTranscode(w http.ResponseWriter, r *http.Request, q query) {
	to := q.Get("to")
	if to == "" {
		writeHTTPError(w, &RequestError{"the to= parameter (output codec) is required"})
		return
	}
	data, opts, err := s.httpInput(r, &q)
	if err != nil {
		writeHTTPError(w, err)
		return
	}
	// The output goes to a pooled buffer, free again once written.
	bp := getOut()
	out, res, err := s.Do((*bp)[:0], data, q.Get("from"), to, opts)
	defer putOut(bp, out)
	if err != nil {
		writeHTTPError(w, err)
		return
	}
	ct := "application/octet-stream"
	if codec.FormOf(to) == codec.Text {
		ct = "text/plain; charset=us-ascii"
	}
	h := w.Header()
	h["Content-Type"] = headerValue(ct)
	h["Megaco-From"] = headerValue(res.From)
	h["Megaco-Version"] = headerValue(strconv.Itoa(res.Version))
	_, _ = w.Write(out)
}

// headerValues are the header values of transcoding answers, made once:
// Header.Set would allocate a slice for each at every request. They are
// shared and never written (a slice of capacity 1: appending to one
// copies it).
var headerValues = func() map[string][]string {
	m := map[string][]string{}
	for _, v := range append(codec.Names(), "application/octet-stream", "text/plain; charset=us-ascii", "0", "1", "2", "3") {
		m[v] = []string{v}
	}
	return m
}()

func headerValue(v string) []string {
	if hv, ok := headerValues[v]; ok {
		return hv
	}
	return []string{v}
}

func (s *Service) httpDecode(w http.ResponseWriter, r *http.Request, q query) {
	body, from, err := s.decodeJSON(r, &q)
	if err != nil {
		writeHTTPError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Megaco-From", from)
	_, _ = w.Write(body)
}

// decodeJSON is /v1/decode's answer: the request's message decoded, in
// the form and view the query asks for, as JSON, and the codec it was in.
func (s *Service) decodeJSON(r *http.Request, q *query) ([]byte, string, error) {
	want, ferr := codec.ParseForm(q.Get("form"), codec.InputForm)
	view, verr := protoconv.ParseDecodeView(q.Get("view"))
	if err := errors.Join(ferr, verr); err != nil {
		return nil, "", &RequestError{err.Error()}
	}
	data, opts, err := s.httpInput(r, q)
	if err != nil {
		return nil, "", err
	}
	m, from, err := s.decode(data, q.Get("from"), want, opts)
	if err != nil {
		return nil, "", err
	}
	if want == codec.InputForm {
		want = codec.FormOf(from)
	}
	resp, err := protoconv.NewDecodeResponse(m, from, want, view, opts)
	if err != nil {
		return nil, "", err
	}
	body, err := protoconv.DecodeJSON(resp)
	return body, from, err
}

// httpInput is a request's codec options (from its query) and body.
func (s *Service) httpInput(r *http.Request, q *query) ([]byte, codec.Options, error) {
	opts, err := s.httpOptions(q)
	if err != nil {
		return nil, opts, err
	}
	data, err := s.readBody(r)
	return data, opts, err
}

// httpErrorBody is the JSON error of the HTTP routes.
type httpErrorBody struct {
	Error    string `json:"error"`
	Codec    string `json:"codec,omitempty"`
	Field    string `json:"field,omitempty"`
	Position string `json:"position,omitempty"`
}

func writeHTTPError(w http.ResponseWriter, err error) {
	body := httpErrorBody{Error: clip(err.Error())}
	if e, ok := codecerr.As(err); ok {
		body.Codec, body.Field, body.Position = e.Codec, e.Path(), e.Where()
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(errclass.HTTPStatus(err))
	_ = json.NewEncoder(w).Encode(body)
}
