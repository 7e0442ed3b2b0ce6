package text

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
		if c == ';' {
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		}
	}
	return i
}

// nextStop returns the offset of the first byte from i that skipItem
// looks at (a brace, a comma, a quote or a comment), or len(src). The
// loop is unrolled by four: descriptors are long runs of such bytes.
func nextStop(src []byte, i int) int {
	for ; i+4 <= len(src); i += 4 {
		w := src[i : i+4 : i+4]
		if skimClass[w[0]]&skStop != 0 {
			return i
		}
		if skimClass[w[1]]&skStop != 0 {
			return i + 1
		}
		if skimClass[w[2]]&skStop != 0 {
			return i + 2
		}
		if skimClass[w[3]]&skStop != 0 {
			return i + 3
		}
	}
	for i < len(src) && skimClass[src[i]]&skStop == 0 {
		i++
	}
	return i
}

// rawBody tells what the "{" at i opens, as the decoder's scanner does:
// the SDP after Local, L, Remote or R that follows a "{" or ",", or the
// digit map after "DigitMap =" or "DigitMap = name" (a name that is no
// keyword).
func rawBody(src []byte, i int) int {
	j := backBlanks(src, i)
	if j == 0 {
		return rawNone
	}
	c := src[j-1]
	if c == '=' {
		if isDigitMapKeyword(src, j-1) {
			return rawDigitMap
		}
		return rawNone
	}
	if charClass[c]&chWord == 0 {
		return rawNone
	}
	w0 := backWord(src, j)
	k := backBlanks(src, w0)
	if k == 0 {
		return rawNone
	}
	w := src[w0:j]
	switch src[k-1] {
	case '{', ',':
		if isLocalRemote(w) {
			return rawSDP
		}
	case '=':
		if isDigitMapKeyword(src, k-1) && lexLookup(w) == 0 {
			return rawDigitMap
		}
	}
	return rawNone
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

// isDigitMapKeyword tells whether the word before the "=" at eq is
// DigitMap or DM.
func isDigitMapKeyword(src []byte, eq int) bool {
	end := backBlanks(src, eq)
	// Most words before a "=" end otherwise: one test spares the rest.
	if end == 0 || src[end-1]|0x20 != 'm' && src[end-1]|0x20 != 'p' {
		return false
	}
	w := src[backWord(src, end):end]
	return lexEqualFold(w, "dm") || lexEqualFold(w, "digitmap")
}
