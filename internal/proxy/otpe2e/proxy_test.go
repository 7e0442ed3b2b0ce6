package otpe2e

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"megaco/internal/testbin"
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
	if err != nil || !strings.Contains(string(out), "mg-listen") {
		t.Skipf("`megaco proxy` is not in this build (`megaco proxy --help`: %v: %.200s); "+
			"TestOTPThroughProxy runs once the proxy is merged", err, out)
	}
	return bin
}

// proxyCase is one `megaco proxy` between the OTP peers of a flow.
type proxyCase struct {
	mgcTransport, mgTransport string
	version                   int
	mgcCodec, mgCodec         string
	// pending: the MG answers the Add late, so that the MGC (over UDP)
	// retransmits it and the MG's OTP answers the copy with
	// TransactionPending, which must come back through the proxy.
	pending bool
	// segment: the MGC (text: OTP 25 segments only text) sends its
	// replies in segments (v3); the MG's SegmentReplies must come back.
	segment bool
}

func (c proxyCase) String() string {
	tr := c.mgcTransport
	if c.mgTransport != c.mgcTransport {
		tr += "-" + c.mgTransport
	}
	s := fmt.Sprintf("%s/v%d/%s-%s", tr, c.version, c.mgcCodec, c.mgCodec)
	if c.pending {
		s += "/pending"
	}
	if c.segment {
		s += "/segmented"
	}
	return s
}

// TestOTPThroughProxy puts `megaco proxy` between an OTP MGC speaking text
// (compact, and pretty) and an OTP MG speaking BER, and runs the MG's
// registration and two RFC 3525 calls through it over UDP and over TCP,
// versions 1 and 3; then UDP on one side and TCP on the other, the proxy
// in relay mode (one codec on both sides), version 2, a late reply
// (retransmission and TransactionPending through the proxy) and segmented
// replies (v3 SegmentReply through the proxy). Both peers must see
// every transaction answered as the other side sent it, and the proxy
// must count no rejected message and no error.
func TestOTPThroughProxy(t *testing.T) {
	needOTP(t)
	if testing.Short() {
		t.Skip("builds cmd/megaco: skipped in -short mode")
	}
	bin := buildMegaco(t)
	cases := []proxyCase{
		// Text (compact) MGC, BER MG: both transports, v1 and v3.
		{"udp", "udp", 1, "compact", "ber", false, false},
		{"udp", "udp", 3, "compact", "ber", false, false},
		{"tcp", "tcp", 1, "compact", "ber", false, false},
		{"tcp", "tcp", 3, "compact", "ber", false, false},
		// Pretty text; v3 replies of the MGC in segments.
		{"udp", "udp", 1, "pretty", "ber", false, false},
		{"tcp", "tcp", 3, "pretty", "ber", false, true},
		// UDP on one side, TCP on the other.
		{"udp", "tcp", 3, "pretty", "ber", false, true},
		{"tcp", "udp", 1, "compact", "ber", false, false},
		// Relay: one codec on both sides.
		{"udp", "udp", 3, "ber", "ber", false, false},
		{"tcp", "tcp", 1, "compact", "compact", false, false},
		// Version 2; and a late reply: retransmission and pending.
		{"tcp", "tcp", 2, "compact", "ber", false, false},
		{"udp", "udp", 3, "compact", "ber", true, false},
	}
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel() // the peers mostly wait: -parallel (GOMAXPROCS) at a time
			throughProxy(t, bin, c)
		})
	}
}

func throughProxy(t *testing.T, bin string, c proxyCase) {
	mgcSide := freePorts(t, c.mgcTransport, 2) // the proxy's MGC side, the MGC
	mgSide := freePorts(t, c.mgTransport, 2)   // the proxy's MG side, the MG
	httpPort := freePorts(t, "tcp", 1)[0]
	addr := func(tr string, p int) string { return tr + "://127.0.0.1:" + strconv.Itoa(p) }
	args := []string{bin, "proxy",
		"--mgc-codec", c.mgcCodec, "--mgc-listen", addr(c.mgcTransport, mgcSide[0]),
		"--mgc", addr(c.mgcTransport, mgcSide[1]),
		"--mg-codec", c.mgCodec, "--mg-listen", addr(c.mgTransport, mgSide[0]),
		"--mg", addr(c.mgTransport, mgSide[1]),
		"--http-addr", "127.0.0.1:" + strconv.Itoa(httpPort),
		"--log-level", "debug"}
	f := flow{transport: c.mgcTransport, mgTransport: c.mgTransport, version: c.version,
		mgcEnc: c.mgcCodec, mgEnc: c.mgCodec, calls: 2,
		mgcPort: mgcSide[1], mgPort: mgSide[1], mgTo: mgSide[0], mgcFrom: mgcSide[0]}
	if c.segment {
		f.mgcExtra = []string{"--segment"}
	}
	if c.pending {
		// The MGC retransmits after 2 s (megaco_peer.escript's UDP
		// request timer); 5 s late gets at least one copy.
		// One call: the wait is the test's longest.
		f.mgExtra, f.calls = []string{"--delay-reply", "add:5000"}, 1
	}
	var px *proc
	mgc, mg := f.run(t, func() (*proc, error) {
		px = start(t, "megaco proxy", "", args...)
		return px, waitHealthy(px, httpPort, readyWait)
	})
	t.Logf("%s\n%s", mgc, mg)
	counts := checkMetrics(t, httpPort)
	if c.pending && counts != nil {
		if n := counts[`{direction="mg_to_mgc",kind="pending",outcome="forwarded"}`]; n < 1 {
			t.Errorf("the MG's TransactionPending did not come through the proxy (forwarded %v)", n)
		}
	}
	// Nothing is in flight: SIGTERM should end the proxy at once.
	if err := px.terminate(15 * time.Second); err != nil {
		t.Errorf("megaco proxy after SIGTERM: %v", err)
	}
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

// checkMetrics reads the proxy's message and error counters: it logs the
// messages it forwarded and fails on a rejected message or an error. The
// peers succeeding is the test; this says what the proxy saw. It returns
// the forwarded counts by label set ({direction=...,kind=...,outcome=...}),
// nil when it found none.
func checkMetrics(t *testing.T, port int) map[string]float64 {
	t.Helper()
	series, err := testbin.Scrape(fmt.Sprintf("http://127.0.0.1:%d/metrics", port))
	if err != nil {
		t.Errorf("megaco proxy /metrics: %v", err)
		return nil
	}
	var forwarded []string
	counts := map[string]float64{}
	for _, name := range slices.Sorted(maps.Keys(series)) {
		v := series[name]
		if v == 0 {
			continue
		}
		switch {
		case strings.HasPrefix(name, "megaco_proxy_messages_total{"):
			if strings.Contains(name, `outcome="forwarded"`) {
				labels := strings.TrimPrefix(name, "megaco_proxy_messages_total")
				forwarded = append(forwarded, labels+"="+strconv.FormatFloat(v, 'g', -1, 64))
				counts[labels] = v
			} else {
				t.Errorf("megaco proxy: %s %g", name, v)
			}
		case strings.HasPrefix(name, "megaco_proxy_errors_total{"):
			t.Errorf("megaco proxy: %s %g", name, v)
		}
	}
	if len(forwarded) == 0 {
		t.Logf("megaco proxy /metrics: no megaco_proxy_messages_total{outcome=\"forwarded\"} (renamed?)")
		return nil
	}
	t.Logf("megaco proxy forwarded: %s", strings.Join(forwarded, " "))
	return counts
}
