package codec

import (
	"fmt"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// Scanner fills s with what scan reports of data, without decoding it
// (see package scan), within lim: at least down to s.Want, which it
// leaves as it is.
type Scanner func(data []byte, s *scan.Summary, lim limits.Limits) error

// Rewriter appends to dst a copy of data with the IDs ch names changed,
// byte for byte what decode -> change -> encode would give, within lim.
type Rewriter func(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error)

// Scan fills s (after resetting it, which keeps s.Want) from data in the
// codec called name, down to s.Want at least.
func Scan(name string, data []byte, s *scan.Summary, lim limits.Limits) error {
	d, ok := Describe(name)
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownCodec, name)
	}
	s.Reset()
	if d.Scan == nil {
		return notDone(d.Name, codecerr.Decode, "scan")
	}
	return d.Scan(data, s, lim)
}

// Rewrite appends to dst data (in the codec called name) with ch applied.
func Rewrite(name string, dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
	d, ok := Describe(name)
	if !ok {
		return dst, fmt.Errorf("%w %q", ErrUnknownCodec, name)
	}
	if d.Rewrite == nil {
		return dst, notDone(d.Name, codecerr.Encode, "rewrite")
	}
	return d.Rewrite(dst, data, ch, lim)
}

// NewRewriter returns a Rewrite for the codec called name with memory of
// its own where the codec has some to keep (Descriptor.NewRewriter): the
// callers that rewrite the same messages many times, such as a load
// generator's calls of one pattern, share one. It is safe for concurrent
// use.
func NewRewriter(name string) (Rewriter, error) {
	d, ok := Describe(name)
	switch {
	case !ok:
		return nil, fmt.Errorf("%w %q", ErrUnknownCodec, name)
	case d.NewRewriter != nil:
		return d.NewRewriter(), nil
	case d.Rewrite != nil:
		return d.Rewrite, nil
	}
	return func(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
		return Rewrite(name, dst, data, ch, lim) // which says it is not done
	}, nil
}

// A MIDSplicer appends to dst a copy of data with mid (the mId's contents
// in the codec's encoding) in place of the mId a Scan of data found at
// span, the rest of the bytes as they are: rewriting only the mId costs
// a copy, where a Rewriter scans the message again. It reports false,
// leaving the work to the Rewriter, when the message is not as the
// codec's encoder writes it there.
type MIDSplicer func(dst, data []byte, span scan.Span, mid []byte) ([]byte, bool)

// SpliceMID returns the MIDSplicer of the codec called name, nil when it
// has none (or there is no such codec).
func SpliceMID(name string) MIDSplicer {
	if d, ok := Describe(name); ok {
		return d.SpliceMID
	}
	return nil
}

func notDone(codec string, op codecerr.Op, what string) error {
	return codecerr.New(codec, op, codecerr.Unsupported, what+" is not implemented for this codec")
}

// A Salvager fills s (after resetting it) with what can be read of data
// that does not decode, for an answer to its requests: the version and
// the transactions as far as the message holds (a request's with its
// ID), and the message's own error; at most max of them. It checks
// nothing and never fails.
type Salvager func(data []byte, s *scan.Summary, max int)

// Salvage reads what survives of data in the codec called name
// (Salvager); for a codec without a Salvager, s is left empty.
func Salvage(name string, data []byte, s *scan.Summary, max int) {
	if d, ok := Describe(name); ok && d.Salvage != nil {
		d.Salvage(data, s, max)
		return
	}
	s.Reset()
}
