package testbin

import "testing"

// TestFreeAddrsDistinct: addresses handed out by separate calls never
// repeat, although each call closes its listeners before returning (the
// kernel may give a port just closed to the next listen on port 0).
func TestFreeAddrsDistinct(t *testing.T) {
	for _, network := range []string{"udp", "tcp"} {
		seen := map[string]bool{}
		for range 200 {
			for _, a := range FreeAddrs(t, network, 2) {
				if seen[a] {
					t.Fatalf("%s %s handed out twice", network, a)
				}
				seen[a] = true
			}
		}
	}
}
