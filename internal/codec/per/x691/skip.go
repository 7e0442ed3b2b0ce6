package x691

import "encoding/binary"

// The Skip methods advance over a value without returning it: a scanner
// that follows the schema but keeps nothing (per.Scan) walks a whole
// message with them and allocates nothing, where the Get methods would
// copy the unaligned or fragmented values. Every length is checked as the
// Get methods check it, so that the work stays bounded by the input; the
// characters of a string are not checked against its alphabet.

// SkipOctetString skips an OCTET STRING with SIZE (lb..ub), extensible if
// ext.
func (d *Reader) SkipOctetString(lb, ub int, ext bool) error {
	return d.skipUnits(lb, ub, ext, 8, true)
}

// SkipBitString skips a BIT STRING with SIZE (lb..ub), extensible if ext
// (with or without named bits: the layout is the same).
func (d *Reader) SkipBitString(lb, ub int, ext bool) error {
	return d.skipUnits(lb, ub, ext, 1, true)
}

// SkipString skips a known-multiplier character string of alphabet cs.
func (d *Reader) SkipString(lb, ub int, ext bool, cs *CharSet) error {
	return d.skipUnits(lb, ub, ext, cs.bits, cs.varAligned(ub))
}

// skipUnits skips a value of units of unitBits bits under a size
// constraint, laid out as sizePrefix reads it.
func (d *Reader) skipUnits(lb, ub int, ext bool, unitBits int, varAligned bool) error {
	n, m, more, err := d.sizePrefix(lb, ub, ext, unitBits, unitBits, varAligned)
	if err != nil || m == modeEmpty {
		return err
	}
	if m != modeFragmented {
		d.pos += n * unitBits // sizePrefix checked that they are there
		return nil
	}
	start, total := d.pos, 0
	for {
		d.pos += n * unitBits
		total += n
		if !more {
			return nil
		}
		if n, more, err = d.GetLengthChunk(unitBits); err != nil {
			return err
		}
		if total+n > d.maxLen {
			return d.tooLarge(start, "fragmented length exceeds the limit %d", d.maxLen)
		}
	}
}

// SkipObjectIdentifier skips an OBJECT IDENTIFIER (its contents are not
// checked).
func (d *Reader) SkipObjectIdentifier() error {
	n, more, err := d.GetLengthChunk(8)
	if err != nil {
		return err
	}
	if more || n == 0 {
		return unsupported(d.base+d.pos-8, "object identifier of %d octets not supported", n)
	}
	d.pos += 8 * n
	return nil
}

// SkipBits skips an n-bit field (n >= 0): the fixed-size values a
// scanner passes whole, such as a run of booleans and small integers.
func (d *Reader) SkipBits(n int) error {
	if uint(n) <= uint(len(d.buf)*8-d.pos) { // n < 0 fails too
		d.pos += n
		return nil
	}
	return d.errSkip(n)
}

//go:noinline
func (d *Reader) errSkip(n int) error {
	if n < 0 {
		return d.badCall("cannot skip %d bits", n)
	}
	return d.errEOF(d.pos, n)
}

// The fast paths below serve the common case of a scanner in one
// comparison, and fall back to the general methods for everything else
// (a long form, a fragment, an error), which report it.

// GetShortLength is GetLengthChunk with a fast path for a length of less
// than 128 units (one octet), the usual case.
func (d *Reader) GetShortLength(unitBits int) (n int, more bool, err error) {
	p := (d.pos + 7) &^ 7
	if i := p >> 3; i < len(d.buf) {
		if b0 := int(d.buf[i]); b0 < 0x80 && b0 <= d.maxLen && b0*unitBits <= len(d.buf)*8-p-8 {
			d.pos = p + 8
			return b0, false, nil
		}
	}
	return d.GetLengthChunk(unitBits)
}

// SkipUnboundedOctets skips an OCTET STRING with no size constraint.
func (d *Reader) SkipUnboundedOctets() error {
	p := (d.pos + 7) &^ 7
	if i := p >> 3; i < len(d.buf) {
		if b0 := int(d.buf[i]); b0 < 0x80 && b0 <= d.maxLen && p+8+8*b0 <= len(d.buf)*8 {
			d.pos = p + 8 + 8*b0
			return nil
		}
	}
	return d.SkipOctetString(0, Unbounded, false)
}

// TakeOctets returns the next n octets, at an octet-aligned position, as
// a sub-slice of the input.
func (d *Reader) TakeOctets(n int) ([]byte, error) {
	if d.pos&7 != 0 {
		return nil, d.badCall("octets at unaligned bit %d", d.pos)
	}
	if err := d.SkipBits(8 * n); err != nil {
		return nil, err
	}
	p := d.pos>>3 - n
	return d.buf[p : p+n : p+n], nil
}

// ReadBits is GetBits with the common case inlined: at most 57 bits with
// 8 octets left to load.
func (d *Reader) ReadBits(n int) (uint64, error) {
	if i := d.pos >> 3; uint(n) <= 57 && i+8 <= len(d.buf) {
		v := binary.BigEndian.Uint64(d.buf[i:]) << uint(d.pos&7) >> uint(64-n)
		d.pos += n
		return v, nil
	}
	return d.GetBits(n)
}
