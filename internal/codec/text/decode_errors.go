package text

import (
	"slices"
	"strconv"
	"strings"

	"megaco/internal/codec/codecerr"
	"megaco/internal/quote"
)

// Errors of a decode: where they are (line and column), the first one
// found, and the "expected ..., found ..." of a syntax error.

// Error is the parser's report of a syntax error at the current token.
func (d *decoder) Error(string) {
	if d.err != nil {
		return
	}
	if d.cur().kind == lexError {
		d.fail(d.sc.errKind, d.sc.errAt, d.sc.errMsg)
		return
	}
	d.err = d.errorAt(codecerr.Malformed, d.cur().s.pos, "")
	d.errSyntax = true
}

// errorAt makes an error at the byte offset off of the message.
func (d *decoder) errorAt(kind codecerr.Kind, off int32, msg string) *codecerr.Error {
	return &codecerr.Error{Codec: d.name, Op: codecerr.Decode, Kind: kind, Pos: d.place(off), Msg: msg}
}

// place gives the line and column of an offset.
func (d *decoder) place(off int32) codecerr.Pos { return placeIn(d.src, int(off)) }

// placeIn gives the line and column of the byte offset off of src, for
// the errors of the decoder and of Scan alike.
func placeIn(src []byte, off int) codecerr.Pos {
	line, col := 1, 1
	src = src[:min(off, len(src))]
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			line, col = line+1, 1
			continue
		case '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				line, col = line+1, 1
				continue
			}
		}
		col++
	}
	return codecerr.AtLine(line, col, int(off))
}

// fail records an error at s, unless one was found before. The parse
// stops at the next token: the scanner has none left to give (lexError,
// which no rule takes; Error then keeps the first error).
func (d *decoder) fail(kind codecerr.Kind, s span, msg string) {
	if d.err == nil {
		d.err = d.errorAt(kind, s.pos, msg)
		d.sc.mode = lexEndOfTokens
		d.lexN = d.lexAt // the tokens read ahead are not to be taken
	}
}

// failAt records that the text at s breaks the encoding.
func (d *decoder) failAt(s span, msg string) { d.fail(codecerr.Malformed, s, msg) }

// need checks that the message's version has a construct.
func (d *decoder) need(v int, at span, what string) {
	if d.version < v {
		d.failAt(at, what+" is not in version "+strconv.Itoa(d.version)+" (it needs version "+strconv.Itoa(v)+" or later)")
	}
}

// noModelField reports valid text the message model has no field for.
func (d *decoder) noModelField(at span, what string) {
	d.fail(codecerr.Unsupported, at, what+" has no field in the message model")
}

// noInequality reports a '<', '>' or '#' selection the model cannot hold.
func (d *decoder) noInequality(at span, what string) {
	d.noModelField(at, what+" with '<', '>' or '#'")
	d.param(pNone, at, 0)
}

// ---------------------------------------------------------------------
// Syntax errors.

// describeSyntaxError fills in d.err for the token the parser could not
// take: what it found, what it could have taken, and after what. The
// parser's tables say what it could have taken; to ask them, the tokens up
// to the bad one are run through them again.
func (d *decoder) describeSyntaxError() {
	kinds, prev := lrExpected(d.src, d.lim.MaxDepth, d.ntok()-1)
	expected := decDescribeExpected(kinds)
	var b strings.Builder
	if len(expected) > 0 {
		b.WriteString("expected ")
		for i, x := range expected {
			switch {
			case i == 0:
			case i == len(expected)-1:
				b.WriteString(" or ")
			default:
				b.WriteString(", ")
			}
			b.WriteString(x)
		}
	} else {
		b.WriteString("unexpected token")
	}
	if d.ntok() > 1 {
		b.WriteString(" after ")
		b.WriteString(d.describe(prev))
	}
	b.WriteString(", found ")
	b.WriteString(d.describe(d.cur()))
	d.err.Msg = b.String()
}

// describe names the token found, with its text where that helps.
func (d *decoder) describe(t lexToken) string {
	switch t.kind {
	case safeChars, versionHeader:
		return d.quote(t.s)
	case digitMapTimer:
		return "digit map timer " + d.quote(t.s)
	case ipv4Token, ipv6Token:
		return "address " + d.plain(t.s)
	case domainToken:
		return "domain name " + d.plain(t.s)
	}
	return kindName(t.kind)
}

