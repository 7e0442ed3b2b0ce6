package x691

import (
	"iter"
	"math/bits"
)

// Writer appends an ALIGNED PER encoding to a byte slice.
//
// The zero value is not ready for use; call Reset (or use NewWriter).
// Writer is a plain value: it can live on the stack or inside a pooled
// struct, and it never allocates except by growing the caller's buffer
// through append.
//
// Bits are written most significant first. Bits of the last, partly used
// octet that have not been written yet are always zero, so padding to an
// octet boundary (X.691 10.1.2) only has to forget the remaining free bits.
type Writer struct {
	buf   []byte
	start int  // len(buf) when Reset: the encoding begins here
	free  uint // bits still unused in buf[len(buf)-1]; 0 when the last octet is full
}

// NewWriter returns a writer that appends to buf (like append: existing
// contents of buf are kept and the encoding follows them).
func NewWriter(buf []byte) *Writer {
	e := new(Writer)
	e.Reset(buf)
	return e
}

// Reset makes e append a new encoding to buf, forgetting any previous state.
func (e *Writer) Reset(buf []byte) {
	e.buf = buf
	e.start = len(buf)
	e.free = 0
}

// BitLen returns the number of bits written so far (excluding the prefix
// that was already in the caller's buffer).
func (e *Writer) BitLen() int {
	return (len(e.buf)-e.start)*8 - int(e.free)
}

// Bytes pads the encoding with zero bits to a whole number of octets and
// returns the caller's buffer with the encoding appended. An encoding of
// zero bits stays empty here; use Finish for a complete encoding.
func (e *Writer) Bytes() []byte {
	e.free = 0
	return e.buf
}

// Finish returns the complete encoding of a top-level value (X.691 10.1):
// padded to an octet boundary, and, because a complete encoding must never
// be empty (X.691 10.1.3), a single zero octet when nothing was written
// (e.g. a NULL or an empty SEQUENCE). Use it for the outermost PDU; open
// types get the same treatment from EndOpenType.
func (e *Writer) Finish() []byte {
	e.free = 0
	if len(e.buf) == e.start {
		e.buf = append(e.buf, 0)
	}
	return e.buf
}

// PutBool writes one bit: a BOOLEAN (X.691 11), a presence bit of an
// OPTIONAL or DEFAULT component, or an extension bit.
func (e *Writer) PutBool(v bool) {
	if e.free == 0 {
		var b byte
		if v {
			b = 0x80
		}
		e.buf = append(e.buf, b)
		e.free = 7
		return
	}
	e.free--
	if v {
		e.buf[len(e.buf)-1] |= 1 << e.free
	}
}

// PutBits writes the low n bits of v, most significant first (a bit-field
// in X.691's terms). For n > 64 the field is v zero-extended to n bits;
// n <= 0 writes nothing.
func (e *Writer) PutBits(v uint64, n int) {
	for n > 64 {
		k := min(n-64, 64)
		e.putBits(0, k)
		n -= k
	}
	if n > 0 {
		e.putBits(v, n)
	}
}

// putBits writes the low n bits of v, 0 < n <= 64.
func (e *Writer) putBits(v uint64, n int) {
	if n < 64 {
		v &= 1<<uint(n) - 1
	}
	if n <= int(e.free) {
		// Within the last octet, as most fields (presence bits, choice
		// indexes, small lengths) are: one OR, not the loop.
		e.free -= uint(n)
		e.buf[len(e.buf)-1] |= byte(v) << e.free
		return
	}
	for n > 0 {
		if e.free == 0 {
			if n >= 8 {
				n -= 8
				e.buf = append(e.buf, byte(v>>uint(n)))
				continue
			}
			e.buf = append(e.buf, 0)
			e.free = 8
		}
		last := len(e.buf) - 1
		if n >= int(e.free) {
			n -= int(e.free)
			e.buf[last] |= byte(v>>uint(n)) & (1<<e.free - 1)
			e.free = 0
		} else {
			e.free -= uint(n)
			e.buf[last] |= byte(v&(1<<uint(n)-1)) << e.free
			n = 0
		}
	}
}

