package codecerr

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestErrorText(t *testing.T) {
	errNoText := errors.New("no text form")
	for _, c := range []struct {
		err  error
		want string
	}{
		{&Error{Codec: "ber", Pos: AtByte(24), Msg: "length 127 exceeds the 72 bytes left"}, "ber: offset 24: length 127 exceeds the 72 bytes left"},
		{&Error{Codec: "per", Pos: AtBit(72), Msg: "55 octets of trailing data"}, "per: bit 72: 55 octets of trailing data"},
		{&Error{Codec: "compact", Pos: AtLine(3, 17, 40), Msg: "expected '='"}, "compact: 3:17: expected '='"},
		{New("native", Decode, Malformed, "bad wire"), "native: decode: bad wire"},
		{At(AtIndex(At(New("text", Encode, Schema, "x"), "streams"), 2), "mess"), "text: encode: mess[2].streams: x"},
		{New("mapping", Map, Mapping, "unknown name"), "mapping: unknown name"},
		{(&Error{Codec: "mapping", Op: Map, Msg: "m", Err: errNoText}).SetPath("mess.mId"), "mapping: mess.mId: m"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestAsAndIs(t *testing.T) {
	cause := errors.New("cause")
	e := &Error{Codec: "text", Op: Encode, Kind: Schema, Msg: "m", Err: cause}
	wrapped := fmt.Errorf("context: %w", errors.Join(errors.New("other"), e))
	got, ok := As(wrapped)
	if !ok || got != e {
		t.Fatalf("As(%v) = %v, %v", wrapped, got, ok)
	}
	if !errors.Is(wrapped, cause) {
		t.Error("the cause is not seen by errors.Is")
	}
	if _, ok := As(errors.New("plain")); ok {
		t.Error("a plain error is not an *Error")
	}
	if At(nil, "x") != nil || AtIndex(nil, 1) != nil {
		t.Error("At(nil) is not nil")
	}
	plain := errors.New("plain")
	if At(plain, "x") != plain {
		t.Error("At changed a foreign error")
	}
}

func TestKinds(t *testing.T) {
	want := []string{"malformed", "too_large", "unsupported", "mapping", "schema"}
	ks := Kinds()
	if len(ks) != len(want) {
		t.Fatalf("%d kinds", len(ks))
	}
	for i, k := range ks {
		if k.String() != want[i] {
			t.Errorf("kind %d: %q, want %q", i, k, want[i])
		}
	}
	if Kind(200).String() != "kind(200)" {
		t.Error(Kind(200).String())
	}
	e := &Error{Codec: "ber", Op: Encode}
	if e.Where() != "encode" || (&Error{Op: Map}).Where() != "" || (&Error{Pos: AtBit(3)}).Where() != "bit 3" {
		t.Error("Where")
	}
}

func TestQuote(t *testing.T) {
	if got := Quote("ab\"c"); got != `"ab\"c"` {
		t.Errorf("short: %s", got)
	}
	long := strings.Repeat("x", 60000)
	got := Quote(long)
	if len(got) > QuoteMax+40 || !strings.HasSuffix(got, "... (60000 bytes)") || !strings.HasPrefix(got, `"xxxx`) {
		t.Errorf("long: %d bytes: %.100s", len(got), got)
	}
	// Binary input (a BER message, a NUL, bytes that are not UTF-8) is hex.
	for in, want := range map[string]string{
		"0`\xa1^\x80":                  "0x3060a15e80",
		"ab\x00c":                      "0x61620063",
		strings.Repeat("\x30\x82", 40): "0x" + strings.Repeat("3082", 16) + "... (80 bytes)",
		"line\r\n\tnext é":             `"line\r\n\tnext é"`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}
