package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"megaco/internal/server"
)

// loadServer runs the real service in this process, on loopback.
func loadServer(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, server.Options{
			GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0", Config: server.DefaultConfig(), DrainTimeout: 5 * time.Second,
			Log:   slog.New(slog.NewTextHandler(io.Discard, nil)),
			Ready: func(g, _ net.Addr) { ready <- g.String() },
		})
	}()
	select {
	case addr := <-ready:
		t.Cleanup(func() {
			cancel()
			<-done
		})
		return addr
	case err := <-done:
		t.Fatalf("server did not start: %v", err)
	}
	return ""
}

func TestLoadCommand(t *testing.T) {
	addr := loadServer(t)
	stat := filepath.Join(t.TempDir(), "stat.csv")
	var out, errb bytes.Buffer
	code := run([]string{"load", "--target", addr, "-r", "40", "--duration", "2s", "-d", "100",
		"--stat-file", stat, "--stat-period", "1s", "--metrics-addr", "127.0.0.1:0"}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	for _, want := range []string{"stopped: duration 2s reached", "successful 80, failed 0", "response time ms: p50", "AuditValueReply"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the summary has no %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errb.String(), "achieved") || !strings.Contains(errb.String(), "metrics on http://127.0.0.1:") {
		t.Errorf("stderr:\n%s", errb.String())
	}
	f, err := os.Open(stat)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) < 3 {
		t.Fatalf("stat file: %d records, %v", len(recs), err)
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
	code := run([]string{"load", "--target", dead, "-r", "20", "-m", "10", "-q", "--timeout", "500"}, nil, &out, &errb)
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
	addr := loadServer(t)
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
	// Wait for the second live line, then interrupt.
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	seen := 0
	timeout := time.After(15 * time.Second)
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
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the generator did not stop on SIGINT")
	}
	s := out.String()
	for _, want := range []string{"stopped: interrupted", "calls: started", "aborted", "response time ms"} {
		if !strings.Contains(s, want) {
			t.Errorf("the summary has no %q:\n%s", want, s)
		}
	}
	// Every call holds 5 s: the ones started were all in progress.
	if strings.Contains(s, "calls: started 0,") || !strings.Contains(s, "failed 0 (") {
		t.Errorf("summary:\n%s", s)
	}
}
