package per

import (
	"testing"

	"megaco/internal/corpus"
	"megaco/internal/model"
)

// Mean per message over the corpus: ns/msg. The X.691 runtime has its own
// benchmarks in x691.

// BenchmarkDecodeMessage decodes with a reused Decoder (BER's
// BenchmarkDecodeReuse).
func BenchmarkDecodeMessage(b *testing.B) {
	var dec Decoder
	corpus.Bench(b, corpus.List(b, ".per"), 0, func(data []byte) error {
		_, err := dec.Decode(data)
		return err
	})
}

func BenchmarkEncodeMessage(b *testing.B) {
	msgs := corpus.Decoded(b, ".per", Codec{})
	buf := make([]byte, 0, 64<<10)
	corpus.Bench(b, msgs, 0, func(m *model.MegacoMessage) (err error) {
		buf, err = Append(buf[:0], m, Options{})
		return err
	})
}
