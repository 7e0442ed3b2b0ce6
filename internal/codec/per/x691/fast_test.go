package x691

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// Each fast read agrees with the general read it stands for, in value,
// error and position, at every bit offset of random inputs of every
// length (so also near and past the end), under a small maximum length.
func TestFastReadsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type read func(d *Reader) (any, error)
	pairs := []struct {
		name       string
		fast, slow read
	}{
		{"uint32", func(d *Reader) (any, error) { v, err := d.GetUint32(); return int64(v), err },
			func(d *Reader) (any, error) { return d.GetConstrained(0, 1<<32-1) }},
		{"small 3..9", func(d *Reader) (any, error) { return d.GetSmallConstrained(3, 9, 3) },
			func(d *Reader) (any, error) { return d.GetConstrained(3, 9) }},
		{"small 0..15", func(d *Reader) (any, error) { return d.GetSmallConstrained(0, 15, 4) },
			func(d *Reader) (any, error) { return d.GetConstrained(0, 15) }},
		{"small 5..5", func(d *Reader) (any, error) { return d.GetSmallConstrained(5, 5, 0) },
			func(d *Reader) (any, error) { return d.GetConstrained(5, 5) }},
		{"aligned 0..65535", func(d *Reader) (any, error) { return d.GetAlignedConstrained(0, 65535, 2) },
			func(d *Reader) (any, error) { return d.GetConstrained(0, 65535) }},
		{"aligned 10..300", func(d *Reader) (any, error) { return d.GetAlignedConstrained(10, 300, 2) },
			func(d *Reader) (any, error) { return d.GetConstrained(10, 300) }},
		{"aligned 1..256", func(d *Reader) (any, error) { return d.GetAlignedConstrained(1, 256, 1) },
			func(d *Reader) (any, error) { return d.GetConstrained(1, 256) }},
		{"index 5 ext", func(d *Reader) (any, error) { i, x, err := tryIndex(d, 5, true); return [2]any{i, x}, err },
			func(d *Reader) (any, error) { i, x, err := d.GetChoiceIndex(5, true); return [2]any{i, x}, err }},
		{"index 4", func(d *Reader) (any, error) { i, x, err := tryIndex(d, 4, false); return [2]any{i, x}, err },
			func(d *Reader) (any, error) { i, x, err := d.GetChoiceIndex(4, false); return [2]any{i, x}, err }},
		{"index 1", func(d *Reader) (any, error) { i, x, err := tryIndex(d, 1, false); return [2]any{i, x}, err },
			func(d *Reader) (any, error) { i, x, err := d.GetChoiceIndex(1, false); return [2]any{i, x}, err }},
		{"sized 1..8", func(d *Reader) (any, error) { return d.GetSizedOctets(1, 8, 3) },
			func(d *Reader) (any, error) { return d.GetOctetString(1, 8, false) }},
		{"sized 0..200", func(d *Reader) (any, error) { return d.GetSizedOctets(0, 200, bits.Len(200)) },
			func(d *Reader) (any, error) { return d.GetOctetString(0, 200, false) }},
		{"fixed 4", func(d *Reader) (any, error) { return d.GetFixedOctets(4) },
			func(d *Reader) (any, error) { return d.GetOctetString(4, 4, false) }},
		{"chars 3 IA5", func(d *Reader) (any, error) { return d.GetFixedChars(3, IA5String) },
			func(d *Reader) (any, error) { return d.GetString(3, 3, false, IA5String) }},
		{"chars 8 printable", func(d *Reader) (any, error) { return d.GetFixedChars(8, PrintableString) },
			func(d *Reader) (any, error) { return d.GetString(8, 8, false, PrintableString) }},
		{"fixed 12", func(d *Reader) (any, error) { return d.GetFixedOctets(12) },
			func(d *Reader) (any, error) { return d.GetOctetString(12, 12, false) }},
	}
	for round := range 300 {
		buf := make([]byte, rng.IntN(24))
		for i := range buf {
			buf[i] = byte(rng.Uint32())
			if round%2 == 0 { // printable, for the character strings
				buf[i] = 'A' + byte(rng.IntN(26))
			}
		}
		for _, p := range pairs {
			for pos := 0; pos <= len(buf)*8; pos++ {
				a, b := NewReader(buf), NewReader(buf)
				a.SetMaxLength(10)
				b.SetMaxLength(10)
				a.pos, b.pos = pos, pos
				va, ea := p.fast(&a)
				vb, eb := p.slow(&b)
				if (ea == nil) != (eb == nil) || (ea != nil && ea.Error() != eb.Error()) {
					t.Fatalf("%s at bit %d of %x: error %v, general read %v", p.name, pos, buf, ea, eb)
				}
				if ea == nil && (!same(va, vb) || a.pos != b.pos) {
					t.Fatalf("%s at bit %d of %x: %v to bit %d, general read %v to bit %d", p.name, pos, buf, va, a.pos, vb, b.pos)
				}
			}
		}
	}
}

func same(a, b any) bool {
	if x, ok := a.([]byte); ok {
		y, _ := b.([]byte)
		return bytes.Equal(x, y)
	}
	return a == b
}

// TryBits, TryUint32 and TryCount, when they read, read what GetBits and
// GetShortLength read; when they do not, the position is unchanged.
func TestTryReadsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		buf := make([]byte, rng.IntN(24))
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
		for pos := 0; pos <= len(buf)*8; pos++ {
			for _, n := range []int{0, 1, 7, 33, 57} {
				a, b := NewReader(buf), NewReader(buf)
				a.pos, b.pos = pos, pos
				v, ok := a.TryBits(n)
				w, err := b.GetBits(n)
				if ok && (err != nil || v != w || a.pos != b.pos) || !ok && a.pos != pos {
					t.Fatalf("TryBits(%d) at bit %d of %x: %d %v to bit %d, GetBits %d %v", n, pos, buf, v, ok, a.pos, w, err)
				}
			}
			a, b := NewReader(buf), NewReader(buf)
			a.pos, b.pos = pos, pos
			if u, ok := a.TryUint32(); ok {
				w, err := b.GetConstrained(0, 1<<32-1)
				if err != nil || int64(u) != w || a.pos != b.pos {
					t.Fatalf("TryUint32 at bit %d of %x: %d to bit %d, GetConstrained %d %v to bit %d", pos, buf, u, a.pos, w, err, b.pos)
				}
			} else if a.pos != pos {
				t.Fatalf("TryUint32 at bit %d moved", pos)
			}
			a, b = NewReader(buf), NewReader(buf)
			a.SetMaxLength(50)
			b.SetMaxLength(50)
			a.pos, b.pos = pos, pos
			k, ok := a.TryCount()
			j, more, err := b.GetShortLength(0)
			if ok && (err != nil || more || k != j || a.pos != b.pos) || !ok && a.pos != pos {
				t.Fatalf("TryCount at bit %d of %x: %d %v to bit %d, GetShortLength %d %v", pos, buf, k, ok, a.pos, j, err)
			}
		}
	}
}

// tryIndex is what the generated code does: TryIndex, else GetChoiceIndex.
func tryIndex(d *Reader, count int, ext bool) (int, bool, error) {
	n := bits.Len(uint(count - 1))
	if ext {
		n++
	}
	if i, ok := d.TryIndex(n, count); ok {
		return i, false, nil
	}
	return d.GetChoiceIndex(count, ext)
}
