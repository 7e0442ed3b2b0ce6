package text

import (
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// BenchmarkSummary* scan the corpus in one style, as the Decode*Reuse
// benchmarks decode it: the ratio of their ns/msg is Scan's speed-up over
// the reused full decode.
func scanBench(b *testing.B, style string) {
	var msgs [][]byte
	size := 0
	for _, c := range loadCorpus(b) {
		m := c.pretty
		if style == "compact" {
			m = c.compact
		}
		msgs = append(msgs, m)
		size += len(m)
	}
	var s scan.Summary
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range msgs {
			if err := Scan(m, &s, limits.Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
}

func BenchmarkSummaryCompact(b *testing.B) { scanBench(b, "compact") }
func BenchmarkSummaryPretty(b *testing.B)  { scanBench(b, "pretty") }
