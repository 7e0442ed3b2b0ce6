package codec

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"megaco/internal/corpus"
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

// TestTranscodeConcurrent: text <-> binary transcodings of the whole corpus
// from several goroutines at once must equal what the fresh-memory path
// (DecodeAs, then Append) gives. The transient path reuses pooled decoder
// and converter memory; a message released early or shared between
// goroutines shows here (and under -race).
func TestTranscodeConcurrent(t *testing.T) {
	ext := map[string]string{"ber": ".ber", "per": ".per", "compact": ".compact.txt", "pretty": ".pretty.txt"}
	files := map[string]map[string][]byte{}
	for c, e := range ext {
		files[c] = corpus.Files(t, e)
	}
	pairs := [][2]string{{"compact", "ber"}, {"pretty", "per"}, {"ber", "compact"}, {"per", "pretty"}}
	names := corpus.Names(files["ber"])
	want := map[[3]string][]byte{}
	for _, p := range pairs {
		enc, _ := Lookup(p[1], Options{})
		for _, name := range names {
			m, _, err := DecodeAs(files[p[0]][name], p[0], FormOf(p[1]), Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", name, p[0], err)
			}
			if want[[3]string{name, p[0], p[1]}], err = enc.Append(nil, m); err != nil {
				t.Fatalf("%s -> %s: %v", name, p[1], err)
			}
		}
	}
	var wg sync.WaitGroup
	var failed atomic.Int32
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out []byte
			for round := range 3 {
				for i, name := range names {
					p := pairs[(i+g+round)%len(pairs)]
					var err error
					out, _, err = Transcode(out[:0], files[p[0]][name], p[0], p[1], Options{})
					if err != nil || !bytes.Equal(out, want[[3]string{name, p[0], p[1]}]) {
						if failed.Add(1) <= 5 {
							t.Errorf("%s %s -> %s: %v", name, p[0], p[1], err)
						}
					}
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkTranscode is the service's work for one message, without the
// transport: decode, convert, encode, per direction of a sidecar.
func BenchmarkTranscode(b *testing.B) {
	for _, p := range [][2]string{{"compact", "ber"}, {"ber", "compact"}, {"pretty", "per"}} {
		ext := map[string]string{"ber": ".ber", "per": ".per", "compact": ".compact.txt", "pretty": ".pretty.txt"}
		files := corpus.Files(b, ext[p[0]])
		msgs := make([][]byte, 0, len(files))
		for _, n := range corpus.Names(files) {
			msgs = append(msgs, files[n])
		}
		b.Run(p[0]+"-"+p[1], func(b *testing.B) {
			b.ReportAllocs()
			var out []byte
			i := 0
			for b.Loop() {
				var err error
				if out, _, err = Transcode(out[:0], msgs[i%len(msgs)], p[0], p[1], Options{}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// TestLookupCache: a repeated Lookup allocates nothing, a codec made for
// other options honours them, and the cache stops growing at maxCached.
func TestLookupCache(t *testing.T) {
	opts := Options{Version: 2, Limits: DefaultLimits}
	if _, err := Lookup("ber", opts); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = Lookup("ber", opts) }); n != 0 {
		t.Errorf("a cached Lookup allocates %v times", n)
	}
	golden := corpus.Files(t, ".ber")["msg03"]
	for size := 1; size < 2*maxCached; size++ {
		lim := DefaultLimits
		lim.MaxSize = size
		c, err := Lookup("ber", Options{Limits: lim})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Decode(golden); (err == nil) != (size >= len(golden)) {
			t.Fatalf("MaxSize %d, message of %d bytes: %v", size, len(golden), err)
		}
	}
	if n := len(*cached.Load()); n > maxCached {
		t.Errorf("cache holds %d codecs, limit %d", n, maxCached)
	}
}

// TestNameCase: codec names ignore case everywhere, the text <-> binary
// form included, and case variants share one cached codec.
func TestNameCase(t *testing.T) {
	compact := corpus.Files(t, ".compact.txt")["msg03"]
	golden := corpus.Files(t, ".ber")["msg03"]
	out, _, err := Transcode(nil, compact, "COMPACT", "Ber", Options{})
	if err != nil || !bytes.Equal(out, golden) {
		t.Errorf("COMPACT -> Ber: %v", err)
	}
	if FormOf("PRETTY") != Text || FormOf("Compact") != Text || FormOf("BER") != Binary {
		t.Error("FormOf depends on case")
	}
	before := len(*cached.Load())
	for _, n := range []string{"PER", "Per", "pEr", "per"} {
		if _, err := Lookup(n, Options{Version: 3}); err != nil {
			t.Fatal(err)
		}
	}
	if grew := len(*cached.Load()) - before; grew > 1 {
		t.Errorf("case variants took %d cache entries", grew)
	}
}
