package x691

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"testing"

	"megaco/internal/corpus"
)

// kat is one known-answer vector: put encodes, want is the expected
// encoding in hex (computed by hand from X.691 in the comment), get decodes
// it back and must return val.
type kat struct {
	name string
	put  func(e *Writer) error
	want string
	get  func(d *Reader) (any, error)
	val  any
}

func rep(b byte, n int) []byte { return bytes.Repeat([]byte{b}, n) }

func hexRep(b byte, n int) string { return hex.EncodeToString(rep(b, n)) }

// bit1 writes a single 1 bit first so that the next field starts at an
// unaligned position, showing whether it is octet-aligned or not.
func bit1(e *Writer) { e.PutBool(true) }

func skip1(d *Reader) error { _, err := d.GetBool(); return err }

// bitmap writes the extension bitmap present of n additions and reads it
// knowing known of them: it must find the known ones in got and count
// unknown present ones.
func bitmap(present uint64, n, known int, got uint64, unknown int) kat {
	return kat{
		put: func(e *Writer) error { return e.PutExtensionBitmap(present, n) },
		get: func(d *Reader) (any, error) {
			p, u, err := d.GetExtensionBitmap(known)
			return [2]uint64{p, uint64(u)}, err
		},
		val: [2]uint64{got, uint64(unknown)},
	}
}

func semiConstrained(v, lb int64) kat {
	return kat{
		put: func(e *Writer) error { return e.PutSemiConstrained(v, lb) },
		get: func(d *Reader) (any, error) { return d.GetSemiConstrained(lb) },
		val: v,
	}
}

func constrainedExt(v, lb, ub int64) kat {
	return kat{
		put: func(e *Writer) error { return e.PutConstrainedExt(v, lb, ub) },
		get: func(d *Reader) (any, error) { return d.GetConstrainedExt(lb, ub) },
		val: v,
	}
}

func constrained(v, lb, ub int64) kat {
	return kat{
		put: func(e *Writer) error { return e.PutConstrained(v, lb, ub) },
		get: func(d *Reader) (any, error) { return d.GetConstrained(lb, ub) },
		val: v,
	}
}

func named(k kat, name, want string) kat {
	k.name, k.want = name, want
	return k
}

func after1(k kat) kat {
	put, get := k.put, k.get
	k.put = func(e *Writer) error { bit1(e); return put(e) }
	k.get = func(d *Reader) (any, error) {
		if err := skip1(d); err != nil {
			return nil, err
		}
		return get(d)
	}
	return k
}

func octets(b []byte, lb, ub int, ext bool) kat {
	return kat{
		put: func(e *Writer) error { return e.PutOctetString(b, lb, ub, ext) },
		get: func(d *Reader) (any, error) { return d.GetOctetString(lb, ub, ext) },
		val: b,
	}
}

func ia5(s string, lb, ub int, ext bool, cs *CharSet) kat {
	return kat{
		put: func(e *Writer) error { return e.PutString(s, lb, ub, ext, cs) },
		get: func(d *Reader) (any, error) {
			b, err := d.GetString(lb, ub, ext, cs)
			return string(b), err
		},
		val: s,
	}
}

type bitsVal struct {
	b []byte
	n int
}

func bitString(b []byte, n, lb, ub int, ext bool) kat {
	return kat{
		put: func(e *Writer) error { return e.PutBitString(b, n, lb, ub, ext) },
		get: func(d *Reader) (any, error) {
			out, n, err := d.AppendBitString(nil, lb, ub, ext)
			return bitsVal{out, n}, err
		},
		val: bitsVal{b, n},
	}
}

func namedBits(mask uint64, lb, ub int, ext bool) kat {
	return kat{
		put: func(e *Writer) error { return e.PutNamedBits(mask, lb, ub, ext) },
		get: func(d *Reader) (any, error) { return d.GetNamedBits(lb, ub, ext) },
		val: mask,
	}
}

type choiceVal struct {
	index int
	ext   bool
}

