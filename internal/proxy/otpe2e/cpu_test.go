package otpe2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const loopScript = "../../../tools/otp/megaco_loop.escript"

// cpuSecondsEnv runs TestOTPLoopCPU for that many seconds per run; unset,
// the test is skipped (it takes about 4 x that and loads the machine).
const cpuSecondsEnv = "OTPE2E_CPU_SECONDS"

// TestOTPLoopCPU measures what the middle process costs per transaction
// with OTP peers in a closed loop (tools/otp/megaco_loop.escript: an MGC
// in pretty text keeping 16 Modify requests outstanding, an MG in BER
// answering each, both through OTP's encoders): `megaco proxy` at its
// default settings, and in the same test the reference relay built on
// OTP's codecs (decode with the sender's encoder, encode with the
// receiver's), over UDP and over TCP, one after the other. CPU is the
// middle process's user + system time from /proc over the loop. The goal
// is the proxy at a third of the relay's CPU per transaction or less.
//
//	OTPE2E_CPU_SECONDS=10 go test ./internal/proxy/otpe2e -run OTPLoopCPU -v
func TestOTPLoopCPU(t *testing.T) {
	secs, _ := strconv.Atoi(os.Getenv(cpuSecondsEnv))
	if secs <= 0 {
		t.Skipf("set %s (e.g. 10) to measure the proxy's CPU per transaction against OTP's relay", cpuSecondsEnv)
	}
	needOTP(t)
	bin := buildMegaco(t)
	for _, tr := range []string{"udp", "tcp"} {
		var per [2]float64
		for i, middle := range []string{"otp-relay", "megaco-proxy"} {
			tx, cpu := loopRun(t, bin, tr, middle, secs)
			if tx == 0 {
				t.Fatalf("%s %s: no transaction completed", tr, middle)
			}
			per[i] = float64(cpu.Microseconds()) / float64(tx)
			t.Logf("%s %-12s %7d transactions in %d s (%6.0f/s), CPU %5.2f s: %6.1f CPU-µs per transaction",
				tr, middle, tx, secs, float64(tx)/float64(secs), cpu.Seconds(), per[i])
		}
		ratio := per[1] / per[0]
		t.Logf("%s: proxy / OTP relay = %.2f (goal <= 0.33)", tr, ratio)
		if ratio > 1.0/3 {
			t.Errorf("%s: the proxy spends %.2f of the OTP relay's CPU per transaction, more than a third", tr, ratio)
		}
	}
}

// loopRun runs the loop for secs through middle and returns the
// transactions the MGC completed and the middle's CPU time meanwhile.
func loopRun(t *testing.T, bin, tr, middle string, secs int) (int, time.Duration) {
	t.Helper()
	p := freePorts(t, tr, 4) // the MGC, the middle's MGC side, its MG side, the MG
	mgcPort, mgcSide, mgSide, mgPort := p[0], p[1], p[2], p[3]
	itoa := strconv.Itoa
	script := func(args ...string) []string { return append([]string{"escript", loopScript}, args...) }
	mgc := script("mgc", tr, "pretty", itoa(mgcPort), itoa(mgcSide), itoa(secs), "16")
	mg := script("mg", tr, "ber", itoa(mgPort), itoa(mgSide))
	var mid *proc
	startMiddle := func() {
		if middle == "otp-relay" {
			mid = start(t, middle, "READY", script("relay", tr, "pretty", itoa(mgcSide), itoa(mgcPort), "ber", itoa(mgSide), itoa(mgPort))...)
			if err := mid.waitReady(readyWait); err != nil {
				t.Fatal(err)
			}
			return
		}
		httpPort := freePorts(t, "tcp", 1)[0]
		addr := func(port int) string { return tr + "://127.0.0.1:" + itoa(port) }
		mid = start(t, middle, "", bin, "proxy", "--mgc-codec", "pretty", "--mgc-listen", addr(mgcSide), "--mgc", addr(mgcPort),
			"--mg-codec", "ber", "--mg-listen", addr(mgSide), "--mg", addr(mgPort),
			"--http-addr", "127.0.0.1:"+itoa(httpPort), "--log-level", "warn")
		if err := waitHealthy(mid, httpPort, readyWait); err != nil {
			t.Fatal(err)
		}
	}
	// Over UDP the MGC starts sending at once: the MG and the middle come
	// first. Over TCP the MG connects to the middle, which dials the MGC:
	// the MGC listens first and starts its loop on that connection.
	var first, last *proc
	if tr == "udp" {
		first = start(t, "MG", "READY", mg...)
	} else {
		first = start(t, "MGC", "READY", mgc...)
	}
	if err := first.waitReady(readyWait); err != nil {
		t.Fatal(err)
	}
	startMiddle()
	cpu0, err := processCPU(mid.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if tr == "udp" {
		last = start(t, "MGC", "", mgc...)
	} else {
		last = start(t, "MG", "", mg...)
	}
	mgcProc := last
	if tr == "tcp" {
		mgcProc = first
	}
	if err := mgcProc.wait(time.Now().Add(time.Duration(secs)*time.Second + flowWait)); err != nil {
		log, _ := mgcProc.output()
		t.Fatalf("MGC: %v\n%s", err, log)
	}
	cpu1, err := processCPU(mid.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	_, result := mgcProc.output()
	var tx, lost int
	if _, err := fmt.Sscanf(result, "RESULT ok transactions=%d lost=%d", &tx, &lost); err != nil {
		log, _ := mgcProc.output()
		t.Fatalf("MGC: no result line (%v)\n%s", err, log)
	}
	if lost > 0 {
		t.Logf("%s %s: %d transactions lost (replaced after 1 s each)", tr, middle, lost)
	}
	mid.terminate(15 * time.Second)
	first.stop()
	last.stop()
	return tx, cpu1 - cpu0
}

// processCPU is a process's user + system time (/proc/PID/stat, in
// ticks of 1/100 s) with its threads'.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, err
	}
	// Fields after the command name (in parentheses): state is the first,
	// utime the 12th, stime the 13th.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: too few fields", pid)
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q %q", pid, f[11], f[12])
	}
	return time.Duration(u+s) * 10 * time.Millisecond, nil
}
