package pkgs

import (
	"errors"
	"fmt"
	"math/bits"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"megaco/internal/quote"
)

// Profile chooses how property, parameter and statistic values (and the
// ServiceChange reason) are put into their binary OCTET STRINGs
// (docs/text-binary-mapping.md section 3). This is a mode switch: the two give
// different bytes for every value.
type Profile uint8

const (
	// OTP carries the text characters of the value, as Erlang/OTP megaco
	// 4.4.2 does and as the golden corpus has it: nt/jit=40 gives "40".
	OTP Profile = iota
	// RFC follows RFC 3525 Annex A.2: the value is BER-encoded according to
	// its type in the package definition, and that encoding is the content
	// of the OCTET STRING ("double wrapping"): nt/jit=40 gives 02 01 28.
	RFC
)

func (p Profile) String() string {
	switch p {
	case OTP:
		return "otp"
	case RFC:
		return "rfc"
	}
	return fmt.Sprintf("profile(%d)", uint8(p))
}

// ParseProfile reads "otp" or "rfc" (any case).
func ParseProfile(s string) (Profile, error) {
	switch strings.ToLower(s) {
	case "otp":
		return OTP, nil
	case "rfc":
		return RFC, nil
	}
	return 0, fmt.Errorf("pkgs: unknown value profile %q, want otp or rfc", s)
}

// Value errors, for errors.Is.
var (
	// ErrNoType: the rfc profile needs the value's type, and the package
	// definition does not give one this package can encode.
	ErrNoType = errors.New("no binary value type")
	// ErrBadValue: the value does not fit its type.
	ErrBadValue = errors.New("bad value")
)

// baseType is how a value is BER-encoded in the rfc profile (RFC 3525 A.2).
type baseType uint8

const (
	tUnknown    baseType = iota // type not given, or not encodable
	tNone                       // events and signals themselves carry no value
	tString                     // IA5String, UTF8String if not ASCII
	tOctets                     // OCTET STRING of the text bytes
	tInteger                    // INTEGER (integer, unsigned, double)
	tFixed                      // INTEGER, 32-bit whole + 32-bit fraction (rtp/pl)
	tBoolean                    // BOOLEAN
	tEnum                       // ENUMERATED, codes from the package
	tIPv4                       // OCTET STRING(4), Annex C "32 bits"
	tIPv6                       // OCTET STRING(16), Annex C "128 bits"
	tSignalName                 // OCTET STRING(4) holding a signal's PkgdName (g/sc SigID)
)

type named struct {
	name string
	code int64
}

// valueType is what the type and values_and_notes columns say about a value.
type valueType struct {
	base     baseType
	desc     string // the type column, for messages
	hasRange bool
	min, max int64
	names    []named // enumeration codes, or special integer values
	onOff    bool    // boolean written on/off rather than true/false
}

// parseValueType reads the type and values_and_notes columns. Types it does
// not understand become tUnknown, which only matters to the rfc profile.
func parseValueType(typ, notes string) (valueType, error) {
	vt := valueType{desc: strings.TrimSpace(typ)}
	lt := strings.ToLower(vt.desc)
	elem := strings.TrimPrefix(lt, "list of ") // a list is several values of the element type
	lnotes := strings.ToLower(notes)
	switch {
	case lt == "" || strings.Contains(lt, "no type given"):
		vt.base = tUnknown
	case strings.HasPrefix(lt, "event") || strings.HasPrefix(lt, "signal type"):
		vt.base = tNone
	case strings.HasPrefix(elem, "enumerat"):
		vt.base = tEnum
		vt.names = parseNamed(notes)
		if len(vt.names) == 0 {
			vt.base = tUnknown // e.g. tone ids, RTP encoding names: no codes given
		}
	case strings.HasPrefix(elem, "boolean"):
		vt.base = tBoolean
		vt.onOff = strings.HasPrefix(lnotes, "on/off")
	case strings.HasPrefix(elem, "double") && strings.Contains(lnotes, "fraction"):
		vt.base = tFixed
	case strings.HasPrefix(elem, "integer"), strings.HasPrefix(elem, "unsigned integer"), strings.HasPrefix(elem, "double"):
		vt.base = tInteger
		vt.names = parseNamed(notes)
		if lo, hi, ok := parseRange(elem); ok {
			if lo > hi {
				return vt, fmt.Errorf("type %q: empty range", typ)
			}
			vt.hasRange, vt.min, vt.max = true, lo, hi
		} else if strings.HasPrefix(elem, "unsigned") {
			vt.hasRange, vt.min, vt.max = true, 0, 1<<32-1
		}
	case strings.HasPrefix(elem, "string"):
		vt.base = tString
	case strings.HasPrefix(elem, "octet string"):
		vt.base = tOctets
	case strings.HasPrefix(elem, "binary:"):
		// "binary: octet string; text: string" (g/sc SigID).
		vt.base = tOctets
		if strings.Contains(lnotes, "pkgdname") {
			vt.base = tSignalName
		}
	case elem == "32 bits":
		vt.base = tIPv4
	case elem == "128 bits":
		vt.base = tIPv6
	}
	return vt, nil
}

