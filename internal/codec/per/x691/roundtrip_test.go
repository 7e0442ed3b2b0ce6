package x691

import (
	"bytes"
	"errors"
	"math"
	"math/bits"
	"math/rand"
	"testing"
	"testing/quick"
)

// Round-trip properties: for random values and random constraints, what an
// Writer method writes the matching Reader method reads back, starting
// at a random bit position (0..7 leading bits, so aligned and unaligned
// layouts are both exercised), and leaves the decoder exactly where the
// encoder stopped (checked by a trailing marker field).

func quickCheck(t *testing.T, f func(r *rand.Rand) bool) {
	t.Helper()
	prop := func(seed int64) bool { return f(rand.New(rand.NewSource(seed))) }
	if err := quick.Check(prop, &quick.Config{MaxCount: 3000}); err != nil {
		t.Fatal(err)
	}
}

// frame encodes put between a random prefix and a 5-bit marker, then
// decodes with get between the same; it reports whether everything
// matched, logging the first mismatch.
func frame(t *testing.T, r *rand.Rand, put func(e *Writer) error, get func(d *Reader) error) bool {
	t.Helper()
	pre := r.Intn(8)
	prefix := r.Uint64()
	var e Writer
	e.Reset(nil)
	e.PutBits(prefix, pre)
	if err := put(&e); err != nil {
		t.Logf("encode: %v", err)
		return false
	}
	e.PutBits(0x15, 5)
	b := e.Finish()
	d := NewReader(b)
	d.SetMaxLength(1 << 22)
	if v, err := d.GetBits(pre); err != nil || v != prefix&(1<<uint(pre)-1) {
		t.Logf("prefix: %v %v", v, err)
		return false
	}
	if err := get(&d); err != nil {
		t.Logf("decode %x: %v", b, err)
		return false
	}
	if v, err := d.GetBits(5); err != nil || v != 0x15 {
		t.Logf("marker: %v %v (encoding %x)", v, err, b)
		return false
	}
	if err := d.End(); err != nil {
		t.Logf("end: %v", err)
		return false
	}
	return true
}

// roundTrip frames k's put and get and checks that get reads k's value.
func roundTrip(t *testing.T, r *rand.Rand, k kat) bool {
	t.Helper()
	var got any
	return frame(t, r, k.put, func(d *Reader) (err error) { got, err = k.get(d); return }) && equalVal(got, k.val)
}

// randRange picks lb <= ub with ranges of every size class: tiny,
// bit-field, one octet, two octets, multi-octet, full 64 bits.
func randRange(r *rand.Rand) (lb, ub int64) {
	lb = int64(r.Uint64())
	if r.Intn(2) == 0 {
		lb = r.Int63n(2000) - 1000
	}
	var span uint64
	switch r.Intn(7) {
	case 0:
		span = uint64(r.Intn(3))
	case 1:
		span = uint64(r.Intn(255))
	case 2:
		span = 255
	case 3:
		span = 256 + uint64(r.Intn(65536-256))
	case 4:
		span = uint64(r.Int63n(1 << 40))
	case 5:
		span = r.Uint64()
	default:
		return math.MinInt64, math.MaxInt64
	}
	if span > uint64(math.MaxInt64)-uint64(lb) {
		return lb, math.MaxInt64
	}
	return lb, int64(uint64(lb) + span)
}

func randIn(r *rand.Rand, lb, ub int64) int64 {
	rng1 := uint64(ub) - uint64(lb)
	var off uint64
	switch r.Intn(4) {
	case 0:
		off = 0
	case 1:
		off = rng1
	default:
		off = r.Uint64()
		if rng1 != math.MaxUint64 {
			off %= rng1 + 1
		}
	}
	return int64(uint64(lb) + off)
}

func TestRoundTripConstrained(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		lb, ub := randRange(r)
		return roundTrip(t, r, constrained(randIn(r, lb, ub), lb, ub))
	})
}

func TestRoundTripConstrainedExt(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		lb, ub := randRange(r)
		v := randIn(r, lb, ub)
		if r.Intn(3) == 0 {
			v = int64(r.Uint64()) // often outside the root
		}
		return roundTrip(t, r, constrainedExt(v, lb, ub))
	})
}

func TestRoundTripSemiConstrained(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		lb, _ := randRange(r)
		return roundTrip(t, r, semiConstrained(randIn(r, lb, math.MaxInt64), lb))
	})
}

func TestRoundTripUnconstrained(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		return roundTrip(t, r, unconstrained(int64(r.Uint64())>>uint(r.Intn(64))))
	})
}

func TestRoundTripNormallySmall(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		n := r.Intn(130)
		if r.Intn(4) == 0 {
			n = int(r.Int63() >> uint(r.Intn(63)))
		}
		return roundTrip(t, r, normallySmall(n))
	})
}

func TestRoundTripNormallySmallLength(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		n := 1 + r.Intn(k16-1)
		if r.Intn(2) == 0 {
			n = 1 + r.Intn(130)
		}
		return roundTrip(t, r, normallySmallLength(n))
	})
}

