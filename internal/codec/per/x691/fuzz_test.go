package x691

import (
	"math"
	"testing"

	"megaco/internal/codec/codecerr"
)

// FuzzDecoder runs a small program of decoder calls, chosen by the first
// octets of the input, over the rest of the input. Whatever the bytes, no
// call may panic, every call must return (the number of calls is bounded
// and each is bounded by the input), a failing call must return a *codecerr.Error
// with an offset inside the input, and every value that decodes must encode
// again to something that decodes to the same value.
//
// Layout: data[0] = number of steps (at most 24), then 3 octets per step
// (operation, two parameters), then the PER input.
func FuzzDecoder(f *testing.F) {
	f.Add(append([]byte{3, 0, 0, 0, 0, 0, 0, 2, 0, 99}, msg03...))
	f.Add(append([]byte{4, 0, 0, 0, 2, 0, 99, 14, 5, 1, 10, 4, 1}, msg03...))
	f.Add([]byte{2, 16, 0, 0, 2, 0, 7, 0x01, 0xA0})
	f.Add([]byte{1, 10, 0, 0, 0xC1, 0x00})
	f.Add([]byte{2, 8, 3, 0, 18, 0, 0, 0x06, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d})
	f.Add([]byte{1, 13, 1, 2, 0x04, 0x61, 0x62})
	f.Add([]byte{1, 15, 3, 0, 0x05, 0x40})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		steps := min(int(data[0]), 24)
		prog := data[1:]
		if len(prog) < 3*steps {
			steps = len(prog) / 3
		}
		input := prog[3*steps:]
		d := NewReader(input)
		for i := range steps {
			op, p1, p2 := prog[3*i], prog[3*i+1], prog[3*i+2]
			before := d.BitOffset()
			err := fuzzStep(t, &d, op, p1, p2)
			if err != nil {
				pe, ok := err.(*codecerr.Error)
				if !ok {
					t.Fatalf("op %d: error %T is not *codecerr.Error", op, err)
				}
				if pe.Pos.Unit != codecerr.Bit || pe.Pos.Offset < 0 || pe.Pos.Offset > len(input)*8 {
					t.Fatalf("op %d: error position %+v outside the %d-bit input: %v", op, pe.Pos, len(input)*8, err)
				}
				return
			}
			if d.BitOffset() < before || d.pos > len(d.buf)*8 {
				t.Fatalf("op %d: position went from %d to %d (of %d)", op, before, d.BitOffset(), len(d.buf)*8)
			}
		}
	})
}

// fuzzRange derives an INTEGER constraint from two parameter octets,
// covering every size class of range.
func fuzzRange(p1, p2 byte) (lb, ub int64) {
	lb = int64(int8(p1))
	spans := []uint64{uint64(p2), 255, 256, 65535, 65536, math.MaxUint32, math.MaxUint64}
	span := spans[int(p2)%len(spans)]
	if span > uint64(math.MaxInt64)-uint64(lb) {
		return lb, math.MaxInt64
	}
	return lb, int64(uint64(lb) + span)
}

// fuzzSize derives a SIZE constraint (possibly an invalid one, which must
// be reported as an error, not cause a panic).
func fuzzSize(p1, p2 byte) (lb, ub int, ext bool) {
	lb = int(p1 % 24)
	ext = p1&0x80 != 0
	switch p2 % 6 {
	case 0:
		return lb, Unbounded, ext
	case 1:
		return lb, lb, ext
	case 2:
		return lb, lb + int(p2/6), ext
	case 3:
		return lb, 65535 + int(p2/6)%3, ext
	case 4:
		return 0, 0, ext
	default:
		return lb, lb - 1 - int(p2/6)%3, ext // invalid
	}
}

func fuzzStep(t *testing.T, d *Reader, op, p1, p2 byte) error {
	switch op % 21 {
	case 0:
		_, err := d.GetBool()
		return err
	case 1:
		_, err := d.GetBits(int(p1) % 70)
		return err
	case 2:
		lb, ub := fuzzRange(p1, p2)
		v, err := d.GetConstrained(lb, ub)
		return reencode(t, err, constrained(v, lb, ub))
	case 3:
		lb, ub := fuzzRange(p1, p2)
		v, err := d.GetConstrainedExt(lb, ub)
		return reencode(t, err, constrainedExt(v, lb, ub))
	case 4:
		lb, _ := fuzzRange(p1, p2)
		v, err := d.GetSemiConstrained(lb)
		return reencode(t, err, semiConstrained(v, lb))
	case 5:
		v, err := d.GetUnconstrained()
		return reencode(t, err, unconstrained(v))
	case 6:
		v, err := d.GetNormallySmall()
		return reencode(t, err, normallySmall(v))
	case 7:
		_, err := d.GetNormallySmallLength()
		return err
	case 8:
		lb, ub, ext := fuzzSize(p1, p2)
		_, _, err := d.GetLength(lb, ub, ext, int(p2%9))
		return err
	case 9:
		_, _, err := d.GetLengthChunk(int(p1 % 9))
		return err
	case 10:
		lb, ub, ext := fuzzSize(p1, p2)
		v, err := d.GetOctetString(lb, ub, ext)
		return reencode(t, err, octets(v, lb, ub, ext))
	case 11:
		lb, ub, ext := fuzzSize(p1, p2)
		v, n, err := d.AppendBitString(nil, lb, ub, ext)
		return reencode(t, err, bitString(v, n, lb, ub, ext))
	case 12:
		lb, ub, ext := fuzzSize(p1, p2)
		_, err := d.GetNamedBits(lb, ub, ext)
		return err
	case 13:
		lb, ub, ext := fuzzSize(p1, p2)
		cs := testAlphabets[int(p2)%len(testAlphabets)]
		v, err := d.GetString(lb, ub, ext, cs)
		return reencode(t, err, ia5(string(v), lb, ub, ext, cs))
	case 14:
		root, ext := 1+int(p1%64), p2&1 != 0
		v, _, err := d.GetChoiceIndex(root, ext)
		return reencode(t, err, choice(v, root, ext))
	case 15:
		_, _, err := d.GetExtensionBitmap(int(p1 % 70))
		return err
	case 16:
		sub, err := d.OpenType()
		if err == nil && p1&1 != 0 {
			*d = sub // continue inside the open type
		}
		return err
	case 17:
		return d.SkipOpenType()
	case 18:
		_, err := d.GetObjectIdentifier(nil)
		return err
	case 19:
		d.Align()
		return nil
	default:
		_ = d.End()
		return nil
	}
}

// reencode checks, when a value decoded without error, that its
// known-answer form k (made from the decoded value) encodes and decodes
// back to it; it returns err.
func reencode(t *testing.T, err error, k kat) error {
	t.Helper()
	if err != nil {
		return err
	}
	var e Writer
	e.Reset(nil)
	if err := k.put(&e); err != nil {
		t.Fatalf("re-encoding decoded value %v: %v", k.val, err)
	}
	d := NewReader(e.Finish())
	d.SetMaxLength(math.MaxInt)
	got, err := k.get(&d)
	if err != nil {
		t.Fatalf("decoding re-encoded %v: %v", k.val, err)
	}
	if !equalVal(got, k.val) {
		t.Fatalf("re-encoded %v decodes as %v", k.val, got)
	}
	return nil
}
