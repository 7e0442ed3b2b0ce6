// Package capture finds Megaco messages in packet captures: pcap and
// pcapng files, on Ethernet (with VLAN tags), Linux cooked capture (SLL
// and SLL2) and raw IPv4/IPv6 links, over IPv4 and IPv6 (fragments
// reassembled), in UDP datagrams and in TPKT-framed TCP streams (H.248.1
// Annex H: segments reassembled in sequence order, retransmissions
// dropped, several messages per segment split).
//
// The file formats, the protocol layers, IP defragmentation and TCP
// reassembly come from github.com/gopacket/gopacket's pure-Go packages
// (pcapgo, layers, ip4defrag, ip6defrag, reassembly); no libpcap. This
// package adds the Megaco side: port selection, TPKT framing and
// resynchronisation, and frame-numbered reports of what could not be read.
package capture

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/ip4defrag"
	"github.com/gopacket/gopacket/ip6defrag"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
	"github.com/gopacket/gopacket/reassembly"
)

// DefaultPorts are Megaco's registered ports: 2944 for text, 2945 for
// binary (both on UDP and TCP).
var DefaultPorts = []uint16{2944, 2945}

// Message is one Megaco message found in a capture.
type Message struct {
	// Frame is the 1-based number of the packet that completed the
	// message (for TCP, the segment that made it whole), as Wireshark
	// numbers frames.
	Frame     int
	Time      time.Time
	Src, Dst  netip.AddrPort
	Transport string // "udp" or "tcp"
	Data      []byte // the message's bytes (for TCP, without the TPKT header)
}

// FrameError reports a packet, or a stretch of a TCP stream, that could
// not be read; reading goes on after it.
type FrameError struct {
	Frame int
	Err   error
}

func (e *FrameError) Error() string { return fmt.Sprintf("frame %d: %v", e.Frame, e.Err) }
func (e *FrameError) Unwrap() error { return e.Err }

// Options tune a Reader. The zero value is usable.
type Options struct {
	// Ports Megaco is looked for on, as source or destination (nil:
	// DefaultPorts).
	Ports []uint16
	// MaxBufferedPages bounds the out-of-order TCP data kept per
	// connection, in pages of about 1900 bytes (0: 256, about 480 KiB);
	// MaxBufferedPagesTotal bounds it over all connections (0: 8192, about
	// 15 MiB). Past a bound the oldest gap is given up: the stream reports
	// the bytes missing and resynchronises at the next TPKT header.
	MaxBufferedPages, MaxBufferedPagesTotal int
	// MaxPartial bounds the bytes of incomplete TPKT messages kept over
	// all TCP streams, and separately the bytes of IP fragments waiting
	// for the rest of their datagram (0: 64 MiB each). A stream whose
	// message would go past it is dropped until its next TPKT header; past
	// it, the incomplete datagrams are dropped. Both are reported.
	MaxPartial int
}

// Reader reads the Megaco messages of a capture in the order their last
// packet appears.
type Reader struct {
	src    packetSource
	ports  map[uint16]bool
	frame  int
	queue  []item // messages and reports waiting for Next
	done   bool
	ip4    *ip4defrag.IPv4Defragmenter
	ip6    *ip6defrag.IPv6Defragmenter
	asm    *reassembly.Assembler
	frameC frameContext
	// partial counts the bytes held in incomplete TPKT messages, and
	// fragBytes those of IP fragments fed to the defragmenters since they
	// were last emptied; both stay under maxPartial.
	partial, fragBytes, maxPartial int
	badLink                        map[layers.LinkType]bool // reported as unsupported
	unread                         map[portKey]int          // packets on ports not looked at (Unread)
}

type portKey struct {
	transport string
	port      uint16
}

// PortCount is a port on which packets with data were seen but not read.
type PortCount struct {
	Transport string // "udp" or "tcp"
	Port      uint16 // 0: other ports, past maxUnreadPorts
	Packets   int
}

// maxUnreadPorts bounds the ports Unread tells apart.
const maxUnreadPorts = 1024

type item struct {
	msg Message
	err error
}

// packetSource is what pcapgo's two readers share, with the link type of
// each packet.
type packetSource interface {
	next() ([]byte, gopacket.CaptureInfo, layers.LinkType, error)
}

type pcapSource struct{ r *pcapgo.Reader }

