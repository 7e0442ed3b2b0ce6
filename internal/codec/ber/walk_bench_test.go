package ber

import (
	"megaco/internal/codec/limits"
	"testing"

	"megaco/internal/corpus"
)

// BenchmarkWalk parses every TLV header of the corpus and nothing else: the
// floor under a decode.
func BenchmarkWalk(b *testing.B) {
	files := corpus.Files(b, ".ber")
	var msgs [][]byte
	for _, k := range corpus.Names(files) {
		msgs = append(msgs, files[k])
	}
	d := &decoder{lim: limits.Default}
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
	for b.Loop() {
		for _, m := range msgs {
			d.data, d.elems = m, 0
			if err := walk(0, len(m)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/msg")
}
