package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"

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
	mux.HandleFunc("POST /v1/transcode", s.httpTranscode)
	mux.HandleFunc("POST /v1/decode", s.httpDecode)
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

// readBody reads at most the configured maximum (plus one byte, to tell
// an exact fit from an overflow).
func (s *Service) readBody(r *http.Request) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r.Body, int64(s.cfg.MaxMessageSize)+1))
	if err != nil {
		return nil, &RequestError{"reading the body: " + err.Error()}
	}
	if len(data) > s.cfg.MaxMessageSize {
		err := &TooLargeError{Size: len(data), Max: s.cfg.MaxMessageSize}
		err.Size, err.AtLeast = bodySize(r, len(data))
		s.metrics.failed(nameOr(r.URL.Query().Get("from")), opDecode, err)
		return nil, err
	}
	return data, nil
}

// maxDrain bounds the rest of an oversized body read to tell its size.
const maxDrain = 64 << 20

// bodySize is the size of a body of which read bytes were read: its
// Content-Length, or else read and the rest counted up to maxDrain
// (atLeast: there was more).
func bodySize(r *http.Request, read int) (size int, atLeast bool) {
	if r.ContentLength >= int64(read) {
		return int(r.ContentLength), false
	}
	n, _ := io.Copy(io.Discard, io.LimitReader(r.Body, maxDrain))
	return read + int(n), n == maxDrain
}

func (s *Service) httpOptions(r *http.Request) (codec.Options, error) {
	q := r.URL.Query()
	var version uint64
	if v := q.Get("version"); v != "" {
		var err error
		if version, err = strconv.ParseUint(v, 10, 32); err != nil {
			return codec.Options{}, &RequestError{fmt.Sprintf("bad version %s", codecerr.Quote(v))}
		}
	}
	return s.options(uint32(version), q.Get("profile"), q.Get("layout"))
}

func (s *Service) httpTranscode(w http.ResponseWriter, r *http.Request) {
	opts, err := s.httpOptions(r)
	if err != nil {
		writeHTTPError(w, err)
		return
	}
	to := r.URL.Query().Get("to")
	if to == "" {
		writeHTTPError(w, &RequestError{"the to= parameter (output codec) is required"})
		return
	}
	data, err := s.readBody(r)
	if err != nil {
		writeHTTPError(w, err)
		return
	}
	out, res, err := s.Do(nil, data, r.URL.Query().Get("from"), to, opts)
	if err != nil {
		writeHTTPError(w, err)
		return
	}
	ct := "application/octet-stream"
	if codec.FormOf(to) == codec.Text {
		ct = "text/plain; charset=us-ascii"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Megaco-From", res.From)
	w.Header().Set("Megaco-Version", strconv.Itoa(res.Version))
	_, _ = w.Write(out)
}

func (s *Service) httpDecode(w http.ResponseWriter, r *http.Request) {
	opts, err := s.httpOptions(r)
	if err != nil {
		writeHTTPError(w, err)
		return
	}
	data, err := s.readBody(r)
	if err != nil {
		writeHTTPError(w, err)
		return
	}
	want, err := codec.ParseForm(r.URL.Query().Get("form"), codec.InputForm)
	if err != nil {
		writeHTTPError(w, &RequestError{err.Error()})
		return
	}
	view, err := protoconv.ParseDecodeView(r.URL.Query().Get("view"))
	if err != nil {
		writeHTTPError(w, &RequestError{err.Error()})
		return
	}
	m, from, err := s.decode(data, r.URL.Query().Get("from"), want, opts)
	if err != nil {
		writeHTTPError(w, err)
		return
	}
	if want == codec.InputForm {
		want = codec.FormOf(from)
	}
	resp, err := protoconv.NewDecodeResponse(m, from, want, view, opts)
	if err != nil {
		writeHTTPError(w, err)
		return
	}
	body, err := protoconv.DecodeJSON(resp)
	if err != nil {
		writeHTTPError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Megaco-From", from)
	_, _ = w.Write(body)
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
