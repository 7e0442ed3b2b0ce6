package load

import "sync"

// freeList keeps the values calls return for the next calls. Unlike a
// sync.Pool it keeps them across garbage collections: a Builder costs
// about 700,000 instructions to clone (its patchers), and a pool emptied
// by each collection made busy runs clone them again and again. It holds
// at most as many values as calls ran at once.
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

func (l *freeList[T]) Put(v *T) {
	l.mu.Lock()
	l.free = append(l.free, v)
	l.mu.Unlock()
}
