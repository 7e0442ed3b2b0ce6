package ber

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/corpus"
	"megaco/internal/model"
)

// decodeSlow decodes data as Decode does with limit lim, but with the
// generated code's own header reading (window, expect) and so every fast
// decoder off: an element limit just under what makes them safe (len/2)
// turns d.fast off (the caller skips inputs where that limit is what
// fails).
func decodeSlow(data []byte, lim limits.Limits) (*model.MegacoMessage, error) {
	lim.MaxElements = max(len(data)/2-1, 1)
	return Decode(data, Options{Limits: lim})
}

// fastAgrees decodes data with limit lim as usual and with the fast
// decoders off, and tells how they differ ("" when they agree); ok is
// false when the element limit that turns them off is what fails.
func fastAgrees(data []byte, lim limits.Limits) (msg string, ok bool) {
	slow, slowErr := decodeSlow(data, lim)
	if slowErr != nil && strings.Contains(slowErr.Error(), "elements") {
		return "", false
	}
	fast, fastErr := Decode(data, Options{Limits: lim})
	if fmt.Sprint(fastErr) != fmt.Sprint(slowErr) || !reflect.DeepEqual(fast, slow) {
		return fmt.Sprintf("fast: %v %+v\nfull: %v %+v", fastErr, fast, slowErr, slow), false
	}
	return "", true
}

// FuzzFastDecoders: TestFastDecodersAgree for any input, with a nesting
// limit from its last octet.
func FuzzFastDecoders(f *testing.F) {
	corpus.Seed(f, ".ber")
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := limits.Limits{}
		if len(data) > 0 {
			lim.MaxDepth = int(data[len(data)-1]&0x1f) + 1
		}
		if msg, _ := fastAgrees(data, lim); msg != "" {
			t.Fatalf("%+v %x:\n%s", lim, data, msg)
		}
	})
}

// TestFastDecodersAgree: the fast decoders (and the generated code's
// reading of headers in the encoder's form) accept exactly what the full
// decoder accepts, with the same result, and fail where it fails with
// the same error (offset and limit included), for every corpus message,
// every one-octet change of it to a few values, its indefinite-length
// form, and every nesting limit.
func TestFastDecodersAgree(t *testing.T) {
	files := corpus.Files(t, ".ber")
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	if testing.Short() {
		names = names[:10]
	}
	compared := 0
	compare := func(name string, data []byte, lim limits.Limits) {
		t.Helper()
		if msg, ok := fastAgrees(data, lim); ok {
			compared++
		} else if msg != "" {
			t.Fatalf("%s %+v %x:\n%s", name, lim, data, msg)
		}
	}
	for _, name := range names {
		data := files[name]
		for depth := 1; depth <= 24; depth++ {
			compare(name, data, limits.Limits{MaxDepth: depth})
		}
		compare(name+" indefinite", toIndefinite(t, data), limits.Limits{})
		bad := make([]byte, len(data))
		for i := range data {
			for _, x := range []byte{0, 1, 0x7f, 0x80, 0x81, 0xff, data[i] ^ 0x20, data[i] + 1, data[i] - 1} {
				if x == data[i] {
					continue
				}
				copy(bad, data)
				bad[i] = x
				compare(name, bad, limits.Limits{})
			}
		}
	}
	if compared < len(names)*100 {
		t.Errorf("only %d inputs compared", compared)
	}
	t.Logf("%d inputs compared", compared)
}

// walkTLVs calls f with every element's header of a definite-length
// encoding, outer ones before those they contain.
func walkTLVs(t *testing.T, data []byte, f func(header)) {
	t.Helper()
	d := newDecoder(data)
	var walk func(off, end int)
	walk = func(off, end int) {
		for off < end {
			h, err := d.header(off, end)
			if err != nil {
				t.Fatal(err)
			}
			f(h)
			if h.cons {
				walk(h.start, h.end)
			}
			off = h.next
		}
	}
	walk(0, len(data))
}

// countTLVs counts the elements of a definite-length encoding.
func countTLVs(t *testing.T, data []byte) int {
	t.Helper()
	n := 0
	walkTLVs(t, data, func(header) { n++ })
	return n
}

// TestElementLimitExact: the element limit counts every element of a
// message, those the fast decoders read included: a corpus message of n
// elements decodes with a limit of n and fails with one of n-1 (a limit
// under len/2 turns the fast decoders off, and n is under it).
func TestElementLimitExact(t *testing.T) {
	for name, data := range corpus.Files(t, ".ber") {
		n := countTLVs(t, data)
		if _, err := Decode(data, Options{Limits: limits.Limits{MaxElements: n}}); err != nil {
			t.Errorf("%s: %d elements, limit %d: %v", name, n, n, err)
		}
		_, err := Decode(data, Options{Limits: limits.Limits{MaxElements: n - 1}})
		want := fmt.Sprintf("more than %d elements", n-1)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %d elements, limit %d: got %v, want %q", name, n, n-1, err, want)
		} else if e := berError(t, err); e.Kind != codecerr.TooLarge {
			t.Errorf("%s: kind %v", name, e.Kind)
		}
	}
}

// Every fast decoder is handed a window that ends where its element ends
// (b[:en], d.window(...)): its expect checks only against the window, so
// with the parent's whole window a trailing optional component could be
// matched in the next sibling, setting fields before the decoder fails
// and the full decoder reads the element again.
func TestFastWindowsCut(t *testing.T) {
	src, err := os.ReadFile("ber_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	calls := regexp.MustCompile(`\bfast\w+\(d, ([^,]+),`).FindAllSubmatch(src, -1)
	if len(calls) < 100 {
		t.Fatalf("only %d fast decoder calls found in ber_gen.go", len(calls))
	}
	cut := regexp.MustCompile(`^(\w+\[:\w+\]|d\.window\(.+\))$`)
	for _, c := range calls {
		if !cut.Match(c[1]) {
			t.Errorf("a fast decoder gets window %s, not one cut at its element's end", c[1])
		}
	}
}
