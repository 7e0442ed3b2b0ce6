package ber

import (
	"bytes"
	"testing"

	"megaco/internal/corpus"
)

// TestCorpusRoundTrip decodes every golden .ber and re-encodes it: the
// bytes must be OTP's, byte for byte.
func TestCorpusRoundTrip(t *testing.T) {
	files := corpus.Files(t, ".ber")
	decoded, exact := 0, 0
	for _, name := range corpus.Names(files) {
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
