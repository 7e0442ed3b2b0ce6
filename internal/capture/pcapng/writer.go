// Package pcapng writes Megaco messages as a pcapng capture that Wireshark,
// tshark and megaco pcap open: one section, one Ethernet interface, and an
// enhanced packet block per message or TCP segment, with Ethernet, IPv4 or
// IPv6, and UDP or TCP headers made up around the payload from the real
// addresses and ports (checksums computed; MAC addresses derived from the
// IP addresses, as there are none to record). The blocks are written by
// gopacket's pcapgo and the headers serialised by its layers package.
//
// A Writer is bounded: past a maximum file size it either rotates (FILE
// becomes FILE.1, FILE.1 becomes FILE.2, ...) or stops writing and counts
// what it drops. A Recorder, over a Writer, takes frames from goroutines
// that send and receive at once and writes them in the order and at the
// times they crossed their sockets.
package pcapng

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"sync"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// ErrFull is returned for a packet that would take a file past its
// maximum size when there is no rotation; the packet is counted in Dropped.
var ErrFull = errors.New("pcapng: capture file at its maximum size")

// Options bound a Writer. The zero value is unbounded.
type Options struct {
	// MaxBytes is the largest size of one file (0: no limit). A packet
	// that does not fit starts a new file when Keep > 0, and is dropped
	// otherwise.
	MaxBytes int64
	// Keep is how many rotated files (FILE.1 ... FILE.Keep) are kept
	// beside the one being written; the oldest is removed.
	Keep int
}

// Writer writes packets; it is safe for concurrent use.
type Writer struct {
	mu      sync.Mutex
	path    string // "" for a Writer over an io.Writer (no rotation)
	opts    Options
	file    *os.File
	out     *countingWriter
	ng      *pcapgo.NgWriter
	seq     map[flowKey]uint32 // next TCP sequence number of each direction
	dropped int64
	hdrSize int64 // the section header and interface blocks
	buf     gopacket.SerializeBuffer
}

type flowKey struct{ src, dst netip.AddrPort }

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Create writes a capture to the file at path (created or truncated).
func Create(path string, opts Options) (*Writer, error) {
	w := &Writer{path: path, opts: opts}
	if err := w.open(); err != nil {
		return nil, err
	}
	return w, nil
}

// NewWriter writes a capture to out, up to opts.MaxBytes (Keep is
// ignored: there is no file to rotate).
func NewWriter(out io.Writer, opts Options) (*Writer, error) {
	opts.Keep = 0
	w := &Writer{opts: opts}
	return w, w.start(out)
}

func (w *Writer) open() error {
	f, err := os.Create(w.path)
	if err != nil {
		return err
	}
	w.file = f
	if err := w.start(f); err != nil {
		f.Close()
		return err
	}
	return nil
}

// start writes the section header and the interface description.
func (w *Writer) start(out io.Writer) error {
	w.out = &countingWriter{w: out}
	intf := pcapgo.DefaultNgInterface
	intf.Name, intf.LinkType = "megaco", layers.LinkTypeEthernet
	opts := pcapgo.DefaultNgWriterOptions
	opts.SectionInfo.Application = "megaco"
	ng, err := pcapgo.NewNgWriterInterface(w.out, intf, opts)
	if err == nil {
		err = ng.Flush()
	}
	if err != nil {
		return fmt.Errorf("pcapng: %w", err)
	}
	w.ng, w.hdrSize = ng, w.out.n
	if w.seq == nil {
		w.seq = map[flowKey]uint32{}
		w.buf = gopacket.NewSerializeBuffer()
	}
	return nil
}

// Dropped is the number of packets left out for want of room.
func (w *Writer) Dropped() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dropped
}

// Close flushes and closes the file (not an io.Writer given to NewWriter).
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.ng.Flush()
	if w.file != nil {
		if cerr := w.file.Close(); err == nil {
			err = cerr
		}
		w.file = nil
	}
	return err
}

