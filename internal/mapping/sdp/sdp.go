// Package sdp maps the content of Megaco/H.248 Local and Remote descriptors
// between the text encoding (SDP lines such as "v=0", "c=IN IP4 $ ") and the
// binary encoding, where each line is one PropertyParm named by a native
// Annex C tag (PkgdName 0x0000 + tag, RFC 3525 Annex C.11) and the lines are
// grouped into PropertyGroups (LocalRemoteDescriptor.propGrps).
//
// It exists because the binary form has no SDP text: the transcoder must cut
// the text into lines, name each line, and find the group boundaries. The
// rules are those of Erlang/OTP megaco 4.4.2 (docs/text-binary-mapping.md
// section 4), which produced the golden corpus:
//
//   - A line is NAME=VALUE. The name is the text before the first "=", case
//     kept; the value is everything after it up to CR or LF, blanks kept
//     ("c=IN IP4 $ " gives "IN IP4 $ ", "a=a=ptime:30" gives name "a" and
//     value "a=ptime:30"). SDP is not parsed further: "$" and "-" are just
//     characters.
//   - The 15 SDP letters v o s i u e p c b z k a t r m map to tags
//     B001..B00F. Any other one-character name (e.g. "x", or "V": SDP types
//     are lower case) is an error, as in OTP. Longer names ("IPv4",
//     "nt/jit") go to a caller-supplied resolver, as OTP sends them through
//     its general name resolver.
//   - Blanks and line ends before a name are skipped, so blank lines, CRLF vs
//     LF, and leading/trailing blank lines are not carried.
//   - A new group starts at every "v=" line, unless the current group is
//     empty. Lines before the first "v=" form a group of their own.
//
// In the other direction each group is written as lines; a group after the
// first that does not start with "v=" has no text form (the boundary would be
// lost on re-parse; OTP's text encoder refuses it too), and is an error.
//
// The text handled here is the descriptor content between the braces with
// the text encoding's "\}" escape already removed; escaping "}" on output is
// left to the text encoder.
//
// Values: by default a line's value is carried as its text bytes, as OTP
// does. Options.EncodeValue/DecodeValue can replace that, for example with the
// RFC 3525 double wrapping of the package registry (pkgs.Registry.AppendValue
// with the rfc profile), without this package knowing the registry.
package sdp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"megaco/internal/quote"
)

// Prop is one PropertyParm of a PropertyGroup.
type Prop struct {
	// Name is the PkgdName: 00 00 B0 0x for an SDP letter.
	Name [4]byte
	// Values is PropertyParm.value (SEQUENCE OF OCTET STRING). An SDP line
	// has exactly one value.
	Values [][]byte
}

// letters maps tag B001+i to its SDP letter (RFC 3525 Annex C.11).
const letters = "vosiuepcbzkatrm"

const tagBase = 0xB001

// Tag returns the Annex C tag of an SDP line letter.
func Tag(letter byte) (uint16, bool) {
	if i := strings.IndexByte(letters, letter); i >= 0 {
		return uint16(tagBase + i), true
	}
	return 0, false
}

// Letter returns the SDP line letter of an Annex C tag.
func Letter(tag uint16) (byte, bool) {
	s, ok := LetterName(tag)
	if !ok {
		return 0, false
	}
	return s[0], true
}

// LetterName is Letter as a line name: a one-letter string, which
// allocates nothing (it is a substring of the letters).
func LetterName(tag uint16) (string, bool) {
	if tag >= tagBase && tag < tagBase+uint16(len(letters)) {
		i := tag - tagBase
		return letters[i : i+1], true
	}
	return "", false
}

// nameOf returns the native PkgdName for an SDP letter tag.
func nameOf(tag uint16) [4]byte { return [4]byte{0, 0, byte(tag >> 8), byte(tag)} }

