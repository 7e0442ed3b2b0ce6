package slab

import "testing"

func TestAlloc(t *testing.T) {
	var s Slab[int]
	if got := Alloc(&s, 0); got == nil || len(got) != 0 {
		t.Fatalf("Alloc(0) = %#v, want non-nil empty", got)
	}
	a := Alloc(&s, 3)
	for i := range a {
		a[i] = i + 1
	}
	b := Alloc(&s, 10) // does not fit: a new chunk, a unchanged
	if a[0] != 1 || a[2] != 3 || len(b) != 10 {
		t.Fatalf("earlier values moved: %v", a)
	}
	b = append(b, 99) // capped: cannot write into the slab
	_ = b
	c := Alloc(&s, 1)
	if c[0] != 0 {
		t.Fatal("append through a handed-out slice wrote into the slab")
	}
	p := One(&s)
	*p = 7
	s.Reset()
	if q := One(&s); *q != 0 {
		t.Fatal("reused memory not zeroed")
	}
}

func TestReuseAllocatesNothing(t *testing.T) {
	var s Slab[[4]int]
	for i := 0; i < 3; i++ {
		s.Reset()
		Alloc(&s, 5)
		One(&s)
	}
	allocs := testing.AllocsPerRun(100, func() {
		s.Reset()
		Alloc(&s, 5)
		One(&s)
	})
	if allocs != 0 {
		t.Errorf("warm slab allocated %v times", allocs)
	}
}

// TestPool: handing values out and back allocates nothing once the pool
// holds one.
func TestPool(t *testing.T) {
	var p Pool[[64]byte]
	_, release := p.Get()
	release()
	if n := testing.AllocsPerRun(100, func() {
		_, r := p.Get()
		r()
	}); n != 0 {
		t.Errorf("Get and release allocate %v times", n)
	}
}
