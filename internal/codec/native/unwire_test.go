package native

import (
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// TestUnwireUTF8: the word-at-a-time check agrees with utf8.Valid
// wherever a non-ASCII octet falls (in a word, in the tail), for valid
// sequences that cross a word's end and for broken ones.
func TestUnwireUTF8(t *testing.T) {
	for _, ins := range []string{"\xff", "é", "\xe2\x82", "€", "\xc3"} {
		for n := 0; n <= 20; n++ {
			for at := 0; at <= n; at++ {
				s := strings.Repeat("a", at) + ins + strings.Repeat("b", n-at)
				if got, want := unwireUTF8([]byte(s)) == nil, utf8.ValidString(s); got != want {
					t.Errorf("%q: valid %v, want %v", s, got, want)
				}
			}
		}
	}
	if unwireUTF8(nil) != nil || unwireUTF8([]byte("20261124")) != nil {
		t.Error("ASCII refused")
	}
}

// TestUnwireVarint: the inline reads of short varints agree with
// protowire on values of every size, whole and cut short.
func TestUnwireVarint(t *testing.T) {
	for _, v := range []uint64{0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 2944, 55555, 0x1fffff, 0x200000, 1<<32 - 1, 1<<64 - 1} {
		b := protowire.AppendVarint(nil, v)
		for k := 0; k <= len(b); k++ {
			got, n, err := unwireVarint(b[:k], protowire.VarintType)
			want, wn := protowire.ConsumeVarint(b[:k])
			if wn < 0 {
				if err == nil {
					t.Errorf("%x: read %d, want an error", b[:k], got)
				}
				continue
			}
			if err != nil || got != want || n != wn {
				t.Errorf("%x: %d, %d, %v; want %d, %d", b[:k], got, n, err, want, wn)
			}
		}
	}
}