// Align pads with zero bits to the next octet boundary. Alignment is
// relative to the start of the encoding, which is also an octet boundary of
// the buffer, so the free bits of the last octet are exactly the padding.
func (e *Writer) Align() {
	e.free = 0
}

// putOctets writes whole octets at the current (possibly unaligned)
// position.
func (e *Writer) putOctets(b []byte) {
	if e.free == 0 {
		e.buf = append(e.buf, b...)
		return
	}
	for _, c := range b {
		e.putBits(uint64(c), 8)
	}
}

// putBitsFrom writes the first n bits of b (most significant bit of b[0]
// first) at the current position.
func (e *Writer) putBitsFrom(b []byte, n int) {
	whole := n / 8
	e.putOctets(b[:whole])
	if r := n % 8; r != 0 {
		e.putBits(uint64(b[whole]>>(8-uint(r))), r)
	}
}

// octetLen is the number of octets of the minimal non-negative binary
// integer encoding of v (X.691 10.3), at least one.
func octetLen(v uint64) int {
	return max(1, (bits.Len64(v)+7)/8)
}

// putUint writes the low n octets of v big-endian (octet-aligned callers).
func (e *Writer) putUint(v uint64, n int) {
	for i := n - 1; i >= 0; i-- {
		e.buf = append(e.buf, byte(v>>(8*uint(i))))
	}
}

// PutConstrained writes v as a constrained whole number in lb..ub
// (X.691 10.5, ALIGNED variant). With range = ub-lb+1 the offset v-lb is:
//   - range 1: not encoded at all;
//   - range <= 255: a bit-field of the minimal width, not aligned (10.5.7.1);
//   - range 256: one octet, octet-aligned (10.5.7.2);
//   - range <= 64K: two octets, octet-aligned (10.5.7.3);
//   - larger ranges: the minimal number of octets (at least one),
//     octet-aligned, preceded by that octet count encoded as a constrained
//     whole number in 1..(octets needed for range-1) (10.5.7.4); e.g. for
//     INTEGER (0..4294967295) a 2-bit count then 1..4 aligned octets.
//
// All ranges of int64 bounds, including the full 2^64, are supported.
func (e *Writer) PutConstrained(v, lb, ub int64) error {
	if ub < lb {
		return e.errorf("invalid constraint %d..%d", lb, ub)
	}
	if v < lb || v > ub {
		return e.errorf("constrained whole number %d out of range %d..%d", v, lb, ub)
	}
	e.putConstrained(uint64(v)-uint64(lb), uint64(ub)-uint64(lb))
	return nil
}

// putConstrained writes off in 0..rng1 (rng1 = range-1, so that the full
// 64-bit range does not overflow).
func (e *Writer) putConstrained(off, rng1 uint64) {
	switch {
	case rng1 < 255:
		if n := bits.Len64(rng1); n > 0 {
			e.putBits(off, n)
		}
	case rng1 == 255:
		e.free = 0
		e.buf = append(e.buf, byte(off))
	case rng1 <= 0xFFFF:
		e.free = 0
		e.buf = append(e.buf, byte(off>>8), byte(off))
	default:
		n := octetLen(off)
		maxOctets := octetLen(rng1)
		e.putBits(uint64(n-1), bits.Len64(uint64(maxOctets-1)))
		e.free = 0
		e.putUint(off, n)
	}
}

// PutConstrainedExt writes an INTEGER whose constraint lb..ub is extensible
// ("(lb..ub, ...)", X.691 12): an extension bit, then the constrained
// whole number when v is in the root, otherwise an unconstrained one.
func (e *Writer) PutConstrainedExt(v, lb, ub int64) error {
	if ub < lb {
		return e.errorf("invalid constraint %d..%d", lb, ub)
	}
	if v >= lb && v <= ub {
		e.PutBool(false)
		e.putConstrained(uint64(v)-uint64(lb), uint64(ub)-uint64(lb))
		return nil
	}
	e.PutBool(true)
	e.PutUnconstrained(v)
	return nil
}