// plain is the token's text as it is, or hex when it is not text.
func (d *decoder) plain(s span) string {
	if w := d.bytes(s); quote.IsText(w) {
		return string(w)
	}
	return quote.Hex(string(d.bytes(s)))
}

// kindName names a kind of token in an error message: "end of message",
// "'='", "a name or value", a keyword's long spelling...
func kindName(k int) string {
	switch k {
	case 0:
		return "end of message"
	case safeChars:
		return "a name or value"
	case quotedString:
		return "a quoted string"
	case octetString:
		return "SDP"
	case digitMapTimer:
		return "a digit map timer"
	case digitMapBody:
		return "a digit map"
	case versionHeader:
		return "MEGACO/version"
	case ipv4Token, ipv6Token:
		return "an address"
	case domainToken:
		return "a domain name"
	case optionalPrefix:
		return "O-"
	case wildcardPrefix:
		return "W-"
	case mtpToken:
		return "MTP"
	}
	if name, ok := lexLongNames[k]; ok {
		return name
	}
	if k > 0 && k < 128 {
		return lexQuoteByte(byte(k))
	}
	return "token " + strconv.Itoa(k)
}

// lexTokenGroups name sets of keywords that an error message lists as
// one item when all of them would do.
var lexTokenGroups = []struct {
	name string
	toks []int
}{
	{"a transaction", []int{transToken, replyToken, pendingToken, responseAckToken, messageSegmentToken}},
	{"a command", []int{addToken, moveToken, modifyToken, subtractToken, auditValueToken, auditCapToken, notifyToken, serviceChangeToken}},
	{"a context property", []int{topologyToken, priorityToken, emergencyToken, emergencyOffToken, iepsToken, contextAttrToken}},
	{"a descriptor", []int{mediaToken, modemToken, muxToken, eventsToken, signalsToken, digitMapToken, eventBufferToken, statsToken}},
	{"a stream mode", []int{sendonlyToken, recvonlyToken, sendrecvToken, inactiveToken, loopbackToken}},
	{"a ServiceChange method", []int{failoverToken, forcedToken, gracefulToken, restartToken, disconnectedToken, handOffToken}},
	{"a ServiceChange parameter", []int{methodToken, reasonToken, delayToken, serviceChangeAddressToken, profileToken, mgcIdToken, versionToken}},
	{"a signal parameter", []int{streamToken, signalTypeToken, durationToken, notifyCompletionToken, keepActiveToken}},
	{"a modem type", []int{v18Token, v22Token, v22bisToken, v32Token, v32bisToken, v34Token, v90Token, v91Token, synchISDNToken}},
	{"a notification reason", []int{timeOutToken, interruptByEventToken, interruptByNewSignalsDescrToken, otherReasonToken}},
}

// decDescribeExpected names the tokens the parser could have taken. Where a
// name may stand, the keywords that would be read as one are not listed;
// a whole group of keywords is named once.
func decDescribeExpected(kinds []int) []string {
	set := map[int]bool{}
	for _, k := range kinds {
		set[k] = true
	}
	// Where a name may stand, the keywords come along (a hundred of
	// them): they go without saying.
	if set[safeChars] {
		n := 0
		for k := range set {
			if lexLongNames[k] != "" {
				n++
			}
		}
		if n > 50 {
			for k := range lexLongNames {
				delete(set, k)
			}
		}
	}
	var out []string
	var keywords []string
	for _, g := range lexTokenGroups {
		all := true
		for _, t := range g.toks {
			all = all && set[t]
		}
		if all {
			keywords = append(keywords, g.name)
			for _, t := range g.toks {
				delete(set, t)
			}
		}
	}
	for _, k := range kinds {
		if !set[k] {
			continue
		}
		// Keywords come first, the rest after them, each name once
		// (IPv4 and IPv6 are both "an address").
		if name, ok := lexLongNames[k]; ok {
			keywords = append(keywords, name)
		} else if name := kindName(k); !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	out = append(keywords, out...)
	if len(out) > 8 {
		out = append(out[:7:7], "...")
	}
	return out
}
