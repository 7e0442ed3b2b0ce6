// Package slab hands out values of one type from shared chunks, so that a
// decode makes a few large allocations instead of one per optional field
// or list, and a reused decoder, once warm, allocates nothing.
//
// Handing out memory never moves what was handed out before: when a chunk
// is full a new one is made, and the old one lives on as long as the
// message that points into it does.
package slab

import (
	"sync"
	"unsafe"

	"megaco/internal/model"
)

// Slab is a source of T values. The zero value is ready to use.
//
// A slab serves either one message at a time (Reset between them: a
// reused decoder) or, after Keep, many messages that each keep their
// values: chunks are shared, and a message's values live as long as any
// value of their chunk does.
type Slab[T any] struct {
	buf   []T
	chunk int  // the size of the current chunk
	kept  bool // Keep was called: small chunks, never reused
}

const (
	minChunk = 1
	// maxKept bounds, in bytes, the chunks of a slab after Keep, so that
	// a message kept long keeps little of the others alive.
	maxKept = 4 << 10
)

// Alloc returns n zeroed values. n == 0 gives a non-nil empty slice:
// in the message model a present but empty list differs from an absent
// (nil) one.
func Alloc[T any](s *Slab[T], n int) []T {
	out := s.Raw(n)
	clear(out) // a reused chunk still holds the previous message
	return out
}

// One returns a pointer to one zeroed value.
func One[T any](s *Slab[T]) *T { return &Alloc(s, 1)[0] }

// Reset makes the slab's current chunk available again. Values handed out
// before must no longer be used.
func (s *Slab[T]) Reset() {
	if s.kept {
		panic("slab: Reset after Keep")
	}
	s.buf = s.buf[:0]
}

// Keep makes the slab hand out values for good, to messages that are
// kept: it must not be Reset afterwards (values are only ever handed out
// after the ones before them, so nothing is handed out twice), and its
// new chunks stay small.
func (s *Slab[T]) Keep() { s.kept = true }

// One returns a pointer to one zeroed value.
func (s *Slab[T]) One() *T { return One(s) }

// Zeroed returns n zeroed values.
func (s *Slab[T]) Zeroed(n int) []T { return Alloc(s, n) }

// Raw returns n values whose content is left over from earlier use: for a
// caller that sets every one of them at once (a copy). n == 0 gives a
// non-nil empty slice.
func (s *Slab[T]) Raw(n int) []T {
	if n == 0 {
		return []T{}
	}
	if cap(s.buf)-len(s.buf) < n {
		s.chunk = max(2*s.chunk, n, minChunk)
		if s.kept {
			var t T
			s.chunk = max(min(s.chunk, maxKept/max(int(unsafe.Sizeof(t)), 1)), n)
		}
		s.buf = make([]T, 0, s.chunk)
	}
	start := len(s.buf)
	s.buf = s.buf[:start+n]
	return s.buf[start : start+n : start+n]
}

// Room returns what Raw(n) does when the current chunk has room for n
// values, nil when it has not (or the slab has no chunk yet): small
// enough to be inlined, for a decoder's hot path that falls back on Raw.
// Room(0) is an empty slice of the chunk, non-nil as Raw(0) is: an empty
// list (a TerminationID's wildcard) costs no call.
func (s *Slab[T]) Room(n int) []T {
	// Through a local copy: after the store to s.buf the compiler would
	// load its capacity again for the second slicing, and check it. The
	// end compared with the capacity (rather than n with the room left)
	// lets the compiler drop the bounds check of the slicing.
	buf := s.buf
	start := len(buf)
	end := start + n
	if end > cap(buf) {
		return nil
	}
	buf = buf[:end]
	s.buf = buf
	return buf[start:end:end]
}

// Pool keeps values of T for reuse (decoders with their slabs), each with
// the function that gives it back made once: handing one out and back
// allocates nothing, where a closure made per Get would. A Pool must not
// be copied after first use.
type Pool[T any] struct{ p sync.Pool }

type pooled[T any] struct {
	v       T
	release func()
}

// Get returns a value, as its last user left it (zero when new), and the
// function that gives it back to the pool.
func (p *Pool[T]) Get() (*T, func()) {
	if x, ok := p.p.Get().(*pooled[T]); ok {
		return &x.v, x.release
	}
	x := new(pooled[T])
	x.release = func() { p.p.Put(x) }
	return &x.v, x.release
}

// DecodeReused decodes data with a decoder from p, made ready by use (which
// gives it the caller's options): the message lives in the decoder's
// memory until release gives the decoder back. On error the decoder goes
// back at once and release does nothing. It is every codec's DecodeReused.
func DecodeReused[T any, D interface {
	*T
	Decode(data []byte) (*model.MegacoMessage, error)
}](p *Pool[T], data []byte, use func(D)) (m *model.MegacoMessage, release func(), err error) {
	x, release := p.Get()
	d := D(x)
	use(d)
	if m, err = d.Decode(data); err != nil {
		release()
		return nil, nop, err
	}
	return m, release, nil
}

func nop() {}