func choice(index, root int, ext bool) kat {
	return kat{
		put: func(e *Writer) error { return e.PutChoiceIndex(index, root, ext) },
		get: func(d *Reader) (any, error) {
			i, x, err := d.GetChoiceIndex(root, ext)
			return choiceVal{i, x}, err
		},
		val: choiceVal{index, index >= root},
	}
}

type chunk struct {
	n    int
	more bool
}

func lengthChunk(rem int, want chunk) kat {
	return kat{
		put: func(e *Writer) error {
			n, more := e.PutLengthChunk(rem)
			if (chunk{n, more}) != want {
				return fmt.Errorf("chunk %v, want %v", chunk{n, more}, want)
			}
			return nil
		},
		get: func(d *Reader) (any, error) {
			d.SetMaxLength(math.MaxInt)
			n, more, err := d.GetLengthChunk(0)
			return chunk{n, more}, err
		},
		val: want,
	}
}

func katVectors() []kat {
	b16k := rep(0x11, k16)
	b16k1 := rep(0x22, k16+1)
	b130 := rep(0x33, 130)
	return []kat{
		{
			// BOOLEAN: one bit each, 1 0 1 -> 1010 0000.
			name: "bools 101",
			put: func(e *Writer) error {
				e.PutBool(true)
				e.PutBool(false)
				e.PutBool(true)
				return nil
			},
			want: "a0",
			get: func(d *Reader) (any, error) {
				var out []bool
				for range 3 {
					b, err := d.GetBool()
					if err != nil {
						return nil, err
					}
					out = append(out, b)
				}
				return out, nil
			},
			val: []bool{true, false, true},
		},
		{
			// Bit-fields packed MSB first across octets: 3 bits 101,
			// then 12 bits 0xABC -> 101 1010 1011 1100 (pad 0).
			name: "bits 3+12",
			put: func(e *Writer) error {
				e.PutBits(5, 3)
				e.PutBits(0xABC, 12)
				return nil
			},
			want: "b578",
			get: func(d *Reader) (any, error) {
				a, err := d.GetBits(3)
				if err != nil {
					return nil, err
				}
				b, err := d.GetBits(12)
				return [2]uint64{a, b}, err
			},
			val: [2]uint64{5, 0xABC},
		},
		// 10.5.7.1: range 8 -> 3-bit field; 5 = 101 -> 1010 0000.
		named(constrained(5, 0, 7), "constrained 0..7 = 5", "a0"),
		// Range 100 -> 7 bits; version 1 = 0000001 -> 0000 0010.
		named(constrained(1, 0, 99), "constrained 0..99 = 1", "02"),
		// Range 1: no bits at all; Bytes() of nothing is empty.
		named(constrained(1, 1, 1), "constrained 1..1", ""),
		// Range 2 with an offset: 6 in 5..6 -> bit 1.
		named(constrained(6, 5, 6), "constrained 5..6 = 6", "80"),
		// 10.5.7.2: range 256 -> one octet, octet-aligned: after a 1 bit,
		// 7 padding bits then 0xAB.
		named(after1(constrained(0xAB, 0, 255)), "constrained 0..255 aligned", "80ab"),
		// Range 256 with negative bounds: -1 is offset 127.
		named(constrained(-1, -128, 127), "constrained -128..127 = -1", "7f"),
		// 10.5.7.3: range 65536 -> two octets: 55555 = 0xD903.
		named(constrained(55555, 0, 65535), "constrained 0..65535", "d903"),
		// Range 257 (> 256) already takes two aligned octets.
		named(after1(constrained(256, 0, 256)), "constrained 0..256", "800100"),
		// 10.5.7.4: range 2^32 -> octet count 1..4 as a 2-bit field
		// (count-1), then the octets aligned. 1 -> 00 + pad, 01.
		named(constrained(1, 0, 4294967295), "constrained 0..2^32-1 = 1", "0001"),
		// 10000 = 0x2710, two octets -> count bits 01 -> 0100 0000.
		named(constrained(10000, 0, 4294967295), "constrained 0..2^32-1 = 10000", "402710"),
		// 0xFFFFFFFF -> four octets -> 11.
		named(constrained(4294967295, 0, 4294967295), "constrained 0..2^32-1 max", "c0ffffffff"),
		// Range 65537: range-1 = 0x10000 needs 3 octets -> count 1..3 in
		// 2 bits; 65536 = 01 00 00 is three octets -> 10.
		named(constrained(65536, 0, 65536), "constrained 0..65536", "80010000"),
		// Full int64 range: 8 possible octets -> 3-bit count; 0 is offset
		// 2^63 = 80 00..00 (8 octets) -> 111.
		named(constrained(0, math.MinInt64, math.MaxInt64), "constrained full int64 = 0", "e08000000000000000"),
		named(constrained(math.MinInt64, math.MinInt64, math.MaxInt64), "constrained full int64 = min", "0000"),
		// 10.7: semi-constrained: count octet, then minimal octets of v-lb.
		named(semiConstrained(256, 0), "semi-constrained 256 lb 0", "020100"),
		// 1 bit, padding, count 1, octet 00.
		named(after1(semiConstrained(-5, -5)), "semi-constrained -5 lb -5", "800100"),
		// 10.8: unconstrained: count octet, minimal two's complement.
		named(unconstrained(0), "unconstrained 0", "0100"),
		named(unconstrained(-1), "unconstrained -1", "01ff"),
		named(unconstrained(127), "unconstrained 127", "017f"),
		named(unconstrained(128), "unconstrained 128", "020080"),
		named(unconstrained(-128), "unconstrained -128", "0180"),
		named(unconstrained(-129), "unconstrained -129", "02ff7f"),
		named(unconstrained(math.MaxInt64), "unconstrained math.MaxInt64", "087fffffffffffffff"),
		named(unconstrained(math.MinInt64), "unconstrained math.MinInt64", "088000000000000000"),
		// 10.6: normally small: 5 -> 0 000101 -> 0000 1010.
		named(normallySmall(5), "normally small 5", "0a"),
		// 63 -> 0 111111 -> 0111 1110.
		named(normallySmall(63), "normally small 63", "7e"),
		// 70 -> 1, then semi-constrained (aligned): 01 46.
		named(normallySmall(70), "normally small 70", "800146"),
		// 10.9.3.4: normally small length n: 0 and n-1 in 6 bits.
		named(normallySmallLength(1), "normally small length 1", "00"),
		named(normallySmallLength(64), "normally small length 64", "7e"),
		// 65 -> 1, then an unconstrained length octet 0x41.
		named(normallySmallLength(65), "normally small length 65", "8041"),
		// 10.9.3.6-8: unconstrained length determinants.
		named(lengthChunk(127, chunk{127, false}), "length 127", "7f"),
		named(lengthChunk(128, chunk{128, false}), "length 128", "8080"),
		named(lengthChunk(16383, chunk{16383, false}), "length 16383", "bfff"),
		named(lengthChunk(16384, chunk{16384, true}), "length 16384", "c1"),
		named(lengthChunk(50000, chunk{49152, true}), "length 50000", "c3"),
		named(lengthChunk(70000, chunk{65536, true}), "length 70000", "c4"),
		// 16: OCTET STRING (SIZE(2)) is a 16-bit field, not aligned:
		// 1 01000001 01000010 -> 1010 0000 1010 0001 0000 0000.
		named(after1(octets([]byte("AB"), 2, 2, false)), "octets SIZE(2) unaligned", "a0a100"),
		// SIZE(4) is aligned, no length (IP4Address.address).
		named(after1(octets([]byte{124, 124, 124, 222}, 4, 4, false)), "octets SIZE(4)", "807c7c7cde"),
		// SIZE(1..8): length-1 in 3 bits (010), aligned contents.
		named(octets([]byte{0xff, 0, 0}, 1, 8, false), "octets SIZE(1..8)", "40ff0000"),
		// SIZE(12..32): range 21 -> 5 bits of length-12 = 00000.
		named(octets(rep(0xAA, 12), 12, 32, false), "octets SIZE(12..32)", "00"+hexRep(0xAA, 12)),
		// SIZE(0..65535): ub < 64K, range 65536 -> two aligned octets.
		named(octets([]byte("abc"), 0, 65535, false), "octets SIZE(0..65535)", "0003616263"),
		// SIZE(0..65536): ub >= 64K -> unconstrained length.
		named(octets([]byte("abc"), 0, 65536, false), "octets SIZE(0..65536)", "03616263"),
		named(octets([]byte("abc"), 0, Unbounded, false), "octets unconstrained", "03616263"),
		named(octets(b130, 0, Unbounded, false), "octets 130", "8082"+hexRep(0x33, 130)),
		// 16K octets: one fragment of 16K (C1), then a final length 0.
		named(octets(b16k, 0, Unbounded, false), "octets 16K", "c1"+hexRep(0x11, k16)+"00"),
		named(octets(b16k1, 0, Unbounded, false), "octets 16K+1", "c1"+hexRep(0x22, k16)+"0122"),
		// SIZE(0..0): nothing at all.
		named(octets([]byte{}, 0, 0, false), "octets SIZE(0)", ""),
		// Extensible SIZE(4, ...): a 0 bit then the root encoding ...
		named(octets([]byte("abcd"), 4, 4, true), "octets SIZE(4,...) root", "0061626364"),
		// ... or a 1 bit and an unconstrained length.
		named(octets([]byte("abcde"), 4, 4, true), "octets SIZE(4,...) ext", "80056162636465"),
		// 15: BIT STRING (SIZE(4)) 1011 is a plain field: 1 1011 -> 1101 1000.
		named(after1(bitString([]byte{0xB0}, 4, 4, 4, false)), "bits SIZE(4)", "d8"),
		// SIZE(24) is aligned, no length.
		named(after1(bitString([]byte{1, 2, 3}, 24, 24, 24, false)), "bits SIZE(24)", "80010203"),
		// Unconstrained: length octet 3, then 101 aligned.
		named(bitString([]byte{0xA0}, 3, 0, Unbounded, false), "bits unconstrained", "03a0"),
		// SIZE(0..15): length 3 in 4 bits (0011), pad, 101.
		named(bitString([]byte{0xA0}, 3, 0, 15, false), "bits SIZE(0..15)", "30a0"),
		// Named bits {0, 2}: trailing zeros dropped -> 3 bits 101.
		named(namedBits(0b101, 0, Unbounded, false), "named bits 0,2", "03a0"),
		// No bit set: empty string, length 0.
		named(namedBits(0, 0, Unbounded, false), "named bits none", "00"),
		// SIZE(8) fixes the length: bit 1 -> 0100 0000, unaligned.
		named(after1(namedBits(0b10, 8, 8, false)), "named bits SIZE(8)", "a000"),
		// 27: IA5String (SIZE(8)) of TimeNotation: 8 bits per char, 64
		// bits -> aligned, no length.
		named(after1(ia5("19990729", 8, 8, false, IA5String)), "IA5 SIZE(8)", "80"+hex.EncodeToString([]byte("19990729"))),
		// PathName IA5String (SIZE(1..64)): 6-bit length-1, aligned chars.
		named(ia5("ab", 1, 64, false, IA5String), "IA5 SIZE(1..64)", "046162"),
		named(ia5("ab", 0, Unbounded, false, IA5String), "IA5 unconstrained", "026162"),
		// SIZE(1): 8 bits <= 16 -> not aligned: 1 01100001 -> 1011 0000 1000 0000.
		named(after1(ia5("a", 1, 1, false, IA5String)), "IA5 SIZE(1)", "b080"),
		// VisibleString (SIZE(0..1)): ub*8 = 8 < 16 -> not aligned: length
		// bit 1 then 'a' 01100001 -> 1011 0000 1000 0000.
		named(ia5("a", 0, 1, false, VisibleString), "Visible SIZE(0..1)", "b080"),
		// NumericString (SIZE(3)) "129": 11 chars -> 4 bits, sent as
		// indexes (space=0, '0'=1): 2, 3, 10 -> 0010 0011 1010.
		named(ia5("129", 3, 3, false, NumericString), "Numeric SIZE(3)", "23a0"),
		// FROM("AB") SIZE(4): 1 bit per char, index coded: ABBA -> 0110.
		named(ia5("ABBA", 4, 4, false, NewCharSet("BA")), "FROM(AB) SIZE(4)", "60"),
		// 22: CHOICE with 5 root alternatives and "...": 0 + 3 bits.
		named(choice(0, 5, true), "choice 0 of 5 ext", "00"),
		named(choice(2, 3, true), "choice 2 of 3 ext", "40"),
		// Single root alternative, not extensible: no bits.
		named(choice(0, 1, false), "choice 0 of 1", ""),
		// Extension alternative 0: 1 + normally small 0 (0000000).
		named(choice(3, 3, true), "choice ext 0", "80"),
		// Extension alternative 70: 1, 1 (normally small > 63), pad, 01 46.
		named(choice(73, 3, true), "choice ext 70", "c00146"),
		// 18: bitmap of 3 additions, 0 and 2 present: normally small
		// length 0 000010, then 101 -> 0000 0101 0100 0000.
		named(bitmap(0b101, 3, 3, 0b101, 0), "extension bitmap", "0540"),
		// Read by a decoder knowing only 1 addition: the present addition
		// 2 is unknown.
		named(bitmap(0b101, 3, 1, 1, 1), "extension bitmap unknown", "0540"),
		{
			// 10.2: an open type holding 3 bits 101: its complete encoding
			// is one octet A0, length 1 -> 01 A0. After a 1 bit the length
			// is aligned: 80 01 A0.
			name: "open type",
			put: func(e *Writer) error {
				bit1(e)
				m := e.BeginOpenType()
				if err := e.PutConstrained(5, 0, 7); err != nil {
					return err
				}
				return e.EndOpenType(m)
			},
			want: "8001a0",
			get: func(d *Reader) (any, error) {
				if err := skip1(d); err != nil {
					return nil, err
				}
				sub, err := d.OpenType()
				if err != nil {
					return nil, err
				}
				v, err := sub.GetConstrained(0, 7)
				if err == nil {
					err = sub.End()
				}
				return v, err
			},
			val: int64(5),
		},
		{
			// 10.1.3: an empty open type (e.g. a NULL) is one zero octet.
			name: "open type empty",
			put: func(e *Writer) error {
				return e.EndOpenType(e.BeginOpenType())
			},
			want: "0100",
			get: func(d *Reader) (any, error) {
				sub, err := d.OpenType()
				if err != nil {
					return nil, err
				}
				return sub.Remaining(), sub.End()
			},
			val: 8,
		},
		{
			// 23: OBJECT IDENTIFIER {1 2 840 113549}: 42 = 2A, 840 = 86 48,
			// 113549 = 86 F7 0D; 6 octets.
			name: "object identifier",
			put:  func(e *Writer) error { return e.PutObjectIdentifier([]uint64{1, 2, 840, 113549}) },
			want: "062a864886f70d",
			get:  func(d *Reader) (any, error) { return d.GetObjectIdentifier(nil) },
			val:  []uint64{1, 2, 840, 113549},
		},
		{
			// 19: SEQUENCE (SIZE(1..4)) OF: count-1 in 2 bits, no alignment.
			name: "sequence of count",
			put: func(e *Writer) error {
				_, _, err := e.PutLength(3, 1, 4, false)
				return err
			},
			want: "80",
			get: func(d *Reader) (any, error) {
				n, more, err := d.GetLength(1, 4, false, 0)
				return chunk{n, more}, err
			},
			val: chunk{3, false},
		},
	}
}

