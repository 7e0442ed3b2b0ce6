// Package codecerr is the one error type of every codec and of the text
// <-> binary name mapping. A caller (the server, the CLI, the metrics)
// reads the codec, the operation, the kind, the field path and the
// position of any failure from an *Error, whatever produced it:
//
//	var e *codecerr.Error
//	if errors.As(err, &e) { log(e.Codec, e.Kind, e.Path(), e.Pos) }
//
// The package knows nothing of its users: a codec builds an Error where
// the input goes wrong and adds field names with At and AtIndex while the
// error travels outwards, so the path is built innermost first without
// any work on the success path.
//
// Adding a kind: add a constant before numKinds and its label in
// kindNames; metrics label their error series with Kind.String, so the
// label set stays bounded.
package codecerr

import (
	"errors"
	"strconv"
	"strings"

	"megaco/internal/quote"
)

// ErrVersion is the cause (Error.Err) of every error about a protocol
// version without a schema or grammar, for errors.Is: an outward
// classifier tells it from other Unsupported errors by it, not by the
// message.
var ErrVersion = errors.New("unsupported protocol version")

// Op is the operation that failed.
type Op uint8

const (
	Decode Op = iota // bytes -> model
	Encode           // model -> bytes
	Map              // text form <-> binary form of a decoded model
)

func (o Op) String() string {
	switch o {
	case Encode:
		return "encode"
	case Map:
		return "map"
	}
	return "decode"
}

// Kind says what sort of failure it is; metrics count errors by it.
type Kind uint8

const (
	// Malformed: the input breaks the rules of its encoding.
	Malformed Kind = iota
	// TooLarge: the input goes past a limit (size, depth, elements).
	TooLarge
	// Unsupported: valid, but not handled here (a protocol version, a
	// construct this build has no form for).
	Unsupported
	// Mapping: a name, termination ID or value has no form on the other
	// side of the text <-> binary mapping.
	Mapping
	// Schema: the message does not fit the schema or grammar of the
	// version being written.
	Schema
	numKinds
)

var kindNames = [numKinds]string{"malformed", "too_large", "unsupported", "mapping", "schema"}

// String is the kind's metric label.
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Kinds lists every kind, in order.
func Kinds() []Kind {
	out := make([]Kind, numKinds)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// Unit says what a position counts.
type Unit uint8

const (
	NoPos   Unit = iota // the error has no place in the input (encoding, mapping)
	Byte                // Offset is in bytes from the start of the input
	Bit                 // Offset is in bits from the start of the input
	LineCol             // Line and Column (1-based, columns in bytes); Offset in bytes
)

// Pos is where in the input a decode failed.
type Pos struct {
	Unit         Unit
	Offset       int
	Line, Column int
}

// AtByte returns a byte position.
func AtByte(off int) Pos { return Pos{Unit: Byte, Offset: off} }

// AtBit returns a bit position.
func AtBit(off int) Pos { return Pos{Unit: Bit, Offset: off} }

// AtLine returns a line:column position, with its byte offset.
func AtLine(line, col, off int) Pos { return Pos{Unit: LineCol, Line: line, Column: col, Offset: off} }

// String renders the position as errors show it: "offset 37", "bit 75",
// "3:17", or "" without one.
func (p Pos) String() string {
	switch p.Unit {
	case Byte:
		return "offset " + strconv.Itoa(p.Offset)
	case Bit:
		return "bit " + strconv.Itoa(p.Offset)
	case LineCol:
		return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
	}
	return ""
}

// Error is a failure of a codec or of the mapping.
type Error struct {
	Codec string // "ber", "per", "pretty", "compact", "text", "native", "mapping"...
	Op    Op
	Kind  Kind
	Pos   Pos
	Msg   string // what was wrong, without the place
	// Err is the cause or a class for errors.Is (mapping.ErrNoBinary,
	// text.ErrNoTextForm, pkgs.ErrUnknown...); it is not shown by Error.
	Err  error
	path []string // innermost first: appended while the error unwinds
}

// New returns an error with no place in the input.
func New(codec string, op Op, kind Kind, msg string) *Error {
	return &Error{Codec: codec, Op: op, Kind: kind, Msg: msg}
}

// Path renders the field path, outermost first, with ASN.1 field names:
// "mess.messageBody.transactions[0].transactionRequest".
func (e *Error) Path() string {
	var b strings.Builder
	for i := len(e.path) - 1; i >= 0; i-- {
		p := e.path[i]
		if p == "" {
			continue
		}
		if b.Len() > 0 && p[0] != '[' {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// SetPath replaces the path with p (outermost first, dotted as Path
// renders it), for errors made where the whole path is already known.
func (e *Error) SetPath(p string) *Error {
	e.path = append(e.path[:0], p)
	return e
}

// Where is the position, or the operation when there is none ("encode"
// for an encoder's error), as errors and API responses show it.
func (e *Error) Where() string {
	if s := e.Pos.String(); s != "" {
		return s
	}
	if e.Op == Map {
		return ""
	}
	return e.Op.String()
}

// Error reads "codec: where: path: message", leaving out what is empty:
//
//	ber: offset 24: mess.messageBody: length 127 exceeds the 72 bytes left
//	compact: 3:17: expected '=' after ServiceChange, found ','
//	mapping: mess.mId: ...
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Codec)
	b.WriteString(": ")
	if w := e.Where(); w != "" {
		b.WriteString(w)
		b.WriteString(": ")
	}
	if p := e.Path(); p != "" {
		b.WriteString(p)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap gives the cause to errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// At adds field as the next outer element of err's path when err is an
// *Error, and returns err (nil stays nil; other errors pass unchanged).
//
// Callers often write `return codecerr.At(f(), "field")` on the success
// path too, so the nil test is inlined at the call and the rest is not:
// the generated codecs call it at thousands of error returns, and the
// whole body inlined there would double their code.
func At(err error, field string) error {
	if err == nil {
		return nil
	}
	return at(err, field)
}

//go:noinline
func at(err error, field string) error {
	if e, ok := err.(*Error); ok && field != "" {
		e.path = append(e.path, field)
	}
	return err
}

// AtIndex adds "[i]" (an element of a SEQUENCE OF) to err's path.
func AtIndex(err error, i int) error {
	if e, ok := err.(*Error); ok {
		e.path = append(e.path, "["+strconv.Itoa(i)+"]")
	}
	return err
}

// As returns the *Error in err's chain, if there is one.
func As(err error) (*Error, bool) {
	for err != nil {
		if e, ok := err.(*Error); ok {
			return e, true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				if e, ok := As(x); ok {
					return e, true
				}
			}
			return nil, false
		default:
			return nil, false
		}
	}
	return nil, false
}

// QuoteMax is the longest input Quote shows whole, in bytes.
const QuoteMax = quote.Max

// Quote is quote.Clip: strconv.Quote for input echoed into an error, cut
// after QuoteMax bytes and followed by the input's length; input that is
// not text (a binary message) is shown as hex.
func Quote(s string) string { return quote.Clip(s) }
