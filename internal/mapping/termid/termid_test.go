package termid

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// The rows of docs/text-binary-mapping.md section 1.1 (all checked against OTP
// 4.4.2), plus the golden corpus bytes they quote.
var examples = []struct {
	layout string
	text   string
	wild   string // hex
	id     string // hex
	back   string // text after decoding, if different from text
}{
	{"8,8,8", "ROOT", "", "FFFFFFFFFFFFFFFF", "root"},
	{"8,8,8", "root", "", "FFFFFFFFFFFFFFFF", ""},
	{"8,8,8", "11111111/00000000/00000000", "", "FF0000", ""},
	{"8,8,8", "*", "D7", "000000", ""},
	{"8,8,8", "$", "57", "000000", ""},
	{"8,8,8", "11111111/*", "CF", "FF0000", ""},
	{"8,8,8", "00000001/$", "4F", "010000", ""},
	{"8,8,8", "00000001/00011110/*", "87", "011E00", ""},
	{"8,8,8", "$/00011110/$", "1707", "001E00", ""},
	{"8,8,8", "*/00000000/00000000", "97", "000000", ""},
	{"8,8,8", "$/*/00000000", "178F", "000000", ""},
	{"8,8,8", "1111$/00000000/00000000", "13", "F00000", ""},
	{"8,8,8", "11111111/0000*", "CB", "FF0000", ""},
	{"8,8,8", "11111111/00000000/0000000$", "00", "FF0000", ""},
	{"3,8,5,8", "101/00000001/00011/00000011", "", "A02303", ""},
	{"3,8,5,8", "101/*", "D4", "A00000", ""},
	{"3,8,5,8", "ROOT", "", "FFFFFFFFFFFFFFFF", "root"},
	// Extra: the two cases OTP decodes wrongly (doc 1.1, "Do not copy this").
	{"8,8,8", "11111111/$/00000000", "0F", "FF0000", ""},
	{"8,8,8", "00000001/00011110/*", "87", "011E00", ""},
	// Extra: single level, wide levels, CHOOSE in the last level.
	{"64", "$", "3F", "0000000000000000", ""},
	{"16,16", "0000000000000001/1*", "8E", "00018000", ""},
	{"8", "0000001$", "00", "02", ""},
}

func TestExamples(t *testing.T) {
	for _, ex := range examples {
		l, err := ParseLayout(ex.layout)
		if err != nil {
			t.Fatalf("ParseLayout(%q): %v", ex.layout, err)
		}
		wild, id, err := l.Encode(ex.text)
		if err != nil {
			t.Errorf("[%s] Encode(%q): %v", ex.layout, ex.text, err)
			continue
		}
		if !bytes.Equal(wild, mustHex(t, ex.wild)) || !bytes.Equal(id, mustHex(t, ex.id)) {
			t.Errorf("[%s] Encode(%q) = wildcard %X id %X, want %s %s", ex.layout, ex.text, wild, id, ex.wild, ex.id)
		}
		back := ex.back
		if back == "" {
			back = ex.text
		}
		got, err := l.Decode(mustHex(t, ex.wild), mustHex(t, ex.id))
		if err != nil || got != back {
			t.Errorf("[%s] Decode(%s, %s) = %q, %v; want %q", ex.layout, ex.wild, ex.id, got, err, back)
		}
	}
}