func unconstrained(v int64) kat {
	return kat{
		put: func(e *Writer) error { e.PutUnconstrained(v); return nil },
		get: func(d *Reader) (any, error) { return d.GetUnconstrained() },
		val: v,
	}
}

func normallySmall(n int) kat {
	return kat{
		put: func(e *Writer) error { return e.PutNormallySmall(n) },
		get: func(d *Reader) (any, error) { return d.GetNormallySmall() },
		val: n,
	}
}

func normallySmallLength(n int) kat {
	return kat{
		put: func(e *Writer) error { return e.PutNormallySmallLength(n) },
		get: func(d *Reader) (any, error) { return d.GetNormallySmallLength() },
		val: n,
	}
}

func TestKnownAnswers(t *testing.T) {
	for _, k := range katVectors() {
		t.Run(k.name, func(t *testing.T) {
			var e Writer
			e.Reset(nil)
			if err := k.put(&e); err != nil {
				t.Fatalf("encode: %v", err)
			}
			got := e.Bytes()
			want := corpus.Unhex(t, k.want)
			if !bytes.Equal(got, want) {
				t.Fatalf("encode = %s, want %s", short(got), short(want))
			}
			d := NewReader(want)
			v, err := k.get(&d)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !equalVal(v, k.val) {
				t.Fatalf("decode = %v, want %v", v, k.val)
			}
			if err := d.End(); err != nil && len(want) > 0 {
				t.Fatalf("decode left data: %v", err)
			}
		})
	}
}

