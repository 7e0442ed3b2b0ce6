// Package tpkt frames messages on a byte stream as RFC 1006 section 6
// does, which RFC 3525 Annex D.2 prescribes for Megaco over TCP: each
// message is preceded by a 4-octet header, version 3, a reserved octet 0
// and the packet's length in octets, header included, big-endian.
//
// It is the one TPKT framer: the proxy and the load generator read and
// write streams with Reader and AppendFrame, and the capture reader,
// which reassembles TCP segments itself, reads headers with PacketLen.
package tpkt

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

const (
	// HeaderLen is the size of a TPKT header.
	HeaderLen = 4
	// MaxPayload is the largest message one packet carries: the 16-bit
	// length counts the header too.
	MaxPayload = 65535 - HeaderLen
	version    = 3
)

// ErrHeader is the class of errors for a header that is not TPKT: a
// stream in which one header is broken cannot be resynchronised.
var ErrHeader = errors.New("tpkt: bad header")

// ErrTooLarge is AppendFrame's error for a payload over MaxPayload.
var ErrTooLarge = errors.New("tpkt: message too large for one packet")

// AppendFrame appends the header and payload of one packet to dst.
func AppendFrame(dst, payload []byte) ([]byte, error) {
	if len(payload) > MaxPayload {
		return dst, ErrTooLarge
	}
	n := len(payload) + HeaderLen
	dst = append(dst, version, 0, byte(n>>8), byte(n))
	return append(dst, payload...), nil
}

// PacketLen reads the header at the start of b and returns the packet's
// length, header included. ok is false when b is shorter than a header,
// or its header is not TPKT or leaves no room for a message. It does not
// allocate: a reader looking for a header in a broken stream tries every
// offset.
func PacketLen(b []byte) (n int, ok bool) {
	if len(b) < HeaderLen || b[0] != version || b[1] != 0 {
		return 0, false
	}
	n = int(b[2])<<8 | int(b[3])
	return n, n > HeaderLen
}

// headerError says why h (HeaderLen octets) is not a header PacketLen
// accepts.
func headerError(h []byte) error {
	if h[0] != version || h[1] != 0 {
		return fmt.Errorf("%w: version %d, reserved %d (want 3 and 0)", ErrHeader, h[0], h[1])
	}
	return fmt.Errorf("%w: length %d leaves no message", ErrHeader, int(h[2])<<8|int(h[3]))
}

// Reader reads packets from a stream. It handles a packet split across
// reads and several packets in one read; its memory is bounded by the
// largest packet.
type Reader struct {
	r   *bufio.Reader
	buf []byte
}

// NewReader reads packets from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 16<<10)}
}

// HasPacket reports whether a whole packet is already buffered, so that
// Next returns it without reading: a caller may hold what it writes back
// until the packets read at once are all handled.
func (t *Reader) HasPacket() bool {
	n := t.r.Buffered()
	if n < HeaderLen {
		return false
	}
	h, _ := t.r.Peek(HeaderLen) // buffered: Peek does not read
	return n >= int(h[2])<<8|int(h[3])
}

// Next returns the payload of the next packet, valid until the next call.
// At a clean end of stream (between packets) it returns io.EOF; a stream
// that ends inside a packet is io.ErrUnexpectedEOF; a header that is not
// TPKT, or an empty packet, is an error matching ErrHeader.
func (t *Reader) Next() ([]byte, error) {
	var h [HeaderLen]byte
	if _, err := io.ReadFull(t.r, h[:]); err != nil {
		return nil, err
	}
	n, ok := PacketLen(h[:])
	if !ok {
		return nil, headerError(h[:])
	}
	n -= HeaderLen
	if cap(t.buf) < n {
		t.buf = make([]byte, n)
	}
	t.buf = t.buf[:n]
	if _, err := io.ReadFull(t.r, t.buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return t.buf, nil
}
