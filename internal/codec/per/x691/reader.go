package x691

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/bits"

	"megaco/internal/codec/codecerr"
)

// DefaultMaxLength is the default bound on what one length determinant
// (or the sum of the fragments of one value) may claim, in its units
// (octets, bits, characters or elements). H.248 messages are limited to
// 64K octets by their transports, so nothing legitimate comes near it.
const DefaultMaxLength = 1 << 16

// Reader reads an ALIGNED PER encoding from a byte slice.
//
// It is a small value (slice, bit position, limits): copy it freely, keep
// it on the stack, and pass *Reader to the generated decode functions.
// Make one with NewReader or Reset (the zero value has a length limit of
// zero until Reset).
// Methods never panic, whatever the input: every read is checked against
// the bits left, every length against the bits left and against the
// maximum length, so the work done is bounded by the input size. Octet
// strings and character strings are returned as sub-slices of the input
// when they are octet-aligned and not fragmented; the caller copies them
// if it keeps them beyond the input's lifetime.
type Reader struct {
	buf    []byte
	pos    int // bit position in buf
	base   int // bit offset of buf[0] in the outermost encoding (for errors)
	maxLen int
}

// NewReader returns a reader of b from its first bit, with
// DefaultMaxLength as the length limit.
func NewReader(b []byte) Reader {
	return Reader{buf: b, maxLen: DefaultMaxLength}
}

// Reset makes d read b from its first bit, keeping its length limit.
func (d *Reader) Reset(b []byte) {
	d.buf, d.pos, d.base = b, 0, 0
	if d.maxLen <= 0 {
		d.maxLen = DefaultMaxLength
	}
}

// SetMaxLength sets the largest value a length determinant may claim (and
// the largest total of a fragmented value); n <= 0 restores the default.
// Sub-decoders returned by OpenType inherit it.
func (d *Reader) SetMaxLength(n int) {
	if n <= 0 {
		n = DefaultMaxLength
	}
	d.maxLen = n
}

// BitOffset returns the current position in bits from the start of the
// outermost encoding.
func (d *Reader) BitOffset() int { return d.base + d.pos }

// Remaining returns the number of bits not read yet.
func (d *Reader) Remaining() int { return len(d.buf)*8 - d.pos }

//go:noinline
func (d *Reader) errEOF(at, need int) *codecerr.Error {
	return d.errorf(at, "need %d bits, only %d left", need, len(d.buf)*8-at)
}

// End checks that the whole input was consumed: after the last field only
// the padding to the next octet boundary may remain (X.691 10.1.2), or the
// single zero octet of an empty complete encoding (10.1.3). The values of
// padding bits are not checked.
func (d *Reader) End() error {
	left := len(d.buf) - (d.pos+7)/8
	if left == 0 || (d.pos == 0 && len(d.buf) == 1) {
		return nil
	}
	return d.errorf(d.pos, "%d octets of trailing data", left)
}

// Align skips the padding bits up to the next octet boundary.
func (d *Reader) Align() {
	d.pos = (d.pos + 7) &^ 7
}

// GetBool reads one bit (BOOLEAN, presence bit, extension bit). It is
// small enough to be inlined: the error is built in place rather than by a
// call, which the inliner would charge too much for.
func (d *Reader) GetBool() (bool, error) {
	if p := d.pos; p>>3 < len(d.buf) {
		d.pos++
		return d.buf[p>>3]<<uint(p&7)&0x80 != 0, nil
	}
	return false, &codecerr.Error{Codec: "per", Pos: codecerr.AtBit(d.base + d.pos), Msg: "need 1 bit, 0 left"}
}

// GetBits reads an n-bit field, 0 <= n <= 64, most significant bit first.
func (d *Reader) GetBits(n int) (uint64, error) {
	if uint(n) > 64 || len(d.buf)*8-d.pos < n {
		return 0, d.errBits(n)
	}
	return d.bits(n), nil
}