// PutSemiConstrained writes v >= lb as a semi-constrained whole number
// (X.691 10.7): v-lb in the minimal number of octets (at least one),
// octet-aligned, preceded by an unconstrained length determinant counting
// the octets (always one octet here, the count being at most 8).
func (e *Writer) PutSemiConstrained(v, lb int64) error {
	if v < lb {
		return e.errorf("semi-constrained whole number %d below lower bound %d", v, lb)
	}
	off := uint64(v) - uint64(lb)
	n := octetLen(off)
	e.free = 0
	e.buf = append(e.buf, byte(n))
	e.putUint(off, n)
	return nil
}

// PutUnconstrained writes v as an unconstrained whole number (X.691 10.8):
// the minimal two's-complement octets, octet-aligned, preceded by an
// unconstrained length determinant (one octet).
func (e *Writer) PutUnconstrained(v int64) {
	m := uint64(v)
	if v < 0 {
		m = ^m
	}
	// One more bit than the magnitude needs, for the sign.
	n := bits.Len64(m)/8 + 1
	e.free = 0
	e.buf = append(e.buf, byte(n))
	e.putUint(uint64(v), n)
}

// PutNormallySmall writes a normally small non-negative whole number
// (X.691 10.6), used for the index of a CHOICE extension alternative and
// an ENUMERATED extension value: '0' and six bits when n <= 63, otherwise
// '1' followed by n as a semi-constrained whole number with lb 0.
func (e *Writer) PutNormallySmall(n int) error {
	if n < 0 {
		return e.errorf("normally small number %d is negative", n)
	}
	if n <= 63 {
		e.putBits(uint64(n), 7)
		return nil
	}
	e.PutBool(true)
	return e.PutSemiConstrained(int64(n), 0)
}

// PutNormallySmallLength writes a normally small length (X.691 10.9.3.4),
// which is how the length of the extension-addition presence bitmap of a
// SEQUENCE is sent: '0' and n-1 in six bits when 1 <= n <= 64, otherwise
// '1' followed by an unconstrained length determinant.
func (e *Writer) PutNormallySmallLength(n int) error {
	if n < 1 {
		return e.errorf("normally small length %d is not positive", n)
	}
	if n <= 64 {
		e.putBits(uint64(n-1), 7)
		return nil
	}
	e.PutBool(true)
	return e.putLengthOctets(n)
}

// putLengthOctets writes an unconstrained length determinant below 16K
// (X.691 10.9.3.6/10.9.3.7): one octet 0xxxxxxx for n < 128, else two
// octets 10xxxxxx xxxxxxxx; octet-aligned.
func (e *Writer) putLengthOctets(n int) error {
	e.free = 0
	switch {
	case n < 128:
		e.buf = append(e.buf, byte(n))
	case n < k16:
		e.buf = append(e.buf, 0x80|byte(n>>8), byte(n))
	default:
		return e.errorf("length %d needs fragmentation (use PutLengthChunk)", n)
	}
	return nil
}

const (
	k16 = 16384
	k64 = 65536
)

// Unbounded, as the ub of a size constraint, means there is no upper bound
// (SIZE (lb..MAX) or no SIZE constraint at all, with lb 0).
const Unbounded = -1

// PutLengthChunk writes one unconstrained length determinant for a value
// of which rem units remain to be written (X.691 10.9.3.5–10.9.3.8) and
// returns how many units the caller must write after it. Below 16K it is
// the whole remainder and more is false. From 16K on it is a fragment of
// m*16K units (m = 1..4, the largest that fits) and more is true: after
// writing those units the caller must call PutLengthChunk again with the
// new remainder, possibly zero (then a final zero length is written).
func (e *Writer) PutLengthChunk(rem int) (n int, more bool) {
	e.free = 0
	if rem < k16 {
		if rem < 128 {
			e.buf = append(e.buf, byte(max(rem, 0)))
		} else {
			e.buf = append(e.buf, 0x80|byte(rem>>8), byte(rem))
		}
		return max(rem, 0), false
	}
	m := min(rem/k16, 4)
	e.buf = append(e.buf, 0xC0|byte(m))
	return m * k16, true
}

