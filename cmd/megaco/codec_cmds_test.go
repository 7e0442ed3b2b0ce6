package main

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// TestBinaryInputQuotedAsHex: an error that quotes binary input read as
// text (a BER or PER message given to a text codec) shows it as hex, not
// as raw bytes on the user's terminal.
func TestBinaryInputQuotedAsHex(t *testing.T) {
	for _, c := range []struct{ file, from, want string }{
		{"msg03.ber", "compact", "found 0x3060a15e80"},
		{"msg10.ber", "pretty", "found 0x3082"},
		{"msg03.per", "pretty", "unexpected character 0x00"},
	} {
		code, _, stderr := runCLI(t, nil, "transcode", "--from", c.from, "--to", "ber", filepath.Join(corpus, c.file))
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s as %s: exit %d, stderr %q, want %q", c.file, c.from, code, stderr, c.want)
		}
		for _, r := range stderr {
			if r == unicode.ReplacementChar || r > unicode.MaxASCII || r < ' ' && r != '\n' {
				t.Errorf("%s as %s: stderr has %U: %q", c.file, c.from, r, stderr)
				break
			}
		}
	}
}
