package per

import (
	"testing"

	"megaco/internal/corpus"
)

// Mean per message over the corpus: ns/msg. The X.691 runtime has its own
// benchmarks in x691.

// BenchmarkDecodeMessage decodes with a reused Decoder (BER's
// BenchmarkDecodeReuse).
func BenchmarkDecodeMessage(b *testing.B) {
	msgs := corpus.List(b, ".per")
	var dec Decoder
	corpus.Bench(b, len(msgs), 0, func() error {
		for _, data := range msgs {
			if _, err := dec.Decode(data); err != nil {
				return err
			}
		}
		return nil
	})
}

func BenchmarkEncodeMessage(b *testing.B) {
	msgs := corpus.Decoded(b, ".per", Codec{})
	buf := make([]byte, 0, 64<<10)
	corpus.Bench(b, len(msgs), 0, func() (err error) {
		for _, m := range msgs {
			if buf, err = Append(buf[:0], m, Options{}); err != nil {
				return err
			}
		}
		return nil
	})
}
