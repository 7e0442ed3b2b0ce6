package pkgs

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// valueCase is one value of an item (param == "") or of a parameter.
type valueCase struct {
	v      Version
	k      Kind
	name   string // text PkgdName
	param  string
	text   string
	rfc    string // hex of the double-wrapped content; "" = error expected
	back   string // text decoded from rfc, if different
	errMsg string // substring of the rfc error
}

var valueCases = []valueCase{
	// Doc section 3 table: nt/jit=40 is 04 02 34 30 (OTP) or 04 03 02 01 28 (RFC).
	{1, Property, "nt/jit", "", "40", "020128", "", ""},
	{1, Property, "tdmc/ec", "", "on", "0101ff", "", ""},
	{1, Property, "tdmc/ec", "", "OFF", "010100", "off", ""},
	{1, Event, "al/of", "init", "True", "0101ff", "true", ""},
	{1, Event, "al/on", "strict", "failWrong", "0a0102", "", ""},
	{1, Event, "al/on", "strict", "failwrong", "0a0102", "failWrong", ""}, // OTP lowercased it
	{1, Event, "al/on", "strict", "exact", "0a0100", "", ""},
	{1, Event, "al/on", "strict", "sloppy", "", "", `"sloppy" is not one of exact, state, failWrong`},
	{1, Event, "g/cause", "Generalcause", "UR", "0a0102", "", ""},
	{1, Event, "g/sc", "Meth", "NC", "0a0104", "", ""},
	{1, Event, "g/sc", "SLID", "300", "0202012c", "", ""},
	{1, Event, "g/sc", "SigID", "al/ri", "040400090002", "", ""},
	{1, Event, "g/sc", "SigID", "al/*", "", "", "cannot be a wildcard"},
	{1, Event, "dd/ce", "ds", "916135551212", "160c393136313335353531323132", "", ""},
	{1, Event, "dd/ce", "Meth", "FM", "0a0103", "", ""},
	{1, Event, "ct/cmp", "res", "failure", "0a0100", "", ""},
	{1, Event, "al/fl", "mindur", "100", "020164", "", ""},
	{1, Event, "al/fl", "maxdur", "-1", "0201ff", "", ""},
	{1, Event, "al/fl", "maxdur", "1x", "", "", `"1x" is not an integer`},
	{1, Event, "nt/qualert", "th", "99", "020163", "", ""},
	{1, Event, "nt/qualert", "th", "100", "", "", "100 is outside 0..99"},
	{1, Event, "nt/netfail", "cs", "käse", "0c056bc3a47365", "", ""}, // non-ASCII: UTF8String
	{1, Signal, "al/ri", "cad", "500", "020201f4", "", ""},           // one element of a list
	{1, Signal, "tonegen/pt", "ind", "200", "020200c8", "", ""},
	{1, Signal, "tonegen/pt", "tl", "cg/dt", "", "", `signal tonegen/pt parameter tl (type "list of tone ids")`},
	{1, Event, "tonedet/std", "tid", "x", "", "", "no binary value type"},
	{1, Event, "rtp/pltrans", "rtppltype", "PCMU", "", "", "no binary value type"},
	{3, Signal, "dg/d0", "btd", "1", "", "", `signal dg/d0 parameter btd (type "")`},
	{1, Property, "tdmc/gain", "", "automatic", "020500ffffffff", "", ""},
	{1, Property, "tdmc/gain", "", "-6", "0201fa", "", ""},
	{1, Property, "root/maxNumberOfContexts", "", "128", "02020080", "", ""},
	{1, Property, "IPv4", "", "124.124.124.222", "04047c7c7cde", "", ""},
	{1, Property, "IPv4", "", "::1", "", "", "not an address"},
	{1, Property, "IPv6", "", "2001:db8::1", "041020010db8000000000000000000000001", "", ""},
	{1, Property, "Port", "", "55555", "020300d903", "", ""}, // same INTEGER as msg03's port
	{1, Property, "Port", "", "65536", "", "", "outside 0..65535"},
	{1, Property, "Porttype", "", "udp", "0a0101", "UDP", ""},
	{1, Property, "v", "", "0", "160130", "", ""},
	{1, Property, "c", "", "IN IP4 $ ", "1609494e20495034202420", "", ""},
	{1, Statistic, "rtp/ps", "", "1200", "020204b0", "", ""},
	{1, Statistic, "nt/os", "", "45123", "020300b043", "", ""},
	{1, Statistic, "rtp/pl", "", "0.2", "020433333333", "", ""}, // 32.32 fixed point
	{1, Statistic, "rtp/pl", "", "12.5", "02050c80000000", "", ""},
	{1, Statistic, "rtp/pl", "", "3", "02050300000000", "", ""},
	{1, Statistic, "rtp/pl", "", "x", "", "", "bad value"},
	{1, Statistic, "rtp/jit", "", "5", "", "", `statistic rtp/jit (type "(no type given)"): no binary value type`},
	{1, Statistic, "swb/fs", "", "5", "", "", "no binary value type"},
	{1, Event, "al/on", "", "1", "", "", "carries no value"},
	{1, Signal, "cg/rt", "", "1", "", "", "carries no value"},
}