//go:noinline
func (d *Reader) errBits(n int) *codecerr.Error {
	if uint(n) > 64 {
		return d.badCall("cannot read %d bits at once", n)
	}
	return d.errEOF(d.pos, n)
}

// bits reads n <= 64 bits that are known to be there. The common case
// loads the 8 octets around the position at once.
func (d *Reader) bits(n int) uint64 {
	p := d.pos
	d.pos = p + n
	if i := p >> 3; n <= 57 && i+8 <= len(d.buf) {
		w := binary.BigEndian.Uint64(d.buf[i:])
		return w << uint(p&7) >> uint(64-n)
	}
	return d.bitsSlow(p, n)
}

func (d *Reader) bitsSlow(pos, n int) uint64 {
	var v uint64
	for n > 0 {
		off := uint(pos & 7)
		avail := 8 - int(off)
		c := uint64(d.buf[pos>>3] & (0xFF >> off))
		if n >= avail {
			v = v<<uint(avail) | c
			pos += avail
			n -= avail
		} else {
			v = v<<uint(n) | c>>uint(avail-n)
			pos += n
			n = 0
		}
	}
	return v
}

// octets returns the next n octets of an aligned position as a sub-slice.
func (d *Reader) octets(n int) []byte {
	p := d.pos >> 3
	d.pos += n * 8
	return d.buf[p : p+n : p+n]
}

// GetConstrained reads a constrained whole number in lb..ub (X.691 10.5,
// see Writer.PutConstrained for the layouts). A value outside lb..ub,
// possible when the range is not a power of two, is an error.
func (d *Reader) GetConstrained(lb, ub int64) (int64, error) {
	if ub < lb {
		return 0, d.badCall("invalid constraint %d..%d", lb, ub)
	}
	rng1 := uint64(ub) - uint64(lb)
	start := d.pos
	if rng1 >= 255 && rng1 <= 0xFFFF {
		start = (start + 7) &^ 7 // report where the value's octets start
	}
	off, err := d.getConstrained(rng1)
	if err != nil {
		return 0, err
	}
	if off > rng1 {
		v := new(big.Int).Add(big.NewInt(lb), new(big.Int).SetUint64(off))
		return 0, d.errorf(start, "constrained whole number %s out of range %d..%d", v, lb, ub)
	}
	return int64(uint64(lb) + off), nil
}

// getConstrained reads the offset of a constrained whole number whose
// range is rng1+1, without checking it against rng1.
func (d *Reader) getConstrained(rng1 uint64) (uint64, error) {
	switch {
	case rng1 < 255:
		n := bits.Len64(rng1)
		if len(d.buf)*8-d.pos < n {
			return 0, d.errEOF(d.pos, n)
		}
		return d.bits(n), nil
	case rng1 == 255:
		d.Align()
		if len(d.buf)*8-d.pos < 8 {
			return 0, d.errEOF(d.pos, 8)
		}
		return d.bits(8), nil
	case rng1 <= 0xFFFF:
		d.Align()
		if len(d.buf)*8-d.pos < 16 {
			return 0, d.errEOF(d.pos, 16)
		}
		return d.bits(16), nil
	default:
		start := d.pos
		maxOctets := octetLen(rng1)
		lbits := bits.Len64(uint64(maxOctets - 1))
		if len(d.buf)*8-d.pos < lbits {
			return 0, d.errEOF(d.pos, lbits)
		}
		n := int(d.bits(lbits)) + 1
		if n > maxOctets {
			return 0, d.errorf(start, "constrained whole number of %d octets, at most %d allowed", n, maxOctets)
		}
		d.Align()
		if len(d.buf)*8-d.pos < n*8 {
			return 0, d.errEOF(d.pos, n*8)
		}
		return d.bits(n * 8), nil
	}
}

