package text

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// Scan fills s with what package scan reports of a text message (either
// style) without decoding it; its errors name the codec "text". See
// Style.Scan.
func Scan(data []byte, s *scan.Summary, lim limits.Limits) error {
	return scanText("text", data, s, lim)
}

// Scan is the scanner of the codec of this style: errors name it.
//
// It does not run the parser. It reads the message structure down to the
// commands (header, transactions, actions, commands and their termination
// IDs, error descriptors) token by token, and steps over everything else
// (descriptors, context properties) by balancing braces, minding only what
// may hold a brace that does not count: quoted strings, comments and the
// SDP of Local and Remote descriptors. So it allocates nothing once s has
// grown, and is many times quicker than a decode. The common forms it
// reads in one flat pass (summary_flat.go); what that pass does not read,
// and every error, the skimmer below reads token by token. Both step over
// bodies with one routine, skim (summary_skip.go).
func (st Style) Scan(data []byte, s *scan.Summary, lim limits.Limits) error {
	return scanText(st.String(), data, s, lim)
}

func scanText(name string, data []byte, s *scan.Summary, lim limits.Limits) error {
	s.Reset()
	lim = lim.OrDefault()
	if len(data) > lim.MaxSize {
		return lim.CheckSize(name, codecerr.AtLine(1, 1, 0), len(data))
	}
	k := skimmer{src: data, s: s, name: name, maxDepth: lim.MaxDepth, maxElems: lim.MaxElements,
		actions: s.Want.Reaches(scan.Actions), commands: s.Want.Reaches(scan.Commands), deep: s.Want.Reaches(scan.Everything)}
	if k.flat() {
		return nil
	}
	// The flat scanner gave up: the skimmer reads the message again from
	// the start, and makes the error if there is one.
	s.Reset()
	k = skimmer{src: data, s: s, name: name, maxDepth: lim.MaxDepth, maxElems: lim.MaxElements,
		actions: k.actions, commands: k.commands, deep: k.deep}
	if !k.message() {
		return k.err
	}
	return nil
}

// The classes of skimClass: what the skimmer's loops test per byte, one
// table lookup each.
const (
	skWord    uint8 = 1 << iota // chWord: a SafeChars word without parentheses
	skWild                      // '*' or '$' in a termination ID
	skDigit                     // DIGIT
	skBlank                     // white space, line ends, or ';' starting a comment
	skBody                      // what skip stops at in a body: { } " ; =
	skItemEnd                   // what it also stops at in an item: , [ ]
	skRawHint                   // before a "{" (and blanks), may end Local or Remote: L E R
	skToken                     // chToken: a word where parentheses are no braces, as a termination ID
)

var skimClass = func() (t [256]uint8) {
	for c := range t {
		cl := charClass[c]
		if cl&chWord != 0 {
			t[c] |= skWord
		}
		if cl&chDigit != 0 {
			t[c] |= skDigit
		}
		if cl&chToken != 0 {
			t[c] |= skToken
		}
		if cl&chBlank != 0 {
			t[c] |= skBlank
		}
	}
	t['*'] |= skWild
	t['$'] |= skWild
	t[';'] |= skBlank
	for _, c := range "{}\";=" {
		t[c] |= skBody
	}
	for _, c := range ",[]" {
		t[c] |= skItemEnd
	}
	for _, c := range "lLeErR" {
		t[c] |= skRawHint
	}
	return t
}()

// skimPlain is 1 for the bytes of a termination ID but its wildcards
// ("*" and "$"): termination's fast loop ANDs four of them.
var skimPlain = func() (t [256]uint8) {
	for c := range t {
		if skimClass[c]&(skToken|skWild) == skToken {
			t[c] = 1
		}
	}
	return t
}()

// skimmer walks a text message for Scan. Its methods return false once
// an error is recorded in err.
type skimmer struct {
	src      []byte
	pos      int
	depth    int
	maxDepth int
	elems    int
	maxElems int
	s        *scan.Summary
	name     string
	err      *codecerr.Error
	// What s.Want reaches: actions, commands, and deep (everything,
	// down to termination IDs and the errors inside commands). Below
	// it, a transaction's or action's body is stepped over by
	// balancing braces, and a command's IDs and errors go unrecorded.
	actions, commands, deep bool
}

func (k *skimmer) failKind(kind codecerr.Kind, off int, msg string) bool {
	if k.err == nil {
		k.err = &codecerr.Error{Codec: k.name, Op: codecerr.Decode, Kind: kind, Pos: placeIn(k.src, off), Msg: msg}
	}
	return false
}

func (k *skimmer) fail(off int, msg string) bool { return k.failKind(codecerr.Malformed, off, msg) }

