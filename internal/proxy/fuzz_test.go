package proxy

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"
)

// FuzzHandle: whatever a peer sends, on either side, in relay or
// transcoding mode, the proxy neither panics nor blocks.
func FuzzHandle(f *testing.F) {
	for _, name := range []string{"msg01a.compact.txt", "msg01a.ber", "msg06a.ber", "msg30d.compact.txt", "msg11.compact.txt"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "corpus", "otp-time-test", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(0))
		f.Add(b, uint8(3))
	}
	f.Add([]byte("!/1 [1.2.3.4]:5\nT=1{"), uint8(1))
	f.Add([]byte{0x30, 0x80}, uint8(2))
	transcoding := setup(f, "compact", "udp", "ber", "udp", nil)
	relay := setup(f, "ber", "udp", "ber", "udp", nil)
	// Answers go to a peer that nobody reads: sends must not block.
	sink := netip.MustParseAddrPort(transcoding.mgc.addr().Address)
	w := new(worker)
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		p := transcoding.p
		if mode&2 != 0 {
			p = relay.p
		}
		p.handle(w, side(mode&1), dest{addr: sink}, data)
	})
}