// GetConstrainedExt reads an INTEGER with an extensible constraint
// (lb..ub, ...): the extension bit, then a constrained or, when the bit
// is set, an unconstrained whole number.
func (d *Reader) GetConstrainedExt(lb, ub int64) (int64, error) {
	ext, err := d.GetBool()
	if err != nil {
		return 0, err
	}
	if ext {
		return d.GetUnconstrained()
	}
	return d.GetConstrained(lb, ub)
}

// intOctets reads the octet-aligned length (1..8) of a semi-constrained or
// unconstrained whole number and returns it with the position of the
// length.
func (d *Reader) intOctets(what string) (int, int, error) {
	d.Align()
	start := d.pos
	n, more, err := d.GetLengthChunk(8)
	if err != nil {
		return 0, start, err
	}
	if more || n > 8 {
		return 0, start, d.tooLarge(start, "%s of %d octets (want 1..8)", what, n)
	}
	if n == 0 {
		return 0, start, d.errorf(start, "%s of %d octets (want 1..8)", what, n)
	}
	return n, start, nil
}

// GetSemiConstrained reads a semi-constrained whole number >= lb
// (X.691 10.7). Values that do not fit an int64 are an error.
func (d *Reader) GetSemiConstrained(lb int64) (int64, error) {
	n, start, err := d.intOctets("semi-constrained whole number")
	if err != nil {
		return 0, err
	}
	off := d.bits(n * 8)
	if off > uint64(math.MaxInt64)-uint64(lb) {
		return 0, d.tooLarge(start, "semi-constrained whole number %d+%d does not fit 64 bits", lb, off)
	}
	return int64(uint64(lb) + off), nil
}

// GetUnconstrained reads an unconstrained whole number (X.691 10.8) of at
// most 8 octets.
func (d *Reader) GetUnconstrained() (int64, error) {
	n, _, err := d.intOctets("unconstrained whole number")
	if err != nil {
		return 0, err
	}
	sh := uint(64 - 8*n)
	return int64(d.bits(n*8)<<sh) >> sh, nil
}

// small6 reads the bit that starts a normally small number or length and,
// when it is 0, the six bits of the value that follow (X.691 10.6.1,
// 10.9.3.4); long is true when the bit is 1 and a longer form follows.
func (d *Reader) small6() (v int, long bool, err error) {
	if long, err = d.GetBool(); err != nil || long {
		return 0, long, err
	}
	if len(d.buf)*8-d.pos < 6 {
		return 0, false, d.errEOF(d.pos, 6)
	}
	return int(d.bits(6)), false, nil
}

// GetNormallySmall reads a normally small non-negative whole number
// (X.691 10.6).
func (d *Reader) GetNormallySmall() (int, error) {
	v, long, err := d.small6()
	if err != nil || !long {
		return v, err
	}
	start := d.pos
	big, err := d.GetSemiConstrained(0)
	if err != nil {
		return 0, err
	}
	if uint64(big) > math.MaxInt {
		return 0, d.tooLarge(start, "normally small number %d too large", big)
	}
	return int(big), nil
}

// GetNormallySmallLength reads a normally small length (X.691 10.9.3.4),
// the length of an extension-addition bitmap.
func (d *Reader) GetNormallySmallLength() (int, error) {
	v, long, err := d.small6()
	if err != nil {
		return 0, err
	}
	if !long {
		return v + 1, nil
	}
	start := d.pos
	n, more, err := d.GetLengthChunk(0)
	if err != nil {
		return 0, err
	}
	if more || n == 0 {
		return 0, unsupported(d.base+start, "normally small length %d not supported", n)
	}
	return n, nil
}

