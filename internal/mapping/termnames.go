package mapping

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"megaco/internal/mapping/termid"
)

// TermIDNames is a provisioned table of textual termination IDs: single
// names ("A4444") and ranges that name a whole gateway's lines with one
// pattern ("AL{1-2048}" for "00000001/{n}"). Lookups go through maps and
// sorted lists: a name or ID costs a map probe per digit run of the name
// (or per level a range fills) and a binary search, whatever the number of
// entries.
type TermIDNames struct {
	layout termid.Layout
	toBin  map[string]string // single names: lower-case name -> layout text
	toName map[string]string // single names: layout text -> name as provisioned
	single []singleName      // the same, in the order given, for the overlap checks

	ranges []*termRange
	byName map[nameKey][]*termRange // sorted by lo
	byID   map[idKey][]*termRange   // sorted by first level value
	levels []int                    // the levels ranges fill, ascending
	shifts []uint                   // per level: the bits below it
	masks  []uint64                 // per level: its bits
}

type singleName struct {
	name string
	id   uint64
	line int
}

// termRange is one pattern entry: the names prefix+N+suffix for N in
// lo..hi (N written with width digits, zero-padded, when width > 0) map to
// base with level filled by N+offset.
type termRange struct {
	prefix, suffix string // as written
	lo, hi         uint64
	width          int
	level          int
	offset         int64
	base           uint64 // the id bits, with the filled level's bits zero
	line           int
	pattern        string // the name field as written, for errors
}

// nameKey finds the ranges a name may belong to: its text around one run
// of digits, in lower case, and the run's padded width (0: not padded).
type nameKey struct {
	prefix, suffix string
	width          int
}

// idKey finds the ranges an ID may belong to: the level a range fills and
// the ID's other bits.
type idKey struct {
	level int
	base  uint64
}

// maxRangeDigits bounds the numbers of a range, so that N+offset cannot
// overflow.
const maxRangeDigits = 18

// NewTermIDNames checks each name's binary ID against layout (nil: the
// default) and returns the table. A name must not itself be valid layout
// text, and two names may not share an ID. A name may be a range pattern,
// as in a names file (ReadNames).
func NewTermIDNames(names map[string]string, layout termid.Layout) (*TermIDNames, error) {
	t := newTermIDNames(layout)
	for name, bin := range names {
		if err := t.add(name, bin, 0, 0, 0); err != nil {
			return nil, err
		}
	}
	if err := t.finish(); err != nil {
		return nil, err
	}
	return t, nil
}

func newTermIDNames(layout termid.Layout) *TermIDNames {
	if layout == nil {
		layout = defaultLayout
	}
	t := &TermIDNames{layout: layout, toBin: map[string]string{}, toName: map[string]string{},
		byName: map[nameKey][]*termRange{}, byID: map[idKey][]*termRange{}}
	if layout.Validate() != nil {
		return t // every entry fails to encode
	}
	below := uint(0)
	t.shifts, t.masks = make([]uint, len(layout)), make([]uint64, len(layout))
	for i := len(layout) - 1; i >= 0; i-- {
		w := uint(layout[i])
		t.shifts[i], t.masks[i] = below, (math.MaxUint64>>(64-w))<<below
		below += w
	}
	return t
}

// posError is a names-file error at a column of its line (0: none known).
func posError(line, col int, format string, args ...any) error {
	switch {
	case line > 0 && col > 0:
		format = "line " + strconv.Itoa(line) + ":" + strconv.Itoa(col) + ": " + format
	case line > 0:
		format = "line " + strconv.Itoa(line) + ": " + format
	}
	return fmt.Errorf(format, args...)
}

// onLine says where another entry is, for errors naming both lines.
func onLine(line int) string {
	if line == 0 {
		return ""
	}
	return " on line " + strconv.Itoa(line)
}

