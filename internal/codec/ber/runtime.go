package ber

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unsafe"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/slab"
	"megaco/internal/model"
)

// Every failure is a *codecerr.Error of codec "ber": a decode error has
// the byte offset where the input went wrong, an encode error none (it
// reads "ber: encode: ..."). The generated code adds the field path with
// codecerr.At and codecerr.AtIndex while the error travels outwards.

func decodeError(kind codecerr.Kind, off int, msg string) error {
	return &codecerr.Error{Codec: "ber", Op: codecerr.Decode, Kind: kind, Pos: codecerr.AtByte(off), Msg: msg}
}

// encErrorf reports a value the schema of the version being written has
// no encoding for. It and the other constructors stay out of line: the
// generated code calls them at thousands of places.
//
//go:noinline
func encErrorf(format string, args ...any) error {
	return codecerr.New("ber", codecerr.Encode, codecerr.Schema, fmt.Sprintf(format, args...))
}

func sizeError(what string, n, lo, hi int) error {
	return encErrorf("%d %s, want %d..%d", n, what, lo, hi)
}

func rangeError(v, lo, hi int64) error {
	return encErrorf("value %d out of range %d..%d", v, lo, hi)
}

const (
	minInt = math.MinInt64
	maxInt = math.MaxInt64
	anyTag = ^uint32(0)
)

// header is one decoded identifier and length. tag packs the class in
// the top two bits and the tag number below (the constructed bit apart).
type header struct {
	tag        uint32
	cons       bool
	off        int // offset of the identifier octet
	start, end int // contents
	next       int // offset after the element (after the end-of-contents octets if any)
}

// reader walks the TLVs of an input within limits, counting elements and
// nesting: the decoder's and the scanner's common part.
type reader struct {
	data  []byte
	lim   limits.Limits
	depth int
	elems int
	// fast: the input cannot hold more than lim.MaxElements elements
	// (each takes two octets at least), so the generated code may read
	// headers without counting them (see window).
	fast bool
	scan int // nesting of indefinite-length scans in progress
	// odd is set when a header read is not in the form the encoder
	// writes: a length not definite and minimal, or a high tag number
	// (which this schema has none of). Rewrite copies only input without.
	odd bool
}

// decoder is a reader that builds the model, from its slabs.
type decoder struct {
	reader
	s slab.Model
}

// errorf reports input that breaks the encoding.
//
//go:noinline
func (d *reader) errorf(off int, format string, args ...any) error {
	return decodeError(codecerr.Malformed, off, fmt.Sprintf(format, args...))
}

// tooLarge reports input that goes past a limit of the decoder.
//
//go:noinline
func (d *reader) tooLarge(off int, format string, args ...any) error {
	return decodeError(codecerr.TooLarge, off, fmt.Sprintf(format, args...))
}

func tagString(tag uint32) string {
	cls := [...]string{"UNIVERSAL ", "APPLICATION ", "", "PRIVATE "}[tag>>30]
	return "[" + cls + strconv.Itoa(int(tag&(1<<30-1))) + "]"
}

func (d *reader) unexpected(h header, want string) error {
	return d.errorf(h.off, "unexpected tag %s, want %s", tagString(h.tag), want)
}

func (d *reader) unknownAlternative(h header, what, typ string) error {
	return d.errorf(h.off, "unknown %s %s of %s", what, tagString(h.tag), typ)
}

func (d *reader) missing(h *header, name string) error {
	return d.errorf(h.off, "mandatory component %s is missing", name)
}

// next reads the identifier and length octets at off into h; the element
// must end by end. The forms an encoder writes (low tag number, minimal
// definite length of up to three octets) are read by hdr and hdrSlow, the
// package's one header reader; the rest goes to headerSlow. Filling *h
// rather than returning a header keeps the hot path out of memory: it is
// the decoder's most frequent call.
func (d *reader) next(h *header, off, end int) error {
	if uint(off) < uint(end) && uint(end) <= uint(len(d.data)) && d.elems < d.lim.MaxElements {
		if id, s, e := hdr(d.data, off, end); id != bad {
			d.elems++
			h.tag = uint32(id>>6)<<30 | uint32(id&0x1f)
			h.cons = id&0x20 != 0
			h.off, h.start, h.end, h.next = off, s, e, e
			return nil
		}
		return d.nextLong(h, off, end)
	}
	return d.nextSlow(h, off, end)
}

