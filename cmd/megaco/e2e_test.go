package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"megaco/internal/testbin"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The end-to-end test drives the real `megaco serve` binary with the real
// curl and the real grpcurl, as an engineer would, over loopback only.

const grpcurlModule = "github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.3"

func freePort(t *testing.T) string { return testbin.FreeAddr(t, "tcp") }

// tools builds megaco and installs grpcurl (from the Go module proxy) into
// a temporary directory.
func tools(t *testing.T) (megaco, grpcurl, curl string) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not installed (apt-get install curl)")
	}
	dir := t.TempDir()
	megaco = filepath.Join(dir, "megaco")
	if out, err := exec.Command("go", "build", "-o", megaco, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	grpcurl, err = exec.LookPath("grpcurl")
	if err != nil {
		cmd := exec.Command("go", "install", grpcurlModule)
		cmd.Env = append(os.Environ(), "GOBIN="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("cannot install grpcurl from the module proxy: %v\n%s", err, out)
		}
		grpcurl = filepath.Join(dir, "grpcurl")
	}
	return megaco, grpcurl, curl
}

func TestEndToEnd(t *testing.T) {
	megaco, grpcurl, curl := tools(t)
	grpcAddr, httpAddr := freePort(t), freePort(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := exec.CommandContext(ctx, megaco, "serve", "--grpc-addr", grpcAddr, "--http-addr", httpAddr, "--log-format", "json")
	// Without GOGC, serve sets its own collector target (checked below).
	srv.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GOGC=") })
	stderr, _ := srv.StderrPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	logs := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs <- sc.Text()
		}
		close(logs)
	}()
	waitFor(t, logs, `"msg":"serving"`, `"gc_percent":400`)

	run := func(name string, args ...string) []byte {
		t.Helper()
		var out, errb bytes.Buffer
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, errb.String())
		}
		return out.Bytes()
	}
	base := "http://" + httpAddr

	// curl: every corpus message BER -> PER and PER -> BER, byte for byte.
	paths, _ := filepath.Glob(filepath.Join(corpus, "*.ber"))
	ok := 0
	for _, p := range paths {
		per := strings.TrimSuffix(p, ".ber") + ".per"
		wantPER, _ := os.ReadFile(per)
		wantBER, _ := os.ReadFile(p)
		gotPER := run(curl, "-sS", "--fail-with-body", "--data-binary", "@"+p, base+"/v1/transcode?from=ber&to=per")
		gotBER := run(curl, "-sS", "--fail-with-body", "--data-binary", "@"+per, base+"/v1/transcode?to=ber")
		if bytes.Equal(gotPER, wantPER) && bytes.Equal(gotBER, wantBER) {
			ok++
		} else {
			t.Errorf("curl %s: output differs from the golden files", filepath.Base(p))
		}
	}
	t.Logf("curl: BER->PER and PER->BER byte for byte %d/%d", ok, len(paths))

	// curl: a JSON decode and an error.
	var dec struct{ Codec string }
	if err := json.Unmarshal(run(curl, "-sS", "--data-binary", "@"+paths[0], base+"/v1/decode"), &dec); err != nil || dec.Codec != "CODEC_BER" {
		t.Errorf("decode JSON: %v %+v", err, dec)
	}
	// One decode document: grpcurl's Decode, curl's /v1/decode and megaco
	// decode print the same JSON, in both forms.
	for _, p := range []string{filepath.Join(corpus, "msg03.ber"), filepath.Join(corpus, "msg10.per"), filepath.Join(corpus, "msg22a.pretty.txt")} {
		data, _ := os.ReadFile(p)
		for _, form := range []string{"text", "binary"} {
			req := fmt.Sprintf(`{"data": %q, "options": {"form": "FORM_%s"}}`, base64.StdEncoding.EncodeToString(data), strings.ToUpper(form))
			docs := [][]byte{
				run(grpcurl, "-plaintext", "-d", req, grpcAddr, "megaco.v1.CodecService/Decode"),
				run(curl, "-sS", "--fail-with-body", "--data-binary", "@"+p, base+"/v1/decode?form="+form),
				run(megaco, "decode", "--form", form, p),
			}
			var vals [3]any
			for i, d := range docs {
				if err := json.Unmarshal(d, &vals[i]); err != nil {
					t.Fatalf("%s %s: %v\n%s", filepath.Base(p), form, err, d)
				}
			}
			if !reflect.DeepEqual(vals[0], vals[1]) || !reflect.DeepEqual(vals[0], vals[2]) {
				t.Errorf("%s form %s: grpcurl, curl and megaco decode differ:\n%s\n%s\n%s", filepath.Base(p), form, docs[0], docs[1], docs[2])
			}
			if want := map[string]string{"text": `"al/of"`, "binary": `"eventNameText": "al/of"`}[form]; filepath.Base(p) == "msg03.ber" && !bytes.Contains(docs[0], []byte(want)) {
				t.Errorf("grpcurl Decode of msg03 in %s form lacks %s:\n%s", form, want, docs[0])
			}
		}
	}
	errBody := run(curl, "-sS", "-w", "%{http_code}", "--data-binary", "junk", base+"/v1/transcode?to=ber")
	if !bytes.HasSuffix(errBody, []byte("400")) || !bytes.Contains(errBody, []byte(`"error"`)) {
		t.Errorf("error reply: %s", errBody)
	}

	// grpcurl through server reflection: list, Transcode, and an error.
	if list := run(grpcurl, "-plaintext", grpcAddr, "list"); !bytes.Contains(list, []byte("megaco.v1.CodecService")) {
		t.Errorf("grpcurl list: %s", list)
	}
	ok = 0
	for _, p := range paths[:20] {
		ber, _ := os.ReadFile(p)
		wantPER, _ := os.ReadFile(strings.TrimSuffix(p, ".ber") + ".per")
		req := fmt.Sprintf(`{"data": %q, "from": "CODEC_BER", "to": "CODEC_PER"}`, base64.StdEncoding.EncodeToString(ber))
		var resp struct{ Data []byte }
		if err := json.Unmarshal(run(grpcurl, "-plaintext", "-d", req, grpcAddr, "megaco.v1.CodecService/Transcode"), &resp); err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(resp.Data, wantPER) {
			ok++
		}
	}
	if ok != 20 {
		t.Errorf("grpcurl Transcode: %d/20 byte for byte", ok)
	}
	// grpcurl TranscodeStream from stdin: one request, then a batch of
	// three (compact -> BER) whose middle message is broken.
	compact := func(p string) string {
		b, _ := os.ReadFile(strings.TrimSuffix(p, ".ber") + ".compact.txt")
		return base64.StdEncoding.EncodeToString(b)
	}
	item := func(data string) string {
		return fmt.Sprintf(`{"data": %q, "from": "CODEC_COMPACT", "to": "CODEC_BER"}`, data)
	}
	streamIn := fmt.Sprintf("{\"request\": %s}\n{\"batch\": [%s, %s, %s]}\n",
		item(compact(paths[0])), item(compact(paths[1])), item("IS8x"), item(compact(paths[2])))
	stream := exec.CommandContext(ctx, grpcurl, "-plaintext", "-d", "@", grpcAddr, "megaco.v1.CodecService/TranscodeStream")
	stream.Stdin = strings.NewReader(streamIn)
	streamOut, err := stream.Output()
	if err != nil {
		t.Fatalf("grpcurl TranscodeStream: %v", err)
	}
	type answer struct {
		Data  []byte
		Error *struct{ Code, Codec string }
	}
	var frames []struct {
		Response *answer
		Batch    []answer
	}
	for jd := json.NewDecoder(bytes.NewReader(streamOut)); jd.More(); {
		frames = append(frames, struct {
			Response *answer
			Batch    []answer
		}{})
		if err := jd.Decode(&frames[len(frames)-1]); err != nil {
			t.Fatalf("grpcurl TranscodeStream output: %v\n%s", err, streamOut)
		}
	}
	golden := func(p string) []byte { b, _ := os.ReadFile(p); return b }
	if len(frames) != 2 || frames[0].Response == nil || !bytes.Equal(frames[0].Response.Data, golden(paths[0])) ||
		len(frames[1].Batch) != 3 || !bytes.Equal(frames[1].Batch[0].Data, golden(paths[1])) ||
		frames[1].Batch[1].Error == nil || frames[1].Batch[1].Error.Codec != "compact" ||
		!bytes.Equal(frames[1].Batch[2].Data, golden(paths[2])) {
		t.Errorf("grpcurl TranscodeStream: unexpected answers\n%s", streamOut)
	}

	cmd := exec.CommandContext(ctx, grpcurl, "-plaintext", "-d", `{"data": "AAAA", "to": "CODEC_BER"}`, grpcAddr, "megaco.v1.CodecService/Transcode")
	out, err := cmd.CombinedOutput()
	if err == nil || !bytes.Contains(out, []byte("InvalidArgument")) {
		t.Errorf("grpcurl error: %v %s", err, out)
	}

	// /metrics shows the codec histograms.
	metrics := run(curl, "-sS", base+"/metrics")
	for _, want := range []string{"megaco_codec_duration_seconds_bucket", "megaco_message_size_bytes_bucket", "megaco_codec_errors_total", "grpc_server_handled_total"} {
		if !bytes.Contains(metrics, []byte(want)) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	// SIGTERM: drain and exit 0.
	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, logs, `"msg":"stopped"`)
	if err := srv.Wait(); err != nil {
		t.Errorf("serve exited with %v after SIGTERM", err)
	}
}

// waitFor reads the server's log until a line holds all of want.
func waitFor(t *testing.T, logs <-chan string, want ...string) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-logs:
			if !ok {
				t.Fatalf("server exited before logging %s", want)
			}
			if !slices.ContainsFunc(want, func(w string) bool { return !strings.Contains(line, w) }) {
				return
			}
		case <-timeout:
			t.Fatalf("no %s in the server log", want)
		}
	}
}
