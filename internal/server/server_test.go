package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	pb "megaco/api/megaco/v1"
	"megaco/internal/mapping"
	"megaco/internal/tlsconfig"
	"megaco/internal/tlsconfig/tlstest"
)

type testServer struct {
	grpcAddr, httpAddr string
	conn               *grpc.ClientConn
	client             pb.CodecServiceClient
	cancel             context.CancelFunc
	done               chan error
}

// start runs the real server (gRPC and HTTP on loopback) for one test.
func start(t testing.TB, cfg Config) *testServer {
	return startOpts(t, Options{Config: cfg})
}

// startOpts runs a server with o on loopback ports.
func startOpts(t testing.TB, o Options) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ts := &testServer{cancel: cancel, done: make(chan error, 1)}
	ready := make(chan struct{})
	o.GRPCAddr, o.HTTPAddr, o.DrainTimeout = "127.0.0.1:0", "127.0.0.1:0", 5*time.Second
	o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	o.Ready = func(g, h net.Addr) {
		ts.grpcAddr, ts.httpAddr = g.String(), h.String()
		close(ready)
	}
	go func() { ts.done <- Run(ctx, o) }()
	select {
	case <-ready:
	case err := <-ts.done:
		t.Fatalf("server did not start: %v", err)
	}
	conn, err := grpc.NewClient(ts.grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	ts.conn, ts.client = conn, pb.NewCodecServiceClient(conn)
	t.Cleanup(func() {
		conn.Close()
		cancel()
		<-ts.done
	})
	return ts
}

func corpusPaths(t *testing.T) []string {
	paths, _ := filepath.Glob("../../corpus/otp-time-test/*.ber")
	if len(paths) != 149 {
		t.Fatalf("%d corpus files", len(paths))
	}
	return paths
}

func read(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGRPCTranscodeCorpus(t *testing.T) {
	ts := start(t, DefaultConfig())
	ctx := context.Background()
	ok := 0
	for _, p := range corpusPaths(t) {
		ber := read(t, p)
		want := read(t, strings.TrimSuffix(p, ".ber")+".per")
		resp, err := ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: ber, To: pb.Codec_CODEC_PER})
		if err != nil || !bytes.Equal(resp.Data, want) || resp.From != pb.Codec_CODEC_BER {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		// Decode then Encode gives the BER back.
		dec, err := ts.client.Decode(ctx, &pb.DecodeRequest{Data: resp.Data, Codec: pb.Codec_CODEC_PER, View: pb.DecodeView_DECODE_VIEW_MESSAGE})
		if err != nil {
			t.Errorf("%s: decode: %v", filepath.Base(p), err)
			continue
		}
		enc, err := ts.client.Encode(ctx, &pb.EncodeRequest{Message: dec.Message, Codec: pb.Codec_CODEC_BER})
		if err != nil || !bytes.Equal(enc.Data, ber) {
			t.Errorf("%s: encode: %v", filepath.Base(p), err)
			continue
		}
		ok++
	}
	t.Logf("gRPC: BER->PER, Decode, Encode->BER byte for byte: %d/149", ok)
}

func badRequest(t *testing.T, err error) (codes.Code, *errdetails.BadRequest) {
	t.Helper()
	st, _ := status.FromError(err)
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			return st.Code(), br
		}
	}
	return st.Code(), nil
}

