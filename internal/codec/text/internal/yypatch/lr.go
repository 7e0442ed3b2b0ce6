package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
)

// goyacc's tables and constants, as its output declares them.
type tables struct {
	pact, act, chk, def, exca, pgo, r1, r2 []int
	last, flag, errCode, ntok              int
}

// readTables finds goyacc's tables in its output: each is a composite
// literal of integers, each constant an integer literal.
func readTables(src []byte) (*tables, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	ints, consts, lens := map[string][]int{}, map[string]int{}, map[string]int{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, sp := range g.Specs {
			v, ok := sp.(*ast.ValueSpec)
			if !ok || len(v.Names) != 1 || len(v.Values) != 1 {
				continue
			}
			name := v.Names[0].Name
			switch x := v.Values[0].(type) {
			case *ast.CompositeLit:
				lens[name] = len(x.Elts)
				if vs, ok := intList(x.Elts); ok {
					ints[name] = vs
				}
			default:
				if n, ok := intExpr(x); ok {
					consts[name] = n
				}
			}
		}
	}
	t := &tables{pact: ints["yyPact"], act: ints["yyAct"], chk: ints["yyChk"], def: ints["yyDef"],
		exca: ints["yyExca"], pgo: ints["yyPgo"], r1: ints["yyR1"], r2: ints["yyR2"],
		last: consts["yyLast"], flag: consts["yyFlag"], errCode: consts["yyErrCode"], ntok: lens["yyToknames"]}
	if t.pact == nil || t.act == nil || t.chk == nil || t.def == nil || t.exca == nil ||
		t.pgo == nil || t.r1 == nil || t.r2 == nil || t.last != len(t.act) || t.flag >= 0 || t.errCode == 0 || t.ntok == 0 {
		return nil, errors.New("goyacc's tables are not what yypatch reads: goyacc's output has changed")
	}
	return t, nil
}

