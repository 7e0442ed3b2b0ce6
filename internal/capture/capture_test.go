package capture_test

import (
	"bytes"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"megaco/internal/capture"
	"megaco/internal/capture/pcapng"
)

const compactMsg = "!/1 [123.123.123.4]:55555\nT=9999{C=-{MF=A4444{M{ST=1{O{MO=SR}}}}}}\n"

// brokenCapture is a pcap file with good packets around broken ones.
func brokenCapture(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := pcapgo.NewWriter(&buf)
	if err := w.WriteFileHeader(65536, layers.LinkTypeEthernet); err != nil {
		t.Fatal(err)
	}
	src4, dst4 := net.IP{10, 0, 0, 1}, net.IP{10, 0, 0, 2}
	good := ether(t, layers.EthernetTypeIPv4, udpPacket(t, src4, dst4, []byte(compactMsg)))
	badIHL := bytes.Clone(good)
	badIHL[14] = 0x43 // IPv4 header length 3 words
	// A TCP stream with 18 bytes that are not TPKT between two messages.
	msg := tpkt([]byte(compactMsg))
	junk := []byte("GET / HTTP/1.0\r\n\r\n")
	tcp1 := ether(t, layers.EthernetTypeIPv4, tcpPacket(t, src4, dst4, 1, msg))
	tcpJunk := ether(t, layers.EthernetTypeIPv4, tcpPacket(t, src4, dst4, uint32(1+len(msg)), junk))
	tcp2 := ether(t, layers.EthernetTypeIPv4, tcpPacket(t, src4, dst4, uint32(1+len(msg)+len(junk)), msg))
	at := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	for i, p := range [][]byte{good, good[:20], badIHL, good, tcp1, tcpJunk, tcp2} {
		ci := gopacket.CaptureInfo{Timestamp: at.Add(time.Duration(i) * time.Millisecond), CaptureLength: len(p), Length: len(p)}
		if err := w.WritePacket(ci, p); err != nil {
			t.Fatal(err)
		}
	}
	// A last packet cut short, as when tcpdump is killed.
	ci := gopacket.CaptureInfo{Timestamp: at.Add(time.Second), CaptureLength: len(good), Length: len(good)}
	w.WritePacket(ci, good)
	return buf.Bytes()[:buf.Len()-10]
}

func tcpPacket(t testing.TB, src, dst net.IP, seq uint32, payload []byte) []byte {
	ip := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP, SrcIP: src, DstIP: dst}
	tcp := &layers.TCP{SrcPort: 40000, DstPort: 2944, Seq: seq, ACK: true, PSH: true, Window: 1000}
	tcp.SetNetworkLayerForChecksum(ip)
	return serialize(t, ip, tcp, gopacket.Payload(payload))
}

