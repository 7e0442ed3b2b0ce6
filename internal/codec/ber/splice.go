package ber

import (
	"math/bits"

	"megaco/internal/codec/scan"
)

// SpliceMID appends to dst the message data with mid (the contents of the
// mId element) in place of span, the old contents, which a scan of data
// found: what rewriting only the mId costs beyond a copy, where Rewrite
// would scan the message again. Three lengths enclose the mId: the
// MegacoMessage SEQUENCE's, the Message's ([1]) and the mId element's
// ([1]); each is written anew in the minimal form. It reports false,
// leaving the work to Rewrite, when the headers on the way are not as the
// encoder writes them (definite minimal lengths, the mId where the scan
// said).
func SpliceMID(dst, data []byte, span scan.Span, mid []byte) ([]byte, bool) {
	end := len(data)
	hdrEnd, outer, ok := element(data, 0, end, 0x30)
	if !ok || outer != end {
		return dst, false
	}
	// MegacoMessage ::= SEQUENCE { authHeader [0] OPTIONAL, mess [1] }
	at := hdrEnd
	if at < end && data[at] == 0xA0 {
		if _, at, ok = element(data, at, end, 0xA0); !ok {
			return dst, false
		}
	}
	messAt := at
	messHdr, messEnd, ok := element(data, messAt, end, 0xA1)
	if !ok || messEnd != end {
		return dst, false
	}
	// Message ::= SEQUENCE { version [0], mId [1], ... }
	_, verEnd, ok := element(data, messHdr, end, 0x80)
	if !ok {
		return dst, false
	}
	midHdr, midEnd, ok := element(data, verEnd, end, 0xA1)
	if !ok || midHdr != span.Off || midEnd != span.End() {
		return dst, false
	}
	midLen := len(mid)
	messLen := messEnd - messHdr + midLen - span.Len - (midHdr - verEnd) + 1 + lenSize(midLen)
	outerLen := messAt - hdrEnd + 1 + lenSize(messLen) + messLen
	dst = appendLen(append(dst, 0x30), outerLen)
	dst = append(dst, data[hdrEnd:messAt]...)
	dst = appendLen(append(dst, 0xA1), messLen)
	dst = append(dst, data[messHdr:verEnd]...)
	dst = appendLen(append(dst, 0xA1), midLen)
	dst = append(dst, mid...)
	return append(dst, data[midEnd:]...), true
}

// element reads, through the one header reader, the header at off of an
// element with the one-octet identifier id: where its contents start and
// stop.
func element(data []byte, off, end int, id byte) (start, stop int, ok bool) {
	got, start, stop := hdr(data, off, end)
	if got == bad {
		got, start, stop = hdrSlow(data, off, end)
	}
	return start, stop, got == id
}

// lenSize is the size of the minimal definite length of n content octets
// (what appendLen writes).
func lenSize(n int) int {
	if n < 0x80 {
		return 1
	}
	return 1 + (bits.Len(uint(n))+7)/8
}
