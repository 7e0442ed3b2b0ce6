package main

import (
	"bytes"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"megaco/internal/capture/pcapng"
	"megaco/internal/server/servertest"
	"megaco/internal/testbin"
)

// TestLoadPcap replays a capture of the RFC 3525 call flow (the load
// generator's BER templates, termination IDs in layout form) on port
// 3000 through the service in this process, paced and at the capture's
// timing: each of the 28 messages is a successful call.
func TestLoadPcap(t *testing.T) {
	path := flowCapture(t)
	addr := servertest.Start(t, nil)
	for _, extra := range [][]string{nil, {"-r", "100"}} {
		var out, errb bytes.Buffer
		args := append([]string{"load", "--target", addr, "--pcap", path, "--pcap-port", "3000", "-q"}, extra...)
		if code := run(args, nil, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d\n%s\n%s", extra, code, out.String(), errb.String())
		}
		started, ok, failed, aborted := callCounts(t, out.String())
		if started != 28 || ok != 28 || failed != 0 || aborted != 0 {
			t.Errorf("%v: started %d, successful %d, failed %d, aborted %d:\n%s", extra, started, ok, failed, aborted, out.String())
		}
		for _, want := range []string{"capture replay, 28 messages", "ServiceChangeReply", "messages: 28 "} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%v: the summary has no %q:\n%s", extra, want, out.String())
			}
		}
	}
	// Without --pcap-port the capture has no Megaco; a missing file,
	// --pcap-mgc through the service, --pcap-port or --pcap-mgc alone are
	// errors.
	for _, bad := range [][]string{
		{"--pcap", path},
		{"--pcap", path + ".missing"},
		{"--pcap", path, "--pcap-port", "3000", "--pcap-mgc", "10.0.0.1"},
		{"--pcap-mgc", "10.0.0.1"},
		{"--pcap-port", "3000"},
		{"--pcap", path, "--pcap-port", "70000"},
	} {
		var errb bytes.Buffer
		if code := run(append([]string{"load", "--target", addr, "-q"}, bad...), nil, &bytes.Buffer{}, &errb); code == 0 {
			t.Errorf("%v: exit 0", bad)
		} else {
			t.Logf("%v: exit %d: %s", bad, code, strings.TrimSpace(errb.String()))
		}
	}
}

// flowCapture writes the RFC 3525 call flow (the load generator's BER
// templates, termination IDs in layout form) as a capture on ports 3000
// (the MGC) and 3001, 5 ms apart.
func flowCapture(t *testing.T) string {
	t.Helper()
	files, err := filepath.Glob("../../internal/load/flow/a1-*.ber")
	if err != nil || len(files) != 28 {
		t.Fatalf("call flow templates: %d, %v", len(files), err)
	}
	path := filepath.Join(t.TempDir(), "flow.pcapng")
	w, err := pcapng.Create(path, pcapng.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mgc, mg := netip.MustParseAddrPort("10.0.0.1:3000"), netip.MustParseAddrPort("10.0.0.2:3001")
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src, dst := mg, mgc
		if strings.Contains(f, "-mgc-to-") {
			src, dst = mgc, mg
		}
		if err := w.UDP(at.Add(time.Duration(i)*5*time.Millisecond), src, dst, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoadPcapProxy replays the same capture through a proxy over UDP
// and TCP, the MGC named by --pcap-mgc: 14 transactions, each request and
// its captured reply arriving as this program transcodes them.
func TestLoadPcapProxy(t *testing.T) {
	path := flowCapture(t)
	for _, network := range []string{"udp", "tcp"} {
		t.Run(network, func(t *testing.T) {
			a := testbin.FreeAddrs(t, network, 2)
			p := startProxy(t, network, a, nil)
			var out, errb bytes.Buffer
			args := []string{"load", "--pcap", path, "--pcap-port", "3000", "--pcap-mgc", "10.0.0.1", "-q", "--transport", network,
				"--mgc-listen", a[0], "--mg-listen", a[1], "--mgc-target", p.ListenAddr(true).String(), "--mg-target", p.ListenAddr(false).String()}
			if code := run(args, nil, &out, &errb); code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
			}
			if started, ok, failed, _ := callCounts(t, out.String()); started != 14 || ok != 14 || failed != 0 {
				t.Errorf("started %d, successful %d, failed %d:\n%s", started, ok, failed, out.String())
			}
			for _, want := range []string{"capture replay, 14 transactions", "messages: 28 ", "NotifyReply"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("the summary has no %q:\n%s", want, out.String())
				}
			}
		})
	}
}
