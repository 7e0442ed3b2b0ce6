package capture_test

import (
	"bytes"
	"io"
	"net/netip"
	"testing"
	"time"

	"megaco/internal/capture"
	"megaco/internal/capture/pcapng"
	"megaco/internal/codec"
)

// benchCapture is n call flow messages over UDP or TCP (TPKT, a segment
// per message), written with our pcapng writer.
func benchCapture(b *testing.B, transport string, n int) []byte {
	msgs, fromMGC, _ := flow(b)
	var buf bytes.Buffer
	w, _ := pcapng.NewWriter(&buf, pcapng.Options{})
	mgc, mg := netip.MustParseAddrPort("10.0.0.1:2944"), netip.MustParseAddrPort("10.0.0.2:2944")
	at := time.Unix(1_800_000_000, 0)
	for i := range n {
		src, dst := mgc, mg
		if !fromMGC[i%len(msgs)] {
			src, dst = mg, mgc
		}
		m := msgs[i%len(msgs)]
		var err error
		if transport == "udp" {
			err = w.UDP(at.Add(time.Duration(i)*time.Millisecond), src, dst, m)
		} else {
			err = w.TCP(at.Add(time.Duration(i)*time.Millisecond), src, dst, tpkt(m))
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	return buf.Bytes()
}

// BenchmarkRead: messages read per second from a capture in memory,
// without decoding them (Read) and decoding each (ReadDecode).
func BenchmarkRead(b *testing.B) {
	const n = 10000
	for _, transport := range []string{"udp", "tcp"} {
		data := benchCapture(b, transport, n)
		for _, decode := range []bool{false, true} {
			name := transport
			if decode {
				name += "-decode"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					r, err := capture.NewReader(bytes.NewReader(data), capture.Options{})
					if err != nil {
						b.Fatal(err)
					}
					got := 0
					for {
						m, err := r.Next()
						if err == io.EOF {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
						if decode {
							if _, _, err := codec.DecodeAs(m.Data, "auto", codec.InputForm, codec.Options{}); err != nil {
								b.Fatal(err)
							}
						}
						got++
					}
					if got != n {
						b.Fatalf("%d messages", got)
					}
				}
				b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "msgs/s")
			})
		}
	}
}