func resolve(t *testing.T, r *Registry, c valueCase) (PkgdName, Name) {
	t.Helper()
	n, err := r.EncodePkgdName(c.v, c.k, c.name)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	var id Name
	if c.param != "" {
		if id, err = r.EncodeParam(c.v, c.k, n, c.param); err != nil {
			t.Fatalf("%s %s: %v", c.name, c.param, err)
		}
	}
	return n, id
}

func encodeValue(r *Registry, p Profile, c valueCase, n PkgdName, id Name) ([]byte, error) {
	if c.param == "" {
		return r.AppendValue(nil, p, c.v, c.k, n, c.text)
	}
	return r.AppendParamValue(nil, p, c.v, c.k, n, id, c.text)
}

func decodeValue(r *Registry, p Profile, c valueCase, n PkgdName, id Name, b []byte) (string, error) {
	if c.param == "" {
		return r.DecodeValue(p, c.v, c.k, n, b)
	}
	return r.DecodeParamValue(p, c.v, c.k, n, id, b)
}

func TestValues(t *testing.T) {
	r := New()
	for _, c := range valueCases {
		n, id := resolve(t, r, c)
		what := c.name + " " + c.param + "=" + c.text

		// OTP: the text characters, whatever the type.
		b, err := encodeValue(r, OTP, c, n, id)
		if err != nil || string(b) != c.text {
			t.Errorf("otp %s = %q, %v", what, b, err)
		}
		if s, err := decodeValue(r, OTP, c, n, id, b); err != nil || s != c.text {
			t.Errorf("otp decode %s = %q, %v", what, s, err)
		}

		b, err = encodeValue(r, RFC, c, n, id)
		if c.rfc == "" {
			if err == nil || !strings.Contains(err.Error(), c.errMsg) {
				t.Errorf("rfc %s = %x, %v; want error containing %q", what, b, err, c.errMsg)
			}
			if !errors.Is(err, ErrNoType) && !errors.Is(err, ErrBadValue) {
				t.Errorf("rfc %s: error %v is neither ErrNoType nor ErrBadValue", what, err)
			}
			if len(b) != 0 {
				t.Errorf("rfc %s: appended %x on error", what, b)
			}
			continue
		}
		if err != nil || hex.EncodeToString(b) != c.rfc {
			t.Errorf("rfc %s = %x, %v; want %s", what, b, err, c.rfc)
			continue
		}
		want := c.back
		if want == "" {
			want = c.text
		}
		if s, err := decodeValue(r, RFC, c, n, id, b); err != nil || s != want {
			t.Errorf("rfc decode %s (%x) = %q, %v; want %q", what, b, s, err, want)
		}
	}
}

func TestDecodeRFCErrors(t *testing.T) {
	r := New()
	jit := NewPkgdName(0x000B, 0x0007)
	for _, c := range []struct{ hex, msg string }{
		{"", "truncated"},
		{"02", "truncated"},
		{"0201", "BER length 1, but 0 octets follow"},
		{"02012800", "BER length 1, but 2 octets follow"},
		{"0401", "BER length"},
		{"160132", "BER tag 16, want 02"},
		{"0200", "INTEGER of 0 octets"},
		{"0209010203040506070809", "INTEGER of 9 octets"},
		{"0285", "bad BER length"},
	} {
		b, _ := hex.DecodeString(c.hex)
		if s, err := r.DecodeValue(RFC, 1, Property, jit, b); !errors.Is(err, ErrBadValue) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("decode %s = %q, %v; want %q", c.hex, s, err, c.msg)
		}
	}
	// Long-form length, accepted.
	if s, err := r.DecodeValue(RFC, 1, Property, jit, []byte{2, 0x81, 1, 40}); err != nil || s != "40" {
		t.Errorf("long-form length: %q, %v", s, err)
	}
	th := NewPkgdName(0x000B, 0x0006) // nt/qualert th: integer 0..99
	if _, err := r.DecodeParamValue(RFC, 1, Event, th, NewName(1), []byte{2, 1, 100}); !errors.Is(err, ErrBadValue) || !strings.Contains(err.Error(), "100 is outside 0..99") {
		t.Errorf("th=100 decoded: %v", err)
	}
	strict := NewPkgdName(9, 4)
	if _, err := r.DecodeParamValue(RFC, 1, Event, strict, NewName(1), []byte{0x0a, 1, 9}); !errors.Is(err, ErrBadValue) {
		t.Errorf("enumeration code 9: %v", err)
	}
	if _, err := r.DecodeValue(RFC, 1, Property, NewPkgdName(0x000B, 0xFFFF), []byte{2, 1, 1}); !errors.Is(err, ErrNoType) {
		t.Errorf("wildcard name: %v", err)
	}
	if _, err := r.DecodeValue(RFC, 1, Property, NewPkgdName(0x0099, 1), []byte{2, 1, 1}); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := r.AppendParamValue(nil, RFC, 1, Event, strict, NewName(0x55), "x"); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown parameter: %v", err)
	}
}

