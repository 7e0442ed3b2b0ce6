package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"megaco/internal/server/servertest"
)

// summaryCalls matches the summary's line of calls.
var summaryCalls = regexp.MustCompile(`calls: started (\d+), successful (\d+), failed (\d+) \(.*\), aborted (\d+),`)

// callCounts are the summary's counts of calls: started, successful,
// failed and aborted.
func callCounts(t *testing.T, summary string) (started, ok, failed, aborted int) {
	t.Helper()
	m := summaryCalls.FindStringSubmatch(summary)
	if m == nil {
		t.Fatalf("no line of calls in the summary:\n%s", summary)
	}
	n := make([]int, 4)
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	return n[0], n[1], n[2], n[3]
}

// TestLoadCommand runs megaco load for 2 s at 40 cps against the service
// in this process. It checks what the run did, not how fast: on a busy
// machine fewer calls start, but each one started ends, successfully.
func TestLoadCommand(t *testing.T) {
	addr := servertest.Start(t, nil)
	stat := filepath.Join(t.TempDir(), "stat.csv")
	var out, errb bytes.Buffer
	code := run([]string{"load", "--target", addr, "-r", "40", "--duration", "2s", "-d", "100ms",
		"--stat-file", stat, "--stat-period", "1s", "--metrics-addr", "127.0.0.1:0"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	for _, want := range []string{"stopped: duration 2s reached", "response time ms: p50", "AuditValueReply"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the summary has no %q:\n%s", want, out.String())
		}
	}
	// 80 calls fall due in 2 s at 40 cps: no more can start.
	started, ok, failed, aborted := callCounts(t, out.String())
	if started < 1 || started > 80 || ok != started || failed != 0 || aborted != 0 {
		t.Errorf("started %d, successful %d, failed %d, aborted %d:\n%s", started, ok, failed, aborted, out.String())
	}
	if !strings.Contains(errb.String(), "metrics on http://127.0.0.1:") {
		t.Errorf("stderr:\n%s", errb.String())
	}
	f, err := os.Open(stat)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("stat file: %d records, %v", len(recs), err)
	}
	// The last row is written at the end of the run: the summary's count.
	last := recs[len(recs)-1]
	for i, h := range recs[0] {
		if h == "successful_c" && last[i] != strconv.Itoa(ok) {
			t.Errorf("last CSV row: successful_c %s, want %d", last[i], ok)
		}
	}
}

func TestLoadCommandFails(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()
	var out, errb bytes.Buffer
	// However slow the machine, a refused connection comes long before
	// the 5 s timeout: each call fails on transport.
	code := run([]string{"load", "--target", dead, "-r", "20", "-m", "10", "-q", "--timeout", "5s"}, nil, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), "transport 10") || !strings.Contains(errb.String(), "exceeds --max-failed 0") {
		t.Errorf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	// --max-failed 1 accepts it.
	out.Reset()
	errb.Reset()
	if code := run([]string{"load", "--target", dead, "-r", "20", "-m", "5", "-q", "--max-failed", "1"}, nil, &out, &errb); code != 0 {
		t.Errorf("--max-failed 1: exit %d\n%s", code, errb.String())
	}
	for _, bad := range [][]string{{"--mode", "udp"}, {"--check", "none"}, {"--max-failed", "2"}, {"-rp", "soon"}, {"extra"}} {
		errb.Reset()
		if code := run(append([]string{"load", "--target", dead, "-m", "1", "-q"}, bad...), nil, io.Discard, &errb); code == 0 {
			t.Errorf("%v: exit 0", bad)
		}
	}
}

// TestLoadBinarySIGINT runs the real binary against the service and stops
// it with SIGINT: it prints the summary of what ran and exits 0.
func TestLoadBinarySIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	addr := servertest.Start(t, nil)
	bin := filepath.Join(t.TempDir(), "megaco")
	if b, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	cmd := exec.Command(bin, "load", "--target", addr, "-r", "50", "-d", "5s")
	var out bytes.Buffer
	cmd.Stdout = &out
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for the second live line, then interrupt. The time limits only
	// turn a hang into a failure: they are far above what a busy machine
	// needs.
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	seen := 0
	timeout := time.After(time.Minute)
	var errText strings.Builder
	for seen < 2 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the generator ended early:\n%s\n%s", errText.String(), out.String())
			}
			errText.WriteString(l + "\n")
			if strings.Contains(l, "achieved") {
				seen++
			}
		case <-timeout:
			_ = cmd.Process.Kill()
			t.Fatalf("no live lines:\n%s", errText.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for l := range lines {
		errText.WriteString(l + "\n")
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Errorf("exit: %v\n%s", err, errText.String())
		}
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("the generator did not stop on SIGINT")
	}
	s := out.String()
	for _, want := range []string{"stopped: interrupted", "calls: started", "aborted", "response time ms"} {
		if !strings.Contains(s, want) {
			t.Errorf("the summary has no %q:\n%s", want, s)
		}
	}
	// Every call holds 5 s: a call the interrupt found in progress is
	// aborted, not failed.
	if started, ok, failed, aborted := callCounts(t, s); started < 1 || failed != 0 || ok+aborted != started {
		t.Errorf("started %d, successful %d, failed %d, aborted %d:\n%s", started, ok, failed, aborted, s)
	}
}
