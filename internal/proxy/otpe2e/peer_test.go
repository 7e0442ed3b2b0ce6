// Package otpe2e runs real Megaco peers, Erlang/OTP's own megaco stack
// (tools/otp/megaco_peer.escript: its user API, the megaco_udp and
// megaco_tcp transports, its text and BER encoders), against each other
// directly and through `megaco proxy`. It has tests only.
package otpe2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"megaco/internal/testbin"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const peerScript = "../../../tools/otp/megaco_peer.escript"

// Bounds. A peer gives up by itself after peerTimeout (it prints a RESULT
// line then); the test waits a little longer before it kills it.
const (
	peerTimeout = 30 * time.Second
	readyWait   = 20 * time.Second
	flowWait    = peerTimeout + 15*time.Second
)

// needOTP skips the test when escript, erl or OTP's megaco application is
// missing.
func needOTP(t *testing.T) {
	t.Helper()
	const install = "install Erlang/OTP with megaco (Debian: erlang-base erlang-megaco) to run the OTP end-to-end tests"
	if _, err := exec.LookPath("escript"); err != nil {
		t.Skip("escript not found: " + install)
	}
	erl, err := exec.LookPath("erl")
	if err != nil {
		t.Skip("erl not found: " + install)
	}
	cmd := exec.Command(erl, "-noshell", "-eval",
		`halt(case code:which(megaco_udp) of non_existing -> 1; _ -> 0 end).`)
	if err := cmd.Run(); err != nil {
		t.Skip("Erlang/OTP's megaco application is not installed: " + install)
	}
}

// freePorts returns n distinct loopback ports that were free for network
// ("udp" or "tcp") a moment ago: listen on port 0, note, close.
func freePorts(t *testing.T, network string, n int) []int {
	t.Helper()
	var ports []int
	for _, a := range testbin.FreeAddrs(t, network, n) {
		_, p, _ := net.SplitHostPort(a)
		port, _ := strconv.Atoi(p)
		ports = append(ports, port)
	}
	return ports
}

// proc is one OS process the test started: its output is kept (for the
// failure report), a line with the ready prefix closes ready, and the
// first RESULT line is kept.
type proc struct {
	name  string
	cmd   *exec.Cmd
	ready chan struct{}
	done  chan struct{}

	mu      sync.Mutex
	log     bytes.Buffer
	result  string
	waitErr error

	stdin io.WriteCloser // startInput's: the process's standard input
}

// start runs argv. Its output is read until it exits; t.Cleanup kills it
// by PID if it still runs.
func start(t *testing.T, name, readyPrefix string, argv ...string) *proc {
	t.Helper()
	return startProc(t, name, readyPrefix, false, argv)
}

// startInput is start with the process's standard input a pipe (p.stdin).
func startInput(t *testing.T, name, readyPrefix string, argv ...string) *proc {
	t.Helper()
	return startProc(t, name, readyPrefix, true, argv)
}

func startProc(t *testing.T, name, readyPrefix string, input bool, argv []string) *proc {
	t.Helper()
	p := &proc{name: name, cmd: exec.Command(argv[0], argv[1:]...),
		ready: make(chan struct{}), done: make(chan struct{})}
	if input {
		var err error
		if p.stdin, err = p.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = writerFunc(func(b []byte) (int, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.keep(b)
		return len(b), nil
	})
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Cleanup(p.stop)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		isReady := false
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.keep([]byte(line + "\n"))
			if p.result == "" && strings.HasPrefix(line, "RESULT ") {
				p.result = line
			}
			p.mu.Unlock()
			if !isReady && readyPrefix != "" && strings.HasPrefix(line, readyPrefix) {
				isReady = true
				close(p.ready)
			}
		}
		io.Copy(io.Discard, stdout)
		err := p.cmd.Wait()
		p.mu.Lock()
		p.waitErr = err
		p.mu.Unlock()
		close(p.done)
	}()
	return p
}

// maxLog bounds what is kept of a process's output.
const maxLog = 1 << 20

// keep adds b to the log, up to maxLog; p.mu is held.
func (p *proc) keep(b []byte) {
	if room := maxLog - p.log.Len(); len(b) > room {
		b = b[:max(room, 0)]
	}
	p.log.Write(b)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// waitReady waits for the ready line; it fails when the process exits or
// the time runs out first.
func (p *proc) waitReady(d time.Duration) error {
	select {
	case <-p.ready:
		return nil
	case <-p.done:
		return fmt.Errorf("%s exited before it was ready: %v", p.name, p.err())
	case <-time.After(d):
		return fmt.Errorf("%s not ready after %v", p.name, d)
	}
}

// waitLine waits up to d for a line of output that starts with prefix.
func (p *proc) waitLine(prefix string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		log, _ := p.output()
		if strings.HasPrefix(log, prefix) || strings.Contains(log, "\n"+prefix) {
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("%s exited before it printed %q: %v", p.name, prefix, p.err())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not print %q within %v", p.name, prefix, d)
		}
	}
}

