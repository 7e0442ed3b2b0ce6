// Command nullrelay is the floor a proxy's cost is measured against: it
// carries bytes between a controller and a gateway as `megaco proxy`
// does, with the same flags for the addresses, but looks at nothing.
// Over UDP each datagram costs one read and one write (a goroutine per
// socket); over TCP an accepted connection is paired with one it dials
// to the other side's peer and the bytes are copied both ways, one read
// and one write per chunk read, TPKT framing untouched.
//
//	go run ./internal/proxy/nullrelay --mgc udp://127.0.0.1:3944 --mgc-listen udp://127.0.0.1:2944 \
//	    --mg udp://127.0.0.1:3945 --mg-listen udp://127.0.0.1:2945
//
// It runs until SIGINT or SIGTERM. It is a measuring tool for loopback
// tests, not a product: no routing table, no metrics, no limits beyond a
// bound on connections.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// maxConns bounds the TCP connections open at once.
const maxConns = 256

type side struct {
	listen, peer string // host:port
}

func main() {
	mgcListen := flag.String("mgc-listen", "udp://127.0.0.1:2944", "where the relay listens for the MGC")
	mgc := flag.String("mgc", "udp://127.0.0.1:3944", "the MGC's address")
	mgListen := flag.String("mg-listen", "udp://127.0.0.1:2945", "where the relay listens for the MG")
	mg := flag.String("mg", "udp://127.0.0.1:3945", "the MG's address")
	flag.Parse()
	network, sides, err := parse(*mgcListen, *mgc, *mgListen, *mg)
	if err == nil {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
		defer stop()
		if network == "udp" {
			err = relayUDP(ctx, sides)
		} else {
			err = relayTCP(ctx, sides)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "nullrelay:", err)
		os.Exit(1)
	}
}

// parse reads the four addresses, which must share one transport.
func parse(addrs ...string) (string, [2]side, error) {
	var sides [2]side
	var network string
	hp := make([]string, len(addrs))
	for i, a := range addrs {
		n, rest, ok := strings.Cut(a, "://")
		if !ok || (n != "udp" && n != "tcp") || (network != "" && n != network) {
			return "", sides, fmt.Errorf("address %q: want udp://host:port or tcp://host:port, one transport for all", a)
		}
		network, hp[i] = n, rest
	}
	sides[0] = side{hp[0], hp[1]}
	sides[1] = side{hp[2], hp[3]}
	return network, sides, nil
}

// relayUDP carries each datagram from one side's socket out of the
// other's, to that side's peer.
func relayUDP(ctx context.Context, sides [2]side) error {
	var conns [2]*net.UDPConn
	var peers [2]netip.AddrPort
	for i, s := range sides {
		a, err := net.ResolveUDPAddr("udp", s.peer)
		if err != nil {
			return err
		}
		peers[i] = a.AddrPort()
		l, err := net.ResolveUDPAddr("udp", s.listen)
		if err != nil {
			return err
		}
		if conns[i], err = net.ListenUDP("udp", l); err != nil {
			return err
		}
		defer conns[i].Close()
	}
	errs := make(chan error, 2)
	for i := range conns {
		go func() {
			in, out, to := conns[i], conns[1-i], peers[1-i]
			buf := make([]byte, 65536)
			for {
				n, _, err := in.ReadFromUDPAddrPort(buf)
				if err != nil {
					errs <- err
					return
				}
				out.WriteToUDPAddrPort(buf[:n], to) // a lost datagram is the peers' to retransmit
			}
		}()
	}
	select {
	case <-ctx.Done():
		return nil
	case err := <-errs:
		return err
	}
}

// relayTCP pairs each accepted connection with one to the other side's
// peer and copies both ways until either closes.
func relayTCP(ctx context.Context, sides [2]side) error {
	var open atomic.Int32
	errs := make(chan error, 2)
	for i, s := range sides {
		ln, err := net.Listen("tcp", s.listen)
		if err != nil {
			return err
		}
		defer ln.Close()
		other := sides[1-i].peer
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					errs <- err
					return
				}
				if open.Add(1) > maxConns {
					open.Add(-1)
					c.Close()
					continue
				}
				go func() {
					defer open.Add(-1)
					pair(c, other)
				}()
			}
		}()
	}
	select {
	case <-ctx.Done():
		return nil
	case err := <-errs:
		if errors.Is(err, net.ErrClosed) {
			return nil
		}
		return err
	}
}

// pair dials peer for c and copies between the two until one ends.
func pair(c net.Conn, peer string) {
	defer c.Close()
	d, err := net.DialTimeout("tcp", peer, 5*time.Second)
	if err != nil {
		return
	}
	defer d.Close()
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		buf := make([]byte, 64<<10)
		io.CopyBuffer(onlyWriter{dst}, onlyReader{src}, buf) // plain read and write: no splice
		dst.Close()
		src.Close()
		done <- struct{}{}
	}
	go cp(d, c)
	go cp(c, d)
	<-done
	<-done
}

// onlyReader and onlyWriter hide the connections' ReadFrom and WriteTo,
// so that io.CopyBuffer reads and writes through its buffer.
type onlyReader struct{ io.Reader }
type onlyWriter struct{ io.Writer }
