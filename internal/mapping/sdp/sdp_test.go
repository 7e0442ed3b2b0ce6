package sdp

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ber encodes groups the way OTP does (AUTOMATIC tags of
// LocalRemoteDescriptor/PropertyParm), for comparing with golden bytes.
func tlv(tag byte, content []byte) []byte {
	out := []byte{tag}
	switch n := len(content); {
	case n < 0x80:
		out = append(out, byte(n))
	case n <= 0xff:
		out = append(out, 0x81, byte(n))
	default:
		out = append(out, 0x82, byte(n>>8), byte(n))
	}
	return append(out, content...)
}

func berProp(p Prop) []byte {
	var vals []byte
	for _, v := range p.Values {
		vals = append(vals, tlv(0x04, v)...)
	}
	return tlv(0x30, append(tlv(0x80, p.Name[:]), tlv(0xa1, vals)...))
}

// berPropGrps is LocalRemoteDescriptor.propGrps [0].
func berPropGrps(groups [][]Prop) []byte {
	var gs []byte
	for _, g := range groups {
		var ps []byte
		for _, p := range g {
			ps = append(ps, berProp(p)...)
		}
		gs = append(gs, tlv(0x30, ps)...)
	}
	return tlv(0xa0, gs)
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// msg10's Local, as OTP's pretty encoder writes it (CRLF inside SDP, and
// the blanks around it that belong to the text encoder).
const msg10Local = " \nv=0\r\nc=IN IP4 $ \r\nm=audio $ RTP/AVP 4\r\na=ptime:30\r\nv=0\r\nc=IN IP4 $ \r\nm=audio $ RTP/AVP 0\r\n\n\t\t\t\t\t"

func TestGoldenSnippets(t *testing.T) {
	groups, err := Parse(msg10Local, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 2 || len(groups[0]) != 4 || len(groups[1]) != 3 {
		t.Fatalf("groups: %d", len(groups))
	}
	// text-binary-examples.tsv, msg10.
	for _, c := range []struct {
		p   Prop
		hex string
	}{
		{groups[0][0], "300b80040000b001a103040130"},                             // v=0
		{groups[0][1], "80040000b008a10b0409494e20495034202420"},                 // c=IN IP4 $  (trailing blank kept)
		{groups[0][2], "80040000b00fa1130411617564696f2024205254502f4156502034"}, // m=audio $ RTP/AVP 4
		{groups[0][3], "80040000b00ca10a04087074696d653a3330"},                   // a=ptime:30
	} {
		if b := berProp(c.p); !bytes.Contains(b, unhex(t, c.hex)) {
			t.Errorf("%X %q: %x does not contain %s", c.p.Name, c.p.Values, b, c.hex)
		}
	}
	// localDescriptor [1] {propGrps [0] [group of 83 octets, ...]}: a18199a081963053.
	if b := tlv(0xa1, berPropGrps(groups)); !bytes.HasPrefix(b, unhex(t, "a18199a081963053")) {
		t.Errorf("msg10 Local = %x..., want a18199a081963053...", b[:8])
	}
	// msg11: only the first "=" separates name and value.
	g, err := Parse("v=0\r\na=a=ptime:30\r\n", nil)
	if err != nil || !bytes.Contains(berProp(g[0][1]), unhex(t, "80040000b00ca10c040a613d7074696d653a3330")) {
		t.Errorf("msg11 a=a=ptime:30: %v %v", g, err)
	}
	// msg22a: the double blank is kept.
	g, err = Parse("v=0\r\nm=audio 1111 RTP/AVP  4\r\n", nil)
	if err != nil || !bytes.Contains(berProp(g[0][1]), unhex(t, "617564696f2031313131205254502f415650202034")) {
		t.Errorf("msg22a m= line: %v %v", g, err)
	}
}

// Every Local/Remote of the golden corpus, in both text encodings, gives
// propGrps bytes that occur in the message's BER, and writes back to the
// same lines.
func TestGoldenCorpus(t *testing.T) {
	dir := "../../../corpus/otp-time-test"
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(files) == 0 {
		t.Skip("golden corpus not found at", dir)
	}
	re := regexp.MustCompile(`(?:Local|Remote|\bL|\bR) ?\{([^}]*)\}`)
	checked := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ms := re.FindAllSubmatch(text, -1)
		if len(ms) == 0 {
			continue
		}
		ber, err := os.ReadFile(strings.TrimSuffix(strings.TrimSuffix(f, ".txt"), filepath.Ext(strings.TrimSuffix(f, ".txt"))) + ".ber")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			body := string(m[1])
			if !strings.Contains(body, "=") {
				continue // not SDP (e.g. an empty descriptor)
			}
			groups, err := Parse(body, nil)
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(f), err)
				continue
			}
			if b := berPropGrps(groups); !bytes.Contains(ber, b) {
				t.Errorf("%s: propGrps %x not in the BER", filepath.Base(f), b)
			}
			// OTP wraps the lines in blanks that belong to the text encoder:
			// " \n" (pretty) or "\n" (compact) before, "\n\t..." after.
			want := strings.TrimLeft(body, " \n")
			want = want[:strings.LastIndex(want, "\r\n")+2]
			out, err := AppendText(nil, groups, nil)
			if err != nil || string(out) != want {
				t.Errorf("%s: AppendText = %q, %v; body %q", filepath.Base(f), out, err, body)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("only %d descriptors checked", checked)
	}
}

func letterName(c byte) [4]byte {
	tag, _ := Tag(c)
	return nameOf(tag)
}

func props(lines ...string) []Prop {
	var ps []Prop
	for _, l := range lines {
		name, val, _ := strings.Cut(l, "=")
		ps = append(ps, Prop{Name: letterName(name[0]), Values: [][]byte{[]byte(val)}})
	}
	return ps
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		text string
		want [][]Prop
	}{
		{"", nil},
		{" \n\r\n\t", nil},
		{"v=0", [][]Prop{props("v=0")}},
		{"v=0\nc=IN IP4 1.2.3.4\n", [][]Prop{props("v=0", "c=IN IP4 1.2.3.4")}}, // LF only
		{"v=0\rc=x\r", [][]Prop{props("v=0", "c=x")}},                           // CR only
		{"\r\n\r\nv=0\r\n\r\n\r\no=- 1 1 IN IP4 h\r\n\r\n", [][]Prop{props("v=0", "o=- 1 1 IN IP4 h")}},
		{"  v=0\n\t\ts=x", [][]Prop{props("v=0", "s=x")}},                                 // blanks before a name are skipped
		{"v= 0 \n", [][]Prop{props("v= 0 ")}},                                             // blanks in a value are kept
		{"v=", [][]Prop{props("v=")}},                                                     // empty value
		{"c=a\nv=0\nm=b\nv=1", [][]Prop{props("c=a"), props("v=0", "m=b"), props("v=1")}}, // lines before v= are a group
		{"v=0\nv=1", [][]Prop{props("v=0"), props("v=1")}},
		{"a=x=y=z", [][]Prop{props("a=x=y=z")}},
		{"m=audio $ RTP/AVP 4\nc=IN IP4 -", [][]Prop{props("m=audio $ RTP/AVP 4", "c=IN IP4 -")}}, // no SDP parsing
		{"i=käse\n", [][]Prop{props("i=käse")}},
	} {
		got, err := Parse(c.text, nil)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.text, got, err, c.want)
		}
	}
	// Every letter and its tag (RFC 3525 Annex C.11).
	for i, c := range []byte("vosiuepcbzkatrm") {
		tag, ok := Tag(c)
		if !ok || tag != uint16(0xB001+i) {
			t.Errorf("Tag(%c) = %X", c, tag)
		}
		if l, ok := Letter(tag); !ok || l != c {
			t.Errorf("Letter(%X) = %c", tag, l)
		}
	}
	if _, ok := Tag('x'); ok {
		t.Errorf("Tag(x) ok")
	}
	if _, ok := Letter(0xB010); ok {
		t.Errorf("Letter(B010) ok")
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		text string
		kind error
		msg  string
	}{
		{"v=0\nx=1", ErrName, `sdp line 2: "x" is not an SDP line type`},
		{"V=0", ErrName, `sdp line 1: "V" is not an SDP line type`},
		{"v=0\r\n\r\nIPv4=1.2.3.4", ErrName, `sdp line 3: "IPv4" is not an SDP line type`}, // no resolver
		{"v=0\nfoo\n", ErrSyntax, `sdp line 2: name "foo": bad character '\n'`},
		{"v=0\nfoo", ErrSyntax, `sdp line 2: "foo" has no '='`},
		{"=0", ErrSyntax, "empty name"},
		{"v =0", ErrSyntax, `bad character ' '`},
		{"a;b=0", ErrSyntax, `bad character ';'`},
	} {
		_, err := Parse(c.text, nil)
		if err == nil || !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Parse(%q) error = %v, want %v containing %q", c.text, err, c.kind, c.msg)
		}
	}
}

