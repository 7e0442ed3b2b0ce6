package otpe2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// megacoBin names a prebuilt megaco binary to use instead of building
// cmd/megaco (the build takes a while on a busy machine).
const megacoBin = "OTPE2E_MEGACO"

// buildMegaco builds cmd/megaco into a temporary directory (or takes
// $OTPE2E_MEGACO) and skips the test when the binary has no proxy
// subcommand yet.
func buildMegaco(t *testing.T) string {
	t.Helper()
	bin := os.Getenv(megacoBin)
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "megaco")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "megaco/cmd/megaco").CombinedOutput()
		if err != nil {
			t.Fatalf("go build megaco/cmd/megaco: %v\n%s", err, out)
		}
	}
	out, err := exec.Command(bin, "proxy", "--help").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--mg-listen") {
		t.Skipf("`megaco proxy` is not in this build (`megaco proxy --help`: %v: %.200s); "+
			"TestOTPThroughProxy runs once the proxy is merged", err, out)
	}
	return bin
}

// proxyRun is one `megaco proxy` between the OTP peers of a flow.
type proxyRun struct {
	transport        string
	mgcCodec         string // the MGC side's codec
	mgCodec          string // the MG side's codec
	mgcListen, mgcAt int    // the proxy's MGC side, and the MGC
	mgListen, mgAt   int    // the proxy's MG side, and the MG
	http             int
}

func (r proxyRun) args(bin string) []string {
	addr := func(p int) string { return r.transport + "://127.0.0.1:" + strconv.Itoa(p) }
	return []string{bin, "proxy",
		"--mgc-codec", r.mgcCodec, "--mgc-listen", addr(r.mgcListen), "--mgc", addr(r.mgcAt),
		"--mg-codec", r.mgCodec, "--mg-listen", addr(r.mgListen), "--mg", addr(r.mgAt),
		"--http-addr", "127.0.0.1:" + strconv.Itoa(r.http),
		"--log-level", "debug"}
}

// waitHealthy polls /healthz until it answers 200.
func waitHealthy(p *proc, port int, d time.Duration) error {
	client := &http.Client{Timeout: 2 * time.Second}
	url := fmt.Sprintf("http://127.0.0.1:%d/healthz", port)
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			return fmt.Errorf("megaco proxy exited: %v", p.err())
		default:
		}
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("megaco proxy: %s not 200 after %v", url, d)
}

// TestOTPThroughProxy puts `megaco proxy` between an OTP MGC speaking text
// (compact, and pretty) and an OTP MG speaking BER, and runs the MG's
// registration and the RFC 3525 call through it over UDP and over TCP,
// versions 1 and 3. Both peers must see every transaction answered as
// the other side sent it.
func TestOTPThroughProxy(t *testing.T) {
	needOTP(t)
	if testing.Short() {
		t.Skip("builds cmd/megaco: skipped in -short mode")
	}
	bin := buildMegaco(t)
	for _, transport := range []string{"udp", "tcp"} {
		for _, version := range []int{1, 3} {
			for _, mgcCodec := range []string{"compact", "pretty"} {
				name := fmt.Sprintf("%s/v%d/%s-ber", transport, version, mgcCodec)
				t.Run(name, func(t *testing.T) {
					throughProxy(t, bin, transport, version, mgcCodec, "ber")
				})
			}
		}
	}
}

func throughProxy(t *testing.T, bin, transport string, version int, mgcCodec, mgCodec string) {
	ports := freePorts(t, transport, 4)
	http := freePorts(t, "tcp", 1)[0]
	r := proxyRun{transport: transport, mgcCodec: mgcCodec, mgCodec: mgCodec,
		mgcListen: ports[0], mgcAt: ports[1], mgListen: ports[2], mgAt: ports[3], http: http}
	f := flow{transport: transport, version: version, mgcEnc: mgcCodec, mgEnc: mgCodec,
		mgcPort: r.mgcAt, mgPort: r.mgAt, mgTo: r.mgListen, mgcFrom: r.mgcListen}
	var px *proc
	mgc, mg := f.run(t, func() (*proc, error) {
		px = start(t, "megaco proxy", "", r.args(bin)...)
		return px, waitHealthy(px, r.http, readyWait)
	})
	t.Logf("%s\n%s", mgc, mg)
	// Nothing is in flight: SIGTERM should end the proxy at once.
	if err := px.terminate(15 * time.Second); err != nil {
		t.Errorf("megaco proxy after SIGTERM: %v", err)
	}
}