// GetLengthChunk reads one unconstrained length determinant (X.691
// 10.9.3.5–10.9.3.8), octet-aligned. When more is true it was a fragment
// header: n (16K, 32K, 48K or 64K) units follow, then another length
// determinant. unitBits is the least number of bits one unit takes (8 for
// octets, 1 for bits, the character width for strings, the minimal element
// encoding for SEQUENCE OF; 0 if elements can take no bits at all): a
// length whose units cannot fit in the bits left is rejected before
// anything is allocated. Lengths above the maximum length are rejected too.
func (d *Reader) GetLengthChunk(unitBits int) (n int, more bool, err error) {
	d.Align()
	start := d.pos
	if len(d.buf)*8-d.pos < 8 {
		return 0, false, d.errEOF(d.pos, 8)
	}
	b0 := d.buf[d.pos>>3]
	d.pos += 8
	switch {
	case b0&0x80 == 0:
		n = int(b0)
	case b0&0xC0 == 0x80:
		if len(d.buf)*8-d.pos < 8 {
			return 0, false, d.errEOF(d.pos, 8)
		}
		n = int(b0&0x3F)<<8 | int(d.buf[d.pos>>3])
		d.pos += 8
	default:
		m := int(b0 & 0x3F)
		if m < 1 || m > 4 {
			return 0, false, d.errorf(start, "invalid fragment length octet %#02x", b0)
		}
		n, more = m*k16, true
	}
	if err := d.checkLen(start, n, unitBits); err != nil {
		return 0, false, err
	}
	return n, more, nil
}

// shortLength reads the common case of an unconstrained length
// determinant at once: one octet, n < 128, at least lb, within the maximum
// length and the bits left (n units of unitBits bits, as checkLen). ok
// false: d is unchanged, and GetLengthChunk reads it (or reports it).
func (d *Reader) shortLength(lb, unitBits int) (n int, ok bool) {
	p := (d.pos + 7) &^ 7
	i := p >> 3
	if i >= len(d.buf) {
		return 0, false
	}
	n = int(d.buf[i])
	if n >= 0x80 || n < lb || n > d.maxLen || n*unitBits > len(d.buf)*8-p-8 {
		return 0, false
	}
	d.pos = p + 8
	return n, true
}

// GetFieldOctets reads len(dst) octets, at most 8, sent as a bit-field
// (X.691 16.6: an OCTET STRING of a fixed size of one or two octets is
// not octet-aligned) into dst, in one read. ok false: d is unchanged and
// dst untouched (too few bits left, or more octets than the maximum
// length); AppendOctetString then reads, or reports, the same value.
func (d *Reader) GetFieldOctets(dst []byte) (ok bool) {
	n := len(dst) * 8
	if n > 64 || len(dst) > d.maxLen || len(d.buf)*8-d.pos < n {
		return false
	}
	v := d.bits(n)
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = byte(v)
		v >>= 8
	}
	return true
}

// checkLen rejects a length of n units of unitBits bits that exceeds the
// maximum length or the bits left after the current (aligned or not)
// position.
func (d *Reader) checkLen(start, n, unitBits int) error {
	if n > d.maxLen {
		return d.tooLarge(start, "length %d exceeds the limit %d", n, d.maxLen)
	}
	left := len(d.buf)*8 - d.pos
	if unitBits > 0 && n > left/unitBits {
		if unitBits == 8 {
			return d.errorf(start, "length %d exceeds the %d octets left", n, left/8)
		}
		return d.errorf(start, "length %d (%d bits each) exceeds the %d bits left", n, unitBits, left)
	}
	return nil
}

func (d *Reader) checkSize(lb, ub int) error {
	if lb < 0 || (ub != Unbounded && ub < lb) || ub < Unbounded {
		return d.badCall("invalid size constraint %s", sizeString(lb, ub))
	}
	return nil
}

