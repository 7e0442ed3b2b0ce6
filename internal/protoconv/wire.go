package protoconv

import (
	"google.golang.org/protobuf/encoding/protowire"

	"megaco/internal/model"
)

// AppendWire appends the protobuf encoding of m's API mirror to b: the
// bytes of proto.Marshal(ToProto(m)), written from the model directly.
func AppendWire(b []byte, m *model.MegacoMessage) []byte { return wireMegacoMessage(b, m) }

// wireBegin starts a length-delimited field: its tag and one byte for the
// length, which wireEnd fills in.
func wireBegin(b []byte, num protowire.Number) ([]byte, int) {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return append(b, 0), len(b)
}

// wireEnd sets the length of the field wireBegin started at start,
// moving the content when the length needs more than one byte.
func wireEnd(b []byte, start int) []byte {
	n := len(b) - start - 1
	if n < 0x80 {
		b[start] = byte(n)
		return b
	}
	k := protowire.SizeVarint(uint64(n))
	for range k - 1 {
		b = append(b, 0)
	}
	copy(b[start+k:], b[start+1:start+1+n])
	protowire.AppendVarint(b[start:start], uint64(n))
	return b
}

func wireBitString(b []byte, num protowire.Number, v *model.BitString) []byte {
	b, start := wireBegin(b, num)
	if v.Bits != 0 {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, v.Bits)
	}
	if v.Len != 0 {
		b = protowire.AppendTag(b, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(uint32(v.Len)))
	}
	return wireEnd(b, start)
}

func wireObjectIdentifier(b []byte, num protowire.Number, v model.ObjectIdentifier) []byte {
	b, start := wireBegin(b, num)
	if len(v) > 0 {
		var arcs int
		b, arcs = wireBegin(b, 1)
		for _, a := range v {
			b = protowire.AppendVarint(b, a)
		}
		b = wireEnd(b, arcs)
	}
	return wireEnd(b, start)
}

func wireNull(b []byte, num protowire.Number) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return append(b, 0)
}

func wireBool(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}
