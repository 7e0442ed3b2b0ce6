package udpbatch

import (
	"bytes"
	"errors"
	"net"
	"net/netip"
	"runtime"
	"strings"
	"testing"
	"time"
)

func listen(t *testing.T, network, addr string) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP(network, net.UDPAddrFromAddrPort(netip.MustParseAddrPort(addr)))
	if err != nil {
		t.Skipf("no %s here: %v", addr, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func addrOf(c *net.UDPConn) netip.AddrPort {
	a := c.LocalAddr().(*net.UDPAddr).AddrPort()
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// TestRoundTrip sends a batch from one socket to another of each family
// (and IPv4 peers of a dual-stack socket): every datagram arrives whole,
// in order, with its sender's address.
func TestRoundTrip(t *testing.T) {
	for _, c := range []struct{ network, from, to string }{
		{"udp4", "127.0.0.1:0", "127.0.0.1:0"},
		{"udp6", "[::1]:0", "[::1]:0"},
		{"udp", "[::]:0", "127.0.0.1:0"}, // dual-stack sender, IPv4 receiver
		{"udp", "127.0.0.1:0", "[::]:0"}, // IPv4 sender, dual-stack receiver (a mapped address)
	} {
		t.Run(c.from+"->"+c.to, func(t *testing.T) {
			src := listen(t, c.network, c.from)
			dst := listen(t, c.network, c.to)
			to := addrOf(dst)
			if to.Addr().IsUnspecified() {
				to = netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), to.Port())
			}
			w, err := NewWriter(src)
			if err != nil {
				t.Fatal(err)
			}
			r, err := NewReader(dst, 8, 2048)
			if err != nil {
				t.Fatal(err)
			}
			const n = 20
			out := make([]Out, n)
			for i := range out {
				out[i] = Out{B: bytes.Repeat([]byte{byte('a' + i)}, 100+i), To: to}
			}
			for sent := 0; sent < n; {
				k, err := w.Write(out[sent:])
				if err != nil {
					t.Fatalf("write: %v", err)
				}
				sent += k
			}
			dst.SetReadDeadline(time.Now().Add(5 * time.Second))
			for got := 0; got < n; {
				k, err := r.Read()
				if err != nil {
					t.Fatalf("read after %d: %v", got, err)
				}
				if k < 1 || k > 8 {
					t.Fatalf("read %d datagrams, want 1..8", k)
				}
				for i := range k {
					b, from := r.Datagram(i)
					if !bytes.Equal(b, out[got].B) {
						t.Fatalf("datagram %d: %d bytes %q..., want %d", got, len(b), b[:min(len(b), 4)], len(out[got].B))
					}
					if from.Port() != addrOf(src).Port() || !from.Addr().IsLoopback() {
						t.Fatalf("datagram %d from %v, want port %d on loopback", got, from, addrOf(src).Port())
					}
					got++
				}
			}
		})
	}
}

// TestWriteFamily: an IPv6 destination cannot leave an IPv4 socket; the
// datagrams before it are sent and the error comes with it.
func TestWriteFamily(t *testing.T) {
	src := listen(t, "udp4", "127.0.0.1:0")
	dst := listen(t, "udp4", "127.0.0.1:0")
	w, err := NewWriter(src)
	if err != nil {
		t.Fatal(err)
	}
	out := []Out{{B: []byte("a"), To: addrOf(dst)}, {B: []byte("b"), To: netip.MustParseAddrPort("[2001:db8::1]:9")}}
	if k, err := w.Write(out); k != 1 || err != nil {
		t.Fatalf("first write: %d, %v; want 1, nil", k, err)
	}
	if k, err := w.Write(out[1:]); k != 0 || err == nil {
		t.Fatalf("second write: %d, %v; want 0 and an error", k, err)
	}
}

// TestNoAllocations: once made, a reader and a writer allocate nothing
// per batch (Linux; elsewhere a plain read allocates nothing either).
func TestNoAllocations(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the batch calls are Linux's")
	}
	src := listen(t, "udp4", "127.0.0.1:0")
	dst := listen(t, "udp4", "127.0.0.1:0")
	w, _ := NewWriter(src)
	r, _ := NewReader(dst, 4, 2048)
	out := []Out{{B: []byte("one"), To: addrOf(dst)}, {B: []byte("two"), To: addrOf(dst)}}
	dst.SetReadDeadline(time.Now().Add(5 * time.Second))
	var err error
	allocs := testing.AllocsPerRun(100, func() {
		if _, err = w.Write(out); err != nil {
			return
		}
		for got := 0; got < len(out) && err == nil; {
			var k int
			k, err = r.Read()
			got += k
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if allocs != 0 {
		t.Errorf("%v allocations per batch, want 0", allocs)
	}
}

// TestReadClosed: a read on a closed socket fails with net.ErrClosed.
func TestReadClosed(t *testing.T) {
	c := listen(t, "udp4", "127.0.0.1:0")
	r, _ := NewReader(c, 4, 64)
	done := make(chan error)
	go func() { _, err := r.Read(); done <- err }()
	time.Sleep(10 * time.Millisecond)
	c.Close()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("read on a closed socket: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("read did not return after close")
	}
}

// TestEach: the loop waits for the poller only after a short batch, and
// still gets every datagram, sent while it handles a batch or while it
// waits, with a raw reader as the proxy uses; fn's false ends it.
func TestEach(t *testing.T) {
	src := listen(t, "udp4", "127.0.0.1:0")
	dst := listen(t, "udp4", "127.0.0.1:0")
	r, err := NewReader(dst, 4, 64)
	if err != nil {
		t.Fatal(err)
	}
	r.Raw()
	dst.SetReadDeadline(time.Now().Add(10 * time.Second))
	send := func(b string) {
		if _, err := src.WriteToUDPAddrPort([]byte(b), addrOf(dst)); err != nil {
			t.Error(err)
		}
	}
	send("a")
	send("b")
	var got []string
	err = r.Each(func(k int) bool {
		for i := range k {
			b, _ := r.Datagram(i)
			got = append(got, string(b))
		}
		switch len(got) {
		case 2: // a short batch, and one more while it is handled
			send("c")
		case 3: // one sent while the loop waits
			go func() { time.Sleep(10 * time.Millisecond); send("d") }()
		case 4: // a full batch and the rest
			for _, b := range []string{"e", "f", "g", "h", "i"} {
				send(b)
			}
		}
		return len(got) < 9
	})
	if err != nil {
		t.Fatalf("after %q: %v", got, err)
	}
	if want := "abcdefghi"; strings.Join(got, "") != want {
		t.Errorf("got %q, want %s", got, want)
	}
}
