package proxy

import (
	"testing"

	"megaco/internal/codec"
)

// TestLearnMIDOutlivesDecode: the mId a side keeps (learnMID) must not
// alias the transient decoding it was learnt from. After the decoder's
// memory has gone to other messages, with other mIds, and the input
// buffer is overwritten (as the read loop's next read does), the kept
// mId is still the one sent: every kind of mId with bytes or strings, in
// each codec.
func TestLearnMIDOutlivesDecode(t *testing.T) {
	mids := []string{"[124.124.124.222]:55555", "[2001:db8::7]:2944", "<mg.example.net>:2944", "gateway/1", "MTP{0102}"}
	for _, name := range []string{"compact", "pretty", "ber", "per"} {
		t.Run(name, func(t *testing.T) {
			p, err := New(Config{
				MGC: SideConfig{Codec: "compact", Listen: Addr{"udp", "127.0.0.1:0"}, Peer: Addr{"udp", "127.0.0.1:1"}},
				MG:  SideConfig{Codec: name, Listen: Addr{"udp", "127.0.0.1:0"}, Peer: Addr{"udp", "127.0.0.1:2"}},
			})
			if err != nil {
				t.Fatal(err)
			}
			s := p.sides[mgSide]
			decode := func(b []byte) {
				m, release, _, err := codec.DecodeTransient(b, name, codec.InputForm, p.opts)
				if err != nil {
					t.Fatal(err)
				}
				s.learnMID(&m.Mess.MId)
				release()
			}
			for _, mid := range mids {
				msg := encode(t, "!/1 "+mid+"\nP=1{C=-{N=root}}", name)
				buf := append([]byte(nil), msg...)
				s.mid.Store(nil)
				decode(buf)
				kept := s.mid.Load()
				for _, other := range mids {
					if other != mid {
						req := encode(t, "!/1 "+other+"\nT=2{C=-{N=root{OE=1{al/of}}}}", name)
						_, release, _, err := codec.DecodeTransient(req, name, codec.InputForm, p.opts)
						if err != nil {
							t.Fatal(err)
						}
						release() // its memory is the next decode's
					}
				}
				for i := range buf {
					buf[i] = 'x'
				}
				want, _, err := codec.DecodeAs(msg, name, codec.InputForm, codec.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if kept == nil || !midEqual(kept, &want.Mess.MId) {
					t.Errorf("%s: kept mId changed after its decoding's memory was reused", mid)
				} else if got := midString(kept); got != midString(&want.Mess.MId) {
					t.Errorf("%s: kept %s", mid, got)
				}
			}
		})
	}
}
