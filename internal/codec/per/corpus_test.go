package per

import (
	"bytes"
	"reflect"
	"testing"

	"megaco/internal/codec/ber"
	"megaco/internal/corpus"
)

// TestCorpusRoundTrip: every golden .per decodes and re-encodes to OTP's
// bytes.
func TestCorpusRoundTrip(t *testing.T) { corpus.RoundTrip(t, ".per", Codec{}) }

// TestCrossCodec: BER -> PER equals the golden .per, PER -> BER equals the
// golden .ber, and both decode to the same message.
func TestCrossCodec(t *testing.T) {
	bers, pers := corpus.Files(t, ".ber"), corpus.Files(t, ".per")
	toPER, toBER, same := 0, 0, 0
	for _, name := range corpus.Names(bers) {
		mb, err := ber.Decode(bers[name], ber.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		mp, err := Decode(pers[name], Options{})
		if err != nil {
			t.Errorf("%s: PER decode: %v", name, err)
			continue
		}
		if reflect.DeepEqual(mb, mp) {
			same++
		} else {
			t.Errorf("%s: BER and PER decode to different messages", name)
		}
		if out, err := Append(nil, mb, Options{}); err != nil {
			t.Errorf("%s: BER->PER: %v", name, err)
		} else if !bytes.Equal(out, pers[name]) {
			t.Errorf("%s: BER->PER differs from the golden .per\n got %x\nwant %x", name, out, pers[name])
		} else {
			toPER++
		}
		if out, err := ber.Append(nil, mp, ber.Options{}); err != nil {
			t.Errorf("%s: PER->BER: %v", name, err)
		} else if !bytes.Equal(out, bers[name]) {
			t.Errorf("%s: PER->BER differs from the golden .ber", name)
		} else {
			toBER++
		}
	}
	t.Logf("BER->PER %d/%d, PER->BER %d/%d, same message %d/%d", toPER, len(bers), toBER, len(bers), same, len(bers))
}
