// Package termid maps Megaco/H.248 termination IDs between the text
// encoding (Annex B: "ROOT", "$", "*" or a "/"-separated name such as
// "11111111/00000000/00000000") and the binary encoding (Annex A:
// TerminationID ::= SEQUENCE { wildcard SEQUENCE OF WildcardField, id OCTET
// STRING(SIZE(1..8)) }).
//
// It exists because the text carries no bit layout: how many hierarchy levels
// a name has and how many bits each level takes is provisioned. A Layout is
// that provisioning. The mapping follows Erlang/OTP megaco 4.4.2
// (megaco_binary_term_id), which produced the golden corpus, except for one
// OTP decoding bug (a level-only wildcard at the first bit of a level is put
// in the level before it), which is not reproduced: decoding here follows
// RFC 3525 Annex A.1.
//
// Text form accepted per level, for a level of width w bits:
//   - exactly w characters '0'/'1', or
//   - 0..w-1 characters '0'/'1' followed by one '*' (ALL) or '$' (CHOOSE).
//
// The levels after a wildcarded level may be left out; their bits are sent
// as zeros and the wildcard becomes "recursive" (this level and all below).
// Textual names such as "line/1" have no binary form (OTP has no lookup or
// hashing fallback either); they are reported as errors.
//
// A wildcard field octet is: bit 7 = 1 for ALL, 0 for CHOOSE; bit 6 = 1 for
// recursive; bits 5..0 = bit position in id where the wildcard starts,
// 0 being the least significant bit of the last id octet.
//
// The wildcard octets are handled as one flat []byte (one octet per
// WildcardField); a caller whose model stores SEQUENCE OF OCTET STRING(SIZE(1))
// converts element by element.
package termid

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"megaco/internal/quote"
)

// Root is the text this package produces for the ROOT termination. OTP's text
// decoder lowercases the token, and its encoder writes it back as "root"
// (golden msg05), so decoding gives the lowercase form. Encoding accepts any
// case.
const Root = "root"

// rootID is the binary id of ROOT (RFC 3525 A.1), sent with no wildcards.
var rootID = [8]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

// Wildcard field bits (RFC 3525 A.1).
const (
	wildAll       = 0x80 // ALL ('*'); CHOOSE ('$') when clear
	wildRecursive = 0x40 // this level and all lower levels
	wildPosMask   = 0x3f // bit position in id
)

// Error kinds. Every error returned by this package is an *Error whose Kind
// is one of these, so callers can test with errors.Is.
var (
	ErrLayout   = errors.New("invalid level layout")
	ErrSyntax   = errors.New("invalid termination ID text")
	ErrWidth    = errors.New("level width does not match layout")
	ErrLevels   = errors.New("level count does not match layout")
	ErrIDLength = errors.New("id length does not match layout")
	ErrWildcard = errors.New("invalid wildcard field")
	ErrReserved = errors.New("termination ID reserved for ROOT")
)

// Error describes why a termination ID could not be mapped.
type Error struct {
	// Input is the termination ID as given: a quoted text, or
	// "{wildcard [..], id ..}" in hex for binary input.
	Input string
	// Level is the 1-based level the problem is in, 0 if it is not tied to
	// one level.
	Level int
	// Kind is one of the Err* values of this package.
	Kind error
	// Detail says what is wrong, in words.
	Detail string
}

func (e *Error) Error() string {
	if e.Level > 0 {
		return "termination ID " + e.Input + ": level " + strconv.Itoa(e.Level) + " " + e.Detail
	}
	return "termination ID " + e.Input + ": " + e.Detail
}

// Unwrap returns the error kind, for errors.Is.
func (e *Error) Unwrap() error { return e.Kind }

// Layout gives the bit width of each level of a termination ID, highest
// level first. OTP's default is [8,8,8]. A valid layout has at least one
// level, widths of at least 1 bit, and a total of 8..64 bits that is a
// multiple of 8 (the id is sum/8 octets; OTP does not pad it to 8 octets).
type Layout []int

// Default returns OTP's default layout [8,8,8] (a 3-octet id). It returns a
// new slice each time so that callers cannot change the default for others.
func Default() Layout { return Layout{8, 8, 8} }

