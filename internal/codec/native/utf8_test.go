package native

import (
	"strings"
	"testing"
	"unicode/utf8"
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