// fragments yields the first unit and the size of each fragment of a value
// of n units sent with unconstrained lengths, after writing the length
// determinant in front of it (X.691 10.9.3.8): one fragment below 16K
// units, else fragments of 16K to 64K and a last one, maybe empty.
func (e *Writer) fragments(n int) iter.Seq2[int, int] {
	return func(yield func(i, k int) bool) {
		for i := 0; ; {
			k, more := e.PutLengthChunk(n - i)
			if !yield(i, k) || !more {
				return
			}
			i += k
		}
	}
}

// checkSize validates a SIZE constraint.
func (e *Writer) checkSize(lb, ub int) error {
	if lb < 0 || (ub != Unbounded && ub < lb) || ub < Unbounded {
		return e.errorf("invalid size constraint %s", sizeString(lb, ub))
	}
	return nil
}

// PutLength writes the count of a SEQUENCE OF / SET OF with n elements
// under SIZE (lb..ub) (ub may be Unbounded), extensible if ext
// (X.691 19 with 10.9): an extension bit when ext; nothing when the size is
// fixed below 64K; a constrained whole number n-lb when ub < 64K;
// otherwise an unconstrained length determinant. It returns how many
// elements to encode next; when more is true the count was fragmented
// (n >= 16K, unconstrained) and, after those elements, the caller continues
// with PutLengthChunk(remaining elements):
//
//	k, more, err := e.PutLength(len(v), lb, ub, ext)
//	for i := 0; ; {
//		for end := i + k; i < end; i++ { /* encode v[i] */ }
//		if !more { break }
//		k, more = e.PutLengthChunk(len(v) - i)
//	}
func (e *Writer) PutLength(n, lb, ub int, ext bool) (k int, more bool, err error) {
	m, err := e.sizePrefix(n, lb, ub, ext, 0, false)
	if err != nil {
		return 0, false, err
	}
	if m == modeFragmented {
		k, more = e.PutLengthChunk(n)
		return k, more, nil
	}
	return n, false, nil
}

// sizeMode tells a string writer or reader what follows the prefix
// written or read by sizePrefix.
type sizeMode uint8

const (
	modeEmpty      sizeMode = iota // no contents (ub == 0)
	modeBits                       // contents follow, not aligned
	modeAligned                    // contents follow, octet-aligned
	modeFragmented                 // unconstrained length chunks + contents (10.9.3.5–8)
)

// sizePrefix writes the extension bit and, when the size is not fixed, the
// constrained length of a value of n units of unitBits bits each.
// varAligned says whether variable-size contents are octet-aligned.
// Shared rules (X.691 15 BIT STRING, 16 OCTET STRING, 19 SEQUENCE OF,
// 27.5 character strings):
//   - an extensible constraint adds a bit, 1 when n is outside the root,
//     and then the size is encoded as if unconstrained;
//   - ub == 0: nothing;
//   - fixed size (lb == ub) below 64K: no length; the contents are octet
//     aligned only when longer than 16 bits;
//   - ub below 64K: n-lb as a constrained whole number;
//   - otherwise (ub >= 64K or no ub): unconstrained length, fragmented
//     from 16K units on, written by the caller.
func (e *Writer) sizePrefix(n, lb, ub int, ext bool, unitBits int, varAligned bool) (sizeMode, error) {
	if err := e.checkSize(lb, ub); err != nil {
		return 0, err
	}
	inRoot := n >= lb && (ub == Unbounded || n <= ub)
	if ext {
		e.PutBool(!inRoot)
		if !inRoot {
			return modeFragmented, nil
		}
	} else if !inRoot {
		return 0, e.errorf("size %d outside SIZE(%s)", n, sizeString(lb, ub))
	}
	if ub == 0 {
		return modeEmpty, nil
	}
	if ub != Unbounded && ub < k64 {
		if lb == ub {
			if n*unitBits <= 16 {
				return modeBits, nil
			}
			return modeAligned, nil
		}
		e.putConstrained(uint64(n-lb), uint64(ub-lb))
		if varAligned {
			return modeAligned, nil
		}
		return modeBits, nil
	}
	return modeFragmented, nil
}