// wait waits for the process to exit, up to the deadline.
func (p *proc) wait(deadline time.Time) error {
	select {
	case <-p.done:
		return p.err()
	case <-time.After(time.Until(deadline)):
		p.stop()
		return fmt.Errorf("%s still running at the deadline: killed", p.name)
	}
}

func (p *proc) err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.waitErr
}

func (p *proc) output() (log, result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String(), p.result
}

// terminate asks the process to stop (SIGTERM) and waits up to d for
// it, then kills it. It returns how the process ended.
func (p *proc) terminate(d time.Duration) error {
	select {
	case <-p.done:
		return p.err()
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return p.err()
	case <-time.After(d):
		p.stop()
		return fmt.Errorf("%s did not exit within %v of SIGTERM: killed", p.name, d)
	}
}

// stop kills the process by its PID if it has not exited, and waits for
// it.
func (p *proc) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Kill()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
	}
}

// flow is one registration and call between an OTP MGC and an OTP MG.
type flow struct {
	transport string // udp or tcp: the MGC's, and the MG's unless mgTransport
	// mgTransport is the MG's transport when it differs from the MGC's
	// (a proxy between them then carries UDP on one side, TCP on the
	// other).
	mgTransport string
	version     int
	mgcEnc      string // pretty, compact or ber
	mgEnc       string
	mgcPort     int // the MGC's own port (UDP bound, TCP listened on)
	mgPort      int // the MG's own port (UDP bound; its MId port over TCP)
	// mgTo is where the MG sends (its controller's port: the MGC's, or
	// the proxy's MG side); mgcFrom is where the MGC must see the MG's
	// registration come from over UDP (the MG's port, or the proxy's MGC
	// side).
	mgTo, mgcFrom int
	calls         int
	timeout       time.Duration // each peer's own limit; 0: peerTimeout
	mgcExtra      []string      // more arguments for the MGC
	mgExtra       []string      // more arguments for the MG
}

func (f flow) args(role string) []string {
	transport, enc, local, remote := f.transport, f.mgcEnc, f.mgcPort, f.mgcFrom
	if role == "mg" {
		enc, local, remote = f.mgEnc, f.mgPort, f.mgTo
		if f.mgTransport != "" {
			transport = f.mgTransport
		}
	}
	calls, timeout := max(f.calls, 1), f.timeout
	if timeout <= 0 {
		timeout = peerTimeout
	}
	extra := f.mgcExtra
	if role == "mg" {
		extra = f.mgExtra
	}
	return append([]string{"escript", peerScript, role,
		"--transport", transport, "--encoding", enc,
		"--version", strconv.Itoa(f.version),
		"--local-port", strconv.Itoa(local), "--remote-port", strconv.Itoa(remote),
		"--calls", strconv.Itoa(calls),
		"--timeout", strconv.Itoa(int(timeout / time.Second))}, extra...)
}

// run starts the MGC, waits for it to be ready, calls between (to start
// what sits between the peers, if anything: its process's output is
// reported with the peers' on failure), starts the MG and checks that
// both end with RESULT ok. It returns the two RESULT lines.
func (f flow) run(t *testing.T, between func() (*proc, error)) (mgcResult, mgResult string) {
	t.Helper()
	mgc := start(t, "MGC", "READY ", f.args("mgc")...)
	var mg, mid *proc
	report := func(format string, a ...any) {
		t.Helper()
		var b strings.Builder
		for _, p := range []*proc{mgc, mid, mg} {
			if p == nil {
				continue
			}
			log, _ := p.output()
			fmt.Fprintf(&b, "\n--- %s (%s):\n%s", p.name, strings.Join(p.cmd.Args, " "), log)
		}
		t.Fatalf(format+"%s", append(a, b.String())...)
	}
	if err := mgc.waitReady(readyWait); err != nil {
		report("%v", err)
	}
	if between != nil {
		var err error
		if mid, err = between(); err != nil {
			report("%v", err)
		}
	}
	mg = start(t, "MG", "", f.args("mg")...)
	deadline := time.Now().Add(flowWait)
	mgErr := mg.wait(deadline)
	mgcErr := mgc.wait(deadline)
	_, mgResult = mg.output()
	_, mgcResult = mgc.output()
	if mgErr != nil || mgcErr != nil ||
		!strings.HasPrefix(mgResult, "RESULT ok ") || !strings.HasPrefix(mgcResult, "RESULT ok ") {
		report("flow failed:\n  MG:  %v: %s\n  MGC: %v: %s", mgErr, mgResult, mgcErr, mgcResult)
	}
	return mgcResult, mgResult
}