// count counts one more element of the summary against the limit.
func (k *skimmer) count() bool {
	k.elems++
	if k.elems > k.maxElems {
		return k.failKind(codecerr.TooLarge, k.pos, "more elements than the limit")
	}
	return true
}

// blank skips white space, line ends and comments. It inlines to one
// test where there are none, as mostly in compact text.
func (k *skimmer) blank() {
	if k.pos >= len(k.src) || skimClass[k.src[k.pos]]&skBlank != 0 {
		k.blanks()
	}
}

// blanks is blank's slow path, kept apart so that blank inlines.
//
//go:noinline
func (k *skimmer) blanks() {
	// One space, as around a pretty "=" or before a "{", needs no loop.
	if i := k.pos + 1; i < len(k.src) && k.src[i-1] == ' ' && skimClass[k.src[i]]&skBlank == 0 {
		k.pos = i
		return
	}
	k.pos = skimBlanks(k.src, k.pos)
}

// peek returns the next character after blanks, 0 at the end.
func (k *skimmer) peek() byte {
	i := k.pos
	if i < len(k.src) && skimClass[k.src[i]]&skBlank == 0 {
		return k.src[i]
	}
	if i+1 < len(k.src) && k.src[i] == ' ' && skimClass[k.src[i+1]]&skBlank == 0 {
		i++ // one space needs no loop
	} else {
		i = skimBlanks(k.src, i)
	}
	k.pos = i
	if i < len(k.src) {
		return k.src[i]
	}
	return 0
}

// eat consumes c if it comes right away. It inlines (punct and expect
// do not: a call in a function is over the inliner's budget), so callers
// write punct as "k.eat(c) || k.punct(c)", and expect as
// "k.eat(c) || k.expect(c)": one test where c comes right away, as
// mostly.
func (k *skimmer) eat(c byte) bool {
	if k.pos < len(k.src) && k.src[k.pos] == c {
		k.pos++
		return true
	}
	return false
}

// eatSpaced consumes " " and c if they come right away, as pretty text
// writes " = " and " {": callers write "k.eat(c) || k.eatSpaced(c) ||
// k.expect(c)" where pretty text has a space before c, to spare expect's
// calls there.
func (k *skimmer) eatSpaced(c byte) bool {
	src, i := k.src, k.pos
	if i+1 < len(src) && src[i] == ' ' && src[i+1] == c {
		k.pos = i + 2
		return true
	}
	return false
}

// punct consumes c (no blank) if it comes next, after blanks.
//
//go:noinline
func (k *skimmer) punct(c byte) bool {
	// peek's blanks inline: in pretty text a line end and tabs come
	// before most list ends.
	src, i := k.src, k.pos
	if i < len(src) && skimClass[src[i]]&skBlank != 0 {
		i = skimBlanks(src, i)
		k.pos = i
	}
	if i < len(src) && src[i] == c {
		k.pos = i + 1
		return true
	}
	return false
}

// expect consumes c (no blank) after blanks, or fails.
//
//go:noinline
func (k *skimmer) expect(c byte) bool {
	if k.punct(c) {
		return true
	}
	return k.expected(c)
}

// expected fails at pos, where c was expected.
//
//go:noinline
func (k *skimmer) expected(c byte) bool {
	return k.fail(k.pos, "expected "+lexQuoteByte(c)+k.found())
}

// found describes what stands at pos, for an error.
func (k *skimmer) found() string {
	if k.pos >= len(k.src) {
		return ", found the end of the message"
	}
	return ", found " + lexQuoteByte(k.src[k.pos])
}

// open consumes a "{" and counts its depth.
func (k *skimmer) open() bool {
	if !(k.eat('{') || k.eatSpaced('{') || k.expect('{')) {
		return false
	}
	k.depth++
	if k.depth > k.maxDepth {
		return k.failKind(codecerr.TooLarge, k.pos-1, "nesting deeper than the limit")
	}
	return true
}

// close consumes a "}".
func (k *skimmer) close() bool {
	if !(k.eat('}') || k.expect('}')) {
		return false
	}
	k.depth--
	return true
}

// word reads a SafeChars word (no parentheses) after blanks: its span.
func (k *skimmer) word() (start, end int) {
	k.blank()
	src, i := k.src, k.pos
	for i < len(src) && skimClass[src[i]]&skWord != 0 {
		i++
	}
	start, k.pos = k.pos, i
	return start, i
}

// keyword reads a word and returns its keyword token (0 if it is none)
// and where it starts.
func (k *skimmer) keyword() (tok, at int) {
	start, end := k.word()
	if start == end {
		return 0, start
	}
	return skimKeyword(k.src[start:end]), start
}