func TestGRPCErrors(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxMessageSize = 1000
	ts := start(t, cfg)
	ctx := context.Background()
	ber := read(t, "../../corpus/otp-time-test/msg03.ber")
	bad := append([]byte(nil), ber...)
	bad[25] = 0x7f
	_, err := ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: bad, To: pb.Codec_CODEC_PER})
	code, br := badRequest(t, err)
	if code != codes.InvalidArgument || br == nil || br.FieldViolations[0].Field != "mess.messageBody" ||
		!strings.Contains(br.FieldViolations[0].Description, "offset 24") {
		t.Errorf("bad BER: %v %v", code, br)
	}
	_, err = ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: make([]byte, 1001), To: pb.Codec_CODEC_BER})
	if status.Code(err) != codes.ResourceExhausted {
		t.Errorf("too large: %v", err)
	}
	_, err = ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: ber})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "output codec") {
		t.Errorf("no output codec: %v", err)
	}
	_, err = ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: ber, To: pb.Codec_CODEC_BER, Options: &pb.Options{Version: 7}})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("version 7: %v", err)
	}
	_, err = ts.client.Transcode(ctx, &pb.TranscodeRequest{Data: []byte("junk"), To: pb.Codec_CODEC_BER})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "cannot tell") {
		t.Errorf("junk: %v", err)
	}
	// A v3-only field encoded as v1: the encoder's schema check.
	dec, err := ts.client.Decode(ctx, &pb.DecodeRequest{Data: ber, View: pb.DecodeView_DECODE_VIEW_MESSAGE})
	if err != nil {
		t.Fatal(err)
	}
	dec.Message.Mess.MessageBody.GetTransactions().Items[0].GetTransactionRequest().Actions[0].ContextRequest =
		&pb.ContextRequest{Iepscallind: new(bool)}
	_, err = ts.client.Encode(ctx, &pb.EncodeRequest{Message: dec.Message, Codec: pb.Codec_CODEC_BER})
	if code, br := badRequest(t, err); code != codes.InvalidArgument || br == nil || !strings.HasSuffix(br.FieldViolations[0].Field, "iepscallind") {
		t.Errorf("v3 field in v1: %v", err)
	}
	// Health
	h, err := healthpb.NewHealthClient(ts.conn).Check(ctx, &healthpb.HealthCheckRequest{Service: "megaco.v1.CodecService"})
	if err != nil || h.Status != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health: %v %v", h, err)
	}
}

