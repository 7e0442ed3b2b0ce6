package ber

import (
	"bytes"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/corpus"
	"megaco/internal/model"
)

func newDecoder(data []byte) *decoder {
	return &decoder{reader: reader{data: data, lim: limits.Default}}
}

func TestHeaderForms(t *testing.T) {
	cases := []struct {
		name       string
		in         string
		tag        uint32
		cons       bool
		start, end int
		next       int
	}{
		{"short", "80 01 05", ctxTag(0), false, 2, 3, 3},
		{"long form 1 octet", "04 81 03 01 02 03", 4, false, 3, 6, 6},
		{"long form 2 octets", "04 82 00 02 01 02", 4, false, 4, 6, 6},
		{"non-minimal long form 4 octets", "04 84 00 00 00 01 09", 4, false, 6, 7, 7},
		{"leading zero length octets beyond 4", "04 86 00 00 00 00 00 01 09", 4, false, 8, 9, 9},
		{"high tag number 31", "9f 1f 01 00", 2<<30 | 31, false, 3, 4, 4},
		{"high tag number 200", "bf 81 48 00", 2<<30 | 200, true, 4, 4, 4},
		{"high tag, low number (non-minimal)", "9f 05 00", 2<<30 | 5, false, 3, 3, 3},
		{"indefinite length", "30 80 02 01 05 00 00", 16, true, 2, 5, 7},
		{"nested indefinite", "30 80 30 80 00 00 00 00", 16, true, 2, 6, 8},
		{"application class", "61 00", 1<<30 | 1, true, 2, 2, 2},
		{"private class", "c2 00", 3<<30 | 2, false, 2, 2, 2},
	}
	for _, c := range cases {
		d := newDecoder(corpus.Unhex(t, c.in))
		h, err := d.header(0, len(d.data))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if h.tag != c.tag || h.cons != c.cons || h.start != c.start || h.end != c.end || h.next != c.next {
			t.Errorf("%s: got tag %#x cons %v contents %d..%d next %d, want %#x %v %d..%d %d",
				c.name, h.tag, h.cons, h.start, h.end, h.next, c.tag, c.cons, c.start, c.end, c.next)
		}
	}
}

func TestHeaderErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "truncated: identifier expected"},
		{"30", "truncated: length expected"},
		{"30 05 00", "length 5 exceeds the 1 bytes left"},
		{"04 82 01", "truncated length"},
		{"04 ff", "reserved length octet"},
		{"04 80 00 00", "indefinite length on a primitive element"},
		{"30 80 02 01 05", "missing end-of-contents"},
		{"04 85 01 00 00 00 00", "length of 5 octets is too large"},
		{"9f 80 01 00", "leading zero septet"},
		{"9f 81 82 83 84 05 00", "tag number too large"},
		{"9f 81", "truncated tag number"},
	}
	for _, c := range cases {
		d := newDecoder(corpus.Unhex(t, c.in))
		_, err := d.header(0, len(d.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error containing %q", c.in, err, c.want)
		}
	}
}