// number reads a decimal number of at most max after blanks. Most have
// a few digits: a byte a step is quicker than eight at once.
func (k *skimmer) number(max uint64, what string) (uint64, scan.Span, bool) {
	k.blank()
	start := k.pos
	v, i := decimal(k.src, start)
	// Ten digits or fewer cannot overflow v.
	if n := i - start; n == 0 || n > 10 || v > max {
		return k.longNumber(start, i, max, what)
	}
	k.pos = i
	return v, scan.Span{Off: start, Len: i - start}, true
}

// decimal reads the digits at src[i:]: their value (which overflows past
// 19 digits: callers check the count) and the offset after them. It is
// small enough to inline, so the scanners share it at no cost per digit.
func decimal(src []byte, i int) (uint64, int) {
	var v uint64
	for i < len(src) {
		d := src[i] - '0'
		if d > 9 {
			break
		}
		v = v*10 + uint64(d)
		i++
	}
	return v, i
}

// longNumber is number for the digits src[start:end] it did not take: none,
// too many, over ten (leading zeros may make them so) or over max.
func (k *skimmer) longNumber(start, end int, max uint64, what string) (uint64, scan.Span, bool) {
	switch {
	case start == end:
		return 0, scan.Span{}, k.fail(start, "expected "+what+k.found())
	case end-start > DefaultMaxNumberLength:
		return 0, scan.Span{}, k.fail(start, what+" has too many digits")
	}
	var v uint64
	for _, c := range k.src[start:end] {
		if v = v*10 + uint64(c-'0'); v > max {
			return 0, scan.Span{}, k.fail(start, what+" out of range")
		}
	}
	k.pos = end
	return v, scan.Span{Off: start, Len: end - start}, true
}

func (k *skimmer) transactionID() (uint32, scan.Span, bool) {
	v, sp, ok := k.number(0xFFFFFFFF, "a transaction ID")
	return uint32(v), sp, ok
}

// message reads [authenticationHeader] MEGACO/v mId messageBody.
func (k *skimmer) message() bool {
	start, end := k.word()
	if w := k.src[start:end]; len(w) > 0 && w[0] != '!' && !(len(w) > 7 && w[6] == '/') && skimKeyword(w) == authToken {
		if !k.authHeader() {
			return false
		}
		start, end = k.word()
	}
	if !k.header(start, end) || !k.mid() {
		return false
	}
	return k.body()
}

// authHeader steps over "= SPI : seq : data" after the AuthToken.
func (k *skimmer) authHeader() bool {
	if !(k.eat('=') || k.eatSpaced('=') || k.expect('=')) {
		return false
	}
	for i := 0; i < 3; i++ {
		if i > 0 && !(k.eat(':') || k.expect(':')) {
			return false
		}
		if s, e := k.word(); s == e {
			return k.fail(s, "expected a hexadecimal value of the authentication header"+k.found())
		}
	}
	return true
}

// header checks the word src[start:end]: "MEGACO/v" or "!/v".
func (k *skimmer) header(start, end int) bool {
	w := k.src[start:end]
	var v []byte
	// As the decoder's scanner: "!" or "MEGACO", anything up to a "/",
	// and digits.
	switch {
	case len(w) > 7 && w[6] == '/' && isMegaco(w):
		v = w[7:]
	case len(w) > 0 && w[0] == '!':
		if i := lexIndexByte(w, '/'); i >= 0 {
			v = w[i+1:]
		}
	default:
		return k.fail(start, "expected the message header MEGACO/ or !/")
	}
	if len(v) == 0 || !lexAllDigits(v) {
		return k.fail(start, "expected the protocol version after '/'")
	}
	n := 0
	for _, c := range v {
		n = min(n*10+int(c-'0'), 1000)
	}
	if !limits.ValidVersion(n) {
		k.err = limits.VersionError(k.name, codecerr.Decode, placeIn(k.src, start), n)
		return false
	}
	k.s.Version = n
	return true
}

// isMegaco tells whether w begins with MEGACO in any case: four bytes
// and two at once (an OR with 0x20 turns an upper-case letter into its
// lower case, and no other byte into a letter).
func isMegaco(w []byte) bool {
	return len(w) >= 6 && binary.LittleEndian.Uint32(w)|0x20202020 == 'm'|'e'<<8|'g'<<16|'a'<<24 &&
		binary.LittleEndian.Uint16(w[4:])|0x2020 == 'c'|'o'<<8
}

