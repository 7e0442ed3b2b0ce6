package x691

import (
	"testing"

	"megaco/internal/codec/codecerr"
	"megaco/internal/corpus"
)

// TestDecodeErrors checks the message and, above all, the bit offset of
// decoding errors: the offset is where the offending item starts (after
// any padding before it), counted from the start of the whole message.
func TestDecodeErrors(t *testing.T) {
	// count reads a SEQUENCE OF count of elements of at least bits bits.
	count := func(bits int) func(d *Reader) (any, error) {
		return func(d *Reader) (any, error) { n, _, err := d.GetLength(0, Unbounded, false, bits); return n, err }
	}
	tests := []struct {
		name, in string
		get      func(d *Reader) (any, error) // most are the readers of known-answer tests
		want     string
		kind     codecerr.Kind
	}{
		// 1 bit, then 7 bits 1111111 = 127 for INTEGER (0..99).
		{"constrained bit-field out of range", "ff", after1(constrained(0, 0, 99)).get,
			"per: bit 1: constrained whole number 127 out of range 0..99", codecerr.Malformed},
		// 1 bit, padding, then two octets 01 2C = 300 for (0..299).
		{"constrained two octets out of range", "80012c", after1(constrained(0, 0, 299)).get,
			"per: bit 8: constrained whole number 300 out of range 0..299", codecerr.Malformed},
		// INTEGER (0..65535) needs two octets, only one is there.
		{"truncated", "12", constrained(0, 0, 65535).get,
			"per: bit 0: need 16 bits, only 8 left", codecerr.Malformed},
		// Two octets read, then a two-octet length 0x1000 = 4096 for an
		// OCTET STRING with only 12 octets after it.
		{"length beyond input", "0000" + "9000" + hexRep(0, 12),
			func(d *Reader) (any, error) { _, _ = d.GetBits(16); return d.GetOctetString(0, Unbounded, false) },
			"per: bit 16: length 4096 exceeds the 12 octets left", codecerr.Malformed},
		// A SEQUENCE OF count of 100 elements of at least 3 (8) bits each,
		// with 2 octets left.
		{"count beyond input bits", "64" + "0000", count(3),
			"per: bit 0: length 100 (3 bits each) exceeds the 16 bits left", codecerr.Malformed},
		{"count beyond input", "64" + "0000", count(8),
			"per: bit 0: length 100 exceeds the 2 octets left", codecerr.Malformed},
		{"length beyond limit", "14" + hexRep(0, 20),
			func(d *Reader) (any, error) { d.SetMaxLength(10); return d.GetOctetString(0, Unbounded, false) },
			"per: bit 0: length 20 exceeds the limit 10", codecerr.TooLarge},
		// 11000101: fragment of m = 5 x 16K, m must be 1..4.
		{"bad fragment", "c5", octets(nil, 0, Unbounded, false).get,
			"per: bit 0: invalid fragment length octet 0xc5", codecerr.Malformed},
		// CHOICE of 5 root alternatives: 3 bits 111 = 7.
		{"choice index out of range", "e0", choice(0, 5, false).get,
			"per: bit 0: index 7 out of range 0..4", codecerr.Malformed},
		// SIZE(2..4) uses 2 bits: 11 would be 5 > 4.
		{"size out of range", "c0", octets(nil, 2, 4, false).get,
			"per: bit 0: length 5 outside SIZE(2..4)", codecerr.Malformed},
		// For a range needing 3 octets, a 2-bit count 11 = 4 octets.
		{"too many octets", "c0", constrained(0, 0, 1<<20).get,
			"per: bit 0: constrained whole number of 4 octets, at most 3 allowed", codecerr.Malformed},
		{"semi-constrained zero length", "00", semiConstrained(0, 0).get,
			"per: bit 0: semi-constrained whole number of 0 octets (want 1..8)", codecerr.Malformed},
		{"unconstrained too long", "09" + hexRep(0, 9), unconstrained(0).get,
			"per: bit 0: unconstrained whole number of 9 octets (want 1..8)", codecerr.TooLarge},
		// IA5String: length 2, then 'a' and 0x80 (not IA5).
		{"bad IA5 character", "026180", ia5("", 0, Unbounded, false, IA5String).get,
			"per: bit 16: character 0x80 not in the permitted alphabet", codecerr.Malformed},
		// An open type of 1 octet, whose contents are then read too far:
		// the offset is in the outer message (bit 16).
		{"inside open type", "8001ff", after1(kat{get: func(d *Reader) (any, error) {
			sub, err := d.OpenType()
			if err != nil {
				return nil, err
			}
			return sub.GetConstrained(0, 65535)
		}}).get, "per: bit 16: need 16 bits, only 8 left", codecerr.Malformed},
		{"trailing data", "8000", after1(kat{get: func(d *Reader) (any, error) { return nil, d.End() }}).get,
			"per: bit 1: 1 octets of trailing data", codecerr.Malformed},
		{"bool at end", "", func(d *Reader) (any, error) { return d.GetBool() },
			"per: bit 0: need 1 bit, 0 left", codecerr.Malformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := NewReader(corpus.Unhex(t, tc.in))
			_, err := tc.get(&d)
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			checkError(t, err, tc.want, codecerr.Decode, tc.kind)
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	tests := []struct {
		name string
		run  func(e *Writer) error
		want string
	}{
		{"constrained", func(e *Writer) error { e.PutBits(0, 3); return e.PutConstrained(300, 0, 255) },
			"per: bit 3: constrained whole number 300 out of range 0..255"},
		{"size", func(e *Writer) error { return e.PutOctetString([]byte("abc"), 4, 4, false) },
			"per: bit 0: size 3 outside SIZE(4..4)"},
		{"size unbounded", func(e *Writer) error { return e.PutIA5String("", 1, Unbounded, false) },
			"per: bit 0: size 0 outside SIZE(1..MAX)"},
		{"alphabet", func(e *Writer) error { return e.PutIA5String("caf\xe9", 0, Unbounded, false) },
			"per: bit 0: character 0xe9 at index 3 not in the permitted alphabet"},
		{"choice", func(e *Writer) error { return e.PutChoiceIndex(5, 5, false) },
			"per: bit 0: index 5 invalid for 5 root alternatives (extensible false)"},
		{"semi", func(e *Writer) error { return e.PutSemiConstrained(-1, 0) },
			"per: bit 0: semi-constrained whole number -1 below lower bound 0"},
		{"named bits", func(e *Writer) error { return e.PutNamedBits(1<<9, 0, 8, false) },
			"per: bit 0: size 10 outside SIZE(0..8)"},
		{"bitmap", func(e *Writer) error { return e.PutExtensionBitmap(0b100, 2) },
			"per: bit 0: extension bitmap 0x4 has bits beyond 2 additions"},
		{"bad constraint", func(e *Writer) error { return e.PutOctetString(nil, 3, 2, false) },
			"per: bit 0: invalid size constraint 3..2"},
		{"oid", func(e *Writer) error { return e.PutObjectIdentifier([]uint64{3, 1}) },
			"per: bit 0: invalid object identifier [3 1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var e Writer
			e.Reset(nil)
			checkError(t, tc.run(&e), tc.want, codecerr.Encode, codecerr.Schema)
		})
	}
}

// checkError: err is a *codecerr.Error of codec "per" with a bit position,
// the operation and kind given, and reads want.
func checkError(t *testing.T, err error, want string, op codecerr.Op, kind codecerr.Kind) {
	t.Helper()
	ce, ok := err.(*codecerr.Error)
	if !ok {
		t.Fatalf("error %v (%T) is not a *codecerr.Error", err, err)
	}
	if err.Error() != want {
		t.Fatalf("error %q\n          want %q", err, want)
	}
	if ce.Codec != "per" || ce.Op != op || ce.Kind != kind || ce.Pos.Unit != codecerr.Bit {
		t.Fatalf("error %q: codec %s, %v, %v, position %+v; want per, %v, %v, a bit", err, ce.Codec, ce.Op, ce.Kind, ce.Pos, op, kind)
	}
}
