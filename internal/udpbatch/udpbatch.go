// Package udpbatch reads and writes UDP datagrams several at a time: on
// Linux one recvmmsg or sendmmsg system call per batch, with the headers,
// buffers and socket addresses allocated once, so a datagram costs no
// allocation (golang.org/x/net's batch API allocates each datagram's
// address). Elsewhere a batch is one datagram per call, behind the same
// API.
//
// A Reader and a Writer each belong to one goroutine; a socket may have
// one of each in different goroutines, as reads and writes are
// independent system calls. The socket is one of package net's (a
// *net.UDPConn): non-blocking, the runtime's poller waiting for it.
package udpbatch

import "net/netip"

// Out is one datagram to send.
type Out struct {
	B  []byte
	To netip.AddrPort
}
