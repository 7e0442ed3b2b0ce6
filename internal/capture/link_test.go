package capture_test

import (
	"encoding/binary"
	"net"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"megaco/internal/capture"
)

// udpPacket serialises IP and UDP headers around payload (checksums
// computed), from port 2944 to 2944.
func udpPacket(t testing.TB, src, dst net.IP, payload []byte) []byte {
	t.Helper()
	udp := &layers.UDP{SrcPort: 2944, DstPort: 2944}
	var ip gopacket.SerializableLayer
	if src.To4() != nil {
		v4 := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolUDP, SrcIP: src, DstIP: dst, Id: 77}
		udp.SetNetworkLayerForChecksum(v4)
		ip = v4
	} else {
		v6 := &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: layers.IPProtocolUDP, SrcIP: src, DstIP: dst}
		udp.SetNetworkLayerForChecksum(v6)
		ip = v6
	}
	return serialize(t, ip, udp, gopacket.Payload(payload))
}

func serialize(t testing.TB, l ...gopacket.SerializableLayer) []byte {
	t.Helper()
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, l...); err != nil {
		t.Fatal(err)
	}
	return append([]byte(nil), buf.Bytes()...)
}

var (
	macA = net.HardwareAddr{2, 0, 0, 0, 0, 1}
	macB = net.HardwareAddr{2, 0, 0, 0, 0, 2}
)

// ether is an Ethernet header (written by hand: serialising gopacket's
// Ethernet layer alone pads it to the 60-byte minimum frame) and rest.
func ether(_ testing.TB, typ layers.EthernetType, rest []byte) []byte {
	h := append(append([]byte(nil), macB...), macA...)
	h = binary.BigEndian.AppendUint16(h, uint16(typ))
	return append(h, rest...)
}

// vlan tags an IPv4 packet with 802.1Q (and an outer 802.1ad tag when qinq).
func vlan(t *testing.T, ipPacket []byte, qinq bool) []byte {
	inner := serialize(t, &layers.Dot1Q{VLANIdentifier: 100, Type: layers.EthernetTypeIPv4})
	if !qinq {
		return ether(t, layers.EthernetTypeDot1Q, append(inner, ipPacket...))
	}
	outer := serialize(t, &layers.Dot1Q{VLANIdentifier: 7, Type: layers.EthernetTypeDot1Q})
	return ether(t, layers.EthernetTypeQinQ, append(append(outer, inner...), ipPacket...))
}

// sll is a Linux cooked capture (v1) header: outgoing, Ethernet, a 6-byte
// address, then the protocol.
func sll(ipPacket []byte, proto uint16) []byte {
	h := make([]byte, 16)
	binary.BigEndian.PutUint16(h[0:], 4) // sent by us
	binary.BigEndian.PutUint16(h[2:], 1) // ARPHRD_ETHER
	binary.BigEndian.PutUint16(h[4:], 6)
	copy(h[6:], macA)
	binary.BigEndian.PutUint16(h[14:], proto)
	return append(h, ipPacket...)
}

// sll2 is a Linux cooked capture v2 header.
func sll2(ipPacket []byte, proto uint16) []byte {
	h := make([]byte, 20)
	binary.BigEndian.PutUint16(h[0:], proto)
	binary.BigEndian.PutUint32(h[4:], 2) // interface index
	binary.BigEndian.PutUint16(h[8:], 1) // ARPHRD_ETHER
	h[10] = 4                            // sent by us
	h[11] = 6
	copy(h[12:], macA)
	return append(h, ipPacket...)
}

// fragments4 cuts an IPv4 packet into fragments of at most size payload
// bytes (a multiple of 8).
func fragments4(t *testing.T, pkt []byte, size int) [][]byte {
	var ip layers.IPv4
	if err := ip.DecodeFromBytes(pkt, gopacket.NilDecodeFeedback); err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for off := 0; off < len(ip.Payload); off += size {
		f := ip
		f.Flags = 0
		if off+size < len(ip.Payload) {
			f.Flags = layers.IPv4MoreFragments
		}
		f.FragOffset = uint16(off / 8)
		out = append(out, serialize(t, &f, gopacket.Payload(ip.Payload[off:min(off+size, len(ip.Payload))])))
	}
	return out
}

