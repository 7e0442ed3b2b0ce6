package load

import (
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/proxy"
	"megaco/internal/testbin"
)

// wireConfig is a run of rate calls per second for d over network, the
// generator's sockets on free ports.
func wireConfig(t *testing.T, network string, rate float64, d time.Duration) Config {
	return Config{
		Codecs: DefaultCodecs, Ramp: Ramp{Rate: rate, Period: time.Second},
		Duration: d, Timeout: 3 * time.Second, DecodeOutput: true,
		Wire: &Wire{Network: network, MGCListen: testbin.FreeAddr(t, network), MGListen: testbin.FreeAddr(t, network),
			RetransmitInitial: time.Second, RetransmitMax: 2 * time.Second},
	}
}

// flowCounts is what one call puts through the proxy, by direction and
// kind (the proxy's labels).
func flowCounts(t *testing.T) map[[2]string]int {
	t.Helper()
	f, err := LoadFlow()
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]string]int{}
	for i, st := range f.Steps {
		dir, kind := "mgc_to_mg", "request"
		if st.From == MG {
			dir = "mg_to_mgc"
		}
		if i%2 == 1 {
			kind = "reply"
		}
		want[[2]string{dir, kind}]++
	}
	return want
}

// TestWireThroughProxy runs the call flow at a modest rate through the
// proxy (in this process) over UDP and over TCP, compact text on the MGC
// side and BER on the MG side, and over UDP relaying BER both sides: no
// call fails, and the proxy's counters agree with the generator's.
func TestWireThroughProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs load for several seconds")
	}
	for _, tc := range []struct{ network, mgc, mg string }{
		{"udp", "compact", "ber"}, {"tcp", "compact", "ber"}, {"udp", "ber", "ber"},
	} {
		t.Run(tc.network+"-"+tc.mgc+"-"+tc.mg, func(t *testing.T) {
			cfg := wireConfig(t, tc.network, 20, 3*time.Second)
			cfg.Codecs = Codecs{MGC: tc.mgc, MG: tc.mg}
			reg := prometheus.NewRegistry()
			p, err := proxy.New(proxy.Config{
				MGC:      proxy.SideConfig{Codec: tc.mgc, Listen: proxy.Addr{Network: tc.network, Address: "127.0.0.1:0"}, Peer: proxy.Addr{Network: tc.network, Address: cfg.Wire.MGCListen}},
				MG:       proxy.SideConfig{Codec: tc.mg, Listen: proxy.Addr{Network: tc.network, Address: "127.0.0.1:0"}, Peer: proxy.Addr{Network: tc.network, Address: cfg.Wire.MGListen}},
				Registry: reg,
				// The generator checks each message byte for byte: the
				// peers' mIds must pass on unchanged.
				IdentityOff: true,
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Start(); err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			cfg.Wire.MGCTarget, cfg.Wire.MGTarget = p.ListenAddr(true).String(), p.ListenAddr(false).String()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, sum := runLoad(t, ctx, cfg)
			f := res.Final
			if f.OK == 0 || f.FailedCalls() != 0 || f.OK != f.Started || res.Unmatched != 0 || res.Late != 0 {
				t.Fatalf("want every call to succeed:\n%s", sum)
			}
			if f.Msgs != 28*f.OK {
				t.Errorf("%d messages for %d calls", f.Msgs, f.OK)
			}
			// Every message the generator counted went through the proxy
			// once, and each retransmission (over UDP, should the
			// machine stall for a second) once more.
			total := 0.0
			for k, n := range flowCounts(t) {
				got := promValue(t, reg, "megaco_proxy_messages_total", map[string]string{"direction": k[0], "kind": k[1], "outcome": "forwarded"})
				total += got
				if f.Retransmits == 0 && got != float64(n)*float64(f.OK) {
					t.Errorf("proxy forwarded %v %s %s, want %d x %d calls", got, k[0], k[1], n, f.OK)
				}
			}
			if total != float64(f.Msgs+f.Retransmits) {
				t.Errorf("proxy forwarded %v messages, the generator counted %d and %d retransmissions", total, f.Msgs, f.Retransmits)
			}
		})
	}
}

// promValue reads one counter series of a registry.
func promValue(t *testing.T, reg *prometheus.Registry, name string, labels map[string]string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	next:
		for _, m := range mf.Metric {
			for _, l := range m.Label {
				if v, ok := labels[l.GetName()]; ok && v != l.GetValue() {
					continue next
				}
			}
			return m.GetCounter().GetValue()
		}
	}
	return 0
}