// mid reads the mId: [address], <domain> (either with :port), MTP{hex} or
// a device name.
func (k *skimmer) mid() bool {
	m := &k.s.MID
	m.Port = -1
	c := k.peek()
	start, src := k.pos, k.src
	switch c {
	case '[', '<':
		closer, kind := byte(']'), scan.IP4Address
		if c == '<' {
			closer, kind = '>', scan.DomainName
		}
		i, end := start+1, min(len(src), start+skimMaxAddress)
		other := uint8(0)
		// Digits and dots (an IPv4 address) eight a step, then a
		// byte a step.
		for i+8 <= end {
			n := digitsOrDots(binary.LittleEndian.Uint64(src[i:]))
			i += n
			if n < 8 {
				break
			}
		}
		for ; i < end; i++ {
			a := addrClass[src[i]]
			if a >= addrEnd && (src[i] == closer || a == addrStop) {
				break
			}
			other |= a
		}
		if other&addrOther != 0 {
			kind = scan.IP6Address
		}
		if i >= end || src[i] != closer {
			return k.fail(start, "mId address not closed by "+lexQuoteByte(closer))
		}
		if c == '<' {
			kind = scan.DomainName
		}
		m.Kind, m.Value, k.pos = kind, src[start:i+1], i+1
		if k.pos+1 < len(src) && src[k.pos] == ':' && charClass[src[k.pos+1]]&chDigit != 0 {
			k.pos++
			p, _, ok := k.number(0xFFFF, "a port number")
			if !ok {
				return false
			}
			m.Port = int(p)
		}
	default:
		s, e := k.word()
		if s == e {
			return k.fail(s, "expected an mId"+k.found())
		}
		m.Kind, m.Value = scan.DeviceName, src[s:e]
		if lexEqualFold(src[s:e], "mtp") && k.peek() == '{' {
			i := k.pos + 1
			for i < len(src) && charClass[src[i]]&chHex != 0 {
				i++
			}
			if i >= len(src) || src[i] != '}' {
				return k.fail(k.pos, "MTP address not closed by '}'")
			}
			m.Kind, m.Value, k.pos = scan.MTPAddress, src[s:i+1], i+1
		}
	}
	m.Span = scan.Span{Off: start, Len: k.pos - start}
	return true
}

// digitsOrDots returns how many of the eight bytes of x (the first in the
// low byte) are digits or dots before the first that is neither. A byte b
// under 0x80 is one if b+0x52 carries into its high bit (b >= '.') and
// b+0x46 does not (b <= '9'), and it is no '/'; no sum carries into the
// next byte.
func digitsOrDots(x uint64) int {
	const low7 = 0x7F7F7F7F7F7F7F7F
	ge := (x&low7 + 0x5252525252525252) &^ x
	gt := x&low7 + 0x4646464646464646
	s := x ^ 0x2F2F2F2F2F2F2F2F
	slash := ^(s&low7 + low7 | s)
	ok := ge &^ gt &^ slash & 0x8080808080808080
	return bits.TrailingZeros64(^ok&0x8080808080808080) >> 3
}

// The classes of addrClass, for the characters of an mId address.
const (
	addrDigit = 0 // a digit or ".": an IPv4 address has only these
	addrOther = 1 // any other character an address may have
	addrEnd   = 2 // "]" or ">": the end, if it is the address's own
	addrStop  = 4 // what ends an address for the decoder's scanner: blanks, { } ,
)

var addrClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c == '.' || charClass[c]&chDigit != 0:
			t[c] = addrDigit
		case c == ']' || c == '>':
			t[c] = addrEnd | addrOther
		case charClass[c]&chBlank != 0 || c == '{' || c == '}' || c == ',':
			t[c] = addrStop
		default:
			t[c] = addrOther
		}
	}
	return t
}()

// skimMaxAddress bounds the search for the end of an mId address: an
// IPv6 address or a domain name (at most 64 characters) fits.
const skimMaxAddress = 80

// body reads the message body: an error descriptor or transactions.
func (k *skimmer) body() bool {
	for n := 0; ; n++ {
		if k.peek() == 0 {
			if n == 0 {
				return k.fail(k.pos, "expected a transaction or an error descriptor, found the end of the message")
			}
			return true
		}
		tok, at := k.keyword()
		ok := false
		switch tok {
		case errorToken:
			if n > 0 {
				return k.fail(at, "an error descriptor cannot follow transactions")
			}
			if !k.errorDescriptor(-1, -1) {
				return false
			}
			if k.peek() != 0 {
				return k.fail(k.pos, "nothing may follow the message's error descriptor")
			}
			return true
		case transToken:
			ok = k.request()
		case replyToken:
			ok = k.reply()
		case pendingToken:
			ok = k.pending()
		case responseAckToken:
			ok = k.responseAck()
		case messageSegmentToken:
			ok = k.segmentReply()
		default:
			return k.fail(at, "expected a transaction (Transaction, Reply, Pending, TransactionResponseAck or Segment)")
		}
		if !ok {
			return false
		}
	}
}

