package per

import (
	"testing"

	"megaco/internal/corpus"
	"megaco/internal/model"
)

// Mean per message over the corpus: ns/msg.

func BenchmarkDecodeMessage(b *testing.B) {
	files := corpus.Files(b, ".per")
	var msgs [][]byte
	for _, k := range corpus.Names(files) {
		msgs = append(msgs, files[k])
	}
	var md Decoder
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range msgs {
			if _, err := md.Decode(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
}

func BenchmarkEncodeMessage(b *testing.B) {
	files := corpus.Files(b, ".per")
	var msgs []*model.MegacoMessage
	for _, k := range corpus.Names(files) {
		m, err := Decode(files[k], Options{})
		if err != nil {
			b.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	buf := make([]byte, 0, 64<<10)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range msgs {
			var err error
			if buf, err = Append(buf[:0], m, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
}
