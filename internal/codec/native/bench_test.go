package native_test

import (
	"testing"

	"megaco/internal/codec/native"
)

func benchCodec(b *testing.B, c native.Compression) {
	_, msgs, _ := corpusMessages(b)
	codec := native.Codec{Options: native.Options{Compression: c}}
	var encs [][]byte
	for _, m := range msgs {
		e, _ := codec.Append(nil, m)
		encs = append(encs, e)
	}
	b.Run("encode", func(b *testing.B) {
		buf := make([]byte, 0, 4096)
		b.ReportAllocs()
		for b.Loop() {
			for _, m := range msgs {
				buf, _ = codec.Append(buf[:0], m)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, e := range encs {
				if _, err := codec.Decode(e); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
	})
	b.Run("decode-reuse", func(b *testing.B) {
		dec := native.Decoder{Options: codec.Options}
		b.ReportAllocs()
		for b.Loop() {
			for _, e := range encs {
				if _, err := dec.Decode(e); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
	})
}

func BenchmarkNative(b *testing.B)     { benchCodec(b, native.None) }
func BenchmarkNativeZstd(b *testing.B) { benchCodec(b, native.Zstd) }
func BenchmarkNativeS2(b *testing.B)   { benchCodec(b, native.S2) }
