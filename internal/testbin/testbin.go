// Package testbin runs a binary of this module under test, as the abuse
// suites do: it builds it once for a test binary (Main), starts it with
// its stderr kept (Start), and scrapes its Prometheus /metrics (Scrape).
package testbin

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Main builds the Go package pkg into a temporary file, sets *binary to
// its path, and runs the tests; without the go tool it runs none and
// says so. It returns the exit status for os.Exit.
func Main(m *testing.M, pkg string, binary *string) int {
	goTool, err := exec.LookPath("go")
	if err != nil {
		fmt.Println("skipped: the go tool is not on PATH to build", pkg)
		return 0
	}
	dir, err := os.MkdirTemp("", "testbin")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer os.RemoveAll(dir)
	*binary = filepath.Join(dir, filepath.Base(pkg))
	build := exec.Command(goTool, "build", "-o", *binary, pkg)
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Println("building", pkg+":", err)
		return 1
	}
	return m.Run()
}

// Proc is a running binary.
type Proc struct {
	t       testing.TB
	cmd     *exec.Cmd
	Log     *Buffer // its stderr, line by line
	exited  chan struct{}
	exitErr error
}

// Buffer is a bytes.Buffer safe for concurrent use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (b *Buffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Len()
}

// Start runs binary with args (GOMAXPROCS=2, as on the CI machine) until
// the test ends (SIGKILL then, by its PID, if it has not exited), and
// waits up to 30 s for a line of its stderr that matches ready, whose
// submatches it returns.
func Start(t testing.TB, binary string, args []string, ready *regexp.Regexp) (*Proc, []string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &Proc{t: t, cmd: cmd, Log: &Buffer{}, exited: make(chan struct{})}
	found := make(chan []string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(p.Log, line)
			if m := ready.FindStringSubmatch(line); m != nil && !sent {
				found <- m[1:]
				sent = true
			}
		}
		_, _ = io.Copy(p.Log, stderr)
		p.exitErr = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // ours, by PID; harmless when it has exited
		<-p.exited
		if t.Failed() {
			t.Logf("%s log (last 4 KiB):\n%s", filepath.Base(binary), tail(p.Log.String(), 4096))
		}
	})
	select {
	case m := <-found:
		return p, m
	case <-p.exited:
		t.Fatalf("%s exited: %v\n%s", filepath.Base(binary), p.exitErr, p.Log.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not start\n%s", filepath.Base(binary), p.Log.String())
	}
	return nil, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// PID is the process's ID.
func (p *Proc) PID() int { return p.cmd.Process.Pid }

// Terminate sends SIGTERM.
func (p *Proc) Terminate() {
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatal(err)
	}
}

// Wait waits for the exit, up to d, and returns its status (-1: still
// running).
func (p *Proc) Wait(d time.Duration) int {
	select {
	case <-p.exited:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		return -1
	}
}

// Scrape reads a Prometheus text exposition at url into series -> value,
// each series as written (name{labels}).
func Scrape(url string) (map[string]float64, error) {
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		// OpenMetrics may add a timestamp or an exemplar: the value is
		// the second field (label values here hold no spaces).
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		if v, err := strconv.ParseFloat(f[1], 64); err == nil {
			out[f[0]] = v
		}
	}
	return out, sc.Err()
}

// Eventually polls cond every 100 ms for up to d.
func Eventually(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return cond()
}

// Peak calls sample every 100 ms until stop is closed, folds the samples
// with keep (which returns the larger of each figure) and sends the
// result.
func Peak[T any](stop <-chan struct{}, sample func() T, keep func(peak, cur T) T) <-chan T {
	out := make(chan T, 1)
	go func() {
		peak := sample()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				out <- keep(peak, sample())
				return
			case <-tick.C:
				peak = keep(peak, sample())
			}
		}
	}()
	return out
}
