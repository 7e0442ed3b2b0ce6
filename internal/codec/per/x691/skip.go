package x691

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