// ParseLayout parses a comma-separated list of level widths, e.g. "8,8,8"
// or "3, 8, 5, 8".
func ParseLayout(s string) (Layout, error) {
	parts := strings.Split(s, ",")
	l := make(Layout, 0, len(parts))
	for _, p := range parts {
		w, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, &Error{Input: quote.Clip(s), Kind: ErrLayout, Detail: "layout: " + quote.Clip(strings.TrimSpace(p)) + " is not a level width"}
		}
		l = append(l, w)
	}
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return l, nil
}

// String formats the layout as ParseLayout reads it.
func (l Layout) String() string {
	var b strings.Builder
	for i, w := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(w))
	}
	return b.String()
}

// Validate reports whether l is usable.
func (l Layout) Validate() error {
	if _, err := l.bits(); err != nil {
		return err
	}
	return nil
}

// IDLen is the number of id octets of a non-ROOT termination ID (0 if the
// layout is invalid).
func (l Layout) IDLen() int {
	n, err := l.bits()
	if err != nil {
		return 0
	}
	return n / 8
}

// bits validates l and returns its total width. It does not allocate on
// success, because it runs on every mapping call.
func (l Layout) bits() (int, error) {
	if len(l) == 0 {
		return 0, l.layoutErr("has no levels")
	}
	total := 0
	for i, w := range l {
		if w < 1 || w > 64 {
			return 0, l.layoutErr(fmt.Sprintf("level %d has width %d, want 1..64", i+1, w))
		}
		total += w
		if total > 64 {
			return 0, l.layoutErr("has more than 64 bits")
		}
	}
	if total%8 != 0 {
		return 0, l.layoutErr(fmt.Sprintf("has %d bits, not a whole number of octets", total))
	}
	return total, nil
}

func (l Layout) layoutErr(detail string) error {
	return &Error{Input: "layout", Kind: ErrLayout, Detail: "[" + l.String() + "] " + detail}
}

// IsRoot reports whether text names the ROOT termination (any letter case).
func IsRoot(text string) bool { return strings.EqualFold(text, "root") }

// Encode maps a text termination ID to its binary form. See AppendBinary.
func (l Layout) Encode(text string) (wildcards, id []byte, err error) {
	return l.AppendBinary(nil, nil, text)
}