// addTx appends a transaction and returns its index.
func (k *skimmer) addTx(t scan.Transaction) (int, bool) {
	k.s.Transactions = append(k.s.Transactions, t)
	return len(k.s.Transactions) - 1, k.count()
}

// request reads "= id { action, ... }" after TransToken.
func (k *skimmer) request() bool {
	if !(k.eat('=') || k.eatSpaced('=') || k.expect('=')) {
		return false
	}
	id, sp, ok := k.transactionID()
	if !ok || !k.open() {
		return false
	}
	tx, ok := k.addTx(scan.Transaction{Kind: scan.Request, ID: id, LastID: id, IDSpan: sp})
	if ok && !k.actions {
		return k.skipRest()
	}
	for ok {
		tok, at := k.keyword()
		if tok != ctxToken {
			return k.fail(at, "expected a Context in a transaction request")
		}
		if !k.action(tx, false) {
			return false
		}
		if !(k.eat(',') || k.punct(',')) {
			return k.close()
		}
	}
	return false
}

// pending reads "= id { }" after PendingToken.
func (k *skimmer) pending() bool {
	if !(k.eat('=') || k.eatSpaced('=') || k.expect('=')) {
		return false
	}
	id, sp, ok := k.transactionID()
	if !ok {
		return false
	}
	if _, ok := k.addTx(scan.Transaction{Kind: scan.Pending, ID: id, LastID: id, IDSpan: sp}); !ok {
		return false
	}
	return k.open() && k.close()
}

// responseAck reads "{ id[-id], ... }" after ResponseAckToken.
func (k *skimmer) responseAck() bool {
	if !k.open() {
		return false
	}
	for {
		id, sp, ok := k.transactionID()
		if !ok {
			return false
		}
		last := id
		if k.eat('-') || k.punct('-') {
			if last, _, ok = k.transactionID(); !ok {
				return false
			}
		}
		if _, ok := k.addTx(scan.Transaction{Kind: scan.ResponseAck, ID: id, LastID: last, IDSpan: sp}); !ok {
			return false
		}
		if !(k.eat(',') || k.punct(',')) {
			return k.close()
		}
	}
}

// segment reads "/ n [/ END]" into t; required for a segment reply.
func (k *skimmer) segment(t *scan.Transaction, required bool) bool {
	if !(k.eat('/') || k.punct('/')) {
		if required {
			return k.fail(k.pos, "expected '/' and a segment number"+k.found())
		}
		return true
	}
	n, _, ok := k.number(0xFFFF, "a segment number")
	if !ok {
		return false
	}
	t.Segment = uint16(n)
	if k.eat('/') || k.punct('/') {
		s, e := k.word()
		if w := k.src[s:e]; !(len(w) == 1 && w[0] == '&' || lexEqualFold(w, "end")) {
			return k.fail(s, "expected END after the segment number")
		}
		t.Complete = true
	}
	return true
}

// segmentReply reads "= id / n [/ END]" after MessageSegmentToken.
func (k *skimmer) segmentReply() bool {
	if !(k.eat('=') || k.eatSpaced('=') || k.expect('=')) {
		return false
	}
	id, sp, ok := k.transactionID()
	if !ok {
		return false
	}
	t := scan.Transaction{Kind: scan.SegmentReply, ID: id, LastID: id, IDSpan: sp}
	if !k.segment(&t, true) {
		return false
	}
	_, ok = k.addTx(t)
	return ok
}

// reply reads "= id [/ n [/ END]] { [ImmAckRequired,] (error / actions) }"
// after ReplyToken.
func (k *skimmer) reply() bool {
	if !(k.eat('=') || k.eatSpaced('=') || k.expect('=')) {
		return false
	}
	id, sp, ok := k.transactionID()
	if !ok {
		return false
	}
	t := scan.Transaction{Kind: scan.Reply, ID: id, LastID: id, IDSpan: sp}
	if !k.segment(&t, false) || !k.open() {
		return false
	}
	tok, at := k.keyword()
	if tok == immAckRequiredToken {
		t.ImmAckRequired = true
		if !(k.eat(',') || k.expect(',')) {
			return false
		}
		tok, at = k.keyword()
	}
	tx, ok := k.addTx(t)
	if !ok {
		return false
	}
	if tok == errorToken {
		return k.errorDescriptor(tx, -1) && k.close()
	}
	if !k.actions {
		return k.skipRest()
	}
	for {
		if tok != ctxToken {
			return k.fail(at, "expected a Context or an error descriptor in a transaction reply")
		}
		if !k.action(tx, true) {
			return false
		}
		if !(k.eat(',') || k.punct(',')) {
			return k.close()
		}
		tok, at = k.keyword()
	}
}