// nextLong is next for a header hdr refuses: hdrSlow's longer lengths,
// else headerSlow.
func (d *reader) nextLong(h *header, off, end int) error {
	id, s, e := hdrSlow(d.data, off, end)
	if id == bad {
		return d.nextSlow(h, off, end)
	}
	d.elems++
	h.tag = uint32(id>>6)<<30 | uint32(id&0x1f)
	h.cons = id&0x20 != 0
	h.off, h.start, h.end, h.next = off, s, e, e
	return nil
}

func (d *reader) nextSlow(h *header, off, end int) error {
	d.odd = true
	var err error
	*h, err = d.headerSlow(off, end)
	return err
}

// window is the input up to the end of h, for the generated code's own
// reading of the common headers inside h; nil (everything through next,
// which counts them) unless d.fast.
func (d *reader) window(h *header) []byte {
	if !d.fast {
		return nil
	}
	return d.data[:h.end]
}

// expect returns the end of the element at off in window b (see
// window) when it is in the form an encoder writes for identifier octet
// id (a low tag number) with a short length, its contents starting at
// off+2; 0 for anything else, which the caller reads in full. Small
// enough to be inlined, with no bounds checks: the generated code reads
// most elements through it.
func expect(b []byte, off int, id byte) int {
	if off < len(b)-1 && off >= 0 {
		c := b[off : off+2]
		if c[0] == id && c[1] < 0x80 && off+2+int(c[1]) <= len(b) {
			return off + 2 + int(c[1])
		}
	}
	return 0
}

// expectLong is expect for an element whose length is one octet after
// 0x81 (128 to 255; less is not minimal), as an encoder writes an element
// of a few others: it returns the contents' start and end, 0s for
// anything else.
func expectLong(b []byte, off int, id byte) (int, int) {
	if off < len(b)-2 && off >= 0 {
		c := b[off : off+3]
		if c[0] == id && c[1] == 0x81 && c[2] >= 0x80 && off+3+int(c[2]) <= len(b) {
			return off + 3, off + 3 + int(c[2])
		}
	}
	return 0, 0
}

// intAt reads the primitive INTEGER of one to four octets in b[s:e], the
// most common, and reports false for any other length (and for e < 4):
// smallInt for the generated code's elements read by expect, which have
// no header. One load of the four octets that end at e, whatever the
// length (the octets before s are the element's header, inside b), and
// shifts that extend the sign: no loop.
func intAt(b []byte, s, e int) (int64, bool) {
	if n := e - s; n > 0 && n <= 4 && e >= 4 && e <= len(b) {
		sh := uint(32 - 8*n)
		return int64(int32(binary.BigEndian.Uint32(b[e-4:e])<<sh) >> sh), true
	}
	return 0, false
}

// header is next for callers that want the header as a value.
func (d *reader) header(off, end int) (header, error) {
	var h header
	err := d.next(&h, off, end)
	return h, err
}

