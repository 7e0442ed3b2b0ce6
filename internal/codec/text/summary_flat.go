package text

import (
	"encoding/binary"
	"math/bits"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// The flat scanner: Scan's fast path. One function walks the message body
// byte by byte, reading the few structural keywords by a table lookup on
// their first eight bytes and skipping every body it does not want by
// balancing braces (flatSkip), with no call per token but for the
// keywords and the bodies it skips. It reads the common forms only and
// gives up (returns false) on anything else - a segment, a termination ID
// list, a comment where a token stands, an error, a limit reached -
// leaving the message to the skimmer, which reads every form and makes
// the errors. So what it accepts, the skimmer accepts alike.

// The classes of flatClass.
const (
	flBlank   uint8 = 1 << iota // white space or a line end (not ';')
	flWord                      // chWord
	flToken                     // chToken, but for the wildcards "*" and "$"
	flWild                      // "*" or "$"
	flStop                      // what flatSkip stops at in a body: { } " ; =
	flItem                      // what it also stops at in an item: , [ ]
	flRawHint                   // a last letter of Local, L, Remote or R
)

// flatClass holds skimClass's sets under the flat scanner's bits, but
// for two: its blanks leave out ';' (a comment where a token stands sends
// the message to the skimmer) and its tokens leave out the wildcards.
var flatClass = func() (t [256]uint8) {
	bits := [...]struct{ sk, fl uint8 }{
		{skBlank, flBlank}, {skWord, flWord}, {skToken, flToken}, {skWild, flWild},
		{skBody, flStop}, {skItemEnd, flItem}, {skRawHint, flRawHint},
	}
	for c, sk := range skimClass {
		for _, b := range bits {
			if sk&b.sk != 0 {
				t[c] |= b.fl
			}
		}
	}
	t[';'] &^= flBlank
	t['*'] &^= flToken
	t['$'] &^= flToken
	return t
}()

// flatKeyword is an entry of flatKeywords: a keyword's length, its first
// eight bytes folded to lower case (flatFold; fewer if it is shorter),
// its last eight and, if longer than sixteen, bytes 8-15.
type flatKeyword struct {
	first, last, mid uint64
	n                int32
	tok              int32
}

// flatMul is the multiplier of flatSlot's hash, chosen so that the
// keywords flatKeywords holds fall in distinct slots (its init checks).
const flatMul = 0x9e3779b97f4a7c1f

func flatSlot(x uint64, n int) uint8 { return uint8((x + uint64(n)) * flatMul >> 56) }

// flatKeywords holds, by flatSlot, the spellings (long and short) of the
// keywords the scanners read, taken from the decoder's keyword table: the
// tokens skimKeyword reads.
var flatKeywords = func() (t [256]flatKeyword) {
	for _, k := range lexKeywordSpellings {
		if skimKeyword([]byte(k.long)) == 0 {
			continue
		}
		for _, w := range []string{k.long, k.short} {
			if w == "" {
				continue
			}
			b := []byte(w)
			n := len(b)
			e := flatKeyword{first: flatFold(b, 0, n), n: int32(n), tok: int32(k.tok)}
			if n > 8 {
				e.last = flatFold(b, n-8, 8)
			}
			if n > 16 {
				e.mid = flatFold(b, 8, 8)
			}
			h := flatSlot(e.first, n)
			if t[h].n != 0 {
				panic("text: flatMul puts " + w + " in a taken slot")
			}
			t[h] = e
		}
	}
	return t
}()

// flatFold returns the first min(n, 8) bytes of src[i:] as a little-endian
// word, each ORed with 0x20: an upper-case letter turns into its lower
// case, and no other byte into a letter.
func flatFold(src []byte, i, n int) uint64 {
	n = min(n, 8)
	var x uint64
	if i+8 <= len(src) {
		x = binary.LittleEndian.Uint64(src[i:])
	} else {
		for j := n - 1; j >= 0; j-- {
			x = x<<8 | uint64(src[i+j])
		}
	}
	x |= 0x2020202020202020
	if n < 8 {
		x &= 1<<(8*uint(n)) - 1
	}
	return x
}

// flatLookup returns the keyword token of the word src[i:e] if it is one
// the scanners read, 0 if not.
func flatLookup(src []byte, i, e int) int {
	n := e - i
	if n <= 0 || n > lexLongest {
		return 0
	}
	x := flatFold(src, i, n)
	k := &flatKeywords[flatSlot(x, n)]
	if k.first != x || int(k.n) != n {
		return 0
	}
	if n > 8 && (flatFold(src, e-8, 8) != k.last || n > 16 && flatFold(src, i+8, 8) != k.mid) {
		return 0
	}
	return int(k.tok)
}

// flatBlanks returns the offset of the first byte from i that is no white
// space or line end.
func flatBlanks(src []byte, i int) int {
	for i < len(src) && flatClass[src[i]]&flBlank != 0 {
		i++
	}
	return i
}

// flatWord returns the end of the word (chWord) at i.
func flatWord(src []byte, i int) int {
	for i < len(src) && flatClass[src[i]]&flWord != 0 {
		i++
	}
	return i
}

// flatByte returns the offset after c if c comes after blanks at i, or -1.
func flatByte(src []byte, i int, c byte) int {
	if i < len(src) && src[i] == c {
		return i + 1
	}
	i = flatBlanks(src, i)
	if i < len(src) && src[i] == c {
		return i + 1
	}
	return -1
}

// flatNumber reads a decimal number of at most max after blanks at i:
// its value, start and end, or an end of -1 if there is none or it is out
// of range (or has more than ten digits: the skimmer reads those).
func flatNumber(src []byte, i int, max uint64) (uint64, int, int) {
	i = flatBlanks(src, i)
	if i+8 <= len(src) {
		if v, n := eightDigits(binary.LittleEndian.Uint64(src[i:])); n > 0 && n < 8 {
			if v > max {
				return 0, i, -1
			}
			return v, i, i + n
		}
	}
	v, j := decimal(src, i)
	if j == i || j-i > 10 || v > max {
		return 0, i, -1
	}
	return v, i, j
}

// eightDigits returns how many of the eight bytes of x (the first in the
// low byte) are digits before the first that is none, and their value if
// that is fewer than eight. A byte b is a digit if neither b-'0' nor
// b-'0'+0x76 has its high bit set; a borrow or a carry from a byte that
// is no digit reaches only the bytes after it.
func eightDigits(x uint64) (uint64, int) {
	t := x - 0x3030303030303030
	n := bits.TrailingZeros64((t|(t+0x7676767676767676))&0x8080808080808080) >> 3
	if n == 0 || n == 8 {
		return 0, n
	}
	// The digits to the top bytes, zeros (leading, in the number) below
	// them; then pairs, fours and the eight summed, as in SWAR decimal
	// parsing.
	t <<= 64 - 8*uint(n)
	t = (t * (1 + 10<<8)) >> 8 & 0x00FF00FF00FF00FF
	t = (t * (1 + 100<<16)) >> 16 & 0x0000FFFF0000FFFF
	t = (t * (1 + 10000<<32)) >> 32
	return t, n
}

// flat is the fast path of Scan: after the header and the mId, the body
// (see the top of this file). It returns false where the skimmer must
// read the message instead; k.s then holds a part of it.
func (k *skimmer) flat() bool {
	src := k.src
	if !k.flatHeader() {
		start, end := k.word()
		if start == end || src[start] != '!' && !(end-start > 7 && src[start+6] == '/') {
			return false // an authentication header, or no header
		}
		if !k.header(start, end) || !k.mid() {
			return false
		}
	}
	f := flatScan{src: src, s: k.s, maxDepth: k.maxDepth, maxElems: k.maxElems,
		actions: k.actions, commands: k.commands, deep: k.deep}
	return f.body(k.pos)
}

// flatHeader reads the common start of a message, "!/v" or "MEGACO/v",
// blanks and an IPv4 address with or without a port, into k.s; false
// (and nothing read) if the message does not start so.
func (k *skimmer) flatHeader() bool {
	src := k.src
	i := 0
	switch {
	case len(src) > 2 && src[0] == '!' && src[1] == '/':
		i = 2
	case len(src) > 7 && src[6] == '/' && isMegaco(src):
		i = 7
	default:
		return false
	}
	// A version of one digit (the versions there are) and a blank.
	v := int(src[i] - '0')
	if i+1 >= len(src) || v > 9 || flatClass[src[i+1]]&flBlank == 0 || !limits.ValidVersion(v) {
		return false
	}
	a := flatBlanks(src, i+1)
	if a >= len(src) || src[a] != '[' {
		return false
	}
	// Digits and dots, eight a step, then a byte a step, up to "]".
	e, end := a+1, min(len(src), a+skimMaxAddress)
	for e+8 <= end {
		n := digitsOrDots(binary.LittleEndian.Uint64(src[e:]))
		e += n
		if n < 8 {
			break
		}
	}
	for e < end && addrClass[src[e]] == addrDigit {
		e++
	}
	if e >= end || src[e] != ']' {
		return false
	}
	m := &k.s.MID
	m.Kind, m.Value, m.Port = scan.IP4Address, src[a:e+1], -1
	e++
	if e+9 <= len(src) && src[e] == ':' {
		// A port of one to five digits, at once.
		p, n := eightDigits(binary.LittleEndian.Uint64(src[e+1:]))
		if n == 0 || n > 5 || p > 0xFFFF {
			return false
		}
		m.Port, e = int(p), e+1+n
	}
	m.Span = scan.Span{Off: a, Len: e - a}
	k.s.Version, k.pos = v, e
	return true
}

// flatScan is the state of the flat scanner.
type flatScan struct {
	src                     []byte
	s                       *scan.Summary
	depth, maxDepth         int
	elems, maxElems         int
	actions, commands, deep bool
}

// count counts one more element of the summary: false past the limit.
func (f *flatScan) count() bool {
	f.elems++
	return f.elems <= f.maxElems
}

// open reads a "{" after blanks at i: the offset after it, or -1.
func (f *flatScan) open(i int) int {
	i = flatByte(f.src, i, '{')
	f.depth++
	if f.depth > f.maxDepth {
		return -1
	}
	return i
}

// skipRest steps over the rest of a body from i and its "}".
func (f *flatScan) skipRest(i int) int {
	i = flatSkip(f.src, i, f.depth, f.maxDepth, flStop)
	if i < 0 {
		return -1
	}
	f.depth--
	return i + 1
}

// next reads what ends an item after blanks at i: a "," (more follows:
// true) or the "}" that closes the body; the offset after it, or -1.
func (f *flatScan) next(i int) (int, bool) {
	i = flatBlanks(f.src, i)
	if i < len(f.src) {
		switch f.src[i] {
		case ',':
			return i + 1, true
		case '}':
			f.depth--
			return i + 1, false
		}
	}
	return -1, false
}

// body reads the transactions from i to the end.
func (f *flatScan) body(i int) bool {
	src := f.src
	for n := 0; ; n++ {
		i = flatBlanks(src, i)
		if i >= len(src) {
			return n > 0
		}
		e := flatWord(src, i)
		tok := flatLookup(src, i, e)
		switch tok {
		case transToken:
			i = f.request(e)
		case replyToken:
			i = f.reply(e, scan.Reply)
		case pendingToken:
			i = f.pending(e)
		case responseAckToken:
			i = f.responseAck(e)
		case messageSegmentToken:
			i = f.reply(e, scan.SegmentReply)
		default:
			return false
		}
		if i < 0 {
			return false
		}
	}
}

// txID reads "= id" at i: the ID, its span and the offset after it. Its
// callers build their scan.Transaction themselves: returning the whole
// struct from here measured some 40 instructions more per transaction
// (callgrind, BenchmarkSummaryCompact: 1.2% of a request's scan).
func (f *flatScan) txID(i int) (uint32, scan.Span, int) {
	if i = flatByte(f.src, i, '='); i < 0 {
		return 0, scan.Span{}, -1
	}
	v, s, e := flatNumber(f.src, i, 0xFFFFFFFF)
	return uint32(v), scan.Span{Off: s, Len: e - s}, e
}

// addTx appends a transaction: its index, or -1 past the limit.
func (f *flatScan) addTx(t scan.Transaction) int {
	f.s.Transactions = append(f.s.Transactions, t)
	if !f.count() {
		return -1
	}
	return len(f.s.Transactions) - 1
}

// request reads "= id { action, ... }" at i.
func (f *flatScan) request(i int) int {
	id, sp, i := f.txID(i)
	if i < 0 {
		return -1
	}
	if i = f.open(i); i < 0 {
		return -1
	}
	tx := f.addTx(scan.Transaction{Kind: scan.Request, ID: id, LastID: id, IDSpan: sp})
	if tx < 0 {
		return -1
	}
	if !f.actions {
		return f.skipRest(i)
	}
	for more := true; more; {
		i = flatBlanks(f.src, i)
		e := flatWord(f.src, i)
		if flatLookup(f.src, i, e) != ctxToken {
			return -1
		}
		if i = f.action(e, tx, false); i < 0 {
			return -1
		}
		if i, more = f.next(i); i < 0 {
			return -1
		}
	}
	return i
}

// reply reads "= id [/ n [/ END]] { [ImmAckRequired,] (error / actions)
// }" at i; a SegmentReply (kind), the same head without the body and
// with the segment number required: "= id / n [/ END]".
func (f *flatScan) reply(i int, kind scan.TxKind) int {
	id, sp, i := f.txID(i)
	if i < 0 || kind == scan.SegmentReply && flatByte(f.src, i, '/') < 0 {
		return -1
	}
	t := scan.Transaction{Kind: kind, ID: id, LastID: id, IDSpan: sp}
	if i = f.segment(i, &t); i < 0 {
		return -1
	}
	if kind == scan.SegmentReply {
		if f.addTx(t) < 0 {
			return -1
		}
		return i
	}
	if i = f.open(i); i < 0 {
		return -1
	}
	src := f.src
	i = flatBlanks(src, i)
	e := flatWord(src, i)
	tok := flatLookup(src, i, e)
	if tok == immAckRequiredToken {
		t.ImmAckRequired = true
		if i = flatByte(src, e, ','); i < 0 {
			return -1
		}
		i = flatBlanks(src, i)
		e = flatWord(src, i)
		tok = flatLookup(src, i, e)
	}
	tx := f.addTx(t)
	if tx < 0 {
		return -1
	}
	if tok == errorToken {
		if i = f.errorDescriptor(e, tx, -1); i < 0 {
			return -1
		}
		if i = flatByte(src, i, '}'); i >= 0 {
			f.depth--
		}
		return i
	}
	if !f.actions {
		return f.skipRest(e)
	}
	for more := true; more; {
		if tok != ctxToken {
			return -1
		}
		if i = f.action(e, tx, true); i < 0 {
			return -1
		}
		if i, more = f.next(i); i < 0 {
			return -1
		}
		if more {
			i = flatBlanks(src, i)
			e = flatWord(src, i)
			tok = flatLookup(src, i, e)
		}
	}
	return i
}

// segment reads "/ n [/ END]" at i into t, if it comes: the offset
// after it, or -1.
func (f *flatScan) segment(i int, t *scan.Transaction) int {
	src := f.src
	j := flatByte(src, i, '/')
	if j < 0 {
		return i
	}
	n, _, e := flatNumber(src, j, 0xFFFF)
	if e < 0 {
		return -1
	}
	t.Segment = uint16(n)
	if j = flatByte(src, e, '/'); j < 0 {
		return e
	}
	j = flatBlanks(src, j)
	e = flatWord(src, j)
	if w := src[j:e]; !(len(w) == 1 && w[0] == '&' || lexEqualFold(w, "end")) {
		return -1
	}
	t.Complete = true
	return e
}

// pending reads "= id { }" at i.
func (f *flatScan) pending(i int) int {
	id, sp, i := f.txID(i)
	if i < 0 || f.addTx(scan.Transaction{Kind: scan.Pending, ID: id, LastID: id, IDSpan: sp}) < 0 {
		return -1
	}
	if i = f.open(i); i < 0 {
		return -1
	}
	if i = flatByte(f.src, i, '}'); i >= 0 {
		f.depth--
	}
	return i
}

// responseAck reads "{ id[-id], ... }" at i.
func (f *flatScan) responseAck(i int) int {
	if i = f.open(i); i < 0 {
		return -1
	}
	for more := true; more; {
		v, s, e := flatNumber(f.src, i, 0xFFFFFFFF)
		if e < 0 {
			return -1
		}
		id, sp := uint32(v), scan.Span{Off: s, Len: e - s}
		last := id
		if i = flatByte(f.src, e, '-'); i >= 0 {
			v, _, e = flatNumber(f.src, i, 0xFFFFFFFF)
			if e < 0 {
				return -1
			}
			last = uint32(v)
		}
		if f.addTx(scan.Transaction{Kind: scan.ResponseAck, ID: id, LastID: last, IDSpan: sp}) < 0 {
			return -1
		}
		if i, more = f.next(e); i < 0 {
			return -1
		}
	}
	return i
}

// contextID reads "= id" of a context at i: a number, "-" (0), "$" or
// "*"; the ID, its span and the offset after it.
func (f *flatScan) contextID(i int) (uint32, scan.Span, int) {
	src := f.src
	if i = flatByte(src, i, '='); i < 0 {
		return 0, scan.Span{}, -1
	}
	i = flatBlanks(src, i)
	if i < len(src) {
		var id uint32
		switch src[i] {
		case '-':
		case '$':
			id = 0xFFFFFFFE
		case '*':
			id = 0xFFFFFFFF
		default:
			v, s, e := flatNumber(src, i, 0xFFFFFFFF)
			return uint32(v), scan.Span{Off: s, Len: e - s}, e
		}
		if i+1 < len(src) && flatClass[src[i+1]]&flWord != 0 {
			return 0, scan.Span{}, -1
		}
		return id, scan.Span{Off: i, Len: 1}, i + 1
	}
	return 0, scan.Span{}, -1
}

// action reads "= id { item, ... }" of a Context at i: an action
// request's or (reply set) an action reply's, whose braces v3 makes
// optional.
func (f *flatScan) action(i, tx int, reply bool) int {
	id, sp, i := f.contextID(i)
	if i < 0 {
		return -1
	}
	s, src := f.s, f.src
	s.Actions = append(s.Actions, scan.Action{Tx: tx, ContextID: id, Span: sp})
	act := len(s.Actions) - 1
	if !f.count() {
		return -1
	}
	if reply {
		if j := flatBlanks(src, i); j >= len(src) || src[j] != '{' {
			return i
		}
	}
	if i = f.open(i); i < 0 {
		return -1
	}
	if !reply && !f.commands {
		return f.skipRest(i)
	}
	// An action reply's own error comes after its commands in the text
	// but before their errors in Summary.Errors, as in the model.
	firstErr := len(s.Errors)
	for more := true; more; {
		i = flatBlanks(src, i)
		e := flatWord(src, i)
		w := i
		opt, wild := false, false
		if e-w > 2 && src[w+1] == '-' && src[w]|0x20 == 'o' {
			opt, w = true, w+2
		}
		if e-w > 2 && src[w+1] == '-' && src[w]|0x20 == 'w' {
			wild, w = true, w+2
		}
		kind := scan.CommandKind(0)
		if w < e && src[w]-'0' > 9 {
			kind = commandKind(flatLookup(src, w, e))
		}
		switch {
		case kind != 0 && f.commands:
			if reply && (opt || wild) {
				return -1
			}
			if i = f.command(e, tx, act, kind, reply, opt, wild); i < 0 {
				return -1
			}
		default:
			if reply && flatLookup(src, i, e) == errorToken {
				if i = f.errorDescriptor(e, tx, -1); i < 0 {
					return -1
				}
				errs := s.Errors
				last := errs[len(errs)-1]
				copy(errs[firstErr+1:], errs[firstErr:len(errs)-1])
				errs[firstErr] = last
			} else if i = flatSkip(src, e, f.depth, f.maxDepth, flStop|flItem); i < 0 {
				return -1
			}
		}
		if i, more = f.next(i); i < 0 {
			return -1
		}
	}
	return i
}

// command reads "= terminationID [{ ... }]" of a command at i.
func (f *flatScan) command(i, tx, act int, kind scan.CommandKind, reply, opt, wild bool) int {
	s, src := f.s, f.src
	s.Commands = append(s.Commands, scan.Command{Action: act, Kind: kind, Reply: reply, Optional: opt, Wildcard: wild})
	cmd := len(s.Commands) - 1
	if !f.count() {
		return -1
	}
	if i = flatByte(src, i, '='); i < 0 {
		return -1
	}
	i = flatBlanks(src, i)
	if reply && (kind == scan.AuditValue || kind == scan.AuditCapability) && i < len(src) && src[i]|0x20 == 'c' {
		return -1 // perhaps a context audit
	}
	if i < len(src) && src[i] == '[' {
		for more := true; more; {
			if i = f.termination(flatBlanks(src, i+1), cmd); i < 0 {
				return -1
			}
			if i = flatBlanks(src, i); i >= len(src) {
				return -1
			}
			switch src[i] {
			case ']':
				more = false
			case ',':
			default:
				return -1
			}
		}
		i++
	} else if i = f.termination(i, cmd); i < 0 {
		return -1
	}
	return f.commandBody(i, tx, cmd, kind, reply)
}

// termination reads a termination ID at i: the offset after it, or -1.
func (f *flatScan) termination(i, cmd int) int {
	src := f.src
	// Eight bytes a step while none is a wildcard or the end.
	e := i
	for e+8 <= len(src) {
		w := src[e : e+8 : e+8]
		if flatClass[w[0]]&flatClass[w[1]]&flatClass[w[2]]&flatClass[w[3]]&
			flatClass[w[4]]&flatClass[w[5]]&flatClass[w[6]]&flatClass[w[7]]&flToken == 0 {
			break
		}
		e += 8
	}
	classes := uint8(0)
	for e < len(src) {
		c := flatClass[src[e]]
		if c&(flToken|flWild) == 0 {
			break
		}
		classes |= c
		e++
	}
	if e == i {
		return -1
	}
	if f.deep {
		f.s.Terminations = append(f.s.Terminations, scan.Termination{Command: cmd, ID: src[i:e:e], Wildcarded: classes&flWild != 0, Span: scan.Span{Off: i, Len: e - i}})
		if !f.count() {
			return -1
		}
	}
	return e
}

// commandBody reads a command's "{ ... }" at i, if it comes: its errors
// if wanted (a reply's or a Notify's), stepped over if not.
func (f *flatScan) commandBody(i, tx, cmd int, kind scan.CommandKind, reply bool) int {
	src := f.src
	i = flatBlanks(src, i)
	if i >= len(src) || src[i] != '{' {
		return i
	}
	if i = f.open(i); i < 0 {
		return -1
	}
	if !f.deep || !reply && kind != scan.Notify {
		return f.skipRest(i)
	}
	for more := true; more; {
		i = flatBlanks(src, i)
		e := flatWord(src, i)
		if flatLookup(src, i, e) == errorToken {
			i = f.errorDescriptor(e, tx, cmd)
		} else {
			i = flatSkip(src, e, f.depth, f.maxDepth, flStop|flItem)
		}
		if i < 0 {
			return -1
		}
		if i, more = f.next(i); i < 0 {
			return -1
		}
	}
	return i
}

// errorDescriptor reads "= code [{ "text" }]" at i.
func (f *flatScan) errorDescriptor(i, tx, cmd int) int {
	if i = flatByte(f.src, i, '='); i < 0 {
		return -1
	}
	code, s, e := flatNumber(f.src, i, 0xFFFF)
	if e < 0 {
		return -1
	}
	f.s.Errors = append(f.s.Errors, scan.Error{Tx: tx, Command: cmd, Code: uint16(code), Span: scan.Span{Off: s, Len: e - s}})
	if !f.count() {
		return -1
	}
	i = flatBlanks(f.src, e)
	if i >= len(f.src) || f.src[i] != '{' {
		return e
	}
	if i = f.open(i); i < 0 {
		return -1
	}
	return f.skipRest(i)
}