// contextID reads a ContextID: a number, "-" (0), "$" or "*".
func (k *skimmer) contextID() (uint32, scan.Span, bool) {
	switch c := k.peek(); c {
	case '-', '$', '*':
		k.pos++
		if k.pos < len(k.src) && charClass[k.src[k.pos]]&chWord != 0 {
			return 0, scan.Span{}, k.fail(k.pos-1, "expected a context ID")
		}
		sp := scan.Span{Off: k.pos - 1, Len: 1}
		switch c {
		case '-':
			return 0, sp, true
		case '$':
			return 0xFFFFFFFE, sp, true
		}
		return 0xFFFFFFFF, sp, true
	}
	v, sp, ok := k.number(0xFFFFFFFF, "a context ID")
	return uint32(v), sp, ok
}

// action reads "= id { item, ... }" after CtxToken: an action request's
// or (reply set) an action reply's, whose braces v3 makes optional.
func (k *skimmer) action(tx int, reply bool) bool {
	if !(k.eat('=') || k.eatSpaced('=') || k.expect('=')) {
		return false
	}
	id, sp, ok := k.contextID()
	if !ok {
		return false
	}
	k.s.Actions = append(k.s.Actions, scan.Action{Tx: tx, ContextID: id, Span: sp})
	act := len(k.s.Actions) - 1
	if !k.count() {
		return false
	}
	if reply && k.peek() != '{' {
		return true
	}
	if !reply && !k.commands {
		return k.skipBody()
	}
	// An action reply's own error comes after its commands in the text
	// but before their errors in Summary.Errors, as in the model.
	firstErr := len(k.s.Errors)
	if !k.open() {
		return false
	}
	for {
		w0, w1 := k.word()
		kind, opt, wild := commandOf(k.src[w0:w1])
		switch {
		case kind != 0 && !(reply && (opt || wild)) && k.commands:
			if !k.command(tx, act, kind, reply, opt, wild) {
				return false
			}
		case reply && skimKeyword(k.src[w0:w1]) == errorToken:
			if !k.errorDescriptor(tx, -1) {
				return false
			}
			e := k.s.Errors[len(k.s.Errors)-1]
			k.s.Errors = slices.Insert(k.s.Errors[:len(k.s.Errors)-1], firstErr, e)
		default:
			if !k.skipItem() {
				return false
			}
		}
		if !(k.eat(',') || k.punct(',')) {
			return k.close()
		}
	}
}

// commandKind gives the kind of a command keyword token, 0 for another.
func commandKind(tok int) scan.CommandKind {
	switch tok {
	case addToken:
		return scan.Add
	case moveToken:
		return scan.Move
	case modifyToken:
		return scan.Modify
	case subtractToken:
		return scan.Subtract
	case auditCapToken:
		return scan.AuditCapability
	case auditValueToken:
		return scan.AuditValue
	case notifyToken:
		return scan.Notify
	case serviceChangeToken:
		return scan.ServiceChange
	}
	return 0
}

// commandOf tells whether w is a command keyword, with its "O-" and "W-"
// prefixes.
func commandOf(w []byte) (kind scan.CommandKind, opt, wild bool) {
	if len(w) > 2 && w[1] == '-' && w[0]|0x20 == 'o' {
		opt, w = true, w[2:]
	}
	if len(w) > 2 && w[1] == '-' && w[0]|0x20 == 'w' {
		wild, w = true, w[2:]
	}
	if len(w) == 0 || charClass[w[0]]&chDigit != 0 {
		return 0, false, false
	}
	kind = commandKind(skimKeyword(w))
	if kind == 0 {
		return 0, false, false
	}
	return kind, opt, wild
}

// command reads "= termIDList [{ ... }]" after a command keyword.
func (k *skimmer) command(tx, act int, kind scan.CommandKind, reply, opt, wild bool) bool {
	k.s.Commands = append(k.s.Commands, scan.Command{Action: act, Kind: kind, Reply: reply, Optional: opt, Wildcard: wild})
	cmd := len(k.s.Commands) - 1
	if !k.count() || !(k.eat('=') || k.eatSpaced('=') || k.expect('=')) {
		return false
	}
	if reply && (kind == scan.AuditValue || kind == scan.AuditCapability) && k.contextAudit(tx, cmd) {
		return k.err == nil
	}
	if k.err != nil || !k.terminations(cmd) {
		return false
	}
	if k.peek() != '{' {
		return true
	}
	if !k.deep || !reply && kind != scan.Notify {
		return k.skipBody()
	}
	return k.items(tx, cmd)
}

