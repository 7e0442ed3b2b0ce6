package x691

import (
	"fmt"

	"megaco/internal/codec/codecerr"
)

// Every failing Reader or Writer method returns a *codecerr.Error of codec
// "per" (the encoding this package writes) whose position is a bit offset:
// for a Reader, where the item that could not be decoded starts, counted
// from the start of the outermost encoding (also inside an open type, so
// offsets can be matched against a hex dump); for a Writer, the number of
// bits written before the value that did not fit. Callers add the ASN.1
// component path with codecerr.At while the error travels outwards.

// The constructors are kept out of line, with the arguments the callers
// had before the error type was shared, so that the hot paths calling
// them stay small enough to be inlined and keep their registers.

//go:noinline
func malformed(bit int, format string, args ...any) *codecerr.Error {
	return newError(codecerr.Decode, codecerr.Malformed, bit, format, args)
}

//go:noinline
func tooLarge(bit int, format string, args ...any) *codecerr.Error {
	return newError(codecerr.Decode, codecerr.TooLarge, bit, format, args)
}

//go:noinline
func unsupported(bit int, format string, args ...any) *codecerr.Error {
	return newError(codecerr.Decode, codecerr.Unsupported, bit, format, args)
}

// badValue reports a value a Writer cannot encode under its constraint.
//
//go:noinline
func badValue(bit int, format string, args ...any) *codecerr.Error {
	return newError(codecerr.Encode, codecerr.Schema, bit, format, args)
}

// badCall reports arguments no schema can give a Reader (a constraint
// with ub < lb, say): an error of the caller, not of the input.
//
//go:noinline
func badCall(bit int, format string, args ...any) *codecerr.Error {
	return newError(codecerr.Decode, codecerr.Schema, bit, format, args)
}

func newError(op codecerr.Op, kind codecerr.Kind, bit int, format string, args []any) *codecerr.Error {
	return &codecerr.Error{Codec: "per", Op: op, Kind: kind, Pos: codecerr.AtBit(bit), Msg: fmt.Sprintf(format, args...)}
}

// Errorf returns a decode error of the given kind at the current position,
// for the checks a caller makes on what it has read.
func (d *Reader) Errorf(kind codecerr.Kind, format string, args ...any) *codecerr.Error {
	return newError(codecerr.Decode, kind, d.base+d.pos, format, args)
}

// errorf reports input that breaks the encoding at bit at of d.buf.
func (d *Reader) errorf(at int, format string, args ...any) *codecerr.Error {
	return malformed(d.base+at, format, args...)
}

// tooLarge reports a value or length beyond what the reader handles.
func (d *Reader) tooLarge(at int, format string, args ...any) *codecerr.Error {
	return tooLarge(d.base+at, format, args...)
}

func (d *Reader) badCall(format string, args ...any) *codecerr.Error {
	return badCall(d.base+d.pos, format, args...)
}

// errorf reports a value that does not fit its constraint.
func (e *Writer) errorf(format string, args ...any) *codecerr.Error {
	return badValue(e.BitLen(), format, args...)
}

// sizeString renders a SIZE constraint for messages.
func sizeString(lb, ub int) string {
	if ub < 0 {
		return fmt.Sprintf("%d..MAX", lb)
	}
	return fmt.Sprintf("%d..%d", lb, ub)
}
