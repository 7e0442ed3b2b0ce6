package text

import (
	"bytes"

	"megaco/internal/codec/codecerr"
)

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
// left there. It balances braces and steps over quoted strings, comments,
// the SDP of Local and Remote descriptors and digit maps (in which braces
// and quotes do not count). It does not stop at a "=": whether a "{"
// opens an SDP or a digit map matters only if what follows it up to its
// "}" holds a byte that would count otherwise, so rawBody looks back from
// a "{" only when the next stop after it is no plain "}" (in compact text
// most are).
func (k *skimmer) skip(stops uint8) bool {
	src, base := k.src, k.depth
	depth := base
	// A list in brackets at the item's own depth (a v3 termination ID
	// list, a parameter's values) does not end at its commas.
	brackets := 0
	// floor is the last byte of the last string or comment stepped
	// over: rawBody looks back no further. open is the last "{" if no
	// stop that counts followed it yet, else -1.
	floor, open := -1, -1
	for i := k.pos; ; i++ {
		// The next stop, eight bytes a step (pretty text has long runs
		// of other bytes), without a call per stop (they come close in
		// compact text).
	find:
		for {
			if i+8 > len(src) {
				for i < len(src) && skimClass[src[i]]&stops == 0 {
					i++
				}
				break
			}
			w := src[i : i+8 : i+8]
			switch {
			case skimClass[w[0]]&stops != 0:
				break find
			case skimClass[w[1]]&stops != 0:
				i++
				break find
			case skimClass[w[2]]&stops != 0:
				i += 2
				break find
			case skimClass[w[3]]&stops != 0:
				i += 3
				break find
			case skimClass[w[4]]&stops != 0:
				i += 4
				break find
			case skimClass[w[5]]&stops != 0:
				i += 5
				break find
			case skimClass[w[6]]&stops != 0:
				i += 6
				break find
			case skimClass[w[7]]&stops != 0:
				i += 7
				break find
			}
			i += 8
		}
		if i >= len(src) {
			return k.fail(len(src), "expected '}', found the end of the message")
		}
		c := src[i]
		if open >= 0 && (c != '}' || src[i-1] == '\\') && c != ',' && c != '[' && c != ']' {
			// What the "{" at open opens matters now.
			j := k.rawEnd(open, floor)
			if j < 0 {
				return false
			}
			open = -1
			if j > 0 {
				// Stop again at the "}" that ends it.
				i = j - 1
				continue
			}
		}
		switch {
		case c == '}':
			open = -1
			if depth == base {
				k.pos = i
				return true
			}
			depth--
		case c == '{':
			depth++
			if depth > k.maxDepth {
				return k.failKind(codecerr.TooLarge, i, "nesting deeper than the limit")
			}
			open = i
		case c == ',':
			if depth == base && brackets == 0 {
				k.pos = i
				return true
			}
		case c == '[':
			if depth == base {
				brackets++
			}
		case c == ']':
			if depth == base && brackets > 0 {
				brackets--
			}
		default:
			if i = k.skipQuoteOrComment(i); i < 0 {
				return false
			}
			floor = i
		}
	}
}

// rawEnd returns, if the "{" at i opens an SDP or a digit map (rawBody),
// the offset of the "}" that ends it; 0 if it opens neither, -1 if it is
// not closed.
func (k *skimmer) rawEnd(i, floor int) int {
	src := k.src
	switch rawBody(src, i, floor) {
	case rawSDP:
		j := skipSDP(src, i+1)
		if j < 0 {
			return k.failAt(i, "Local or Remote descriptor not closed by '}'")
		}
		return j
	case rawDigitMap:
		j := bytes.IndexByte(src[i+1:], '}')
		if j < 0 {
			return k.failAt(i, "digit map not closed by '}'")
		}
		return i + 1 + j
	}
	return 0
}

// skipQuoteOrComment returns the offset of the last byte of the quoted
// string or the comment at i; -1 if a string is not closed.
func (k *skimmer) skipQuoteOrComment(i int) int {
	src := k.src
	if src[i] == '"' {
		j := bytes.IndexByte(src[i+1:], '"')
		if j < 0 {
			return k.failAt(i, "quoted string not closed")
		}
		return i + 1 + j
	}
	for i+1 < len(src) && src[i+1] != '\n' && src[i+1] != '\r' {
		i++
	}
	return i
}

// failAt records a malformed input error at off and returns -1.
func (k *skimmer) failAt(off int, msg string) int {
	k.fail(off, msg)
	return -1
}

// What a "{" opens that its content is not tokens (rawBody).
const (
	rawNone     = iota
	rawSDP      // the SDP of a Local or Remote descriptor, to "}" not escaped as "\}"
	rawDigitMap // a digitMapValue, to the first "}"
)

// rawBody tells what the "{" at i opens, as the decoder's scanner does:
// the SDP after Local, L, Remote or R that follows a "{" or ",", or the
// digit map after "DigitMap =" or "DigitMap = name" (a name that is no
// keyword). It looks back for them no further than floor, the last byte
// of the last string or comment skip stepped over (or -1).
func rawBody(src []byte, i, floor int) int {
	p := i - 1
	for p > floor && charClass[src[p]]&chBlank != 0 {
		p--
	}
	if p <= floor {
		return rawNone
	}
	c := src[p]
	if c == '=' {
		if e := backBlanks(src, p); e > floor+1 && isDigitMapWord(src, e) {
			return rawDigitMap
		}
		return rawNone
	}
	if charClass[c]&chWord == 0 {
		return rawNone
	}
	if skimClass[c]&skRawHint != 0 && endsLocalRemote(src, p) && isSDPStart(src, p+1) {
		return rawSDP
	}
	// "DigitMap = name {": the word, blanks, a "=" after DigitMap or DM.
	w0 := backWord(src, p+1)
	q := w0 - 1
	for q > floor && charClass[src[q]]&chBlank != 0 {
		q--
	}
	if q <= floor || src[q] != '=' {
		return rawNone
	}
	if e := backBlanks(src, q); e > floor+1 && isDigitMapWord(src, e) && lexLookup(src[w0:p+1]) == 0 {
		return rawDigitMap
	}
	return rawNone
}

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

// isDigitMapWord tells whether the word ending at end is DigitMap or DM.
func isDigitMapWord(src []byte, end int) bool {
	w := src[backWord(src, end):end]
	return lexEqualFold(w, "dm") || lexEqualFold(w, "digitmap")
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