// parseNamed collects name=number pairs ("exact=0x00 state=0x01",
// "TCP=0 UDP=1 SCTP=2; ...", "automatic=0xffffffff").
func parseNamed(notes string) []named {
	var out []named
	for _, f := range strings.FieldsFunc(notes, func(r rune) bool { return r == ' ' || r == ';' || r == ',' }) {
		name, num, ok := strings.Cut(f, "=")
		if !ok || name == "" {
			continue
		}
		if u, err := strconv.ParseUint(num, 0, 63); err == nil {
			out = append(out, named{name, int64(u)})
		}
	}
	return out
}

// parseRange finds "lo..hi" in a type such as "integer 0..99".
func parseRange(s string) (lo, hi int64, ok bool) {
	i := strings.Index(s, "..")
	if i <= 0 {
		return 0, 0, false
	}
	a := i
	for a > 0 && s[a-1] >= '0' && s[a-1] <= '9' {
		a--
	}
	b := i + 2
	for b < len(s) && s[b] >= '0' && s[b] <= '9' {
		b++
	}
	lo, err1 := strconv.ParseInt(s[a:i], 10, 64)
	hi, err2 := strconv.ParseInt(s[i+2:b], 10, 64)
	return lo, hi, err1 == nil && err2 == nil
}

// Universal BER tags used for the inner value.
const (
	tagBoolean    = 0x01
	tagInteger    = 0x02
	tagOctets     = 0x04
	tagEnumerated = 0x0a
	tagUTF8String = 0x0c
	tagIA5String  = 0x16
)