// TestStream: many messages on one stream, answered in order; a bad one
// gets its error and the stream goes on.
func TestStream(t *testing.T) {
	ts := start(t, DefaultConfig())
	stream, err := ts.client.TranscodeStream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	paths := corpusPaths(t)
	var wants [][]byte
	go func() {
		for i, p := range paths {
			data := read(t, p)
			if i%10 == 5 {
				data = data[:len(data)/2] // broken
			}
			_ = stream.Send(&pb.TranscodeStreamRequest{Request: &pb.TranscodeRequest{Data: data, From: pb.Codec_CODEC_BER, To: pb.Codec_CODEC_PER}})
		}
		_ = stream.CloseSend()
	}()
	for _, p := range paths {
		wants = append(wants, read(t, strings.TrimSuffix(p, ".ber")+".per"))
	}
	good, failed := 0, 0
	for i := 0; ; i++ {
		sresp, err := stream.Recv()
		resp := sresp.GetResponse()
		if errors.Is(err, io.EOF) {
			if i != len(paths) {
				t.Errorf("%d responses for %d requests", i, len(paths))
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if i%10 == 5 {
			if resp.Error == nil || resp.Error.Code != "InvalidArgument" || resp.Error.Codec != "ber" || !strings.HasPrefix(resp.Error.Position, "offset ") {
				t.Errorf("message %d: want an error, got %+v", i, resp.Error)
			}
			failed++
			continue
		}
		if resp.Error != nil || !bytes.Equal(resp.Data, wants[i]) {
			t.Errorf("message %d: %+v", i, resp.Error)
			continue
		}
		good++
	}
	t.Logf("stream: %d transcoded in order, %d errors answered", good, failed)
}

// TestStreamBatch: the corpus in batches of 7 on one stream (compact ->
// BER, every tenth message broken): each batch is answered by one response
// of the same length, in order, byte for byte; frames that set both forms
// or exceed MaxBatch are answered with an error and the stream goes on.
func TestStreamBatch(t *testing.T) {
	ts := start(t, DefaultConfig())
	stream, err := ts.client.TranscodeStream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	paths := corpusPaths(t)
	var batches [][]*pb.TranscodeRequest
	var wants [][]byte
	for i, p := range paths {
		data := read(t, strings.TrimSuffix(p, ".ber")+".compact.txt")
		want := read(t, p)
		if i%10 == 5 {
			data, want = data[:len(data)/2], nil
		}
		if i%7 == 0 {
			batches = append(batches, nil)
		}
		batches[len(batches)-1] = append(batches[len(batches)-1], &pb.TranscodeRequest{Data: data, From: pb.Codec_CODEC_COMPACT, To: pb.Codec_CODEC_BER})
		wants = append(wants, want)
	}
	one := &pb.TranscodeRequest{Data: read(t, paths[0]), To: pb.Codec_CODEC_PER}
	bad := []*pb.TranscodeStreamRequest{
		{Request: one, Batch: []*pb.TranscodeRequest{one}},
		{Batch: slices.Repeat([]*pb.TranscodeRequest{one}, MaxBatch+1)},
	}
	badWant := []struct{ code, msg string }{
		{"InvalidArgument", "request or batch, not both"},
		{"ResourceExhausted", "batch of 1025 requests exceeds the limit of 1024"},
	}
	go func() {
		_ = stream.Send(bad[0])
		for _, b := range batches {
			_ = stream.Send(&pb.TranscodeStreamRequest{Batch: b})
		}
		_ = stream.Send(bad[1])
		_ = stream.CloseSend()
	}()
	checkBad := func(i int) {
		resp, err := stream.Recv()
		if err != nil || len(resp.Batch) != 0 || resp.GetResponse().GetError().GetCode() != badWant[i].code ||
			!strings.Contains(resp.GetResponse().GetError().GetMessage(), badWant[i].msg) {
			t.Errorf("bad frame %d: %v %v; want %v", i, resp, err, badWant[i])
		}
	}
	checkBad(0)
	n := 0
	for bi, b := range batches {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Batch) != len(b) || resp.Response != nil {
			t.Fatalf("batch %d: %d answers for %d requests", bi, len(resp.Batch), len(b))
		}
		for _, r := range resp.Batch {
			if wants[n] == nil {
				if r.Error == nil || r.Error.Codec != "compact" || r.Data != nil {
					t.Errorf("message %d: want a compact error, got %+v", n, r)
				}
			} else if r.Error != nil || !bytes.Equal(r.Data, wants[n]) || r.Version == 0 {
				t.Errorf("message %d: %+v", n, r.Error)
			}
			n++
		}
	}
	checkBad(1)
	if _, err := stream.Recv(); !errors.Is(err, io.EOF) {
		t.Errorf("want the end of the stream, got %v", err)
	}
	// megaco_stream_request_messages saw every frame and every message.
	r, err := http.Get("http://" + ts.httpAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	frames, msgs := 2+len(batches), 1+len(paths)+MaxBatch+1 // bad[0] counts its batch of one
	for _, want := range []string{
		fmt.Sprintf("megaco_stream_request_messages_count %d\n", frames),
		fmt.Sprintf("megaco_stream_request_messages_sum %d\n", msgs),
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// TestNames: with provisioned names the RFC 3525 call flow's text (A4444,
// A5555...) transcodes to BER and back to the same names; without them it
// is refused, and so is a request that changes the layout under them.
func TestNames(t *testing.T) {
	names, err := mapping.ReadNames(strings.NewReader(`
termination A4444 00000001/00000000/00000001
termination A4445 00000001/00000000/00000010
termination A5555 00000010/00000000/00000001
termination A5556 00000010/00000000/00000010
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Names = names
	with, without := New(cfg, nil, nil), New(DefaultConfig(), nil, nil)
	paths, _ := filepath.Glob("../../corpus/appendix-a/corrected/a1-*.txt")
	if len(paths) != 28 {
		t.Fatalf("%d appendix A messages", len(paths))
	}
	refused := 0
	for _, p := range paths {
		text := read(t, p)
		opts, _ := with.options(0, "", "")
		ber, _, err := with.Do(nil, text, "", "ber", opts)
		if strings.HasPrefix(filepath.Base(p), "a1-24") && err != nil && strings.Contains(err.Error(), "eventsDescriptor.requestID: mandatory in version 1") {
			continue // its bare Events has no v1 binary form (corrected/CHANGES.md)
		}
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		back, _, err := with.Do(nil, ber, "ber", "compact", opts)
		if err != nil {
			t.Errorf("%s: back to text: %v", filepath.Base(p), err)
			continue
		}
		want := regexp.MustCompile(`A[0-9]{4}`).FindAllString(string(text), -1)
		if got := regexp.MustCompile(`(?i)A[0-9]{4}`).FindAllString(string(back), -1); !slices.Equal(got, want) {
			t.Errorf("%s: termination IDs %v, want %v\n%s", filepath.Base(p), got, want, back)
		}
		opts, _ = without.options(0, "", "")
		if _, _, err := without.Do(nil, text, "", "ber", opts); err != nil {
			if !strings.Contains(err.Error(), "is not a provisioned name") {
				t.Errorf("%s without names: %v", filepath.Base(p), err)
			}
			refused++
		}
	}
	if refused < 20 {
		t.Errorf("without names only %d of 28 messages were refused", refused)
	}
	if _, err := with.options(0, "", "16,16,16"); err == nil || !strings.Contains(err.Error(), "for which its termination ID names are provisioned") {
		t.Errorf("layout change under names: %v", err)
	}
	if _, err := with.options(0, "", "8,8,8"); err != nil {
		t.Errorf("the server's own layout: %v", err)
	}
}

func TestHTTP(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxMessageSize = 1000
	ts := start(t, cfg)
	base := "http://" + ts.httpAddr
	ber := read(t, "../../corpus/otp-time-test/msg03.ber")
	post := func(path string, body []byte) (*http.Response, []byte) {
		resp, err := http.Post(base+path, "application/octet-stream", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, out := post("/v1/transcode?from=ber&to=per", ber)
	if resp.StatusCode != 200 || !bytes.Equal(out, read(t, "../../corpus/otp-time-test/msg03.per")) {
		t.Errorf("transcode: %d %s", resp.StatusCode, out)
	}
	resp, out = post("/v1/decode", ber)
	var dec struct {
		Codec   string
		Version int
		Message json.RawMessage
	}
	if resp.StatusCode != 200 || json.Unmarshal(out, &dec) != nil || dec.Codec != "CODEC_BER" || dec.Version != 1 {
		t.Errorf("decode: %d %s", resp.StatusCode, out)
	}
	bad := append([]byte(nil), ber...)
	bad[25] = 0x7f
	for _, c := range []struct {
		path string
		body []byte
		code int
		want string
	}{
		{"/v1/transcode?to=per", bad, 400, `"position":"offset 24"`},
		{"/v1/transcode?to=per", make([]byte, 1001), 413, "message of 1001 bytes exceeds the limit of 1000"},
		{"/v1/decode", make([]byte, 5000), 413, "message of 5000 bytes exceeds the limit of 1000"},
		{"/v1/transcode?to=xml", ber, 400, "unknown codec"},
		{"/v1/transcode?from=xml&to=ber", ber, 400, `unknown codec \"xml\"`},
		{"/v1/decode?from=xml", ber, 400, `unknown codec \"xml\"`},
		{"/v1/transcode", ber, 400, "to= parameter"},
		{"/v1/transcode?to=ber&version=9", ber, 400, "unsupported protocol version 9"},
		{"/v1/decode?form=yaml", ber, 400, "unknown form"},
		{"/v1/decode?view=all", ber, 400, "unknown view"},
	} {
		resp, out := post(c.path, c.body)
		if resp.StatusCode != c.code || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: %d %s", c.path, resp.StatusCode, out)
		}
	}
	// A body without Content-Length (chunked): its size is counted.
	chunked, err := http.Post(base+"/v1/transcode?to=ber", "application/octet-stream", io.MultiReader(bytes.NewReader(make([]byte, 3000))))
	if err != nil {
		t.Fatal(err)
	}
	out, _ = io.ReadAll(chunked.Body)
	chunked.Body.Close()
	if chunked.StatusCode != 413 || !strings.Contains(string(out), "message of 3000 bytes exceeds the limit of 1000") {
		t.Errorf("chunked body: %d %s", chunked.StatusCode, out)
	}
	r, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(r.Body)
	r.Body.Close()
	for _, want := range []string{
		`megaco_codec_duration_seconds_bucket{codec="ber",op="decode",version="1"`,
		`megaco_message_size_bytes_bucket{codec="per",op="encode"`,
		`megaco_codec_errors_total{codec="ber",op="decode",reason="malformed"} 1`,
		`megaco_codec_errors_total{codec="unknown",op="decode",reason="too_large"} 3`,
		`grpc_server_started_total`,
	} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestDrain: cancelling the server's context (what SIGTERM does) ends a
// stream waiting for its next message at once, rather than letting it
// take new messages for the whole drain timeout, and Run returns nil.
func TestDrain(t *testing.T) {
	ts := start(t, DefaultConfig())
	stream, err := ts.client.TranscodeStream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ber := read(t, "../../corpus/otp-time-test/msg03.ber")
	if err := stream.Send(&pb.TranscodeStreamRequest{Request: &pb.TranscodeRequest{Data: ber, To: pb.Codec_CODEC_PER}}); err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); err != nil {
		t.Fatal(err)
	}
	ts.cancel() // shutdown begins; the stream is open and idle
	if resp, err := stream.Recv(); err == nil {
		t.Errorf("the idle stream was not ended by the drain: %v", resp)
	} else if c := status.Code(err); c != codes.Unavailable {
		t.Errorf("stream ended with %v, want Unavailable (which clients retry, unlike Canceled)", err)
	}
	select {
	case err := <-ts.done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
		ts.done <- nil
	case <-time.After(4 * time.Second): // under the 5 s drain timeout
		t.Error("server did not stop after the stream ended")
	}
}

// TestTLS: with a server certificate and a client CA, gRPC and HTTP take
// only TLS clients that present a certificate the CA signed.
func TestTLS(t *testing.T) {
	f := tlstest.Write(t)
	srvTLS, err := tlsconfig.Server(f.ServerCert, f.ServerKey, f.CA)
	if err != nil {
		t.Fatal(err)
	}
	ts := startOpts(t, Options{Config: DefaultConfig(), TLS: srvTLS})
	ber := read(t, "../../corpus/otp-time-test/msg03.ber")
	call := func(creds credentials.TransportCredentials) error {
		conn, err := grpc.NewClient(ts.grpcAddr, grpc.WithTransportCredentials(creds))
		if err != nil {
			return err
		}
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		resp, err := pb.NewCodecServiceClient(conn).Transcode(ctx, &pb.TranscodeRequest{Data: ber, To: pb.Codec_CODEC_PER})
		if err == nil && !bytes.Equal(resp.Data, read(t, "../../corpus/otp-time-test/msg03.per")) {
			t.Error("TLS: wrong output")
		}
		return err
	}
	withCert, err := tlsconfig.Client(f.CA, f.ClientCert, f.ClientKey, "")
	if err != nil {
		t.Fatal(err)
	}
	noCert, err := tlsconfig.Client(f.CA, "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := call(credentials.NewTLS(withCert)); err != nil {
		t.Errorf("gRPC with a client certificate: %v", err)
	}
	if err := call(credentials.NewTLS(noCert)); status.Code(err) != codes.Unavailable {
		t.Errorf("gRPC without a client certificate: %v, want Unavailable", err)
	}
	if err := call(insecure.NewCredentials()); status.Code(err) != codes.Unavailable {
		t.Errorf("gRPC in plain text: %v, want Unavailable", err)
	}
	get := func(c *tls.Config) (*http.Response, error) {
		client := &http.Client{Transport: &http.Transport{TLSClientConfig: c}, Timeout: 5 * time.Second}
		return client.Get("https://" + ts.httpAddr + "/healthz")
	}
	if resp, err := get(withCert); err != nil || resp.StatusCode != 200 {
		t.Errorf("HTTPS with a client certificate: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	if resp, err := get(noCert); err == nil {
		resp.Body.Close()
		t.Error("HTTPS without a client certificate was served")
	}
	if resp, err := http.Get("http://" + ts.httpAddr + "/healthz"); err == nil && resp.StatusCode == 200 {
		resp.Body.Close()
		t.Error("plain HTTP was served")
	}
}

// TestStreamBatchResponseCap: a batch whose outputs would pass what a
// client takes in one stream message gets errors for the messages past
// MaxBatchResponse; the stream goes on.
func TestStreamBatchResponseCap(t *testing.T) {
	ts := start(t, DefaultConfig())
	var b strings.Builder
	b.WriteString("!/1 [124.124.124.222]:55555\nT=1{C=-{")
	for i := range 150 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "N=00000001/00000000/%08b{OE=2222{19990729T22000000:al/of}}", i)
	}
	b.WriteString("}}")
	big := []byte(b.String()) // about 9 KB compact, 20 KB pretty
	batch := slices.Repeat([]*pb.TranscodeRequest{{Data: big, From: pb.Codec_CODEC_COMPACT, To: pb.Codec_CODEC_PRETTY}}, 300)
	stream, err := ts.client.TranscodeStream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second batch shows the stream survived the first
		if err := stream.Send(&pb.TranscodeStreamRequest{Batch: batch}); err != nil {
			t.Fatal(err)
		}
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		ok, capped, size := 0, 0, 0
		for _, r := range resp.Batch {
			switch {
			case r.Error == nil:
				ok++
				size += len(r.Data)
			case r.Error.Code == "ResourceExhausted" && strings.Contains(r.Error.Message, "send smaller batches"):
				capped++
			default:
				t.Fatalf("unexpected error %v", r.Error)
			}
		}
		if capped == 0 || ok+capped != len(batch) || size > MaxBatchResponse+len(big)*3 || size < MaxBatchResponse/2 {
			t.Errorf("%d answered (%d bytes), %d capped", ok, size, capped)
		}
	}
	_ = stream.CloseSend()
}