// Options lets the caller handle what is not an SDP letter and choose how
// values are carried. The zero value (or nil) gives OTP's behaviour with no
// names other than the SDP letters.
type Options struct {
	// Resolve maps a line name that is not one character long ("IPv4",
	// "nt/jit") to its PkgdName. Nil: such lines are errors.
	Resolve func(name string) ([4]byte, error)
	// Name maps a PkgdName that is not an SDP letter back to a line name.
	// Nil: such properties are errors.
	Name func(name [4]byte) (string, error)
	// EncodeValue returns the octets carried for a line's value. Nil: the
	// text bytes (OTP).
	EncodeValue func(name [4]byte, text string) ([]byte, error)
	// DecodeValue turns carried octets back into the value text. Nil: the
	// octets are the text (OTP).
	DecodeValue func(name [4]byte, octets []byte) (string, error)
	// EOL ends each written line. Empty: "\r\n", as OTP writes SDP.
	EOL string
}

// Error kinds, for errors.Is.
var (
	ErrSyntax = errors.New("bad SDP line")
	ErrName   = errors.New("unknown line name")
	ErrNoText = errors.New("no text form")
	ErrValue  = errors.New("bad value")
)

// Error reports the line (text side, counting from 1) or group and property
// (binary side, counting from 1) that cannot be mapped.
type Error struct {
	Line         int // text: line number; 0 on the binary side
	Group, Index int // binary: group and property number; 0 on the text side
	Kind         error
	Detail       string
	Err          error // the resolver's or value hook's error, if any
}

func (e *Error) Error() string {
	where := "sdp line " + strconv.Itoa(e.Line)
	if e.Line == 0 {
		where = fmt.Sprintf("sdp group %d property %d", e.Group, e.Index)
		if e.Index == 0 {
			where = fmt.Sprintf("sdp group %d", e.Group)
		}
	}
	s := where + ": " + e.Detail
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap gives both the kind and the underlying error to errors.Is/As.
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}

// safeChar is the ABNF SafeChar: what a line name may contain (OTP's
// scanner rejects other characters in a name).
func safeChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("+-&!_/'?@^`~*$\\()%|.", c) >= 0
}

// readsBack reports whether a name from Options.Name would parse back as a
// non-SDP name: two or more SafeChars.
func readsBack(name string) bool {
	if len(name) < 2 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !safeChar(name[i]) {
			return false
		}
	}
	return true
}

// Parse cuts Local/Remote text into PropertyGroups. Values share one backing
// array, so a parse makes few allocations; the caller owns the result.
func Parse(text string, o *Options) ([][]Prop, error) {
	if o == nil {
		o = &Options{}
	}
	// One pass to size things: at most one property per line end + 1.
	n := strings.Count(text, "\n") + strings.Count(text, "\r") + 1
	props := make([]Prop, 0, n)
	vals := make([][]byte, 0, n)
	var buf []byte
	if o.EncodeValue == nil {
		buf = make([]byte, 0, len(text))
	}
	var starts []int // index in props where each group starts

	line := 1
	i := 0
	for {
		// Skip blanks and line ends before a name.
		for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {
			if text[i] == '\n' || text[i] == '\r' && (i+1 == len(text) || text[i+1] != '\n') {
				line++
			}
			i++
		}
		if i == len(text) {
			break
		}
		start := i
		for i < len(text) && text[i] != '=' {
			if !safeChar(text[i]) {
				return nil, &Error{Line: line, Kind: ErrSyntax, Detail: fmt.Sprintf("name %s: bad character %q (a line is name=value)", quote.Clip(text[start:i]), text[i])}
			}
			i++
		}
		if i == len(text) {
			return nil, &Error{Line: line, Kind: ErrSyntax, Detail: fmt.Sprintf("%s has no '='", quote.Clip(text[start:]))}
		}
		name := text[start:i]
		if name == "" {
			return nil, &Error{Line: line, Kind: ErrSyntax, Detail: "empty name before '='"}
		}
		i++ // '='
		vstart := i
		for i < len(text) && text[i] != '\r' && text[i] != '\n' {
			i++
		}
		value := text[vstart:i]

		var pn [4]byte
		if len(name) == 1 {
			tag, ok := Tag(name[0])
			if !ok {
				return nil, &Error{Line: line, Kind: ErrName, Detail: fmt.Sprintf("%s is not an SDP line type (want one of %s)", quote.Clip(name), letters)}
			}
			pn = nameOf(tag)
			if name == "v" && len(props) > 0 && (len(starts) == 0 || starts[len(starts)-1] < len(props)) {
				starts = append(starts, len(props))
			}
		} else {
			if o.Resolve == nil {
				return nil, &Error{Line: line, Kind: ErrName, Detail: fmt.Sprintf("%s is not an SDP line type", quote.Clip(name))}
			}
			var err error
			if pn, err = o.Resolve(name); err != nil {
				return nil, &Error{Line: line, Kind: ErrName, Detail: fmt.Sprintf("name %s", quote.Clip(name)), Err: err}
			}
		}

		var v []byte
		if o.EncodeValue != nil {
			var err error
			if v, err = o.EncodeValue(pn, value); err != nil {
				return nil, &Error{Line: line, Kind: ErrValue, Detail: fmt.Sprintf("value of %s", name), Err: err}
			}
		} else {
			buf = append(buf, value...)
			v = buf[len(buf)-len(value) : len(buf) : len(buf)]
		}
		vals = append(vals, v)
		props = append(props, Prop{Name: pn, Values: vals[len(vals)-1 : len(vals) : len(vals)]})
	}
	if len(props) == 0 {
		return nil, nil
	}
	groups := make([][]Prop, 0, len(starts)+1)
	prev := 0
	for _, s := range append(starts, len(props)) {
		groups = append(groups, props[prev:s:s])
		prev = s
	}
	return groups, nil
}