// PutOctetString writes an OCTET STRING with SIZE (lb..ub) (ub may be
// Unbounded; no SIZE constraint is lb 0, ub Unbounded), extensible if ext
// (X.691 16): fixed sizes of at most two octets are a plain bit-field (e.g.
// H.248's Name ::= OCTET STRING (SIZE(2)) is not aligned), other fixed
// sizes below 64K are octet-aligned without a length; variable sizes get a
// length and octet-aligned contents; unconstrained strings of 16K octets or
// more are fragmented.
func (e *Writer) PutOctetString(b []byte, lb, ub int, ext bool) error {
	m, err := e.sizePrefix(len(b), lb, ub, ext, 8, true)
	if err != nil {
		return err
	}
	switch m {
	case modeBits:
		e.putOctets(b)
	case modeAligned:
		e.free = 0
		e.buf = append(e.buf, b...)
	case modeFragmented:
		for i, k := range e.fragments(len(b)) {
			e.buf = append(e.buf, b[i:i+k]...)
		}
	}
	return nil
}

// PutBitString writes a BIT STRING of nbits bits taken from b (first bit =
// most significant bit of b[0]; bits of b past nbits are ignored) with
// SIZE (lb..ub), extensible if ext (X.691 15): fixed sizes up to 16 bits
// are a plain bit-field, larger fixed sizes below 64K are octet-aligned
// without length, variable sizes get a length and octet-aligned contents,
// and unconstrained ones are fragmented from 16K bits on.
func (e *Writer) PutBitString(b []byte, nbits, lb, ub int, ext bool) error {
	if nbits < 0 || len(b) < (nbits+7)/8 {
		return e.errorf("bit string of %d bits needs %d octets, have %d", nbits, (nbits+7)/8, len(b))
	}
	m, err := e.sizePrefix(nbits, lb, ub, ext, 1, true)
	if err != nil {
		return err
	}
	if m == modeFragmented {
		for i, k := range e.fragments(nbits) {
			// Fragments are multiples of 16K bits, so i stays a whole octet.
			e.putBitsFrom(b[i/8:], k)
		}
		return nil
	}
	if m == modeAligned {
		e.free = 0
	}
	e.putBitsFrom(b, nbits) // nothing when modeEmpty: nbits is 0
	return nil
}

// PutNamedBits writes a BIT STRING defined with named bits, given as a
// mask where bit i (1<<i) is the string's bit i (the named bit with number
// i). As X.691 15 requires for such types, trailing zero bits are
// dropped, but the length is kept at least lb. Strings longer than 64 bits
// (lb > 64) are padded with zero bits.
func (e *Writer) PutNamedBits(mask uint64, lb, ub int, ext bool) error {
	nbits := max(bits.Len64(mask), lb)
	if nbits >= k16 {
		return e.errorf("named bit string of %d bits is too long", nbits)
	}
	m, err := e.sizePrefix(nbits, lb, ub, ext, 1, true)
	if err != nil {
		return err
	}
	switch m {
	case modeEmpty:
		return nil
	case modeAligned:
		e.free = 0
	case modeFragmented:
		_, _ = e.PutLengthChunk(nbits) // below 16K: never more
	}
	// Bit i of the mask is the i-th bit sent: reverse so bit 0 goes first.
	k := min(nbits, 64)
	e.putBits(bits.Reverse64(mask)>>(64-uint(k)), k)
	e.PutBits(0, nbits-k)
	return nil
}

