// Package model is the H.248.1 (Megaco) message model shared by every
// codec. The types in model_gen.go are generated from the ASN.1 modules
// of protocol versions 1, 2 and 3 (api/asn1) and form their union: a
// field or alternative that only some versions have is documented with
// those versions, and each version's encoder refuses a message that uses
// something its schema lacks.
//
// Conventions: an OPTIONAL structured field is a pointer (nil = absent),
// an OPTIONAL list or OCTET STRING is nil when absent (an empty but
// present one is a non-nil empty slice), an OPTIONAL scalar is an Opt,
// and an OPTIONAL NULL is a bool. A CHOICE is a struct whose Kind says
// which alternative field is meaningful.
package model

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
)

//go:generate go run ../../cmd/asn1gen

// Opt is an OPTIONAL scalar: Present says whether it is in the message.
type Opt[T any] struct {
	Value   T
	Present bool
}

// Some returns a present Opt.
func Some[T any](v T) Opt[T] { return Opt[T]{Value: v, Present: true} }

// IsZero lets encoding/json's omitzero leave absent values out.
func (o Opt[T]) IsZero() bool { return !o.Present }

// MarshalJSON writes the value, or null when absent.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if !o.Present {
		return []byte("null"), nil
	}
	return json.Marshal(o.Value)
}

// UnmarshalJSON reads a value; null leaves the Opt absent.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*o = Opt[T]{}
		return nil
	}
	o.Present = true
	return json.Unmarshal(b, &o.Value)
}

// BitString is a BIT STRING of at most 64 bits, as the H.248 modules use
// them (named bits). Bit 0 is the first bit on the wire; Len is the number
// of bits the encoding carries, kept so that decode→encode is exact. A
// zero Len encodes the shortest form that holds every set bit.
type BitString struct {
	Bits uint64 // bit n of the BIT STRING is 1<<n
	Len  int
}

// Has reports whether bit n is set.
func (b BitString) Has(n int) bool { return n < 64 && b.Bits&(1<<n) != 0 }

// Set sets bit n (n < 64).
func (b *BitString) Set(n int) { b.Bits |= 1 << n }

// MinLen is the number of bits up to and including the last set one.
func (b BitString) MinLen() int {
	n := 0
	for i := 0; i < 64; i++ {
		if b.Bits&(1<<i) != 0 {
			n = i + 1
		}
	}
	return n
}

// EncLen is the number of bits an encoder writes.
func (b BitString) EncLen() int {
	if b.Len == 0 {
		return b.MinLen()
	}
	return b.Len
}

// String renders the bits in wire order, e.g. "0010".
func (b BitString) String() string {
	n := b.EncLen()
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if b.Has(i) {
			sb.WriteByte('1')
		} else {
			sb.WriteByte('0')
		}
	}
	return sb.String()
}

// MarshalJSON writes the bits as a string of 0 and 1 in wire order.
func (b BitString) MarshalJSON() ([]byte, error) { return []byte(strconv.Quote(b.String())), nil }

// Octets is an OCTET STRING. In JSON it is a plain string when every octet
// is printable ASCII (names and values of the text form: "al/on") and hex
// with a 0x prefix otherwise (binary IDs: "0x00090005"), so both forms of
// a message read naturally.
type Octets []byte

func printable(o []byte) bool {
	for _, c := range o {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return len(o) > 0
}

// MarshalJSON writes the octets as text or as 0x-prefixed hex.
func (o Octets) MarshalJSON() ([]byte, error) {
	if printable(o) && !(len(o) > 1 && o[0] == '0' && o[1] == 'x') {
		return json.Marshal(string(o))
	}
	out := make([]byte, 0, 2*len(o)+4)
	out = append(out, '"', '0', 'x')
	out = hex.AppendEncode(out, o)
	return append(out, '"'), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (o *Octets) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if len(s) >= 2 && s[0] == '0' && s[1] == 'x' {
		v, err := hex.DecodeString(s[2:])
		if err != nil {
			return err
		}
		*o = v
		return nil
	}
	*o = Octets(s)
	return nil
}

// ObjectIdentifier is an OBJECT IDENTIFIER as its arcs.
type ObjectIdentifier []uint64

// String renders dotted notation.
func (o ObjectIdentifier) String() string {
	var sb strings.Builder
	for i, a := range o {
		if i > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(strconv.FormatUint(a, 10))
	}
	return sb.String()
}