func (s pcapSource) next() ([]byte, gopacket.CaptureInfo, layers.LinkType, error) {
	data, ci, err := s.r.ZeroCopyReadPacketData()
	return data, ci, s.r.LinkType(), err
}

type ngSource struct{ r *pcapgo.NgReader }

func (s ngSource) next() ([]byte, gopacket.CaptureInfo, layers.LinkType, error) {
	data, ci, err := s.r.ZeroCopyReadPacketData()
	lt := s.r.LinkType()
	if len(ci.AncillaryData) > 0 {
		if t, ok := ci.AncillaryData[0].(layers.LinkType); ok {
			lt = t
		}
	}
	return data, ci, lt, err
}

// pcapngMagic is the block type of a pcapng Section Header Block.
var pcapngMagic = []byte{0x0a, 0x0d, 0x0d, 0x0a}

// NewReader reads the file header of a pcap or pcapng capture from r.
func NewReader(r io.Reader, opts Options) (*Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, err := br.Peek(4)
	if err != nil {
		return nil, fmt.Errorf("not a pcap or pcapng file: %d bytes", len(magic))
	}
	var src packetSource
	if bytes.Equal(magic, pcapngMagic) {
		ng, err := pcapgo.NewNgReader(br, pcapgo.NgReaderOptions{WantMixedLinkType: true, SkipUnknownVersion: true})
		if err != nil {
			return nil, fmt.Errorf("pcapng: %w", err)
		}
		src = ngSource{ng}
	} else {
		p, err := pcapgo.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("not a pcap or pcapng file: %w", err)
		}
		src = pcapSource{p}
	}
	rd := &Reader{src: src, ports: map[uint16]bool{}, ip4: ip4defrag.NewIPv4Defragmenter(), ip6: ip6defrag.NewIPv6Defragmenter()}
	ports := opts.Ports
	if ports == nil {
		ports = DefaultPorts
	}
	for _, p := range ports {
		rd.ports[p] = true
	}
	rd.maxPartial = orDefault(opts.MaxPartial, 64<<20)
	rd.badLink = map[layers.LinkType]bool{}
	rd.unread = map[portKey]int{}
	pool := reassembly.NewStreamPool(&streamFactory{r: rd})
	rd.asm = reassembly.NewAssembler(pool)
	rd.asm.MaxBufferedPagesPerConnection = orDefault(opts.MaxBufferedPages, 256)
	rd.asm.MaxBufferedPagesTotal = orDefault(opts.MaxBufferedPagesTotal, 8192)
	return rd, nil
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// Next returns the next message. A *FrameError reports a packet or part of
// a stream that was skipped: call Next again. At the end it returns io.EOF;
// any other error means the file cannot be read further.
func (r *Reader) Next() (Message, error) {
	for len(r.queue) == 0 {
		if r.done {
			return Message{}, io.EOF
		}
		if err := r.readPacket(); err != nil {
			return Message{}, err
		}
	}
	it := r.queue[0]
	r.queue[0] = item{}
	r.queue = r.queue[1:]
	return it.msg, it.err
}

// Frames is the number of packets read so far.
func (r *Reader) Frames() int { return r.frame }

func (r *Reader) report(frame int, err error) {
	r.queue = append(r.queue, item{err: &FrameError{Frame: frame, Err: err}})
}

func (r *Reader) deliver(m Message) { r.queue = append(r.queue, item{msg: m}) }

// Every discardAfter frames, IPv4 fragments older than fragmentAge and
// TCP connections idle for longer than idleAge (capture time) are let go:
// a connection seen again afterwards starts again at a TPKT header.
const (
	discardAfter = 4096
	fragmentAge  = 30 * time.Second
	idleAge      = 2 * time.Minute
)

func (r *Reader) readPacket() error {
	data, ci, lt, err := r.src.next()
	switch {
	case err == io.EOF:
		r.finish()
		return nil
	case errors.Is(err, io.ErrUnexpectedEOF):
		// A capture cut short in the middle of a packet (a killed
		// tcpdump): that packet is broken, the rest was read.
		r.report(r.frame+1, errors.New("the capture ends in the middle of this packet"))
		r.finish()
		return nil
	case err != nil:
		return fmt.Errorf("after frame %d: %w", r.frame, err)
	}
	r.frame++
	if r.frame%discardAfter == 0 {
		r.ip4.DiscardOlderThan(ci.Timestamp.Add(-fragmentAge))
		r.asm.FlushCloseOlderThan(ci.Timestamp.Add(-idleAge))
	}
	r.packet(data, ci, lt)
	return nil
}