func equalVal(a, b any) bool {
	if ab, ok := a.([]byte); ok {
		bb, ok := b.([]byte)
		return ok && bytes.Equal(ab, bb)
	}
	if ab, ok := a.(bitsVal); ok {
		bb, ok := b.(bitsVal)
		return ok && ab.n == bb.n && bytes.Equal(ab.b, bb.b)
	}
	return reflect.DeepEqual(a, b)
}

func short(b []byte) string {
	s := hex.EncodeToString(b)
	if len(s) > 80 {
		return s[:40] + "..." + s[len(s)-40:]
	}
	return s
}

// TestFinishEmpty: X.691 10.1.3, a complete encoding with no bits is a
// single zero octet; Finish also keeps a caller's prefix (append style).
func TestFinishEmpty(t *testing.T) {
	var e Writer
	e.Reset(nil)
	if got := e.Finish(); !bytes.Equal(got, []byte{0}) {
		t.Fatalf("Finish of nothing = %x, want 00", got)
	}
	e.Reset([]byte{0xEE})
	_ = e.PutConstrained(3, 3, 3) // range 1: no bits
	if got := e.Finish(); !bytes.Equal(got, []byte{0xEE, 0}) {
		t.Fatalf("Finish after prefix = %x, want ee00", got)
	}
	e.Reset([]byte{0xEE})
	e.PutBool(true)
	if got := e.Finish(); !bytes.Equal(got, []byte{0xEE, 0x80}) {
		t.Fatalf("Finish = %x, want ee80", got)
	}
	d := NewReader([]byte{0})
	if err := d.End(); err != nil {
		t.Fatalf("End on the empty complete encoding: %v", err)
	}
}