// TestBrokenPackets: each broken packet is reported with its frame number
// and the rest is read.
func TestBrokenPackets(t *testing.T) {
	msgs, errs := readWithProblems(t, bytes.NewReader(brokenCapture(t)), capture.Options{})
	var frames []int
	for _, m := range msgs {
		if string(m.Data) != compactMsg {
			t.Errorf("frame %d: %q", m.Frame, m.Data)
		}
		frames = append(frames, m.Frame)
	}
	var problems []string
	for _, e := range errs {
		problems = append(problems, e.Error())
	}
	if want := []int{1, 4, 5, 7}; !equal(frames, want) {
		t.Errorf("messages in frames %v, want %v", frames, want)
	}
	wantProblems := []string{"frame 2: ", "frame 3: ", "frame 7: TCP 10.0.0.1:40000 -> 10.0.0.2:2944: skipped 18 bytes", "frame 8: the capture ends in the middle"}
	if len(problems) != len(wantProblems) {
		t.Fatalf("problems:\n%s", strings.Join(problems, "\n"))
	}
	for i, p := range problems {
		if !strings.HasPrefix(p, wantProblems[i]) {
			t.Errorf("problem %d: %q, want %q...", i, p, wantProblems[i])
		}
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNotACapture(t *testing.T) {
	for _, in := range []string{"", "abc", "MEGACO/1 [1.2.3.4] Transaction = 1 {}"} {
		if _, err := capture.NewReader(strings.NewReader(in), capture.Options{}); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

// TestPorts: only the ports asked for are read.
func TestPorts(t *testing.T) {
	var buf bytes.Buffer
	w, _ := pcapng.NewWriter(&buf, pcapng.Options{})
	a := netip.MustParseAddrPort("10.0.0.1:3000")
	b := netip.MustParseAddrPort("10.0.0.2:3001")
	w.UDP(time.Now(), a, b, []byte(compactMsg))
	for _, c := range []struct {
		ports []uint16
		want  int
	}{{nil, 0}, {[]uint16{3001}, 1}, {[]uint16{3000}, 1}} {
		msgs, _ := readWithProblems(t, bytes.NewReader(buf.Bytes()), capture.Options{Ports: c.ports})
		n := len(msgs)
		if n != c.want {
			t.Errorf("ports %v: %d messages, want %d", c.ports, n, c.want)
		}
	}
}

// FuzzReader reads random bytes as a capture: no panic, no endless loop,
// and never more reports than the input has bytes.
func FuzzReader(f *testing.F) {
	var ng bytes.Buffer
	w, _ := pcapng.NewWriter(&ng, pcapng.Options{})
	a := netip.MustParseAddrPort("10.0.0.1:2944")
	b := netip.MustParseAddrPort("[2001:db8::2]:2944")
	b4 := netip.MustParseAddrPort("10.0.0.2:2944")
	w.UDP(time.Unix(1, 0), a, b4, []byte(compactMsg))
	w.TCP(time.Unix(2, 0), a, b4, tpkt([]byte(compactMsg)))
	w.TCP(time.Unix(3, 0), b, b, append(tpkt([]byte(compactMsg)), 3, 0, 0))
	f.Add(ng.Bytes())
	f.Add(brokenCapture(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := capture.NewReader(bytes.NewReader(data), capture.Options{MaxBufferedPages: 4, MaxBufferedPagesTotal: 16})
		if err != nil {
			return
		}
		for n := 0; ; n++ {
			if n > len(data)+16 {
				t.Fatalf("%d results from %d bytes", n, len(data))
			}
			_, err := r.Next()
			var fe *capture.FrameError
			if err != nil && !errors.As(err, &fe) {
				return
			}
		}
	})
}

// TestBounds: a TCP message or IP fragments past MaxPartial are reported
// and dropped, and what follows is read.
func TestBounds(t *testing.T) {
	var buf bytes.Buffer
	w := pcapgo.NewWriter(&buf)
	w.WriteFileHeader(65536, layers.LinkTypeEthernet)
	src, dst := net.IP{10, 0, 0, 1}, net.IP{10, 0, 0, 2}
	msg := tpkt([]byte(compactMsg))
	big := tpkt(bytes.Repeat([]byte(" "), 300)) // a message of 304 bytes, in two segments
	seq := uint32(1)
	var frames [][]byte
	for _, seg := range [][]byte{msg, big[:150], big[150:], msg} {
		frames = append(frames, ether(t, layers.EthernetTypeIPv4, tcpPacket(t, src, dst, seq, seg)))
		seq += uint32(len(seg))
	}
	frames = append(frames, fragments4Ether(t, udpPacket(t, src, dst, []byte(strings.Repeat(compactMsg, 5))))...)
	frames = append(frames, ether(t, layers.EthernetTypeIPv4, udpPacket(t, src, dst, []byte(compactMsg))))
	for i, f := range frames {
		w.WritePacket(gopacket.CaptureInfo{Timestamp: time.Unix(int64(i), 0), CaptureLength: len(f), Length: len(f)}, f)
	}
	msgs, errs := readWithProblems(t, bytes.NewReader(buf.Bytes()), capture.Options{MaxPartial: 200})
	var frameNums []int
	for _, m := range msgs {
		frameNums = append(frameNums, m.Frame)
	}
	if !equal(frameNums, []int{1, 4, 8}) {
		t.Errorf("messages in frames %v, want 1, 4 and 8", frameNums)
	}
	if len(errs) < 2 || !strings.Contains(errs[0].Error(), "frame 3: TCP") {
		t.Fatalf("problems %v", errs)
	}
	for _, e := range errs[1:] {
		if !strings.Contains(e.Error(), "IP fragments") {
			t.Errorf("problem %v", e)
		}
	}
}

func fragments4Ether(t *testing.T, pkt []byte) [][]byte {
	var out [][]byte
	for _, f := range fragments4(t, pkt, 160) {
		out = append(out, ether(t, layers.EthernetTypeIPv4, f))
	}
	return out
}

// TestNotIP: frames of other protocols are skipped quietly; a link type
// that cannot be decoded is said once.
func TestNotIP(t *testing.T) {
	var buf bytes.Buffer
	w, _ := pcapgo.NewNgWriterInterface(&buf, pcapgo.NgInterface{LinkType: layers.LinkTypeEthernet}, pcapgo.DefaultNgWriterOptions)
	w.AddInterface(pcapgo.NgInterface{LinkType: 147}) // a private link type
	good := ether(t, layers.EthernetTypeIPv4, udpPacket(t, net.IP{10, 0, 0, 1}, net.IP{10, 0, 0, 2}, []byte(compactMsg)))
	other := ether(t, 0x88b5, []byte("local experimental EtherType"))
	for i, f := range [][]byte{other, good, {1, 2, 3}, {4, 5, 6}, good} {
		ci := gopacket.CaptureInfo{Timestamp: time.Unix(int64(i), 0), CaptureLength: len(f), Length: len(f)}
		if len(f) == 3 {
			ci.InterfaceIndex = 1
		}
		w.WritePacket(ci, f)
	}
	w.Flush()
	msgs, errs := readWithProblems(t, bytes.NewReader(buf.Bytes()), capture.Options{})
	if len(msgs) != 2 || len(errs) != 1 || errs[0].Error() != "frame 3: link type 147 is not supported: its packets are skipped" {
		t.Errorf("%d messages, problems %v", len(msgs), errs)
	}
}
