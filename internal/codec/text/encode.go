package text

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/model"
)

// Errors an encode can fail with, for errors.Is; every error Append
// returns is a *codecerr.Error whose Err is one of them.
var (
	// ErrBinaryForm: the message holds binary-form names or termination
	// IDs (what BER and PER decode to). Convert it with mapping.ToText
	// first.
	ErrBinaryForm = errors.New("message is in binary form")
	// ErrNotInVersion: the message uses something the text grammar of the
	// version being written lacks (a v3 construct in a v1 message...).
	ErrNotInVersion = errors.New("not in the text grammar of this version")
	// ErrNoTextForm: a field holds something no text encoding can carry
	// (a character a quoted string cannot hold, a number out of range, an
	// empty list the grammar requires items in...).
	ErrNoTextForm = errors.New("no text form")
)

// encErr is an encode error of class cause; the callers it passes
// through add the field path with codecerr.At and codecerr.AtIndex.
func encErr(cause error, msg string) *codecerr.Error {
	return &codecerr.Error{Codec: "text", Op: codecerr.Encode, Kind: codecerr.Schema, Msg: msg, Err: cause}
}

func encErrNoText(msg string) error          { return encErr(ErrNoTextForm, msg) }
func encErrVersion(msg string) error         { return encErr(ErrNotInVersion, msg) }
func encErrBinary(msg string) error          { return encErr(ErrBinaryForm, msg) }
func encErrNoTextf(f string, a ...any) error { return encErrNoText(encSprintf(f, a...)) }

// onlyIn reports a field that the version's grammar lacks.
func (e *textEncoder) onlyIn(field, what string, since int) error {
	return codecerr.At(encErrVersion(encSprintf("%s is not in the version %d text grammar (it needs version %d or later)", what, e.v, since)), field)
}

// Append appends the text encoding of m to b in the given style. m must
// be in text form (see package mapping: names, termination IDs and values
// as text); a message just decoded from BER or PER is in binary form and
// must go through mapping.ToText first. On error it returns b with its
// original length (the bytes after it, up to cap(b), may have been
// overwritten) and a *codecerr.Error.
func Append(b []byte, m *model.MegacoMessage, style Style, opts Options) ([]byte, error) {
	if m == nil {
		return b, encErrNoText("nil message")
	}
	if style != Pretty && style != Compact {
		return b, encErrNoTextf("unknown style %d", int(style))
	}
	v := opts.Version
	if v == 0 {
		v = int(m.Mess.Version)
	}
	if !limits.ValidVersion(v) {
		err := encErr(errors.Join(ErrNoTextForm, codecerr.ErrVersion), encSprintf("unsupported protocol version %d (1..3)", v))
		err.Kind = codecerr.Unsupported
		return b, codecerr.At(codecerr.At(err, "version"), "mess")
	}
	e := textEncoder{b: b, v: v, pretty: style == Pretty, words: &wordSpelling[style]}
	if err := e.megacoMessage(m); err != nil {
		return b, err
	}
	return e.b, nil
}

// textEncoder writes one message. ind arguments mirror OTP's indentation
// state: the number of tabs of the line a construct starts on; its items
// go one level deeper.
type textEncoder struct {
	b      []byte
	v      int
	pretty bool
	words  *[nWords]string
}

// encNewlineTabs is "\n" followed by tabs; nl slices it.
const encNewlineTabs = "\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"

// nl writes a line end and ind tabs (pretty only; callers check).
func (e *textEncoder) nl(ind int) {
	if ind < len(encNewlineTabs) {
		e.b = append(e.b, encNewlineTabs[:ind+1]...)
		return
	}
	e.b = append(e.b, '\n')
	for ; ind > 0; ind-- {
		e.b = append(e.b, '\t')
	}
}

// w writes a keyword.
func (e *textEncoder) w(x word) { e.b = append(e.b, e.words[x]...) }

// str writes s as is.
func (e *textEncoder) str(s string) { e.b = append(e.b, s...) }

// styled writes pretty or compact, as the style is. (In the compact
// style punctuation is one byte, which appends quicker than a string.)
func (e *textEncoder) styled(pretty string, compact byte) {
	if e.pretty {
		e.b = append(e.b, pretty...)
	} else {
		e.b = append(e.b, compact)
	}
}

// eq writes EQUAL: " = " or "=".
func (e *textEncoder) eq() { e.styled(" = ", '=') }

// open writes LBRKT of a construct at ind: " {" and a new line one level
// deeper, or "{"; close writes RBRKT.
func (e *textEncoder) open(ind int)  { e.openBracket('{', ind) }
func (e *textEncoder) close(ind int) { e.closeBracket('}', ind) }

// openSquare and closeSquare bracket a list of termination IDs or values
// (LSBRKT, RSBRKT).
func (e *textEncoder) openSquare(ind int)  { e.openBracket('[', ind) }
func (e *textEncoder) closeSquare(ind int) { e.closeBracket(']', ind) }

