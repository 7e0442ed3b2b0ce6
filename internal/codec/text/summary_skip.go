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
// and quotes do not count). It keeps no state per token: the position of
// the last "=" that may start a digit map and of the last other byte it
// stopped at is all rawBody needs.
func (k *skimmer) skip(stops uint8) bool {
	src, base := k.src, k.depth
	depth := base
	// A list in brackets at the item's own depth (a v3 termination ID
	// list, a parameter's values) does not end at its commas.
	brackets := 0
	last, eq := k.pos-1, -1
	for i := k.pos; ; i++ {
		// The next stop, eight bytes a step (pretty text has long runs
		// of other bytes), without a call per stop (they come close in
		// compact text). flatSkip has the same loop over its own table;
		// the two stay apart for that reason.
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
		switch c := src[i]; {
		case c == '}':
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
			// Only a "=" since the last stop or Local or Remote just
			// before can open an SDP or a digit map.
			p := i - 1
			for p > 0 && charClass[src[p]]&chBlank != 0 {
				p--
			}
			if eq <= last && !(skimClass[src[p]]&skRawHint != 0 && endsLocalRemote(src, p)) {
				break
			}
			if j := k.rawEnd(i, last, eq); j != 0 {
				if j < 0 {
					return false
				}
				// Stop again at the "}" that ends it.
				i = j - 1
			}
		case c == '=':
			// Only the "=" after DigitMap or DM may start one. Most
			// words before a "=" end in another letter: one test
			// spares the call. (The last letter of the word before
			// it, blanks looked over: in pretty text every "=" has a
			// blank before it.)
			c, j := src[i-1], i
			if charClass[c]&chBlank != 0 {
				if j = backBlanks(src, i-1); j > 0 {
					c = src[j-1]
				}
			}
			if c |= 0x20; (c == 'm' || c == 'p') && isDigitMapWord(src, j) {
				eq = i
			}
			continue
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
		}
		last = i
	}
}

// rawEnd returns, if the "{" at i opens an SDP or a digit map (rawBody),
// the offset of the "}" that ends it; 0 if it opens neither, -1 if it is
// not closed.
func (k *skimmer) rawEnd(i, last, eq int) int {
	src := k.src
	switch rawBody(src, i, last, eq) {
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
// keyword). last is where skip last stopped before i other than at a
// "=", eq where it last stopped at one after DigitMap or DM.
func rawBody(src []byte, i, last, eq int) int {
	j := backBlanks(src, i)
	if j == 0 {
		return rawNone
	}
	if c := src[j-1] | 0x20; (c == 'l' || c == 'e' || c == 'r') && isSDPStart(src, j) {
		return rawSDP
	}
	if eq > last && isDigitMapName(src[eq+1:j]) {
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
