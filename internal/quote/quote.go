// Package quote quotes input that is echoed into an error, a status or a
// log line. It is a leaf: the codecs (through codecerr.Quote) and the
// text <-> binary mapping, which must not import the codec layer, quote
// alike.
package quote

import (
	"strconv"
	"unicode/utf8"
)

// Max is the longest input Clip shows whole, in bytes.
const Max = 64

// Clip is strconv.Quote for input echoed into an error, a status or a
// log line: input longer than Max bytes is cut to its first Max bytes
// followed by its length, so a client cannot make an error as large as
// its request. Input that is not text (not UTF-8, or with control
// characters other than tab and line ends: a binary message) is shown
// as hex, its first Max/2 bytes:
//
//	"dialplan12"
//	"xxxxxxxx...xxxx"... (60000 bytes)
//	0x3082014f0201... (335 bytes)
func Clip(s string) string {
	if !IsText(s) {
		return Hex(s)
	}
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:Max]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// Hex shows s as hex digits after 0x, cut after its first Max/2 bytes
// (then followed by its length).
func Hex(s string) string {
	const digits = "0123456789abcdef"
	n := min(len(s), Max/2)
	b := make([]byte, 0, 2+2*n+24)
	b = append(b, "0x"...)
	for i := range n {
		b = append(b, digits[s[i]>>4], digits[s[i]&15])
	}
	if n < len(s) {
		b = append(b, "... ("...)
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, " bytes)"...)
	}
	return string(b)
}

// IsText reports whether s is UTF-8 without control characters other
// than tab, CR and LF: input to echo as it is, not as hex.
func IsText[T string | []byte](s T) bool {
	for _, r := range string(s) {
		if r == utf8.RuneError || r < 0x20 && r != '\t' && r != '\r' && r != '\n' || r == 0x7f {
			return false
		}
	}
	return true
}
