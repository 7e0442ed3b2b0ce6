// Package costtable measures what `megaco proxy` costs per message at
// gateway rates, beside the floor (internal/proxy/nullrelay, a relay that
// does nothing with the bytes), over UDP and TCP, with `megaco load`
// driving both peers and reading the middle process's /proc (and perf
// stat, when allowed) through --watch-pid. It prints the table
// docs/performance.md shows. It is skipped unless PROXY_COST_SECONDS is
// set: it takes a few times that per row and loads the machine.
//
//	PROXY_COST_SECONDS=8 go test ./internal/proxy/costtable -run ProxyCost -v
//
// PROXY_COST_RATES (default "100,1000") gives the call rates;
// PROXY_COST_FIND_MAX=1 adds, per transport, the highest rate the proxy
// sustains (megaco load --find-max) and a row measured at it;
// PROXY_COST_PROXY names another build's megaco binary to run as the
// proxy (the generator stays this build's), to compare two builds;
// PROXY_COST_GEN_PROCS is the generator's GOMAXPROCS (default 1, as the
// proxy's: the two then mostly share a core and hand each message over
// with a context switch; with the generator on both cores each message
// wakes an idle core, which on a virtual machine costs both processes
// two to three times as much and varies widely from run to run).
package costtable

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"megaco/internal/testbin"
)

const (
	secondsEnv = "PROXY_COST_SECONDS"
	ratesEnv   = "PROXY_COST_RATES"
	findMaxEnv = "PROXY_COST_FIND_MAX"
	proxyEnv   = "PROXY_COST_PROXY"
	genEnv     = "PROXY_COST_GEN_PROCS"
)

// The goals the proxy is held to, GOMAXPROCS=1, with the generator beside
// it on the same machine: CPU-µs per message by call rate.
var goals = map[int]float64{100: 20, 1000: 10}

// row is one run: a middle process carrying one call rate's traffic.
type row struct {
	transport, middle string
	rate              float64
	msgsPerSec        float64
	cpuUs             float64 // CPU-µs per message
	switches          float64 // context switches per message
	syscalls          string  // per message (perf), or "-"
	p99ms             float64
	failed            int
}

func TestProxyCost(t *testing.T) {
	secs, _ := strconv.Atoi(os.Getenv(secondsEnv))
	if secs <= 0 {
		t.Skipf("set %s (e.g. 8) to measure the proxy's cost per message against the floor", secondsEnv)
	}
	rates, err := parseRates(os.Getenv(ratesEnv))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	megaco := build(t, dir, "megaco/cmd/megaco")
	floor := build(t, dir, "megaco/internal/proxy/nullrelay")
	proxy := megaco
	if p := os.Getenv(proxyEnv); p != "" {
		proxy = p
	}
	var rows []row
	for _, tr := range []string{"udp", "tcp"} {
		for _, rate := range rates {
			for _, middle := range []string{"proxy", "floor"} {
				rows = append(rows, measure(t, proxy, megaco, floor, tr, middle, rate, secs))
			}
		}
		if os.Getenv(findMaxEnv) == "1" {
			top := findMax(t, proxy, megaco, tr)
			rows = append(rows, measure(t, proxy, megaco, floor, tr, "proxy", top, secs))
		}
	}
	t.Log("\n" + table(rows))
	for _, r := range rows {
		if r.failed > 0 {
			t.Errorf("%s %s at %.0f calls/s: %d failed calls", r.transport, r.middle, r.rate, r.failed)
		}
		if g, ok := goals[int(r.rate)]; ok && r.middle == "proxy" && r.cpuUs > g {
			t.Errorf("%s at %.0f calls/s: the proxy spends %.1f CPU-µs per message (goal <= %.0f)", r.transport, r.rate, r.cpuUs, g)
		}
	}
}

func parseRates(s string) ([]float64, error) {
	if s == "" {
		s = "100,1000"
	}
	var rates []float64
	for _, f := range strings.Split(s, ",") {
		r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || r <= 0 {
			return nil, fmt.Errorf("%s: %q is not a call rate", ratesEnv, f)
		}
		rates = append(rates, r)
	}
	return rates, nil
}