// add checks one entry, a single name or a range pattern, and adds it.
// nameCol and idCol are the 1-based columns of the two fields on line
// (0: not from a file); errors carry them.
func (t *TermIDNames) add(name, bin string, line, nameCol, idCol int) error {
	if strings.ContainsAny(name, "{}") || strings.ContainsAny(bin, "{}") {
		return t.addRange(name, bin, line, nameCol, idCol)
	}
	layout := t.layout
	if _, _, err := layout.Encode(name); err == nil || termid.IsRoot(name) {
		return posError(line, 0, "termination ID name %q is itself an ID of layout [%s]", name, layout)
	}
	wild, id, err := layout.Encode(bin)
	if err != nil {
		return posError(line, 0, "termination ID name %q: %q: %w", name, bin, err)
	}
	if len(wild) != 0 {
		return posError(line, 0, "termination ID name %q: %q is a wildcard", name, bin)
	}
	canon, err := layout.Decode(wild, id)
	if err != nil {
		return posError(line, 0, "%w", err)
	}
	if other, dup := t.toName[canon]; dup {
		return posError(line, 0, "termination ID names %q and %q both map to %s%s", other, name, canon, onLine(t.lineOf(other)))
	}
	key := strings.ToLower(name)
	if _, dup := t.toBin[key]; dup {
		return posError(line, 0, "termination ID name %q is given twice (names ignore case)%s", name, onLine(t.lineOf(key)))
	}
	t.toBin[key] = canon
	t.toName[canon] = name
	t.single = append(t.single, singleName{name: name, id: idValue(id), line: line})
	return nil
}

// lineOf is the line of a single name (any case), 0 if unknown.
func (t *TermIDNames) lineOf(name string) int {
	for _, s := range t.single {
		if strings.EqualFold(s.name, name) {
			return s.line
		}
	}
	return 0
}

func idValue(id []byte) uint64 {
	var v uint64
	for _, b := range id {
		v = v<<8 | uint64(b)
	}
	return v
}

// levelBits is the shift and the mask of a level's bits in the id.
func (t *TermIDNames) levelBits(level int) (uint, uint64) {
	return t.shifts[level], t.masks[level]
}

