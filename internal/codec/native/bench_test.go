package native

import "testing"

func benchCodec(b *testing.B, c Compression) {
	_, msgs, _ := corpus(b)
	codec := Codec{Options: Options{Compression: c}}
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
}

func BenchmarkNative(b *testing.B)     { benchCodec(b, None) }
func BenchmarkNativeZstd(b *testing.B) { benchCodec(b, Zstd) }
func BenchmarkNativeS2(b *testing.B)   { benchCodec(b, S2) }