func (d *reader) headerSlow(off, end int) (header, error) {
	h := header{off: off}
	d.elems++
	if d.elems > d.lim.MaxElements {
		return h, d.tooLarge(off, "more than %d elements", d.lim.MaxElements)
	}
	p := off
	if p >= end {
		return h, d.errorf(p, "truncated: identifier expected")
	}
	b := d.data[p]
	p++
	h.cons = b&0x20 != 0
	num := uint32(b & 0x1f)
	if num == 0x1f {
		num = 0
		for i := 0; ; i++ {
			if p >= end {
				return h, d.errorf(p, "truncated tag number")
			}
			c := d.data[p]
			p++
			if i == 0 && c == 0x80 {
				return h, d.errorf(p-1, "tag number with a leading zero septet")
			}
			if i >= 4 {
				return h, d.tooLarge(p-1, "tag number too large")
			}
			num = num<<7 | uint32(c&0x7f)
			if c&0x80 == 0 {
				break
			}
		}
	}
	h.tag = uint32(b>>6)<<30 | num
	if p >= end {
		return h, d.errorf(p, "truncated: length expected")
	}
	l := int(d.data[p])
	p++
	switch {
	case l < 0x80:
	case l == 0x80:
		if !h.cons {
			return h, d.errorf(p-1, "indefinite length on a primitive element")
		}
		h.start = p
		eoc, err := d.findEOC(p, end)
		if err != nil {
			return h, err
		}
		h.end, h.next = eoc, eoc+2
		return h, nil
	case l == 0xff:
		return h, d.errorf(p-1, "reserved length octet 0xff")
	default:
		n := l & 0x7f
		if n > 4 {
			// Leading zero octets are legal BER; more than four
			// significant ones cannot fit any input we accept.
			for n > 4 && p < end && d.data[p] == 0 {
				p++
				n--
			}
			if n > 4 {
				return h, d.tooLarge(p-1, "length of %d octets is too large", n)
			}
		}
		if end-p < n {
			return h, d.errorf(p, "truncated length")
		}
		l = 0
		for i := 0; i < n; i++ {
			l = l<<8 | int(d.data[p])
			p++
		}
	}
	if l > end-p {
		return h, d.errorf(off, "length %d exceeds the %d bytes left", l, end-p)
	}
	h.start, h.end, h.next = p, p+l, p+l
	return h, nil
}

// findEOC returns the offset of the end-of-contents octets that close an
// indefinite-length element whose contents start at off.
func (d *reader) findEOC(off, end int) (int, error) {
	// Each nested indefinite element recurses once: bound it like the
	// nesting of decoded elements.
	d.scan++
	defer func() { d.scan-- }()
	if d.depth+d.scan > d.lim.MaxDepth {
		return 0, d.tooLarge(off, "nesting deeper than %d", d.lim.MaxDepth)
	}
	for {
		if off+1 < end && d.data[off] == 0 && d.data[off+1] == 0 {
			return off, nil
		}
		if off >= end {
			return 0, d.errorf(off, "missing end-of-contents octets")
		}
		h, err := d.header(off, end)
		if err != nil {
			return 0, err
		}
		off = h.next
	}
}

// enter starts decoding the contents of a constructed element.
func (d *reader) enter(h *header) error {
	d.depth++
	if !h.cons || d.depth > d.lim.MaxDepth {
		return d.enterError(h)
	}
	return nil
}

func (d *reader) enterError(h *header) error {
	if !h.cons {
		return d.errorf(h.off, "primitive encoding of a constructed type")
	}
	return d.tooLarge(h.off, "nesting deeper than %d", d.lim.MaxDepth)
}

func (d *reader) leave() { d.depth-- }

// explicit reads the single element inside an explicit tag.
func (d *reader) explicit(e *header, h *header, want uint32) error {
	if !h.cons {
		return d.errorf(h.off, "primitive encoding of an explicit tag")
	}
	if err := d.next(e, h.start, h.end); err != nil {
		return err
	}
	if want != anyTag && e.tag != want {
		return d.unexpected(*e, tagString(want))
	}
	if e.next != h.end {
		return d.errorf(e.next, "trailing data inside an explicit tag")
	}
	return nil
}

// count returns the number of elements in h's contents. It only hops
// over definite lengths; anything unusual (or wrong) is left to the full
// header parser, which reports it.
func (d *reader) count(h *header) (int, error) {
	if !h.cons {
		return 0, d.errorf(h.off, "primitive encoding of a constructed type")
	}
	// One bounds check per element: the loop stops before a lone octet,
	// and an element past the end stops it too; both leave off short of
	// or past len(b), for countSlow to report.
	b := d.data[:h.end]
	n, off := 0, h.start
	for ; off < len(b)-1; n++ {
		t, l, p := b[off], int(b[off+1]), off+2
		if t&0x1f == 0x1f {
			return d.countSlow(h)
		}
		if l >= 0x80 {
			switch {
			case l == 0x81 && p < len(b):
				l = int(b[p])
				p++
			case l == 0x82 && p+1 < len(b):
				l = int(b[p])<<8 | int(b[p+1])
				p += 2
			default:
				return d.countSlow(h)
			}
		}
		off = p + l
	}
	if off != len(b) {
		return d.countSlow(h)
	}
	if n > d.lim.MaxElements-d.elems {
		return 0, d.tooLarge(h.off, "more than %d elements", d.lim.MaxElements)
	}
	return n, nil
}