// addRange parses a pattern entry, NAME{lo-hi}SUFFIX with an ID whose one
// level is {n}, {n+K} or {n-K}, and adds it.
func (t *TermIDNames) addRange(name, bin string, line, nameCol, idCol int) error {
	col := func(base, i int) int {
		if base == 0 {
			return 0
		}
		return base + i
	}
	r := &termRange{line: line, pattern: name}
	// The name: prefix { lo - hi } suffix.
	open := strings.IndexByte(name, '{')
	if open < 0 {
		return posError(line, col(idCol, strings.IndexByte(bin, '{')), "the ID has {n} but the name %q has no {first-last} range", name)
	}
	end := strings.IndexByte(name[open:], '}')
	if end < 0 {
		return posError(line, col(nameCol, open), "name pattern %q: { without }", name)
	}
	end += open
	if i := strings.IndexAny(name[end+1:], "{}"); i >= 0 {
		return posError(line, col(nameCol, end+1+i), "name pattern %q: only one {first-last} range is allowed", name)
	}
	if i := strings.IndexByte(name[:open], '}'); i >= 0 {
		return posError(line, col(nameCol, i), "name pattern %q: } without {", name)
	}
	r.prefix, r.suffix = name[:open], name[end+1:]
	if r.prefix != "" && isDigit(r.prefix[len(r.prefix)-1]) {
		return posError(line, col(nameCol, open), "name pattern %q: a digit before { would make names ambiguous", name)
	}
	if r.suffix != "" && isDigit(r.suffix[0]) {
		return posError(line, col(nameCol, end+1), "name pattern %q: a digit after } would make names ambiguous", name)
	}
	if !strings.ContainsFunc(r.prefix+r.suffix, func(c rune) bool { return !strings.ContainsRune("0123456789/*$", c) }) {
		return posError(line, col(nameCol, 0), "name pattern %q: the text around the range needs a character other than digits, /, * and $, so that no name is layout text", name)
	}
	inner := name[open+1 : end]
	loText, hiText, ok := strings.Cut(inner, "-")
	if !ok {
		return posError(line, col(nameCol, open+1), "name pattern %q: want {first-last}, e.g. {1-2048}", name)
	}
	var err error
	if r.lo, err = rangeNumber(loText); err != nil {
		return posError(line, col(nameCol, open+1), "name pattern %q: first number %q %v", name, loText, err)
	}
	hiCol := open + 2 + len(loText)
	if r.hi, err = rangeNumber(hiText); err != nil {
		return posError(line, col(nameCol, hiCol), "name pattern %q: last number %q %v", name, hiText, err)
	}
	if r.lo > r.hi {
		return posError(line, col(nameCol, hiCol), "name pattern %q: last number %d is less than first %d", name, r.hi, r.lo)
	}
	if len(loText) > 1 && loText[0] == '0' {
		if len(hiText) != len(loText) {
			return posError(line, col(nameCol, hiCol), "name pattern %q: a zero-padded range needs both numbers of the same width (%d digits)", name, len(loText))
		}
		r.width = len(loText)
	}
	// The ID: layout text with one level {n}, {n+K} or {n-K}.
	parts := strings.Split(bin, "/")
	if len(parts) != len(t.layout) {
		return posError(line, col(idCol, 0), "ID pattern %q has %d levels, layout [%s] has %d", bin, len(parts), t.layout, len(t.layout))
	}
	r.level = -1
	fixed := make([]string, len(parts))
	pos := 0
	for i, p := range parts {
		fixed[i] = p
		if strings.ContainsAny(p, "{}") {
			if r.level >= 0 {
				return posError(line, col(idCol, pos), "ID pattern %q: only one level may be {n}", bin)
			}
			off, err := levelOffset(p)
			if err != nil {
				return posError(line, col(idCol, pos), "ID pattern %q: level %d %v", bin, i+1, err)
			}
			r.level, r.offset = i, off
			fixed[i] = strings.Repeat("0", t.layout[i])
		}
		pos += len(p) + 1
	}
	if r.level < 0 {
		return posError(line, col(idCol, 0), "name %q is a range but ID %q has no {n} level", name, bin)
	}
	wild, id, err := t.layout.Encode(strings.Join(fixed, "/"))
	if err != nil {
		return posError(line, col(idCol, 0), "ID pattern %q: %v", bin, err)
	}
	if len(wild) != 0 {
		return posError(line, col(idCol, 0), "ID pattern %q is a wildcard", bin)
	}
	r.base = idValue(id)
	shift, mask := t.levelBits(r.level)
	levelMax := mask >> shift
	first, last := int64(r.lo)+r.offset, int64(r.hi)+r.offset
	if first < 0 || uint64(last) > levelMax {
		return posError(line, col(idCol, strings.IndexByte(bin, '{')), "ID pattern %q: {n} gives %d to %d for %s, level %d holds 0 to %d", bin, first, last, name, r.level+1, levelMax)
	}
	if t.layout.IDLen() == 8 && r.base|mask == math.MaxUint64 && uint64(last) == levelMax {
		return posError(line, col(idCol, 0), "ID pattern %q: its last ID has all 64 bits set, the binary form of ROOT", bin)
	}
	t.ranges = append(t.ranges, r)
	return nil
}

// shift is the number of bits below level.
func (t *TermIDNames) shift(level int) uint { return t.shifts[level] }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// rangeNumber reads a range's decimal number.
func rangeNumber(s string) (uint64, error) {
	if s == "" || len(s) > maxRangeDigits || strings.ContainsFunc(s, func(c rune) bool { return c < '0' || c > '9' }) {
		return 0, fmt.Errorf("is not a decimal number of 1 to %d digits", maxRangeDigits)
	}
	return strconv.ParseUint(s, 10, 64)
}

// levelOffset reads "{n}", "{n+K}" or "{n-K}" (K decimal) and returns K.
func levelOffset(p string) (int64, error) {
	inner, ok := strings.CutPrefix(p, "{n")
	if ok {
		inner, ok = strings.CutSuffix(inner, "}")
	}
	if !ok {
		return 0, fmt.Errorf("is %q; want {n}, {n+K} or {n-K} for the whole level", p)
	}
	if inner == "" {
		return 0, nil
	}
	sign := inner[0]
	if sign != '+' && sign != '-' {
		return 0, fmt.Errorf("is %q; want {n}, {n+K} or {n-K} for the whole level", p)
	}
	k, err := rangeNumber(inner[1:])
	if err != nil {
		return 0, fmt.Errorf("offset %q %v", inner[1:], err)
	}
	if sign == '-' {
		return -int64(k), nil
	}
	return int64(k), nil
}