// UDP writes one datagram from src to dst.
func (w *Writer) UDP(t time.Time, src, dst netip.AddrPort, payload []byte) error {
	return w.one(func() error { return w.udp(t, src, dst, payload, "") })
}

func (w *Writer) udp(t time.Time, src, dst netip.AddrPort, payload []byte, comment string) error {
	if len(payload) > 65507 {
		return fmt.Errorf("pcapng: %d bytes do not fit in a UDP datagram", len(payload))
	}
	udp := &layers.UDP{SrcPort: layers.UDPPort(src.Port()), DstPort: layers.UDPPort(dst.Port())}
	return w.write(t, src, dst, layers.IPProtocolUDP, udp, payload, comment)
}

// one runs write, which writes one packet, under the lock, and flushes
// after it if it wrote without error: a capture is read while it is
// written, and what was relayed must be in it if the process dies.
func (w *Writer) one(write func() error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := write(); err != nil {
		return err
	}
	return w.ng.Flush()
}

// maxSegment keeps a TCP segment and its headers inside one IP packet.
const maxSegment = 65000

// TCP writes data as the next bytes of the TCP stream from src to dst, in
// segments of at most 65000 bytes, acknowledging what the other direction
// has sent. The first data of a direction starts at sequence number 1;
// there is no handshake (Wireshark and megaco pcap read a stream without
// one). A Megaco peer frames each message with TPKT; data is written as
// given.
func (w *Writer) TCP(t time.Time, src, dst netip.AddrPort, data []byte) error {
	return w.one(func() error { return w.tcp(t, src, dst, data, "") })
}

func (w *Writer) tcp(t time.Time, src, dst netip.AddrPort, data []byte, comment string) error {
	for len(data) > 0 {
		n := min(len(data), maxSegment)
		k := flowKey{src, dst}
		seq, ok := w.seq[k]
		if !ok {
			seq = 1
		}
		seg := TCPSegment{Seq: seq, ACK: true, PSH: true, Payload: data[:n]}
		if ack, ok := w.seq[flowKey{dst, src}]; ok {
			seg.Ack = ack
		}
		if err := w.segment(t, src, dst, seg, comment); err != nil {
			return err
		}
		comment = "" // on the first segment only
		w.seq[k] = seq + uint32(n)
		data = data[n:]
	}
	return nil
}

// TCPSegment is one TCP segment as Segment writes it.
type TCPSegment struct {
	Seq, Ack                uint32
	SYN, ACK, PSH, FIN, RST bool
	Payload                 []byte
}

// Segment writes one TCP segment exactly as given, for captures that show
// loss, reordering or retransmission. It does not change the sequence
// numbers TCP uses.
func (w *Writer) Segment(t time.Time, src, dst netip.AddrPort, seg TCPSegment) error {
	return w.one(func() error { return w.segment(t, src, dst, seg, "") })
}

func (w *Writer) segment(t time.Time, src, dst netip.AddrPort, seg TCPSegment, comment string) error {
	if len(seg.Payload) > maxSegment {
		return fmt.Errorf("pcapng: a TCP segment of %d bytes does not fit in an IP packet", len(seg.Payload))
	}
	tcp := &layers.TCP{
		SrcPort: layers.TCPPort(src.Port()), DstPort: layers.TCPPort(dst.Port()),
		Seq: seg.Seq, Ack: seg.Ack, SYN: seg.SYN, ACK: seg.ACK, PSH: seg.PSH, FIN: seg.FIN, RST: seg.RST,
		Window: 65535,
	}
	return w.write(t, src, dst, layers.IPProtocolTCP, tcp, seg.Payload, comment)
}

