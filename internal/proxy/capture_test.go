package proxy

import (
	"bytes"
	"errors"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"megaco/internal/capture"
	"megaco/internal/capture/pcapng"
	"megaco/internal/codec"
)

// TestCapture: --capture writes what the proxy carries, the message in
// (sender's codec) and the message out (receiver's), with the real
// addresses and ports, as a pcapng file that the capture reader (and so
// megaco pcap and Wireshark) reads back.
func TestCapture(t *testing.T) {
	for _, nets := range [][2]string{{"udp", "udp"}, {"tcp", "tcp"}} {
		t.Run(nets[0]+"-"+nets[1], func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "proxy.pcapng")
			w, err := pcapng.Create(path, pcapng.Options{MaxBytes: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			rec := pcapng.NewRecorder(w, pcapng.RecorderOptions{})
			r := setup(t, "compact", nets[0], "ber", nets[1], func(c *Config) { c.Capture = rec })
			pass(t, r.mgc, r.mg, "msg01a.compact.txt", "msg01a.ber")
			pass(t, r.mg, r.mgc, "msg06a.ber", "msg06a.compact.txt")
			r.wantCount(t, "mg_to_mgc", "reply", "forwarded", 1)
			r.p.Close()
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			got := readCapture(t, path, r)
			want := []string{"msg01a.compact.txt", "msg01a.ber", "msg06a.ber", "msg06a.compact.txt"}
			if len(got) != len(want) {
				t.Fatalf("%d messages in the capture, want %d", len(got), len(want))
			}
			mgcListen := netip.MustParseAddrPort(r.mgc.proxyAddr)
			byFile := map[string]capture.Message{}
			for _, m := range got {
				if _, err := codec.Detect(m.Data); err != nil || m.Transport != nets[0] && m.Transport != nets[1] {
					t.Errorf("%s message from %v: %v", m.Transport, m.Src, err)
				}
				for _, f := range want {
					if bytes.Equal(m.Data, corpusFile(t, f)) {
						byFile[f] = m
					}
				}
			}
			if len(byFile) != len(want) {
				t.Fatalf("the capture has %d of the %d messages in and out", len(byFile), len(want))
			}
			in, out := byFile["msg01a.compact.txt"], byFile["msg06a.compact.txt"]
			if in.Dst != mgcListen || out.Src != mgcListen {
				t.Errorf("MGC side: %v -> %v in, %v -> %v out; the proxy listens on %v", in.Src, in.Dst, out.Src, out.Dst, mgcListen)
			}
		})
	}
}

// readCapture reads every Megaco message of a capture made on the rig's
// ports.
func readCapture(t *testing.T, path string, r *rig) []capture.Message {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ports []uint16
	// The proxy's listening ports, and the peers' (a TCP connection the
	// proxy dials to a peer has an ephemeral port on the proxy's end).
	for _, a := range []string{r.mgc.proxyAddr, r.mg.proxyAddr, r.mgc.addr().Address, r.mg.addr().Address} {
		ports = append(ports, netip.MustParseAddrPort(a).Port())
	}
	rd, err := capture.NewReader(f, capture.Options{Ports: ports})
	if err != nil {
		t.Fatal(err)
	}
	var out []capture.Message
	for {
		m, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("reading the capture: %v", err)
		}
		out = append(out, m)
	}
}