// sizePrefix reads what Writer.sizePrefix writes and returns the size (in
// modeFragmented, the first chunk read with GetLengthChunk) and whether
// more chunks follow. unitBits is the size of a unit for the fixed-size
// alignment rule (0 for SEQUENCE OF, whose elements align themselves);
// checkBits the least size of a unit, used to check that n units fit in
// the bits left.
func (d *Reader) sizePrefix(lb, ub int, ext bool, unitBits, checkBits int, varAligned bool) (n int, m sizeMode, more bool, err error) {
	if !ext && (ub == Unbounded || ub >= k64) && lb >= 0 {
		if n, ok := d.shortLength(lb, checkBits); ok {
			return n, modeFragmented, false, nil
		}
	}
	if err := d.checkSize(lb, ub); err != nil {
		return 0, 0, false, err
	}
	if ext {
		outside, err := d.GetBool()
		if err != nil {
			return 0, 0, false, err
		}
		if outside {
			n, more, err = d.GetLengthChunk(checkBits)
			return n, modeFragmented, more, err
		}
	}
	if ub == 0 {
		return 0, modeEmpty, false, nil
	}
	start := d.pos
	if ub != Unbounded && ub < k64 {
		if lb == ub {
			n, m = lb, modeAligned
			if n*unitBits <= 16 {
				m = modeBits
			}
		} else {
			off, err := d.getConstrained(uint64(ub - lb))
			if err != nil {
				return 0, 0, false, err
			}
			if off > uint64(ub-lb) {
				return 0, 0, false, d.errorf(start, "length %d outside SIZE(%s)", uint64(lb)+off, sizeString(lb, ub))
			}
			n, m = lb+int(off), modeBits
			if varAligned {
				m = modeAligned
			}
		}
		if m == modeAligned {
			d.Align()
		}
		return n, m, false, d.checkLen(start, n, checkBits)
	}
	n, more, err = d.GetLengthChunk(checkBits)
	if err == nil && !more && n < lb {
		err = d.errorf(start, "length %d outside SIZE(%s)", n, sizeString(lb, ub))
	}
	return n, modeFragmented, more, err
}

// GetLength reads the count of a SEQUENCE OF / SET OF under SIZE (lb..ub),
// extensible if ext (mirror of Writer.PutLength). minElemBits is the
// least number of bits an element's encoding can take (see
// GetLengthChunk). It returns how many elements to decode next; when more
// is true the count is fragmented, and after those elements the caller
// continues with GetLengthChunk(minElemBits):
//
//	k, more, err := d.GetLength(lb, ub, ext, minElemBits)
//	for {
//		for range k { /* decode an element */ }
//		if !more { break }
//		if k, more, err = d.GetLengthChunk(minElemBits); err != nil { ... }
//	}
func (d *Reader) GetLength(lb, ub int, ext bool, minElemBits int) (k int, more bool, err error) {
	n, _, more, err := d.sizePrefix(lb, ub, ext, 0, minElemBits, false)
	return n, more, err
}

// GetOctetString reads an OCTET STRING with SIZE (lb..ub), extensible if
// ext (mirror of Writer.PutOctetString). The result is a sub-slice of the
// input when the string is octet-aligned and not fragmented (always the
// case except for fixed sizes of one or two octets at an unaligned
// position); otherwise it is newly allocated. Use AppendOctetString to
// decode into a buffer of your own, e.g. a [2]byte for H.248's
// Name ::= OCTET STRING (SIZE(2)), which is usually not aligned.
func (d *Reader) GetOctetString(lb, ub int, ext bool) ([]byte, error) {
	return d.octetString(nil, lb, ub, ext, false)
}

// AppendOctetString is like GetOctetString but appends the octets to dst.
func (d *Reader) AppendOctetString(dst []byte, lb, ub int, ext bool) ([]byte, error) {
	return d.octetString(dst, lb, ub, ext, true)
}

