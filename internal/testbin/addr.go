package testbin

import (
	"io"
	"net"
	"testing"
)

// FreeAddrs returns n distinct 127.0.0.1 addresses of network ("udp" or
// "tcp") that were free a moment ago: each is listened on with port 0
// until all are chosen, then closed. For tests whose processes must know
// each other's addresses before any of them starts.
func FreeAddrs(t testing.TB, network string, n int) []string {
	t.Helper()
	var addrs []string
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	for len(addrs) < n {
		var c io.Closer
		var a net.Addr
		if network == "udp" {
			pc, err := net.ListenPacket("udp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			c, a = pc, pc.LocalAddr()
		} else {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			c, a = l, l.Addr()
		}
		closers = append(closers, c)
		addrs = append(addrs, a.String())
	}
	return addrs
}

// FreeAddr is one of FreeAddrs.
func FreeAddr(t testing.TB, network string) string {
	t.Helper()
	return FreeAddrs(t, network, 1)[0]
}