// finish indexes the ranges and checks that no two entries share a name
// or an ID, naming both lines when one does.
func (t *TermIDNames) finish() error {
	for _, r := range t.ranges {
		k := nameKey{strings.ToLower(r.prefix), strings.ToLower(r.suffix), r.width}
		t.byName[k] = append(t.byName[k], r)
		ik := idKey{r.level, r.base}
		t.byID[ik] = append(t.byID[ik], r)
		if !slices.Contains(t.levels, r.level) {
			t.levels = append(t.levels, r.level)
		}
	}
	slices.Sort(t.levels)
	for k, rs := range t.byName {
		slices.SortFunc(rs, func(a, b *termRange) int { return cmpUint(a.lo, b.lo) })
		for i := 1; i < len(rs); i++ {
			if rs[i].lo <= rs[i-1].hi {
				return t.nameClash(rs[i-1], rs[i], rs[i].lo)
			}
		}
		if k.width > 0 {
			// Unpadded names of k.width digits are padded names too.
			lo, hi := pow10(k.width-1), pow10(k.width)-1
			plain := t.byName[nameKey{k.prefix, k.suffix, 0}]
			for _, r := range rs {
				if a, b := max(r.lo, lo), min(r.hi, hi); a <= b {
					if o := overlapping(plain, a, b, func(r *termRange) (uint64, uint64) { return r.lo, r.hi }); o != nil {
						return t.nameClash(o, r, max(a, o.lo))
					}
				}
			}
		}
	}
	for _, rs := range t.byID {
		slices.SortFunc(rs, func(a, b *termRange) int { return cmpUint(a.first(), b.first()) })
		for i := 1; i < len(rs); i++ {
			if rs[i].first() <= rs[i-1].last() {
				return t.idClash(rs[i-1], rs[i], rs[i].base|rs[i].first()<<t.shift(rs[i].level))
			}
		}
	}
	if err := t.crossLevels(); err != nil {
		return err
	}
	for _, s := range t.single {
		if r, n, ok := t.rangeOfName(strings.ToLower(s.name)); ok {
			return posError(max(r.line, s.line), 0, "termination ID name %q%s is also named by %s%s (number %d)", s.name, onLine(s.line), r.pattern, onLine(r.line), n)
		}
		if r, n, ok := t.rangeOfID(s.id); ok {
			return posError(max(r.line, s.line), 0, "termination ID name %q%s and %s%s (%s) both map to %s", s.name, onLine(s.line), r.pattern, onLine(r.line), r.name(nil, n), t.text(s.id))
		}
	}
	return nil
}

func (r *termRange) first() uint64 { return uint64(int64(r.lo) + r.offset) }
func (r *termRange) last() uint64  { return uint64(int64(r.hi) + r.offset) }

// name appends the name of number n.
func (r *termRange) name(dst []byte, n uint64) []byte {
	dst = append(dst, r.prefix...)
	for d := digits(n); d < r.width; d++ {
		dst = append(dst, '0')
	}
	dst = strconv.AppendUint(dst, n, 10)
	return append(dst, r.suffix...)
}

// digits is the number of decimal digits of n.
func digits(n uint64) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func pow10(n int) uint64 {
	p := uint64(1)
	for range n {
		p *= 10
	}
	return p
}

// overlapping finds, in rs sorted by span and not overlapping each other,
// one whose span meets a..b.
func overlapping(rs []*termRange, a, b uint64, span func(*termRange) (uint64, uint64)) *termRange {
	i, _ := slices.BinarySearchFunc(rs, a, func(r *termRange, a uint64) int {
		_, hi := span(r)
		return cmpUint(hi, a)
	})
	if i < len(rs) {
		if lo, _ := span(rs[i]); lo <= b {
			return rs[i]
		}
	}
	return nil
}

func (t *TermIDNames) nameClash(a, b *termRange, n uint64) error {
	if a.line > b.line {
		a, b = b, a
	}
	return posError(max(a.line, b.line), 0, "termination ID name patterns %s%s and %s%s both name %s", a.pattern, onLine(a.line), b.pattern, onLine(b.line), b.name(nil, n))
}

