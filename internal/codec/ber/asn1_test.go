package ber

import (
	"encoding/asn1"
	"fmt"
	"strings"
	"testing"

	"megaco/internal/corpus"
)

// The encoder's output is checked against an independent reader, the
// standard library's encoding/asn1: it accepts only definite lengths in
// their minimal form (as DER requires and as OTP's encoder writes), so
// walking every TLV with it confirms that what we write is well-formed.
// encoding/asn1 cannot be the codec itself: it has no CHOICE, no extension
// markers, no indefinite lengths and no PER, and it works by reflection
// on Go struct tags.

// checkTLVs walks enc with encoding/asn1's RawValue, into every
// constructed value: one universal, constructed SEQUENCE (MegacoMessage)
// and nothing after it, every element inside well-formed.
func checkTLVs(enc []byte) error {
	var top asn1.RawValue
	rest, err := asn1.Unmarshal(enc, &top)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return fmt.Errorf("%d bytes after the message", len(rest))
	}
	if top.Class != asn1.ClassUniversal || top.Tag != asn1.TagSequence || !top.IsCompound {
		return fmt.Errorf("outer tag: class %d tag %d constructed %v, want a universal constructed SEQUENCE", top.Class, top.Tag, top.IsCompound)
	}
	return checkContents(top.Bytes, 1)
}

// checkContents walks the elements of a constructed value's contents.
func checkContents(b []byte, depth int) error {
	if depth > 64 {
		return fmt.Errorf("nesting deeper than 64")
	}
	for len(b) > 0 {
		var v asn1.RawValue
		rest, err := asn1.Unmarshal(b, &v)
		if err != nil {
			return err
		}
		if v.IsCompound {
			if err := checkContents(v.Bytes, depth+1); err != nil {
				return fmt.Errorf("[%d %d]: %w", v.Class, v.Tag, err)
			}
		}
		b = rest
	}
	return nil
}

// TestEncodingASN1 re-encodes every corpus message and walks the result
// with encoding/asn1; hand-made encodings with a long-form length that
// fits the short form, or an indefinite length, show that the walk fails
// where the encoder would go wrong.
func TestEncodingASN1(t *testing.T) {
	for i, m := range corpus.Decoded(t, ".ber", Codec{}) {
		enc, err := Append(nil, m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := checkTLVs(enc); err != nil {
			t.Errorf("message %d: %v\n%x", i, err, enc)
		}
	}
	for _, c := range []struct{ name, in, want string }{
		{"non-minimal length, outer", "30 81 03 02 01 05", "asn1: structure error: non-minimal length"},
		{"non-minimal length, inner", "30 04 a1 81 01 05", "asn1: structure error: non-minimal length"},
		{"leading zero length octet", "30 82 00 03 02 01 05", "asn1: structure error: superfluous leading zeros"},
		{"indefinite length", "30 80 02 01 05 00 00", "asn1: syntax error: indefinite length"},
		{"indefinite length, inner", "30 06 a1 80 05 00 00 00", "asn1: syntax error: indefinite length"},
		{"trailing data", "30 03 02 01 05 00", "bytes after the message"},
		{"not a SEQUENCE", "31 03 02 01 05", "outer tag"},
		{"primitive", "10 00", "outer tag"},
	} {
		if err := checkTLVs(corpus.Unhex(t, c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s (%s): %v, want %q", c.name, c.in, err, c.want)
		}
	}
	// Minimal lengths pass, in the short and in the long form (128
	// octets of contents take 81 80).
	long := append(corpus.Unhex(t, "30 81 80 04 7e"), make([]byte, 126)...)
	for _, ok := range [][]byte{corpus.Unhex(t, "30 05 a1 03 02 01 05"), long} {
		if err := checkTLVs(ok); err != nil {
			t.Errorf("minimal encoding %x rejected: %v", ok[:5], err)
		}
	}
}
