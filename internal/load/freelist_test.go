package load

import "testing"

// TestFreeList: a value put back is the next one got, a new one is made
// when none is free, and past maxFree values put back are dropped.
func TestFreeList(t *testing.T) {
	made := 0
	l := freeList[int]{New: func() *int { made++; return new(int) }}
	a := l.Get()
	l.Put(a)
	if b := l.Get(); b != a || made != 1 {
		t.Errorf("got %p after putting %p back; %d made", b, a, made)
	}
	for range maxFree + 10 {
		l.Put(new(int))
	}
	if len(l.free) != maxFree {
		t.Errorf("%d values kept, want %d", len(l.free), maxFree)
	}
}
