package text

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"

	"megaco/internal/codec/codecerr"
)

// The scanner of the text decoder: it turns the bytes of a message into
// the terminals of grammar.y, without copying and without allocating. A
// token is a span of the input; what the token means (a number, a name, a
// termination ID) is for the builder to work out.
//
// White space and comments are skipped wherever the ABNF has LWSP, SEP or
// EOL between two tokens: the grammar never needs them, and a message that
// leaves out a SEP (say between the mId and the first transaction) is still
// read as long as its tokens can be told apart. Inside quoted strings, SDP
// and digit maps nothing is skipped.
//
// A few terminals are not one ABNF token but a whole piece the parser
// should not look into, and the scanner knows from the tokens before them
// where they are:
//
//   - after the MEGACO/N header, after "MgcIdToTry =" and after
//     "ServiceChangeAddress =" comes an mId: "[...]" is an address and
//     "<...>" a domain name there, not brackets and relations;
//   - "Local {" and "Remote {" (where a descriptor may start) open an SDP
//     octet string that runs to the first "}" not escaped as "\}";
//   - "DigitMap = {" and "DigitMap = name {" open a digitMapValue: the
//     scanner hands out its "T:n," timers one by one and then the digit
//     map itself, up to "}", as one token.
//
// One leniency goes beyond white space: RFC 3525's example call flow (and
// the v2 draft's) writes the parameters of an event in parentheses,
// "al/of(strict=state)", where the ABNF has braces. An opening parenthesis
// right after an event name (a word with a "/" where an event may start)
// reads as "{", and up to its match ")" reads as "}".

// span is a token's place in the input: the bytes from pos up to end.
type span struct{ pos, end int32 }

// What the scanner expects next, beyond plain tokens. The modes that do
// not start with skipping white space come last, so that token tells them
// from the others with one comparison.
const (
	lexPlain       = iota
	lexMID         // an mId
	lexTimerComma  // the comma after a digit map timer
	lexOctets      // the SDP of a Local or Remote descriptor
	lexTimers      // a digit map timer, or the digit map
	lexEndOfTokens // nothing more: an error was found
)

// scanner reads tokens from src. The zero value with src set is ready.
type scanner struct {
	src      []byte
	pos      int
	mode     uint8
	depth    int    // open braces and brackets
	parens   int    // open parentheses read as braces
	maxDepth int    // limit on depth
	last     uint64 // kinds of the last three tokens, 16 bits each, newest lowest
	errMsg   string // a lexical error, reported at errAt
	errAt    span
	errKind  codecerr.Kind
	// ip4 is the IPv4 address of the last "[a.b.c.d]" of an mId, read
	// as the scanner looked for its end; ip4At is its span (inside the
	// brackets). The builder takes it from here rather than reading the
	// same bytes again.
	ip4   [4]byte
	ip4At span
}

// next returns the next token's kind (a grammar token, a character for
// punctuation, 0 at the end) and its span, for the scanner alone (the
// replay of an error message's tokens, tests), in a decoder of its own
// for the header's version check.
func (sc *scanner) next() (int, span) {
	d := decoder{sc: *sc, src: sc.src}
	k, s := d.sc.token()
	d.sc.last = d.sc.last<<16 | uint64(uint16(k))
	if k == versionHeader {
		d.header(s) // after an error (fail), lexError
	}
	*sc = d.sc
	return k, s
}

// lastKind returns the kind of the token n tokens back (0: the last one).
// Every kind fits in 16 bits: characters, and goyacc's token numbers from
// 57343 on.
func (sc *scanner) lastKind(n int) int { return int(uint16(sc.last >> (16 * n))) }

// unread puts back the version header at s that token just read (and
// the caller has not put in last): the scanner is then where it was
// before it, up to the blanks before it. A header is a word read in plain
// mode or, the same, in lexTimerComma.
func (sc *scanner) unread(s span) { sc.pos, sc.mode = int(s.pos), lexPlain }

