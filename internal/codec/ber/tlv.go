package ber

// The package's one reader of BER headers, as cryptobyte reads every
// element through readASN1: the decoder (reader.next), the scanners and
// the rewriter read each header through hdr and, for what it leaves,
// hdrSlow. Both read only the forms an encoder writes: a low tag number
// and a definite, minimal length of up to three octets. The decoder
// reads the rest (high tag numbers, indefinite or non-minimal lengths)
// through reader.headerSlow; the scanners and the rewriter give up on it.
// Salvage, which reads what survives of a message that does not decode,
// reads through hdrCut, the one stance that cuts a length to the data.

// bad is the identifier hdr and hdrSlow give for a header they do not
// read: a high tag number's (its low five bits all set), so no
// component's, and none of the tables' alternatives. A caller that
// looks at the identifier needs no other test; one that hops over the
// element without looking at it checks for bad.
const bad = 0x1f

// hdr reads the header at off of an element that must end by end
// (within data): its identifier octet and its contents' bounds, for a
// low tag number with a length of one octet (short, or 0x81 and one of
// 128 or more); bad for anything else, which the caller then asks
// hdrSlow about. It calls nothing and is small enough to be inlined
// (cost 78 of 80): it is the scanner's every step and the decoder's
// most frequent one. Keep it so: a hdr that is not inlined, or that
// calls another function, cost the lean scanner 31 % more instructions
// (callgrind, BenchmarkScan/everything) and Rewrite 14 %.
func hdr(data []byte, off, end int) (id byte, start, stop int) {
	b := data[:end]
	if off+2 <= end {
		id, start, stop = b[off], off+2, int(b[off+1])
		if stop >= 0x80 {
			if stop != 0x81 || start >= end || b[start] < 0x80 {
				return bad, 0, 0
			}
			stop = int(b[start])
			start++
		}
		if stop += start; stop <= end && id&0x1f != 0x1f {
			return
		}
	}
	return bad, 0, 0
}

// hdrSlow is hdr for lengths of one to three octets after 0x81..0x83
// (the encoder writes no longer one within MaxSize's default), the
// first not 0 (nor under 0x80 when it is alone); bad for anything else.
// It is not inlined: callers ask it only when hdr did not give what they
// expected.
func hdrSlow(data []byte, off, end int) (id byte, start, stop int) {
	b := data[:end]
	if off+3 > end || b[off+1] < 0x81 || b[off+1] > 0x83 || b[off]&0x1f == 0x1f {
		return bad, 0, 0 // (and a short length, which hdr has read already)
	}
	n := int(b[off+1]) - 0x80
	if start = off + 2 + n; start > end || b[off+2] == 0 || n == 1 && b[off+2] < 0x80 {
		return bad, 0, 0
	}
	for _, x := range b[off+2 : start] {
		stop = stop<<8 | int(x)
	}
	if stop += start; stop > end {
		return bad, 0, 0
	}
	return b[off], start, stop
}

// hdrCut is the reader for a message that does not decode (Salvage),
// which must read as far as the message holds: a definite length of one
// to three octets, minimal or not, which may run past end (a cut
// message: the caller cuts the contents to what there is); bad for a
// high tag number, an indefinite length or a header that is itself cut.
// Nothing that decodes reads headers through it.
func hdrCut(data []byte, off, end int) (id byte, start, stop int) {
	b := data[:end]
	if off+2 > end || b[off]&0x1f == 0x1f {
		return bad, 0, 0
	}
	id, start, stop = b[off], off+2, int(b[off+1])
	if stop >= 0x80 {
		n := stop - 0x80
		if n == 0 || n > 3 || start+n > end {
			return bad, 0, 0
		}
		stop = 0
		for _, x := range b[start : start+n] {
			stop = stop<<8 | int(x)
		}
		start += n
	}
	return id, start, start + stop
}
