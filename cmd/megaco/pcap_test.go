package main

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"megaco/internal/capture/pcapng"
	"megaco/internal/codec"
)

// pcapFixture writes a capture: a compact request over UDP, its reply in
// BER over TCP (TPKT), a message that does not decode, on port 3000.
func pcapFixture(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "c.pcapng")
	w, err := pcapng.Create(file, pcapng.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mgc, mg := netip.MustParseAddrPort("10.0.0.1:2944"), netip.MustParseAddrPort("10.0.0.2:2944")
	at := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	req := []byte("!/1 [10.0.0.1]:2944\nT=7{C=-{N=11111111/00000000/00000000{OE=1{al/of}}}}\n")
	rep, _, err := codec.Transcode(nil, []byte("!/1 [10.0.0.2]:2944\nP=7{C=-{N=11111111/00000000/00000000}}\n"), "compact", "ber", codec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.UDP(at, mgc, mg, req)
	w.TCP(at.Add(1500*time.Microsecond), mg, mgc, append([]byte{3, 0, 0, byte(len(rep) + 4)}, rep...))
	w.UDP(at.Add(2*time.Millisecond), netip.MustParseAddrPort("10.0.0.1:5000"), netip.MustParseAddrPort("10.0.0.2:3000"), []byte("MEGACO/1 [10.0.0.1] Transaction = { }"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestPcapCommand(t *testing.T) {
	file := pcapFixture(t)

	code, out, stderr := runCLI(t, nil, "pcap", file)
	want := "frame 1  2026-01-02T10:00:00.000000Z  10.0.0.1:2944 -> 10.0.0.2:2944  udp  compact\nMEGACO/1 [10.0.0.1]:2944\n"
	if code != 0 || !strings.HasPrefix(string(out), want) || !strings.Contains(string(out), "frame 2  2026-01-02T10:00:00.001500Z  10.0.0.2:2944 -> 10.0.0.1:2944  tcp  ber\nMEGACO/1 [10.0.0.2]:2944\nReply = 7") {
		t.Errorf("exit %d, stderr %q, output:\n%s", code, stderr, out)
	}
	if !strings.Contains(stderr, "3 frames, 2 Megaco messages, 0 problems") {
		t.Errorf("stderr %q", stderr)
	}

	// With the third message's port: it is reported and skipped.
	code, out, stderr = runCLI(t, nil, "pcap", "--output", "compact", "--port", "3000", file)
	if code != 0 || strings.Count(string(out), "frame ") != 2 || !strings.Contains(stderr, "frame 3: 10.0.0.1:5000 -> 10.0.0.2:3000 udp: pretty: ") {
		t.Errorf("exit %d, stderr %q, output:\n%s", code, stderr, out)
	}

	code, out, _ = runCLI(t, nil, "pcap", "--output", "json", "--form", "text", file)
	dec := json.NewDecoder(bytes.NewReader(out))
	var objs []map[string]any
	for dec.More() {
		var o map[string]any
		if err := dec.Decode(&o); err != nil {
			t.Fatalf("json: %v\n%s", err, out)
		}
		objs = append(objs, o)
	}
	if code != 0 || len(objs) != 2 || objs[1]["frame"] != 2.0 || objs[1]["transport"] != "tcp" || objs[1]["codec"] != "ber" ||
		objs[0]["time"] != "2026-01-02T10:00:00Z" || objs[0]["src"] != "10.0.0.1:2944" || !strings.Contains(string(out), "al/of") {
		t.Errorf("json: exit %d, output:\n%s", code, out)
	}

	code, out, stderr = runCLI(t, nil, "pcap", "--stats", file)
	if code != 0 || !strings.Contains(strings.Join(strings.Fields(string(out)), " "), "notify 1 1.500 1.500") || !strings.Contains(string(out), "unanswered 0") {
		t.Errorf("stats: exit %d, stderr %q, output:\n%s", code, stderr, out)
	}

	dir := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := runCLI(t, nil, "pcap", "--write-dir", dir, "--write-codec", "per", file); code != 0 {
		t.Fatalf("write-dir: exit %d, %s", code, stderr)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(names) != 2 || filepath.Base(names[0]) != "000001-0.per" || filepath.Base(names[1]) != "000002-0.per" {
		t.Fatalf("files %v", names)
	}
	for _, n := range names {
		b, _ := os.ReadFile(n)
		if _, _, err := codec.DecodeAs(b, "per", codec.InputForm, codec.Options{}); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}

	// From standard input.
	in, _ := os.ReadFile(file)
	if code, out, stderr := runCLI(t, in, "pcap", "--output", "compact", "-"); code != 0 || strings.Count(string(out), "frame ") != 2 {
		t.Errorf("stdin: exit %d, %s\n%s", code, stderr, out)
	}

	if code, out, _ := runCLI(t, nil, "pcap", "-h"); code != 0 {
		t.Errorf("-h: exit %d", code)
	} else if _, _, errOut := runCLI(t, nil, "pcap", "-h"); !strings.Contains(errOut, "usage: megaco pcap") {
		t.Errorf("-h: %q %q", out, errOut)
	}
	for _, args := range [][]string{{"pcap"}, {"pcap", "--output", "xml", file}, {"pcap", "--port", "0", file}, {"pcap", "--write-codec", "ber", file}} {
		if code, _, _ := runCLI(t, nil, args...); code == 0 {
			t.Errorf("%v: exit 0", args)
		}
	}
	if code, _, stderr := runCLI(t, nil, "pcap", "/nonexistent.pcap"); code != 1 || stderr == "" {
		t.Errorf("missing file: exit %d", code)
	}
}

// TestPcapUnreadPorts: the ports that carried data pcap did not read are
// named, with the packets on each and the --port flags to read them; with
// those flags everything is read and nothing is named.
func TestPcapUnreadPorts(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.pcapng")
	w, err := pcapng.Create(file, pcapng.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	msg := func(i int) []byte {
		return []byte("!/1 [10.0.0.1]:2944\nT=" + strconv.Itoa(i) + "{C=-{N=ROOT{OE=1{al/of}}}}\n")
	}
	ap := netip.MustParseAddrPort
	w.UDP(at, ap("10.0.0.1:2944"), ap("10.0.0.2:40000"), msg(1))
	for i := range 3 { // the other side of a proxy, off Megaco's ports
		w.UDP(at, ap("10.0.0.2:3945"), ap("10.0.0.3:3946"), msg(2+i))
	}
	m := msg(5)
	w.TCP(at, ap("10.0.0.4:45000"), ap("10.0.0.5:5000"), append([]byte{3, 0, 0, byte(len(m) + 4)}, m...))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, nil, "pcap", file)
	want := "not read: packets with data on ports other than 2944, 2945: udp 3945 (3 packets), tcp 5000 (1 packet); if they carry Megaco, add --port 3945 --port 5000\n"
	if code != 0 || !strings.Contains(stderr, "5 frames, 1 Megaco messages") || !strings.HasSuffix(stderr, want) {
		t.Errorf("exit %d, stderr %q, want it to end with %q", code, stderr, want)
	}
	code, _, stderr = runCLI(t, nil, "pcap", "--port", "3945", "--port", "5000", file)
	if code != 0 || !strings.Contains(stderr, "5 frames, 5 Megaco messages, 0 problems") || strings.Contains(stderr, "not read") {
		t.Errorf("with --port: exit %d, stderr %q", code, stderr)
	}
}