func (d *reader) countSlow(h *header) (int, error) {
	n, elems := 0, d.elems
	for off := h.start; off < h.end; n++ {
		e, err := d.header(off, h.end)
		if err != nil {
			return 0, err
		}
		off = e.next
	}
	d.elems = elems // they are counted when decoded
	return n, nil
}

func (d *reader) primitive(h header) error {
	if h.cons {
		return d.errorf(h.off, "constructed encoding of a primitive type")
	}
	return nil
}

// smallInt reads a primitive integer of one to four octets, the most
// common, and reports false for any other: small enough to be inlined
// where the generated code and the scanner read an INTEGER, it saves the
// call of integer.
func (d *reader) smallInt(h *header) (int64, bool) {
	if h.cons {
		return 0, false
	}
	return intAt(d.data, h.start, h.end)
}

// integer decodes an INTEGER (or ENUMERATED) within lo..hi.
func (d *reader) integer(h *header, lo, hi int64) (int64, error) {
	if v, ok := d.smallInt(h); ok && v >= lo && v <= hi {
		return v, nil
	}
	return d.integerSlow(h, lo, hi)
}

func (d *reader) integerSlow(h *header, lo, hi int64) (int64, error) {
	if err := d.primitive(*h); err != nil {
		return 0, err
	}
	c := d.data[h.start:h.end]
	if len(c) == 0 {
		return 0, d.errorf(h.off, "empty integer")
	}
	// Redundant leading octets are tolerated (a lenient reader), but the
	// value must fit 64 bits.
	for len(c) > 1 && (c[0] == 0 && c[1]&0x80 == 0 || c[0] == 0xff && c[1]&0x80 != 0) {
		c = c[1:]
	}
	if len(c) > 8 && !(len(c) == 9 && c[0] == 0) {
		return 0, d.tooLarge(h.start, "integer of %d octets is too large", len(c))
	}
	if len(c) == 9 {
		// An unsigned value above MaxInt64: no range here admits one.
		return 0, d.errorf(h.start, "integer out of range %d..%d", lo, hi)
	}
	v := int64(int8(c[0]))
	for _, x := range c[1:] {
		v = v<<8 | int64(x)
	}
	if v < lo || v > hi {
		return 0, d.errorf(h.start, "value %d out of range %d..%d", v, lo, hi)
	}
	return v, nil
}

func (d *reader) boolean(h header) (bool, error) {
	if err := d.primitive(h); err != nil {
		return false, err
	}
	if h.end-h.start != 1 {
		return false, d.errorf(h.off, "BOOLEAN of %d octets", h.end-h.start)
	}
	return d.data[h.start] != 0, nil
}

func (d *reader) null(h header) error {
	if err := d.primitive(h); err != nil {
		return err
	}
	if h.end != h.start {
		return d.errorf(h.off, "NULL with %d octets of contents", h.end-h.start)
	}
	return nil
}

// octets returns the contents of an OCTET STRING. A primitive one is a
// sub-slice of the decoder's private copy of the input; a constructed
// (segmented) one is joined into a new slice.
func (d *reader) octets(h header) (model.Octets, error) {
	if !h.cons {
		return d.data[h.start:h.end:h.end], nil
	}
	var out []byte
	err := d.segments(h, &out)
	if out == nil {
		out = []byte{}
	}
	return out, err
}

