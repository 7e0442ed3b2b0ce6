package ber

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// corpusDir is OTP's benchmark corpus: each message as OTP encodes it.
const corpusDir = "../../../corpus/otp-time-test"

func corpusFiles(t testing.TB, ext string) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(corpusDir, "*"+ext))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no %s files in %s: %v", ext, corpusDir, err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ext)] = b
	}
	return out
}

func sortedKeys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestCorpusRoundTrip decodes every golden .ber and re-encodes it: the
// bytes must be OTP's, byte for byte.
func TestCorpusRoundTrip(t *testing.T) {
	files := corpusFiles(t, ".ber")
	decoded, exact := 0, 0
	for _, name := range sortedKeys(files) {
		data := files[name]
		m, err := Decode(data, Options{})
		if err != nil {
			t.Errorf("%s: decode: %v", name, err)
			continue
		}
		decoded++
		out, err := Append(nil, m, Options{})
		if err != nil {
			t.Errorf("%s: encode: %v", name, err)
			continue
		}
		if !bytes.Equal(out, data) {
			t.Errorf("%s: re-encoding differs\n got %x\nwant %x", name, out, data)
			continue
		}
		exact++
	}
	t.Logf("BER: decoded %d/%d, re-encoded byte for byte %d/%d", decoded, len(files), exact, len(files))
	if len(files) != 149 {
		t.Errorf("corpus has %d .ber files, want 149", len(files))
	}
}