// finish delivers what the TCP reassembly still holds (data after a gap
// that never filled) and marks the end.
func (r *Reader) finish() {
	r.asm.FlushAll()
	r.done = true
}

func (r *Reader) packet(data []byte, ci gopacket.CaptureInfo, lt layers.LinkType) {
	p := gopacket.NewPacket(data, lt, gopacket.DecodeOptions{NoCopy: true})
	if fragment(p) {
		// The defragmenters keep the fragments' bytes, and data is the
		// file reader's buffer, reused for the next packet.
		p = gopacket.NewPacket(bytes.Clone(data), lt, gopacket.DecodeOptions{NoCopy: true})
		r.fragBytes += len(data)
		if r.fragBytes > r.maxPartial {
			// ip6defrag ages fragments by the wall clock, not the
			// capture's: bound what both hold by starting afresh.
			r.report(r.frame, fmt.Errorf("over %d bytes of IP fragments waiting for the rest of their datagrams: those datagrams are dropped", r.maxPartial))
			r.ip4, r.ip6, r.fragBytes = ip4defrag.NewIPv4Defragmenter(), ip6defrag.NewIPv6Defragmenter(), len(data)
		}
	}
	var (
		netFlow gopacket.Flow
		proto   layers.IPProtocol
		payload []byte
	)
	switch ip := p.NetworkLayer().(type) {
	case *layers.IPv4:
		if !fragment(p) {
			if !r.fromLayers(p, ci) {
				r.transport(ip.NetworkFlow(), ip.Protocol, ip.Payload, ci)
			}
			return
		}
		full, err := r.ip4.DefragIPv4WithTimestamp(ip, ci.Timestamp)
		if err != nil {
			r.report(r.frame, fmt.Errorf("IPv4 fragment: %w", err))
			return
		}
		if full == nil {
			return // wait for the rest
		}
		netFlow, proto, payload = full.NetworkFlow(), full.Protocol, full.Payload
	case *layers.IPv6:
		fg, ok := p.Layer(layers.LayerTypeIPv6Fragment).(*layers.IPv6Fragment)
		if !ok {
			if !r.fromLayers(p, ci) {
				r.transport(ip.NetworkFlow(), ip.NextHeader, ip.Payload, ci)
			}
			return
		}
		full := r.ip6.DefragIPv6(ip, fg)
		if full == nil {
			return
		}
		netFlow, proto, payload = full.NetworkFlow(), full.NextHeader, full.Payload
	default:
		r.notIP(p, lt)
		return
	}
	r.transport(netFlow, proto, payload, ci)
}

// notIP reports a packet without an IP layer if it is broken. A protocol
// gopacket has no decoder for (an EtherType other than IP, which is none
// of ours) is not broken; a link type it cannot decode is said once.
func (r *Reader) notIP(p gopacket.Packet, lt layers.LinkType) {
	e := p.ErrorLayer()
	if e == nil {
		return
	}
	// gopacket's decoders for unknown protocol numbers fail with "Unable
	// to decode <enum> <number>".
	msg := e.Error().Error()
	if !strings.HasPrefix(msg, "Unable to decode ") {
		r.report(r.frame, e.Error())
		return
	}
	if strings.HasPrefix(msg, "Unable to decode LinkType") && !r.badLink[lt] {
		r.badLink[lt] = true
		r.report(r.frame, fmt.Errorf("link type %d is not supported: its packets are skipped", lt))
	}
}

// fragment reports whether p is an IPv4 or IPv6 fragment.
func fragment(p gopacket.Packet) bool {
	switch ip := p.NetworkLayer().(type) {
	case *layers.IPv4:
		return ip.Flags&layers.IPv4MoreFragments != 0 || ip.FragOffset != 0
	case *layers.IPv6:
		return p.Layer(layers.LayerTypeIPv6Fragment) != nil
	}
	return false
}

