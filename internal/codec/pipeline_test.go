package codec

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetectAndTranscode(t *testing.T) {
	paths, _ := filepath.Glob("../../corpus/otp-time-test/*.ber")
	if len(paths) != 149 {
		t.Fatalf("%d files", len(paths))
	}
	binary := []string{"ber", "per", "native", "native-zstd", "native-s2"}
	counts := map[string]int{}
	for _, p := range paths {
		golden, _ := os.ReadFile(p)
		for _, to := range binary {
			enc, _, err := Transcode(nil, golden, "ber", to, Options{})
			if err != nil {
				t.Fatalf("%s -> %s: %v", p, to, err)
			}
			got, err := Detect(enc)
			if err != nil || got != to {
				t.Errorf("%s as %s detected as %q (%v)", filepath.Base(p), to, got, err)
				continue
			}
			back, res, err := Transcode(nil, enc, "auto", "ber", Options{})
			if err != nil || !bytes.Equal(back, golden) || res.From != to {
				t.Errorf("%s: auto %s -> ber: %v", filepath.Base(p), to, err)
				continue
			}
			counts[to]++
		}
		pretty, _ := os.ReadFile(strings.TrimSuffix(p, ".ber") + ".pretty.txt")
		compact, _ := os.ReadFile(strings.TrimSuffix(p, ".ber") + ".compact.txt")
		if got, _ := Detect(pretty); got != "pretty" {
			t.Errorf("%s: pretty text detected as %q", p, got)
		}
		if got, _ := Detect(compact); got != "compact" {
			t.Errorf("%s: compact text detected as %q", p, got)
		}
	}
	t.Logf("detected and transcoded back to OTP's BER: %v (of %d each)", counts, len(paths))
	for _, junk := range [][]byte{{}, {0x05}, []byte("hello")} {
		if _, err := Detect(junk); !errors.Is(err, ErrUndetected) {
			t.Errorf("%q: %v", junk, err)
		}
	}
}

func TestLocate(t *testing.T) {
	golden, _ := os.ReadFile("../../corpus/otp-time-test/msg03.ber")
	_, _, err := Transcode(nil, golden[:40], "ber", "per", Options{})
	loc, ok := Locate(err)
	if !ok || loc.Codec != "ber" || !strings.HasPrefix(loc.Position, "offset ") {
		t.Errorf("%v -> %+v", err, loc)
	}
	pr, _ := os.ReadFile("../../corpus/otp-time-test/msg03.per")
	_, _, err = Transcode(nil, pr[:10], "per", "ber", Options{})
	loc, ok = Locate(err)
	if !ok || loc.Codec != "per" || !strings.HasPrefix(loc.Position, "bit ") || loc.Field == "" {
		t.Errorf("%v -> %+v", err, loc)
	}
}
