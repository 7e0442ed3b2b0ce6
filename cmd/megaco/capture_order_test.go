package main

import (
	"bytes"
	"net/netip"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"megaco/internal/capture/pcapng"
	"megaco/internal/proxy"
	"megaco/internal/testbin"
)

// TestProxyCaptureOrder runs megaco load through a proxy with a capture,
// over UDP and TCP, and reads the capture as a user would: tshark finds no
// frame earlier than the one before it, and megaco pcap --stats pairs
// every request with its reply (0 unanswered, 0 replies without a
// request), as the run had no failed call.
func TestProxyCaptureOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("a load run: skipped in -short mode")
	}
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		t.Skip("tshark not found (apt-get install tshark)")
	}
	for _, network := range []string{"udp", "tcp"} {
		t.Run(network, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "proxy.pcapng")
			w, err := pcapng.Create(path, pcapng.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rec := pcapng.NewRecorder(w, pcapng.RecorderOptions{})
			a := testbin.FreeAddrs(t, network, 2)
			p := startProxy(t, network, a, rec)
			mgcT, mgT := p.ListenAddr(true).String(), p.ListenAddr(false).String()
			var out, errb bytes.Buffer
			// A long first retransmission timer: a busy machine's late
			// reply is not a retransmitted request, which would be
			// counted apart.
			args := []string{"load", "--transport", network, "-r", "200", "-m", "600", "-d", "0", "-q", "--timeout", "20s",
				"--mgc-listen", a[0], "--mg-listen", a[1], "--mgc-target", mgcT, "--mg-target", mgT}
			if network == "udp" {
				args = append(args, "--retransmit-initial", "10s", "--retransmit-max", "10s")
			}
			code := run(args, nil, &out, &errb)
			p.Close()
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			if started, ok, failed, _ := callCounts(t, out.String()); code != 0 || started != 600 || ok != 600 || failed != 0 {
				t.Fatalf("exit %d: started %d, successful %d, failed %d\n%s\n%s", code, started, ok, failed, out.String(), errb.String())
			}

			deltas, err := exec.Command(tshark, "-r", path, "-T", "fields", "-e", "frame.time_delta").Output()
			if err != nil {
				t.Fatalf("tshark: %v", err)
			}
			lines := strings.Fields(string(deltas))
			negative := 0
			for _, l := range lines {
				if strings.HasPrefix(l, "-") {
					negative++
				}
			}
			if negative > 0 || len(lines) < 4*600 {
				t.Errorf("tshark: %d frames, %d with a negative time delta", len(lines), negative)
			}

			pargs := []string{"pcap", "--stats"}
			for _, addr := range append(a, mgcT, mgT) {
				pargs = append(pargs, "--port", strconv.Itoa(int(netip.MustParseAddrPort(addr).Port())))
			}
			var stats, perr bytes.Buffer
			if code := run(append(pargs, path), nil, &stats, &perr); code != 0 {
				t.Fatalf("pcap --stats: exit %d\n%s", code, perr.String())
			}
			m := regexp.MustCompile(`requests (\d+), replies (\d+), unanswered (\d+), .* replies without a request (\d+)`).FindStringSubmatch(stats.String())
			if m == nil || m[3] != "0" || m[4] != "0" || m[1] == "0" || m[1] != m[2] {
				t.Fatalf("pcap --stats: want every request answered, no reply without a request:\n%s", stats.String())
			}
			t.Logf("%d frames; %s", len(lines), m[0])
		})
	}
}

// startProxy starts a proxy in this process on loopback, over network,
// between an MGC (compact) at peers[0] and an MG (BER) at peers[1], with
// capture if not nil; it is closed when the test ends.
func startProxy(t *testing.T, network string, peers []string, capture proxy.Capturer) *proxy.Proxy {
	t.Helper()
	p, err := proxy.New(proxy.Config{MGC: loopbackSide(network, "compact", peers[0]), MG: loopbackSide(network, "ber", peers[1]),
		Registry: prometheus.NewRegistry(), Capture: capture,
		// The load generator compares each message with what it sent,
		// byte for byte: the peers' mIds must pass on unchanged.
		IdentityOff: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// loopbackSide is a proxy side listening on a free loopback port of
// network, whose peer speaks codec at peer.
func loopbackSide(network, codec, peer string) proxy.SideConfig {
	return proxy.SideConfig{Codec: codec, Listen: proxy.Addr{Network: network, Address: "127.0.0.1:0"}, Peer: proxy.Addr{Network: network, Address: peer}}
}