func appendLen(dst []byte, n int) []byte {
	switch {
	case n < 0x80:
		return append(dst, byte(n))
	case n <= 0xff:
		return append(dst, 0x81, byte(n))
	case n <= 0xffff:
		return append(dst, 0x82, byte(n>>8), byte(n))
	case n <= 0xffffff:
		return append(dst, 0x83, byte(n>>16), byte(n>>8), byte(n))
	}
	return append(dst, 0x84, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
}

func appendTLV(dst []byte, tag byte, content string) []byte {
	dst = append(dst, tag)
	dst = appendLen(dst, len(content))
	return append(dst, content...)
}

// appendInt appends a BER INTEGER/ENUMERATED in minimal two's complement.
func appendInt(dst []byte, tag byte, v int64) []byte {
	n := 1
	for n < 8 {
		top := v >> (8*n - 1) // all the bits that do not fit in n octets, plus the sign bit
		if top == 0 || top == -1 {
			break
		}
		n++
	}
	dst = append(dst, tag, byte(n))
	for i := n - 1; i >= 0; i-- {
		dst = append(dst, byte(v>>(8*i)))
	}
	return dst
}

// parseTLV reads one definite-length, single-octet-tag BER TLV that makes up
// all of b.
func parseTLV(b []byte) (tag byte, content []byte, err error) {
	if len(b) < 2 {
		return 0, nil, errors.New("truncated BER value")
	}
	tag, n, rest := b[0], int(b[1]), b[2:]
	if n >= 0x80 {
		k := n & 0x7f
		if k == 0 || k > 4 || len(rest) < k {
			return 0, nil, errors.New("bad BER length")
		}
		n = 0
		for _, c := range rest[:k] {
			n = n<<8 | int(c)
		}
		rest = rest[k:]
	}
	if n != len(rest) {
		return 0, nil, fmt.Errorf("BER length %d, but %d octets follow", n, len(rest))
	}
	return tag, rest, nil
}

func parseInt(content []byte) (int64, error) {
	if len(content) == 0 || len(content) > 8 {
		return 0, fmt.Errorf("INTEGER of %d octets", len(content))
	}
	v := int64(int8(content[0])) // sign-extend
	for _, c := range content[1:] {
		v = v<<8 | int64(c)
	}
	return v, nil
}

// appendRFC BER-encodes text according to vt.
// r and v resolve SigID values (a signal's PkgdName); r may be nil otherwise.
func (vt *valueType) appendRFC(dst []byte, text string, r *Registry, v Version) ([]byte, error) {
	switch vt.base {
	case tNone:
		return dst, fmt.Errorf("%w: it carries no value", ErrNoType)
	case tUnknown:
		return dst, fmt.Errorf("%w: package type %q", ErrNoType, vt.desc)
	case tString:
		if !utf8.ValidString(text) {
			return dst, fmt.Errorf("%w: %s is not UTF-8", ErrBadValue, quote.Clip(text))
		}
		tag := byte(tagIA5String)
		for i := 0; i < len(text); i++ {
			if text[i] >= 0x80 {
				tag = tagUTF8String
				break
			}
		}
		return appendTLV(dst, tag, text), nil
	case tOctets:
		return appendTLV(dst, tagOctets, text), nil
	case tInteger, tEnum:
		tag := byte(tagInteger)
		if vt.base == tEnum {
			tag = tagEnumerated
		}
		for _, nv := range vt.names {
			if strings.EqualFold(nv.name, text) {
				return appendInt(dst, tag, nv.code), nil
			}
		}
		if vt.base == tEnum {
			return dst, fmt.Errorf("%w: %s is not one of %s", ErrBadValue, quote.Clip(text), vt.nameList())
		}
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return dst, fmt.Errorf("%w: %s is not an integer", ErrBadValue, quote.Clip(text))
		}
		if vt.hasRange && (v < vt.min || v > vt.max) {
			return dst, fmt.Errorf("%w: %d is outside %d..%d", ErrBadValue, v, vt.min, vt.max)
		}
		return appendInt(dst, tagInteger, v), nil
	case tFixed:
		v, err := parseFixed(text)
		if err != nil {
			return dst, fmt.Errorf("%w: %s: %v", ErrBadValue, quote.Clip(text), err)
		}
		return appendInt(dst, tagInteger, v), nil
	case tBoolean:
		switch strings.ToLower(text) {
		case "on", "true":
			return append(dst, tagBoolean, 1, 0xff), nil
		case "off", "false":
			return append(dst, tagBoolean, 1, 0), nil
		}
		return dst, fmt.Errorf("%w: %s is not on/off or true/false", ErrBadValue, quote.Clip(text))
	case tIPv4, tIPv6:
		a, err := netip.ParseAddr(text)
		if err != nil || vt.base == tIPv4 && !a.Is4() || vt.base == tIPv6 && !a.Is6() {
			return dst, fmt.Errorf("%w: %s is not an address of type %q", ErrBadValue, quote.Clip(text), vt.desc)
		}
		dst = append(dst, tagOctets)
		dst = appendLen(dst, a.BitLen()/8)
		return a.AppendBinary(dst)
	case tSignalName:
		n, err := r.EncodePkgdName(v, Signal, text)
		if err != nil {
			return dst, err
		}
		if n.Item() == wildID {
			return dst, fmt.Errorf("%w: a signal ID value cannot be a wildcard (%s)", ErrBadValue, text)
		}
		return append(dst, tagOctets, 4, n[0], n[1], n[2], n[3]), nil
	}
	return dst, fmt.Errorf("%w: internal: type %d", ErrNoType, vt.base)
}

func (vt *valueType) nameList() string {
	var b strings.Builder
	for i, nv := range vt.names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(nv.name)
	}
	return b.String()
}

