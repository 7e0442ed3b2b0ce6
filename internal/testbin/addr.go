package testbin

import (
	"io"
	"net"
	"sync"
	"testing"
)

// given holds the addresses FreeAddrs has handed out in this process, by
// network: a port closed a moment ago may come back from the next
// listen on port 0, and two calls (one test's peers, then its proxy)
// must not both get it.
var given = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// FreeAddrs returns n distinct 127.0.0.1 addresses of network ("udp" or
// "tcp") that were free a moment ago and that no earlier call in this
// process returned: each is listened on with port 0 until all are
// chosen, then closed. For tests whose processes must know each other's
// addresses before any of them starts.
func FreeAddrs(t testing.TB, network string, n int) []string {
	t.Helper()
	var addrs []string
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	given.Lock()
	defer given.Unlock()
	for tries := 0; len(addrs) < n; tries++ {
		if tries > 100*n {
			t.Fatalf("no %s port on 127.0.0.1 that this process has not handed out already", network)
		}
		c, a := listen(t, network)
		closers = append(closers, c) // held until all are chosen, repeats too
		if key := network + " " + a; !given.m[key] {
			given.m[key] = true
			addrs = append(addrs, a)
		}
	}
	return addrs
}

// listen listens on a free port of 127.0.0.1.
func listen(t testing.TB, network string) (io.Closer, string) {
	t.Helper()
	if network == "udp" {
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		return pc, pc.LocalAddr().String()
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l, l.Addr().String()
}

// FreeAddr is one of FreeAddrs.
func FreeAddr(t testing.TB, network string) string {
	t.Helper()
	return FreeAddrs(t, network, 1)[0]
}