func TestRoundTripBits(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		n := r.Intn(65)
		v := r.Uint64()
		if n < 64 {
			v &= 1<<uint(n) - 1
		}
		var got uint64
		ok := frame(t, r, func(e *Writer) error { e.PutBits(v, n); return nil },
			func(d *Reader) (err error) { got, err = d.GetBits(n); return })
		return ok && got == v
	})
}

// randSize picks a SIZE constraint, a size (inside it unless ext) and
// whether it is extensible. maxN bounds the sizes drawn.
func randSize(r *rand.Rand, maxN int) (n, lb, ub int, ext bool) {
	ext = r.Intn(4) == 0
	switch r.Intn(6) {
	case 0: // unconstrained
		lb, ub = 0, Unbounded
	case 1: // fixed
		lb = r.Intn(40)
		if r.Intn(8) == 0 {
			lb = r.Intn(maxN)
		}
		ub = lb
	case 2: // small variable
		lb = r.Intn(10)
		ub = lb + 1 + r.Intn(300)
	case 3: // ub just below / at / above 64K
		lb = r.Intn(3)
		ub = k64 - 2 + r.Intn(4)
	case 4: // lb..MAX
		lb, ub = r.Intn(20), Unbounded
	default:
		lb, ub = 0, 0
	}
	hi := ub
	if hi == Unbounded || hi > maxN {
		hi = max(lb, maxN)
	}
	n = lb + r.Intn(hi-lb+1)
	if ext && r.Intn(2) == 0 {
		n = r.Intn(maxN + 1)
	}
	if r.Intn(50) == 0 && ub == Unbounded {
		n = max(lb, k16*(1+r.Intn(4))+r.Intn(3)-1) // fragment boundaries
	}
	return n, lb, ub, ext
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	r.Read(b)
	return b
}

func TestRoundTripOctetString(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		n, lb, ub, ext := randSize(r, 600)
		b := randBytes(r, n)
		var got, got2 []byte
		ok := frame(t, r, func(e *Writer) error { return e.PutOctetString(b, lb, ub, ext) },
			func(d *Reader) (err error) {
				d2 := *d
				got2, _ = d2.AppendOctetString([]byte{9}, lb, ub, ext)
				got, err = d.GetOctetString(lb, ub, ext)
				return
			})
		return ok && bytes.Equal(got, b) && bytes.Equal(got2, append([]byte{9}, b...))
	})
}

func TestRoundTripBitString(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		n, lb, ub, ext := randSize(r, 300)
		if r.Intn(30) == 0 && ub == Unbounded && !ext {
			n = max(lb, k16*r.Intn(5)+r.Intn(20)) // bits around fragment sizes
		}
		b := randBytes(r, (n+7)/8)
		if n%8 != 0 {
			b[len(b)-1] &^= 0xFF >> uint(n%8) // unused bits are returned as zero
		}
		return roundTrip(t, r, bitString(b, n, lb, ub, ext))
	})
}

func TestRoundTripNamedBits(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		mask := r.Uint64() >> uint(r.Intn(65))
		lb, ub := 0, Unbounded
		switch r.Intn(3) {
		case 1:
			lb = r.Intn(70)
			ub = max(lb, bits.Len64(mask)) + r.Intn(3)
		case 2:
			lb = max(bits.Len64(mask), r.Intn(80))
			ub = lb
		}
		ext := r.Intn(3) == 0
		return roundTrip(t, r, namedBits(mask, lb, ub, ext))
	})
}

var testAlphabets = []*CharSet{
	IA5String, VisibleString, PrintableString, NumericString,
	NewCharSet("AB"), NewCharSet("0123456789*#"), NewCharSet("abc"), NewCharSet("\x00\x01\x02\x03"),
	NewCharSet("x"),
}

func alphabetOf(cs *CharSet) []byte {
	var out []byte
	for c := range 256 {
		if cs.enc[c] >= 0 {
			out = append(out, byte(c))
		}
	}
	return out
}

func TestRoundTripString(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		cs := testAlphabets[r.Intn(len(testAlphabets))]
		chars := alphabetOf(cs)
		n, lb, ub, ext := randSize(r, 200)
		s := make([]byte, n)
		for i := range s {
			s[i] = chars[r.Intn(len(chars))]
		}
		return roundTrip(t, r, ia5(string(s), lb, ub, ext, cs))
	})
}

func TestRoundTripChoice(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		root := 1 + r.Intn(300)
		ext := r.Intn(2) == 0
		idx := r.Intn(root)
		if ext && r.Intn(2) == 0 {
			idx = root + r.Intn(200)
		}
		var got int
		var isExt bool
		ok := frame(t, r, func(e *Writer) error { return e.PutEnumerated(idx, root, ext) },
			func(d *Reader) (err error) { got, isExt, err = d.GetEnumerated(root, ext); return })
		return ok && got == idx && isExt == (idx >= root)
	})
}