// decodeRFC reads a double-wrapped value back to text.
func (vt *valueType) decodeRFC(octets []byte, r *Registry, v Version) (string, error) {
	switch vt.base {
	case tNone:
		return "", fmt.Errorf("%w: it carries no value", ErrNoType)
	case tUnknown:
		return "", fmt.Errorf("%w: package type %q", ErrNoType, vt.desc)
	}
	tag, c, err := parseTLV(octets)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrBadValue, err)
	}
	want := byte(tagOctets)
	switch vt.base {
	case tString:
		want = tagIA5String
	case tInteger, tFixed:
		want = tagInteger
	case tBoolean:
		want = tagBoolean
	case tEnum:
		want = tagEnumerated
	}
	if tag != want && !(vt.base == tString && tag == tagUTF8String) {
		return "", fmt.Errorf("%w: BER tag %02X, want %02X for %q", ErrBadValue, tag, want, vt.desc)
	}
	switch vt.base {
	case tString:
		if !utf8.Valid(c) {
			return "", fmt.Errorf("%w: string is not UTF-8", ErrBadValue)
		}
		return string(c), nil
	case tOctets:
		return string(c), nil
	case tInteger, tEnum, tFixed:
		v, err := parseInt(c)
		if err != nil {
			return "", fmt.Errorf("%w: %v", ErrBadValue, err)
		}
		for _, nv := range vt.names {
			if nv.code == v {
				return nv.name, nil
			}
		}
		switch vt.base {
		case tEnum:
			return "", fmt.Errorf("%w: enumeration code %d is not one of %s", ErrBadValue, v, vt.nameList())
		case tFixed:
			return formatFixed(v), nil
		}
		// Checked on decode too, so that whatever decodes also encodes.
		if vt.hasRange && (v < vt.min || v > vt.max) {
			return "", fmt.Errorf("%w: %d is outside %d..%d", ErrBadValue, v, vt.min, vt.max)
		}
		return strconv.FormatInt(v, 10), nil
	case tBoolean:
		if len(c) != 1 {
			return "", fmt.Errorf("%w: BOOLEAN of %d octets", ErrBadValue, len(c))
		}
		t, f := "true", "false"
		if vt.onOff {
			t, f = "on", "off"
		}
		if c[0] != 0 {
			return t, nil
		}
		return f, nil
	case tIPv4, tIPv6:
		a, ok := netip.AddrFromSlice(c)
		if !ok || vt.base == tIPv4 && len(c) != 4 || vt.base == tIPv6 && len(c) != 16 {
			return "", fmt.Errorf("%w: address of %d octets", ErrBadValue, len(c))
		}
		return a.String(), nil
	case tSignalName:
		n, err := ParsePkgdName(c)
		if err != nil {
			return "", fmt.Errorf("%w: %v", ErrBadValue, err)
		}
		if n.Item() == wildID {
			return "", fmt.Errorf("%w: a signal ID value cannot be a wildcard (%s)", ErrBadValue, n)
		}
		return r.DecodePkgdName(v, Signal, n)
	}
	return "", fmt.Errorf("%w: internal: type %d", ErrNoType, vt.base)
}

// parseFixed reads a decimal number into 32.32 fixed point ("0.2" ->
// 0x0000_0000_3333_3333), the RFC's "32-bit whole number and a 32-bit
// fraction" for rtp/pl.
func parseFixed(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	w, err := strconv.ParseUint(whole, 10, 31)
	if err != nil || len(frac) > 19 {
		return 0, errors.New("not a number with a 31-bit whole part and at most 19 decimals")
	}
	var q uint64
	if frac != "" {
		f, err := strconv.ParseUint(frac, 10, 64)
		if err != nil {
			return 0, errors.New("bad decimals")
		}
		den := pow10(len(frac))
		hi, lo := bits.Mul64(f, 1<<32)
		var rem uint64
		q, rem = bits.Div64(hi, lo, den) // f < den, so q < 2^32
		if rem >= den-rem {              // round half up
			q++
		}
	}
	u := w<<32 + q // q may be 2^32 after rounding: carries into the whole part
	if u >= 1<<63 {
		return 0, errors.New("too large")
	}
	v := int64(u)
	if neg {
		v = -v
	}
	return v, nil
}

func pow10(n int) uint64 {
	p := uint64(1)
	for range n {
		p *= 10
	}
	return p
}

// formatFixed writes 32.32 fixed point with the fewest decimals that read
// back to the same value (10 decimals always suffice: 10^-10 < 2^-33).
func formatFixed(v int64) string {
	sign := ""
	u := uint64(v)
	if v < 0 {
		sign, u = "-", uint64(-v)
	}
	whole, q := u>>32, u&(1<<32-1)
	if q == 0 {
		return sign + strconv.FormatUint(whole, 10)
	}
	for d := 1; d <= 10; d++ {
		den := pow10(d)
		hi, lo := bits.Mul64(q, den)
		c, rem := bits.Div64(hi, lo, 1<<32)
		if rem >= 1<<31 {
			c++
		}
		if c >= den {
			continue
		}
		ds := strconv.FormatUint(c, 10)
		s := sign + strconv.FormatUint(whole, 10) + "." + strings.Repeat("0", d-len(ds)) + ds
		if back, err := parseFixed(s); d == 10 || err == nil && back == v {
			return strings.TrimRight(s, "0")
		}
	}
	return sign + strconv.FormatUint(whole, 10) // only if q rounds to 1 at every precision, which cannot happen
}

