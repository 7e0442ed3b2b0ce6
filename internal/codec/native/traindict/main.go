// Command traindict trains the compression dictionaries of the native codec
// on the native encodings of a corpus of BER messages (make dict).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/klauspost/compress/dict"
	"github.com/klauspost/compress/zstd"

	"megaco/internal/codec/ber"
	"megaco/internal/codec/native"
)

func main() {
	corpus := flag.String("corpus", "corpus/otp-time-test", "directory of .ber messages")
	out := flag.String("out", "internal/codec/native", "where to write megaco.zdict and megaco.s2dict")
	size := flag.Int("size", 4096, "maximum dictionary size")
	flag.Parse()
	paths, err := filepath.Glob(filepath.Join(*corpus, "*.ber"))
	if err != nil || len(paths) == 0 {
		fail(fmt.Errorf("no .ber files in %s", *corpus))
	}
	var samples [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			fail(err)
		}
		m, err := ber.Decode(data, ber.Options{})
		if err != nil {
			fail(fmt.Errorf("%s: %w", p, err))
		}
		wire, err := native.Codec{}.Append(nil, m)
		if err != nil {
			fail(err)
		}
		samples = append(samples, wire)
	}
	opts := dict.Options{MaxDictSize: *size, HashBytes: 6, ZstdDictID: 0x4d474330, ZstdLevel: zstd.SpeedBetterCompression}
	zd, err := dict.BuildZstdDict(samples, opts)
	if err != nil {
		fail(err)
	}
	sd, err := dict.BuildS2Dict(samples, opts)
	if err != nil {
		fail(err)
	}
	for name, b := range map[string][]byte{"megaco.zdict": zd, "megaco.s2dict": sd} {
		if err := os.WriteFile(filepath.Join(*out, name), b, 0o644); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "traindict:", err)
	os.Exit(1)
}
