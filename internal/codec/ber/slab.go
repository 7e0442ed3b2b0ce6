package ber

// slab hands out values of one type from shared chunks, so a decode makes
// a few large allocations instead of one per optional field or list; a
// reused Decoder keeps its chunks and, once warm, allocates nothing.
//
// Handing out memory never moves what was handed out before: when a chunk
// is full a new one is made, and the old one lives on as long as the
// message that points into it.
type slab[T any] struct {
	buf []T
}

const minChunk = 4

func alloc[T any](s *slab[T], n int) []T {
	if n == 0 {
		// Present but empty differs from absent (nil) in the model.
		return []T{}
	}
	if cap(s.buf)-len(s.buf) < n {
		s.buf = make([]T, 0, max(2*cap(s.buf), n, minChunk))
	}
	start := len(s.buf)
	s.buf = s.buf[:start+n]
	out := s.buf[start : start+n : start+n]
	clear(out) // a reused chunk still holds the previous message
	return out
}

func (s *slab[T]) reset() { s.buf = s.buf[:0] }