func build(t *testing.T, dir, pkg string) string {
	t.Helper()
	bin := filepath.Join(dir, filepath.Base(pkg))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// ports are the four addresses of a run: the generator's MGC and MG
// sockets and the middle's listeners for each.
type ports struct{ genMGC, genMG, midMGC, midMG string }

func freePorts(t *testing.T, network string) ports {
	t.Helper()
	a := testbin.FreeAddrs(t, network, 4)
	return ports{a[0], a[1], a[2], a[3]}
}

// middleCmd is the proxy (at its defaults, GOMAXPROCS=1, identities
// passed on: the generator compares every byte) or the floor between
// the generator's sockets.
func middleCmd(proxy, floor, tr, middle string, p ports) *exec.Cmd {
	u := func(a string) string { return tr + "://" + a }
	var cmd *exec.Cmd
	if middle == "proxy" {
		cmd = exec.Command(proxy, "proxy", "--mgc", u(p.genMGC), "--mgc-listen", u(p.midMGC),
			"--mg", u(p.genMG), "--mg-listen", u(p.midMG), "--identity=off", "--http-addr", "127.0.0.1:0")
	} else {
		cmd = exec.Command(floor, "--mgc", u(p.genMGC), "--mgc-listen", u(p.midMGC),
			"--mg", u(p.genMG), "--mg-listen", u(p.midMG))
	}
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	return cmd
}

// loadArgs are the generator's flags for a run through the middle. The
// floor cannot transcode: its runs carry BER on both sides.
func loadArgs(tr, middle string, p ports) []string {
	mgcCodec := "compact"
	if middle == "floor" {
		mgcCodec = "ber"
	}
	return []string{"load", "--transport", tr, "-q", "--mgc-codec", mgcCodec, "--mg-codec", "ber",
		"--mgc-listen", p.genMGC, "--mgc-target", p.midMGC, "--mg-listen", p.genMG, "--mg-target", p.midMG}
}

// generator is megaco load with args, at the GOMAXPROCS PROXY_COST_GEN_PROCS
// gives (1 when unset).
func generator(megaco string, args []string) *exec.Cmd {
	procs := os.Getenv(genEnv)
	if procs == "" {
		procs = "1"
	}
	cmd := exec.Command(megaco, args...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS="+procs)
	return cmd
}

// start runs the middle process and waits until it listens; stop (also
// run when the test ends) kills it by its PID and waits for it.
func start(t *testing.T, cmd *exec.Cmd, tr string, p ports) (stop func()) {
	t.Helper()
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop = sync.OnceFunc(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	t.Cleanup(stop)
	deadline := time.Now().Add(10 * time.Second)
	for !listening(tr, p.midMG) {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not listen on %s within 10 s:\n%s", cmd.Path, p.midMG, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return stop
}

// listening tells whether something holds addr: a TCP connect succeeds,
// or a UDP bind fails.
func listening(tr, addr string) bool {
	if tr == "tcp" {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	}
	c, err := net.ListenPacket("udp", addr)
	if err == nil {
		c.Close()
	}
	return err != nil
}

// measure runs one row: the middle (proxy or floor) under megaco's
// generator at rate for secs.
func measure(t *testing.T, proxy, megaco, floor, tr, middle string, rate float64, secs int) row {
	t.Helper()
	p := freePorts(t, tr)
	cmd := middleCmd(proxy, floor, tr, middle, p)
	stop := start(t, cmd, tr, p)
	defer stop()
	args := append(loadArgs(tr, middle, p), "-r", strconv.FormatFloat(rate, 'f', -1, 64),
		"--duration", strconv.Itoa(secs)+"s", "--watch-pid", strconv.Itoa(cmd.Process.Pid))
	out, err := generator(megaco, args).CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok { // exit 1: calls failed, which the row shows
			t.Fatalf("megaco load: %v\n%s", err, out)
		}
	}
	r, perr := parse(string(out))
	if perr != nil {
		t.Fatalf("%s %s at %.0f calls/s: %v\n%s", tr, middle, rate, perr, out)
	}
	r.transport, r.middle, r.rate = tr, middle, rate
	return r
}

var (
	reMessages = regexp.MustCompile(`(?m)^messages: \d+ \(([\d.]+)/s\)`)
	reFailed   = regexp.MustCompile(`(?m)^calls: .*? failed (\d+)`)
	reP99      = regexp.MustCompile(`(?m)^response time ms: .*?p99 ([\d.]+)`)
	reWatched  = regexp.MustCompile(`(?m)^watched process \d+: CPU [\d.]+ s, ([\d.]+) CPU-µs per message; context switches per message ([\d.]+)`)
	reSyscalls = regexp.MustCompile(`system calls per message ([\d.]+) \(perf\)`)
	reMax      = regexp.MustCompile(`(?m)^find-max: maximum sustained ([\d.]+) cps`)
)

// parse reads a run's summary (megaco load's stdout and stderr).
func parse(out string) (row, error) {
	var r row
	m := reWatched.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("no 'watched process' line")
	}
	r.cpuUs, _ = strconv.ParseFloat(m[1], 64)
	r.switches, _ = strconv.ParseFloat(m[2], 64)
	r.syscalls = "-"
	if m := reSyscalls.FindStringSubmatch(out); m != nil {
		r.syscalls = m[1]
	}
	m = reMessages.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("no 'messages:' line")
	}
	r.msgsPerSec, _ = strconv.ParseFloat(m[1], 64)
	if m := reP99.FindStringSubmatch(out); m != nil {
		r.p99ms, _ = strconv.ParseFloat(m[1], 64)
	}
	if m := reFailed.FindStringSubmatch(out); m != nil {
		r.failed, _ = strconv.Atoi(m[1])
	}
	return r, nil
}

// findMax is the highest call rate the proxy sustains over tr (p99 <= 10
// ms, no failed call) by megaco load's search.
func findMax(t *testing.T, proxy, megaco, tr string) float64 {
	t.Helper()
	p := freePorts(t, tr)
	cmd := middleCmd(proxy, "", tr, "proxy", p)
	stop := start(t, cmd, tr, p)
	defer stop()
	args := append(loadArgs(tr, "proxy", p), "--find-max", "-r", "500", "--rate-interval", "3s")
	// At the default settings: the generator at its own GOMAXPROCS.
	out, _ := exec.Command(megaco, args...).CombinedOutput()
	m := reMax.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("%s: no find-max result:\n%s", tr, out)
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

// table is the rows as a Markdown table.
func table(rows []row) string {
	var b strings.Builder
	b.WriteString("| transport | calls/s | middle | messages/s | CPU-µs / message | context switches / message | system calls / message | p99 ms | failed calls |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %.0f | %s | %.0f | %.1f | %.2f | %s | %.2f | %d |\n",
			strings.ToUpper(r.transport), r.rate, r.middle, r.msgsPerSec, r.cpuUs, r.switches, r.syscalls, r.p99ms, r.failed)
	}
	return b.String()
}