// token reads the next token: its kind and its span. The caller puts
// the kind in last.
func (sc *scanner) token() (int, span) {
	var (
		k     int
		s     span
		start int
		c     byte
		cl    uint16
	)
	mode := sc.mode
	src := sc.src
	if mode >= lexOctets {
		k, s = sc.rawToken(mode)
		goto done
	}
	// Most tokens of compact text follow the one before at once: the
	// class of the first byte, which the token needs anyway, tells
	// whether there is anything to skip.
	start = sc.pos
	if start >= len(src) {
		s = span{int32(start), int32(start)}
		goto done
	}
	c = src[start]
	cl = charClass[c]
	if cl&chSkip != 0 {
		if c != ';' {
			start++ // a blank, which skipLWSP need not look at again
		}
		if start = skipLWSP(src, start); start >= len(src) {
			sc.pos = start
			s = span{int32(start), int32(start)}
			goto done
		}
		sc.pos = start
		c = src[start]
		cl = charClass[c]
	}
	if mode != lexPlain {
		sc.mode = lexPlain
		if mode == lexTimerComma && c == ',' {
			sc.pos++
			sc.mode = lexTimers
			k, s = ',', span{int32(start), int32(start + 1)}
			goto done
		}
	}
	if cl&chToken != 0 {
		k, s = sc.word(start, cl, mode == lexMID)
		goto done
	}
	sc.pos++
	s = span{int32(start), int32(start + 1)}
	if p := lexPunct[c]; p == lexPunctPlain || p == lexPunctClose {
		// most punctuation: one look-up rather than the switch's tests
		sc.depth -= int(p - lexPunctPlain)
		k = int(c)
		goto done
	}
	switch c {
	case '{':
		if !sc.open() {
			k, s = sc.tooDeep(s)
			break
		}
		sc.afterOpenBrace()
		k = '{'
	case '[':
		if mode == lexMID {
			k, s = sc.address(start, ']', ipv4Token)
			break
		}
		if !sc.open() {
			k, s = sc.tooDeep(s)
			break
		}
		k = '['
	case '<':
		if mode == lexMID {
			k, s = sc.address(start, '>', domainToken)
			break
		}
		k = '<'
	case '=':
		if lk := sc.lastKind(0); lk == mgcIdToken || lk == serviceChangeAddressToken {
			sc.mode = lexMID
		}
		k = '='
	case '"':
		k, s = sc.quoted(start)
	default:
		k, s = sc.fail(s, "unexpected character "+lexQuoteByte(c))
	}
done:
	return k, s
}

// lexPunct marks the punctuation that is its own token whatever comes
// before it: lexPunctPlain, or lexPunctClose for a "}" or "]", which
// closes one level of nesting; and, for lexFill, the "{" (lexPunctOpen)
// and "=" (lexPunctEqual) of plain mode, which may change the mode.
var lexPunct = func() (t [256]uint8) {
	for _, c := range ",:>#" {
		t[c] = lexPunctPlain
	}
	t['}'], t[']'] = lexPunctClose, lexPunctClose
	t['{'], t['='] = lexPunctOpen, lexPunctEqual
	return t
}()

const (
	lexPunctPlain = 1 + iota
	lexPunctClose
	lexPunctOpen
	lexPunctEqual
)

// quoted reads a quoted string from its opening quote at start.
func (sc *scanner) quoted(start int) (int, span) {
	src := sc.src
	for i := start + 1; i < len(src); i++ {
		if src[i] == '"' {
			sc.pos = i + 1
			return quotedString, span{int32(start + 1), int32(i)}
		}
	}
	return sc.fail(span{int32(start), int32(start + 1)}, "quoted string not closed")
}

// rawToken reads a token in the modes that do not skip white space first.
func (sc *scanner) rawToken(mode uint8) (int, span) {
	switch mode {
	case lexOctets:
		return sc.octets()
	case lexTimers:
		return sc.timerOrDigitMap()
	}
	return lexError, span{int32(sc.pos), int32(sc.pos)}
}