// TestWireProxySIGTERM stops the real megaco proxy with SIGTERM in the
// middle of a run, while the generator's peers take 100 ms to answer each
// request (so that transactions are in flight): those complete (their
// replies still arrive, and the proxy logs that it drained with none
// unanswered), new requests are refused, and the calls they belong to fail
// as lost (UDP) or lost or transport (TCP), never hang, never mismatch.
func TestWireProxySIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the megaco binary")
	}
	bin := megacoBinary(t)
	for _, network := range []string{"udp", "tcp"} {
		t.Run(network, func(t *testing.T) { sigtermRun(t, bin, network) })
	}
}

func sigtermRun(t *testing.T, bin, network string) {
	cfg := wireConfig(t, network, 20, 5*time.Second)
	cfg.Timeout = 2 * time.Second
	cfg.Wire.AnswerDelay = 100 * time.Millisecond
	reg := prometheus.NewRegistry()
	cfg.Metrics = reg
	cfg.Wire.MGCTarget, cfg.Wire.MGTarget = testbin.FreeAddr(t, network), testbin.FreeAddr(t, network)
	u := func(a string) string { return network + "://" + a }
	cmd := exec.Command(bin, "proxy",
		"--mgc-listen", u(cfg.Wire.MGCTarget), "--mgc", u(cfg.Wire.MGCListen),
		"--mg-listen", u(cfg.Wire.MGTarget), "--mg", u(cfg.Wire.MGListen),
		"--http-addr", testbin.FreeAddr(t, "tcp"), "--drain-timeout", "10s",
		"--identity=off") // the generator checks the bytes, mIds included
	ready := make(chan struct{})
	logs := &watchLog{want: "proxy listening", seen: func() { close(ready) }}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-exited
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatalf("the proxy did not start:\n%s", logs.String())
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	okAtSignal := make(chan float64, 1)
	go func() {
		time.Sleep(3 * time.Second)
		_ = cmd.Process.Signal(syscall.SIGTERM)
		okAtSignal <- promValue(t, reg, "megaco_load_messages_total", map[string]string{"outcome": "ok"})
	}()
	res, sum := runLoad(t, ctx, cfg)
	if ctx.Err() != nil {
		t.Fatalf("the run did not end by itself:\n%s", sum)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("proxy: %v\n%s", err, logs.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the proxy did not exit after SIGTERM\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "msg=drained") {
		t.Errorf("the proxy did not drain every transaction in flight:\n%s", logs.String())
	}
	f := res.Final
	if before, after := <-okAtSignal, float64(f.Msgs-f.MsgsFailed); after <= before {
		t.Errorf("no message arrived after SIGTERM (%v before, %v in all): the transactions in flight did not complete\n%s", before, after, sum)
	} else {
		t.Logf("%v messages arrived after SIGTERM", after-before)
	}
	if f.OK == 0 {
		t.Errorf("no call succeeded before SIGTERM:\n%s", sum)
	}
	refused := f.Failed[Lost] + f.Failed[Transport]
	if refused == 0 {
		t.Errorf("no call was refused after SIGTERM:\n%s", sum)
	}
	if f.FailedCalls() != refused || res.Unmatched != 0 {
		t.Errorf("calls failed other than lost or refused:\n%s", sum)
	}
	checkEnded(t, f)
	for _, e := range res.Errors[Lost] {
		if !strings.Contains(e, "no answer within") {
			t.Errorf("lost call without the cause said: %s", e)
		}
	}
}
