// The protobuf wire form of the API's mirror of the model, written from
// and read into the model directly: the bytes proto.Marshal(ToProto(m))
// gives and the model FromProto(proto.Unmarshal(b)) gives, without the
// mirror, which the native codec would only build to throw away. The
// per-type functions are generated (internal/asn1gen, emit_wire.go); these
// are their helpers.

package native

import (
	"errors"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/model"
)

// appendWire appends the protobuf encoding of m's API mirror to b: the
// bytes of proto.Marshal(ToProto(m)), written from the model directly. Like
// proto.Marshal it fails on a string that is not UTF-8 (proto3 strings
// must be); b is then returned as it was.
func appendWire(b []byte, m *model.MegacoMessage) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*codecerr.Error)
			if !ok {
				panic(r)
			}
			out, err = b, e
		}
	}()
	return wireMegacoMessage(b, m), nil
}

// wireString writes string field num, which must be UTF-8. The generated
// writers return no error (almost nothing can fail), so wireString panics
// with the error, naming the field, and appendWire recovers.
func wireString(b []byte, num protowire.Number, s, field string) []byte {
	if !utf8.ValidString(s) {
		e := codecerr.New(codecName, codecerr.Encode, codecerr.Schema, errUTF8.Error()).SetPath(field)
		e.Err = errUTF8
		panic(e)
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

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

// unwire decodes the protobuf encoding of an API message into the model:
// what FromProto gives for the message proto.Unmarshal reads (with a
// recursion limit of lim.MaxDepth, protobuf's 64 by default), without
// building the mirror. The model points into b, which must not change
// while it is in use. At most lim.MaxElements messages and list items are
// made (protobuf has no such bound; it keeps a small input from filling
// memory). lim has its defaults filled in (Limits.OrDefault).
func unwire(b []byte, lim limits.Limits) (*model.MegacoMessage, error) {
	m := new(model.MegacoMessage)
	bud := budget{elements: lim.MaxElements, maxDepth: lim.MaxDepth}
	if err := unwireMegacoMessage(b, m, 1, &bud, false); err != nil {
		return nil, decodeError(err)
	}
	if !hasMessageField(b, 2) {
		return nil, decodeError(errNoMess)
	}
	return m, nil
}

// errNoMess: the message has no mess field (MegacoMessage.mess), which
// every Megaco message has.
var errNoMess = errors.New("no message (mess is missing)")

// hasMessageField reports whether well-formed b has field num as a
// length-delimited (message) value.
func hasMessageField(b []byte, num protowire.Number) bool {
	for len(b) > 0 {
		n, typ, k := protowire.ConsumeTag(b)
		b = b[k:]
		if n == num && typ == protowire.BytesType {
			return true
		}
		b = b[protowire.ConsumeFieldValue(n, typ, b):]
	}
	return false
}

// budget is what a decode may still make, and how deep it may go.
type budget struct {
	elements int // messages and list items
	maxDepth int // message nesting, as proto.UnmarshalOptions' RecursionLimit (the top message is depth 1)
}

var (
	errWireDepth = errors.New("exceeded maximum recursion depth")
	errWireElems = errors.New("more elements than the limit")
)

// unwireEnter starts a message: one level deeper, one element spent.
func unwireEnter(depth int, bud *budget) error {
	if depth > bud.maxDepth {
		return errWireDepth
	}
	return unwireSpend(bud)
}

// unwireSpend takes one element from the budget.
func unwireSpend(bud *budget) error {
	if bud.elements--; bud.elements < 0 {
		return errWireElems
	}
	return nil
}

// decodeError is err, from the wire decoder, as the codec's error: a
// limit reached is TooLarge, anything else Malformed.
func decodeError(err error) *codecerr.Error {
	if e, ok := err.(*codecerr.Error); ok {
		return e
	}
	kind := codecerr.Malformed
	if err == errWireDepth || err == errWireElems {
		kind = codecerr.TooLarge
	}
	return &codecerr.Error{Codec: codecName, Op: codecerr.Decode, Kind: kind, Msg: err.Error(), Err: err}
}

// wireFail names the field a decode error happened in. Nested fields make
// the path, outermost first, with protobuf's names of the fields and the
// messages that hold them: "MegacoMessage.mess: Message.mId: ...".
func wireFail(field string, err error) error {
	e := decodeError(err)
	if p := e.Path(); p != "" {
		field += ": " + p
	}
	return e.SetPath(field)
}

var errFieldNumber = errors.New("invalid field number")

// unwireTag reads a field's tag, refusing field numbers protobuf does not
// allow (protowire reads up to 2^31-1, protobuf allows up to 2^29-1).
func unwireTag(b []byte) (protowire.Number, protowire.Type, int, error) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return 0, 0, 0, protowire.ParseError(n)
	}
	if num > protowire.MaxValidNumber {
		return 0, 0, 0, errFieldNumber
	}
	return num, typ, n, nil
}