func (t *TermIDNames) idClash(a, b *termRange, id uint64) error {
	if a.line > b.line {
		a, b = b, a
	}
	return posError(max(a.line, b.line), 0, "termination ID name patterns %s%s and %s%s both map to %s", a.pattern, onLine(a.line), b.pattern, onLine(b.line), t.text(id))
}

// text is the layout text of an id.
func (t *TermIDNames) text(id uint64) string {
	var b [8]byte
	n := t.layout.IDLen()
	for i := range n {
		b[i] = byte(id >> (8 * (n - 1 - i)))
	}
	s, err := t.layout.Decode(nil, b[:n])
	if err != nil {
		return fmt.Sprintf("%X", b[:n])
	}
	return s
}

// crossLevels checks ranges that fill different levels against each
// other. Two such ranges, A filling level a and B filling level b, meet
// in at most one ID: the one with B's level a and A's level b, if A's
// span on level a holds B's value there and B's span on level b holds A's.
// Per pair of levels and per value of the other levels, a sweep along
// level a finds that in n log n: A's spans open and close, and each B asks
// whether an open A has its level-b value in B's span.
func (t *TermIDNames) crossLevels() error {
	for _, la := range t.levels {
		for _, lb := range t.levels {
			if la == lb {
				continue
			}
			sa, ma := t.levelBits(la)
			sb, mb := t.levelBits(lb)
			groups := map[uint64][2][]*termRange{}
			for _, r := range t.ranges {
				switch r.level {
				case la:
					g := groups[r.base&^mb]
					g[0] = append(g[0], r)
					groups[r.base&^mb] = g
				case lb:
					g := groups[r.base&^ma]
					g[1] = append(g[1], r)
					groups[r.base&^ma] = g
				}
			}
			for _, g := range groups {
				if len(g[0]) == 0 || len(g[1]) == 0 {
					continue
				}
				if a, b := sweep(g[0], g[1], func(r *termRange) uint64 { return (r.base & ma) >> sa }, func(r *termRange) uint64 { return (r.base & mb) >> sb }); a != nil {
					return t.idClash(a, b, a.base|b.base&ma)
				}
			}
		}
	}
	return nil
}

// sweep finds an A and a B that meet (see crossLevels): atA is a B's
// value on A's level, atB an A's value on B's level.
func sweep(as, bs []*termRange, atA, atB func(*termRange) uint64) (*termRange, *termRange) {
	type event struct {
		x    uint64
		kind int // 0 an A opens, 1 a B asks, 2 an A closes
		r    *termRange
	}
	var ev []event
	vals := make([]uint64, 0, len(as))
	for _, a := range as {
		ev = append(ev, event{a.first(), 0, a}, event{a.last(), 2, a})
		vals = append(vals, atB(a))
	}
	for _, b := range bs {
		ev = append(ev, event{atA(b), 1, b})
	}
	slices.SortFunc(ev, func(p, q event) int {
		if c := cmpUint(p.x, q.x); c != 0 {
			return c
		}
		return p.kind - q.kind
	})
	slices.Sort(vals)
	vals = slices.Compact(vals)
	tree := make([]int, len(vals)+1) // a Fenwick tree of open A's per value
	addAt := func(v uint64, d int) {
		i, _ := slices.BinarySearch(vals, v)
		for i++; i < len(tree); i += i & -i {
			tree[i] += d
		}
	}
	below := func(i int) int { // open A's with a value among vals[:i]
		s := 0
		for ; i > 0; i -= i & -i {
			s += tree[i]
		}
		return s
	}
	for _, e := range ev {
		switch e.kind {
		case 0:
			addAt(atB(e.r), 1)
		case 2:
			addAt(atB(e.r), -1)
		case 1:
			i, _ := slices.BinarySearch(vals, e.r.first())
			j, _ := slices.BinarySearch(vals, e.r.last()+1)
			if e.r.last() == math.MaxUint64 {
				j = len(vals)
			}
			if below(j)-below(i) == 0 {
				continue
			}
			for _, a := range as { // found: which one, once
				if v := atB(a); a.first() <= e.x && e.x <= a.last() && e.r.first() <= v && v <= e.r.last() {
					return a, e.r
				}
			}
		}
	}
	return nil, nil
}

