package otpe2e

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"megaco/internal/testbin"
)

// redundancyCase is a strict MG with two strict MGCs behind `megaco
// proxy --mgc first,second`.
type redundancyCase struct {
	scenario          string // "failover" or "handoff"
	transport         string
	version           int
	mgcCodec, mgCodec string
}

// TestOTPRedundancy runs MGC redundancy with real OTP peers, all strict:
//
//   - failover: the first MGC registers the MG and drives a call, then
//     stops (its process ends); the MG registers again (ServiceChange
//     Method=Disconnected). Over UDP the proxy passes the registration to
//     the stopped MGC until its retransmissions go unanswered, then to the
//     second; over TCP the first MGC's connection closing moves it on.
//     The second MGC answers and drives a call.
//   - handoff: the first MGC drives a call, then hands the MG off to the
//     second (ServiceChange Method=HandOff, MgcIdToTry the second MGC);
//     the MG, told to try the proxy, registers there again and the
//     proxy takes it to the second MGC, which drives a call.
//
// Every peer must end with RESULT ok, and the proxy's metrics must show
// the switch with its reason.
func TestOTPRedundancy(t *testing.T) {
	needOTP(t)
	if testing.Short() {
		t.Skip("builds cmd/megaco: skipped in -short mode")
	}
	bin := buildMegaco(t)
	for _, c := range []redundancyCase{
		{"failover", "udp", 1, "compact", "ber"},
		{"failover", "tcp", 3, "compact", "per"},
		{"handoff", "udp", 3, "compact", "ber"},
		{"handoff", "tcp", 1, "compact", "per"},
	} {
		t.Run(fmt.Sprintf("%s/%s/v%d/%s-%s", c.scenario, c.transport, c.version, c.mgcCodec, c.mgCodec), func(t *testing.T) {
			t.Parallel()
			redundancy(t, bin, c)
		})
	}
}

