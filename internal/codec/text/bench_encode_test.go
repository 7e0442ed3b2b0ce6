package text

import (
	"testing"

	"megaco/internal/model"
)

// Encode benchmarks over the whole corpus: one iteration encodes every
// message once into a reused buffer; ns/msg is the mean per message.
// Erlang/OTP 25 megaco 4.4 on its codec_bench (tools/otp): compact 4.0
// µs/msg, pretty 5.2 µs/msg.

func etBenchEncode(b *testing.B, style Style) {
	msgs := loadCorpus(b)
	ms := make([]*model.MegacoMessage, len(msgs))
	size := 0
	for i, c := range msgs {
		ms[i] = textForm(b, c)
		if style == Pretty {
			size += len(c.pretty)
		} else {
			size += len(c.compact)
		}
	}
	buf := make([]byte, 0, 4096)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, m := range ms {
			var err error
			if buf, err = Append(buf[:0], m, style, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ms)), "ns/msg")
}

func BenchmarkEncodeCompact(b *testing.B) { etBenchEncode(b, Compact) }
func BenchmarkEncodePretty(b *testing.B)  { etBenchEncode(b, Pretty) }
