package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// instance is one `megaco serve` process of the scale-out test.
type instance struct {
	cmd        *exec.Cmd
	grpc, http string
	done       chan error
}

func startInstance(t *testing.T, ctx context.Context, megaco string) *instance {
	t.Helper()
	in := &instance{grpc: freePort(t), http: freePort(t), done: make(chan error, 1)}
	in.cmd = exec.CommandContext(ctx, megaco, "serve", "--grpc-addr", in.grpc, "--http-addr", in.http, "--drain-timeout", "20s")
	if err := in.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { in.done <- in.cmd.Wait() }()
	for range 300 {
		if resp, err := http.Get("http://" + in.http + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return in
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("megaco serve on %s did not become healthy", in.http)
	return nil
}

// transcodes is how many Transcode calls the instance answered OK.
func (in *instance) transcodes(t *testing.T) int {
	t.Helper()
	resp, err := http.Get("http://" + in.http + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "grpc_server_handled_total{") && strings.Contains(l, `grpc_code="OK"`) && strings.Contains(l, `grpc_method="Transcode"`) {
			n, err := strconv.ParseFloat(l[strings.LastIndexByte(l, ' ')+1:], 64)
			if err != nil {
				t.Fatalf("%s: %v", l, err)
			}
			return int(n)
		}
	}
	return 0
}

// TestScaleOut runs three `megaco serve` processes on loopback and `megaco
// load` against all three (--target A,B,C: round-robin per message): the calls
// spread evenly, and when one instance gets SIGTERM mid-run it drains,
// exits 0, and no call is lost: the others take the new calls.
func TestScaleOut(t *testing.T) {
	if testing.Short() {
		t.Skip("scale-out test skipped in -short mode")
	}
	megaco := filepath.Join(t.TempDir(), "megaco")
	if out, err := exec.Command("go", "build", "-o", megaco, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var ins []*instance
	var addrs []string
	for range 3 {
		in := startInstance(t, ctx, megaco)
		ins = append(ins, in)
		addrs = append(addrs, in.grpc)
	}
	defer func() {
		for _, in := range ins {
			_ = in.cmd.Process.Kill()
		}
	}()

	var out, errb bytes.Buffer
	loadDone := make(chan int, 1)
	go func() {
		loadDone <- run([]string{"load", "--target", strings.Join(addrs, ","),
			"-r", "40", "--duration", "8s", "-d", "100"}, nil, &out, &errb)
	}()

	time.Sleep(3 * time.Second)
	var counts []int
	total := 0
	for _, in := range ins {
		n := in.transcodes(t)
		counts, total = append(counts, n), total+n
	}
	// Round-robin per call: each instance has about a third; a quarter
	// at least allows for connections that came up late.
	for i, n := range counts {
		if total == 0 || n*4 < total {
			t.Errorf("instance %d answered %d of %d calls (%v): not spread evenly", i, n, total, counts)
		}
	}
	t.Logf("after 3 s: Transcode calls per instance %v", counts)

	victim := ins[1]
	if err := victim.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-victim.done:
		if err != nil {
			t.Errorf("the instance stopped with SIGTERM: %v (want exit 0 after its drain)", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the instance did not exit within 60 s of SIGTERM")
	}

	var code int
	select {
	case code = <-loadDone:
	case <-time.After(2 * time.Minute):
		t.Fatal("megaco load did not end")
	}
	if code != 0 {
		t.Fatalf("megaco load: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	started, ok, failed, aborted := callCounts(t, out.String())
	if started == 0 || ok != started || failed != 0 || aborted != 0 {
		t.Errorf("started %d, successful %d, failed %d, aborted %d: calls lost\n%s", started, ok, failed, aborted, out.String())
	}
	after := fmt.Sprint(ins[0].transcodes(t), " ", ins[2].transcodes(t))
	t.Logf("%d calls, all successful; Transcode calls of the two left at the end: %s", ok, after)
}
