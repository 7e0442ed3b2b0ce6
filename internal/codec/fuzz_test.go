package codec

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"megaco/internal/corpus"
)

// FuzzTranscode runs anything through the service's path: detection, a
// transient decode, the text <-> binary mapping and every encoder. It must
// never panic; whatever an encoder writes must read back in the same codec
// and write the same bytes again (no codec emits what it cannot read); and
// a text message that has a BER form must keep it through text -> BER ->
// text -> BER, byte for byte (a field dropped or invented on the way would
// show).
func FuzzTranscode(f *testing.F) {
	for _, ext := range []string{".ber", ".per", ".compact.txt", ".pretty.txt"} {
		files := corpus.Files(f, ext)
		for i, name := range corpus.Names(files) {
			if i%7 == 0 { // a spread of messages, not all 149 of each
				f.Add(files[name])
			}
		}
	}
	// Messages written from the grammar's productions (text/seeds_test.go).
	seeds, _ := filepath.Glob(filepath.Join("text", "testdata", "grammar", "*.txt"))
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	targets := []string{"ber", "per", "compact", "pretty", "native"}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, to := range targets {
			out, res, err := Transcode(nil, data, "auto", to, Options{})
			if err != nil {
				continue
			}
			again, _, err := Transcode(nil, out, to, to, Options{})
			if err != nil {
				t.Fatalf("%s -> %s gave output that does not read back: %v\n%q", res.From, to, err, out)
			}
			if !bytes.Equal(again, out) {
				t.Fatalf("%s -> %s is not stable:\n%q\n%q", res.From, to, out, again)
			}
		}
		fuzzTextBERStable(t, data)
	})
}

// fuzzTextBERStable checks that text -> BER -> text -> BER gives the same
// BER twice, for a text message that has a BER form.
func fuzzTextBERStable(t *testing.T, data []byte) {
	ber1, res, err := Transcode(nil, data, "auto", "ber", Options{})
	if err != nil || (res.From != "pretty" && res.From != "compact") {
		return
	}
	text, _, err := Transcode(nil, ber1, "ber", res.From, Options{})
	if err != nil {
		t.Fatalf("%s -> ber -> %s: %v\n%q", res.From, res.From, err, data)
	}
	ber2, _, err := Transcode(nil, text, res.From, "ber", Options{})
	if err != nil {
		t.Fatalf("%s -> ber -> %s -> ber: %v\n%q", res.From, res.From, err, text)
	}
	if !bytes.Equal(ber1, ber2) {
		t.Fatalf("%s -> ber -> %s -> ber changed the BER:\n%x\n%x\n%q", res.From, res.From, ber1, ber2, text)
	}
}
