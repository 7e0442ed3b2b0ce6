package testbin

import (
	"net"
	"strconv"
	"testing"
)

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

// TestFreeAddrsBelowEphemeral: where the kernel's ephemeral range is
// known and leaves room below it, the ports come from below it, where no
// outgoing connection or listen on port 0 takes them meanwhile.
func TestFreeAddrsBelowEphemeral(t *testing.T) {
	lo := ephemeralLow()
	if lo <= fixedLow+1000 {
		t.Skipf("ephemeral range from %d: no room below it", lo)
	}
	for _, network := range []string{"udp", "tcp"} {
		for _, a := range FreeAddrs(t, network, 5) {
			_, p, _ := net.SplitHostPort(a)
			if port, _ := strconv.Atoi(p); port < fixedLow || port >= lo {
				t.Errorf("%s %s: not in [%d, %d)", network, a, fixedLow, lo)
			}
		}
	}
}