// afterOpenBrace switches to the raw modes "Local {", "Remote {",
// "DigitMap = {" and "DigitMap = name {" need. The brace is not yet in
// last.
func (sc *scanner) afterOpenBrace() {
	// The kinds are looked at in sc.last as they are packed there.
	const (
		dmValue = uint64(digitMapToken)<<16 | '='                 // DigitMap = {
		dmNamed = uint64(digitMapToken)<<32 | '='<<16 | safeChars // DigitMap = name {
	)
	switch l := sc.last; {
	case uint16(l) == localToken || uint16(l) == remoteToken:
		if l1 := uint16(l >> 16); l1 == '{' || l1 == ',' {
			sc.mode = lexOctets
		}
	case l&(1<<32-1) == dmValue || l&(1<<48-1) == dmNamed:
		sc.mode = lexTimers
	}
}

// skipLWSP skips white space, line ends and comments.
func (sc *scanner) skipLWSP() { sc.pos = skipLWSP(sc.src, sc.pos) }

// skipLWSP returns the offset of the first byte from i on that is not
// white space, a line end or in a comment.
func skipLWSP(src []byte, i int) int {
	for i < len(src) {
		c := src[i]
		if charClass[c]&chBlank != 0 {
			i++
			continue
		}
		if c != ';' {
			break
		}
		for i < len(src) && src[i] != '\n' && src[i] != '\r' {
			i++
		}
	}
	return i
}

// word reads a SafeChars word starting at start: a keyword, the message
// header, a command prefix or a plain SafeChars token. first is the class
// of its first byte.
func (sc *scanner) word(start int, first uint16, mID bool) (int, span) {
	src := sc.src
	if first&chParen != 0 && !mID {
		if k, s, ok := sc.paren(start); ok {
			return k, s
		}
	}
	i := start
	all := chAlnum
	for {
		// Four bytes a step while all four are word bytes: one test
		// for four (most words are longer than four bytes). The four
		// classes then tell where the word ends, without a second look
		// at the bytes.
		for ; i+4 <= len(src); i += 4 {
			b := src[i : i+4 : i+4]
			c0, c1, c2, c3 := charClass[b[0]], charClass[b[1]], charClass[b[2]], charClass[b[3]]
			if cl := c0 & c1 & c2 & c3; cl&chWord != 0 {
				all &= cl
				continue
			}
			switch {
			case c0&chWord == 0:
			case c1&chWord == 0:
				all &= c0
				i++
			case c2&chWord == 0:
				all &= c0 & c1
				i += 2
			default:
				all &= c0 & c1 & c2
				i += 3
			}
			goto wordEnd
		}
		for ; i < len(src); i++ {
			cl := charClass[src[i]]
			if cl&chWord == 0 {
				break
			}
			all &= cl
		}
	wordEnd:
		if i == len(src) || charClass[src[i]]&chParen == 0 || !mID && sc.parenEnds(start, i) {
			break
		}
		all = 0
		i++
	}
	sc.pos = i
	s := span{int32(start), int32(i)}
	if mID {
		if lexEqualFold(src[start:i], "mtp") {
			return mtpToken, s
		}
		return safeChars, s
	}
	if all != 0 {
		// Every keyword starts with a letter: numbers need no look-up.
		if first&chDigit == 0 {
			// lexLookup's first probe here, for a word of under eight
			// bytes that lies in the message: most keywords are found
			// (or found missing) by it, without a call (15,638 to
			// 15,517 instructions per compact corpus message).
			if w := src[start:i]; len(w) < 8 && cap(w) >= 8 {
				m := lexMasks[len(w)]
				k := binary.LittleEndian.Uint64(w[:8])&m | 0x2020202020202020&m
				h := lexSlot(k, len(w))
				if lexKeys[h] == k {
					return lexKeywords[h].tok, s
				}
				if lexKeywords[h].tok == 0 {
					return safeChars, s
				}
			}
			if k := lexLookup(src[start:i]); k != 0 {
				return k, s
			}
		}
		return safeChars, s
	}
	w := src[start:i]
	// "MEGACO/3", "!/3"
	if w[0] == '!' || len(w) > 7 && w[6] == '/' && w[0]|0x20 == 'm' && lexEqualFold(w[:6], "megaco") {
		if v := w[lexIndexByte(w, '/')+1:]; len(v) > 0 && lexAllDigits(v) {
			sc.mode = lexMID
			return versionHeader, s
		}
	}
	// "O-" and "W-" before a command; they stand where a command may.
	if len(w) > 2 && w[1] == '-' && (sc.lastKind(0) == '{' || sc.lastKind(0) == ',' || sc.lastKind(0) == optionalPrefix) {
		if k, ok := sc.commandPrefix(w); ok {
			sc.pos = start + 2
			return k, span{int32(start), int32(start + 2)}
		}
	}
	return safeChars, s
}

