package x691

import (
	"bytes"
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
		if err == nil {
			reencode(t, func(e *Writer) error { return e.PutConstrained(v, lb, ub) },
				func(d *Reader) (any, error) { return d.GetConstrained(lb, ub) }, v)
		}
		return err
	case 3:
		lb, ub := fuzzRange(p1, p2)
		v, err := d.GetConstrainedExt(lb, ub)
		if err == nil {
			reencode(t, func(e *Writer) error { return e.PutConstrainedExt(v, lb, ub) },
				func(d *Reader) (any, error) { return d.GetConstrainedExt(lb, ub) }, v)
		}
		return err
	case 4:
		lb, _ := fuzzRange(p1, p2)
		v, err := d.GetSemiConstrained(lb)
		if err == nil {
			reencode(t, func(e *Writer) error { return e.PutSemiConstrained(v, lb) },
				func(d *Reader) (any, error) { return d.GetSemiConstrained(lb) }, v)
		}
		return err
	case 5:
		v, err := d.GetUnconstrained()
		if err == nil {
			reencode(t, func(e *Writer) error { e.PutUnconstrained(v); return nil },
				func(d *Reader) (any, error) { return d.GetUnconstrained() }, v)
		}
		return err
	case 6:
		v, err := d.GetNormallySmall()
		if err == nil {
			reencode(t, func(e *Writer) error { return e.PutNormallySmall(v) },
				func(d *Reader) (any, error) { return d.GetNormallySmall() }, v)
		}
		return err
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
		if err == nil {
			v = bytes.Clone(v)
			reencode(t, func(e *Writer) error { return e.PutOctetString(v, lb, ub, ext) },
				func(d *Reader) (any, error) { return d.GetOctetString(lb, ub, ext) }, v)
		}
		return err
	case 11:
		lb, ub, ext := fuzzSize(p1, p2)
		v, n, err := d.AppendBitString(nil, lb, ub, ext)
		if err == nil {
			reencode(t, func(e *Writer) error { return e.PutBitString(v, n, lb, ub, ext) },
				func(d *Reader) (any, error) {
					b, n, err := d.AppendBitString(nil, lb, ub, ext)
					return bitsVal{b, n}, err
				}, bitsVal{v, n})
		}
		return err
	case 12:
		lb, ub, ext := fuzzSize(p1, p2)
		_, err := d.GetNamedBits(lb, ub, ext)
		return err
	case 13:
		lb, ub, ext := fuzzSize(p1, p2)
		cs := testAlphabets[int(p2)%len(testAlphabets)]
		v, err := d.GetString(lb, ub, ext, cs)
		if err == nil {
			s := string(v)
			reencode(t, func(e *Writer) error { return e.PutString(s, lb, ub, ext, cs) },
				func(d *Reader) (any, error) { b, err := d.GetString(lb, ub, ext, cs); return string(b), err }, s)
		}
		return err
	case 14:
		root, ext := 1+int(p1%64), p2&1 != 0
		v, _, err := d.GetChoiceIndex(root, ext)
		if err == nil {
			reencode(t, func(e *Writer) error { return e.PutChoiceIndex(v, root, ext) },
				func(d *Reader) (any, error) { i, _, err := d.GetChoiceIndex(root, ext); return i, err }, v)
		}
		return err
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

// reencode checks that a decoded value encodes and decodes back to itself.
func reencode(t *testing.T, put func(e *Writer) error, get func(d *Reader) (any, error), want any) {
	t.Helper()
	var e Writer
	e.Reset(nil)
	if err := put(&e); err != nil {
		t.Fatalf("re-encoding decoded value %v: %v", want, err)
	}
	d := NewReader(e.Finish())
	d.SetMaxLength(math.MaxInt)
	got, err := get(&d)
	if err != nil {
		t.Fatalf("decoding re-encoded %v: %v", want, err)
	}
	if !equalVal(got, want) {
		t.Fatalf("re-encoded %v decodes as %v", want, got)
	}
}