// write frames payload in Ethernet, IP and the transport header and
// writes it as one packet, with comment (if any) as its opt_comment, within
// the size bound. It does not flush.
func (w *Writer) write(t time.Time, src, dst netip.AddrPort, proto layers.IPProtocol, transport gopacket.SerializableLayer, payload []byte, comment string) error {
	sa, da := src.Addr().Unmap(), dst.Addr().Unmap()
	if sa.Is4() != da.Is4() || !sa.IsValid() || !da.IsValid() {
		return fmt.Errorf("pcapng: addresses %v and %v are not both IPv4 or both IPv6", src.Addr(), dst.Addr())
	}
	eth := &layers.Ethernet{SrcMAC: mac(sa), DstMAC: mac(da)}
	var ip gopacket.NetworkLayer
	if sa.Is4() {
		eth.EthernetType = layers.EthernetTypeIPv4
		ip = &layers.IPv4{Version: 4, TTL: 64, Flags: layers.IPv4DontFragment, Protocol: proto, SrcIP: net.IP(sa.AsSlice()), DstIP: net.IP(da.AsSlice())}
	} else {
		eth.EthernetType = layers.EthernetTypeIPv6
		ip = &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: proto, SrcIP: net.IP(sa.AsSlice()), DstIP: net.IP(da.AsSlice())}
	}
	switch tl := transport.(type) {
	case *layers.UDP:
		_ = tl.SetNetworkLayerForChecksum(ip)
	case *layers.TCP:
		_ = tl.SetNetworkLayerForChecksum(ip)
	}
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	if err := gopacket.SerializeLayers(w.buf, opts, eth, ip.(gopacket.SerializableLayer), transport, gopacket.Payload(payload)); err != nil {
		return fmt.Errorf("pcapng: %w", err)
	}
	data := w.buf.Bytes()
	if err := w.room(blockSize(len(data), len(comment))); err != nil {
		return err
	}
	ci := gopacket.CaptureInfo{Timestamp: t, CaptureLength: len(data), Length: len(data)}
	var popts pcapgo.NgPacketOptions
	if comment != "" {
		popts.Comments = []string{comment}
	}
	if err := w.ng.WritePacketWithOptions(ci, data, popts); err != nil {
		return fmt.Errorf("pcapng: %w", err)
	}
	return nil
}

// blockSize is the size of an enhanced packet block: 28 bytes of header,
// the data padded to 4 bytes, the options (a comment of c bytes padded to
// 4, its 4-byte header, and the 4-byte end of options) and the trailing
// length.
func blockSize(n, c int) int64 {
	size := int64(32 + (n+3)&^3)
	if c > 0 {
		size += int64(4 + (c+3)&^3 + 4)
	}
	return size
}

// room makes room for a block of size n: rotating, or refusing it.
func (w *Writer) room(n int64) error {
	if w.opts.MaxBytes <= 0 || w.out.n+n <= w.opts.MaxBytes {
		return nil
	}
	header := w.out.n == w.hdrSize
	if w.path == "" || w.opts.Keep <= 0 || header {
		// Nowhere to rotate to, or a packet larger than an empty file.
		w.dropped++
		return ErrFull
	}
	if err := w.rotate(); err != nil {
		return err
	}
	if w.out.n+n > w.opts.MaxBytes {
		w.dropped++
		return ErrFull
	}
	return nil
}

// rotate renames FILE.i to FILE.i+1 (the last one is replaced), FILE to
// FILE.1, and starts a new FILE.
func (w *Writer) rotate() error {
	if err := w.ng.Flush(); err != nil {
		return err
	}
	if err := w.file.Close(); err != nil {
		return err
	}
	w.file = nil
	for i := w.opts.Keep - 1; i >= 1; i-- {
		old := fmt.Sprintf("%s.%d", w.path, i)
		if _, err := os.Stat(old); err == nil {
			if err := os.Rename(old, fmt.Sprintf("%s.%d", w.path, i+1)); err != nil {
				return err
			}
		}
	}
	if err := os.Rename(w.path, w.path+".1"); err != nil {
		return err
	}
	return w.open()
}

// mac makes a locally administered unicast MAC address from the last four
// bytes of an IP address, so that each host has its own.
func mac(a netip.Addr) net.HardwareAddr {
	b := a.AsSlice()
	b = b[len(b)-4:]
	return net.HardwareAddr{0x02, 0x00, b[0], b[1], b[2], b[3]}
}