// AppendBinary maps a text termination ID to its binary form, appending the
// wildcard octets (one per wildcarded level, highest level first) to wild and
// the id octets to id. It allocates nothing when the slices have room. On
// error, wild and id are returned unchanged.
//
// ROOT (any case) gives no wildcard and 8 octets of 0xFF, whatever the
// layout. With a 64-bit layout, a name of all 1 bits and no wildcard is
// rejected, because that id means ROOT (RFC 3525 A.1).
func (l Layout) AppendBinary(wild, id []byte, text string) ([]byte, []byte, error) {
	total, err := l.bits()
	if err != nil {
		return wild, id, err
	}
	if IsRoot(text) {
		return wild, append(id, rootID[:]...), nil
	}
	if text == "" {
		return wild, id, encErr(text, 0, ErrSyntax, "is empty")
	}
	// Count the written levels first, so that the wildcard of the last one
	// can be told recursive from level-only and level errors come first.
	nparts := strings.Count(text, "/") + 1
	if nparts > len(l) {
		return wild, id, encErr(text, 0, ErrLevels, fmt.Sprintf("has %d levels, layout %s has %d", nparts, l, len(l)))
	}

	w0 := len(wild)
	var acc uint64 // id bits; bit (total-1) is the first bit of the first level
	below := total // bits of the levels after the current one
	rest := text
	for level := 0; level < nparts; level++ {
		part := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			part, rest = rest[:i], rest[i+1:]
		}
		width := l[level]
		below -= width
		last := level == nparts-1

		var v uint64 // the digits, MSB first
		n := 0       // number of digits
		var wc byte  // '*' or '$', 0 if none
		if x, ok := octetDigitsOf(part); ok {
			v, n, part = x, 8, "" // eight digits, the usual level: read at once
		}
		for j := 0; j < len(part); j++ {
			switch c := part[j]; c {
			case '0', '1':
				v = v<<1 | uint64(c-'0')
				n++
			case '*', '$':
				if j != len(part)-1 {
					return wild[:w0], id, encErr(text, level+1, ErrSyntax, fmt.Sprintf("has wildcard %q before other characters; it must be the last character of the level", c))
				}
				wc = c
			default:
				return wild[:w0], id, encErr(text, level+1, ErrSyntax, fmt.Sprintf("has bad character %q; only 0, 1, * or $ are allowed", c))
			}
		}
		if wc == 0 {
			if n != width {
				return wild[:w0], id, encErr(text, level+1, ErrWidth, fmt.Sprintf("has %d bits, layout wants %d", n, width))
			}
			if last && level != len(l)-1 {
				return wild[:w0], id, encErr(text, 0, ErrLevels, fmt.Sprintf("has %d levels and no wildcard in the last one, layout %s has %d", nparts, l, len(l)))
			}
		} else {
			if n >= width {
				return wild[:w0], id, encErr(text, level+1, ErrWidth, fmt.Sprintf("has %d bits before the wildcard, layout allows at most %d", n, width-1))
			}
			b := byte(below + width - 1 - n) // bit index of the wildcard character
			if wc == '*' {
				b |= wildAll
			}
			if last && below > 0 {
				// The text stops here while configured levels remain below.
				b |= wildRecursive
			}
			wild = append(wild, b)
			v <<= uint(width - n) // the wildcarded bits are sent as zeros
		}
		acc |= v << uint(below)
	}
	if total == 64 && len(wild) == w0 && acc == ^uint64(0) {
		return wild, id, encErr(text, 0, ErrReserved, "has all 64 bits set, which is the binary form of ROOT")
	}
	for shift := total - 8; shift >= 0; shift -= 8 {
		id = append(id, byte(acc>>uint(shift)))
	}
	return wild, id, nil
}

// octetDigitsOf reads a level of exactly eight binary digits as one
// word: each byte must be '0' (0x30) or '1' (0x31), and the multiply
// gathers bit 0 of byte i into bit 7-i of the top byte, no two partial
// products meeting (the inverse of octetDigits).
func octetDigitsOf(s string) (uint64, bool) {
	if len(s) != 8 {
		return 0, false
	}
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	if x&0xFEFEFEFEFEFEFEFE != 0x3030303030303030 {
		return 0, false
	}
	return (x & 0x0101010101010101) * 0x8040201008040201 >> 56, true
}

func encErr(text string, level int, kind error, detail string) error {
	return &Error{Input: quote.Clip(text), Level: level, Kind: kind, Detail: detail}
}

func decErr(wild, id []byte, level int, kind error, detail string) error {
	var b strings.Builder
	b.WriteString("{wildcard [")
	for i, w := range wild {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%02X", w)
	}
	fmt.Fprintf(&b, "], id %X}", id)
	return &Error{Input: b.String(), Level: level, Kind: kind, Detail: detail}
}

