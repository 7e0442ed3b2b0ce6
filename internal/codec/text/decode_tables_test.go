package text

import (
	"slices"
	"testing"

	"megaco/internal/codec/limits"
)

// decode_tables.go reads tables goyacc generates but does not document.
// These tests pin what it assumes of them, so that a goyacc upgrade that
// changes their shape or meaning fails here, loudly, rather than turning
// the "expected ..." of syntax errors into nonsense.

// tableInts reads a table as ints; that it compiles is the check that
// the table exists and holds integers.
func tableInts[T ~int8 | ~int16 | ~int32 | ~uint8 | ~uint16 | ~int](table []T) []int {
	out := make([]int, len(table))
	for i, v := range table {
		out[i] = int(v)
	}
	return out
}

// TestTablesShape: the tables exist, with the types and sizes
// decode_tables.go assumes.
func TestTablesShape(t *testing.T) {
	pact, act, chk, def := tableInts(yyPact[:]), tableInts(yyAct[:]), tableInts(yyChk[:]), tableInts(yyDef[:])
	exca, pgo, r1, r2 := tableInts(yyExca[:]), tableInts(yyPgo[:]), tableInts(yyR1[:]), tableInts(yyR2[:])
	tok1, tok2, tok3 := tableInts(yyTok1[:]), tableInts(yyTok2[:]), tableInts(yyTok3[:])
	var names []string = yyToknames[:]
	var flag, last, private, errCode, eofCode int = yyFlag, yyLast, yyPrivate, yyErrCode, yyEofCode

	if last != len(act) {
		t.Errorf("yyLast %d, len(yyAct) %d", last, len(act))
	}
	if len(pact) != len(def) || len(pact) != len(chk) {
		t.Errorf("states: yyPact %d, yyDef %d, yyChk %d", len(pact), len(def), len(chk))
	}
	if len(r1) != len(r2) || len(r1) < 2 {
		t.Errorf("rules: yyR1 %d, yyR2 %d", len(r1), len(r2))
	}
	for _, lhs := range r1 {
		if lhs < 0 || lhs >= len(pgo) {
			t.Fatalf("yyR1 names nonterminal %d, yyPgo has %d", lhs, len(pgo))
		}
	}
	if len(exca) < 4 || len(exca)%2 != 0 || exca[0] != -1 {
		t.Errorf("yyExca is not (-1, state, (token, action)..., -2, action) groups: %v", exca)
	}
	if flag >= 0 || slices.Contains(pact, flag-1) {
		t.Errorf("yyFlag %d", flag)
	}
	if private != 57344 || errCode != 2 || eofCode != 1 || len(tok3)%2 != 1 && len(tok3) != 0 {
		t.Errorf("yyPrivate %d, yyErrCode %d, yyEofCode %d, len(yyTok3) %d", private, errCode, eofCode, len(tok3))
	}
	if len(names) < 3 || names[0] != "$end" || names[1] != "error" || names[2] != "$unk" {
		t.Errorf("yyToknames starts %q, want $end, error, $unk", names[:min(3, len(names))])
	}
	if tok1[0] != eofCode || tok2[0] != errCode || tok2[1] != 3 {
		t.Errorf("yyTok1[0] %d, yyTok2[:2] %v: want the end marker, error and $unk", tok1[0], tok2[:2])
	}
}