func (d *Reader) octetString(dst []byte, lb, ub int, ext, appendTo bool) ([]byte, error) {
	n, m, more, err := d.sizePrefix(lb, ub, ext, 8, 8, true)
	if err != nil {
		return dst, err
	}
	switch m {
	case modeEmpty:
		if appendTo {
			return dst, nil
		}
		return d.buf[:0:0], nil
	case modeBits:
		if d.pos&7 == 0 && !appendTo {
			return d.octets(n), nil
		}
		for range n {
			dst = append(dst, byte(d.bits(8)))
		}
		return dst, nil
	case modeAligned:
		if !appendTo {
			return d.octets(n), nil
		}
		return append(dst, d.octets(n)...), nil
	}
	// Fragmented (or unconstrained): a single chunk is a plain sub-slice.
	if !more && !appendTo {
		return d.octets(n), nil
	}
	start := d.pos
	total := 0
	for {
		dst = append(dst, d.octets(n)...)
		total += n
		if !more {
			break
		}
		if n, more, err = d.GetLengthChunk(8); err != nil {
			return dst, err
		}
		if total+n > d.maxLen {
			return dst, d.tooLarge(start, "fragmented length exceeds the limit %d", d.maxLen)
		}
	}
	if total < lb || (ub != Unbounded && total > ub && !ext) {
		return dst, d.errorf(start, "length %d outside SIZE(%s)", total, sizeString(lb, ub))
	}
	return dst, nil
}

// AppendBitString reads a BIT STRING with SIZE (lb..ub), extensible if ext
// (mirror of Writer.PutBitString), appends its bits to dst packed from
// the most significant bit of the first new octet (unused low bits of the
// last octet zero) and returns the number of bits.
func (d *Reader) AppendBitString(dst []byte, lb, ub int, ext bool) ([]byte, int, error) {
	n, m, more, err := d.sizePrefix(lb, ub, ext, 1, 1, true)
	if err != nil || m == modeEmpty {
		return dst, 0, err
	}
	start := d.pos
	total := 0
	for {
		dst = d.appendBits(dst, n)
		total += n
		if !more {
			break
		}
		if n, more, err = d.GetLengthChunk(1); err != nil {
			return dst, total, err
		}
		if total+n > d.maxLen {
			return dst, total, d.tooLarge(start, "fragmented length exceeds the limit %d", d.maxLen)
		}
	}
	return dst, total, nil
}

// appendBits appends n bits (known to be there) packed into octets.
func (d *Reader) appendBits(dst []byte, n int) []byte {
	if d.pos&7 == 0 {
		dst = append(dst, d.octets(n/8)...)
	} else {
		for range n / 8 {
			dst = append(dst, byte(d.bits(8)))
		}
	}
	if r := n % 8; r != 0 {
		dst = append(dst, byte(d.bits(r)<<(8-uint(r))))
	}
	return dst
}

// GetNamedBits reads a BIT STRING with named bits (mirror of
// Writer.PutNamedBits) and returns it as a mask, bit i of the string
// being 1<<i. A set bit beyond the first 64 is an error; zero bits beyond
// them are accepted.
func (d *Reader) GetNamedBits(lb, ub int, ext bool) (uint64, error) {
	n, m, more, err := d.sizePrefix(lb, ub, ext, 1, 1, true)
	if err != nil || m == modeEmpty {
		return 0, err
	}
	var v uint64 // bits in the order sent, first bit most significant
	got := 0
	start := d.pos
	for {
		for n > 0 {
			k := min(n, 64)
			if got < 64 {
				k = min(k, 64-got)
				v = v<<uint(k) | d.bits(k)
			} else if d.bits(k) != 0 {
				return 0, unsupported(d.base+start, "named bit string has a set bit beyond bit 63")
			}
			got += k
			n -= k
		}
		if !more {
			break
		}
		if n, more, err = d.GetLengthChunk(1); err != nil {
			return 0, err
		}
		if got+n > d.maxLen {
			return 0, d.tooLarge(start, "fragmented length exceeds the limit %d", d.maxLen)
		}
	}
	if got == 0 {
		return 0, nil
	}
	k := min(got, 64)
	return bits.Reverse64(v << uint(64-k)), nil
}