func redundancy(t *testing.T, bin string, c redundancyCase) {
	const timeout = 45 * time.Second      // each peer's own limit: the failover waits ~6 s for retransmissions
	ports := freePorts(t, c.transport, 5) // proxy MGC side, MGC 1, MGC 2, proxy MG side, MG
	httpPort := freePorts(t, "tcp", 1)[0]
	addr := func(host string, p int) string { return c.transport + "://" + host + ":" + strconv.Itoa(p) }
	first, second := addr(mgcHost, ports[1]), addr(mgcHost, ports[2])
	args := []string{bin, "proxy",
		"--mgc-codec", c.mgcCodec, "--mgc-listen", addr(proxyMGCHost, ports[0]), "--mgc", first + "," + second,
		"--mg-codec", c.mgCodec, "--mg-listen", addr(proxyMGHost, ports[3]), "--mg", addr(mgHost, ports[4]),
		"--http-addr", "127.0.0.1:" + strconv.Itoa(httpPort), "--log-level", "debug"}
	f := flow{transport: c.transport, version: c.version, mgcEnc: c.mgcCodec, mgEnc: c.mgCodec, calls: 1,
		mgcPort: ports[1], mgPort: ports[4], mgTo: ports[3], mgcFrom: ports[0], timeout: timeout,
		mgcExtra: []string{"--strict", "--local-host", mgcHost},
		mgExtra:  []string{"--strict", "--local-host", mgHost, "--remote-host", proxyMGHost, "--then", c.scenario}}
	f2 := f
	f2.mgcPort = ports[2]
	// The MG sees one controller, the proxy: the second MGC's transaction
	// IDs must not repeat the first's (as two MGCs of one softswitch
	// would not), or the MG answers them from its cache of recent replies.
	f2.mgcExtra = append(f2.mgcExtra, "--first-tid", "100000")
	if c.scenario == "failover" {
		f.mgExtra[len(f.mgExtra)-1] = "reregister"
		f2.mgcExtra = append(f2.mgcExtra, "--sc-method", "disconnected")
	} else {
		f.mgcExtra = append(f.mgcExtra, "--handoff-to", mgcHost+":"+strconv.Itoa(ports[2]))
		f2.mgcExtra = append(f2.mgcExtra, "--sc-method", "handoff")
	}
	var procs []*proc
	fail := func(format string, a ...any) {
		t.Helper()
		var b strings.Builder
		for _, p := range procs {
			log, _ := p.output()
			fmt.Fprintf(&b, "\n--- %s (%s):\n%s", p.name, strings.Join(p.cmd.Args, " "), log)
		}
		t.Fatalf(format+"%s", append(a, b.String())...)
	}
	mgc1 := start(t, "MGC 1", "READY ", f.args("mgc")...)
	mgc2 := start(t, "MGC 2", "READY ", f2.args("mgc")...)
	procs = append(procs, mgc1, mgc2)
	for _, p := range []*proc{mgc1, mgc2} {
		if err := p.waitReady(readyWait); err != nil {
			fail("%v", err)
		}
	}
	px := start(t, "megaco proxy", "", args...)
	procs = append(procs, px)
	if err := waitHealthy(px, httpPort, readyWait); err != nil {
		fail("%v", err)
	}
	mg := startInput(t, "MG", "", f.args("mg")...)
	procs = append(procs, mg)
	deadline := time.Now().Add(timeout + 15*time.Second)
	if c.scenario == "failover" {
		// The MG has done its call with the first MGC: stop that one
		// (it may have ended already), then let the MG register again.
		if err := mg.waitLine("WAITING", timeout); err != nil {
			fail("%v", err)
		}
		mgc1.terminate(10 * time.Second) // its own end, or SIGTERM's: it is gone

		if _, err := io.WriteString(mg.stdin, "go\n"); err != nil {
			fail("the MG's input: %v", err)
		}
	}
	errs := []error{mg.wait(deadline), mgc2.wait(deadline)}
	if c.scenario == "handoff" {
		errs = append(errs, mgc1.wait(deadline))
	}
	for i, p := range []*proc{mg, mgc2, mgc1}[:len(errs)] {
		if _, res := p.output(); errs[i] != nil || !strings.HasPrefix(res, "RESULT ok ") {
			fail("%s: %v: %s", p.name, errs[i], res)
		}
	}
	reason := map[string]string{"failover/udp": "unanswered", "failover/tcp": "refused"}[c.scenario+"/"+c.transport]
	if c.scenario == "handoff" {
		reason = "handoff"
	}
	got := scrape(t, httpPort)
	if n := got[`megaco_proxy_mgc_switches_total{reason="`+reason+`"}`]; n < 1 {
		fail("the proxy counted no switch for %s: %v", reason, got)
	}
	// The switch the scenario makes, in the proxy's log. (Over TCP the
	// second MGC's connection closing when it ends moves the proxy on
	// again: the gauge says where it is now, the log how it got there.)
	log, _ := px.output()
	if want := `msg="MGC switched" from=` + first + ` to=` + second + ` reason=` + reason; !strings.Contains(log, want) {
		fail("the proxy did not log %s", want)
	}
	if active := got[`megaco_proxy_mgc_active{mgc="`+second+`"}`]; c.transport == "udp" && active != 1 {
		fail("the second MGC is not the active one: megaco_proxy_mgc_active %v", active)
	}
	if err := px.terminate(15 * time.Second); err != nil {
		t.Errorf("megaco proxy after SIGTERM: %v", err)
	}
}

// scrape reads the proxy's /metrics: value by series (name{labels}).
func scrape(t *testing.T, port int) map[string]float64 {
	t.Helper()
	got, err := testbin.Scrape(fmt.Sprintf("http://127.0.0.1:%d/metrics", port))
	if err != nil {
		t.Fatalf("megaco proxy /metrics: %v", err)
	}
	return got
}
