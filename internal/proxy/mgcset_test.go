package proxy

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"megaco/internal/testbin"
)

// mgcs has the proxy's MGC side use a second MGC after the rig's.
func mgcs(second Addr) func(*Config) {
	return presenting(func(c *Config) { c.MGC.Peers = []Addr{c.MGC.Peer, second} })
}

// wantSwitches checks the switch counters and which MGC is active.
func (r *rig) wantSwitches(t *testing.T, reason string, n float64, active Addr) {
	t.Helper()
	if got := counterValue(t, r.reg, "megaco_proxy_mgc_switches_total", map[string]string{"reason": reason}); got != n {
		t.Errorf("switches (%s): %v, want %v", reason, got, n)
	}
	if got := counterValue(t, r.reg, "megaco_proxy_mgc_active", map[string]string{"mgc": active.String()}); got != 1 {
		t.Errorf("megaco_proxy_mgc_active{mgc=%q} = %v, want 1", active, got)
	}
}

// nothing checks that p receives nothing for a moment.
func (p *peer) nothing(t *testing.T, what string) {
	t.Helper()
	select {
	case m := <-p.msgs:
		t.Errorf("%s: got %q", what, m)
	case <-time.After(200 * time.Millisecond):
	}
}

// TestFailoverUnanswered: the first MGC leaves the MG's ServiceChange
// unanswered; its second retransmission goes to the second MGC, which
// answers, and the calls go on with it.
func TestFailoverUnanswered(t *testing.T) {
	second := newPeer(t, "udp")
	r := setup(t, "compact", "udp", "ber", "udp", mgcs(second.addr()))
	second.proxyAddr = r.mgc.proxyAddr
	sc := corpusFile(t, "msg04.ber")
	for i := range failoverRetries {
		r.mg.send(sc)
		if got := r.mgc.recv(); !strings.Contains(string(got), "T=9998") {
			t.Fatalf("copy %d to the first MGC: %q", i, got)
		}
	}
	r.wantSwitches(t, switchUnanswered, 0, r.mgc.addr())
	r.mg.send(sc)
	if got := second.recv(); !strings.Contains(string(got), "T=9998") {
		t.Fatalf("the retransmission to the second MGC: %q", got)
	}
	r.mgc.nothing(t, "the first MGC after the switch")
	r.wantSwitches(t, switchUnanswered, 1, second.addr())
	second.send(corpusFile(t, "msg05.compact.txt"))
	r.mg.recv()
	// The MGC's requests and the MG's replies: with the second MGC.
	second.send(corpusFile(t, "msg01a.compact.txt"))
	r.mg.recv()
	r.mg.send(corpusFile(t, "msg06a.ber"))
	second.recv()
	r.mg.send(sc) // a new registration, answered: no switch
	second.recv()
	r.wantSwitches(t, switchUnanswered, 1, second.addr())
}

// TestFailoverRefused: over TCP the first MGC refuses the connection;
// the MG's registration goes to the second, and when that one resets
// its connection, the MG's next registration goes to the first again,
// on the MG's connection still open.
func TestFailoverRefused(t *testing.T) {
	dead := Addr{"tcp", testbin.FreeAddr(t, "tcp")}
	r := setup(t, "compact", "tcp", "ber", "tcp", func(c *Config) {
		c.IdentityOff = false
		c.MGC.Peers = []Addr{dead, c.MGC.Peer}
	})
	r.mg.send(corpusFile(t, "msg04.ber"))
	r.mgc.recv()
	r.wantSwitches(t, switchRefused, 1, r.mgc.addr())
	r.mgc.send(corpusFile(t, "msg05.compact.txt"))
	r.mg.recv()
	// The MGC resets: the proxy moves on (to the dead one, which refuses,
	// and round to this one again), keeping the MG's connection.
	r.mgc.mu.Lock()
	for _, c := range r.mgc.conns {
		c.Close()
	}
	r.mgc.conns, r.mgc.conn = nil, nil
	r.mgc.mu.Unlock()
	deadline := time.Now().Add(waitFor)
	for counterValue(t, r.reg, "megaco_proxy_mgc_switches_total", map[string]string{"reason": switchRefused}) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("no switch after the MGC closed its connection")
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.mg.send(corpusFile(t, "msg04.ber"))
	r.mgc.recv()
	r.wantSwitches(t, switchRefused, 3, r.mgc.addr())
}

// TestHandoff: the MGC hands the MG off (ServiceChange Method=HandOff,
// MgcIdToTry the second MGC); the MG is told to try the proxy, and its
// next registration goes to the second MGC. A ServiceChange reply naming
// the first MGC (ServiceChangeMgcId) turns the proxy back.
func TestHandoff(t *testing.T) {
	second := newPeer(t, "udp")
	r := setup(t, "compact", "udp", "ber", "udp", mgcs(second.addr()))
	second.proxyAddr = r.mgc.proxyAddr
	to := netip.MustParseAddrPort(second.addr().Address)
	r.mgc.send([]byte("!/1 [127.0.0.1]:2944\nT=5{C=-{SC=ROOT{SV{MT=HO,MG=[" + to.Addr().String() + "]:" + itoa(uint32(to.Port())) + ",RE=\"903\"}}}}"))
	ho := compactText(t, decodeMsg(t, r.mg.recv(), "ber"))
	if want := "MG=[127.0.0.1]:" + itoa(r.listenPort(false)); !strings.Contains(ho, want) {
		t.Errorf("the handoff the MG got: %q, want %s", ho, want)
	}
	r.wantSwitches(t, switchHandoff, 1, second.addr())
	r.mg.send(encode(t, "!/1 [124.124.124.222]\nP=5{C=-{SC=ROOT}}", "ber"))
	r.mgc.recv() // the MG's answer goes to the MGC that asked
	r.mg.send(corpusFile(t, "msg04.ber"))
	second.recv()
	first := netip.MustParseAddrPort(r.mgc.addr().Address)
	second.send([]byte("!/1 [127.0.0.1]:2944\nP=9998{C=-{SC=ROOT{SV{MG=[" + first.Addr().String() + "]:" + itoa(uint32(first.Port())) + "}}}}"))
	reply := compactText(t, decodeMsg(t, r.mg.recv(), "ber"))
	if want := "MG=[127.0.0.1]:" + itoa(r.listenPort(false)); !strings.Contains(reply, want) {
		t.Errorf("the reply the MG got: %q, want %s", reply, want)
	}
	r.wantSwitches(t, switchHandoff, 2, r.mgc.addr())
	r.mg.send(corpusFile(t, "msg04.ber"))
	r.mgc.recv()
}