func (e *textEncoder) openBracket(c byte, ind int) {
	if e.pretty {
		e.b = append(e.b, ' ', c)
		e.nl(ind + 1)
	} else {
		e.b = append(e.b, c)
	}
}

func (e *textEncoder) closeBracket(c byte, ind int) {
	if e.pretty {
		e.nl(ind)
	}
	e.b = append(e.b, c)
}

// sep writes COMMA between items at ind.
func (e *textEncoder) sep(ind int) {
	e.b = append(e.b, ',')
	if e.pretty {
		e.nl(ind)
	}
}

// openInline and closeInline are the brackets OTP writes on one line
// (" { " and " } ", pretty) around error texts, SDP and empty audits.
func (e *textEncoder) openInline()  { e.styled(" { ", '{') }
func (e *textEncoder) closeInline() { e.styled(" } ", '}') }

// list tracks the items of a comma-separated list: item writes the
// separator before every item but the first; drop takes back a separator
// whose item turned out empty.
type itemList struct {
	n    int // items written
	mark int // length of the buffer before the last separator
}

func (e *textEncoder) item(l *itemList, ind int) {
	l.mark = len(e.b)
	if l.n > 0 {
		e.sep(ind)
	}
	l.n++
}

// keywordItem writes the keyword w as an item of l, if on.
func (e *textEncoder) keywordItem(l *itemList, ind int, on bool, w word) {
	if on {
		e.item(l, ind)
		e.w(w)
	}
}

// encItems writes every element of list as an item of l, with write; an
// error gets field[i] on its path.
func encItems[T any](e *textEncoder, l *itemList, ind int, field string, list []T, write func(*T, int) error) error {
	for i := range list {
		e.item(l, ind)
		if err := write(&list[i], ind); err != nil {
			return codecerr.At(codecerr.AtIndex(err, i), field)
		}
	}
	return nil
}

// done undoes the last item if it wrote nothing after its separator.
func (e *textEncoder) done(l *itemList, before int) {
	if len(e.b) == before {
		e.b = e.b[:l.mark]
		l.n--
	}
}

// uint writes a number in decimal; small ones (address octets, IDs,
// codes) without strconv.
func (e *textEncoder) uint(v uint64) {
	// Up to five digits (the IDs and timers messages mostly carry) without
	// strconv.AppendUint's call and copy, in 32-bit arithmetic.
	switch x := uint32(v); {
	case v < 10:
		e.b = append(e.b, byte('0'+x))
	case v < 100:
		e.b = append(e.b, byte('0'+x/10), byte('0'+x%10))
	case v < 1000:
		e.b = append(e.b, byte('0'+x/100), byte('0'+x/10%10), byte('0'+x%10))
	case v < 10000:
		e.b = append(e.b, byte('0'+x/1000), byte('0'+x/100%10), byte('0'+x/10%10), byte('0'+x%10))
	case v < 100000:
		e.b = append(e.b, byte('0'+x/10000), byte('0'+x/1000%10), byte('0'+x/100%10), byte('0'+x/10%10), byte('0'+x%10))
	default:
		e.b = strconv.AppendUint(e.b, v, 10)
	}
}

// uint16 writes a UINT16 field.
func (e *textEncoder) uint16(v uint32) error {
	if v > 65535 {
		return encErrNoTextf("%d does not fit UINT16", v)
	}
	e.uint(uint64(v))
	return nil
}

// digits writes a number the grammar limits to max (ErrorCode, Version,
// V4hex, timers).
func (e *textEncoder) digits(v uint64, max uint64) error {
	if v > max {
		return encErrNoTextf("%d is out of range (0..%d)", v, max)
	}
	e.uint(v)
	return nil
}

// encBinaryByte reports a byte no text-form name or ID has: a control
// character or one outside ASCII. Binary-form names (4-octet PkgdNames,
// 2-octet Names) and termination IDs practically always contain one.
func encBinaryByte(c byte) bool { return c < 0x20 || c >= 0x7f }

// name writes a NAME-like item: a package, event, signal, property,
// parameter, statistic or digit map name. The text form allows only
// SafeChars ("al/on", "nt/*", "*/*", "ds", "dialplan00").
func (e *textEncoder) name(s model.Octets, what string) error {
	if err := e.safeName(s, what); err != nil {
		return err
	}
	// A name without a package ("v", "IPv4": Annex C properties of the
	// binary encodings) that is also a keyword would read back as the
	// keyword ("v" is Version): it has no text form.
	if bytes.IndexByte(s, '/') < 0 && lexLookup(s) != 0 {
		e.b = e.b[:len(e.b)-len(s)]
		return encErrNoTextf("%s %q reads back as a text keyword", what, s)
	}
	return nil
}

// safeName writes a name of SafeChars: name's check without the keyword
// test, for SDP line names (inside Local and Remote, "v" is just v).
func (e *textEncoder) safeName(s model.Octets, what string) error {
	if len(s) == 0 {
		return encErrNoTextf("empty %s", what)
	}
	if len(s) > 64 {
		return encErrNoTextf("%s of %d characters (at most 64)", what, len(s))
	}
	for _, c := range s {
		if charClass[c]&chSafe == 0 {
			return e.badName(s, what)
		}
	}
	e.b = append(e.b, s...)
	return nil
}

