package load

import "sync"

// freeList keeps the values calls return for the next calls. Unlike a
// sync.Pool it keeps them across garbage collections: a new Builder and
// its first call cost about 165,000 instructions (its patchers' first
// buffers; about 80,000 for a call on a kept one), and a pool emptied by each
// collection made busy runs clone them again and again. It holds
// at most maxFree values (as many as calls ran at once, if fewer): past
// that a value returned is left to the garbage collector.
type freeList[T any] struct {
	mu   sync.Mutex
	free []*T
	New  func() *T
}

func (l *freeList[T]) Get() *T {
	l.mu.Lock()
	if n := len(l.free); n > 0 {
		v := l.free[n-1]
		l.free[n-1] = nil
		l.free = l.free[:n-1]
		l.mu.Unlock()
		return v
	}
	l.mu.Unlock()
	return l.New()
}

// maxFree bounds a free list: a Builder holds some tens of kilobytes, and
// calls in progress rarely number more than a thousand.
const maxFree = 1024

func (l *freeList[T]) Put(v *T) {
	l.mu.Lock()
	if len(l.free) < maxFree {
		l.free = append(l.free, v)
	}
	l.mu.Unlock()
}
