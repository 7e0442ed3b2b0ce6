package proxy

import "megaco/internal/codec/scan"

// Splicing a new mId into an encoded message, in place of the one a scan
// found at span: what relaying with identity rewriting costs beyond
// relaying (a copy), where a codec's rewriter would scan the message
// again, and for text decode and encode it. The rest of the message
// keeps its bytes.

// spliceText appends to dst the text message data with mid written over
// span. Text holds no lengths: the bytes around the mId stay as they are.
func spliceText(dst, data []byte, span scan.Span, mid []byte) ([]byte, bool) {
	if span.Len <= 0 || span.Off < 0 || span.End() > len(data) {
		return dst, false
	}
	dst = append(dst, data[:span.Off]...)
	dst = append(dst, mid...)
	return append(dst, data[span.End():]...), true
}

// spliceBER appends to dst the BER message data with mid (the contents of
// the mId element) in place of span, the old contents. Three lengths
// enclose them: the MegacoMessage SEQUENCE's, the Message's ([1]) and the
// mId element's ([1]); each is written anew in the minimal form. It
// reports false, leaving the work to the codec's rewriter, when the
// message's headers on the way are not as the encoder writes them
// (definite lengths, the mId where the scan said).
func spliceBER(dst, data []byte, span scan.Span, mid []byte) ([]byte, bool) {
	hdr, outer, ok := berHeader(data, 0, 0x30)
	if !ok || outer != len(data) {
		return dst, false
	}
	// MegacoMessage ::= SEQUENCE { authHeader [0] OPTIONAL, mess [1] }
	at := hdr
	if at < len(data) && data[at] == 0xA0 {
		_, end, ok := berHeader(data, at, 0xA0)
		if !ok {
			return dst, false
		}
		at = end
	}
	messAt := at
	messHdr, messEnd, ok := berHeader(data, messAt, 0xA1)
	if !ok || messEnd != len(data) {
		return dst, false
	}
	// Message ::= SEQUENCE { version [0], mId [1], ... }
	_, verEnd, ok := berHeader(data, messHdr, 0x80)
	if !ok {
		return dst, false
	}
	midHdr, midEnd, ok := berHeader(data, verEnd, 0xA1)
	if !ok || midHdr != span.Off || midEnd != span.End() {
		return dst, false
	}
	delta := len(mid) - span.Len
	midLen := len(mid)
	messLen := messEnd - messHdr + delta - (midHdr - verEnd) + 1 + berLenSize(midLen)
	outerLen := messAt - hdr + 1 + berLenSize(messLen) + messLen
	dst = append(dst, 0x30)
	dst = appendBERLen(dst, outerLen)
	dst = append(dst, data[hdr:messAt]...)
	dst = append(dst, 0xA1)
	dst = appendBERLen(dst, messLen)
	dst = append(dst, data[messHdr:verEnd]...)
	dst = append(dst, 0xA1)
	dst = appendBERLen(dst, midLen)
	dst = append(dst, mid...)
	return append(dst, data[midEnd:]...), true
}

// berHeader reads the header of the element at off, which must have the
// one-octet tag: it returns where its contents start and end. It
// refuses the indefinite form and non-minimal lengths, which the splice
// would not keep.
func berHeader(data []byte, off int, tag byte) (contents, end int, ok bool) {
	if off+2 > len(data) || data[off] != tag {
		return 0, 0, false
	}
	l := int(data[off+1])
	at := off + 2
	if l >= 0x80 {
		n := l & 0x7F
		if n == 0 || n > 3 || at+n > len(data) || data[at] == 0 {
			return 0, 0, false
		}
		l = 0
		for _, b := range data[at : at+n] {
			l = l<<8 | int(b)
		}
		if l < 0x80 || berLenSize(l) != 1+n {
			return 0, 0, false
		}
		at += n
	}
	if at+l > len(data) {
		return 0, 0, false
	}
	return at, at + l, true
}

// berLenSize is the size of a minimal definite length.
func berLenSize(n int) int {
	switch {
	case n < 0x80:
		return 1
	case n < 0x100:
		return 2
	case n < 0x10000:
		return 3
	}
	return 4
}

func appendBERLen(dst []byte, n int) []byte {
	switch berLenSize(n) {
	case 1:
		return append(dst, byte(n))
	case 2:
		return append(dst, 0x81, byte(n))
	case 3:
		return append(dst, 0x82, byte(n>>8), byte(n))
	}
	return append(dst, 0x83, byte(n>>16), byte(n>>8), byte(n))
}