func intList(es []ast.Expr) ([]int, bool) {
	out := make([]int, len(es))
	for i, e := range es {
		n, ok := intExpr(e)
		if !ok {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

func intExpr(e ast.Expr) (int, bool) {
	neg := false
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		neg, e = true, u.X
	}
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.INT {
		return 0, false
	}
	n, err := strconv.Atoi(b.Value)
	if neg {
		n = -n
	}
	return n, err == nil
}

// action is what goyacc's loop does in state s with lookahead tok: a
// shift (the new state, > 0), a reduction (minus the production), an
// error (0) or acceptance (accept).
func (t *tables) action(s, tok, accept int) int {
	if n := t.pact[s]; n > t.flag {
		if m := n + tok; m >= 0 && m < t.last && t.chk[t.act[m]] == tok {
			return t.act[m]
		}
	}
	n := t.def[s]
	if n == -2 {
		x := 0
		for t.exca[x] != -1 || t.exca[x+1] != s {
			x += 2
		}
		for x += 2; t.exca[x] >= 0 && t.exca[x] != tok; x += 2 {
		}
		if n = t.exca[x+1]; n < 0 {
			return accept
		}
	}
	return -n
}

// needsToken: goyacc's loop reads a lookahead in state s.
func (t *tables) needsToken(s int) bool { return t.pact[s] > t.flag || t.def[s] == -2 }

// gotoState is the state goyacc's loop goes to after a reduction to the
// nonterminal lhs uncovered state s.
func (t *tables) gotoState(s, lhs int) int {
	g := t.pgo[lhs]
	if j := g + s + 1; j < t.last && t.chk[t.act[j]] == -lhs {
		return t.act[j]
	}
	return t.act[g]
}

// A row of a table packed by row displacement: its entries (column,
// value) and, once packed, its offset in the packed table.
type row struct {
	key     int
	cols    []int
	vals    []int
	dflt    int
	base    int
	noToken bool
}

// newRow keeps of vals those that differ from the most frequent one (the
// row's default; the smallest of equally frequent ones).
func newRow(key int, vals []int) row {
	count := map[int]int{}
	for _, v := range vals {
		count[v]++
	}
	r := row{key: key, dflt: vals[0]}
	for v, c := range count {
		if c > count[r.dflt] || c == count[r.dflt] && v < r.dflt {
			r.dflt = v
		}
	}
	for c, v := range vals {
		if v != r.dflt {
			r.cols, r.vals = append(r.cols, c), append(r.vals, v)
		}
	}
	return r
}

// pack places the rows in one table, the fullest first, each at the
// first offset where its entries fall on free places; an entry holds its
// row's key (the check) in the high 16 bits and its value in the low.
// The table is long enough for any column up to width.
func pack(rows []row, width int) []uint32 {
	order := make([]*row, len(rows))
	for i := range rows {
		order[i] = &rows[i]
	}
	slices.SortStableFunc(order, func(a, b *row) int { return len(b.cols) - len(a.cols) })
	var tab []uint32
	used := []bool{}
	for _, r := range order {
		b := 0
		for ; !fits(used, r.cols, b); b++ {
		}
		for i, c := range r.cols {
			for len(tab) <= b+c {
				tab, used = append(tab, 0xffff0000), append(used, false)
			}
			tab[b+c], used[b+c] = uint32(r.key)<<16|uint32(uint16(r.vals[i])), true
		}
		r.base = b
	}
	maxBase := 0
	for _, r := range rows {
		maxBase = max(maxBase, r.base)
	}
	for len(tab) < maxBase+width {
		tab = append(tab, 0xffff0000)
	}
	return tab
}

func fits(used []bool, cols []int, b int) bool {
	for _, c := range cols {
		if b+c < len(used) && used[b+c] {
			return false
		}
	}
	return true
}

// lean holds the lean driver's tables.
type lean struct {
	states    []row // per state: its actions by token
	nt        []row // per nonterminal: its gotos by uncovered state
	actions   []uint32
	gotos     []uint32
	lens, lhs []int // per production
}

// derive makes the lean driver's tables from goyacc's.
func derive(t *tables) (*lean, error) {
	ns, nprod := len(t.pact), len(t.r1)
	accept := -nprod
	if ns+nprod >= 0x7fff || len(t.pgo) >= 0xffff {
		return nil, fmt.Errorf("%d states, %d productions: too many for 16-bit entries", ns, nprod)
	}
	l := &lean{lens: t.r2, lhs: t.r1}
	for s := 0; s < ns; s++ {
		if t.action(s, t.errCode, accept) > 0 {
			return nil, fmt.Errorf("state %d shifts the error token: the lean driver has no error recovery", s)
		}
		if !t.needsToken(s) {
			l.states = append(l.states, row{key: s, dflt: t.action(s, 0, accept), noToken: true})
			continue
		}
		vals := make([]int, t.ntok+1)
		for tok := range vals {
			vals[tok] = t.action(s, tok, accept)
		}
		l.states = append(l.states, newRow(s, vals))
	}
	fuseShiftReduce(l.states, t.r2)
	l.actions = pack(l.states, t.ntok+1)
	for lhs := range t.pgo {
		vals := make([]int, ns)
		for s := range vals {
			vals[s] = t.gotoState(s, lhs)
		}
		l.nt = append(l.nt, newRow(lhs, vals))
	}
	fuseGotoReduce(l.nt, l.states, t.r2)
	l.gotos = pack(l.nt, ns)
	if len(l.actions) > 0xffff || len(l.gotos) > 0xffff {
		return nil, errors.New("packed tables too long for 16-bit offsets")
	}
	return l, nil
}

// fuseShiftReduce turns a shift to a state that reduces without a token
// into one action: the number of states plus the production.
func fuseShiftReduce(states []row, lens []int) {
	for i := range states {
		r := &states[i]
		for j, v := range r.vals {
			r.vals[j] = fused(states, lens, v)
		}
		if !r.noToken {
			r.dflt = fused(states, lens, r.dflt)
		}
	}
}

// fuseGotoReduce does the same for the gotos of the nonterminals' rows:
// a goto to a state that reduces without a token (a chain of reductions,
// such as a list's first item) is that reduction at once.
func fuseGotoReduce(nt, states []row, lens []int) {
	for i := range nt {
		r := &nt[i]
		for j, v := range r.vals {
			r.vals[j] = fused(states, lens, v)
		}
		r.dflt = fused(states, lens, r.dflt)
	}
}

// fused is the action for going to state a: a itself, or if a reduces
// without a token, the number of states plus the production. Only where
// the production pops what went to a (it is not empty): the state is then
// never looked at.
func fused(states []row, lens []int, a int) int {
	ns := len(states)
	if a > 0 && a < ns && states[a].noToken && states[a].dflt < 0 && -states[a].dflt < len(lens) && lens[-states[a].dflt] > 0 {
		return ns - states[a].dflt
	}
	return a
}

// source writes the tables as Go.
func (l *lean) source() []byte {
	var b bytes.Buffer
	b.WriteString(leanTablesDoc)
	b.WriteString("var yyLRStates = [...]uint32{\n")
	for i, r := range l.states {
		base := r.base
		if r.noToken {
			base = 0xffff
		}
		sep(&b, i, 8)
		fmt.Fprintf(&b, "%#x,", uint32(base)<<16|uint32(uint16(r.dflt)))
	}
	b.WriteString("\n}\n\nvar yyLRActions = [...]uint32{\n")
	for i, e := range l.actions {
		sep(&b, i, 8)
		fmt.Fprintf(&b, "%#x,", e)
	}
	b.WriteString("\n}\n\nvar yyLRProds = [...]struct{ n, lhs, base, def int16 }{\n")
	for p := range l.lens {
		nt := l.nt[l.lhs[p]]
		sep(&b, p, 4)
		fmt.Fprintf(&b, "{%d, %d, %d, %d},", l.lens[p], l.lhs[p], nt.base, nt.dflt)
	}
	b.WriteString("\n}\n\nvar yyLRGotos = [...]uint32{\n")
	for i, e := range l.gotos {
		sep(&b, i, 8)
		fmt.Fprintf(&b, "%#x,", e)
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}

func sep(b *bytes.Buffer, i, n int) {
	switch {
	case i%n == 0:
		b.WriteString("\n\t")
	default:
		b.WriteString(" ")
	}
}

const leanTablesDoc = `
// The lean driver's tables (yypatch, lr.go), derived from goyacc's above:
//
//   - yyLRStates: per state, in the low 16 bits the action taken without
//     a lookahead (if the high 16 bits are yyLRNoToken), or else when the
//     lookahead has no entry in the state's row of yyLRActions, which
//     starts where the high 16 bits say.
//   - yyLRActions: rows packed by displacement; an entry is the state it
//     belongs to (high 16 bits) and the action (low 16): > 0 shift to
//     that state, or if it is len(yyLRStates) or more, shift and reduce by
//     that minus len(yyLRStates) (the state shifted to would reduce
//     without reading a token), < 0 reduce by minus that production, 0 a
//     syntax error, -len(yyLRProds) accept.
//   - yyLRProds: per production, how many symbols it pops, its
//     nonterminal, that nonterminal's row in yyLRGotos and the state it
//     goes to (or the reduction, as in yyLRGotos) when the uncovered
//     state has no entry there.
//   - yyLRGotos: rows per nonterminal, entries keyed by the nonterminal;
//     a state, or if it is len(yyLRStates) or more, a reduction by that
//     minus len(yyLRStates) at once (the state gone to would reduce
//     without reading a token).

const yyLRNoToken = 0xffff
`