// TestTablesTokens: lrToken (a call of goyacc's yylex1 with a nil lval)
// numbers every scanner kind as yylex1 does, lrExternal undoes it, and
// each grammar terminal has its name in yyToknames.
func TestTablesTokens(t *testing.T) {
	kinds := []int{-1, 0}
	for k := 1; k < 256; k++ {
		kinds = append(kinds, k)
	}
	for k := yyPrivate - 2; k < yyPrivate+len(yyTok2)+3; k++ {
		kinds = append(kinds, k)
	}
	for _, k := range kinds {
		_, want := yylex1(kindLexer(k), new(yySymType))
		if got := lrToken(k); got != want {
			t.Errorf("lrToken(%d) = %d, yylex1 gives %d", k, got, want)
		}
	}
	for tok := 1; tok <= len(yyToknames); tok++ {
		if tok == yyErrCode || yyToknames[tok-1] == "$unk" {
			continue
		}
		if k := lrExternal[tok]; lrToken(k) != tok {
			t.Errorf("token %d (%s): lrExternal gives kind %d, which lrToken maps to %d", tok, yyToknames[tok-1], k, lrToken(k))
		}
	}
	for k, name := range map[int]string{safeChars: "safeChars", versionHeader: "versionHeader", lexError: "lexError",
		addToken: "addToken", versionToken: "versionToken", '{': "'{'", '=': "'='"} {
		if got := yyToknames[lrToken(k)-1]; got != name {
			t.Errorf("kind %d: yyToknames says %q, want %q", k, got, name)
		}
	}
}

// TestTablesExpected: after known prefixes, lrExpected gives exactly the
// tokens the grammar allows.
func TestTablesExpected(t *testing.T) {
	const h = "!/2 [1.2.3.4]:55555\nT=1{C=-{"
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"", []int{authToken, versionHeader}},
		{h + "MF=root,SC", []int{'='}},
		{h + "N=a{OE=1{al/of}}}", []int{'}', ','}},
		{h + "N=a{OE=1{al/of}}}}", []int{0, transToken, replyToken, pendingToken, responseAckToken, messageSegmentToken}},
		{h + "A=a{M{ST=1{O{MO", []int{'='}},
	} {
		n := len(scanKinds(c.in)) - 1 // all tokens but the end
		got, _ := lrExpected([]byte(c.in), limits.Default.MaxDepth, n)
		slices.Sort(got)
		slices.Sort(c.want)
		if !slices.Equal(got, c.want) {
			t.Errorf("after %q: expected %v, want %v", c.in, decDescribeExpected(got), decDescribeExpected(c.want))
		}
	}
}

// TestTablesAgreeWithParser runs lrExpected after every token of real
// messages: the next token must be among what it expects, and it must
// expect the end of the message exactly where goyacc's parser accepts
// the message cut there.
func TestTablesAgreeWithParser(t *testing.T) {
	corpus := loadCorpus(t)
	for _, c := range corpus[:4] {
		for _, src := range [][]byte{c.pretty, c.compact} {
			toks := scanTokens(string(src))
			for i := range toks {
				expected, _ := lrExpected(src, limits.Default.MaxDepth, i)
				if !slices.Contains(expected, toks[i].kind) {
					t.Fatalf("%s: after %q: the parser took %q, lrExpected gives %v",
						c.name, src[:toks[max(i-1, 0)].s.end], src[toks[i].s.pos:toks[i].s.end], decDescribeExpected(expected))
				}
				if i == 0 {
					continue
				}
				cut := src[:toks[i-1].s.end]
				_, err := Decode(cut, Options{})
				switch ends := slices.Contains(expected, 0); {
				case ends && err != nil:
					t.Fatalf("%s: cut after %q: lrExpected expects the end there, the parser refuses: %v", c.name, cut, err)
				case !ends && err == nil:
					t.Fatalf("%s: cut after %q: the parser accepts, lrExpected does not expect the end", c.name, cut)
				}
			}
		}
	}
}

// scanTokens returns the tokens of src up to and including the end.
func scanTokens(src string) []lexToken {
	sc := scanner{src: []byte(src), maxDepth: limits.Default.MaxDepth}
	var out []lexToken
	for {
		k, s := sc.next()
		out = append(out, lexToken{k, s})
		if k <= 0 || k == lexError {
			return out
		}
	}
}

func scanKinds(src string) []int {
	var out []int
	for _, t := range scanTokens(src) {
		out = append(out, t.kind)
	}
	return out
}

// TestLrInternal: the parser's loop maps kinds with lrInternal's table,
// which must agree with goyacc's own mapping (lrToken) for every kind.
func TestLrInternal(t *testing.T) {
	for k := 0; k < len(lrInternals); k++ {
		if got, want := lrInternal(k), lrToken(k); got != want {
			t.Fatalf("lrInternal(%d) = %d, lrToken %d", k, got, want)
		}
	}
}