// fragments6 cuts an IPv6 packet's payload into fragments with a
// Fragment extension header.
func fragments6(t *testing.T, pkt []byte, size int) [][]byte {
	hdr, payload := pkt[:40], pkt[40:]
	var out [][]byte
	for off := 0; off < len(payload); off += size {
		part := payload[off:min(off+size, len(payload))]
		f := append([]byte(nil), hdr...)
		f[6] = 44 // Fragment
		binary.BigEndian.PutUint16(f[4:], uint16(8+len(part)))
		fh := make([]byte, 8)
		fh[0] = 17 // UDP
		v := uint16(off/8) << 3
		if off+size < len(payload) {
			v |= 1
		}
		binary.BigEndian.PutUint16(fh[2:], v)
		binary.BigEndian.PutUint32(fh[4:], 4242)
		out = append(out, append(append(f, fh...), part...))
	}
	return out
}

// TestLinkTypes reads call flow messages on VLAN-tagged Ethernet, Linux
// cooked captures v1 and v2, and in IPv4 and IPv6 fragments; text2pcap
// writes the frames, and tshark must read as many messages.
func TestLinkTypes(t *testing.T) {
	msgs, _, times := flow(t)
	src4, dst4 := net.ParseIP("10.1.1.1").To4(), net.ParseIP("10.1.1.2").To4()
	src6, dst6 := net.ParseIP("2001:db8::1"), net.ParseIP("2001:db8::2")
	type frames func(m []byte) [][]byte
	one := func(b []byte) [][]byte { return [][]byte{b} }
	cases := []struct {
		name     string
		linkType string
		frames   frames
	}{
		{"vlan", "1", func(m []byte) [][]byte { return one(vlan(t, udpPacket(t, src4, dst4, m), false)) }},
		{"qinq", "1", func(m []byte) [][]byte { return one(vlan(t, udpPacket(t, src4, dst4, m), true)) }},
		{"sll", "113", func(m []byte) [][]byte { return one(sll(udpPacket(t, src4, dst4, m), 0x0800)) }},
		{"sll2-ipv6", "276", func(m []byte) [][]byte { return one(sll2(udpPacket(t, src6, dst6, m), 0x86dd)) }},
		{"ipv4-fragments", "1", func(m []byte) [][]byte {
			var out [][]byte
			for _, f := range fragments4(t, udpPacket(t, src4, dst4, m), 128) {
				out = append(out, ether(t, layers.EthernetTypeIPv4, f))
			}
			return out
		}},
		{"ipv6-fragments", "1", func(m []byte) [][]byte {
			var out [][]byte
			for _, f := range fragments6(t, udpPacket(t, src6, dst6, m), 128) {
				out = append(out, ether(t, layers.EthernetTypeIPv6, f))
			}
			return out
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var pkts []packet
			for i, m := range msgs[:8] {
				for j, f := range c.frames(m) {
					pkts = append(pkts, packet{at: times[i].Add(time.Duration(j) * time.Microsecond), forward: true, data: f})
				}
			}
			file := text2pcap(t, c.name+".pcapng", pkts, "-l", c.linkType)
			got := readAll(t, file, capture.Options{})
			if len(got) != 8 {
				t.Fatalf("%d messages, want 8", len(got))
			}
			for i, m := range got {
				if string(m.Data) != string(msgs[i]) || m.Src.Port() != 2944 {
					t.Errorf("message %d (frame %d): %d bytes from %s", i, m.Frame, len(m.Data), m.Src)
				}
			}
			if n := tsharkCount(t, file, "megaco.version"); n != len(got) {
				t.Errorf("tshark reads %d Megaco messages, we read %d", n, len(got))
			}
		})
	}
}