// PutString writes a known-multiplier character string (IA5String,
// VisibleString, PrintableString, NumericString, or any of them with a
// permitted-alphabet constraint described by cs) with SIZE (lb..ub),
// extensible if ext (X.691 27). Each character takes cs.Bits() bits (8 for
// an unrestricted IA5String in the ALIGNED variant). Fixed sizes of at most
// 16 bits in all are not aligned; for variable sizes the characters are
// octet-aligned when ub*bits >= 16 (or there is no ub).
func (e *Writer) PutString(s string, lb, ub int, ext bool, cs *CharSet) error {
	for i := 0; i < len(s); i++ {
		if cs.enc[s[i]] < 0 {
			return e.errorf("character %#02x at index %d not in the permitted alphabet", s[i], i)
		}
	}
	m, err := e.sizePrefix(len(s), lb, ub, ext, cs.bits, cs.varAligned(ub))
	if err != nil {
		return err
	}
	switch m {
	case modeAligned:
		e.free = 0
		fallthrough
	case modeBits:
		e.putChars(s, cs)
	case modeFragmented:
		for i, k := range e.fragments(len(s)) {
			e.putChars(s[i:i+k], cs)
		}
	}
	return nil
}

// PutIA5String is PutString with the unrestricted IA5String alphabet.
func (e *Writer) PutIA5String(s string, lb, ub int, ext bool) error {
	return e.PutString(s, lb, ub, ext, IA5String)
}

func (e *Writer) putChars(s string, cs *CharSet) {
	if cs.bits == 8 && cs.dec == nil && e.free == 0 {
		e.buf = append(e.buf, s...)
		return
	}
	for i := 0; i < len(s); i++ {
		e.putBits(uint64(cs.enc[s[i]]), cs.bits)
	}
}

// PutChoiceIndex writes the index of the chosen CHOICE alternative
// (X.691 22): for an extensible CHOICE an extension bit first; a root
// alternative (index < rootCount) as a constrained whole number in
// 0..rootCount-1 (no bits at all for a single root alternative); an
// extension alternative (index >= rootCount, only when ext) as the normally
// small number index-rootCount, after which the caller encodes the
// alternative as an open type (BeginOpenType/EndOpenType).
func (e *Writer) PutChoiceIndex(index, rootCount int, ext bool) error {
	if rootCount < 1 || index < 0 || (!ext && index >= rootCount) {
		return e.errorf("index %d invalid for %d root alternatives (extensible %v)", index, rootCount, ext)
	}
	if ext {
		e.PutBool(index >= rootCount)
		if index >= rootCount {
			return e.PutNormallySmall(index - rootCount)
		}
	}
	e.putConstrained(uint64(index), uint64(rootCount-1))
	return nil
}

// PutEnumerated writes the position of an ENUMERATED value (X.691 13):
// index is the value's rank in the root (sorted by value) or rootCount+k
// for the k-th extension value; the layout is that of PutChoiceIndex,
// without any open type.
func (e *Writer) PutEnumerated(index, rootCount int, ext bool) error {
	return e.PutChoiceIndex(index, rootCount, ext)
}

// PutExtensionBitmap writes, after a SEQUENCE's extension bit was set, the
// presence bitmap of its n extension additions (X.691 18): n as a
// normally small length, then n bits, the first addition first; bit i of
// present (1<<i) is addition i. The present additions then follow, each
// as an open type.
func (e *Writer) PutExtensionBitmap(present uint64, n int) error {
	if n < 1 || n > 64 {
		return e.errorf("extension bitmap of %d additions (want 1..64)", n)
	}
	if n < 64 && present>>uint(n) != 0 {
		return e.errorf("extension bitmap %#x has bits beyond %d additions", present, n)
	}
	if err := e.PutNormallySmallLength(n); err != nil {
		return err
	}
	e.putBits(bits.Reverse64(present)>>(64-uint(n)), n)
	return nil
}

// BeginOpenType starts an open type (X.691 10.2): the value written until
// the matching EndOpenType becomes a complete encoding of its own, sent as
// an octet string with an unconstrained length. It aligns the outer
// encoding (the length is octet-aligned, and the contents start on an
// octet boundary, which is also their own start), reserves one octet for
// the length and returns the mark to pass to EndOpenType. Open types nest.
func (e *Writer) BeginOpenType() int {
	e.free = 0
	e.buf = append(e.buf, 0)
	return len(e.buf) - 1
}

