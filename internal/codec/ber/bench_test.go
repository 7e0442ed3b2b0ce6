package ber

import (
	"testing"

	"megaco/internal/corpus"
	"megaco/internal/model"
)

// The benchmarks run over the whole corpus; ns/op divided by the message
// count (reported as ns/msg) is the mean per message, as OTP's table has it.

func BenchmarkDecode(b *testing.B) {
	files := corpus.Files(b, ".ber")
	var msgs [][]byte
	size := 0
	for _, k := range corpus.Names(files) {
		msgs = append(msgs, files[k])
		size += len(files[k])
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range msgs {
			if _, err := Decode(m, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
}

func BenchmarkEncode(b *testing.B) {
	files := corpus.Files(b, ".ber")
	var msgs []*model.MegacoMessage
	size := 0
	for _, k := range corpus.Names(files) {
		m, err := Decode(files[k], Options{})
		if err != nil {
			b.Fatal(err)
		}
		msgs = append(msgs, m)
		size += len(files[k])
	}
	buf := make([]byte, 0, 64<<10)
	b.SetBytes(int64(size))
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

func BenchmarkDecodeReuse(b *testing.B) {
	files := corpus.Files(b, ".ber")
	var msgs [][]byte
	size := 0
	for _, k := range corpus.Names(files) {
		msgs = append(msgs, files[k])
		size += len(files[k])
	}
	var dec Decoder
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range msgs {
			if _, err := dec.Decode(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
}
