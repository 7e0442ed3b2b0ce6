package codec

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/corpus"
	"megaco/internal/mapping"
	"megaco/internal/mapping/termid"
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

// TestErrorLocation: a failure of any codec reads the same way, through
// one error type.
func TestErrorLocation(t *testing.T) {
	golden, _ := os.ReadFile("../../corpus/otp-time-test/msg03.ber")
	_, _, err := Transcode(nil, golden[:40], "ber", "per", Options{})
	e, ok := codecerr.As(err)
	if !ok || e.Codec != "ber" || e.Pos.Unit != codecerr.Byte || e.Kind != codecerr.Malformed || e.Op != codecerr.Decode {
		t.Errorf("%v -> %+v", err, e)
	}
	pr, _ := os.ReadFile("../../corpus/otp-time-test/msg03.per")
	_, _, err = Transcode(nil, pr[:10], "per", "ber", Options{})
	e, ok = codecerr.As(err)
	if !ok || e.Codec != "per" || e.Pos.Unit != codecerr.Bit || e.Path() == "" {
		t.Errorf("%v -> %+v", err, e)
	}
	compact := corpus.Files(t, ".compact.txt")["msg03"]
	_, _, err = Transcode(nil, compact[:len(compact)/2], "", "ber", Options{})
	e, ok = codecerr.As(err)
	if !ok || e.Codec != "compact" || e.Pos.Unit != codecerr.LineCol || e.Pos.Line < 1 || e.Pos.Column < 1 {
		t.Errorf("%v -> %+v", err, e)
	}
	_, _, err = Transcode(nil, golden, "ber", "ber", Options{Limits: limits.Limits{MaxSize: 10}})
	if e, ok = codecerr.As(err); !ok || e.Kind != codecerr.TooLarge {
		t.Errorf("over the size limit: %v -> %+v", err, e)
	}
	_, _, err = Transcode(nil, compact, "", "ber", Options{Names: nil, Layout: termid.Layout{4, 4}})
	if e, ok = codecerr.As(err); !ok || e.Kind != codecerr.Mapping || e.Codec != "mapping" || !strings.HasPrefix(e.Path(), "mess.") ||
		!errors.Is(err, mapping.ErrNoBinary) || !errors.Is(err, termid.ErrLevels) {
		t.Errorf("termination ID outside the layout: %v -> %+v", err, e)
	}
}

// TestTable: names and API names are unique, every codec round-trips a
// message, and detection finds each detectable codec's own output.
func TestTable(t *testing.T) {
	names, apis := map[string]bool{}, map[string]bool{}
	golden := corpus.Files(t, ".ber")["msg03"]
	for _, d := range All() {
		if names[d.Name] || apis[d.API] || d.New == nil {
			t.Errorf("%s: duplicate name or API name, or no factory", d.Name)
		}
		names[d.Name], apis[d.API] = true, true
		out, _, err := Transcode(nil, golden, "ber", d.Name, Options{})
		if err != nil {
			t.Errorf("ber -> %s: %v", d.Name, err)
			continue
		}
		if got, err := Detect(out); d.Detect != nil && got != d.Name {
			t.Errorf("%s output detected as %q (%v)", d.Name, got, err)
		}
		if FormOf(d.Name) != d.Form {
			t.Errorf("%s: FormOf %v, descriptor %v", d.Name, FormOf(d.Name), d.Form)
		}
	}
}

// recorder is an Observer that keeps what it is told.
type recorder struct{ done, failed []string }

func (r *recorder) Done(c string, op codecerr.Op, v int, _ time.Duration, size int) {
	r.done = append(r.done, fmt.Sprintf("%s %s v%d %d", c, op, v, size))
}

func (r *recorder) Failed(c string, op codecerr.Op, err error) {
	r.failed = append(r.failed, fmt.Sprintf("%s %s", c, op))
}

// TestObserver: the pipeline reports each step it does, with the codec
// detected, the sizes in and out, and where a failure happened.
func TestObserver(t *testing.T) {
	golden := corpus.Files(t, ".ber")["msg03"]
	var r recorder
	out, _, err := Transcode(nil, golden, "auto", "PER", Options{Observer: &r})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprintf("ber decode v1 %d", len(golden)), fmt.Sprintf("per encode v1 %d", len(out))}
	if fmt.Sprint(r.done) != fmt.Sprint(want) || len(r.failed) != 0 {
		t.Errorf("done %q failed %q, want %q", r.done, r.failed, want)
	}
	r = recorder{}
	_, _, _ = Transcode(nil, []byte("junk"), "", "ber", Options{Observer: &r})
	_, _, _ = Transcode(nil, golden[:20], "ber", "ber", Options{Observer: &r})
	if fmt.Sprint(r.failed) != "[ decode ber decode]" {
		t.Errorf("failed %q", r.failed)
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
	opts := Options{Version: 2, Limits: limits.Default}
	if _, err := Lookup("ber", opts); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = Lookup("ber", opts) }); n != 0 {
		t.Errorf("a cached Lookup allocates %v times", n)
	}
	golden := corpus.Files(t, ".ber")["msg03"]
	for size := 1; size < 2*maxCached; size++ {
		lim := limits.Default
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

// TestTransientAllocs: once warm, a transient decoding with the text <->
// binary conversion and an encode into a reused buffer allocate nothing,
// both ways: the proxy's path per message.
func TestTransientAllocs(t *testing.T) {
	for _, c := range []struct{ from, to, ext string }{{"compact", "ber", ".compact.txt"}, {"ber", "compact", ".ber"}} {
		data := corpus.Files(t, c.ext)["msg01a"]
		enc, err := Lookup(c.to, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		run := func() {
			m, release, _, err := DecodeTransient(data, c.from, FormOf(c.to), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if out, err = Encode(out[:0], enc, c.to, m, Options{}); err != nil {
				t.Fatal(err)
			}
			release()
		}
		run()
		if n := testing.AllocsPerRun(20, run); n != 0 {
			t.Errorf("%s -> %s: %v allocations a message", c.from, c.to, n)
		}
	}
}
