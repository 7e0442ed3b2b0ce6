package monotime

import (
	"testing"
	"time"
)

// Instants follow the clock and their arithmetic is a duration's.
func TestNow(t *testing.T) {
	a := Now()
	time.Sleep(2 * time.Millisecond)
	b := Now()
	if d := b.Sub(a); d < 2*time.Millisecond || !a.Before(b) || a.Add(d) != b {
		t.Errorf("a %v, b %v: b-a %v", a, b, d)
	}
}