func TestIntegers(t *testing.T) {
	cases := []struct {
		v   int64
		enc string
	}{
		{0, "020100"}, {127, "02017f"}, {128, "02020080"}, {255, "020200ff"}, {256, "02020100"},
		{-1, "0201ff"}, {-128, "020180"}, {-129, "0202ff7f"}, {4294967295, "020500ffffffff"},
		{1<<63 - 1, "02087fffffffffffffff"},
	}
	for _, c := range cases {
		got := appendInt(nil, "\x02", c.v)
		if hex.EncodeToString(got) != c.enc {
			t.Errorf("appendInt(%d) = %x, want %s", c.v, got, c.enc)
		}
		d := newDecoder(got)
		h, _ := d.header(0, len(got))
		v, err := d.integer(&h, minInt, maxInt)
		if err != nil || v != c.v {
			t.Errorf("integer(%x) = %d, %v; want %d", got, v, err, c.v)
		}
	}
	if got := appendUint(nil, "\x02", 1<<64-1); hex.EncodeToString(got) != "020900ffffffffffffffff" {
		t.Errorf("appendUint(max) = %x", got)
	}
	// Redundant leading octets are read (lenient), out-of-range values are not.
	for _, c := range []struct {
		in      string
		lo, hi  int64
		want    int64
		wantErr string
	}{
		{"0203000005", 0, 10, 5, ""},
		{"0202ffff", -5, 5, -1, ""},
		{"020164", 0, 99, 100, "value 100 out of range 0..99"},
		{"0200", 0, 9, 0, "empty integer"},
		{"020a01000000000000000000", minInt, maxInt, 0, "too large"},
		{"2203020101", 0, 9, 0, "constructed encoding of a primitive type"},
	} {
		d := newDecoder(corpus.Unhex(t, c.in))
		h, err := d.header(0, len(d.data))
		if err != nil {
			t.Fatal(err)
		}
		v, err := d.integer(&h, c.lo, c.hi)
		switch {
		case c.wantErr == "" && (err != nil || v != c.want):
			t.Errorf("integer(%s) = %d, %v; want %d", c.in, v, err, c.want)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("integer(%s): error %v, want %q", c.in, err, c.wantErr)
		}
	}
}

// TestEndLen checks that lengths are definite and minimal on encode,
// moving the contents when the long form is needed.
func TestEndLen(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 255, 256, 65535, 65536, 1 << 20} {
		b := []byte{0x30, 0}
		content := bytes.Repeat([]byte{0xab}, n)
		b = append(b, content...)
		b = endLen(b, 1)
		want := append([]byte{0x30}, appendLen(nil, n)...)
		if !bytes.Equal(b[:len(want)], want) || !bytes.Equal(b[len(want):], content) {
			t.Errorf("endLen(%d): header %x, want %x", n, b[:min(len(b), 6)], want)
		}
		d := newDecoder(b)
		h, err := d.header(0, len(b))
		if err != nil || h.end-h.start != n || h.next != len(b) {
			t.Errorf("length %d does not read back: %v %+v", n, err, h)
		}
	}
	for n, want := range map[int]string{127: "7f", 128: "8180", 255: "81ff", 256: "820100", 65536: "83010000"} {
		if got := hex.EncodeToString(appendLen(nil, n)); got != want {
			t.Errorf("appendLen(%d) = %s, want %s", n, got, want)
		}
	}
}

func TestBitStrings(t *testing.T) {
	cases := []struct {
		bs  model.BitString
		enc string
	}{
		{model.BitString{}, "030100"},
		{model.BitString{Bits: 1 << 2}, "03020520"},                  // mediaToken: 3 bits, 5 unused
		{model.BitString{Bits: 1<<0 | 1<<9}, "0303068040"},           // 10 bits
		{model.BitString{Bits: 1 << 2, Len: 10}, "0303062000"},       // kept length
		{model.BitString{Bits: 1<<63 | 1}, "0309008000000000000001"}, // 64 bits
	}
	for _, c := range cases {
		got := appendBits(nil, "\x03", c.bs)
		if hex.EncodeToString(got) != c.enc {
			t.Errorf("appendBits(%+v) = %x, want %s", c.bs, got, c.enc)
			continue
		}
		d := newDecoder(got)
		h, _ := d.header(0, len(got))
		bs, err := d.bits(h)
		if err != nil || bs.Bits != c.bs.Bits || bs.Len != c.bs.EncLen() {
			t.Errorf("bits(%x) = %+v, %v", got, bs, err)
		}
	}
	for _, in := range []string{"0300", "030108", "030208ff", "030a00000000000000000000"} {
		d := newDecoder(corpus.Unhex(t, in))
		h, _ := d.header(0, len(d.data))
		if _, err := d.bits(h); err == nil {
			t.Errorf("bits(%s): no error", in)
		}
	}
}