// TestOpenTypeLengths checks the back-patched open type length: an open
// type is encoded exactly like an unconstrained OCTET STRING holding its
// contents, so for sizes around the one/two-octet boundary (127/128), the
// fragmentation threshold (16383/16384) and several fragments, both must
// give the same octets.
func TestOpenTypeLengths(t *testing.T) {
	sizes := []int{1, 127, 128, 200, 16383, 16384, 16385, 32768, 49152 + 5, 65535, 65536, 65536 + 16384 + 5, 3*65536 + 127, 3*65536 + 128, 2 * 65536}
	for _, n := range sizes {
		content := make([]byte, n)
		for i := range content {
			content[i] = byte(i*7 + i>>8)
		}
		var a, b Writer
		a.Reset([]byte{0x55})
		a.PutBool(true)
		m := a.BeginOpenType()
		a.putOctets(content)
		if err := a.EndOpenType(m); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		a.PutBits(0x3, 2)
		b.Reset([]byte{0x55})
		b.PutBool(true)
		if err := b.PutOctetString(content, 0, Unbounded, false); err != nil {
			t.Fatal(err)
		}
		b.PutBits(0x3, 2)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("n=%d: open type %s != octet string %s", n, short(a.Bytes()), short(b.Bytes()))
		}
		d := NewReader(a.Bytes()[1:])
		d.SetMaxLength(1 << 20)
		if err := skip1(&d); err != nil {
			t.Fatal(err)
		}
		sub, err := d.OpenType()
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if !bytes.Equal(sub.buf, content) {
			t.Fatalf("n=%d: open type contents differ", n)
		}
		if v, err := d.GetBits(2); err != nil || v != 3 {
			t.Fatalf("n=%d: after open type got %d, %v", n, v, err)
		}
		d2 := NewReader(a.Bytes()[1:])
		d2.SetMaxLength(1 << 20)
		_ = skip1(&d2)
		if err := d2.SkipOpenType(); err != nil || d2.pos != d.pos-2 {
			t.Fatalf("n=%d: SkipOpenType at %d (want %d), %v", n, d2.pos, d.pos-2, err)
		}
	}
}

