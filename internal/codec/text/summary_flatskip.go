package text

import (
	"bytes"
	"encoding/binary"
)

// flatSkip steps over text from i up to the "}" that closes depth or,
// when stops has flItem, a "," at this depth outside brackets, and returns
// its offset; -1 if it finds neither, or nesting deeper than maxDepth (the
// skimmer then reads the message and says which). It balances braces and
// steps over quoted strings, comments, the SDP of Local and Remote
// descriptors and digit maps, in which braces and quotes do not count;
// it tells those from what stands before their "{" (flatRaw).
func flatSkip(src []byte, i, depth, maxDepth int, stops uint8) int {
	base, brackets := depth, 0
	// Where the last stop but a "=" was, and the last "=" after
	// DigitMap: a digit map's "{" follows such a "=" with no stop
	// between.
	last, eq := i-1, -1
	for {
		// The next stop, eight bytes a step. The skimmer's skip has the
		// same loop over its own table: one function for both measured 5%
		// more instructions per scan (callgrind, BenchmarkSummaryCompact
		// and Pretty), a call per stop.
	find:
		for {
			if i+8 > len(src) {
				for i < len(src) && flatClass[src[i]]&stops == 0 {
					i++
				}
				break
			}
			w := src[i : i+8 : i+8]
			switch {
			case flatClass[w[0]]&stops != 0:
				break find
			case flatClass[w[1]]&stops != 0:
				i++
				break find
			case flatClass[w[2]]&stops != 0:
				i += 2
				break find
			case flatClass[w[3]]&stops != 0:
				i += 3
				break find
			case flatClass[w[4]]&stops != 0:
				i += 4
				break find
			case flatClass[w[5]]&stops != 0:
				i += 5
				break find
			case flatClass[w[6]]&stops != 0:
				i += 6
				break find
			case flatClass[w[7]]&stops != 0:
				i += 7
				break find
			}
			i += 8
		}
		if i >= len(src) {
			return -1
		}
		switch flatStopKind[src[i]] {
		case stClose:
			if depth == base {
				return i
			}
			depth--
		case stOpen:
			if depth++; depth > maxDepth {
				return -1
			}
			// Most "{" follow a byte (or a space and a byte) that
			// cannot end Local or Remote, with no digit map's "="
			// since the last stop: no call for those.
			p := i - 1
			if src[p] == ' ' && p > 0 {
				p--
			}
			if flatClass[src[p]]&(flRawHint|flBlank) == 0 && eq <= last {
				break
			}
			if j := flatRaw(src, i, last, eq); j != 0 {
				if j < 0 {
					return -1
				}
				i = j // the "}" that ends it, read next
				continue
			}
		case stEqual:
			if c := src[i-1]; (c|0x20 == 'm' || c|0x20 == 'p' || flatClass[c]&flBlank != 0) && isDigitMapAt(src, i) {
				eq = i
			}
			i++
			continue
		case stQuote:
			j := bytes.IndexByte(src[i+1:], '"')
			if j < 0 {
				return -1
			}
			i += j + 1
		case stComment:
			for i+1 < len(src) && src[i+1] != '\n' && src[i+1] != '\r' {
				i++
			}
		case stComma:
			if depth == base && brackets == 0 {
				return i
			}
		case stOpenList:
			if depth == base {
				brackets++
			}
		case stCloseList:
			if depth == base && brackets > 0 {
				brackets--
			}
		}
		last = i
		i++
	}
}

// The kinds of stop of flatStopKind, numbered from one so that flatSkip's
// switch on them is a jump table.
const (
	stClose = iota + 1
	stOpen
	stEqual
	stQuote
	stComment
	stComma
	stOpenList
	stCloseList
)

// flatStopKind gives the kind of each byte flatSkip stops at.
var flatStopKind = func() (t [256]uint8) {
	for k, c := range "}{=\";,[]" {
		t[c] = uint8(k + 1)
	}
	return t
}()

// flatRaw tells what the "{" at i opens, as the decoder's scanner does:
// if the SDP after Local, L, Remote or R that follows a "{" or ",", or
// (eq > last: the "=" at eq, after DigitMap, came since the last other
// stop) the digit map after "DigitMap =" or "DigitMap = name" (a name that is no
// keyword), the offset of the "}" that ends it (-1 if none does); 0 if
// it opens neither.
func flatRaw(src []byte, i, last, eq int) int {
	p := i - 1
	for p > 0 && flatClass[src[p]]&flBlank != 0 {
		p--
	}
	if flatClass[src[p]]&flRawHint != 0 && endsLocalRemote(src, p) && isSDPStart(src, p+1) {
		return skipSDP(src, i+1)
	}
	if eq <= last || !isDigitMapName(src[eq+1:p+1]) {
		return 0
	}
	j := bytes.IndexByte(src[i+1:], '}')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// isDigitMapAt tells whether DigitMap or DM (and blanks) stand before the
// "=" at eq: a test of the word's last letter, its first and its length
// (eight bytes at once) before the compare.
func isDigitMapAt(src []byte, eq int) bool {
	j := eq
	if src[j-1] == ' ' || flatClass[src[j-1]]&flBlank != 0 {
		j = backBlanks(src, j)
	}
	switch {
	case j >= 2 && src[j-1]|0x20 == 'm':
		return src[j-2]|0x20 == 'd' && (j == 2 || flatClass[src[j-3]]&flWord == 0)
	case j >= 8 && src[j-1]|0x20 == 'p':
		return binary.LittleEndian.Uint64(src[j-8:])|0x2020202020202020 == digitMapWord &&
			(j == 8 || flatClass[src[j-9]]&flWord == 0)
	}
	return false
}

// digitMapWord is "digitmap" as a little-endian word.
var digitMapWord = binary.LittleEndian.Uint64([]byte("digitmap"))
