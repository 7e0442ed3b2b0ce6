package otpe2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Four loopback addresses, so that an mId that names the wrong host
// shows: a strict peer compares the mId's IP with the packet's source IP,
// which on one address would always match.
const (
	mgcHost      = "127.0.0.1" // the MGC
	proxyMGCHost = "127.0.0.2" // the proxy's MGC side
	proxyMGHost  = "127.0.0.3" // the proxy's MG side
	mgHost       = "127.0.0.4" // the MG
)

// strictCase is one strict MGC and strict MG with `megaco proxy` between
// them.
type strictCase struct {
	transport         string
	version           int
	mgcCodec, mgCodec string
	proxyArgs         []string // more proxy flags
}

func (c strictCase) String() string {
	s := fmt.Sprintf("%s/v%d/%s-%s", c.transport, c.version, c.mgcCodec, c.mgCodec)
	if len(c.proxyArgs) > 0 {
		s += "/" + strings.Join(c.proxyArgs, "/")
	}
	return s
}

// strictSetup is what a strict run needs: the flow and the proxy's
// command line.
func strictSetup(t *testing.T, bin string, c strictCase) (flow, []string, int) {
	ports := freePorts(t, c.transport, 4) // proxy MGC side, MGC, proxy MG side, MG
	httpPort := freePorts(t, "tcp", 1)[0]
	addr := func(host string, p int) string { return c.transport + "://" + host + ":" + strconv.Itoa(p) }
	args := append([]string{bin, "proxy",
		"--mgc-codec", c.mgcCodec, "--mgc-listen", addr(proxyMGCHost, ports[0]),
		"--mgc", addr(mgcHost, ports[1]),
		"--mg-codec", c.mgCodec, "--mg-listen", addr(proxyMGHost, ports[2]),
		"--mg", addr(mgHost, ports[3]),
		"--http-addr", "127.0.0.1:" + strconv.Itoa(httpPort),
		"--log-level", "debug"}, c.proxyArgs...)
	f := flow{transport: c.transport, version: c.version, mgcEnc: c.mgcCodec, mgEnc: c.mgCodec, calls: 2,
		mgcPort: ports[1], mgPort: ports[3], mgTo: ports[2], mgcFrom: ports[0],
		mgcExtra: []string{"--strict", "--local-host", mgcHost},
		mgExtra:  []string{"--strict", "--local-host", mgHost, "--remote-host", proxyMGHost}}
	return f, args, httpPort
}

// TestOTPStrictThroughProxy runs the strict OTP MGC and MG (what a
// production softswitch and gateway check of each other's identity:
// megaco_peer.escript --strict) through `megaco proxy`, over UDP and TCP,
// versions 1 and 3, text to BER and text to PER (and relaying one codec).
// Every call must complete: the proxy presents itself to each side.
func TestOTPStrictThroughProxy(t *testing.T) {
	needOTP(t)
	if testing.Short() {
		t.Skip("builds cmd/megaco: skipped in -short mode")
	}
	bin := buildMegaco(t)
	var cases []strictCase
	for _, tr := range []string{"udp", "tcp"} {
		for _, v := range []int{1, 3} {
			for _, mg := range []string{"ber", "per"} {
				cases = append(cases, strictCase{transport: tr, version: v, mgcCodec: "compact", mgCodec: mg})
			}
		}
	}
	// Relaying (the mId spliced into the bytes); the proxy's unit tests
	// cover text relaying.
	cases = append(cases, strictCase{transport: "udp", version: 3, mgcCodec: "ber", mgCodec: "ber"})
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			f, args, httpPort := strictSetup(t, bin, c)
			var px *proc
			mgc, mg := f.run(t, func() (*proc, error) {
				px = start(t, "megaco proxy", "", args...)
				return px, waitHealthy(px, httpPort, readyWait)
			})
			t.Logf("%s\n%s", mgc, mg)
			checkMetrics(t, httpPort)
			if err := px.terminate(15 * time.Second); err != nil {
				t.Errorf("megaco proxy after SIGTERM: %v", err)
			}
		})
	}
}

// TestOTPStrictFailsWithoutIdentity shows what the strict peers catch: a
// proxy that passes the peers' own mIds on (--identity=off, which is all
// a proxy did before it presented itself) loses the MG's registration at
// a strict MGC over UDP: the MG's mId names the MG, not the address the
// registration came from, and the MGC refuses it (402).
func TestOTPStrictFailsWithoutIdentity(t *testing.T) {
	needOTP(t)
	if testing.Short() {
		t.Skip("builds cmd/megaco: skipped in -short mode")
	}
	bin := buildMegaco(t)
	c := strictCase{transport: "udp", version: 1, mgcCodec: "compact", mgCodec: "ber", proxyArgs: identityOff}
	f, args, httpPort := strictSetup(t, bin, c)
	f.timeout = 10 * time.Second
	mgc := start(t, "MGC", "READY ", f.args("mgc")...)
	if err := mgc.waitReady(readyWait); err != nil {
		t.Fatal(err)
	}
	px := start(t, "megaco proxy", "", args...)
	if err := waitHealthy(px, httpPort, readyWait); err != nil {
		t.Fatal(err)
	}
	mg := start(t, "MG", "", f.args("mg")...)
	deadline := time.Now().Add(flowWait)
	mgErr, mgcErr := mg.wait(deadline), mgc.wait(deadline)
	mgLog, mgResult := mg.output()
	mgcLog, mgcResult := mgc.output()
	t.Logf("MG: %v: %s\nMGC: %v: %s", mgErr, mgResult, mgcErr, mgcResult)
	if mgErr == nil || strings.HasPrefix(mgResult, "RESULT ok") {
		t.Errorf("the MG completed its calls through a proxy that does not present itself:\n%s", mgLog)
	}
	// The MGC's reason names the MG's address as an Erlang tuple.
	if !strings.Contains(mgcResult, "unauthorized") || !strings.Contains(mgcResult, "{"+strings.ReplaceAll(mgHost, ".", ",")+"}") {
		t.Errorf("the strict MGC did not refuse the MG's mId (%s) as not the source:\n%s", mgHost, mgcLog)
	}
}

// identityOff are the proxy flags that make it pass the peers' mIds on.
var identityOff = []string{"--identity=off"}
