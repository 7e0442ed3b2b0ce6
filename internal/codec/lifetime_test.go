package codec

import (
	"bytes"
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/corpus"
)

// TestDecodeLifetime holds every codec to the lifetimes its APIs document.
// Strings and byte fields of a decoded message alias decoder memory
// (unsafe.String over a buffer), so the guarantees are about memory:
//
//   - Codec.Decode: the message has memory of its own. Overwriting the
//     input afterwards, and any number of reused decodes after it, leave
//     it as it was.
//   - Reusing.DecodeReused: the message is valid until release; a decode
//     by another codec value meanwhile does not touch it. After release
//     it must not be used (not testable: its memory is the next decode's).
func TestDecodeLifetime(t *testing.T) {
	ext := map[string]string{"ber": ".ber", "per": ".per", "compact": ".compact.txt", "pretty": ".pretty.txt"}
	names := []string{"msg03", "msg10", "msg22a", "msg05"}
	for _, d := range All() {
		t.Run(d.Name, func(t *testing.T) {
			inputs := map[string][]byte{}
			for _, n := range names {
				if e, ok := ext[d.Name]; ok {
					inputs[n] = corpus.Files(t, e)[n]
					continue
				}
				// Codecs without corpus files: the BER message transcoded.
				out, _, err := Transcode(nil, corpus.Files(t, ".ber")[n], "ber", d.Name, Options{})
				if err != nil {
					t.Fatal(err)
				}
				inputs[n] = out
			}
			c := d.New(0, limits.Default)
			other := d.New(0, limits.Default)
			first := bytes.Clone(inputs[names[0]])
			kept, err := c.Decode(first)
			if err != nil {
				t.Fatal(err)
			}
			want, err := c.Append(nil, kept)
			if err != nil {
				t.Fatal(err)
			}
			clear(first)
			r, reusing := c.(Reusing)
			for round := range 3 {
				for _, n := range names {
					if !reusing {
						if _, err := other.Decode(inputs[n]); err != nil {
							t.Fatal(err)
						}
						continue
					}
					in := bytes.Clone(inputs[n])
					m, release, err := r.DecodeReused(in)
					if err != nil {
						t.Fatal(err)
					}
					before, err := c.Append(nil, m)
					if err != nil {
						t.Fatal(err)
					}
					// Another codec value decoding meanwhile.
					if _, err := other.Decode(inputs[names[(round+1)%len(names)]]); err != nil {
						t.Fatal(err)
					}
					if after, err := c.Append(nil, m); err != nil || !bytes.Equal(after, before) {
						t.Fatalf("%s: a reused message changed before its release (%v)", n, err)
					}
					release()
				}
			}
			if got, err := c.Append(nil, kept); err != nil || !bytes.Equal(got, want) {
				t.Errorf("a message of Decode changed after its input was overwritten and other decodes ran (%v):\n%q\nwant\n%q", err, got, want)
			}
		})
	}
}
