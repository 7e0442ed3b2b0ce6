package bench

import (
	"strings"
	"testing"
)

// The best of each side is its fastest row of the family, whatever its
// options; ours are only rows that ran every message, of the families
// OTP's rows are compared with.
func TestBestAgainstBest(t *testing.T) {
	rows := []Row{
		{Impl: "megaco", Config: "ber bin", Family: "ber", Messages: 3, EncodeUS: 3, DecodeUS: 6},
		{Impl: "megaco", Config: "ber bin [native,reuse]", Family: "ber", Messages: 3, EncodeUS: 0.5, DecodeUS: 1},
		{Impl: "megaco", Config: "ber bin [rfc]", Family: "ber", Messages: 2, EncodeUS: 0.1, DecodeUS: 0.1},
		{Impl: "otp", Config: "ber bin", Family: "ber", Messages: 3, EncodeUS: 9, DecodeUS: 8, Versus: []Ratio{{Config: "ber bin"}}},
		{Impl: "otp", Config: "ber bin [native]", Family: "ber", Messages: 3, EncodeUS: 6, DecodeUS: 4, Versus: []Ratio{{Config: "ber bin"}}},
		{Impl: "megaco", Config: "native", Family: "native", Messages: 3, EncodeUS: 1, DecodeUS: 2},
		{Impl: "megaco", Config: "native-s2 [reuse]", Family: "native-s2", Messages: 3, EncodeUS: 0.9, DecodeUS: 3},
		{Impl: "otp", Config: "erl_dist [megaco_compressed]", Family: "erl_dist", Messages: 3, EncodeUS: 2.5, DecodeUS: 3, Versus: []Ratio{{Config: "native"}}},
		{Impl: "otp", Config: "erl_dist [compressed]", Family: "erl_dist", Messages: 3, EncodeUS: 20, DecodeUS: 14, Versus: []Ratio{{Config: "native-s2 [reuse]"}}},
		{Impl: "megaco", Config: "pretty", Family: "pretty", Messages: 3, EncodeUS: 1, DecodeUS: 2}, // no OTP row
	}
	want := []Best{
		{"ber", "decode", "ber bin [native,reuse]", 1, "ber bin [native]", 4, 4},
		{"ber", "encode", "ber bin [native,reuse]", 0.5, "ber bin [native]", 6, 12},
		{"erl_dist", "decode", "native", 2, "erl_dist [megaco_compressed]", 3, 1.5},
		{"erl_dist", "encode", "native-s2 [reuse]", 0.9, "erl_dist [megaco_compressed]", 2.5, 2.5 / 0.9},
	}
	got := bestAgainstBest(rows)
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	var b strings.Builder
	writeBest(&b, got, 20)
	if !strings.Contains(b.String(), "ber      decode  ber bin [native,reuse]") || !strings.Contains(b.String(), "4.0x") {
		t.Errorf("text:\n%s", b.String())
	}
}
