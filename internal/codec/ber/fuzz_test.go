package ber

import (
	"testing"

	"megaco/internal/corpus"
)

// FuzzDecode: no input may panic or hang the decoder, and whatever it
// accepts must encode, and decode again to the same message and the same
// bytes (decode → encode → decode is stable); every encoding it writes is
// well-formed for encoding/asn1 (see asn1_test.go).
func FuzzDecode(f *testing.F) {
	files := corpus.Seed(f, ".ber")
	f.Add(toIndefinite(f, files["msg03"]))
	f.Add([]byte{})
	f.Add([]byte{0x30, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		enc := corpus.Stable(t, data, "ber", withVersion, PeekVersion)
		if enc != nil {
			if err := checkTLVs(enc); err != nil {
				t.Fatalf("encoding/asn1 rejects the encoding: %v\n%x", err, enc)
			}
		}
	})
}

func withVersion(v int) corpus.Codec { return Codec{Options{Version: v}} }
