package stats_test

import (
	"bytes"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"megaco/internal/capture/stats"
	"megaco/internal/codec"
)

// corpus is every message of the repository's corpus in every codec it
// has (text, BER, PER) that decodes.
func corpus(t testing.TB) [][]byte {
	t.Helper()
	var out [][]byte
	for _, pat := range []string{"../../../corpus/otp-time-test/*.*", "../../../corpus/appendix-a/*/*.txt", "../../../corpus/appendix-a/*.txt"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := codec.DecodeAs(b, "auto", codec.InputForm, codec.Options{}); err == nil {
				out = append(out, b)
			}
		}
	}
	if len(out) < 300 {
		t.Fatalf("%d corpus messages", len(out))
	}
	return out
}

// adder counts message m in st.
type adder func(st *stats.Stats, at time.Time, src, dst netip.AddrPort, m []byte) error

// statsBy feeds the messages, in order and in alternating directions, to
// fresh statistics through summary, and returns its printed output.
func statsBy(t *testing.T, msgs [][]byte, add adder) string {
	t.Helper()
	st := stats.New()
	for i, m := range msgs {
		src, dst := mgc, mg
		if i%2 == 1 {
			src, dst = mg, mgc
		}
		if err := add(st, base.Add(time.Duration(i*i%997)*time.Millisecond), src, dst, m); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	var b bytes.Buffer
	if err := st.Write(&b); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s%+v", b.String(), st.ByCommand())
}

// TestScanAgreesWithDecode: the statistics of the whole corpus are the
// same from the scanners (the codecs that have one) as from full decodes.
func TestScanAgreesWithDecode(t *testing.T) {
	msgs := corpus(t)
	z := &stats.Summarizer{From: "auto"}
	scanned := statsBy(t, msgs, func(st *stats.Stats, at time.Time, src, dst netip.AddrPort, m []byte) error {
		sum, _, err := z.Summarize(m)
		if err == nil {
			st.Add(at, src, dst, sum)
		}
		return err
	})
	decoded := statsBy(t, msgs, func(st *stats.Stats, at time.Time, src, dst netip.AddrPort, m []byte) error {
		dm, name, err := codec.DecodeAs(m, "auto", codec.InputForm, codec.Options{})
		if err == nil {
			st.Add(at, src, dst, z.FromModel(dm, name))
		}
		return err
	})
	if scanned != decoded {
		t.Errorf("scanned:\n%s\ndecoded:\n%s", scanned, decoded)
	}
	t.Logf("%d messages:\n%s", len(msgs), scanned)
}

// FuzzAdd: whatever the bytes, a message is summarized or refused with an
// error, and counting a summary does not panic.
func FuzzAdd(f *testing.F) {
	for _, m := range corpus(f) {
		f.Add(m)
	}
	st, z := stats.New(), &stats.Summarizer{From: "auto"}
	f.Fuzz(func(t *testing.T, data []byte) {
		sum, _, err := z.Summarize(data)
		if err == nil {
			st.Add(base, mgc, mg, sum)
			st.Add(base, mg, mgc, sum)
		}
	})
}