// Decode maps a binary termination ID to text. See AppendText.
func (l Layout) Decode(wild, id []byte) (string, error) {
	var buf [64 + 7]byte // 64 digits and up to 7 '/' fit without growing
	b, err := l.AppendText(buf[:0], wild, id)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendText maps a binary termination ID (wildcard octets, id octets) to
// its text form and appends it to dst. No wildcard and 8 octets of 0xFF give
// Root. Otherwise id must have Layout.IDLen octets.
//
// Each wildcard octet is put in the level that contains its bit position, as
// RFC 3525 A.1 says (OTP misplaces a level-only wildcard that starts at the
// first bit of a level; this does not). The text of a level with a wildcard
// is its id bits before the wildcard followed by '*' or '$'. A recursive
// wildcard ends the text at its level. Bits that a wildcard covers are not
// looked at. The order of the wildcard octets does not matter.
//
// Errors: wildcard positions outside the id, two wildcards in one level, a
// second recursive wildcard, or a wildcard below a recursive one.
func (l Layout) AppendText(dst []byte, wild, id []byte) ([]byte, error) {
	total, err := l.bits()
	if err != nil {
		return dst, err
	}
	if len(wild) == 0 && len(id) == 8 && [8]byte(id) == rootID {
		return append(dst, Root...), nil
	}
	if len(id) != total/8 {
		return dst, decErr(wild, id, 0, ErrIDLength, fmt.Sprintf("id has %d octets, layout %s wants %d", len(id), l, total/8))
	}
	var acc uint64
	for _, b := range id {
		acc = acc<<8 | uint64(b)
	}
	if len(wild) == 0 {
		return l.appendDigits(dst, acc, total), nil
	}
	return l.appendWild(dst, wild, id, acc, total)
}

// appendDigits appends the text of an id without wildcards: every level's
// bits in full, a whole octet at a time where a level is one (OTP's
// default layout is three), so that a gateway's termination IDs, mapped
// in every message the proxy transcodes, cost a few stores each.
func (l Layout) appendDigits(dst []byte, acc uint64, total int) []byte {
	n := len(dst)
	dst = slices.Grow(dst, total+len(l)-1)[:n+total+len(l)-1]
	out, i, below := dst[n:], 0, total
	for lv, width := range l {
		if lv > 0 {
			out[i] = '/'
			i++
		}
		below -= width
		if width == 8 {
			binary.BigEndian.PutUint64(out[i:], octetDigits[byte(acc>>below)])
			i += 8
			continue
		}
		for j := width - 1; j >= 0; j-- {
			out[i] = '0' + byte(acc>>(below+j)&1)
			i++
		}
	}
	return dst
}

// octetDigits[b] is b's eight binary digits as ASCII, the first digit in
// the most significant byte.
var octetDigits = func() (t [256]uint64) {
	for b := range t {
		for j := 7; j >= 0; j-- {
			t[b] = t[b]<<8 | uint64('0'+b>>j&1)
		}
	}
	return t
}()

// appendWild is AppendText for an id with wildcard octets (appendDigits
// gives the same text as it for none; TestAppendDigits checks that).
func (l Layout) appendWild(dst []byte, wild, id []byte, acc uint64, total int) ([]byte, error) {
	// Per level: the wildcard character and the number of digits before it.
	// Layouts have at most 64 levels.
	var wcChar [64]byte
	var wcDigits [64]int
	recursive := -1 // level of the recursive wildcard, if any
	for _, w := range wild {
		pos := int(w & wildPosMask)
		if pos >= total {
			return dst, decErr(wild, id, 0, ErrWildcard, fmt.Sprintf("wildcard %02X starts at bit %d, outside the %d-bit id", w, pos, total))
		}
		level, below := 0, total
		for {
			below -= l[level]
			if pos >= below {
				break
			}
			level++
		}
		if wcChar[level] != 0 {
			return dst, decErr(wild, id, level+1, ErrWildcard, "has more than one wildcard")
		}
		wcChar[level] = '$'
		if w&wildAll != 0 {
			wcChar[level] = '*'
		}
		wcDigits[level] = l[level] - 1 - (pos - below)
		if w&wildRecursive != 0 {
			if recursive >= 0 {
				return dst, decErr(wild, id, level+1, ErrWildcard, fmt.Sprintf("has a recursive wildcard, but level %d has one too", recursive+1))
			}
			recursive = level
		}
	}
	lastLevel := len(l) - 1
	if recursive >= 0 {
		for lv := recursive + 1; lv < len(l); lv++ {
			if wcChar[lv] != 0 {
				return dst, decErr(wild, id, lv+1, ErrWildcard, fmt.Sprintf("has a wildcard, but the recursive wildcard of level %d already covers it", recursive+1))
			}
		}
		lastLevel = recursive
	}

	below := total
	for lv := 0; lv <= lastLevel; lv++ {
		if lv > 0 {
			dst = append(dst, '/')
		}
		width := l[lv]
		below -= width
		n := width
		if wcChar[lv] != 0 {
			n = wcDigits[lv]
		}
		// Digits are the level's bits from its most significant end.
		for i := 0; i < n; i++ {
			dst = append(dst, '0'+byte(acc>>uint(below+width-1-i)&1))
		}
		if wcChar[lv] != 0 {
			dst = append(dst, wcChar[lv])
		}
	}
	return dst, nil
}