func TestObjectIdentifiers(t *testing.T) {
	oid := model.ObjectIdentifier{0, 0, 8, 248, 0, 0, 3}
	b, err := appendOID(nil, "\x06", oid)
	if err != nil {
		t.Fatal(err)
	}
	// arcs 0.0 -> 00, 8 -> 08, 248 -> 81 78, 0, 0, 3
	if want := "06070008817800000" + "3"; hex.EncodeToString(b) != want {
		t.Errorf("appendOID = %x, want %s", b, want)
	}
	d := newDecoder(b)
	h, _ := d.header(0, len(b))
	got, err := d.oid(h)
	if err != nil || got.String() != oid.String() {
		t.Errorf("oid round trip: %v %v", got, err)
	}
	if _, err := appendOID(nil, "\x06", model.ObjectIdentifier{3, 1}); err == nil {
		t.Error("first arc 3 accepted")
	}
	for _, in := range []string{"0600", "060180", "06028001"} {
		d := newDecoder(corpus.Unhex(t, in))
		h, _ := d.header(0, len(d.data))
		if _, err := d.oid(h); err == nil {
			t.Errorf("oid(%s): no error", in)
		}
	}
}

func TestOctetsSegmented(t *testing.T) {
	// A constructed OCTET STRING made of two segments, one nested.
	d := newDecoder(corpus.Unhex(t, "24 0a 04 02 61 62 24 04 04 02 63 64"))
	h, _ := d.header(0, len(d.data))
	b, err := d.octets(h)
	if err != nil || string(b) != "abcd" {
		t.Errorf("segmented octets = %q, %v", b, err)
	}
	d = newDecoder(corpus.Unhex(t, "24 03 02 01 00"))
	h, _ = d.header(0, len(d.data))
	if _, err := d.octets(h); err == nil {
		t.Error("INTEGER segment accepted")
	}
}

func TestStrings(t *testing.T) {
	d := newDecoder(corpus.Unhex(t, "16 02 41 ff"))
	h, _ := d.header(0, len(d.data))
	if _, err := d.str(&h, "ia5"); err == nil || !strings.Contains(err.Error(), "not IA5") {
		t.Errorf("non-IA5 byte: %v", err)
	}
	if _, err := d.str(&h, "AB"); err == nil {
		t.Error("character outside the permitted alphabet accepted")
	}
	if !inAlphabet("0123", "0123456789") || inAlphabet("12a", "0123456789") {
		t.Error("inAlphabet")
	}
	if !isIA5("abc") || isIA5("\xff") {
		t.Error("isIA5")
	}
}

// quickVersion, where it answers, answers as the full header reads do:
// over the corpus, with each of the first octets changed to every value.
func TestQuickVersion(t *testing.T) {
	quick := 0
	for _, msg := range corpus.List(t, ".ber") {
		data := slices.Clone(msg)
		for i := range min(12, len(data)) {
			orig := data[i]
			for x := range 256 {
				data[i] = byte(x)
				d := &reader{data: data, lim: limits.Default}
				h, err := d.header(0, len(data))
				if err != nil {
					continue
				}
				v, ok := d.quickVersion(&h)
				if !ok {
					continue
				}
				quick++
				if want, err := d.slowVersion(h); err != nil || want != v {
					t.Fatalf("% x: quick version %d, full reads %d, %v", data[:12], v, want, err)
				}
			}
			data[i] = orig
		}
	}
	if quick == 0 {
		t.Error("quickVersion never answered")
	}
}

// notIA5 finds the first byte above 0x7f wherever it stands, in or
// after the eight-byte words.
func TestNotIA5(t *testing.T) {
	for n := range 20 {
		b := bytes.Repeat([]byte{'a'}, n)
		if got := notIA5(b); got != -1 {
			t.Fatalf("%d ASCII bytes: %d", n, got)
		}
		for i := range n {
			b[i] = 0x80
			if j := i + 1; j < n {
				b[j] = 0xff // a later one is not reported
			}
			if got := notIA5(b); got != i {
				t.Fatalf("%d bytes, first above 0x7f at %d: got %d", n, i, got)
			}
			b[i] = 'a'
			if j := i + 1; j < n {
				b[j] = 'a'
			}
		}
	}
}