// The ServiceChange reason: OTP sends the characters (golden msg75a02 has
// 04 0f "901 mg col boot"); RFC double-wraps as IA5String.
func TestStringValue(t *testing.T) {
	b, err := AppendStringValue(nil, OTP, "901 mg col boot")
	if err != nil || hex.EncodeToString(b) != "393031206d6720636f6c20626f6f74" {
		t.Errorf("otp reason = %x, %v", b, err)
	}
	b, err = AppendStringValue(nil, RFC, "901 Cold Boot")
	if err != nil || hex.EncodeToString(b) != "160d39303120436f6c6420426f6f74" {
		t.Errorf("rfc reason = %x, %v", b, err)
	}
	if s, err := DecodeStringValue(RFC, b); err != nil || s != "901 Cold Boot" {
		t.Errorf("rfc reason back = %q, %v", s, err)
	}
	long := strings.Repeat("x", 300)
	b, _ = AppendStringValue(nil, RFC, long)
	if hex.EncodeToString(b[:4]) != "1682012c" {
		t.Errorf("300-char string header = %x", b[:4])
	}
	if s, err := DecodeStringValue(RFC, b); err != nil || s != long {
		t.Errorf("300-char string back: %v", err)
	}
	if _, err := AppendStringValue(nil, RFC, "\xff"); !errors.Is(err, ErrBadValue) {
		t.Errorf("invalid UTF-8: %v", err)
	}
	if s, err := DecodeStringValue(OTP, []byte("abc")); err != nil || s != "abc" {
		t.Errorf("otp decode: %q %v", s, err)
	}
}

func TestFixedPoint(t *testing.T) {
	for _, s := range []string{"0", "1", "0.2", "0.5", "12.5", "99.999", "0.0000000001", "2147483647.9999", "-0.25"} {
		v, err := parseFixed(s)
		if err != nil {
			t.Errorf("parseFixed(%q): %v", s, err)
			continue
		}
		back := formatFixed(v)
		v2, err := parseFixed(back)
		if err != nil || v2 != v {
			t.Errorf("%q -> %x -> %q -> %x, %v", s, v, back, v2, err)
		}
		if len(back) > len(s) {
			t.Errorf("%q came back longer: %q", s, back)
		}
	}
	for _, s := range []string{"", ".", "1.x", "4294967296", "1.00000000000000000001", "abc", "2147483647.9999999999"} {
		if _, err := parseFixed(s); err == nil {
			t.Errorf("parseFixed(%q) accepted", s)
		}
	}
}

func TestProfile(t *testing.T) {
	for s, want := range map[string]Profile{"otp": OTP, "RFC": RFC} {
		if p, err := ParseProfile(s); err != nil || p != want || !strings.EqualFold(p.String(), s) {
			t.Errorf("ParseProfile(%q) = %v, %v", s, p, err)
		}
	}
	if _, err := ParseProfile("ber"); err == nil {
		t.Errorf("ParseProfile(ber) accepted")
	}
}

// Decoding arbitrary octets never panics, and what decodes encodes back to
// the same octets (canonical BER input) or at least to a value that decodes
// the same.
func FuzzDecodeValue(f *testing.F) {
	for _, c := range valueCases {
		if b, err := hex.DecodeString(c.rfc); err == nil && c.rfc != "" {
			f.Add(b, uint8(0))
		}
	}
	r := New()
	var targets []valueCase
	for _, c := range valueCases {
		if c.rfc != "" {
			targets = append(targets, c)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, sel uint8) {
		c := targets[int(sel)%len(targets)]
		n, id := resolve(t, r, c)
		s, err := decodeValue(r, RFC, c, n, id, b)
		if err != nil {
			return
		}
		c.text = s
		b2, err := encodeValue(r, RFC, c, n, id)
		if err != nil {
			t.Fatalf("%s %s: %x decodes to %q, which does not encode: %v", c.name, c.param, b, s, err)
		}
		if s2, err := decodeValue(r, RFC, c, n, id, b2); err != nil || s2 != s {
			t.Fatalf("%s %s: %q -> %x -> %q, %v", c.name, c.param, s, b2, s2, err)
		}
	})
}

// Any text name either fails with ErrUnknown or decodes back to the same
// name, ignoring case.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"al/on", "AL/*", "*/*", "IPv4", "v", "dd/d0", "root/maxNumberOfContexts"} {
		f.Add(s, uint8(0), uint8(1))
	}
	r := New()
	f.Fuzz(func(t *testing.T, text string, kind, ver uint8) {
		k, v := Kind(kind%uint8(numKinds)), Version(ver%3+1)
		n, err := r.EncodePkgdName(v, k, text)
		if err != nil {
			if !errors.Is(err, ErrUnknown) {
				t.Fatalf("%q: %v is not ErrUnknown", text, err)
			}
			return
		}
		back, err := r.DecodePkgdName(v, k, n)
		if err != nil || !strings.EqualFold(back, text) {
			t.Fatalf("%q -> %s -> %q, %v", text, n, back, err)
		}
	})
}
