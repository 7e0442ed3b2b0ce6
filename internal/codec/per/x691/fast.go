package x691

import "encoding/binary"

// The methods below are for generated code that knows a value's
// constraint when it is generated and passes what follows from it (bit
// counts, ranges) as constants. Each serves the common case, a value well
// inside the input, from one 8-octet load; anything else (the end of the
// input, a value out of range, a long form) falls back to the general
// method, which reads it or reports it with the same error, from an
// unchanged position.

// peek returns the n <= 57 bits at the current position, ok false when
// fewer than 8 octets are left from the current one.
func (d *Reader) peek(n int) (v uint64, ok bool) {
	if i := d.pos >> 3; i+8 <= len(d.buf) {
		return binary.BigEndian.Uint64(d.buf[i:]) << uint(d.pos&7) >> uint(64-n), true
	}
	return 0, false
}

// GetSmallConstrained is GetConstrained(lb, ub) for a range of less than
// 256 values (a bit-field, not aligned) of n = bits.Len64(ub-lb) bits.
func (d *Reader) GetSmallConstrained(lb, ub int64, n int) (int64, error) {
	if v, ok := d.peek(n); ok && v <= uint64(ub-lb) {
		d.pos += n
		return lb + int64(v), nil
	}
	return d.GetConstrained(lb, ub)
}

// TryIndex reads the index of a root CHOICE alternative or ENUMERATED
// value of count, in n bits (with the extension bit first, if any), small
// enough to be inlined: ok false (the index is an extension's, or fewer
// than 8 octets are left), d is unchanged and the caller reads it with
// GetChoiceIndex or GetEnumerated, which also report what is wrong.
func (d *Reader) TryIndex(n, count int) (index int, ok bool) {
	if i := d.pos >> 3; i+8 <= len(d.buf) {
		// A set extension bit makes the value at least count.
		if v := int(binary.BigEndian.Uint64(d.buf[i:]) << uint(d.pos&7) >> uint(64-n)); v < count {
			d.pos += n
			return v, true
		}
	}
	return 0, false
}

// GetUint32 is GetConstrained(0, 4294967295), the type of every
// transaction, context and request ID: its octet count less one in 2
// bits, then the octets from the next octet boundary (X.691 10.5.7.4).
func (d *Reader) GetUint32() (uint32, error) {
	p := d.pos
	if i := p >> 3; i+8 <= len(d.buf) {
		w := binary.BigEndian.Uint64(d.buf[i:])
		n := int(w<<uint(p&7)>>62) + 1
		q := (p + 2 + 7) &^ 7
		if j := q >> 3; j+4 <= len(d.buf) {
			d.pos = q + 8*n
			return binary.BigEndian.Uint32(d.buf[j:]) >> uint(32-8*n), nil
		}
	}
	v, err := d.GetConstrained(0, 1<<32-1)
	return uint32(v), err
}

// GetSizedOctets is GetOctetString(lb, ub, false) for 0 <= lb < ub and a
// range of less than 256 sizes: the size less lb in n = bits.Len(ub-lb)
// bits, then the octets from the next octet boundary, returned as a
// sub-slice of the input.
func (d *Reader) GetSizedOctets(lb, ub, n int) ([]byte, error) {
	if v, ok := d.peek(n); ok && v <= uint64(ub-lb) {
		size := lb + int(v)
		q := (d.pos + n + 7) &^ 7
		if i := q >> 3; size <= d.maxLen && i+size <= len(d.buf) {
			d.pos = q + 8*size
			return d.buf[i : i+size : i+size], nil
		}
	}
	return d.GetOctetString(lb, ub, false)
}

// GetFixedOctets is GetOctetString(size, size, false) for 2 < size < 64K:
// the octets from the next octet boundary, with no length, returned as a
// sub-slice of the input.
func (d *Reader) GetFixedOctets(size int) ([]byte, error) {
	q := (d.pos + 7) &^ 7
	if i := q >> 3; size <= d.maxLen && i+size <= len(d.buf) {
		d.pos = q + 8*size
		return d.buf[i : i+size : i+size], nil
	}
	return d.GetOctetString(size, size, false)
}

// TryBits reads n <= 57 bits when at least 8 octets are left from the
// current one, small enough to be inlined: ok false, d is unchanged and
// the caller reads them with GetBits (which also reports a short input).
func (d *Reader) TryBits(n int) (v uint64, ok bool) {
	if i := d.pos >> 3; i+8 <= len(d.buf) {
		v = binary.BigEndian.Uint64(d.buf[i:]) << uint(d.pos&7) >> uint(64-n)
		d.pos += n
		return v, true
	}
	return 0, false
}

// TryCount reads the common count of a SEQUENCE OF without a size
// constraint, one octet below 128 at the next octet boundary, small
// enough to be inlined: ok false, d is unchanged and the caller reads it
// with GetShortLength (which also reports what is wrong).
func (d *Reader) TryCount() (n int, ok bool) {
	p := (d.pos + 7) &^ 7
	if i := p >> 3; i < len(d.buf) && d.buf[i] < 0x80 && int(d.buf[i]) <= d.maxLen {
		d.pos = p + 8
		return int(d.buf[i]), true
	}
	return 0, false
}

// GetFixedChars is GetString(size, size, false, cs) for 2 < size < 64K
// and an alphabet of 8-bit characters sent as their own codes (IA5String,
// VisibleString, PrintableString): the octets from the next octet
// boundary, each checked against cs, returned as a sub-slice of the input.
func (d *Reader) GetFixedChars(size int, cs *CharSet) ([]byte, error) {
	q := (d.pos + 7) &^ 7
	if i := q >> 3; cs.bits == 8 && cs.dec == nil && size <= d.maxLen && i+size <= len(d.buf) {
		s := d.buf[i : i+size : i+size]
		for _, c := range s {
			if cs.enc[c] < 0 {
				return d.GetString(size, size, false, cs) // reports it
			}
		}
		d.pos = q + 8*size
		return s, nil
	}
	return d.GetString(size, size, false, cs)
}

// GetAlignedConstrained is GetConstrained(lb, ub) for a range of 256 to
// 64K values: n = 1 or 2 octets from the next octet boundary.
func (d *Reader) GetAlignedConstrained(lb, ub int64, n int) (int64, error) {
	q := (d.pos + 7) &^ 7
	if i := q >> 3; i+2 <= len(d.buf) {
		v := uint64(binary.BigEndian.Uint16(d.buf[i:])) >> uint(16-8*n)
		if v <= uint64(ub-lb) {
			d.pos = q + 8*n
			return lb + int64(v), nil
		}
	}
	return d.GetConstrained(lb, ub)
}

// TryUint32 reads what GetUint32 reads when at least 8 octets are left
// from the current one (then the value's octets are there too), small
// enough to be inlined: ok false, d is unchanged and the caller reads it
// with GetUint32, which also reports a short input.
func (d *Reader) TryUint32() (v uint32, ok bool) {
	p := d.pos
	if i := p >> 3; i+8 <= len(d.buf) {
		n := uint(binary.BigEndian.Uint16(d.buf[i:])<<uint(p&7)>>14) + 1
		q := (p + 9) &^ 7
		d.pos = q + 8*int(n)
		return binary.BigEndian.Uint32(d.buf[q>>3:]) >> (32 - 8*n), true
	}
	return 0, false
}
