package text

import (
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// BenchmarkSummary* scan the corpus in one style, as the Decode*Reuse
// benchmarks decode it: the ratio of their ns/msg is Scan's speed-up over
// the reused full decode.
func scanBench(b *testing.B, style string, want scan.Depth) {
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
	s := scan.Summary{Want: want}
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

func BenchmarkSummaryCompact(b *testing.B) { scanBench(b, "compact", scan.Everything) }
func BenchmarkSummaryPretty(b *testing.B)  { scanBench(b, "pretty", scan.Everything) }

// BenchmarkSummaryDepth scans at each shallower depth (Summary.Want).
func BenchmarkSummaryDepth(b *testing.B) {
	for _, style := range []string{"compact", "pretty"} {
		for _, d := range []scan.Depth{scan.Transactions, scan.Actions, scan.Commands} {
			b.Run(style+"/"+d.String(), func(b *testing.B) { scanBench(b, style, d) })
		}
	}
}

// BenchmarkRewrite* rewrite the corpus in one style with new transaction
// and context IDs (with a Rewriter: from templates, once warm); BenchmarkDecodeChangeEncode*
// do the same by decode (reused decoder) -> change -> encode.
func rewriteBench(b *testing.B, style Style, slow bool) {
	var msgs [][]byte
	for _, c := range loadCorpus(b) {
		m := c.pretty
		if style == Compact {
			m = c.compact
		}
		msgs = append(msgs, m)
	}
	n := uint32(0)
	next := func(uint32) uint32 { n++; return n }
	ch := &scan.Changes{TransactionIDs: next, ContextIDs: next}
	var dec Decoder
	var out []byte
	rw := NewRewriter(style)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range msgs {
			var err error
			if slow {
				mm, derr := dec.Decode(m)
				if derr != nil {
					b.Fatal(derr)
				}
				scan.Apply(mm, ch)
				out, err = Append(out[:0], mm, style, Options{})
			} else {
				out, err = rw.Rewrite(out[:0], m, ch, limits.Limits{})
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
}

func BenchmarkRewriteCompact(b *testing.B)            { rewriteBench(b, Compact, false) }
func BenchmarkRewritePretty(b *testing.B)             { rewriteBench(b, Pretty, false) }
func BenchmarkDecodeChangeEncodeCompact(b *testing.B) { rewriteBench(b, Compact, true) }
func BenchmarkDecodeChangeEncodePretty(b *testing.B)  { rewriteBench(b, Pretty, true) }