// TestLrExternal: the decoder keeps of a token read ahead only its
// internal number (lexFill), and cur gives its kind back with lrExternal:
// every kind the scanner makes, the end, the punctuation and every named
// terminal, must come back as itself.
func TestLrExternal(t *testing.T) {
	kinds := []int{0}
	for _, c := range ",:>#}]{[<=" {
		kinds = append(kinds, int(c))
	}
	for k := safeChars; k < yyPrivate+256 && k-yyPrivate < len(yyToknames); k++ { // the terminals of grammar.y, from its first
		if lrInternal(k) != lrInternal(yyPrivate-1) { // not $unk
			kinds = append(kinds, k)
		}
	}
	if len(kinds) < 1+10+v91Token-safeChars {
		t.Fatalf("%d kinds, want every terminal from safeChars to v91Token", len(kinds))
	}
	for _, k := range kinds {
		if got := lrExternal[lrInternal(k)]; got != k {
			t.Errorf("lrExternal[lrInternal(%d)] = %d", k, got)
		}
	}
}

// TestLeanTables: the tables the parser's loop runs on (yypatch derives
// them from goyacc's at go generate) say, for every state and token and
// for every state and nonterminal, what goyacc's own tables say; and no
// state shifts goyacc's error token (the lean driver has no error
// recovery).
func TestLeanTables(t *testing.T) {
	for s := range yyPact {
		st := yyLRStates[s]
		for tok := 0; tok <= len(yyToknames); tok++ {
			want, accept := lrAction(s, tok)
			if accept {
				want = -len(yyLRProds)
			}
			got := int(int16(st))
			if st>>16 != yyLRNoToken {
				if e := yyLRActions[int(st>>16)+tok]; int(e>>16) == s {
					got = int(int16(e))
				}
			} else if int(yyPact[s]) > yyFlag || yyDef[s] == -2 {
				t.Fatalf("state %d acts without a token, goyacc's reads one", s)
			}
			if tok == yyErrCode && want > 0 {
				t.Fatalf("state %d shifts the error token", s)
			}
			if got >= len(yyLRStates) { // shift, then reduce without a token
				if r, _ := lrAction(want, 0); want <= 0 || int(yyLRStates[want]>>16) != yyLRNoToken || -r != got-len(yyLRStates) || yyR2[-r] == 0 {
					t.Fatalf("state %d, token %d: lean action shift and reduce by %d, goyacc's %d", s, tok, got-len(yyLRStates), want)
				}
				continue
			}
			if got != want {
				t.Fatalf("state %d, token %d: lean action %d, goyacc's %d", s, tok, got, want)
			}
		}
	}
	if len(yyLRProds) != len(yyR1) {
		t.Fatalf("%d productions, goyacc has %d", len(yyLRProds), len(yyR1))
	}
	for p, r := range yyLRProds {
		if int(r.n) != int(yyR2[p]) || int(r.lhs) != int(yyR1[p]) {
			t.Fatalf("production %d: pops %d to %d, goyacc %d to %d", p, r.n, r.lhs, yyR2[p], yyR1[p])
		}
		for s := range yyPact {
			got := int(r.def)
			if e := yyLRGotos[int(r.base)+s]; int(e>>16) == int(r.lhs) {
				got = int(uint16(e))
			}
			want := lrGoto(s, int(r.lhs))
			if got >= len(yyLRStates) { // goto, then reduce without a token
				if red, _ := lrAction(want, 0); int(yyLRStates[want]>>16) != yyLRNoToken || -red != got-len(yyLRStates) || yyR2[-red] == 0 {
					t.Fatalf("production %d from state %d: lean goto and reduce by %d, goyacc's goto %d", p, s, got-len(yyLRStates), want)
				}
				continue
			}
			if got != want {
				t.Fatalf("production %d from state %d: lean goto %d, goyacc's %d", p, s, got, want)
			}
		}
	}
}