// AppendStringValue encodes a value whose type is a string and that belongs
// to no package item, such as ServiceChangeParm.serviceChangeReason
// ("901 Cold Boot"): OTP sends the characters, RFC double-wraps them as an
// IA5String (UTF8String if not ASCII). It appends the OCTET STRING's content.
func AppendStringValue(dst []byte, p Profile, text string) ([]byte, error) {
	if p == OTP {
		return append(dst, text...), nil
	}
	vt := valueType{base: tString, desc: "string"}
	return vt.appendRFC(dst, text, nil, 0)
}

// DecodeStringValue is the inverse of AppendStringValue.
func DecodeStringValue(p Profile, octets []byte) (string, error) {
	if p == OTP {
		return string(octets), nil
	}
	vt := valueType{base: tString, desc: "string"}
	return vt.decodeRFC(octets, nil, 0)
}

func valueErr(p Profile, what string, vt *valueType, err error) error {
	return fmt.Errorf("pkgs: %s value of %s (type %q): %w", p, what, vt.desc, err)
}

// AppendValue encodes the text value of the property or statistic name
// (k is Property or Statistic) and appends the octets that go inside one
// OCTET STRING of its Value. With OTP, these are the text characters and no
// lookup is done. With RFC, they are the BER encoding of the typed value.
// A list (p=[a,b]) is one call per element.
//
// The text is the value as the text decoder gives it: without quotes. (OTP's
// text decoder lowercases unquoted values; that is not done here.)
func (r *Registry) AppendValue(dst []byte, p Profile, v Version, k Kind, name PkgdName, text string) ([]byte, error) {
	if p == OTP {
		return append(dst, text...), nil
	}
	it, err := r.valueItem(v, k, name)
	if err != nil {
		return dst, err
	}
	out, err := it.typ.appendRFC(dst, text, r, v)
	if err != nil {
		return dst, valueErr(p, k.String()+" "+it.full, &it.typ, err)
	}
	return out, nil
}

// DecodeValue is the inverse of AppendValue for one OCTET STRING.
func (r *Registry) DecodeValue(p Profile, v Version, k Kind, name PkgdName, octets []byte) (string, error) {
	if p == OTP {
		return string(octets), nil
	}
	it, err := r.valueItem(v, k, name)
	if err != nil {
		return "", err
	}
	s, err := it.typ.decodeRFC(octets, r, v)
	if err != nil {
		return "", valueErr(p, k.String()+" "+it.full, &it.typ, err)
	}
	return s, nil
}

func (r *Registry) valueItem(v Version, k Kind, name PkgdName) (*itemEntry, error) {
	if err := checkVersion(v); err != nil {
		return nil, err
	}
	it, _, err := r.load().itemByID(v, k, name)
	if err != nil {
		return nil, err
	}
	if it == nil {
		return nil, fmt.Errorf("pkgs: rfc value of %s %s: %w: a wildcard name has no type", k, name, ErrNoType)
	}
	return it, nil
}

// AppendParamValue is AppendValue for a parameter of an event or signal (k
// is Event or Signal, parent its PkgdName).
func (r *Registry) AppendParamValue(dst []byte, p Profile, v Version, k Kind, parent PkgdName, param Name, text string) ([]byte, error) {
	if p == OTP {
		return append(dst, text...), nil
	}
	it, pe, err := r.valueParam(v, k, parent, param)
	if err != nil {
		return dst, err
	}
	out, err := pe.typ.appendRFC(dst, text, r, v)
	if err != nil {
		return dst, valueErr(p, k.String()+" "+it.full+" parameter "+pe.name, &pe.typ, err)
	}
	return out, nil
}

// DecodeParamValue is the inverse of AppendParamValue.
func (r *Registry) DecodeParamValue(p Profile, v Version, k Kind, parent PkgdName, param Name, octets []byte) (string, error) {
	if p == OTP {
		return string(octets), nil
	}
	it, pe, err := r.valueParam(v, k, parent, param)
	if err != nil {
		return "", err
	}
	s, err := pe.typ.decodeRFC(octets, r, v)
	if err != nil {
		return "", valueErr(p, k.String()+" "+it.full+" parameter "+pe.name, &pe.typ, err)
	}
	return s, nil
}

func (r *Registry) valueParam(v Version, k Kind, parent PkgdName, param Name) (*itemEntry, *paramEntry, error) {
	if err := checkVersion(v); err != nil {
		return nil, nil, err
	}
	it, err := r.load().paramScope(v, k, parent)
	if err != nil {
		return nil, nil, err
	}
	pe := it.paramIDs[param.ID()]
	if pe == nil || !pe.vs.has(v) {
		return nil, nil, &UnknownError{Version: v, What: k.String() + " parameter", Name: param.String(), Note: "of " + it.full}
	}
	return it, pe, nil
}