func TestRoundTripExtensionBitmap(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		n := 1 + r.Intn(64)
		present := r.Uint64()
		if n < 64 {
			present &= 1<<uint(n) - 1
		}
		known := r.Intn(n + 1)
		wantKnown := present
		if known < 64 {
			wantKnown &= 1<<uint(known) - 1
		}
		return roundTrip(t, r, bitmap(present, n, known, wantKnown, bits.OnesCount64(present^wantKnown)))
	})
}

func TestRoundTripLength(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		n, lb, ub, ext := randSize(r, 1000)
		var got []int
		ok := frame(t, r, func(e *Writer) error {
			k, more, err := e.PutLength(n, lb, ub, ext)
			for i := 0; err == nil; {
				for end := i + k; i < end; i++ {
					e.PutBits(uint64(i), 2)
				}
				if !more {
					break
				}
				k, more = e.PutLengthChunk(n - i)
			}
			return err
		}, func(d *Reader) error {
			k, more, err := d.GetLength(lb, ub, ext, 2)
			for err == nil {
				for range k {
					v, err := d.GetBits(2)
					if err != nil {
						return err
					}
					got = append(got, int(v))
				}
				if !more {
					break
				}
				k, more, err = d.GetLengthChunk(2)
			}
			return err
		})
		if !ok || len(got) != n {
			return false
		}
		for i, v := range got {
			if v != i&3 {
				return false
			}
		}
		return true
	})
}

// TestRoundTripOpenType nests random open types: each contains random
// fields and possibly another open type, and is skipped or decoded.
func TestRoundTripOpenType(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		depth := 1 + r.Intn(3)
		sizes := make([]int, depth)
		for i := range sizes {
			sizes[i] = r.Intn(300)
			if r.Intn(40) == 0 {
				sizes[i] = k16 + r.Intn(3) - 1
			}
		}
		skip := r.Intn(2) == 0
		var put func(e *Writer, level int) error
		put = func(e *Writer, level int) error {
			m := e.BeginOpenType()
			e.PutBits(uint64(level), 3)
			e.putOctets(rep(byte(level), sizes[level]))
			if level+1 < depth {
				if err := put(e, level+1); err != nil {
					return err
				}
			}
			return e.EndOpenType(m)
		}
		var get func(d *Reader, level int) error
		get = func(d *Reader, level int) error {
			if skip && level == 0 {
				return d.SkipOpenType()
			}
			sub, err := d.OpenType()
			if err != nil {
				return err
			}
			if v, err := sub.GetBits(3); err != nil || v != uint64(level) {
				return errors.New("level")
			}
			for range sizes[level] {
				if v, err := sub.GetBits(8); err != nil || v != uint64(level) {
					return errors.New("contents")
				}
			}
			if level+1 < depth {
				if err := get(&sub, level+1); err != nil {
					return err
				}
			}
			return sub.End()
		}
		return frame(t, r, func(e *Writer) error { return put(e, 0) },
			func(d *Reader) error { return get(d, 0) })
	})
}

func TestRoundTripObjectIdentifier(t *testing.T) {
	quickCheck(t, func(r *rand.Rand) bool {
		arcs := []uint64{uint64(r.Intn(3)), uint64(r.Intn(40))}
		if arcs[0] == 2 {
			arcs[1] = r.Uint64() >> uint(1+r.Intn(63))
		}
		for range r.Intn(8) {
			arcs = append(arcs, r.Uint64()>>uint(r.Intn(64)))
		}
		var got []uint64
		ok := frame(t, r, func(e *Writer) error { return e.PutObjectIdentifier(arcs) },
			func(d *Reader) (err error) { got, err = d.GetObjectIdentifier(nil); return })
		if !ok || len(got) != len(arcs) {
			return false
		}
		for i := range got {
			if got[i] != arcs[i] {
				return false
			}
		}
		return true
	})
}

// TestGetFieldOctets: the one-read bit-field octets equal what
// AppendOctetString reads for a fixed size, at every bit offset; short of
// bits (or over the length limit) they leave the reader as it was, for
// AppendOctetString to report.
func TestGetFieldOctets(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 1; n <= 2; n++ {
		for skip := range 8 {
			buf := make([]byte, 4)
			rng.Read(buf)
			a, b := NewReader(buf), NewReader(buf)
			a.pos, b.pos = skip, skip
			want, err := a.AppendOctetString(nil, n, n, false)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, n)
			if !b.GetFieldOctets(got) || !bytes.Equal(got, want) || a.pos != b.pos {
				t.Errorf("n %d at bit %d: %x (pos %d), want %x (pos %d)", n, skip, got, b.pos, want, a.pos)
			}
			short := NewReader(buf[:1])
			short.pos = skip
			if n == 2 || skip > 0 {
				if short.GetFieldOctets(got) || short.pos != skip {
					t.Errorf("n %d at bit %d of one octet: read, pos %d", n, skip, short.pos)
				}
			}
		}
	}
	r := NewReader([]byte{1, 2})
	r.SetMaxLength(1)
	if r.GetFieldOctets(make([]byte, 2)) {
		t.Error("two octets read under a length limit of one")
	}
}