// AppendText writes PropertyGroups as SDP lines, each ended by o.EOL.
func AppendText(dst []byte, groups [][]Prop, o *Options) ([]byte, error) {
	if o == nil {
		o = &Options{}
	}
	eol := o.EOL
	if eol == "" {
		eol = "\r\n"
	}
	orig := len(dst)
	for g, group := range groups {
		if len(group) == 0 {
			return dst[:orig], &Error{Group: g + 1, Kind: ErrNoText, Detail: "is empty"}
		}
		for j, p := range group {
			fail := func(kind error, detail string, err error) ([]byte, error) {
				return dst[:orig], &Error{Group: g + 1, Index: j + 1, Kind: kind, Detail: detail, Err: err}
			}
			var name string
			if p.Name[0] == 0 && p.Name[1] == 0 {
				name, _ = LetterName(uint16(p.Name[2])<<8 | uint16(p.Name[3]))
			}
			isV := name == "v"
			if name == "" {
				if o.Name == nil {
					return fail(ErrName, fmt.Sprintf("name %X is not an SDP line type", p.Name), nil)
				}
				var err error
				if name, err = o.Name(p.Name); err != nil {
					return fail(ErrName, fmt.Sprintf("name %X", p.Name), err)
				}
				if !readsBack(name) {
					return fail(ErrName, fmt.Sprintf("name %X gives %q, which would not read back", p.Name, name), nil)
				}
			}
			if j == 0 && g > 0 && !isV {
				return fail(ErrNoText, "a group after the first must start with v=", nil)
			}
			if j > 0 && isV {
				return fail(ErrNoText, "v= inside a group would start a new group", nil)
			}
			if len(p.Values) != 1 {
				return fail(ErrNoText, fmt.Sprintf("%d values; an SDP line has one", len(p.Values)), nil)
			}
			value := p.Values[0]
			if o.DecodeValue != nil {
				s, err := o.DecodeValue(p.Name, value)
				if err != nil {
					return fail(ErrValue, "value of "+name, err)
				}
				value = []byte(s)
			}
			for _, c := range value {
				if c == '\r' || c == '\n' {
					return fail(ErrNoText, "value of "+name+" contains a line end", nil)
				}
			}
			dst = append(dst, name...)
			dst = append(dst, '=')
			dst = append(dst, value...)
			dst = append(dst, eol...)
		}
	}
	return dst, nil
}