// GetString reads a known-multiplier character string (mirror of
// Writer.PutString), checking every character against cs. For 8-bit
// alphabets sent as their own codes (IA5String, VisibleString,
// PrintableString) at an aligned position and not fragmented, the result
// is a sub-slice of the input; otherwise it is newly allocated (use
// AppendString to avoid that).
func (d *Reader) GetString(lb, ub int, ext bool, cs *CharSet) ([]byte, error) {
	return d.kmString(nil, lb, ub, ext, cs, false)
}

// AppendString is like GetString but appends the characters to dst.
func (d *Reader) AppendString(dst []byte, lb, ub int, ext bool, cs *CharSet) ([]byte, error) {
	return d.kmString(dst, lb, ub, ext, cs, true)
}

// GetIA5String is GetString with the unrestricted IA5String alphabet.
func (d *Reader) GetIA5String(lb, ub int, ext bool) ([]byte, error) {
	return d.kmString(nil, lb, ub, ext, IA5String, false)
}

func (d *Reader) kmString(dst []byte, lb, ub int, ext bool, cs *CharSet, appendTo bool) ([]byte, error) {
	n, m, more, err := d.sizePrefix(lb, ub, ext, cs.bits, cs.bits, cs.varAligned(ub))
	if err != nil {
		return dst, err
	}
	if m == modeEmpty {
		if appendTo {
			return dst, nil
		}
		return d.buf[:0:0], nil
	}
	start := d.pos
	if !appendTo && !more && cs.bits == 8 && cs.dec == nil && d.pos&7 == 0 {
		s := d.octets(n)
		for i, c := range s {
			if cs.enc[c] < 0 {
				return nil, d.errorf(start+8*i, "character %#02x not in the permitted alphabet", c)
			}
		}
		return s, nil
	}
	total := 0
	for {
		for range n {
			at := d.pos
			raw := d.bits(cs.bits)
			c, ok := cs.decode(raw)
			if !ok {
				return dst, d.errorf(at, "character value %d not in the permitted alphabet", raw)
			}
			dst = append(dst, c)
		}
		total += n
		if !more {
			break
		}
		if n, more, err = d.GetLengthChunk(cs.bits); err != nil {
			return dst, err
		}
		if total+n > d.maxLen {
			return dst, d.tooLarge(start, "fragmented length exceeds the limit %d", d.maxLen)
		}
	}
	return dst, nil
}

// GetChoiceIndex reads the index of a CHOICE alternative (mirror of
// Writer.PutChoiceIndex). For an extension alternative it returns
// rootCount+k and isExt true; its value follows as an open type (use
// OpenType, or SkipOpenType for an alternative this code does not know).
func (d *Reader) GetChoiceIndex(rootCount int, ext bool) (index int, isExt bool, err error) {
	if rootCount < 1 {
		return 0, false, d.badCall("invalid root alternative count %d", rootCount)
	}
	if ext {
		x, err := d.GetBool()
		if err != nil {
			return 0, false, err
		}
		if x {
			start := d.pos
			k, err := d.GetNormallySmall()
			if err != nil {
				return 0, false, err
			}
			if k > math.MaxInt-rootCount {
				return 0, false, d.tooLarge(start, "extension index %d too large", k)
			}
			return rootCount + k, true, nil
		}
	}
	start := d.pos
	v, err := d.getConstrained(uint64(rootCount - 1))
	if err != nil {
		return 0, false, err
	}
	if v >= uint64(rootCount) {
		return 0, false, d.errorf(start, "index %d out of range 0..%d", v, rootCount-1)
	}
	return int(v), false, nil
}

// GetEnumerated reads the position of an ENUMERATED value (mirror of
// Writer.PutEnumerated): a root index, or rootCount+k with isExt true for
// the k-th extension value (which may be unknown to the caller).
func (d *Reader) GetEnumerated(rootCount int, ext bool) (index int, isExt bool, err error) {
	return d.GetChoiceIndex(rootCount, ext)
}

