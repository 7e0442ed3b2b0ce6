package x691

import (
	"math/bits"
	"slices"
)

// CharSet describes the effective permitted alphabet of a known-multiplier
// character string type (X.691 27.5) limited to single-octet characters,
// which covers IA5String, VisibleString, PrintableString and NumericString
// with or without a FROM ("...") constraint.
//
// With N characters in the alphabet, the unaligned width is ceil(log2 N)
// bits; the ALIGNED variant rounds it up to a power of two (1, 2, 4, 8)
// (27.5). If the largest character code fits in that width, characters
// are sent as their own codes; otherwise as their index in the sorted
// alphabet. So an unrestricted IA5String (128 characters, 7 bits)
// takes 8 bits per character and its octets are the characters themselves.
type CharSet struct {
	bits int
	enc  [256]int16 // character -> value sent, -1 if not permitted
	dec  []byte     // value -> character; nil when characters are sent as their codes
	max  int        // largest value that may be received
}

// NewCharSet builds the CharSet of the given permitted alphabet (the order
// and repetitions of alphabet do not matter). An empty alphabet permits no
// character, so only empty strings can be encoded.
func NewCharSet(alphabet string) *CharSet {
	chars := []byte(alphabet)
	slices.Sort(chars)
	chars = slices.Compact(chars)
	cs := &CharSet{}
	for i := range cs.enc {
		cs.enc[i] = -1
	}
	n := len(chars)
	if n == 0 {
		cs.bits = 1
		cs.max = -1
		return cs
	}
	b := bits.Len(uint(n - 1)) // unaligned bits per character
	cs.bits = 1
	if b > 1 {
		cs.bits = 1 << bits.Len(uint(b-1)) // next power of two
	}
	if int(chars[n-1]) <= 1<<cs.bits-1 {
		for _, c := range chars {
			cs.enc[c] = int16(c)
		}
		cs.max = int(chars[n-1])
		return cs
	}
	cs.dec = chars
	for i, c := range chars {
		cs.enc[c] = int16(i)
	}
	cs.max = n - 1
	return cs
}

// Bits returns the number of bits per character in the ALIGNED variant.
func (cs *CharSet) Bits() int { return cs.bits }

// varAligned reports whether variable-size strings of this alphabet with
// upper bound ub are octet-aligned: when ub*bits >= 16 or there is no ub.
// This is the rule OTP's asn1 applies (it cites X.691 27.5.7).
func (cs *CharSet) varAligned(ub int) bool {
	return ub == Unbounded || ub*cs.bits >= 16
}

// decode maps a received value to its character.
func (cs *CharSet) decode(v uint64) (byte, bool) {
	if v > uint64(cs.max) || cs.max < 0 {
		return 0, false
	}
	if cs.dec != nil {
		return cs.dec[v], true
	}
	return byte(v), cs.enc[v] >= 0
}

func charRange(lo, hi byte) string {
	b := make([]byte, 0, int(hi)-int(lo)+1)
	for c := int(lo); c <= int(hi); c++ {
		b = append(b, byte(c))
	}
	return string(b)
}

// Alphabets of the unrestricted character string types.
var (
	// IA5String: characters 0..127; 8 bits per character (aligned).
	IA5String = NewCharSet(charRange(0, 127))
	// VisibleString: characters 32..126; 8 bits per character (aligned).
	VisibleString = NewCharSet(charRange(32, 126))
	// PrintableString: 74 characters; 8 bits per character (aligned).
	PrintableString = NewCharSet(" '()+,-./0123456789:=?" + charRange('A', 'Z') + charRange('a', 'z'))
	// NumericString: space and digits; 4 bits per character, sent as
	// indexes 0..10.
	NumericString = NewCharSet(" 0123456789")
)