// EndOpenType completes the open type started at mark: it pads the
// contents to an octet boundary, turns empty contents into the single
// zero octet of X.691 10.1.3, and writes the length in front, moving the
// contents when the length needs two octets (128..16383) or the contents
// must be fragmented (16K octets and more, X.691 10.9.3.8).
func (e *Writer) EndOpenType(mark int) error {
	e.free = 0
	if mark < e.start || mark >= len(e.buf) {
		return e.errorf("open type mark %d is not inside this encoding", mark)
	}
	n := len(e.buf) - mark - 1
	if n == 0 {
		e.buf = append(e.buf, 0)
		n = 1
	}
	if n < 128 {
		e.buf[mark] = byte(n)
		return nil
	}
	if n < k16 {
		e.buf = append(e.buf, 0)
		copy(e.buf[mark+2:], e.buf[mark+1:len(e.buf)-1])
		e.buf[mark] = 0x80 | byte(n>>8)
		e.buf[mark+1] = byte(n)
		return nil
	}
	// Fragmented: a64 fragments of 64K, then possibly one of m*16K
	// (m = 1..3), then a final length (one or two octets, maybe zero).
	a64 := n / k64
	m := (n % k64) / k16
	f := n % k16
	hdrs := a64 + 1
	if m > 0 {
		hdrs++
	}
	if f >= 128 {
		hdrs++
	}
	// Grow by the header octets beyond the reserved one, then move the
	// fragments right, last first, inserting headers before each.
	for range hdrs - 1 {
		e.buf = append(e.buf, 0)
	}
	src := mark + 1 + n // end of the unmoved contents
	dst := len(e.buf)   // end of their final place
	move := func(size int) {
		src -= size
		dst -= size
		copy(e.buf[dst:dst+size], e.buf[src:src+size])
	}
	move(f)
	if f < 128 {
		dst--
		e.buf[dst] = byte(f)
	} else {
		dst -= 2
		e.buf[dst] = 0x80 | byte(f>>8)
		e.buf[dst+1] = byte(f)
	}
	if m > 0 {
		move(m * k16)
		dst--
		e.buf[dst] = 0xC0 | byte(m)
	}
	for range a64 {
		move(k64)
		dst--
		e.buf[dst] = 0xC4
	}
	if dst != mark || src != mark+1 {
		return e.errorf("internal error: open type fragments misplaced")
	}
	return nil
}

// PutObjectIdentifier writes an OBJECT IDENTIFIER (X.691 23): the contents
// octets of its BER encoding (X.690 8.19: the first two arcs combined as
// 40*a0+a1, every subidentifier in base 128 with a continuation bit)
// preceded by an unconstrained length in octets, octet-aligned.
func (e *Writer) PutObjectIdentifier(arcs []uint64) error {
	if len(arcs) < 2 || arcs[0] > 2 || (arcs[0] < 2 && arcs[1] > 39) || arcs[1] > ^uint64(0)-80 {
		return e.errorf("invalid object identifier %v", arcs)
	}
	n := subidLen(arcs[0]*40 + arcs[1])
	for _, a := range arcs[2:] {
		n += subidLen(a)
	}
	if err := e.putLengthOctets(n); err != nil {
		return err
	}
	e.putSubid(arcs[0]*40 + arcs[1])
	for _, a := range arcs[2:] {
		e.putSubid(a)
	}
	return nil
}

func subidLen(v uint64) int {
	return max(1, (bits.Len64(v)+6)/7)
}

func (e *Writer) putSubid(v uint64) {
	for i := subidLen(v) - 1; i > 0; i-- {
		e.buf = append(e.buf, 0x80|byte(v>>(7*uint(i))))
	}
	e.buf = append(e.buf, byte(v)&0x7F)
}
