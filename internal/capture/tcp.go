package capture

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net/netip"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/reassembly"

	"megaco/internal/tpkt"
)

// Messages on TCP are TPKT-framed (RFC 1006, used by H.248.1 Annex H.2 for
// every encoding); package tpkt reads the headers.
const tpktHeader = tpkt.HeaderLen

type streamFactory struct{ r *Reader }

func (f *streamFactory) New(netFlow, tcpFlow gopacket.Flow, _ *layers.TCP, _ reassembly.AssemblerContext) reassembly.Stream {
	srcIP, dstIP := netFlow.Endpoints()
	srcPort, dstPort := tcpFlow.Endpoints()
	a := addrPort(srcIP, binary.BigEndian.Uint16(srcPort.Raw()))
	b := addrPort(dstIP, binary.BigEndian.Uint16(dstPort.Raw()))
	s := &stream{r: f.r}
	s.half[0] = half{src: a, dst: b}
	s.half[1] = half{src: b, dst: a}
	return s
}

// stream splits both directions of a TCP connection into TPKT messages.
type stream struct {
	r    *Reader
	half [2]half // client to server (the first packet's direction), and back
}

// half is one direction's partial message. buf holds less than one whole
// TPKT message (at most 64 KiB plus the last segment): complete messages
// are taken out as soon as they arrive.
type half struct {
	src, dst netip.AddrPort
	buf      []byte
	lost     bool // out of step: look for a TPKT header before reading on
	waiting  int  // segments seen before the stream's start
	skipped  int  // bytes passed over while out of step
}

func (s *stream) Accept(t *layers.TCP, _ gopacket.CaptureInfo, dir reassembly.TCPFlowDirection, nextSeq reassembly.Sequence, start *bool, _ reassembly.AssemblerContext) bool {
	// A capture that begins in the middle of a connection has no SYN.
	// Start at the first segment that begins with a TPKT header; until
	// then the assembler keeps the segments, so that one sent earlier but
	// captured later still comes first. After waitForHeader segments
	// without a header, start anyway: split resynchronises.
	if nextSeq == -1 && !t.SYN && len(t.Payload) > 0 {
		h := &s.half[dirIndex(dir)]
		h.waiting++
		if tpktStart(t.Payload) || h.waiting > waitForHeader {
			*start = true
		}
	}
	return true
}

// waitForHeader is how many segments of a connection without a SYN are
// kept while waiting for one that begins with a TPKT header.
const waitForHeader = 8

// tpktStart reports whether b begins with what reads as a TPKT header.
func tpktStart(b []byte) bool {
	_, ok := tpkt.PacketLen(b)
	return ok
}

func dirIndex(dir reassembly.TCPFlowDirection) int {
	if dir == reassembly.TCPDirClientToServer {
		return 0
	}
	return 1
}

func (s *stream) ReassembledSG(sg reassembly.ScatterGather, ac reassembly.AssemblerContext) {
	n, _ := sg.Lengths()
	dir, _, _, skip := sg.Info()
	h := &s.half[dirIndex(dir)]
	frame := s.r.frame
	if fc, ok := ac.(*frameContext); ok {
		frame = fc.frame
	}
	if skip != 0 {
		what := fmt.Sprintf("%d bytes", skip)
		if skip < 0 {
			what = "the start"
		}
		s.r.report(frame, fmt.Errorf("TCP %s -> %s: %s of the stream missing (not captured, or over the out-of-order buffer bound); the message in progress is dropped", h.src, h.dst, what))
		s.drop(h)
	}
	if n == 0 {
		return
	}
	if s.r.partial+n > s.r.maxPartial {
		s.r.report(frame, fmt.Errorf("TCP %s -> %s: over %d bytes of incomplete messages held over all streams: %d bytes dropped", h.src, h.dst, s.r.maxPartial, len(h.buf)+n))
		s.drop(h)
		return
	}
	s.r.partial -= len(h.buf)
	h.buf = append(h.buf, sg.Fetch(n)...)
	s.split(h, frame, ac.GetCaptureInfo())
	s.r.partial += len(h.buf)
}

// drop forgets h's partial message and waits for a TPKT header.
func (s *stream) drop(h *half) {
	s.r.partial -= len(h.buf)
	h.buf, h.lost = nil, true
}

// split delivers every whole message in h.buf and keeps the rest.
func (s *stream) split(h *half, frame int, ci gopacket.CaptureInfo) {
	b := h.buf
	for {
		if h.lost {
			i := resync(b)
			h.skipped += i
			b = b[i:]
			if len(b) < tpktHeader+1 {
				break
			}
			h.lost = false
			if h.skipped > 0 {
				s.r.report(frame, fmt.Errorf("TCP %s -> %s: skipped %d bytes that are not a TPKT-framed message", h.src, h.dst, h.skipped))
				h.skipped = 0
			}
		}
		if len(b) < tpktHeader {
			break
		}
		if !tpktStart(b) {
			h.lost = true
			continue
		}
		size, _ := tpkt.PacketLen(b) // tpktStart(b) holds
		if len(b) < size {
			break
		}
		s.r.deliver(Message{
			Frame: frame, Time: ci.Timestamp, Transport: "tcp", Src: h.src, Dst: h.dst,
			Data: append([]byte(nil), b[tpktHeader:size]...),
		})
		b = b[size:]
	}
	if cap(h.buf) > 1<<17 {
		h.buf = bytes.Clone(b) // let go of a large reassembled chunk
	} else {
		h.buf = append(h.buf[:0], b...)
	}
}

// resync finds the first place in b that reads as a TPKT header followed
// by the start of a Megaco message: text ("MEGACO/", "!/", maybe after
// white space or a comment) or BER (a SEQUENCE, 0x30). PER has no such
// mark, so a PER stream resynchronises only where its TPKT headers are
// plausible. It returns len(b) minus what may be the start of a header
// still arriving.
func resync(b []byte) int {
	for i := 0; i+tpktHeader < len(b); i++ {
		if !tpktStart(b[i:]) {
			continue
		}
		switch c := b[i+tpktHeader]; c {
		case 'M', 'm', '!', ';', ' ', '\t', '\r', '\n', 0x30:
			return i
		}
	}
	return max(0, len(b)-tpktHeader)
}

func (s *stream) ReassemblyComplete(reassembly.AssemblerContext) bool {
	for i := range s.half {
		h := &s.half[i]
		if len(h.buf) > 0 || h.skipped > 0 {
			s.r.report(s.r.frame, fmt.Errorf("TCP %s -> %s: the stream ends with %d bytes of an incomplete message", h.src, h.dst, len(h.buf)+h.skipped))
		}
		s.drop(h)
	}
	return true
}