// eventPosition tells whether an event name may stand here: after the
// "{" or "," of an event list, or the ":" after a time stamp.
func (sc *scanner) eventPosition(k int) bool { return k == '{' || k == ',' || k == ':' }

// parenEnds tells whether the parenthesis at i ends the word that starts
// at start: a ")" closing a "(" read as "{", or a "(" right after an event
// name.
func (sc *scanner) parenEnds(start, i int) bool {
	if sc.src[i] == ')' {
		return sc.parens > 0
	}
	return i > start && lexIndexByte(sc.src[start:i], '/') >= 0 && sc.eventPosition(sc.lastKind(0))
}

// paren reads a parenthesis at start as a brace, if it stands for one:
// "(" after an event name ("al/of (strict=state)"; the name is the token
// before), or a ")" that closes one.
func (sc *scanner) paren(start int) (int, span, bool) {
	s := span{int32(start), int32(start + 1)}
	switch {
	case sc.src[start] == ')' && sc.parens > 0:
		sc.parens--
		sc.depth--
		sc.pos = start + 1
		return '}', s, true
	case sc.src[start] == '(' && (sc.lastKind(0) == safeChars && sc.eventPosition(sc.lastKind(1))):
		if !sc.open() {
			k, s := sc.tooDeep(s)
			return k, s, true
		}
		sc.parens++
		sc.pos = start + 1
		return '{', s, true
	}
	return 0, s, false
}

// commandPrefix tells whether w is "O-" or "W-" (and then perhaps the
// other one) in front of a command keyword.
func (sc *scanner) commandPrefix(w []byte) (int, bool) {
	var k int
	switch w[0] | 0x20 {
	case 'o':
		k = optionalPrefix
	case 'w':
		k = wildcardPrefix
	default:
		return 0, false
	}
	rest := w[2:]
	if len(rest) > 2 && rest[1] == '-' && rest[0]|0x20 == 'w' && k == optionalPrefix {
		rest = rest[2:]
	}
	for _, c := range rest {
		if charClass[c]&chAlnum == 0 {
			return 0, false
		}
	}
	switch lexLookup(rest) {
	case addToken, moveToken, modifyToken, subtractToken, auditValueToken,
		auditCapToken, notifyToken, serviceChangeToken:
		return k, true
	}
	return 0, false
}

// address reads "[...]" or "<...>" in an mId, with the ":port" that may
// follow; start is at the opening character, and the span is the whole.
func (sc *scanner) address(start int, closer byte, kind int) (int, span) {
	// Most mIds are IPv4 addresses: read as one, the address ends where
	// its fourth number does.
	if kind == ipv4Token {
		if end, ok := sc.readIP4(start + 1); ok {
			return sc.addressEnd(start, end, kind)
		}
	}
	return sc.addressGeneral(start, closer, kind)
}

// addressGeneral is address for any address: it looks for the closer,
// and an IPv4 address's kind tells only digits and dots from the rest.
func (sc *scanner) addressGeneral(start int, closer byte, kind int) (int, span) {
	src := sc.src
	all := uint8(lexAddrV4) // the classes of the bytes so far, and-ed
	for i := start + 1; i < len(src); i++ {
		c := src[i]
		if c == closer {
			if kind == ipv4Token && all&lexAddrV4 == 0 {
				kind = ipv6Token
			}
			return sc.addressEnd(start, i, kind)
		}
		cl := lexAddrClass[c]
		if cl&lexAddrStop != 0 {
			break
		}
		all &= cl
	}
	return sc.fail(span{int32(start), int32(start + 1)}, "address not closed by "+lexQuoteByte(closer))
}

