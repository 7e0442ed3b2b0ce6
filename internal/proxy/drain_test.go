package proxy

import (
	"bytes"
	"megaco/internal/testbin"
	"net/http"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestDrain runs the real binary: a request in flight when SIGTERM comes
// still gets its reply through, /readyz turns 503, and the process exits 0.
func TestDrain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the megaco binary")
	}
	bin := filepath.Join(t.TempDir(), "megaco")
	build := exec.Command("go", "build", "-o", bin, "megaco/cmd/megaco")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mgc, mg := newPeer(t, "udp"), newPeer(t, "udp")
	mgc.proxyAddr, mg.proxyAddr = testbin.FreeAddr(t, "udp"), testbin.FreeAddr(t, "udp")
	httpAddr := testbin.FreeAddr(t, "tcp")
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "proxy",
		"--mgc-codec", "compact", "--mgc-listen", "udp://"+mgc.proxyAddr, "--mgc", "udp://"+mgc.addr().Address,
		"--mg-codec", "ber", "--mg-listen", "udp://"+mg.proxyAddr, "--mg", "udp://"+mg.addr().Address,
		"--http-addr", httpAddr, "--drain-timeout", "30s", "--log-level", "debug",
		"--identity=off") // the test compares the bytes with the corpus
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("proxy's log:\n%s", stderr.String())
		}
	})
	ready := func() int {
		resp, err := http.Get("http://" + httpAddr + "/readyz")
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	deadline := time.Now().Add(waitFor)
	for ready() != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("the proxy did not become ready")
		}
		time.Sleep(20 * time.Millisecond)
	}
	mgc.send(corpusFile(t, "msg01a.compact.txt"))
	expect(t, "request", mg.recv(), corpusFile(t, "msg01a.ber"))
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for ready() == http.StatusOK {
		if time.Now().After(deadline.Add(waitFor)) {
			t.Fatal("/readyz still 200 after SIGTERM")
		}
		time.Sleep(20 * time.Millisecond)
	}
	mg.send(corpusFile(t, "msg06a.ber"))
	expect(t, "reply after SIGTERM", mgc.recv(), corpusFile(t, "msg06a.compact.txt"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v", err)
		}
	case <-time.After(3 * waitFor):
		t.Fatal("the proxy did not exit after draining")
	}
	if !bytes.Contains(stderr.Bytes(), []byte("drained")) {
		t.Errorf("no drain in the log")
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}
