package ber

import (
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
)

// The benchmarks run over the whole corpus; ns/msg is the mean per
// message, as OTP's table has it.

func BenchmarkDecode(b *testing.B) {
	msgs := corpus.List(b, ".ber")
	corpus.Bench(b, len(msgs), corpus.TotalSize(msgs), func() error {
		for _, data := range msgs {
			if _, err := Decode(data, Options{}); err != nil {
				return err
			}
		}
		return nil
	})
}

func BenchmarkEncode(b *testing.B) {
	msgs := corpus.Decoded(b, ".ber", Codec{})
	buf := make([]byte, 0, 64<<10)
	corpus.Bench(b, len(msgs), corpus.TotalSize(corpus.List(b, ".ber")), func() (err error) {
		for _, m := range msgs {
			if buf, err = Append(buf[:0], m, Options{}); err != nil {
				return err
			}
		}
		return nil
	})
}

func BenchmarkDecodeReuse(b *testing.B) {
	msgs := corpus.List(b, ".ber")
	var dec Decoder
	corpus.Bench(b, len(msgs), corpus.TotalSize(msgs), func() error {
		for _, data := range msgs {
			if _, err := dec.Decode(data); err != nil {
				return err
			}
		}
		return nil
	})
}

// BenchmarkWalk parses every TLV header of the corpus and nothing else: the
// floor under a decode.
func BenchmarkWalk(b *testing.B) {
	msgs := corpus.List(b, ".ber")
	d := newDecoder(nil)
	var walk func(off, end int) error
	walk = func(off, end int) error {
		for off < end {
			h, err := d.header(off, end)
			if err != nil {
				return err
			}
			if h.cons {
				if err := walk(h.start, h.end); err != nil {
					return err
				}
			}
			off = h.next
		}
		return nil
	}
	corpus.Bench(b, len(msgs), 0, func() error {
		for _, data := range msgs {
			d.data, d.elems = data, 0
			if err := walk(0, len(data)); err != nil {
				return err
			}
		}
		return nil
	})
}

// BenchmarkScan scans every corpus message into one reused Summary, at
// each depth: to compare with BenchmarkDecodeReuse (issue 18: at least
// 10x faster).
func BenchmarkScan(b *testing.B) {
	msgs := corpus.List(b, ".ber")
	for _, depth := range depths {
		b.Run(depth.String(), func(b *testing.B) {
			s := scan.Summary{Want: depth}
			corpus.Bench(b, len(msgs), corpus.TotalSize(msgs), func() error {
				for _, data := range msgs {
					if err := Scan(data, &s, limits.Limits{}); err != nil {
						return err
					}
				}
				return nil
			})
		})
	}
}

// BenchmarkRewrite changes the transaction and context IDs of every corpus
// message in its bytes: to compare with BenchmarkRecode (issue 18: at
// least 5x faster).
func BenchmarkRewrite(b *testing.B) {
	msgs := corpus.List(b, ".ber")
	ch := benchChanges()
	buf := make([]byte, 0, 64<<10)
	corpus.Bench(b, len(msgs), corpus.TotalSize(msgs), func() (err error) {
		for _, data := range msgs {
			if buf, err = Rewrite(buf[:0], data, ch, limits.Limits{}); err != nil {
				return err
			}
		}
		return nil
	})
}

// BenchmarkRecode makes the same changes by decode (reused decoder) ->
// change -> encode (reused buffer).
func BenchmarkRecode(b *testing.B) {
	msgs := corpus.List(b, ".ber")
	ch := benchChanges()
	var dec Decoder
	buf := make([]byte, 0, 64<<10)
	corpus.Bench(b, len(msgs), corpus.TotalSize(msgs), func() error {
		for _, data := range msgs {
			m, err := dec.Decode(data)
			if err != nil {
				return err
			}
			scan.Apply(m, ch)
			if buf, err = Append(buf[:0], m, Options{}); err != nil {
				return err
			}
		}
		return nil
	})
}

// benchChanges are a load generator's: new transaction and context IDs.
func benchChanges() *scan.Changes {
	return &scan.Changes{
		TransactionIDs: func(x uint32) uint32 { return x + 1000 },
		ContextIDs:     func(x uint32) uint32 { return x + 1000 },
	}
}