// addressEnd ends an address whose closer is at i, with the ":port" that
// may follow it.
func (sc *scanner) addressEnd(start, i int, kind int) (int, span) {
	src := sc.src
	i++
	if i+1 < len(src) && src[i] == ':' && charClass[src[i+1]]&chDigit != 0 {
		for i++; i < len(src) && charClass[src[i]]&chDigit != 0; i++ {
		}
	}
	sc.pos = i
	return kind, span{int32(start), int32(i)}
}

// readIP4 reads an IPv4 address from i up to the "]" that must follow it
// at once (ip4Prefix, decode_msg.go) into sc.ip4: the offset of the "]",
// or false if the bytes are not that (the caller then reads them the
// general way).
func (sc *scanner) readIP4(i int) (int, bool) {
	var a [4]byte // not sc.ip4: that may be a token's still to be built
	n, ok := ip4Prefix(sc.src[i:], &a)
	if end := i + n; ok && end < len(sc.src) && sc.src[end] == ']' {
		sc.ip4, sc.ip4At = a, span{int32(i), int32(end)}
		return end, true
	}
	return 0, false
}

// The classes of bytes inside an address of an mId: lexAddrStop ends it
// unclosed (white space, line ends, braces, commas), lexAddrV4 may be in
// an IPv4 address (digits and dots). A table looks them up in one step.
const (
	lexAddrStop = 1 << iota
	lexAddrV4
)

var lexAddrClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case charClass[c]&chBlank != 0 || c == '{' || c == '}' || c == ',':
			t[c] = lexAddrStop
		case c == '.' || charClass[c]&chDigit != 0:
			t[c] = lexAddrV4
		}
	}
	return t
}()

// octets reads the SDP of a Local or Remote descriptor, up to the first
// "}" that is not escaped as "\}".
func (sc *scanner) octets() (int, span) {
	sc.mode = lexPlain
	src, start := sc.src, sc.pos
	// A "}" is escaped exactly when a backslash is right before it.
	// bytes.IndexByte runs many bytes a step: SDP is long.
	for i := start; i < len(src); i++ {
		n := bytes.IndexByte(src[i:], '}')
		if n < 0 {
			break
		}
		if i += n; i == start || src[i-1] != '\\' {
			sc.pos = i
			return octetString, span{int32(start), int32(i)}
		}
	}
	return sc.fail(span{int32(start), int32(start)}, "Local or Remote descriptor not closed by '}'")
}

// timerOrDigitMap reads, inside a digitMapValue, a timer ("T:1", followed
// by a comma the next call hands out) or the digit map, from here to the
// closing brace with the blanks around it left out.
func (sc *scanner) timerOrDigitMap() (int, span) {
	sc.skipLWSP()
	src, start := sc.src, sc.pos
	if start < len(src) {
		switch src[start] | 0x20 {
		case 't', 's', 'l', 'z':
			i := start + 1
			for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
				i++
			}
			if i < len(src) && src[i] == ':' {
				i++
				for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
					i++
				}
				for i < len(src) && charClass[src[i]]&chDigit != 0 {
					i++
				}
				sc.pos = i
				sc.mode = lexTimerComma
				return digitMapTimer, span{int32(start), int32(i)}
			}
		}
	}
	sc.mode = lexPlain
	for i := start; i < len(src); i++ {
		if src[i] == '}' {
			end := i
			for end > start && charClass[src[end-1]]&chBlank != 0 {
				end--
			}
			sc.pos = i
			return digitMapBody, span{int32(start), int32(end)}
		}
	}
	return sc.fail(span{int32(start), int32(start)}, "digit map not closed by '}'")
}

// open counts a brace or bracket; false past the depth limit.
func (sc *scanner) open() bool {
	sc.depth++
	return sc.depth <= sc.maxDepth
}

// tooDeep fails at the brace or bracket at s that went past the limit.
func (sc *scanner) tooDeep(s span) (int, span) {
	k, s := sc.fail(s, "nesting deeper than the limit of "+strconv.Itoa(sc.maxDepth))
	sc.errKind = codecerr.TooLarge
	return k, s
}