// contextAudit reads "Context { termIDs or error }" of an audit reply,
// if that is what follows; false (and nothing read) if not.
func (k *skimmer) contextAudit(tx, cmd int) bool {
	save := k.pos
	if tok, _ := k.keyword(); tok != ctxToken || k.peek() != '{' {
		k.pos = save
		return false
	}
	if !k.open() {
		return true
	}
	save = k.pos
	if tok, _ := k.keyword(); tok == errorToken {
		_ = k.errorDescriptor(tx, cmd) && k.close()
		return true
	}
	k.pos = save
	_ = k.terminationList(cmd, '}')
	k.depth--
	return true
}

// terminations reads a termIDList: a TerminationID or "[ id, ... ]" (v3).
func (k *skimmer) terminations(cmd int) bool {
	if k.peek() != '[' {
		return k.termination(cmd)
	}
	k.pos++
	return k.terminationList(cmd, ']')
}

// terminationList reads "id, ... closer" after its opening bracket.
func (k *skimmer) terminationList(cmd int, closer byte) bool {
	for {
		if !k.termination(cmd) {
			return false
		}
		if !(k.eat(',') || k.punct(',')) {
			return k.eat(closer) || k.expect(closer)
		}
	}
}

func (k *skimmer) termination(cmd int) bool {
	k.blank()
	// A word, as word reads it, noting whether it has a wildcard: four
	// bytes a step while none is a wildcard or the end (IDs run to
	// twenty bytes and more), then a byte a step.
	src, s := k.src, k.pos
	e, classes := s, uint8(0)
	for e+4 <= len(src) {
		w := src[e : e+4 : e+4]
		if skimPlain[w[0]]&skimPlain[w[1]]&skimPlain[w[2]]&skimPlain[w[3]] == 0 {
			break
		}
		e += 4
	}
	for e < len(src) {
		c := skimClass[src[e]]
		if c&skToken == 0 {
			break
		}
		classes |= c
		e++
	}
	k.pos = e
	if s == e {
		return k.fail(s, "expected a termination ID"+k.found())
	}
	if !k.deep {
		return true
	}
	id, wild := src[s:e:e], classes&skWild != 0
	k.s.Terminations = append(k.s.Terminations, scan.Termination{Command: cmd, ID: id, Wildcarded: wild, Span: scan.Span{Off: s, Len: e - s}})
	return k.count()
}

// items reads "{ item, ... }" of a command, reporting its error
// descriptors and stepping over the rest.
func (k *skimmer) items(tx, cmd int) bool {
	if !k.open() {
		return false
	}
	for {
		if tok, _ := k.keyword(); tok == errorToken {
			if !k.errorDescriptor(tx, cmd) {
				return false
			}
		} else if !k.skipItem() {
			return false
		}
		if !(k.eat(',') || k.punct(',')) {
			return k.close()
		}
	}
}

// errorDescriptor reads "= code [{ "text" }]" after ErrorToken.
func (k *skimmer) errorDescriptor(tx, cmd int) bool {
	if !(k.eat('=') || k.eatSpaced('=') || k.expect('=')) {
		return false
	}
	code, sp, ok := k.number(0xFFFF, "an error code")
	if !ok {
		return false
	}
	if cmd >= 0 && !k.deep {
		return k.peek() != '{' || k.skipBody()
	}
	k.s.Errors = append(k.s.Errors, scan.Error{Tx: tx, Command: cmd, Code: uint16(code), Span: sp})
	if !k.count() {
		return false
	}
	if k.peek() == '{' {
		return k.skipBody()
	}
	return true
}

// backBlanks returns where the blanks that end at i start.
func backBlanks(src []byte, i int) int {
	for i > 0 && charClass[src[i-1]]&chBlank != 0 {
		i--
	}
	return i
}

