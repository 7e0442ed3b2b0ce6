// Package quote quotes input that is echoed into an error, a status or a
// log line. It is a leaf: the codecs (through codecerr.Quote) and the
// text <-> binary mapping, which must not import the codec layer, quote
// alike.
package quote

import "strconv"

// Max is the longest input Clip shows whole, in bytes.
const Max = 64

// Clip is strconv.Quote for input echoed into an error, a status or a
// log line: input longer than Max bytes is cut to its first Max bytes
// followed by its length, so a client cannot make an error as large as
// its request:
//
//	"dialplan12"
//	"xxxxxxxx...xxxx"... (60000 bytes)
func Clip(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:Max]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}