// fail records a lexical error; the parser then sees lexError, which no
// rule accepts, and stops.
func (sc *scanner) fail(at span, msg string) (int, span) {
	sc.errMsg, sc.errAt, sc.errKind = msg, at, codecerr.Malformed
	sc.mode = lexEndOfTokens
	return lexError, at
}

// lexKeyword is one spelling of a keyword, lower case.
type lexKeyword struct {
	word string
	tok  int
}

// lexKeywords is an open-addressing hash table of every spelling, and
// lexKeys holds, slot for slot, the first eight bytes of each spelling as
// lexKey packs them: most look-ups compare one word and nothing else.
var (
	lexKeywords [512]lexKeyword
	lexKeys     [len(lexKeywords)]uint64
)

// lexLongest is the length of the longest keyword, TransactionResponseAck.
const lexLongest = 22

// lexKeywordSpellings gives each keyword token its long and short
// spellings (text-tokens.tsv). MEGACO/!, END/& and MTP are read where
// they stand (the header, a segment number, an mId) and are not here.
var lexKeywordSpellings = []struct {
	tok         int
	long, short string
}{
	{addToken, "Add", "A"},
	{andAUDITSelectToken, "ANDLgc", ""},
	{auditCapToken, "AuditCapability", "AC"},
	{auditToken, "Audit", "AT"},
	{auditValueToken, "AuditValue", "AV"},
	{authToken, "Authentication", "AU"},
	{bothToken, "Both", "B"},
	{bothwayToken, "Bothway", "BW"},
	{briefToken, "Brief", "BR"},
	{bufferToken, "Buffer", "BF"},
	{contextAttrToken, "ContextAttr", "CT"},
	{contextAuditToken, "ContextAudit", "CA"},
	{contextListToken, "ContextList", "CLT"},
	{ctxToken, "Context", "C"},
	{delayToken, "Delay", "DL"},
	{digitMapToken, "DigitMap", "DM"},
	{directionToken, "SPADirection", "SPADI"},
	{disconnectedToken, "Disconnected", "DC"},
	{durationToken, "Duration", "DR"},
	{embedToken, "Embed", "EM"},
	{emergencyOffToken, "EmergencyOff", "EGO"},
	{emergencyToken, "Emergency", "EG"},
	{emergencyValueToken, "EmergencyValue", "EGV"},
	{errorToken, "Error", "ER"},
	{eventBufferToken, "EventBuffer", "EB"},
	{eventsToken, "Events", "E"},
	{externalToken, "External", "EX"},
	{failoverToken, "Failover", "FL"},
	{forcedToken, "Forced", "FO"},
	{gracefulToken, "Graceful", "GR"},
	{h221Token, "H221", ""},
	{h223Token, "H223", ""},
	{h226Token, "H226", ""},
	{handOffToken, "HandOff", "HO"},
	{iepsToken, "IEPSCall", "IEPS"},
	{immAckRequiredToken, "ImmAckRequired", "IA"},
	{inactiveToken, "Inactive", "IN"},
	{inSvcToken, "InService", "IV"},
	{internalToken, "Internal", "IT"},
	{interruptByEventToken, "IntByEvent", "IBE"},
	{interruptByNewSignalsDescrToken, "IntBySigDescr", "IBS"},
	{intsigDelayToken, "Intersignal", "SPAIS"},
	{isolateToken, "Isolate", "IS"},
	{iterationToken, "Iteration", "IR"},
	{keepActiveToken, "KeepActive", "KA"},
	{localControlToken, "LocalControl", "O"},
	{localToken, "Local", "L"},
	{lockStepToken, "LockStep", "SP"},
	{loopbackToken, "Loopback", "LB"},
	{mediaToken, "Media", "M"},
	{messageSegmentToken, "Segment", "SM"},
	{methodToken, "Method", "MT"},
	{mgcIdToken, "MgcIdToTry", "MG"},
	{modemToken, "Modem", "MD"},
	{modeToken, "Mode", "MO"},
	{modifyToken, "Modify", "MF"},
	{moveToken, "Move", "MV"},
	{muxToken, "Mux", "MX"},
	{neverNotifyToken, "NeverNotify", "NBNN"},
	{notifyCompletionToken, "NotifyCompletion", "NC"},
	{notifyImmediateToken, "ImmediateNotify", "NBIN"},
	{notifyRegulatedToken, "RegulatedNotify", "NBRN"},
	{notifyToken, "Notify", "N"},
	{nx64kToken, "Nx64Kservice", "N64"},
	{observedEventsToken, "ObservedEvents", "OE"},
	{onewayBothToken, "OnewayBoth", "OWB"},
	{onewayExternalToken, "OnewayExternal", "OWE"},
	{onewayToken, "Oneway", "OW"},
	{onOffToken, "OnOff", "OO"},
	{orAUDITselectToken, "ORLgc", ""},
	{otherReasonToken, "OtherReason", "OR"},
	{outOfSvcToken, "OutOfService", "OS"},
	{packagesToken, "Packages", "PG"},
	{pendingToken, "Pending", "PN"},
	{priorityToken, "Priority", "PR"},
	{profileToken, "Profile", "PF"},
	{reasonToken, "Reason", "RE"},
	{recvonlyToken, "ReceiveOnly", "RC"},
	{remoteToken, "Remote", "R"},
	{replyToken, "Reply", "P"},
	{requestIDToken, "SPARequestID", "SPARQ"},
	{reservedGroupToken, "ReservedGroup", "RG"},
	{reservedValueToken, "ReservedValue", "RV"},
	{resetEventsDescriptorToken, "ResetEventsDescriptor", "RSE"},
	{responseAckToken, "TransactionResponseAck", "K"},
	{restartToken, "Restart", "RS"},
	{sendonlyToken, "SendOnly", "SO"},
	{sendrecvToken, "SendReceive", "SR"},
	{serviceChangeAddressToken, "ServiceChangeAddress", "AD"},
	{serviceChangeIncompleteToken, "ServiceChangeInc", "SIC"},
	{serviceChangeToken, "ServiceChange", "SC"},
	{serviceStatesToken, "ServiceStates", "SI"},
	{servicesToken, "Services", "SV"},
	{signalListToken, "SignalList", "SL"},
	{signalsToken, "Signals", "SG"},
	{signalTypeToken, "SignalType", "SY"},
	{statsToken, "Statistics", "SA"},
	{streamToken, "Stream", "ST"},
	{subtractToken, "Subtract", "S"},
	{synchISDNToken, "SynchISDN", "SN"},
	{terminationStateToken, "TerminationState", "TS"},
	{testToken, "Test", "TE"},
	{timeOutToken, "TimeOut", "TO"},
	{topologyToken, "Topology", "TP"},
	{transToken, "Transaction", "T"},
	{v18Token, "V18", ""},
	{v22bisToken, "V22b", ""},
	{v22Token, "V22", ""},
	{v32bisToken, "V32b", ""},
	{v32Token, "V32", ""},
	{v34Token, "V34", ""},
	{v76Token, "V76", ""},
	{v90Token, "V90", ""},
	{v91Token, "V91", ""},
	{versionToken, "Version", "V"},
}

