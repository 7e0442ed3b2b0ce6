package mapping

import (
	"testing"

	"megaco/internal/codec/ber"
	"megaco/internal/codec/text"
	"megaco/internal/corpus"
	"megaco/internal/model"
)

// The mapping's cost per corpus pass is a Benchmark*Map less its
// Benchmark*Decode: a converted model's names live in the Converter's
// memory until its next conversion, so each pass decodes afresh.

// BenchmarkToTextDecode is BenchmarkToTextMap's decode alone.
func BenchmarkToTextDecode(b *testing.B) { benchMapping(b, ".ber", false) }

// BenchmarkToTextMap decodes BER to the binary form and maps it to text
// form, as a proxy does for the BER side's messages.
func BenchmarkToTextMap(b *testing.B) { benchMapping(b, ".ber", true) }

// BenchmarkToBinaryDecode is BenchmarkToBinaryMap's decode alone.
func BenchmarkToBinaryDecode(b *testing.B) { benchMapping(b, ".compact.txt", false) }

// BenchmarkToBinaryMap decodes compact text and maps it to binary form,
// as a proxy does for the text side's messages.
func BenchmarkToBinaryMap(b *testing.B) { benchMapping(b, ".compact.txt", true) }

func benchMapping(b *testing.B, ext string, convert bool) {
	msgs := corpus.List(b, ext)
	var (
		c   Converter
		bd  ber.Decoder
		td  text.Decoder
		m   *model.MegacoMessage
		err error
	)
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range msgs {
			if ext == ".ber" {
				m, err = bd.Decode(data)
			} else {
				m, err = td.Decode(data)
			}
			if err != nil {
				b.Fatal(err)
			}
			switch {
			case !convert:
			case ext == ".ber":
				err = c.ToText(m, int(m.Mess.Version), nil)
			default:
				err = c.ToBinary(m, int(m.Mess.Version), nil)
			}
			_ = err // a few corpus messages have values with no binary form
		}
	}
}

// A reused Converter allocates nothing once its memory has grown, for
// every corpus message that maps (SDP line names and the nil Config
// included), in either direction: the proxy maps every message it
// transcodes.
func TestConverterAllocs(t *testing.T) {
	var (
		c  Converter
		bd ber.Decoder
		td text.Decoder
	)
	for _, ext := range []string{".ber", ".compact.txt"} {
		for name, data := range corpus.Files(t, ext) {
			convert := func() error {
				if ext == ".ber" {
					m, err := bd.Decode(data)
					if err != nil {
						return err
					}
					return c.ToText(m, int(m.Mess.Version), nil)
				}
				m, err := td.Decode(data)
				if err != nil {
					return err
				}
				return c.ToBinary(m, int(m.Mess.Version), nil)
			}
			if convert() != nil {
				continue // no binary form: the error allocates
			}
			if n := testing.AllocsPerRun(5, func() { _ = convert() }); n != 0 {
				t.Errorf("%s%s: %v allocations", name, ext, n)
			}
		}
	}
}
