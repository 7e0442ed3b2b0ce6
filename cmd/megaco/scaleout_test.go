package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// instance is one `megaco serve` process of the scale-out test.
type instance struct {
	cmd            *exec.Cmd
	grpc, http     string
	exited         chan error
	stderr         *bytes.Buffer
	stoppedByTest  bool
	decodesAtStart int
}

// startInstances starts n real `megaco serve` processes on loopback and
// waits until each answers /healthz.
func startInstances(t *testing.T, bin string, n int) []*instance {
	t.Helper()
	var out []*instance
	for range n {
		in := &instance{grpc: freePort(t), http: freePort(t), exited: make(chan error, 1), stderr: new(bytes.Buffer)}
		in.cmd = exec.Command(bin, "serve", "--grpc-addr", in.grpc, "--http-addr", in.http, "--drain-timeout", "5s")
		in.cmd.Stderr = in.stderr
		if err := in.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { in.exited <- in.cmd.Wait() }()
		t.Cleanup(func() {
			if !in.stoppedByTest {
				_ = in.cmd.Process.Kill()
				<-in.exited
			}
		})
		out = append(out, in)
	}
	for _, in := range out {
		deadline := time.Now().Add(time.Minute)
		for {
			resp, err := http.Get("http://" + in.http + "/healthz")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("instance %s not healthy: %v\n%s", in.http, err, in.stderr)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return out
}

var decodeCount = regexp.MustCompile(`(?m)^megaco_codec_duration_seconds_count\{codec="[^"]+",op="decode",version="\d"\} (\d+)$`)

// decodes is how many messages an instance has decoded, from its /metrics.
func (in *instance) decodes(t *testing.T) int {
	t.Helper()
	resp, err := http.Get("http://" + in.http + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	n := 0
	for _, m := range decodeCount.FindAllStringSubmatch(string(body), -1) {
		v, _ := strconv.Atoi(m[1])
		n += v
	}
	return n
}

// TestScaleOut runs three service instances behind one generator: the
// calls spread evenly over them, and stopping one with SIGTERM in the
// middle of a run loses no call (its calls in flight finish, the next
// messages go to another instance).
func TestScaleOut(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs three services")
	}
	bin := filepath.Join(t.TempDir(), "megaco")
	if b, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	ins := startInstances(t, bin, 3)
	var targets []string
	for _, in := range ins {
		targets = append(targets, in.grpc)
	}
	target := strings.Join(targets, ",")

	// Spread: calls go round-robin by call number, each call to one
	// instance, so 30 calls of 28 messages are 280 decodes each.
	var out, errb bytes.Buffer
	if code := run([]string{"load", "--target", target, "-r", "30", "-m", "30", "-q"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if started, ok, failed, _ := callCounts(t, out.String()); started != 30 || ok != 30 || failed != 0 {
		t.Fatalf("started %d, successful %d, failed %d:\n%s", started, ok, failed, out.String())
	}
	for i, in := range ins {
		in.decodesAtStart = in.decodes(t)
		if in.decodesAtStart != 10*28 {
			t.Errorf("instance %d decoded %d messages, want %d (even spread)", i, in.decodesAtStart, 10*28)
		}
	}

	// Failover: SIGTERM one instance while calls run.
	out.Reset()
	errb.Reset()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := make(chan int, 1)
	lr, lw := io.Pipe()
	go func() {
		done <- run([]string{"load", "--target", target, "-r", "20", "--duration", "6s", "-d", "200ms", "--failover"}, nil, &out, lw)
		lw.Close()
	}()
	lines := bufio.NewScanner(lr)
	seen := 0
	for seen < 2 && lines.Scan() { // two live lines: the run is under way
		if strings.Contains(lines.Text(), "achieved") {
			seen++
		}
	}
	go func() { _, _ = io.Copy(io.Discard, lr) }()
	stopped := ins[1]
	stopped.stoppedByTest = true
	if err := stopped.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-stopped.exited:
		if err != nil {
			t.Errorf("the stopped instance exited with %v\n%s", err, stopped.stderr)
		}
	case <-ctx.Done():
		t.Fatal("the instance did not stop on SIGTERM")
	}
	var code int
	select {
	case code = <-done:
	case <-ctx.Done():
		t.Fatal("the load did not end")
	}
	s := out.String()
	started, ok, failed, aborted := callCounts(t, s)
	if code != 0 || started == 0 || failed != 0 || aborted != 0 || ok != started {
		t.Errorf("exit %d; started %d, successful %d, failed %d, aborted %d:\n%s", code, started, ok, failed, aborted, s)
	}
	if !strings.Contains(s, "sent again to another target") {
		t.Errorf("no message went to another instance after the SIGTERM:\n%s", s)
	}
	for i, in := range ins {
		if in != stopped && in.decodes(t) <= in.decodesAtStart {
			t.Errorf("instance %d took no messages in the second run", i)
		}
	}
	t.Logf("after SIGTERM of one of three instances: %d calls, all successful", started)
}
