package load

import (
	"bytes"
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"megaco/internal/capture/pcapng"
	"megaco/internal/codec"
	"megaco/internal/server/servertest"
)

var (
	mgcAddr = netip.MustParseAddrPort("127.0.0.1:2944")
	mgAddr  = netip.MustParseAddrPort("127.0.0.1:2945")
)

// writeCapture writes files (in name order) as UDP datagrams 10 ms apart,
// from the MGC when pick says so, and returns the capture.
func writeCapture(t testing.TB, files []string, fromMGC func(string) bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := pcapng.NewWriter(&buf, pcapng.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src, dst := mgAddr, mgcAddr
		if fromMGC(f) {
			src, dst = dst, src
		}
		if err := w.UDP(at.Add(time.Duration(i)*10*time.Millisecond), src, dst, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// compactCopies writes each BER file as compact text in a temporary
// directory, under the same name.
func compactCopies(t *testing.T, files []string) []string {
	t.Helper()
	dir := t.TempDir()
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		txt, _, err := codec.Transcode(nil, data, "ber", "compact", Options())
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		p := filepath.Join(dir, strings.TrimSuffix(filepath.Base(f), ".ber")+".txt")
		if err := os.WriteFile(p, txt, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func globSorted(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: %v (%d files)", pattern, err, len(files))
	}
	sort.Strings(files)
	return files
}

// TestReplayCapture replays captures of the RFC 3525 call flow (text) and
// of the OTP test messages (BER and compact text) through an in-process
// service, at the capture's timing and at a fixed rate: every message is
// sent, transcoded as this library does, and counted.
func TestReplayCapture(t *testing.T) {
	addr := servertest.Start(t, nil)
	// The RFC 3525 call flow (corpus/appendix-a/corrected) with its
	// termination IDs in layout form, as BER (the call flow's templates)
	// and as compact text: names such as A4444 need a names file.
	a1 := globSorted(t, "flow/a1-*.ber")
	a1text := compactCopies(t, a1)
	otp := append(globSorted(t, "../../corpus/otp-time-test/*.ber"), globSorted(t, "../../corpus/otp-time-test/*.compact.txt")...)
	if len(otp) > 200 {
		otp = otp[:200]
	}
	cases := []struct {
		name  string
		files []string
		paced bool
	}{
		{"appendix-a timing", a1, false},
		{"appendix-a paced", a1, true},
		{"appendix-a text", a1text, false},
		{"otp-time-test timing", otp, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pcap := writeCapture(t, tc.files, func(f string) bool { return strings.Contains(f, "-mgc-to-") })
			rp, err := ReadReplay(bytes.NewReader(pcap), nil, DefaultCodecs)
			if err != nil {
				t.Fatal(err)
			}
			if len(rp.Msgs) != len(tc.files) || len(rp.Skipped) != 0 {
				t.Fatalf("%d messages of %d read, skipped %q", len(rp.Msgs), len(tc.files), rp.Skipped)
			}
			cfg := baseConfig(addr)
			cfg.Replay, rp.Paced = rp, tc.paced
			cfg.Ramp.Rate = 200
			var stat bytes.Buffer
			cfg.Stat = &stat
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, out := runLoad(t, ctx, cfg)
			n := int64(len(tc.files))
			if c := res.Final; c.Started != n || c.OK != n || c.FailedCalls() != 0 || c.Msgs != n {
				t.Fatalf("started %d, ok %d, failed %d, messages %d; want %d each and no failure\n%s", c.Started, c.OK, c.FailedCalls(), c.Msgs, n, out)
			}
			var perType uint64
			for _, h := range res.Final.Types {
				perType += h.Count
			}
			if perType != uint64(n) {
				t.Errorf("per-type counts add up to %d, want %d", perType, n)
			}
			if !strings.Contains(stat.String(), rp.Types[0]) {
				t.Errorf("the CSV does not name the type %s:\n%s", rp.Types[0], stat.String())
			}
		})
	}
}

// TestReplayBadCapture: a file that is not a capture, or one without
// Megaco, is a clear error.
func TestReplayBadCapture(t *testing.T) {
	if _, err := ReadReplay(strings.NewReader("not a capture"), nil, DefaultCodecs); err == nil {
		t.Error("a text file read as a capture")
	}
	var buf bytes.Buffer
	w, err := pcapng.NewWriter(&buf, pcapng.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.UDP(time.Now(), mgAddr, mgcAddr, []byte("not megaco")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	rp, err := ReadReplay(bytes.NewReader(buf.Bytes()), nil, DefaultCodecs)
	if err == nil || !strings.Contains(err.Error(), "no Megaco message") {
		t.Errorf("a capture without Megaco: %v, %+v", err, rp)
	}
}