// Len is the number of names, ranges counted name by name (at most
// math.MaxInt).
func (t *TermIDNames) Len() int {
	if t == nil {
		return 0
	}
	n := uint64(len(t.toBin))
	for _, r := range t.ranges {
		size := r.hi - r.lo + 1
		if n += size; n > math.MaxInt || n < size {
			return math.MaxInt
		}
	}
	return int(n)
}

// appendBinary appends the layout text of a provisioned name (any case).
func (t *TermIDNames) appendBinary(dst []byte, name string) ([]byte, bool) {
	if t == nil {
		return dst, false
	}
	key := strings.ToLower(name)
	if b, ok := t.toBin[key]; ok {
		return append(dst, b...), true
	}
	r, n, ok := t.rangeOfName(key)
	if !ok {
		return dst, false
	}
	id := r.base | uint64(int64(n)+r.offset)<<t.shift(r.level)
	return t.appendText(dst, id), true
}

func (t *TermIDNames) appendText(dst []byte, id uint64) []byte {
	var b [8]byte
	n := t.layout.IDLen()
	for i := range n {
		b[i] = byte(id >> (8 * (n - 1 - i)))
	}
	out, err := t.layout.AppendText(dst, nil, b[:n])
	if err != nil {
		return dst // not reached: the layout was checked when the names were read
	}
	return out
}

// appendName replaces layoutText (a termination ID in layout text) with
// its provisioned name, if it has one, reusing its memory.
func (t *TermIDNames) appendName(layoutText []byte) ([]byte, bool) {
	if t == nil {
		return layoutText, false
	}
	if n, ok := t.toName[string(layoutText)]; ok {
		return append(layoutText[:0], n...), true
	}
	if len(t.ranges) == 0 {
		return layoutText, false
	}
	var wb, ib [8]byte
	wild, id, err := t.layout.AppendBinary(wb[:0], ib[:0], view(layoutText))
	if err != nil || len(wild) != 0 || len(id) != t.layout.IDLen() {
		return layoutText, false
	}
	r, n, ok := t.rangeOfID(idValue(id))
	if !ok {
		return layoutText, false
	}
	return r.name(layoutText[:0], n), true
}

// rangeOfName finds the range holding a lower-case name and its number.
// Each maximal run of digits in the name is a candidate for the number.
func (t *TermIDNames) rangeOfName(name string) (*termRange, uint64, bool) {
	for i := 0; i < len(name); {
		if !isDigit(name[i]) {
			i++
			continue
		}
		j := i
		for j < len(name) && isDigit(name[j]) {
			j++
		}
		digits := name[i:j]
		if n, err := strconv.ParseUint(digits, 10, 64); err == nil && len(digits) <= maxRangeDigits {
			pre, suf := name[:i], name[j:]
			if len(digits) == 1 || digits[0] != '0' {
				if r, ok := find(t.byName[nameKey{pre, suf, 0}], n); ok {
					return r, n, true
				}
			}
			if len(digits) > 1 {
				if r, ok := find(t.byName[nameKey{pre, suf, len(digits)}], n); ok {
					return r, n, true
				}
			}
		}
		i = j
	}
	return nil, 0, false
}

// find is the range of rs (sorted by lo, not overlapping) holding n.
func find(rs []*termRange, n uint64) (*termRange, bool) {
	i, _ := slices.BinarySearchFunc(rs, n, func(r *termRange, n uint64) int { return cmpUint(r.hi, n) })
	if i < len(rs) && rs[i].lo <= n {
		return rs[i], true
	}
	return nil, false
}

// rangeOfID finds the range an id belongs to and the number it names.
func (t *TermIDNames) rangeOfID(id uint64) (*termRange, uint64, bool) {
	for _, l := range t.levels {
		s, m := t.levelBits(l)
		rs := t.byID[idKey{l, id &^ m}]
		v := (id & m) >> s
		i, _ := slices.BinarySearchFunc(rs, v, func(r *termRange, v uint64) int { return cmpUint(r.last(), v) })
		if i < len(rs) && rs[i].first() <= v {
			return rs[i], uint64(int64(v) - rs[i].offset), true
		}
	}
	return nil, 0, false
}