func (d *reader) segments(h header, out *[]byte) error {
	if err := d.enter(&h); err != nil {
		return err
	}
	for off := h.start; off < h.end; {
		e, err := d.header(off, h.end)
		if err != nil {
			return err
		}
		if e.tag != 4 {
			return d.unexpected(e, "an OCTET STRING segment")
		}
		if e.cons {
			if err := d.segments(e, out); err != nil {
				return err
			}
		} else {
			*out = append(*out, d.data[e.start:e.end]...)
		}
		off = e.next
	}
	d.leave()
	return nil
}

// str decodes a character string. alphabet "ia5" accepts 0..127; any
// other non-empty value is the permitted alphabet.
func (d *reader) str(h *header, alphabet string) (string, error) {
	var b []byte
	if !h.cons {
		b = d.data[h.start:h.end]
	} else {
		var err error
		if b, err = d.octets(*h); err != nil {
			return "", err
		}
	}
	switch alphabet {
	case "":
	case "ia5":
		if i := notIA5(b); i >= 0 {
			return "", d.errorf(h.start+i, "byte 0x%02x is not IA5", b[i])
		}
	default:
		for i, c := range b {
			if strings.IndexByte(alphabet, c) < 0 {
				return "", d.errorf(h.start+i, "character %q is not permitted", c)
			}
		}
	}
	if len(b) == 0 {
		return "", nil
	}
	// The decoder owns its copy of the input and never changes it, so the
	// string can share its memory.
	return unsafe.String(&b[0], len(b)), nil
}

// ia5At is str for an IA5String in b[s:e] read by expect (primitive,
// no header): false when a byte is not IA5, for the caller's str to
// report. It saves str's call and its dispatch on the alphabet.
func ia5At(b []byte, s, e int) (string, bool) {
	c := b[s:e]
	if len(c) == 0 || notIA5(c) >= 0 {
		return "", len(c) == 0
	}
	return unsafe.String(&c[0], len(c)), true
}

// ia5At8 is ia5At for an IA5String of SIZE(8) (a TimeNotation's date
// and time), false for any other length too: one load of the eight
// octets, no loop.
func ia5At8(b []byte, s, e int) (string, bool) {
	if e-s != 8 || s < 0 || e > len(b) {
		return "", false
	}
	c := b[s:e]
	if binary.LittleEndian.Uint64(c)&0x8080808080808080 != 0 {
		return "", false
	}
	return unsafe.String(&c[0], 8), true
}

// notIA5 returns the index of the first byte of b above 0x7f, -1 when
// none is: eight bytes at a time.
func notIA5(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] > 0x7f {
			return i
		}
	}
	return -1
}

func (d *reader) bits(h header) (model.BitString, error) {
	var bs model.BitString
	if err := d.primitive(h); err != nil {
		return bs, err
	}
	c := d.data[h.start:h.end]
	if len(c) == 0 {
		return bs, d.errorf(h.off, "BIT STRING without the unused-bits octet")
	}
	unused := int(c[0])
	if unused > 7 || len(c) == 1 && unused != 0 {
		return bs, d.errorf(h.start, "BIT STRING with %d unused bits", unused)
	}
	n := (len(c)-1)*8 - unused
	if n > 64 {
		return bs, decodeError(codecerr.Unsupported, h.start, fmt.Sprintf("BIT STRING of %d bits, at most 64 supported", n))
	}
	for i := 0; i < n; i++ {
		if c[1+i/8]&(0x80>>(i%8)) != 0 {
			bs.Bits |= 1 << i
		}
	}
	bs.Len = n
	return bs, nil
}

func (d *reader) oid(h header) (model.ObjectIdentifier, error) {
	if err := d.primitive(h); err != nil {
		return nil, err
	}
	c := d.data[h.start:h.end]
	if len(c) == 0 {
		return nil, d.errorf(h.off, "empty OBJECT IDENTIFIER")
	}
	var out model.ObjectIdentifier
	var v uint64
	for i, x := range c {
		if v == 0 && x == 0x80 {
			return nil, d.errorf(h.start+i, "OBJECT IDENTIFIER arc with a leading zero septet")
		}
		if v > math.MaxUint64>>7 {
			return nil, d.tooLarge(h.start+i, "OBJECT IDENTIFIER arc too large")
		}
		v = v<<7 | uint64(x&0x7f)
		if x&0x80 != 0 {
			if i == len(c)-1 {
				return nil, d.errorf(h.start+i, "truncated OBJECT IDENTIFIER")
			}
			continue
		}
		if len(out) == 0 {
			first := min(v/40, 2)
			out = append(out, first, v-first*40)
		} else {
			out = append(out, v)
		}
		v = 0
	}
	return out, nil
}