// GetExtensionBitmap reads the extension-addition presence bitmap of a
// SEQUENCE whose extension bit was set (mirror of
// Writer.PutExtensionBitmap). known is the number of extension additions
// the caller knows (0..64): bit i of present tells whether addition i
// (i < known) is present; unknown counts the present additions beyond
// those, which follow the known ones and must be skipped with SkipOpenType.
func (d *Reader) GetExtensionBitmap(known int) (present uint64, unknown int, err error) {
	if known < 0 || known > 64 {
		return 0, 0, d.badCall("invalid known extension count %d", known)
	}
	n, err := d.GetNormallySmallLength()
	if err != nil {
		return 0, 0, err
	}
	if len(d.buf)*8-d.pos < n {
		return 0, 0, d.errEOF(d.pos, n)
	}
	k := min(n, known)
	if k > 0 {
		present = bits.Reverse64(d.bits(k) << uint(64-k))
	}
	for rest := n - k; rest > 0; {
		c := min(rest, 64)
		unknown += bits.OnesCount64(d.bits(c))
		rest -= c
	}
	return present, unknown, nil
}

// OpenType reads an open type (X.691 10.2) and returns a reader over
// exactly its contents octets, which are a complete encoding of their own.
// Errors from the sub-reader report offsets in the outer encoding.
// Fragmented contents (16K octets or more) are reassembled into a new
// slice.
func (d *Reader) OpenType() (Reader, error) {
	n, more, err := d.GetLengthChunk(8)
	if err != nil {
		return Reader{}, err
	}
	sub := Reader{base: d.base + d.pos, maxLen: d.maxLen}
	if !more {
		sub.buf = d.octets(n)
		return sub, nil
	}
	start := d.pos
	var buf []byte
	for {
		buf = append(buf, d.octets(n)...)
		if !more {
			break
		}
		if n, more, err = d.GetLengthChunk(8); err != nil {
			return Reader{}, err
		}
		if len(buf)+n > d.maxLen {
			return Reader{}, d.tooLarge(start, "fragmented open type exceeds the limit %d", d.maxLen)
		}
	}
	sub.buf = buf
	return sub, nil
}

// SkipOpenType skips an open type, e.g. an unknown extension addition or
// CHOICE alternative.
func (d *Reader) SkipOpenType() error {
	total := 0
	for {
		n, more, err := d.GetLengthChunk(8)
		if err != nil {
			return err
		}
		d.pos += 8 * n
		total += n
		if total > d.maxLen {
			return d.tooLarge(d.pos, "fragmented open type exceeds the limit %d", d.maxLen)
		}
		if !more {
			return nil
		}
	}
}

// GetObjectIdentifier reads an OBJECT IDENTIFIER (mirror of
// Writer.PutObjectIdentifier) and appends its arcs to dst.
func (d *Reader) GetObjectIdentifier(dst []uint64) ([]uint64, error) {
	n, more, err := d.GetLengthChunk(8)
	if err != nil {
		return dst, err
	}
	start := d.pos
	if more || n == 0 {
		return dst, unsupported(d.base+start-8, "object identifier of %d octets not supported", n)
	}
	b := d.octets(n)
	first := true
	for i := 0; i < len(b); {
		if b[i] == 0x80 {
			return dst, d.errorf(start+8*i, "object identifier subidentifier with leading 0x80")
		}
		var v uint64
		for {
			if i >= len(b) {
				return dst, d.errorf(start+8*i, "object identifier ends inside a subidentifier")
			}
			if v>>57 != 0 {
				return dst, d.tooLarge(start+8*i, "object identifier subidentifier exceeds 64 bits")
			}
			c := b[i]
			i++
			v = v<<7 | uint64(c&0x7F)
			if c&0x80 == 0 {
				break
			}
		}
		if first {
			first = false
			switch {
			case v < 40:
				dst = append(dst, 0, v)
			case v < 80:
				dst = append(dst, 1, v-40)
			default:
				dst = append(dst, 2, v-80)
			}
			continue
		}
		dst = append(dst, v)
	}
	return dst, nil
}
