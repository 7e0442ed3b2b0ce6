// Package limits holds what every codec shares about its input: the
// bounds a decode works within and the protocol versions there are.
package limits

import (
	"strconv"

	"megaco/internal/codec/codecerr"
)

// Limits bound the work and memory a decode may take, whatever the input.
// A zero field means the default.
type Limits struct {
	MaxSize     int // total input bytes
	MaxDepth    int // nesting of constructed elements, braces and brackets
	MaxElements int // elements in the whole message (TLVs, list items, fields)
}

// Default fits real Megaco traffic (a message is at most a few kilobytes
// over UDP, tens over TCP) with a wide margin.
var Default = Limits{MaxSize: 1 << 20, MaxDepth: 64, MaxElements: 1 << 17}

// OrDefault fills the zero fields of l from Default.
func (l Limits) OrDefault() Limits {
	if l.MaxSize <= 0 {
		l.MaxSize = Default.MaxSize
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = Default.MaxDepth
	}
	if l.MaxElements <= 0 {
		l.MaxElements = Default.MaxElements
	}
	return l
}

// The protocol versions of H.248.1 there are schemas and grammars for.
const (
	MinVersion = 1
	MaxVersion = 3
)

// ValidVersion reports whether v is a protocol version with a schema.
func ValidVersion(v int) bool { return v >= MinVersion && v <= MaxVersion }

// CheckOption checks a version given as an option: 0 (read it from the
// message) or a version with a schema.
func CheckOption(codec string, v int) error {
	if v == 0 || ValidVersion(v) {
		return nil
	}
	e := codecerr.New(codec, codecerr.Decode, codecerr.Unsupported,
		"unsupported protocol version "+strconv.Itoa(v)+" (want 1, 2 or 3)")
	e.Err = codecerr.ErrVersion
	return e
}

// VersionError reports a message whose mess.version field holds v, not a
// version with a schema (check with ValidVersion first: this only builds
// the error). pos is where a decoder read the field; an encoder has none.
func VersionError(codec string, op codecerr.Op, pos codecerr.Pos, v int) *codecerr.Error {
	e := codecerr.New(codec, op, codecerr.Unsupported, "unsupported protocol version "+strconv.Itoa(v)+" (1..3)")
	e.Pos, e.Err = pos, codecerr.ErrVersion
	return e.SetPath("mess.version")
}

// CheckSize refuses an input of n bytes over MaxSize (a zero MaxSize: the
// default) before a decoder reads any of it; pos is where the decoder
// reports it (the start of the input, in its own unit).
func (l Limits) CheckSize(codec string, pos codecerr.Pos, n int) error {
	max := l.OrDefault().MaxSize
	if n <= max {
		return nil
	}
	e := codecerr.New(codec, codecerr.Decode, codecerr.TooLarge,
		"message of "+strconv.Itoa(n)+" bytes exceeds the limit of "+strconv.Itoa(max))
	e.Pos = pos
	return e
}