// Names other than SDP letters go through the caller's resolver, and values
// through the caller's value hook (e.g. the rfc profile).
func TestOptions(t *testing.T) {
	names := map[string][4]byte{"IPv4": {0, 0, 0x60, 0x01}, "nt/jit": {0, 0x0b, 0, 0x07}}
	errNope := errors.New("nope")
	o := &Options{
		Resolve: func(name string) ([4]byte, error) {
			if n, ok := names[name]; ok {
				return n, nil
			}
			return [4]byte{}, errNope
		},
		Name: func(n [4]byte) (string, error) {
			for k, v := range names {
				if v == n {
					return k, nil
				}
			}
			return "", errNope
		},
		EncodeValue: func(n [4]byte, text string) ([]byte, error) {
			if text == "bad" {
				return nil, errNope
			}
			return append([]byte{0x16, byte(len(text))}, text...), nil
		},
		DecodeValue: func(n [4]byte, b []byte) (string, error) {
			if len(b) < 2 || b[0] != 0x16 {
				return "", errNope
			}
			return string(b[2:]), nil
		},
		EOL: "\n",
	}
	text := "v=0\nIPv4=124.124.124.222\nnt/jit=40\n"
	groups, err := Parse(text, o)
	if err != nil {
		t.Fatal(err)
	}
	want := "[[{[0 0 176 1] [[22 1 48]]} {[0 0 96 1] [[22 15 49 50 52 46 49 50 52 46 49 50 52 46 50 50 50]]} {[0 11 0 7] [[22 2 52 48]]}]]"
	if fmt.Sprint(groups) != want {
		t.Errorf("Parse with options = %v\nwant %s", groups, want)
	}
	out, err := AppendText([]byte("X"), groups, o)
	if err != nil || string(out) != "X"+text {
		t.Errorf("AppendText with options = %q, %v", out, err)
	}
	if _, err := Parse("v=0\nfoo/bar=1", o); !errors.Is(err, ErrName) || !errors.Is(err, errNope) || !strings.Contains(err.Error(), `sdp line 2: name "foo/bar": nope`) {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := Parse("v=bad", o); !errors.Is(err, ErrValue) || !errors.Is(err, errNope) {
		t.Errorf("bad value: %v", err)
	}
	bad := [][]Prop{{{Name: letterName('v'), Values: [][]byte{[]byte("raw")}}}}
	if _, err := AppendText(nil, bad, o); !errors.Is(err, ErrValue) {
		t.Errorf("undecodable value: %v", err)
	}
}

func TestAppendTextErrors(t *testing.T) {
	for _, c := range []struct {
		groups [][]Prop
		kind   error
		msg    string
	}{
		{[][]Prop{props("v=0"), props("c=x")}, ErrNoText, "sdp group 2 property 1: a group after the first must start with v="},
		{[][]Prop{props("c=x", "v=0")}, ErrNoText, "sdp group 1 property 2: v= inside a group"},
		{[][]Prop{props("v=0"), {}}, ErrNoText, "sdp group 2: is empty"},
		{[][]Prop{{{Name: letterName('v'), Values: nil}}}, ErrNoText, "0 values"},
		{[][]Prop{{{Name: letterName('v'), Values: [][]byte{{'0'}, {'1'}}}}}, ErrNoText, "2 values"},
		{[][]Prop{props("v=0\r\nx=1")}, ErrNoText, "contains a line end"},
		{[][]Prop{{{Name: [4]byte{0, 0, 0x60, 1}, Values: [][]byte{{'1'}}}}}, ErrName, "name 00006001 is not an SDP line type"},
		{[][]Prop{{{Name: [4]byte{0, 0, 0xB0, 0x10}, Values: [][]byte{{'1'}}}}}, ErrName, "name 0000B010"},
	} {
		out, err := AppendText([]byte("keep"), c.groups, nil)
		if err == nil || !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("AppendText(%v) error = %v, want %v containing %q", c.groups, err, c.kind, c.msg)
		}
		if string(out) != "keep" {
			t.Errorf("AppendText(%v) left %q on error", c.groups, out)
		}
	}
	// A resolver name that would not read back is refused.
	o := &Options{Name: func([4]byte) (string, error) { return "x", nil }}
	if _, err := AppendText(nil, [][]Prop{{{Name: [4]byte{0, 0, 0x60, 1}, Values: [][]byte{{'1'}}}}}, o); !errors.Is(err, ErrName) {
		t.Errorf("one-letter resolver name: %v", err)
	}
}

// Text -> groups -> text -> groups is stable, and never panics.
func FuzzRoundTrip(f *testing.F) {
	f.Add(msg10Local)
	f.Add("c=a\nv=0\nm=b\nv=1")
	f.Add("v=0\r\n\r\na=a=b\r")
	f.Fuzz(func(t *testing.T, text string) {
		groups, err := Parse(text, nil)
		if err != nil {
			return
		}
		out, err := AppendText(nil, groups, nil)
		if err != nil {
			t.Fatalf("Parse(%q) = %v; AppendText: %v", text, groups, err)
		}
		again, err := Parse(string(out), nil)
		if err != nil || fmt.Sprint(again) != fmt.Sprint(groups) {
			t.Fatalf("%q -> %v -> %q -> %v, %v", text, groups, out, again, err)
		}
	})
}