// skimKeyword returns the token of the keywords the skimmer reads
// (transactions, Context, commands, Error, ImmAckRequired,
// Authentication), long or short in any case, and 0 for any other word:
// a switch on the length (and a letter where two share it) leaves one
// spelling to compare, quicker than the decoder's hash table.
func skimKeyword(w []byte) int {
	switch len(w) {
	case 1:
		switch w[0] | 0x20 {
		case 't':
			return transToken
		case 'p':
			return replyToken
		case 'k':
			return responseAckToken
		case 'c':
			return ctxToken
		case 'a':
			return addToken
		case 's':
			return subtractToken
		case 'n':
			return notifyToken
		}
		return 0
	case 2:
		switch uint16(w[0]|0x20)<<8 | uint16(w[1]|0x20) {
		case 'p'<<8 | 'n':
			return pendingToken
		case 's'<<8 | 'm':
			return messageSegmentToken
		case 'e'<<8 | 'r':
			return errorToken
		case 'i'<<8 | 'a':
			return immAckRequiredToken
		case 'a'<<8 | 'u':
			return authToken
		case 'm'<<8 | 'v':
			return moveToken
		case 'm'<<8 | 'f':
			return modifyToken
		case 'a'<<8 | 'c':
			return auditCapToken
		case 'a'<<8 | 'v':
			return auditValueToken
		case 's'<<8 | 'c':
			return serviceChangeToken
		}
		return 0
	}
	switch len(w) {
	case 3:
		if lexEqualFold(w, "add") {
			return addToken
		}
		return 0
	case 4:
		return skimMid(w, &skimMove)
	case 5:
		if w[0]|0x20 == 'r' {
			return skimMid(w, &skimReply)
		}
		return skimMid(w, &skimError)
	case 6:
		if w[0]|0x20 == 'm' {
			return skimMid(w, &skimModify)
		}
		return skimMid(w, &skimNotify)
	case 7:
		switch w[0] | 0x20 {
		case 'p':
			return skimMid(w, &skimPending)
		case 's':
			return skimMid(w, &skimSegment)
		}
		return skimMid(w, &skimContext)
	case 8:
		return skimLong(w, &skimSubtract)
	case 10:
		return skimLong(w, &skimAuditvalue)
	case 11:
		return skimLong(w, &skimTransaction)
	case 13:
		return skimLong(w, &skimServicechange)
	case 14:
		if w[0]|0x20 == 'i' {
			return skimLong(w, &skimImmackrequired)
		}
		return skimLong(w, &skimAuthentication)
	case 15:
		return skimLong(w, &skimAuditcapability)
	case 22:
		return skimLong(w, &skimTransactionresponseack)
	}
	return 0
}

// skimMid is skimLong for a word of four to seven bytes: four a step.
func skimMid(w []byte, k *skimWord) int {
	const fold = 0x20202020
	n := len(w)
	if n < 4 || uint64(binary.LittleEndian.Uint32(w)|fold) != k.first || uint64(binary.LittleEndian.Uint32(w[n-4:])|fold) != k.last {
		return 0
	}
	return k.tok
}

// skimLong returns k's token if w (as long as its word, eight bytes or
// more) spells it in any case, 0 if not: eight bytes a step. An OR with
// 0x20 turns an upper-case letter into its lower case, and no other byte
// into a letter.
func skimLong(w []byte, k *skimWord) int {
	const fold = 0x2020202020202020
	n := len(w)
	if n < 8 || binary.LittleEndian.Uint64(w)|fold != k.first || binary.LittleEndian.Uint64(w[n-8:])|fold != k.last ||
		n > 16 && binary.LittleEndian.Uint64(w[8:])|fold != k.mid {
		return 0
	}
	return k.tok
}

// skimWord is a keyword of four or more letters for skimMid or skimLong:
// its first and last eight bytes in lower case (four if shorter than
// eight), and bytes 8-15 of one longer than sixteen, as words.
type skimWord struct {
	tok              int
	first, last, mid uint64
}

func newSkimWord(word string, tok int) skimWord {
	b, n := []byte(word), len(word)
	if n < 8 {
		return skimWord{tok: tok, first: uint64(binary.LittleEndian.Uint32(b)), last: uint64(binary.LittleEndian.Uint32(b[n-4:]))}
	}
	k := skimWord{tok: tok, first: binary.LittleEndian.Uint64(b), last: binary.LittleEndian.Uint64(b[n-8:])}
	if n > 16 {
		k.mid = binary.LittleEndian.Uint64(b[8:])
	}
	return k
}

// The keywords of four or more letters skimKeyword knows.
var (
	skimMove                   = newSkimWord("move", moveToken)
	skimReply                  = newSkimWord("reply", replyToken)
	skimError                  = newSkimWord("error", errorToken)
	skimModify                 = newSkimWord("modify", modifyToken)
	skimNotify                 = newSkimWord("notify", notifyToken)
	skimPending                = newSkimWord("pending", pendingToken)
	skimSegment                = newSkimWord("segment", messageSegmentToken)
	skimContext                = newSkimWord("context", ctxToken)
	skimSubtract               = newSkimWord("subtract", subtractToken)
	skimAuditvalue             = newSkimWord("auditvalue", auditValueToken)
	skimTransaction            = newSkimWord("transaction", transToken)
	skimServicechange          = newSkimWord("servicechange", serviceChangeToken)
	skimImmackrequired         = newSkimWord("immackrequired", immAckRequiredToken)
	skimAuthentication         = newSkimWord("authentication", authToken)
	skimAuditcapability        = newSkimWord("auditcapability", auditCapToken)
	skimTransactionresponseack = newSkimWord("transactionresponseack", responseAckToken)
)
