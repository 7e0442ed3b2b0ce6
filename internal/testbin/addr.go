package testbin

import (
	"io"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
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

// listen listens on a free port of 127.0.0.1 below the kernel's
// ephemeral range when there is room there: a port in that range, once
// closed, can be taken by any process's outgoing connection or listen on
// port 0 (other test packages run at the same time) before the test's
// peer binds it, as an OTP peer's listen once failed with eaddrinuse.
// Without such room (or the range unknown), port 0.
func listen(t testing.TB, network string) (io.Closer, string) {
	t.Helper()
	if lo := ephemeralLow(); lo > fixedLow+1000 {
		for range 50 {
			port := fixedLow + rand.IntN(lo-fixedLow)
			if c, a, err := listenOn(network, "127.0.0.1:"+strconv.Itoa(port)); err == nil {
				return c, a
			}
		}
	}
	c, a, err := listenOn(network, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return c, a
}

// fixedLow is the lowest port listen picks itself.
const fixedLow = 10000

// ephemeralLow is the first port of the kernel's ephemeral range, 0 when
// it cannot be read.
var ephemeralLow = sync.OnceValue(func() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0
	}
	lo, _ := strconv.Atoi(f[0])
	return lo
})

func listenOn(network, addr string) (io.Closer, string, error) {
	if network == "udp" {
		pc, err := net.ListenPacket("udp", addr)
		if err != nil {
			return nil, "", err
		}
		return pc, pc.LocalAddr().String(), nil
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", err
	}
	return l, l.Addr().String(), nil
}

// FreeAddr is one of FreeAddrs.
func FreeAddr(t testing.TB, network string) string {
	t.Helper()
	return FreeAddrs(t, network, 1)[0]
}
