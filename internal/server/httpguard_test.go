package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestHTTPRouteErrors: a wrong method on a /v1 route is a JSON 405 with
// Allow, an unknown query parameter a JSON 400 naming it, an unknown
// /v1 path a JSON 404.
func TestHTTPRouteErrors(t *testing.T) {
	ts := start(t, DefaultConfig())
	base := "http://" + ts.httpAddr
	ber := read(t, "../../corpus/otp-time-test/msg03.ber")
	for _, c := range []struct {
		method, path string
		code         int
		allow, want  string
	}{
		{"GET", "/v1/transcode?to=per", 405, "POST", `method \"GET\" not allowed on /v1/transcode`},
		{"PUT", "/v1/decode", 405, "POST", `method \"PUT\"`},
		{"DELETE", "/v1/transcode", 405, "POST", "use POST"},
		{"POST", "/v1/transcode?to=per&form=text", 400, "", `unknown query parameter \"form\"`},
		{"POST", "/v1/decode?to=per", 400, "", `unknown query parameter \"to\"`},
		{"POST", "/v1/transcode?to=per&Profile=rfc", 400, "", `unknown query parameter \"Profile\" (known: from, to, version, profile, layout)`},
		{"POST", "/v1/transcodes?to=per", 404, "", `no such route \"/v1/transcodes\"`},
	} {
		req, err := http.NewRequest(c.method, base+c.path, strings.NewReader(string(ber)))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var body httpErrorBody
		if resp.StatusCode != c.code || resp.Header.Get("Allow") != c.allow || resp.Header.Get("Content-Type") != "application/json" ||
			json.Unmarshal(out, &body) != nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%s %s: %s, Allow %q, %s %s; want %d, Allow %q, %s", c.method, c.path, resp.Status, resp.Header.Get("Allow"),
				resp.Header.Get("Content-Type"), out, c.code, c.allow, c.want)
		}
	}
	// The parameters the routes know still work.
	resp, err := http.Post(base+"/v1/transcode?from=ber&to=pretty&version=1&profile=otp&layout=8,8,8", "application/octet-stream", strings.NewReader(string(ber)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("every known parameter: %s", resp.Status)
	}
}

// rawRequest writes head (and then body, if any) on a new connection
// and reads the response, waiting at most limit.
func rawRequest(t *testing.T, addr, head string, limit time.Duration, body func(net.Conn)) (*http.Response, string, time.Duration) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(limit))
	t0 := time.Now()
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	if body != nil {
		go body(c)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no response within %v: %v", limit, err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(out), time.Since(t0)
}

// TestHTTPBodyBounds: a Content-Length over the limit is refused from
// the header (413, no body sent, connection closed), and a body slower
// than the minimum rate is cut (408), with a fast client beside it.
func TestHTTPBodyBounds(t *testing.T) {
	ts := startOpts(t, Options{Config: Config{MaxMessageSize: 1000}, Limits: Limits{HTTPBodyGrace: 300 * time.Millisecond, HTTPBodyMinRate: 1000}})
	head := "POST /v1/transcode?to=ber HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n"
	resp, out, took := rawRequest(t, ts.httpAddr, fmt.Sprintf(head, 5000), 10*time.Second, nil)
	if resp.StatusCode != 413 || !resp.Close || !strings.Contains(out, "message of 5000 bytes exceeds the limit of 1000") {
		t.Errorf("Content-Length 5000, no body: %s (close %v) %s", resp.Status, resp.Close, out)
	}
	t.Logf("Content-Length over the limit: %s after %v", resp.Status, took.Round(time.Millisecond))
	// 1 byte every 100 ms: 10 bytes a second, far under 1,000.
	resp, out, took = rawRequest(t, ts.httpAddr, fmt.Sprintf(head, 500), 10*time.Second, func(c net.Conn) {
		for range 100 {
			if _, err := c.Write([]byte{'x'}); err != nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	if resp.StatusCode != 408 || !resp.Close || !strings.Contains(out, "request body too slow") {
		t.Errorf("slow body: %s (close %v) %s", resp.Status, resp.Close, out)
	}
	t.Logf("a body at 10 bytes/s: %s after %v", resp.Status, took.Round(time.Millisecond))
	ber := read(t, "../../corpus/otp-time-test/msg03.ber")
	r, err := http.Post("http://"+ts.httpAddr+"/v1/transcode?to=per", "application/octet-stream", strings.NewReader(string(ber)))
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != 200 {
		t.Errorf("a normal request: %s", r.Status)
	}
}
