package ber

import (
	"bytes"

	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
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

// FuzzScan: no input may panic or hang the scanner; it fails with a
// *codecerr.Error, and whatever the decoder accepts it scans to what
// scan.FromModel reads from the decoded message, with spans that hold
// the IDs. The depth asked for varies with the input's length.
func FuzzScan(f *testing.F) {
	files := corpus.Seed(f, ".ber")
	f.Add(toIndefinite(f, files["msg03"]))
	f.Fuzz(func(t *testing.T, data []byte) {
		depth := depths[len(data)%len(depths)]
		got, want := scan.Summary{Want: depth}, scan.Summary{Want: depth}
		err := Scan(data, &got, limits.Limits{})
		if err != nil {
			corpus.CodecError(t, err, "ber")
		}
		m, derr := Decode(data, Options{})
		if derr != nil {
			return
		}
		if err != nil {
			t.Fatalf("decodes but does not scan: %v", err)
		}
		scan.FromModel(m, false, &want)
		if msg := diffSummary(&got, &want); msg != "" {
			t.Fatal(msg)
		}
		if msg := checkSpans(data, &got); msg != "" {
			t.Fatal(msg)
		}
	})
}

// FuzzRewrite: no input may panic or hang Rewrite. Whatever the decoder
// accepts, Rewrite rewrites to decode -> change -> encode: byte for byte
// when the input is in the encoder's form (it re-encodes to itself), and
// otherwise to bytes that decode to the same message (Rewrite keeps what
// it copies whole as it is); or it fails with a *codecerr.Error where the
// reference fails to encode.
func FuzzRewrite(f *testing.F) {
	files := corpus.Seed(f, ".ber")
	f.Add(toIndefinite(f, files["msg03"]))
	// In turn every ID, the transaction IDs only (which Rewrite finds
	// with a shallower scan), and termination IDs (the deepest, patched
	// in place).
	chs := []*scan.Changes{testChanges()["all"], testChanges()["tx+1"], testChanges()["shared all"]}
	f.Fuzz(func(t *testing.T, data []byte) {
		ch := chs[len(data)%len(chs)]
		got, err := Rewrite(nil, data, ch, limits.Limits{})
		if err != nil {
			corpus.CodecError(t, err, "ber")
		}
		m, derr := Decode(data, Options{})
		if derr != nil {
			return
		}
		canonical, _ := Append(nil, m, Options{})
		want, werr := recoded(t, data, ch)
		switch {
		case werr != nil:
			if err == nil {
				t.Fatalf("rewrote what does not encode (%v)", werr)
			}
			return
		case err != nil:
			t.Fatalf("decodes but does not rewrite: %v", err)
		case bytes.Equal(canonical, data) && !bytes.Equal(got, want):
			t.Fatalf("rewrite differs from decode -> change -> encode\n got %x\nwant %x", got, want)
		}
		again, err := Decode(got, Options{})
		if err != nil {
			t.Fatalf("the rewrite does not decode: %v\n%x", err, got)
		}
		if enc, _ := Append(nil, again, Options{}); !bytes.Equal(enc, want) {
			t.Fatalf("the rewrite decodes to another message\n got %x\nwant %x", enc, want)
		}
	})
}
