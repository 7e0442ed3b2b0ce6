package text

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"megaco/internal/codec/ber"
	"megaco/internal/mapping"
	"megaco/internal/model"
)

// corpusDir is Erlang/OTP's golden corpus: each message in pretty and
// compact text, BER and PER, as OTP megaco 4.4 encodes it.
const corpusDir = "../../../corpus/otp-time-test"

type corpusMsg struct {
	name                      string
	version                   int
	pretty, compact, ber, per []byte
}

// loadCorpus reads the corpus in MANIFEST.tsv order.
func loadCorpus(tb testing.TB) []corpusMsg {
	tb.Helper()
	manifest, err := os.ReadFile(filepath.Join(corpusDir, "MANIFEST.tsv"))
	if err != nil {
		tb.Fatalf("corpus: %v", err)
	}
	var msgs []corpusMsg
	for i, line := range strings.Split(strings.TrimRight(string(manifest), "\n"), "\n") {
		if i == 0 {
			continue
		}
		f := strings.Split(line, "\t")
		v, err := strconv.Atoi(f[1])
		if err != nil {
			tb.Fatalf("MANIFEST.tsv line %d: %v", i+1, err)
		}
		m := corpusMsg{name: f[0], version: v}
		for _, x := range []struct {
			ext string
			dst *[]byte
		}{{".ber", &m.ber}, {".per", &m.per}, {".pretty.txt", &m.pretty}, {".compact.txt", &m.compact}} {
			if *x.dst, err = os.ReadFile(filepath.Join(corpusDir, m.name+x.ext)); err != nil {
				tb.Fatal(err)
			}
		}
		msgs = append(msgs, m)
	}
	if len(msgs) != 149 {
		tb.Fatalf("corpus has %d messages, want 149", len(msgs))
	}
	return msgs
}

// textForm is the text form of a corpus message's golden BER (ber.Decode,
// then mapping.ToText): what the decoder must give, and what the encoder
// writes from.
func textForm(tb testing.TB, c corpusMsg) *model.MegacoMessage {
	tb.Helper()
	m, err := ber.Decode(c.ber, ber.Options{})
	if err != nil {
		tb.Fatalf("%s: ber: %v", c.name, err)
	}
	if err := mapping.ToText(m, c.version, nil); err != nil {
		tb.Fatalf("%s: mapping: %v", c.name, err)
	}
	return m
}