// intAt against a plain big-endian two's complement reading, for every
// length it takes and at the start of the input, where it declines.
func TestIntAt(t *testing.T) {
	in := []byte{0x02, 0x04, 0x80, 0x00, 0x7f, 0xff, 0x01, 0xfe}
	for s := 0; s < len(in); s++ {
		for e := s; e <= len(in); e++ {
			got, ok := intAt(in, s, e)
			n := e - s
			if n < 1 || n > 4 || e < 4 {
				if ok {
					t.Errorf("intAt(%d, %d) = %d, true; want false", s, e, got)
				}
				continue
			}
			want := int64(int8(in[s]))
			for _, c := range in[s+1 : e] {
				want = want<<8 | int64(c)
			}
			if !ok || got != want {
				t.Errorf("intAt(%d, %d) = %d, %v; want %d, true", s, e, got, ok, want)
			}
		}
	}
	if _, ok := intAt(in, 6, 9); ok {
		t.Error("intAt past the input: true")
	}
}

// A TimeNotation's date with a byte above 0x7f: the decoder's inline
// IA5 reading (ia5At) hands it to str, which reports it at its offset.
func TestTimeNotationNotIA5(t *testing.T) {
	for _, data := range corpus.List(t, ".ber") {
		if _, err := Decode(data, Options{}); err != nil {
			t.Fatal(err)
		}
		// [0] date of 8 octets then [1] time of 8 octets, in a
		// TimeNotation (a SEQUENCE of these two).
		i := bytes.Index(data, []byte{0x80, 0x08})
		if i < 0 || i+20 > len(data) || data[i+10] != 0x81 || data[i+11] != 0x08 {
			continue
		}
		bad := slices.Clone(data)
		bad[i+3] = 0x80
		_, err := Decode(bad, Options{})
		if err == nil || !strings.Contains(err.Error(), "not IA5") || !strings.Contains(err.Error(), strconv.Itoa(i+3)) {
			t.Fatalf("date with 0x80 at %d: %v", i+3, err)
		}
		return
	}
	t.Skip("no TimeNotation in the corpus")
}

// count against countSlow (the full header parser) on every
// constructed element of the corpus and on contents cut short, with a
// lone octet or an element past the end: the same count or an error.
func TestCountAgainstSlow(t *testing.T) {
	check := func(data []byte, h header) {
		t.Helper()
		d := newDecoder(data)
		n, err := d.count(&h)
		ns, errs := d.countSlow(&h)
		if (err != nil) != (errs != nil) || err == nil && n != ns {
			t.Fatalf("% x [%d:%d]: count %d, %v; countSlow %d, %v", data, h.start, h.end, n, err, ns, errs)
		}
	}
	for _, data := range corpus.List(t, ".ber") {
		walkTLVs(t, data, func(h header) {
			if h.cons {
				check(data, h)
			}
		})
	}
	long := append([]byte{0x30, 0x81, 0x83, 0x04, 0x81, 0x80}, make([]byte, 0x80)...)
	for _, c := range []struct {
		data       []byte
		start, end int
	}{
		{[]byte{0x30, 0x04, 0x02, 0x01, 0x05, 0x05}, 2, 6},       // a lone octet after an element
		{[]byte{0x30, 0x05, 0x02, 0x01, 0x05, 0x04, 0x05}, 2, 7}, // an element past the end
		{[]byte{0x30, 0x03, 0x1f, 0x81, 0x00}, 2, 5},             // a high tag number
		{[]byte{0x30, 0x02, 0x04, 0x80}, 2, 4},                   // an indefinite length
		{[]byte{0x30, 0x00}, 2, 2},
		{long, 3, len(long)},
	} {
		check(c.data, header{tag: 16, cons: true, start: c.start, end: c.end, next: c.end})
	}
}