// fromLayers handles a packet whose transport layer gopacket decoded; it
// is false when there is none, to try the IP payload.
func (r *Reader) fromLayers(p gopacket.Packet, ci gopacket.CaptureInfo) bool {
	switch t := p.TransportLayer().(type) {
	case *layers.UDP:
		r.udp(p.NetworkLayer().NetworkFlow(), t, ci)
		return true
	case *layers.TCP:
		r.tcp(p.NetworkLayer().NetworkFlow(), t, ci)
		return true
	}
	if e := p.ErrorLayer(); e != nil {
		r.report(r.frame, e.Error())
		return true
	}
	return false
}

// transport decodes the UDP or TCP header of a defragmented payload.
func (r *Reader) transport(netFlow gopacket.Flow, proto layers.IPProtocol, payload []byte, ci gopacket.CaptureInfo) {
	switch proto {
	case layers.IPProtocolUDP:
		var u layers.UDP
		if r.decoded("UDP", u.DecodeFromBytes(payload, gopacket.NilDecodeFeedback)) {
			r.udp(netFlow, &u, ci)
		}
	case layers.IPProtocolTCP:
		var t layers.TCP
		if r.decoded("TCP", t.DecodeFromBytes(payload, gopacket.NilDecodeFeedback)) {
			r.tcp(netFlow, &t, ci)
		}
	}
}

// decoded says whether a transport header decoded (err nil); one that did
// not is reported against the frame, under the protocol's name.
func (r *Reader) decoded(name string, err error) bool {
	if err != nil {
		r.report(r.frame, fmt.Errorf("%s: %w", name, err))
		return false
	}
	return true
}

func (r *Reader) ours(src, dst uint16) bool { return r.ports[src] || r.ports[dst] }

// notRead counts a UDP datagram or TCP segment with data on ports not
// looked at, under the lower of its two ports: a server's, usually, as
// clients' ephemeral ports are high.
func (r *Reader) notRead(transport string, src, dst uint16) {
	k := portKey{transport, min(src, dst)}
	if _, ok := r.unread[k]; !ok && len(r.unread) >= maxUnreadPorts {
		k.port = 0
	}
	r.unread[k]++
}

// Unread returns the ports on which packets with data were seen and not
// read (not one of Options.Ports, on either end), the most packets
// first: where Megaco may be that the reader was not told to look.
func (r *Reader) Unread() []PortCount {
	out := make([]PortCount, 0, len(r.unread))
	for k, n := range r.unread {
		out = append(out, PortCount{k.transport, k.port, n})
	}
	slices.SortFunc(out, func(a, b PortCount) int {
		return cmp.Or(cmp.Compare(b.Packets, a.Packets), cmp.Compare(a.Port, b.Port), strings.Compare(a.Transport, b.Transport))
	})
	return out
}

func (r *Reader) udp(netFlow gopacket.Flow, u *layers.UDP, ci gopacket.CaptureInfo) {
	if len(u.Payload) == 0 {
		return
	}
	if !r.ours(uint16(u.SrcPort), uint16(u.DstPort)) {
		r.notRead("udp", uint16(u.SrcPort), uint16(u.DstPort))
		return
	}
	src, dst := netFlow.Endpoints()
	r.deliver(Message{
		Frame: r.frame, Time: ci.Timestamp, Transport: "udp",
		Src:  addrPort(src, uint16(u.SrcPort)),
		Dst:  addrPort(dst, uint16(u.DstPort)),
		Data: bytes.Clone(u.Payload),
	})
}

func (r *Reader) tcp(netFlow gopacket.Flow, t *layers.TCP, ci gopacket.CaptureInfo) {
	if !r.ours(uint16(t.SrcPort), uint16(t.DstPort)) {
		if len(t.Payload) > 0 {
			r.notRead("tcp", uint16(t.SrcPort), uint16(t.DstPort))
		}
		return
	}
	r.frameC = frameContext{ci: ci, frame: r.frame}
	r.asm.AssembleWithContext(netFlow, t, &r.frameC)
}

func addrPort(e gopacket.Endpoint, port uint16) netip.AddrPort {
	a, _ := netip.AddrFromSlice(e.Raw())
	return netip.AddrPortFrom(a.Unmap(), port)
}

// frameContext tells the TCP streams which frame is being assembled.
type frameContext struct {
	ci    gopacket.CaptureInfo
	frame int
}

func (c *frameContext) GetCaptureInfo() gopacket.CaptureInfo { return c.ci }
