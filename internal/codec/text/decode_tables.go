package text

// The only code that reads goyacc's internal tables (yyPact, yyAct,
// yyChk, yyDef, yyExca, yyR1, yyR2, yyPgo, yyTok1-3, yyToknames): it asks
// them which tokens the parser could have taken where a syntax error
// stopped it, for the "expected ..." of the message. goyacc documents none
// of them; decode_tables_test.go fails if an upgrade changes their shape
// or meaning.

// lrExpected runs the first n tokens of src through the parser's tables
// and returns the tokens (scanner kinds) the parser could take next, and
// the last of the n.
func lrExpected(src []byte, maxDepth, n int) ([]int, lexToken) {
	sc := scanner{src: src, maxDepth: maxDepth}
	stack := []int{0}
	var last lexToken
	for i := 0; i < n; i++ {
		k, s := sc.next()
		last = lexToken{k, s}
		var ok bool
		if stack, ok = lrShift(stack, lrToken(k)); !ok {
			return nil, last
		}
	}
	var out []int
	for t := 1; t <= len(yyToknames); t++ {
		if t == yyErrCode || yyToknames[t-1] == "$unk" {
			continue
		}
		if _, ok := lrShift(append([]int(nil), stack...), t); ok {
			out = append(out, lrExternal[t])
		}
	}
	return out, last
}

// lrShift does what the parser does with token t (its internal number)
// in the state on top of stack: reduce as the tables say until t is
// shifted (true) or found to be an error (false). At the end of the input
// (t the end marker) accepting counts as shifting.
func lrShift(stack []int, t int) ([]int, bool) {
	for steps := 0; steps < 100000; steps++ {
		n, accept := lrAction(stack[len(stack)-1], t)
		switch {
		case accept:
			return stack, true
		case n > 0:
			return append(stack, n), true
		case n == 0:
			return stack, false
		}
		stack = stack[:len(stack)-int(yyR2[-n])]
		stack = append(stack, lrGoto(stack[len(stack)-1], int(yyR1[-n])))
	}
	return stack, false
}

// lrAction is what goyacc's parser does in state s with token t (its
// internal number) as goyacc's tables say: shift to state n (n > 0),
// reduce by production -n (n < 0), fail (0) or accept.
func lrAction(s, t int) (n int, accept bool) {
	if n := int(yyPact[s]); n > yyFlag {
		if m := n + t; m >= 0 && m < yyLast {
			if a := int(yyAct[m]); int(yyChk[a]) == t {
				return a, false
			}
		}
	}
	n = int(yyDef[s])
	if n == -2 {
		x := 0
		for !(int(yyExca[x]) == -1 && int(yyExca[x+1]) == s) {
			x += 2
		}
		for x += 2; ; x += 2 {
			if e := int(yyExca[x]); e < 0 || e == t {
				break
			}
		}
		if n = int(yyExca[x+1]); n < 0 {
			return 0, true
		}
	}
	return -n, false
}

// lrGoto is the state goyacc's tables go to after a reduction to the
// nonterminal lhs uncovered state s.
func lrGoto(s, lhs int) int {
	g := int(yyPgo[lhs])
	next := int(yyAct[g])
	if j := g + s + 1; j < yyLast {
		if a := int(yyAct[j]); int(yyChk[a]) == -lhs {
			next = a
		}
	}
	return next
}

// lrToken maps a scanner kind to the parser's internal token number with
// goyacc's own yylex1, which the parser's loop no longer calls (lexFill
// maps the kinds as it reads them ahead) but which stays the one
// definition of the mapping.
func lrToken(k int) int {
	_, t := yylex1(kindLexer(k), nil)
	return t
}

// kindLexer hands yylex1 one scanner kind.
type kindLexer int

func (l kindLexer) Lex(*yySymType) int { return int(l) }
func (kindLexer) Error(string)         {}

// lrInternal maps a scanner kind to the parser's internal token number
// as lrToken does, with one look-up in lrInternals. Every kind the
// scanner makes fits in 16 bits (scanner.last keeps them so).
func lrInternal(k int) int { return int(lrInternals[uint16(k)]) }

// lrInternals holds lrToken of every kind below 1<<16: the characters
// below 128 and the kinds from yyPrivate on have their own tokens (far
// fewer than 255 kinds), the rest are all $unk. A table that large costs
// no more cache than a small one: a parse reads only the entries of the
// kinds it meets, a few lines of it.
var lrInternals = func() (t [1 << 16]uint8) {
	unk := uint8(lrToken(yyPrivate - 1)) // neither a character nor a kind
	for i := range t {
		switch {
		case i < 128 || i >= yyPrivate && i < yyPrivate+256:
			t[i] = uint8(lrToken(i))
		default:
			t[i] = unk
		}
	}
	return t
}()

// lrExternal maps the parser's internal token numbers back to scanner
// kinds.
var lrExternal = func() []int {
	out := make([]int, len(yyToknames)+1)
	for k := len(yyTok1) - 1; k >= 0; k-- {
		if t := int(yyTok1[k]); t > 0 && t < len(out) {
			out[t] = k
		}
	}
	out[int(yyTok1[0])] = 0
	for i := range yyTok2 {
		if t := int(yyTok2[i]); t > 0 && t < len(out) && i >= 2 {
			out[t] = yyPrivate + i
		}
	}
	return out
}()