// unwireVarint reads a varint value at b if typ is VarintType; n is 0
// for another wire type.
func unwireVarint(b []byte, typ protowire.Type) (v uint64, n int, err error) {
	if typ != protowire.VarintType {
		return 0, 0, nil
	}
	v, n = protowire.ConsumeVarint(b)
	if n < 0 {
		return 0, 0, protowire.ParseError(n)
	}
	return v, n, nil
}

// unwireBytes reads a length-delimited value at b if typ is BytesType; n
// is 0 for another wire type.
func unwireBytes(b []byte, typ protowire.Type) (v []byte, n int, err error) {
	if typ != protowire.BytesType {
		return nil, 0, nil
	}
	v, n = protowire.ConsumeBytes(b)
	if n < 0 {
		return nil, 0, protowire.ParseError(n)
	}
	return v, n, nil
}

var errUTF8 = errors.New("string field contains invalid UTF-8")

// unwireUTF8 checks a proto3 string, which protobuf requires to be UTF-8.
func unwireUTF8(v []byte) error {
	if !utf8.Valid(v) {
		return errUTF8
	}
	return nil
}

// unwireFields calls field for each field of message b; field reports
// how many bytes of the value it read (0: not its field or wire type, and
// the value is skipped).
func unwireFields(b []byte, depth int, bud *budget, field func(num protowire.Number, typ protowire.Type, b []byte) (int, error)) error {
	if err := unwireEnter(depth, bud); err != nil {
		return err
	}
	for len(b) > 0 {
		num, typ, n, err := unwireTag(b)
		if err != nil {
			return err
		}
		b = b[n:]
		if n, err := field(num, typ, b); err != nil {
			return err
		} else if n > 0 {
			b = b[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
	}
	return nil
}

func unwireBitString(b []byte, v *model.BitString, depth int, bud *budget) error {
	return unwireFields(b, depth, bud, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		x, n, err := unwireVarint(b, typ)
		switch {
		case err != nil || n == 0:
			return 0, err
		case num == 1:
			v.Bits = x
		case num == 2:
			v.Len = int(uint32(x))
		default:
			return 0, nil
		}
		return n, nil
	})
}

func unwireObjectIdentifier(b []byte, v *model.ObjectIdentifier, depth int, bud *budget) error {
	return unwireFields(b, depth, bud, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		if num != 1 {
			return 0, nil
		}
		return unwirePacked(b, typ, bud, func(x uint64) { *v = append(*v, x) })
	})
}

// unwirePacked reads one occurrence of a repeated numeric field at b, one
// value (VarintType) or packed values (BytesType), and gives each to add;
// 0 bytes read: another wire type.
func unwirePacked(b []byte, typ protowire.Type, bud *budget, add func(uint64)) (int, error) {
	if typ == protowire.VarintType {
		return unwireItem(b, bud, add)
	}
	p, n, err := unwireBytes(b, typ)
	if n == 0 || err != nil {
		return 0, err
	}
	for len(p) > 0 {
		k, err := unwireItem(p, bud, add)
		if err != nil {
			return 0, err
		}
		p = p[k:]
	}
	return n, nil
}

// unwireItem reads one value of a numeric list at b, an element of the
// budget, and gives it to add.
func unwireItem(b []byte, bud *budget, add func(uint64)) (int, error) {
	v, n := protowire.ConsumeVarint(b)
	if n < 0 {
		return 0, protowire.ParseError(n)
	}
	if err := unwireSpend(bud); err != nil {
		return 0, err
	}
	add(v)
	return n, nil
}

// unwireNull checks a Null message (no fields of its own).
func unwireNull(b []byte, depth int, bud *budget) error {
	return unwireFields(b, depth, bud, func(protowire.Number, protowire.Type, []byte) (int, error) { return 0, nil })
}
