package per

import (
	"bytes"
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
)

// TestRewriteCorpus: Rewrite is decode -> change -> encode, byte for
// byte, over the corpus.
func TestRewriteCorpus(t *testing.T) { corpus.CheckRewrite(t, ".per", Codec{}, Rewrite, nil) }

// FuzzRewrite: no input panics Rewrite; for a message as the encoder
// writes it, it agrees with decode -> change -> encode or fails with the
// codec's error.
func FuzzRewrite(f *testing.F) {
	corpus.Seed(f, ".per")
	cases := corpus.ChangeCases()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, cc := range cases[:6] {
			got, err := Rewrite(nil, data, &cc.Changes, limits.Limits{})
			if err != nil {
				corpus.CodecError(t, err, "per")
			}
			m, derr := Decode(data, Options{})
			if derr != nil {
				return
			}
			if again, _ := Append(nil, m, Options{}); !bytes.Equal(again, data) {
				return // not canonical: only the IDs are rewritten
			}
			cc.Changes.Apply(m)
			want, werr := Append(nil, m, Options{})
			if werr == nil && err == nil && !bytes.Equal(got, want) {
				t.Fatalf("%s: rewrite %x, want %x", cc.Name, got, want)
			}
			if werr == nil && err != nil {
				t.Fatalf("%s: %v", cc.Name, err)
			}
		}
	})
}

// BenchmarkRewrite against BenchmarkRewriteByModel: ns/msg over the corpus,
// transaction and context IDs +1.
func BenchmarkRewrite(b *testing.B) {
	benchRewrite(b, Rewrite)
}

func BenchmarkRewriteByModel(b *testing.B) {
	var dec Decoder
	benchRewrite(b, func(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
		m, err := dec.Decode(data)
		if err != nil {
			return dst, err
		}
		ch.Apply(m)
		return Append(dst, m, Options{})
	})
}

func benchRewrite(b *testing.B, rw corpus.Rewriter) {
	msgs := corpus.List(b, ".per")
	plus1 := func(v uint32) uint32 { return v + 1 }
	ch := scan.Changes{TransactionIDs: plus1, ContextIDs: plus1}
	var buf []byte
	corpus.Bench(b, len(msgs), 0, func() error {
		for _, data := range msgs {
			var err error
			if buf, err = rw(buf[:0], data, &ch, limits.Limits{}); err != nil {
				return err
			}
		}
		return nil
	})
}