// TestNestedOpenTypes: an inner open type that grows to a two-octet length
// moves octets inside the outer one, whose mark must stay valid.
func TestNestedOpenTypes(t *testing.T) {
	var e Writer
	e.Reset(nil)
	outer := e.BeginOpenType()
	e.PutBits(1, 1)
	inner := e.BeginOpenType()
	e.putOctets(rep(0x5A, 300))
	if err := e.EndOpenType(inner); err != nil {
		t.Fatal(err)
	}
	e.PutBits(0x7, 3)
	if err := e.EndOpenType(outer); err != nil {
		t.Fatal(err)
	}
	// outer contents: 1 + pad, 81 2C, 300 x 5A, 111 + pad = 1+2+300+1 = 304.
	want := append([]byte{0x81, 0x30, 0x80, 0x81, 0x2C}, rep(0x5A, 300)...)
	want = append(want, 0xE0)
	if !bytes.Equal(e.Bytes(), want) {
		t.Fatalf("nested = %s, want %s", short(e.Bytes()), short(want))
	}
	d := NewReader(want)
	o, err := d.OpenType()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := o.GetBool(); !b {
		t.Fatal("outer bit")
	}
	in, err := o.OpenType()
	if err != nil || in.Remaining() != 300*8 {
		t.Fatalf("inner: %d bits, %v", in.Remaining(), err)
	}
	if v, err := o.GetBits(3); err != nil || v != 7 {
		t.Fatalf("outer tail %d, %v", v, err)
	}
	if err := o.End(); err != nil {
		t.Fatal(err)
	}
}

