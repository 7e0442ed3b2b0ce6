//go:build !linux

package udpbatch

import (
	"net"
	"net/netip"
	"syscall"
)

// Reader reads one datagram per call where there is no recvmmsg.
type Reader struct {
	c    *net.UDPConn
	buf  []byte
	n    int
	from netip.AddrPort
}

// NewReader makes a reader; n is ignored here.
func NewReader(c syscall.Conn, n, size int) (*Reader, error) {
	u, ok := c.(*net.UDPConn)
	if !ok {
		return nil, errNotUDP
	}
	return &Reader{c: u, buf: make([]byte, size)}, nil
}

// Read waits for one datagram.
func (r *Reader) Read() (int, error) {
	n, from, err := r.c.ReadFromUDPAddrPort(r.buf)
	if err != nil {
		return 0, err
	}
	r.n, r.from = n, netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
	return 1, nil
}

// Datagram is the datagram of the last Read and its sender.
func (r *Reader) Datagram(int) ([]byte, netip.AddrPort) { return r.buf[:r.n], r.from }

// Writer sends one datagram per call where there is no sendmmsg.
type Writer struct{ c *net.UDPConn }

// NewWriter makes a writer for c.
func NewWriter(c syscall.Conn) (*Writer, error) {
	u, ok := c.(*net.UDPConn)
	if !ok {
		return nil, errNotUDP
	}
	return &Writer{u}, nil
}

// Write sends ms[0]: it returns 1, or 0 and its error.
func (w *Writer) Write(ms []Out) (int, error) {
	if len(ms) == 0 {
		return 0, nil
	}
	if _, err := w.c.WriteToUDPAddrPort(ms[0].B, ms[0].To); err != nil {
		return 0, err
	}
	return 1, nil
}

var errNotUDP = &net.OpError{Op: "udpbatch", Net: "udp", Err: syscall.EINVAL}

// Raw does nothing here: the calls are the net package's.
func (r *Reader) Raw() {}

// Raw does nothing here: the calls are the net package's.
func (w *Writer) Raw() {}

// Each reads datagrams one at a time and hands each to fn until a read
// fails, and returns that error, or until fn returns false (then nil).
func (r *Reader) Each(fn func(k int) bool) error {
	for {
		k, err := r.Read()
		if err != nil {
			return err
		}
		if !fn(k) {
			return nil
		}
	}
}