// lexKeywordAliases are spellings Erlang/OTP megaco 4.4 writes besides
// the ABNF's: "ANSLgc" (its AndAUDITSelectToken) and, in version 2 pretty
// text, the name of the token rule "EmergencyOffToken" (golden msg61a).
var lexKeywordAliases = []struct {
	tok  int
	word string
}{
	{andAUDITSelectToken, "ANSLgc"},
	{emergencyOffToken, "EmergencyOffToken"},
}

// lexLongNames gives the long spelling of each keyword token, for error
// messages.
var lexLongNames = map[int]string{}

func init() {
	for _, k := range lexKeywordSpellings {
		lexLongNames[k.tok] = k.long
		lexAddKeyword(k.tok, k.long)
		lexAddKeyword(k.tok, k.short)
	}
	for _, a := range lexKeywordAliases {
		lexAddKeyword(a.tok, a.word)
	}
}

func lexAddKeyword(tok int, w string) {
	if w == "" {
		return
	}
	lw := []byte(strings.ToLower(w))
	k := lexKey(lw)
	h := lexSlot(k, len(lw))
	for lexKeywords[h].tok != 0 {
		h = (h + 1) % uint32(len(lexKeywords))
	}
	lexKeywords[h], lexKeys[h] = lexKeyword{string(lw), tok}, k
}