// TestSequenceOfFragmented runs the chunk loops documented at PutLength and
// GetLength for a count that needs fragments (16K + 64K ...).
func TestSequenceOfFragmented(t *testing.T) {
	for _, n := range []int{0, 5, 16383, 16384, 65536 + 100, 2*65536 + 3*16384} {
		var e Writer
		e.Reset(nil)
		k, more, err := e.PutLength(n, 0, Unbounded, false)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; ; {
			for end := i + k; i < end; i++ {
				e.PutBits(uint64(i&1), 1) // element: one bit
			}
			if !more {
				break
			}
			k, more = e.PutLengthChunk(n - i)
		}
		d := NewReader(e.Bytes())
		d.SetMaxLength(1 << 20)
		k, more, err = d.GetLength(0, Unbounded, false, 1)
		got := 0
		for err == nil {
			for range k {
				v, err := d.GetBits(1)
				if err != nil {
					t.Fatal(err)
				}
				if v != uint64(got&1) {
					t.Fatalf("n=%d: element %d = %d", n, got, v)
				}
				got++
			}
			if !more {
				break
			}
			k, more, err = d.GetLengthChunk(1)
		}
		if err != nil || got != n {
			t.Fatalf("n=%d: decoded %d elements, %v", n, got, err)
		}
	}
}
