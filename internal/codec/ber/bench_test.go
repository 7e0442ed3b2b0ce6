package ber

import (
	"testing"

	"megaco/internal/corpus"
	"megaco/internal/model"
)

// The benchmarks run over the whole corpus; ns/msg is the mean per
// message, as OTP's table has it.

func BenchmarkDecode(b *testing.B) {
	msgs := corpus.List(b, ".ber")
	corpus.Bench(b, msgs, corpus.TotalSize(msgs), func(data []byte) error {
		_, err := Decode(data, Options{})
		return err
	})
}

func BenchmarkEncode(b *testing.B) {
	msgs := corpus.Decoded(b, ".ber", Codec{})
	buf := make([]byte, 0, 64<<10)
	corpus.Bench(b, msgs, corpus.TotalSize(corpus.List(b, ".ber")), func(m *model.MegacoMessage) (err error) {
		buf, err = Append(buf[:0], m, Options{})
		return err
	})
}

func BenchmarkDecodeReuse(b *testing.B) {
	msgs := corpus.List(b, ".ber")
	var dec Decoder
	corpus.Bench(b, msgs, corpus.TotalSize(msgs), func(data []byte) error {
		_, err := dec.Decode(data)
		return err
	})
}

// BenchmarkWalk parses every TLV header of the corpus and nothing else: the
// floor under a decode.
func BenchmarkWalk(b *testing.B) {
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
	corpus.Bench(b, corpus.List(b, ".ber"), 0, func(data []byte) error {
		d.data, d.elems = data, 0
		return walk(0, len(data))
	})
}
