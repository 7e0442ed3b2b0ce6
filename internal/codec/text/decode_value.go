package text

import (
	"strconv"
	"unsafe"

	"megaco/internal/codec/codecerr"
	"megaco/internal/model"
	"megaco/internal/quote"
)

// Reading tokens: what the bytes of a terminal mean (numbers, IDs,
// ON/OFF, time stamps, hex). A token that does not read records an error
// at its place and gives a zero value; the parse stops at the next token.

func (d *decoder) octets(s span) model.Octets { return d.src[s.pos:s.end:s.end] }

func (d *decoder) str(s span) string {
	if s.end <= s.pos {
		return ""
	}
	return unsafe.String(&d.src[s.pos], int(s.end-s.pos))
}

func (d *decoder) bytes(s span) []byte { return d.src[s.pos:s.end] }

// num reads a decimal number of at most max.
func (d *decoder) num(s span, max uint64, what string) uint32 {
	// Most numbers are short: up to nine digits n cannot overflow, and
	// the loop needs no test of n per digit. Anything else (and every
	// error) takes the general way below.
	if w := d.bytes(s); len(w) <= 9 && len(w) <= d.maxDigits {
		n := uint64(0)
		for _, c := range w {
			v := c - '0'
			if v > 9 {
				n = max + 1
				break
			}
			n = n*10 + uint64(v)
		}
		if n <= max && len(w) > 0 {
			return uint32(n)
		}
	}
	return d.numSlow(s, max, what)
}

// numSlow is num for long numbers and errors.
func (d *decoder) numSlow(s span, max uint64, what string) uint32 {
	// One pass: n stops growing once past max (max*10+9 fits in 64 bits),
	// and the checks after it come in the order of their messages.
	w := d.bytes(s)
	var n uint64
	digits := len(w) > 0
	for _, c := range w {
		v := c - '0'
		if v > 9 {
			digits = false
			break
		}
		if n <= max {
			n = n*10 + uint64(v)
		}
	}
	switch {
	case !digits:
		d.failAt(s, what+" "+d.quote(s)+" is not a number")
		return 0
	case len(w) > d.maxDigits:
		d.fail(codecerr.TooLarge, s, what+" has more than "+strconv.Itoa(d.maxDigits)+" digits")
		return 0
	case n > max:
		d.failAt(s, what+" "+d.quote(s)+" is out of range 0.."+strconv.Itoa(int(max)))
		return 0
	}
	return uint32(n)
}

func (d *decoder) num32(s span, what string) uint32 { return d.num(s, 1<<32-1, what) }
func (d *decoder) num16(s span, what string) uint32 { return d.num(s, 1<<16-1, what) }

// quote shows a token in an error message, shortened if long.
func (d *decoder) quote(s span) string {
	w := d.bytes(s)
	if !quote.IsText(w) {
		return quote.Hex(string(w)) // binary input, read as text
	}
	if len(w) > 40 {
		return `"` + string(w[:37]) + `..."`
	}
	return `"` + string(w) + `"`
}

func (d *decoder) is(s span, lower string) bool { return lexEqualFold(d.bytes(s), lower) }

// contextID reads ContextID = (UINT32 / "*" / "-" / "$").
func (d *decoder) contextIDValue(s span) uint32 {
	switch string(d.bytes(s)) {
	case "-":
		return 0
	case "$":
		return 0xFFFFFFFE
	case "*":
		return 0xFFFFFFFF
	}
	n := d.num32(s, "context ID")
	if (n == 0 || n >= 0xFFFFFFFE) && d.err == nil {
		// Annex B ContextID: "The values 0x0, 0xFFFFFFFE and 0xFFFFFFFF
		// are reserved"; they are written "-", "$" and "*".
		d.failAt(s, "context ID "+d.quote(s)+" is reserved (the null, choose and all contexts are written -, $ and *)")
	}
	return n
}

// requestID reads RequestID = (UINT32 / "*").
func (d *decoder) requestID(s span) uint32 {
	if w := d.bytes(s); len(w) == 1 && w[0] == '*' {
		return 0xFFFFFFFF
	}
	return d.num32(s, "request ID")
}

// onOff reads "ON" / "OFF".
func (d *decoder) onOff(s span) bool {
	switch {
	case d.is(s, "on"):
		return true
	case d.is(s, "off"):
		return false
	}
	d.failAt(s, "expected ON or OFF, found "+d.quote(s))
	return false
}

func (d *decoder) onOffParam(kind decParamKind, s span) {
	var u uint32
	if d.onOff(s) {
		u = 1
	}
	d.param(kind, s, u)
}

// off reads the "OFF" of eventBufferControlValue.
func (d *decoder) off(s span) int {
	if !d.is(s, "off") {
		d.failAt(s, "expected OFF or LockStep, found "+d.quote(s))
	}
	return int(model.EventBufferControl_Off)
}

// split cuts s at the first c.
func (d *decoder) split(s span, c byte) (span, span, bool) {
	if i := lexIndexByte(d.bytes(s), c); i >= 0 {
		at := s.pos + int32(i)
		return span{s.pos, at}, span{at + 1, s.end}, true
	}
	return s, span{s.end, s.end}, false
}

// timeNotation reads TimeStamp = Date "T" Time, 8 digits each.
func (d *decoder) timeNotation(s span) *model.TimeNotation {
	w := d.bytes(s)
	if len(w) != 17 || w[8]|0x20 != 't' || !lexAllDigits(w[:8]) || !lexAllDigits(w[9:]) {
		d.failAt(s, "time stamp "+d.quote(s)+" is not yyyymmddThhmmssss")
	}
	t := decOne(&d.sl.TimeNotation)
	if len(w) == 17 {
		t.Date, t.Time = d.str(span{s.pos, s.pos + 8}), d.str(span{s.pos + 9, s.end})
	}
	return t
}

// hex reads "0x" and min..max hex digits as octets.
func (d *decoder) hex(s span, lo, hi int, what string) model.Octets {
	w := d.bytes(s)
	if len(w) < 2 || w[0] != '0' || w[1]|0x20 != 'x' || len(w)-2 < lo || len(w)-2 > hi || (len(w)-2)%2 != 0 {
		d.failAt(s, what+" "+d.quote(s)+" is not 0x and "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi)+" hex digits")
		return model.Octets{}
	}
	w = w[2:]
	out := d.sl.bytes.Zeroed(len(w) / 2)
	for i := range out {
		hi, ok1 := lexHexValue(w[2*i])
		lo, ok2 := lexHexValue(w[2*i+1])
		if !ok1 || !ok2 {
			d.failAt(s, what+" "+d.quote(s)+" is not 0x and hex digits")
		}
		out[i] = hi<<4 | lo
	}
	return out
}

func lexHexValue(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c|0x20 && c|0x20 <= 'f':
		return c | 0x20 - 'a' + 10, true
	}
	return 0, false
}