// RFC 3525 A.1 examples decode to the level the standard means, with the
// "don't care" bits set to arbitrary values.
func TestDecodeRFCExamples(t *testing.T) {
	l := Default()
	for _, c := range []struct{ wild, id, want string }{
		{"87", "011EFF", "00000001/00011110/*"},        // example 1
		{"1707", "AB1E55", "$/00011110/$"},             // example 2
		{"4F", "01FFFF", "00000001/$"},                 // example 3
		{"0F", "FF1234", "11111111/$/00110100"},        // OTP: 11111111$/...
		{"070F", "FF0000", "11111111/$/$"},             // order-independent
		{"C7", "FFFF00", "11111111/11111111/*"},        // recursive in last level
		{"", "FF0001", "11111111/00000000/00000001"},   // no wildcards
		{"", "FFFFFFFFFFFFFFFF", "root"},               // ROOT
		{"13", "F70000", "1111$/00000000/00000000"},    // bits after $ ignored
		{"53", "A50000", "1010$"},                      // recursive inside level 1
		{"170F", "001E00", "$/$/00000000"},             // two level wildcards
		{"D7", "123456", "*"},                          // ALL of everything
		{"8F44", "AAAAAA", "10101010/*/101$"},          // level-only, then recursive in the last level
		{"9740", "000000", "*/00000000/0000000$"},      // recursive bit on last level
		{"CF", "0F0000", "00001111/*"},                 // ALL, recursive, level 2
		{"4F", "00FFFF", "00000000/$"},                 // CHOOSE, recursive, level 2
		{"00", "000001", "00000000/00000000/0000000$"}, // last bit
	} {
		got, err := l.Decode(mustHex(t, c.wild), mustHex(t, c.id))
		if err != nil || got != c.want {
			t.Errorf("Decode(%s, %s) = %q, %v; want %q", c.wild, c.id, got, err, c.want)
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	l := Default()
	for _, c := range []struct {
		text  string
		kind  error
		level int
		msg   string // substring of the message
	}{
		{"a4444", ErrSyntax, 1, `bad character 'a'`},
		{"line/1", ErrSyntax, 1, `bad character 'l'`},
		{"Trunk*", ErrSyntax, 1, `bad character 'T'`},
		{"11111111/00000000", ErrLevels, 0, "has 2 levels and no wildcard in the last one, layout 8,8,8 has 3"},
		{"1111111/00000000/00000000", ErrWidth, 1, "has 7 bits, layout wants 8"},
		{"1111111100000000", ErrWidth, 1, "has 16 bits, layout wants 8"},
		{"11111111/0000000", ErrWidth, 2, "has 7 bits, layout wants 8"},
		{"11111111/00000000/00000000/00000000", ErrLevels, 0, "has 4 levels, layout 8,8,8 has 3"},
		{"11*11/00000000/00000000", ErrSyntax, 1, "wildcard '*' before other characters"},
		{"$$", ErrSyntax, 1, "wildcard '$' before other characters"},
		{"11111111$", ErrWidth, 1, "has 8 bits before the wildcard, layout allows at most 7"},
		{"", ErrSyntax, 0, "is empty"},
		{"11111111//00000000", ErrWidth, 2, "has 0 bits, layout wants 8"},
		{"11111111/", ErrWidth, 2, "has 0 bits"},
		{"$/00000000", ErrLevels, 0, "no wildcard in the last one"},
		{"roots", ErrSyntax, 1, "bad character 'r'"},
		{" 11111111/00000000/00000000", ErrSyntax, 1, "bad character ' '"},
	} {
		w, id, err := l.AppendBinary(make([]byte, 0, 8), []byte{0xAA}, c.text)
		if err == nil {
			t.Errorf("Encode(%q) = %X %X, want error", c.text, w, id)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, c.kind) || e.Level != c.level || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Encode(%q) error = %v (level %d), want kind %v level %d containing %q", c.text, err, e.Level, c.kind, c.level, c.msg)
		}
		if !strings.HasPrefix(err.Error(), "termination ID \"") {
			t.Errorf("Encode(%q) error %q does not start with the quoted ID", c.text, err)
		}
		if len(w) != 0 || !bytes.Equal(id, []byte{0xAA}) {
			t.Errorf("Encode(%q) changed the buffers on error: %X %X", c.text, w, id)
		}
	}
	// The exact message the brief asks for.
	_, _, err := l.Encode("11111111/0000000")
	if want := `termination ID "11111111/0000000": level 2 has 7 bits, layout wants 8`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	// 64 one bits without a wildcard would be read back as ROOT.
	_, _, err = Layout{32, 32}.Encode(strings.Repeat("1", 32) + "/" + strings.Repeat("1", 32))
	if !errors.Is(err, ErrReserved) {
		t.Errorf("all-ones 64-bit id: got %v, want ErrReserved", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	l := Default()
	for _, c := range []struct {
		wild, id string
		kind     error
		msg      string
	}{
		{"", "FF00", ErrIDLength, "id has 2 octets, layout 8,8,8 wants 3"},
		{"", "FF000000", ErrIDLength, "id has 4 octets"},
		{"57", "FFFFFFFFFFFFFFFF", ErrIDLength, "id has 8 octets"}, // not ROOT: has a wildcard
		{"", "", ErrIDLength, "id has 0 octets"},
		{"18", "000000", ErrWildcard, "starts at bit 24, outside the 24-bit id"},
		{"1716", "000000", ErrWildcard, "level 1 has more than one wildcard"},
		{"5707", "000000", ErrWildcard, "already covers it"},
		{"4F47", "000000", ErrWildcard, "has a recursive wildcard, but level 2 has one too"},
	} {
		_, err := l.Decode(mustHex(t, c.wild), mustHex(t, c.id))
		if err == nil || !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Decode(%s, %s) error = %v, want %v containing %q", c.wild, c.id, err, c.kind, c.msg)
		}
	}
	_, err := l.Decode(nil, []byte{1, 2})
	if want := "termination ID {wildcard [], id 0102}: id has 2 octets, layout 8,8,8 wants 3"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestLayouts(t *testing.T) {
	for _, c := range []struct {
		in   string
		ok   bool
		want string
	}{
		{"8,8,8", true, "8,8,8"},
		{" 3, 8 ,5,8", true, "3,8,5,8"},
		{"64", true, "64"},
		{"1,7", true, "1,7"},
		{"8,8,9", false, "not a whole number of octets"},
		{"", false, "not a level width"},
		{"8,x", false, `"x" is not a level width`},
		{"0,8", false, "level 1 has width 0"},
		{"32,32,8", false, "more than 64 bits"},
		{"-8,16", false, "width -8"},
	} {
		l, err := ParseLayout(c.in)
		if c.ok {
			if err != nil || l.String() != c.want {
				t.Errorf("ParseLayout(%q) = %v, %v; want %s", c.in, l, err, c.want)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseLayout(%q) error = %v, want ErrLayout containing %q", c.in, err, c.want)
		}
	}
	if got := Default().IDLen(); got != 3 {
		t.Errorf("Default().IDLen() = %d", got)
	}
	if _, _, err := (Layout{}).Encode("1"); !errors.Is(err, ErrLayout) {
		t.Errorf("empty layout: %v", err)
	}
	if _, err := (Layout{4}).Decode(nil, []byte{0}); !errors.Is(err, ErrLayout) {
		t.Errorf("4-bit layout: %v", err)
	}
}

func TestNoAllocs(t *testing.T) {
	l := Default()
	wild := make([]byte, 0, 8)
	id := make([]byte, 0, 8)
	txt := make([]byte, 0, 80)
	w0, i0 := mustHex(t, "178F"), mustHex(t, "000000")
	n := testing.AllocsPerRun(100, func() {
		var err error
		if _, _, err = l.AppendBinary(wild[:0], id[:0], "$/*/00000000"); err != nil {
			t.Fatal(err)
		}
		if _, err = l.AppendText(txt[:0], w0, i0); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("AppendBinary+AppendText allocate %v times per run, want 0", n)
	}
}

// fuzzLayouts are the layouts the fuzz tests pick from.
var fuzzLayouts = []Layout{{8, 8, 8}, {3, 8, 5, 8}, {64}, {8}, {1, 7, 8, 16, 32}, {16, 16}, {1, 1, 1, 1, 1, 1, 1, 1}}

func addSeeds(f *testing.F) {
	for _, ex := range examples {
		f.Add(ex.text, uint8(0))
		f.Add(ex.text, uint8(1))
	}
}

// Text -> binary -> text gives the same text back (ROOT comes back in lower
// case), and encoding that again gives the same binary.
func FuzzTextRoundTrip(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, text string, sel uint8) {
		l := fuzzLayouts[int(sel)%len(fuzzLayouts)]
		wild, id, err := l.Encode(text)
		if err != nil {
			return
		}
		back, err := l.Decode(wild, id)
		if err != nil {
			t.Fatalf("[%s] Encode(%q) = %X %X, Decode: %v", l, text, wild, id, err)
		}
		want := text
		if IsRoot(text) {
			want = Root
		}
		if back != want {
			t.Fatalf("[%s] %q -> %X %X -> %q", l, text, wild, id, back)
		}
		w2, i2, err := l.Encode(back)
		if err != nil || !bytes.Equal(w2, wild) || !bytes.Equal(i2, id) {
			t.Fatalf("[%s] %q -> %X %X; again %X %X %v", l, back, wild, id, w2, i2, err)
		}
	})
}

// Any binary input either fails or decodes to a text that is stable under
// text -> binary -> text.
func FuzzBinary(f *testing.F) {
	for _, ex := range examples {
		f.Add(mustHex(f, ex.wild), mustHex(f, ex.id), uint8(0))
	}
	f.Fuzz(func(t *testing.T, wild, id []byte, sel uint8) {
		l := fuzzLayouts[int(sel)%len(fuzzLayouts)]
		text, err := l.Decode(wild, id)
		if err != nil {
			return
		}
		w2, i2, err := l.Encode(text)
		if err != nil {
			t.Fatalf("[%s] Decode(%X, %X) = %q, Encode: %v", l, wild, id, text, err)
		}
		again, err := l.Decode(w2, i2)
		if err != nil || again != text {
			t.Fatalf("[%s] %q -> %X %X -> %q, %v", l, text, w2, i2, again, err)
		}
	})
}

// appendDigits, the path for an id without wildcards, writes what the
// general path writes, for every layout shape (octet-wide levels and not)
// and ids from all zeros to all ones; and it appends.
func TestAppendDigits(t *testing.T) {
	layouts := []Layout{{8, 8, 8}, {8}, {3, 8, 5, 8}, {1, 7, 8, 16}, {64}, {4, 4}, {8, 8, 8, 8, 8, 8, 8, 8}, {2, 6, 8, 3, 5}}
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, l := range layouts {
		total, err := l.bits()
		if err != nil {
			t.Fatal(err)
		}
		for k := range 200 {
			id := make([]byte, total/8)
			for i := range id {
				switch k {
				case 0:
				case 1:
					id[i] = 0xFF
				default:
					id[i] = byte(rnd.Uint32())
				}
			}
			var acc uint64
			for _, b := range id {
				acc = acc<<8 | uint64(b)
			}
			want, err := l.appendWild([]byte("x"), nil, id, acc, total)
			if err != nil {
				t.Fatal(err)
			}
			if got := l.appendDigits([]byte("x"), acc, total); string(got) != string(want) {
				t.Fatalf("layout %v id %x: %q, want %q", l, id, got, want)
			}
		}
	}
}

// octetDigitsOf reads every octet's eight digits, and only those.
func TestOctetDigitsOf(t *testing.T) {
	for b := range 256 {
		s := string(binary.BigEndian.AppendUint64(nil, octetDigits[b]))
		if v, ok := octetDigitsOf(s); !ok || v != uint64(b) {
			t.Fatalf("%q: %d %v, want %d", s, v, ok, b)
		}
	}
	// Bytes one bit away from '0' or '1' (0x32, 0xB0, 0x20), a wildcard,
	// a separator, and lengths other than eight.
	for _, s := range []string{"01010102", "0101010\xb0", "0101 010", "0101010*", "0101010/", "0101010", "010101010", ""} {
		if v, ok := octetDigitsOf(s); ok {
			t.Errorf("%q read as %d", s, v)
		}
	}
}
