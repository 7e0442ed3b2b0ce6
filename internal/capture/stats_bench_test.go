package capture_test

import (
	"bytes"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"megaco/internal/capture"
	"megaco/internal/capture/pcapng"
	"megaco/internal/capture/stats"
	"megaco/internal/codec"
)

// BenchmarkStats: the statistics of a 10000-message capture (the call
// flow in pretty text, BER and PER), as megaco pcap --stats computes them
// (scan: the codec's scanner) and as it did before (decode: every message
// decoded, then scan.FromModel). Reading the capture is in both.
func BenchmarkStats(b *testing.B) {
	const n = 10000
	for _, to := range []string{"pretty", "ber", "per"} {
		data := statsCapture(b, to, n)
		for _, path := range []string{"scan", "decode"} {
			b.Run(to+"-"+path, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if got := countStats(b, data, path == "decode"); got != n {
						b.Fatalf("%d messages counted", got)
					}
				}
			})
		}
	}
}

// statsCapture is benchCapture's UDP capture of the call flow (pretty),
// or n messages of OTP's test corpus in codec to, in turn each way.
func statsCapture(b *testing.B, to string, n int) []byte {
	if to == "pretty" {
		return benchCapture(b, "udp", n)
	}
	files, _ := filepath.Glob("../../corpus/otp-time-test/*." + to)
	if len(files) == 0 {
		b.Fatalf("no .%s corpus", to)
	}
	var buf bytes.Buffer
	w, _ := pcapng.NewWriter(&buf, pcapng.Options{})
	ends := [2]netip.AddrPort{netip.MustParseAddrPort("10.0.0.1:2944"), netip.MustParseAddrPort("10.0.0.2:2944")}
	at := time.Unix(1_800_000_000, 0)
	for i := range n {
		m, err := os.ReadFile(files[i%len(files)])
		if err == nil {
			err = w.UDP(at.Add(time.Duration(i)*time.Millisecond), ends[i%2], ends[1-i%2], m)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	return buf.Bytes()
}

// countStats computes the statistics of a capture and returns how many
// messages they counted.
func countStats(b *testing.B, data []byte, decode bool) int {
	r, err := capture.NewReader(bytes.NewReader(data), capture.Options{})
	if err != nil {
		b.Fatal(err)
	}
	st, z, got := stats.New(), stats.Summarizer{From: "auto"}, 0
	for {
		m, err := r.Next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			b.Fatal(err)
		}
		if decode {
			dm, name, err := codec.DecodeAs(m.Data, "auto", codec.InputForm, codec.Options{})
			if err != nil {
				b.Fatal(err)
			}
			st.Add(m.Time, m.Src, m.Dst, z.FromModel(dm, name))
		} else {
			sum, _, err := z.Summarize(m.Data)
			if err != nil {
				b.Fatal(err)
			}
			st.Add(m.Time, m.Src, m.Dst, sum)
		}
		got++
	}
}
