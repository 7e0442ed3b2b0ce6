package load

import (
	"bytes"
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// lossyRelay stands in for the proxy relaying one codec both ways over
// UDP. With seen, it drops the first copy of each distinct datagram:
// every request and every reply is lost once; with change, it changes
// datagrams on the way.
type lossyRelay struct {
	mu     sync.Mutex
	seen   map[string]bool
	change func([]byte)
	wg     sync.WaitGroup
}

func (r *lossyRelay) firstCopy(b []byte) bool {
	if r.seen == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen[string(b)] {
		return false
	}
	r.seen[string(b)] = true
	return true
}

// forward relays what in receives to dst, out of out.
func (r *lossyRelay) forward(in, out *net.UDPConn, dst string) {
	defer r.wg.Done()
	to, err := net.ResolveUDPAddr("udp", dst)
	if err != nil {
		return
	}
	buf := make([]byte, 65536)
	for {
		n, _, err := in.ReadFromUDP(buf)
		if err != nil {
			return
		}
		if r.change != nil {
			r.change(buf[:n])
		}
		if !r.firstCopy(buf[:n]) {
			_, _ = out.WriteToUDP(buf[:n], to)
		}
	}
}

// start relays between the two sides of cfg, each side's target now
// the relay's socket facing it, until the test ends.
func (r *lossyRelay) start(t *testing.T, cfg *Config) {
	mgc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	mg, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		mgc.Close()
		t.Fatal(err)
	}
	r.wg.Add(2)
	go r.forward(mgc, mg, cfg.Wire.MGListen)
	go r.forward(mg, mgc, cfg.Wire.MGCListen)
	t.Cleanup(func() {
		mgc.Close()
		mg.Close()
		r.wg.Wait()
	})
	cfg.Wire.MGCTarget, cfg.Wire.MGTarget = mgc.LocalAddr().String(), mg.LocalAddr().String()
}

// TestWireRetransmission runs calls through a relay that loses each
// request and each reply once: every call succeeds by Annex D.1's
// retransmissions, the answering side answering a retransmitted request
// again, and each transaction counts its three retransmissions (two by
// the requester, one answer again).
func TestWireRetransmission(t *testing.T) {
	if testing.Short() {
		t.Skip("runs load for several seconds")
	}
	cfg := wireConfig(t, "udp", 10, time.Second)
	cfg.Codecs = Codecs{MGC: "ber", MG: "ber"}
	cfg.Wire.RetransmitInitial, cfg.Wire.RetransmitMax = 50*time.Millisecond, 200*time.Millisecond
	r := &lossyRelay{seen: map[string]bool{}}
	r.start(t, &cfg)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, sum := runLoad(t, ctx, cfg)
	f := res.Final
	if f.OK == 0 || f.FailedCalls() != 0 || f.OK != f.Started {
		t.Fatalf("want every call to succeed:\n%s", sum)
	}
	if tx := f.Msgs / 2; f.Retransmits < 3*tx {
		t.Errorf("%d retransmissions for %d transactions, each lost twice: want at least 3 each\n%s", f.Retransmits, tx, sum)
	}
	checkEnded(t, f)
}

// TestWireRequestMismatch runs calls through a relay that changes the
// MGC's requests on the way (its port in the message ID): the MG side,
// answering in its read loop, finds each differs from what the flow
// expects, and every call fails as a mismatch, none as lost.
func TestWireRequestMismatch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs load for a few seconds")
	}
	cfg := wireConfig(t, "udp", 10, time.Second)
	cfg.Codecs = Codecs{MGC: "compact", MG: "compact"}
	r := &lossyRelay{change: func(b []byte) {
		if i := bytes.Index(b, []byte("]:55555")); i >= 0 && bytes.Contains(b, []byte("T=")) {
			b[i+6] = '4'
		}
	}}
	r.start(t, &cfg)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, sum := runLoad(t, ctx, cfg)
	f := res.Final
	if f.Started == 0 || f.Failed[Mismatch] != f.Started || f.FailedCalls() != f.Started {
		t.Fatalf("want every call to fail as a mismatch:\n%s", sum)
	}
	for _, e := range res.Errors[Mismatch] {
		if !strings.Contains(e, "modify") || !strings.Contains(e, "differs") {
			t.Errorf("mismatch without the step and cause said: %s", e)
		}
	}
	checkEnded(t, f)
}
