package pcapng_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"megaco/internal/capture"
	"megaco/internal/capture/pcapng"
)

func tpkt(m []byte) []byte {
	return append([]byte{3, 0, byte((len(m) + 4) >> 8), byte(len(m) + 4)}, m...)
}

func read(t *testing.T, r io.Reader) []capture.Message {
	t.Helper()
	cr, err := capture.NewReader(r, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []capture.Message
	for {
		m, err := cr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
}

func msg(i int) []byte {
	return fmt.Appendf(nil, "!/1 [10.0.0.1]:2944\nT=%d{C=-{N=ROOT{OE=1{al/of}}}}\n", i)
}

// TestRoundTrip writes UDP and TCP over IPv4 and IPv6 and reads it back,
// with tshark too when it is there.
func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w, err := pcapng.NewWriter(&buf, pcapng.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mgc4, mg4 := netip.MustParseAddrPort("10.0.0.1:40000"), netip.MustParseAddrPort("10.0.0.2:2944")
	mgc6, mg6 := netip.MustParseAddrPort("[2001:db8::1]:2944"), netip.MustParseAddrPort("[2001:db8::2]:2944")
	at := time.Date(2026, 1, 2, 10, 0, 0, 123456789, time.UTC)
	type sent struct {
		src, dst  netip.AddrPort
		transport string
	}
	var want []sent
	for i := range 12 {
		src, dst := mgc4, mg4
		if i%2 == 1 {
			src, dst = mg4, mgc4
		}
		if i%3 == 0 {
			src, dst = mgc6, mg6
		}
		ts := at.Add(time.Duration(i) * time.Millisecond)
		if i%4 < 2 {
			err = w.UDP(ts, src, dst, msg(i))
			want = append(want, sent{src, dst, "udp"})
		} else {
			err = w.TCP(ts, src, dst, tpkt(msg(i)))
			want = append(want, sent{src, dst, "tcp"})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := read(t, bytes.NewReader(buf.Bytes()))
	if len(got) != len(want) {
		t.Fatalf("%d messages, want %d", len(got), len(want))
	}
	for i, m := range got {
		w := want[i]
		if m.Src != w.src || m.Dst != w.dst || m.Transport != w.transport || !bytes.Equal(m.Data, msg(i)) || !m.Time.Equal(at.Add(time.Duration(i)*time.Millisecond)) {
			t.Errorf("message %d: %s %s -> %s at %s %q; want %+v", i, m.Transport, m.Src, m.Dst, m.Time, m.Data, w)
		}
	}
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Log("tshark not found (Debian: tshark): not checked with tshark")
		return
	}
	file := filepath.Join(t.TempDir(), "w.pcapng")
	os.WriteFile(file, buf.Bytes(), 0o644)
	out, err := exec.Command("tshark", "-n", "-r", file, "-T", "fields", "-e", "megaco.transid", "-e", "udp.checksum.status", "-e", "tcp.checksum.status", "-o", "udp.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(want) {
		t.Fatalf("tshark: %d packets, want %d:\n%s", len(lines), len(want), out)
	}
	for i, l := range lines {
		f := strings.Split(l, "\t")
		if f[0] != fmt.Sprint(i) || (f[1] != "1" && f[2] != "1") { // 1: checksum good
			t.Errorf("tshark packet %d: %q", i, l)
		}
	}
}

// TestMaxBytes: without rotation, a full file refuses packets and counts
// them.
func TestMaxBytes(t *testing.T) {
	file := filepath.Join(t.TempDir(), "max.pcapng")
	w, err := pcapng.Create(file, pcapng.Options{MaxBytes: 2000})
	if err != nil {
		t.Fatal(err)
	}
	a, b := netip.MustParseAddrPort("10.0.0.1:2944"), netip.MustParseAddrPort("10.0.0.2:2944")
	full := 0
	for i := range 50 {
		if err := w.UDP(time.Now(), a, b, msg(i)); errors.Is(err, pcapng.ErrFull) {
			full++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	st, _ := os.Stat(file)
	if st.Size() > 2000 || full == 0 || int(w.Dropped()) != full {
		t.Errorf("size %d, %d refused, %d dropped", st.Size(), full, w.Dropped())
	}
	f, _ := os.Open(file)
	defer f.Close()
	if n := len(read(t, f)); n != 50-full {
		t.Errorf("%d messages in the file, want %d", n, 50-full)
	}
}

// TestRotation: files rotate at the size bound and only Keep old ones stay,
// each a whole capture.
func TestRotation(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "rot.pcapng")
	w, err := pcapng.Create(file, pcapng.Options{MaxBytes: 1500, Keep: 2})
	if err != nil {
		t.Fatal(err)
	}
	a, b := netip.MustParseAddrPort("10.0.0.1:2944"), netip.MustParseAddrPort("10.0.0.2:2944")
	for i := range 100 {
		if err := w.UDP(time.Now(), a, b, msg(i)); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(names) != 3 {
		t.Fatalf("files %v, want rot.pcapng, .1 and .2", names)
	}
	last := -1
	for _, n := range []string{file + ".2", file + ".1", file} {
		st, _ := os.Stat(n)
		if st.Size() > 1500 {
			t.Errorf("%s: %d bytes", n, st.Size())
		}
		f, _ := os.Open(n)
		for _, m := range read(t, f) { // in order across the files
			var id int
			fmt.Sscanf(string(m.Data[strings.Index(string(m.Data), "T=")+2:]), "%d", &id)
			if id <= last {
				t.Errorf("%s: message %d after %d", n, id, last)
			}
			last = id
		}
		f.Close()
	}
	if last != 99 {
		t.Errorf("last message %d", last)
	}
}
