package text

import (
	"bytes"
	"encoding/binary"

	"megaco/internal/codec/codecerr"
)

// Stepping over bodies the scanners do not read: skim, with a face for
// each scanner.

// The skimmer's per-byte loops, kept free of calls: each tests one
// table lookup per byte.

// skimBlanks returns the offset of the first byte from i that is not
// white space, a line end or in a comment (";" to the end of the line).
//
//go:noinline
func skimBlanks(src []byte, i int) int {
	for i < len(src) {
		c := src[i]
		if skimClass[c]&skBlank == 0 {
			break
		}
		i++
		switch c {
		case '\n':
			// Pretty text indents with tabs after a line end.
			for i < len(src) && src[i] == '\t' {
				i++
			}
		case ';':
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		}
	}
	return i
}

// skipBody steps over "{ item, ... }".
func (k *skimmer) skipBody() bool {
	return k.open() && k.skipRest()
}

// skipRest steps over "item, ... }", the rest of a body.
func (k *skimmer) skipRest() bool {
	if !k.skip(skBody) {
		return false
	}
	k.pos++
	k.depth--
	return true
}

// skipItem steps over the rest of an item: up to the "," or "}" that ends
// it at this depth.
func (k *skimmer) skipItem() bool { return k.skip(skBody | skItemEnd) }

// skip steps over text up to the "}" that closes the current depth or,
// when stops has skItemEnd, a "," at this depth outside brackets; pos is
// left there. It is skim with the skimmer's errors.
func (k *skimmer) skip(stops uint8) bool {
	fl := flStop
	if stops&skItemEnd != 0 {
		fl |= flItem
	}
	i, why := skim(k.src, k.pos, k.depth, k.maxDepth, fl)
	switch why {
	case skimDone:
		k.pos = i
		return true
	case skimEnd:
		return k.fail(len(k.src), "expected '}', found the end of the message")
	case skimDeep:
		return k.failKind(codecerr.TooLarge, i, "nesting deeper than the limit")
	}
	return k.fail(i, skimFailures[why])
}

// flatSkip is skim for the flat scanner: the offset of the stop, or -1
// (the skimmer then reads the message again and says what is wrong).
func flatSkip(src []byte, i, depth, maxDepth int, stops uint8) int {
	if i, why := skim(src, i, depth, maxDepth, stops); why == skimDone {
		return i
	}
	return -1
}

// What skim reports: done, or why it stopped short.
const (
	skimDone     = iota
	skimEnd      // the message ended first
	skimDeep     // nesting deeper than the limit
	skimSDP      // the SDP of a Local or Remote descriptor not closed
	skimDigitMap // a digit map not closed
	skimQuote    // a quoted string not closed
)

// skimFailures says what is wrong for the reasons that need no more.
var skimFailures = [...]string{
	skimSDP:      "Local or Remote descriptor not closed by '}'",
	skimDigitMap: "digit map not closed by '}'",
	skimQuote:    "quoted string not closed",
}

// skim steps over text from i up to the "}" that closes depth or, when
// stops has flItem, a "," at this depth outside brackets, and returns its
// offset and skimDone; or, when it finds neither, where it failed and
// why. It balances braces and steps over quoted strings, comments, the
// SDP of Local and Remote descriptors and digit maps, in which braces and
// quotes do not count; it tells those from what stands before their "{"
// (flatRaw). It keeps no state per token: where it last stopped and
// where the last "=" after DigitMap was are all flatRaw needs. The flat
// scanner (flatSkip) and the skimmer (skip) both step over bodies with it.
func skim(src []byte, i, depth, maxDepth int, stops uint8) (int, uint8) {
	base, brackets := depth, 0
	// Where the last stop but a "=" was, and the last "=" after
	// DigitMap: a digit map's "{" follows such a "=" with no stop
	// between.
	last, eq := i-1, -1
	for {
		// The next stop, eight bytes a step (pretty text has long runs
		// of other bytes), without a call per stop (they come close in
		// compact text): a function for this loop alone measured 5% more
		// instructions per scan (callgrind, BenchmarkSummaryCompact and
		// Pretty).
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
			return i, skimEnd
		}
		switch flatStopKind[src[i]] {
		case stClose:
			if depth == base {
				return i, skimDone
			}
			depth--
		case stOpen:
			if depth++; depth > maxDepth {
				return i, skimDeep
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
					return i, skimSDP + uint8(-1-j) // -1: skimSDP, -2: skimDigitMap
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
				return i, skimQuote
			}
			i += j + 1
		case stComment:
			for i+1 < len(src) && src[i+1] != '\n' && src[i+1] != '\r' {
				i++
			}
		case stComma:
			if depth == base && brackets == 0 {
				return i, skimDone
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
// keyword), the offset of the "}" that ends it (-1 if none ends the SDP,
// -2 if none ends the digit map); 0 if it opens neither.
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
		return -2
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

// isSDPStart tells whether the word ending at j is Local, L, Remote or R
// after a "{" or a ",".
func isSDPStart(src []byte, j int) bool {
	w0 := j - 1
	for w0 > 0 && j-w0 <= len("remote") && charClass[src[w0-1]]&chWord != 0 {
		w0--
	}
	if w0 > 0 && charClass[src[w0-1]]&chWord != 0 || !isLocalRemote(src[w0:j]) {
		return false
	}
	k := backBlanks(src, w0)
	return k > 0 && (src[k-1] == '{' || src[k-1] == ',')
}

// isLocalRemote tells whether w is Local, L, Remote or R in any case.
func isLocalRemote(w []byte) bool {
	switch len(w) {
	case 1:
		return w[0]|0x20 == 'l' || w[0]|0x20 == 'r'
	case 5:
		return lexEqualFold(w, "local")
	case 6:
		return lexEqualFold(w, "remote")
	}
	return false
}

// isDigitMapName tells whether what stands between a digit map's "="
// and its "{" (blanks trimmed at the end) is nothing or a name that is
// no keyword.
func isDigitMapName(w []byte) bool {
	i := skimBlanks(w, 0)
	if i == len(w) {
		return true
	}
	w = w[i:]
	for _, c := range w {
		if charClass[c]&chWord == 0 {
			return false
		}
	}
	return lexLookup(w) == 0
}

// skipSDP returns the offset of the first "}" from i that is not escaped
// as "\}", or -1.
func skipSDP(src []byte, i int) int {
	for {
		j := bytes.IndexByte(src[i:], '}')
		if j < 0 {
			return -1
		}
		// The decoder reads a backslash only as the start of an
		// escaped brace: any "}" right after one is escaped.
		if j == 0 || src[i+j-1] != '\\' {
			return i + j
		}
		i += j + 1
	}
}

// endsLocalRemote tells, cheaply, whether the word ending at p (its last
// letter, one of skRawHint's) may be Local, L, Remote or R: most words
// before a "{" are not, and rawBody need not look.
func endsLocalRemote(src []byte, p int) bool {
	if p == 0 || charClass[src[p-1]]&chWord == 0 {
		return true // L or R, or a one-letter word rawBody turns down
	}
	switch src[p] | 0x20 {
	case 'l':
		return p >= 4 && lexEqualFold(src[p-4:p+1], "local")
	case 'e':
		return p >= 5 && lexEqualFold(src[p-5:p+1], "remote")
	}
	return false
}