func (e *textEncoder) badName(s []byte, what string) error {
	for _, c := range s {
		if encBinaryByte(c) {
			return encErrBinary(encSprintf("%s %X is not text: the message is in binary form; convert it with mapping.ToText before a text encode", what, s))
		}
	}
	return encErrNoTextf("%s %q has characters a text name cannot hold", what, s)
}

// termID writes a TerminationID in text form ("11111111/00000000/00000000",
// "$", "*", "root").
func (e *textEncoder) termID(t *model.TerminationID) error {
	if len(t.Wildcard) > 0 {
		return encErrBinary(encSprintf("termination ID {wildcard %X, id %X} is in binary form; convert the message with mapping.ToText before a text encode", t.Wildcard, []byte(t.Id)))
	}
	return e.termName(t.Id)
}

// termName writes a termination ID's name, checked as the grammar's
// pathNAME: what termID writes of an ID in text form.
func (e *textEncoder) termName(s []byte) error {
	if len(s) == 0 {
		return encErrNoText("empty termination ID")
	}
	if len(s) > 64 {
		return encErrNoTextf("termination ID of %d characters (at most 64)", len(s))
	}
	// Eight bytes at a time while they are digits and slashes, what the
	// IDs of a layout's text form hold ("11111111/00000000/00000000"):
	// a quarter of the byte loop's instructions. A byte b is in '/'..'9'
	// when neither b-'/' nor b-'/'+0x75 has its high bit set (a borrow
	// from a byte outside reaches only the bytes above it, which the
	// byte loop reads again anyway).
	i := 0
	for ; i+8 <= len(s); i += 8 {
		t := binary.LittleEndian.Uint64(s[i:]) - 0x2f2f2f2f2f2f2f2f
		if (t|(t+0x7575757575757575))&0x8080808080808080 != 0 {
			break
		}
	}
	for _, c := range s[i:] {
		if charClass[c]&(chName|chPath) == 0 {
			for _, c := range s {
				if encBinaryByte(c) {
					return encErrBinary(encSprintf("termination ID %X is not text: the message is in binary form; convert it with mapping.ToText before a text encode", []byte(s)))
				}
			}
			return encErrNoTextf("termination ID %q has characters a pathNAME cannot hold", s)
		}
	}
	e.b = append(e.b, s...)
	return nil
}

// value writes a VALUE (property, parameter or statistic value) as OTP
// does: bare when it is one or more SafeChars, else quoted. A double
// quote, a control character (and, before v3, a line end or a non-ASCII
// octet) has no text form. Unlike OTP, a value with an upper-case letter
// is quoted too: bare SafeChars are case-insensitive (Annex B.1; OTP's
// decoder lowercases them), so only the quotedString form keeps "CT"
// apart from "ct".
func (e *textEncoder) value(s []byte) error {
	quote := len(s) == 0
	for _, c := range s {
		k := charClass[c]
		if k&chSafe != 0 {
			quote = quote || c-'A' < 26
			continue
		}
		if k&(chRest|chWSP) != 0 || (e.v >= 3 && k&(chEOL|chHigh) != 0) {
			quote = true
			continue
		}
		return e.badChar(s, c, "value")
	}
	if quote {
		e.b = append(e.b, '"')
		e.b = append(e.b, s...)
		e.b = append(e.b, '"')
		return nil
	}
	e.b = append(e.b, s...)
	return nil
}

// quoted writes a quotedString (error texts, ServiceChange reasons, the
// dd/ce ds value): always quoted.
func (e *textEncoder) quoted(s []byte, what string) error { return encAppendQuoted(e, s, what) }

// encAppendQuoted is quoted for strings and byte slices alike, so that
// neither needs converting (which would allocate).
func encAppendQuoted[S string | []byte](e *textEncoder, s S, what string) error {
	for i := 0; i < len(s); i++ {
		k := charClass[s[i]]
		if k&(chSafe|chRest|chWSP) != 0 || (e.v >= 3 && k&(chEOL|chHigh) != 0) {
			continue
		}
		return e.badChar([]byte(s), s[i], what)
	}
	e.b = append(e.b, '"')
	e.b = append(e.b, s...)
	e.b = append(e.b, '"')
	return nil
}

func (e *textEncoder) badChar(s []byte, c byte, what string) error {
	switch {
	case c == '"':
		return encErrNoTextf("%s %q: a quoted string cannot hold a double quote", what, s)
	case charClass[c]&(chEOL|chHigh) != 0:
		return encErrVersion(encSprintf("%s %q: a quoted string holds line ends and non-ASCII octets only from version 3 on", what, s))
	}
	return encErrNoTextf("%s %q: character %q has no text form", what, s, c)
}

func encSprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
