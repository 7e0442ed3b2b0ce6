package codec

import (
	"bytes"
	"testing"

	"megaco/internal/corpus"
)

// FuzzTranscode runs anything through the service's path: detection, a
// transient decode, the text <-> binary mapping and every encoder. It must
// never panic; whatever an encoder writes must read back in the same codec
// and write the same bytes again (no codec emits what it cannot read).
func FuzzTranscode(f *testing.F) {
	for _, ext := range []string{".ber", ".per", ".compact.txt", ".pretty.txt"} {
		files := corpus.Files(f, ext)
		for i, name := range corpus.Names(files) {
			if i%7 == 0 { // a spread of messages, not all 149 of each
				f.Add(files[name])
			}
		}
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
	})
}
