package otpe2e

import (
	"fmt"
	"testing"
	"time"
)

// TestOTPDirect connects the OTP MGC and the OTP MG to each other, both
// on one encoding, with nothing between them: it shows that the harness
// works (and that its checks hold for OTP talking to itself) before the
// proxy is put between the peers.
func TestOTPDirect(t *testing.T) {
	needOTP(t)
	for _, transport := range []string{"udp", "tcp"} {
		for _, version := range []int{1, 3} {
			for _, enc := range []string{"compact", "pretty", "ber"} {
				if enc == "pretty" && version == 1 {
					continue // one text style per version keeps the run short
				}
				if enc == "compact" && version == 3 {
					continue
				}
				t.Run(fmt.Sprintf("%s/v%d/%s", transport, version, enc), func(t *testing.T) {
					t.Parallel()
					ports := freePorts(t, transport, 2)
					f := flow{transport: transport, version: version, mgcEnc: enc, mgEnc: enc,
						mgcPort: ports[0], mgPort: ports[1], mgTo: ports[0], mgcFrom: ports[1]}
					if enc == "pretty" {
						// v3 text: the MG's replies go in segments.
						f.mgExtra = []string{"--segment"}
					}
					mgc, mg := f.run(t, nil)
					t.Logf("%s\n%s", mgc, mg)
				})
			}
		}
	}
}

// TestOTPMismatchFails shows that the harness notices when the peers do
// not understand each other: a BER MG talking straight to a text MGC must
// not end in RESULT ok.
func TestOTPMismatchFails(t *testing.T) {
	needOTP(t)
	t.Parallel()
	ports := freePorts(t, "udp", 2)
	f := flow{transport: "udp", version: 1, mgcEnc: "compact", mgEnc: "ber",
		mgcPort: ports[0], mgPort: ports[1], mgTo: ports[0], mgcFrom: ports[1], timeout: 6 * time.Second}
	mgc := start(t, "MGC", "READY ", f.args("mgc")...)
	if err := mgc.waitReady(readyWait); err != nil {
		t.Fatal(err)
	}
	mg := start(t, "MG", "", f.args("mg")...)
	deadline := time.Now().Add(flowWait)
	mgErr, mgcErr := mg.wait(deadline), mgc.wait(deadline)
	_, mgResult := mg.output()
	_, mgcResult := mgc.output()
	t.Logf("MG: %v: %s\nMGC: %v: %s", mgErr, mgResult, mgcErr, mgcResult)
	if mgErr == nil || mgcErr == nil {
		t.Errorf("a BER MG and a text MGC both exited 0: the harness does not check what it should")
	}
}
