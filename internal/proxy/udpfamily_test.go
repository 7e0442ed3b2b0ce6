package proxy

import (
	"net"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// TestUDPFamilies carries a request and its reply over IPv6, over a
// dual-stack socket with IPv4 peers, and over IPv4: the batched reads and
// writes take addresses of either family.
func TestUDPFamilies(t *testing.T) {
	for _, c := range []struct{ listen, peerNet, peerIP string }{{"[::1]:0", "udp6", "::1"}, {"[::]:0", "udp4", "127.0.0.1"}, {"127.0.0.1:0", "udp4", "127.0.0.1"}} {
		mgc, err := net.ListenUDP(c.peerNet, &net.UDPAddr{IP: net.ParseIP(c.peerIP)})
		if err != nil {
			t.Logf("skipping %s: %v", c.listen, err) // no IPv6 here
			continue
		}
		mg, err := net.ListenUDP(c.peerNet, &net.UDPAddr{IP: net.ParseIP(c.peerIP)})
		if err != nil {
			t.Fatal(err)
		}
		p, err := New(Config{
			MGC:      SideConfig{Codec: "compact", Listen: Addr{"udp", c.listen}, Peer: Addr{"udp", mgc.LocalAddr().String()}},
			MG:       SideConfig{Codec: "ber", Listen: Addr{"udp", c.listen}, Peer: Addr{"udp", mg.LocalAddr().String()}},
			Registry: prometheus.NewRegistry(),
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Start(); err != nil {
			t.Logf("skipping %s: %v", c.listen, err)
			mgc.Close()
			mg.Close()
			continue
		}
		req := corpusFile(t, "msg01a.compact.txt")
		reply := encode(t, string(corpusFile(t, "msg06a.compact.txt")), "ber")
		go answer(mg, reply)
		to := p.ListenAddr(true).(*net.UDPAddr)
		to = &net.UDPAddr{IP: net.ParseIP(c.peerIP), Port: to.Port}
		mgc.WriteTo(req, to)
		mgc.SetReadDeadline(time.Now().Add(3 * time.Second))
		buf := make([]byte, 65536)
		n, _, err := mgc.ReadFrom(buf)
		if err != nil || n == 0 {
			t.Errorf("%s: no reply: %v", c.listen, err)
		}
		p.Close()
		mgc.Close()
		mg.Close()
	}
}
