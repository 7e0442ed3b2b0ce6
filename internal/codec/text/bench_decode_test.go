package text

import "testing"

// The decode benchmarks run over the whole corpus; ns/msg is the mean per
// message. Reuse decodes with one Decoder, as a server loop would (no
// allocation once warm); the others call Decode, whose messages are the
// caller's to keep.

func decBench(b *testing.B, style string, reuse bool) {
	corpus := loadCorpus(b)
	var msgs [][]byte
	size := 0
	for _, c := range corpus {
		m := c.pretty
		if style == "compact" {
			m = c.compact
		}
		msgs = append(msgs, m)
		size += len(m)
	}
	var dec Decoder
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range msgs {
			var err error
			if reuse {
				_, err = dec.Decode(m)
			} else {
				_, err = Decode(m, Options{})
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
}

func BenchmarkDecodeCompact(b *testing.B)      { decBench(b, "compact", false) }
func BenchmarkDecodePretty(b *testing.B)       { decBench(b, "pretty", false) }
func BenchmarkDecodeCompactReuse(b *testing.B) { decBench(b, "compact", true) }
func BenchmarkDecodePrettyReuse(b *testing.B)  { decBench(b, "pretty", true) }
