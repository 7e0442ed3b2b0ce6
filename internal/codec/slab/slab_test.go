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

// TestKeep: after Keep, what was handed out is never handed out again,
// chunks stay within maxKept bytes (unless one request needs more), and
// Reset is refused.
func TestKeep(t *testing.T) {
	var s Slab[[64]byte]
	s.Keep()
	var got []*[64]byte
	for i := range 200 {
		p := One(&s)
		p[0] = byte(i)
		got = append(got, p)
	}
	for i, p := range got {
		if p[0] != byte(i) {
			t.Fatalf("value %d overwritten: %d", i, p[0])
		}
	}
	if s.chunk*64 > maxKept {
		t.Errorf("chunk of %d values of 64 bytes, over %d bytes", s.chunk, maxKept)
	}
	if big := Alloc(&s, 100); len(big) != 100 {
		t.Errorf("a request over the chunk bound: %d values", len(big))
	}
	defer func() {
		if recover() == nil {
			t.Error("Reset after Keep did not panic")
		}
	}()
	s.Reset()
}

func TestRoom(t *testing.T) {
	var s Slab[int]
	if got := s.Room(0); got != nil {
		t.Fatalf("Room(0) with no chunk = %#v, want nil (use Raw)", got)
	}
	s.Raw(8)      // fills the first chunk
	a := s.Raw(2) // a new one, with room left
	a[0], a[1] = 1, 2
	if got := s.Room(0); got == nil || len(got) != 0 || cap(got) != 0 {
		t.Fatalf("Room(0) = %#v, want non-nil, empty, no capacity", got)
	}
	b := s.Room(3)
	if len(b) != 3 || cap(b) != 3 {
		t.Fatalf("Room(3) = len %d cap %d, want 3 3", len(b), cap(b))
	}
	b[0] = 9
	if a[0] != 1 || a[1] != 2 {
		t.Fatalf("Room(3) overlaps Raw(2): %v", a)
	}
	if got := s.Room(1 << 20); got != nil {
		t.Fatalf("Room past the chunk = len %d, want nil", len(got))
	}
}
