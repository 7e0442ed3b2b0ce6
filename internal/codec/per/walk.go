package per

import (
	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/per/x691"
)

// walker is what the decoder and the scanner share: the X.691 reader and
// the limits that span nested values, checked the same way by both.
type walker struct {
	x691.Reader
	lim   limits.Limits
	depth int
	elems int
}

// start makes w read data, a whole message, from its first bit: no
// length inside it may claim more bits than it has.
func (w *walker) start(data []byte, lim limits.Limits) {
	w.Reader = x691.NewReader(data)
	w.SetMaxLength(len(data) * 8)
	w.lim, w.depth, w.elems = lim, 0, 0
}

// version reads the message's version (see PeekVersion) without moving w.
func (w *walker) version() (int, error) {
	probe := w.Reader
	v, err := peekVersion(&probe)
	if err != nil {
		return 0, err
	}
	// Bit 2 is where the version starts when there is no authHeader.
	if !limits.ValidVersion(v) {
		return 0, limits.VersionError("per", codecerr.Decode, codecerr.AtBit(2), v)
	}
	return v, nil
}

// errorf reports input that breaks the schema at the current position.
// It stays out of line: the generated code calls it at hundreds of places.
//
//go:noinline
func (w *walker) errorf(format string, args ...any) error {
	return w.Errorf(codecerr.Malformed, format, args...)
}

// enter and count are called for every value and list: their errors are
// built out of line, so that they inline.
func (w *walker) enter() error {
	if w.depth++; w.depth > w.lim.MaxDepth {
		return w.tooDeep()
	}
	return nil
}

func (w *walker) leave() { w.depth-- }

//go:noinline
func (w *walker) tooDeep() error {
	return w.Errorf(codecerr.TooLarge, "nesting deeper than %d", w.lim.MaxDepth)
}

// count charges n list elements against the element limit before they
// are allocated or walked: elements may take no bits at all, and nested
// lists would otherwise multiply.
func (w *walker) count(n int) error {
	if w.elems += n; w.elems > w.lim.MaxElements {
		return w.tooMany()
	}
	return nil
}

//go:noinline
func (w *walker) tooMany() error {
	return w.Errorf(codecerr.TooLarge, "more than %d elements", w.lim.MaxElements)
}