// lexKey packs the first eight bytes of an alphanumeric word (fewer if it
// is shorter), lower case, into a little-endian word. It reads them at
// once when the word's slice has the capacity (it usually lies in the
// message), bytes beyond the word masked off.
func lexKey(w []byte) uint64 {
	n := min(len(w), 8)
	var k uint64
	if cap(w) >= 8 {
		k = binary.LittleEndian.Uint64(w[:8]) & lexMasks[n]
	} else {
		for i := n - 1; i >= 0; i-- {
			k = k<<8 | uint64(w[i])
		}
	}
	return k | 0x2020202020202020&lexMasks[n] // letters to lower case; digits stay
}

// lexMasks[n] keeps the low n bytes of a word.
var lexMasks = [9]uint64{0, 1<<8 - 1, 1<<16 - 1, 1<<24 - 1, 1<<32 - 1, 1<<40 - 1, 1<<48 - 1, 1<<56 - 1, 1<<64 - 1}

// lexSlot is the first slot of lexKeywords to look at for a word of
// length n whose lexKey is k.
func lexSlot(k uint64, n int) uint32 {
	return uint32((k^uint64(n))*0x9e3779b97f4a7c15>>55) % uint32(len(lexKeywords))
}

// lexLookup returns the keyword token an alphanumeric word spells, or 0.
func lexLookup(w []byte) int {
	n := len(w)
	if n == 0 || n > lexLongest {
		return 0
	}
	k := lexKey(w)
	for h := lexSlot(k, n); ; h = (h + 1) % uint32(len(lexKeywords)) {
		// Equal keys of words of under eight alphanumeric bytes (none
		// of them 0) mean equal words. An eight-byte word has the key
		// of every longer keyword it begins, so from eight bytes on
		// lexEqualFold checks the rest and the length. An empty slot's
		// key is 0, which no word's is: a hit needs no test for
		// emptiness first.
		e := &lexKeywords[h]
		if lexKeys[h] == k && (n < 8 || lexEqualFold(w[8:], e.word[8:])) {
			return e.tok
		}
		if e.tok == 0 {
			return 0
		}
	}
}

// lexEqualFold compares an alphanumeric word with a lower-case one.
func lexEqualFold(w []byte, lower string) bool {
	if len(w) != len(lower) {
		return false
	}
	for i, c := range w {
		if c|0x20 != lower[i] {
			return false
		}
	}
	return true
}

// lexAllDigits tells whether w is decimal digits only (true when empty),
// eight bytes a step where it can: time stamps are sixteen digits.
func lexAllDigits(w []byte) bool {
	for len(w) >= 8 {
		// Every byte 0x30..0x3F, and none of them above 0x39: adding 6
		// to each (no carries, given the first test) keeps it below 0x40.
		x := binary.LittleEndian.Uint64(w)
		if x&0xF0F0F0F0F0F0F0F0 != 0x3030303030303030 || (x+0x0606060606060606)&0xF0F0F0F0F0F0F0F0 != 0x3030303030303030 {
			return false
		}
		w = w[8:]
	}
	for _, c := range w {
		if c-'0' > 9 {
			return false
		}
	}
	return true
}

func lexIndexByte(w []byte, c byte) int {
	for i, b := range w {
		if b == c {
			return i
		}
	}
	return -1
}

func lexQuoteByte(c byte) string {
	const hex = "0123456789ABCDEF"
	if c >= 0x21 && c < 0x7f && c != '\'' {
		return "'" + string(rune(c)) + "'"
	}
	return "0x" + string([]byte{hex[c>>4], hex[c&15]})
}
