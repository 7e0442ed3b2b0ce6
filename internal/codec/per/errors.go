package per

import (
	"errors"
	"fmt"
	"strings"
)

// Error is the error type of every failing Encoder and Decoder method.
//
// BitOffset is the position, in bits from the start of the outermost
// encoding, of the item that could not be encoded or decoded (for a
// decoder working on an open type it is still counted from the start of
// the whole message, so offsets can be matched against a hex dump).
// Path is the ASN.1 component path, filled in from the inside out by the
// generated code through WithPath; Msg says what was expected.
type Error struct {
	BitOffset int
	Path      string
	Msg       string
}

// Error reads like the BER codec's: where (bit offset, or "encode"), then
// the field path, then what was wrong.
func (e *Error) Error() string {
	where := "encode"
	if e.BitOffset >= 0 {
		where = fmt.Sprintf("bit %d", e.BitOffset)
	}
	if e.Path != "" {
		return fmt.Sprintf("per: %s: %s: %s", where, e.Path, e.Msg)
	}
	return fmt.Sprintf("per: %s: %s", where, e.Msg)
}

// WithPath prefixes elem to the component path of err and returns err.
// Generated code calls it while an error travels outwards, so the path is
// built innermost-first: WithPath(WithPath(err, "version"), "mess") gives
// "mess.version". An elem starting with '[' (a SEQUENCE OF index such as
// "[3]") is joined without a dot. Errors that are not (or do not wrap) an
// *Error, and nil, are returned unchanged. A wrapper made with fmt.Errorf
// keeps the text it had when made, so add paths before wrapping.
func WithPath(err error, elem string) error {
	if err == nil || elem == "" {
		return err
	}
	var pe *Error
	if !errors.As(err, &pe) {
		return err
	}
	switch {
	case pe.Path == "":
		pe.Path = elem
	case strings.HasPrefix(pe.Path, "["):
		pe.Path = elem + pe.Path
	default:
		pe.Path = elem + "." + pe.Path
	}
	return err
}

// newError is kept out of line so that the hot paths calling it stay small
// enough to be inlined.
//
//go:noinline
func newError(bitOffset int, format string, args ...any) *Error {
	return &Error{BitOffset: bitOffset, Msg: fmt.Sprintf(format, args...)}
}

// sizeString renders a SIZE constraint for messages.
func sizeString(lb, ub int) string {
	if ub < 0 {
		return fmt.Sprintf("%d..MAX", lb)
	}
	return fmt.Sprintf("%d..%d", lb, ub)
}
