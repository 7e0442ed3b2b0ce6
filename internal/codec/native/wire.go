// The protobuf wire form of the API's mirror of the model, written from
// and read into the model directly: the bytes proto.Marshal(ToProto(m))
// gives and the model FromProto(proto.Unmarshal(b)) gives, without the
// mirror, which the native codec would only build to throw away. The
// per-type functions are generated (internal/asn1gen, emit_wire.go); these
// are their helpers.

package native

import (
	"encoding/binary"
	"errors"
	"unicode/utf8"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/slab"
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

// unwire decodes the protobuf encoding of an API message into m, which
// must be zero: what FromProto gives for the message proto.Unmarshal
// reads (with a recursion limit of lim.MaxDepth, protobuf's 64 by
// default), without building the mirror. The model points into b (its
// strings too), which must not change while it is in use, and into mem,
// where every value it holds by pointer or in a list comes from. At most
// lim.MaxElements messages and list items are made (protobuf has no such
// bound; it keeps a small input from filling memory). lim has its
// defaults filled in (Limits.OrDefault).
func unwire(b []byte, m *model.MegacoMessage, lim limits.Limits, mem *slab.Model) error {
	bud := budget{elements: lim.MaxElements, maxDepth: lim.MaxDepth, mem: mem}
	if err := unwireMegacoMessage(b, m, 1, &bud, false); err != nil {
		return decodeError(err)
	}
	if !hasMessageField(b, 2) {
		return decodeError(errNoMess)
	}
	return nil
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

// budget is what a decode may still make, how deep it may go, and the
// memory it makes values in.
type budget struct {
	elements int // messages and list items
	maxDepth int // message nesting, as proto.UnmarshalOptions' RecursionLimit (the top message is depth 1)
	mem      *slab.Model
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
// Almost every tag of the model is one byte: that case is read here
// without protowire's call. (It does not inline: the generated loops read
// it in line themselves, unwireLoopHead in internal/asn1gen, and call
// unwireTagSlow; unwireFields calls this.)
func unwireTag(b []byte) (protowire.Number, protowire.Type, int, error) {
	if len(b) > 0 && b[0]-1<<3 < 0x80-1<<3 { // 0x08..0x7f: field number 1..15
		c := b[0]
		return protowire.Number(c >> 3), protowire.Type(c & 7), 1, nil
	}
	return unwireTagSlow(b)
}

func unwireTagSlow(b []byte) (protowire.Number, protowire.Type, int, error) {
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
	switch {
	case len(b) > 0 && b[0] < 0x80: // one byte, as unwireTag
		return uint64(b[0]), 1, nil
	case len(b) > 1 && b[1] < 0x80: // two, not worth protowire's call
		return uint64(b[0]&0x7f) | uint64(b[1])<<7, 2, nil
	case len(b) > 2 && b[2] < 0x80: // three: a port, a mid-sized ID
		return uint64(b[0]&0x7f) | uint64(b[1]&0x7f)<<7 | uint64(b[2])<<14, 3, nil
	}
	return unwireVarintSlow(b)
}

func unwireVarintSlow(b []byte) (v uint64, n int, err error) {
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
	if len(b) > 0 && int(b[0]) < min(len(b), 0x80) { // a one-byte length, as unwireTag
		l := int(b[0]) + 1
		return b[1:l], l, nil
	}
	if len(b) > 1 && b[0] >= 0x80 && b[1] < 0x80 { // two bytes, as unwireVarint
		if end := 2 + (int(b[0]&0x7f) | int(b[1])<<7); end <= len(b) {
			return b[2:end], end, nil
		}
	}
	return unwireBytesSlow(b)
}

func unwireBytesSlow(b []byte) (v []byte, n int, err error) {
	v, n = protowire.ConsumeBytes(b)
	if n < 0 {
		return nil, 0, protowire.ParseError(n)
	}
	return v, n, nil
}

// unwireString is v, a value in the decode's private copy of the input,
// as a string sharing its memory: nothing writes to that copy while the
// message is in use, and a copy per string was most of a decode's
// allocations.
func unwireString(v []byte) string {
	return unsafe.String(unsafe.SliceData(v), len(v))
}

// unwireRoom makes room in list l for one more item, the value at b of
// field num (b runs from just after its tag to the end of the message).
// An empty list gets room for one: most lists of a message hold one item,
// and counting would walk the rest of the message for nothing. A full
// list grows once, from s, to hold every later occurrence of num too,
// which protobuf may spread anywhere in the message: one count of the
// tags instead of a heap slice doubling item by item. The room is bounded
// by the element budget (a decode fails beyond it).
func unwireRoom[T any](s *slab.Slab[T], l *[]T, b []byte, num protowire.Number, bud *budget) {
	if len(*l) < cap(*l) {
		return
	}
	if len(*l) == 0 {
		*l = s.Raw(1)[:0]
		return
	}
	n := unwireCount(b, num, bud.elements+1)
	grown := s.Raw(len(*l) + n)[:len(*l)]
	copy(grown, *l)
	*l = grown
}

// unwireRoomPacked makes room in numeric list l for the values at b, of
// wire type typ: one varint, or packed ones, counted by their last bytes
// (bounded by the element budget). The list at least doubles when it
// grows, so that a list sent as single varints grows a few times only.
func unwireRoomPacked[T any](s *slab.Slab[T], l *[]T, b []byte, typ protowire.Type, bud *budget) {
	need := 1
	if typ == protowire.BytesType {
		p, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return
		}
		need = 0
		for _, c := range p {
			if c < 0x80 {
				need++
			}
		}
		need = min(need, bud.elements+1)
	}
	if cap(*l)-len(*l) >= need {
		return
	}
	grown := s.Raw(max(len(*l)+need, 2*cap(*l)))[:len(*l)]
	copy(grown, *l)
	*l = grown
}

// unwireCount counts the length-delimited values of field num in b, which
// starts at one of them; at most max. It stops at anything malformed,
// which the decode then reports. One-octet tags, lengths and varints,
// nearly all of them, are read inline: the count was a tenth of a decode.
func unwireCount(b []byte, num protowire.Number, max int) int {
	n, f, typ := 1, num, protowire.BytesType
	for n < max {
		var k int // the value's size
		switch {
		case len(b) > 0 && b[0] < 0x80 && typ == protowire.BytesType:
			k = int(b[0]) + 1
		case len(b) > 0 && b[0] < 0x80 && typ == protowire.VarintType:
			k = 1
		case len(b) > 1 && b[1] < 0x80 && typ == protowire.BytesType: // b[0] >= 0x80
			k = 2 + (int(b[0]&0x7f) | int(b[1])<<7)
		default:
			k = protowire.ConsumeFieldValue(f, typ, b)
		}
		if k < 0 || k >= len(b) {
			break
		}
		b = b[k:]
		if c := b[0]; c >= 0x08 && c < 0x80 {
			f, typ, b = protowire.Number(c>>3), protowire.Type(c&7), b[1:]
		} else {
			var t int
			if f, typ, t = protowire.ConsumeTag(b); t < 0 {
				break
			}
			b = b[t:]
		}
		if f == num && typ == protowire.BytesType {
			n++
		}
	}
	return n
}

var errUTF8 = errors.New("string field contains invalid UTF-8")

// unwireUTF8 checks a proto3 string, which protobuf requires to be UTF-8.
// The model's strings are nearly all short and ASCII (a TimeNotation's
// date and time are 8 octets): checked a word at a time here, they cost a
// fraction of utf8.Valid's call, which then sees only the rest.
func unwireUTF8(v []byte) error {
	for len(v) >= 8 && binary.LittleEndian.Uint64(v)&0x8080808080808080 == 0 {
		v = v[8:]
	}
	if !asciiOrUTF8(v) {
		return errUTF8
	}
	return nil
}

// asciiOrUTF8 reports whether short v (under 8 octets, or where a word
// was not ASCII) is valid UTF-8, without a call when it is ASCII.
func asciiOrUTF8(v []byte) bool {
	for _, c := range v {
		if c >= 0x80 {
			return utf8.Valid(v)
		}
	}
	return true
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