// endLen writes the length of the contents that follow the placeholder
// octet at mark, moving them when the length needs the long form.
func endLen(b []byte, mark int) []byte {
	n := len(b) - mark - 1
	if n < 0x80 {
		b[mark] = byte(n)
		return b
	}
	k := (bits.Len(uint(n)) + 7) / 8
	b = append(b, make([]byte, k)...)
	copy(b[mark+1+k:], b[mark+1:mark+1+n])
	b[mark] = 0x80 | byte(k)
	for i := 0; i < k; i++ {
		b[mark+k-i] = byte(n >> (8 * i))
	}
	return b
}

func appendLen(b []byte, n int) []byte {
	if n < 0x80 {
		return append(b, byte(n))
	}
	k := (bits.Len(uint(n)) + 7) / 8
	b = append(b, 0x80|byte(k))
	for i := k - 1; i >= 0; i-- {
		b = append(b, byte(n>>(8*i)))
	}
	return b
}

func appendInt(b []byte, tag string, v int64) []byte {
	// Minimal two's complement: the value's significant bits and a sign
	// bit, in whole octets (of v, or of ^v when negative: the same count).
	m := uint64(v)
	if v < 0 {
		m = ^m
	}
	n := (bits.Len64(m) + 8) / 8
	b = append(b, tag...)
	b = append(b, byte(n))
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

func appendUint(b []byte, tag string, v uint64) []byte {
	if v <= math.MaxInt64 {
		return appendInt(b, tag, int64(v))
	}
	b = append(b, tag...)
	b = append(b, 9, 0)
	for i := 7; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

func appendBool(b []byte, tag string, v bool) []byte {
	b = append(b, tag...)
	if v {
		return append(b, 1, 0xff)
	}
	return append(b, 1, 0)
}

func appendBytes(b []byte, tag string, v model.Octets) []byte {
	b = append(b, tag...)
	b = appendLen(b, len(v))
	return append(b, v...)
}

func appendString(b []byte, tag string, v string) []byte {
	b = append(b, tag...)
	b = appendLen(b, len(v))
	return append(b, v...)
}

func appendBits(b []byte, tag string, v model.BitString) []byte {
	n := v.EncLen()
	octets := (n + 7) / 8
	b = append(b, tag...)
	b = appendLen(b, octets+1)
	b = append(b, byte(octets*8-n))
	for i := 0; i < octets; i++ {
		var x byte
		for j := 0; j < 8; j++ {
			if v.Has(i*8 + j) {
				x |= 0x80 >> j
			}
		}
		b = append(b, x)
	}
	return b
}

func appendOID(b []byte, tag string, v model.ObjectIdentifier) ([]byte, error) {
	if len(v) < 2 || v[0] > 2 || v[0] < 2 && v[1] >= 40 {
		return b, encErrorf("invalid OBJECT IDENTIFIER %s", v)
	}
	b = append(b, tag...)
	mark := len(b)
	b = append(b, 0)
	arc := func(x uint64) {
		var tmp [10]byte
		i := len(tmp) - 1
		tmp[i] = byte(x & 0x7f)
		for x >>= 7; x > 0; x >>= 7 {
			i--
			tmp[i] = byte(x&0x7f) | 0x80
		}
		b = append(b, tmp[i:]...)
	}
	arc(v[0]*40 + v[1])
	for _, x := range v[2:] {
		arc(x)
	}
	return endLen(b, mark), nil
}

func isIA5(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] > 0x7f {
			return false
		}
	}
	return true
}

func inAlphabet(s, alphabet string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(alphabet, s[i]) < 0 {
			return false
		}
	}
	return true
}
