package per

import (
	"fmt"
	"strconv"
	"unsafe"

	"megaco/internal/codec/slab"
	"megaco/internal/model"
)

// This file is the Megaco side of the package: the entry points and the
// small helpers the generated per_gen.go calls. The generated code is
// OTP-compatible aligned PER for MEDIA-GATEWAY-CONTROL v1, v2 and v3.

// Limits bound the work and memory a decode may take.
type Limits struct {
	MaxSize     int // total input octets
	MaxDepth    int // nesting of constructed values
	MaxElements int // SEQUENCE OF elements in the whole message
}

// DefaultLimits match the BER codec's.
var DefaultLimits = Limits{MaxSize: 1 << 20, MaxDepth: 64, MaxElements: 1 << 17}

// Options tune a decode or an encode.
type Options struct {
	// Version forces the schema (1, 2 or 3); zero reads it from the message
	// (decode) or from its Mess.Version field (encode).
	Version int
	// Limits bound a decode; the zero value means DefaultLimits.
	Limits Limits
}

// decoder is the runtime Decoder plus what a whole-message decode needs:
// memory for the model and the limits that span nested values.
type decoder struct {
	Decoder
	lim   Limits
	depth int
	elems int
	s     slab.Model
}

func (d *decoder) errorf(format string, args ...any) error {
	return &Error{BitOffset: d.BitOffset(), Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) enter() error {
	d.depth++
	if d.depth > d.lim.MaxDepth {
		return d.errorf("nesting deeper than %d", d.lim.MaxDepth)
	}
	return nil
}

func (d *decoder) leave() { d.depth-- }

// count charges n list elements against the element limit before they
// are allocated.
func (d *decoder) count(n int) error {
	d.elems += n
	if d.elems > d.lim.MaxElements {
		return d.errorf("more than %d elements", d.lim.MaxElements)
	}
	return nil
}

// openType switches d to the contents of the open type that follows and
// returns the outer decoder, which the caller restores afterwards.
func (d *decoder) openType() (Decoder, error) {
	sub, err := d.OpenType()
	if err != nil {
		return d.Decoder, err
	}
	outer := d.Decoder
	d.Decoder = sub
	return outer, nil
}

// str reads a character string; the result shares memory with the
// decoder's private copy of the input, which nobody changes.
func (d *decoder) str(lb, ub int, ext bool, cs *CharSet) (string, error) {
	b, err := d.GetString(lb, ub, ext, cs)
	if err != nil || len(b) == 0 {
		return "", err
	}
	return unsafe.String(&b[0], len(b)), nil
}

// bitString reads a BIT STRING of at most 64 bits, keeping its length.
// For a type with named bits X.691 has the sender drop trailing zero bits;
// a lenient reader accepts them but, like the encoder, counts only up to
// the last set bit (at least lb), so that decode→encode→decode is stable.
func (d *decoder) bitString(lb, ub int, ext, named bool) (model.BitString, error) {
	var buf [8]byte
	var bs model.BitString
	start := d.BitOffset()
	b, n, err := d.AppendBitString(buf[:0], lb, ub, ext)
	if err != nil {
		return bs, err
	}
	if n > 64 {
		return bs, &Error{BitOffset: start, Msg: fmt.Sprintf("BIT STRING of %d bits, at most 64 supported", n)}
	}
	for i := 0; i < n; i++ {
		if b[i/8]&(0x80>>(i%8)) != 0 {
			bs.Bits |= 1 << i
		}
	}
	bs.Len = n
	if named {
		bs.Len = max(bs.MinLen(), lb)
	}
	return bs, nil
}

func putBitString(e *Encoder, v model.BitString, lb, ub int, ext bool) error {
	var buf [8]byte
	n := v.EncLen()
	for i := 0; i < n; i++ {
		if v.Has(i) {
			buf[i/8] |= 0x80 >> (i % 8)
		}
	}
	return e.PutBitString(buf[:(n+7)/8], n, lb, ub, ext)
}

func encErrorf(format string, args ...any) error {
	return &Error{BitOffset: -1, Msg: fmt.Sprintf(format, args...)}
}

func itoa(i int) string { return strconv.Itoa(i) }

// PeekVersion reads the protocol version of an encoded MegacoMessage
// without knowing its schema. In every version the encoding starts the
// same way: the presence bit of the optional authHeader, the
// AuthenticationHeader if present (identical in all three modules), the
// extension bit of Message and then Message.version, INTEGER(0..99) in 7
// bits. So the version is found at a fixed place once the optional header
// is skipped.
func PeekVersion(data []byte) (int, error) {
	d := NewDecoder(data)
	return peekVersion(&d)
}

func peekVersion(d *Decoder) (int, error) {
	auth, err := d.GetBool()
	if err != nil {
		return 0, err
	}
	if auth {
		if _, err := d.GetOctetString(4, 4, false); err != nil {
			return 0, WithPath(WithPath(err, "secParmIndex"), "authHeader")
		}
		if _, err := d.GetOctetString(4, 4, false); err != nil {
			return 0, WithPath(WithPath(err, "seqNum"), "authHeader")
		}
		if _, err := d.GetOctetString(12, 32, false); err != nil {
			return 0, WithPath(WithPath(err, "ad"), "authHeader")
		}
	}
	if _, err := d.GetBool(); err != nil { // Message's extension bit
		return 0, WithPath(err, "mess")
	}
	v, err := d.GetConstrained(0, 99)
	if err != nil {
		return 0, WithPath(WithPath(err, "version"), "mess")
	}
	return int(v), nil
}

// Decode decodes one MegacoMessage. The message keeps references into a
// private copy of data, never into data itself.
func Decode(data []byte, opts Options) (*model.MegacoMessage, error) {
	var d MessageDecoder
	d.Options = opts
	return d.Decode(data)
}

// A MessageDecoder decodes messages one after the other, reusing its
// memory: the message Decode returns is valid until the next call. It is
// not safe for concurrent use.
type MessageDecoder struct {
	Options Options
	d       decoder
	msg     model.MegacoMessage
	buf     []byte
}

// Decode decodes data; see the type's documentation for the lifetime of
// the result.
func (md *MessageDecoder) Decode(data []byte) (*model.MegacoMessage, error) {
	lim := md.Options.Limits
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	if len(data) > lim.MaxSize {
		return nil, &Error{Msg: fmt.Sprintf("message of %d octets exceeds the limit of %d", len(data), lim.MaxSize)}
	}
	md.buf = append(md.buf[:0], data...)
	d := &md.d
	d.Decoder = NewDecoder(md.buf)
	d.SetMaxLength(len(md.buf) * 8)
	d.lim, d.depth, d.elems = lim, 0, 0
	d.s.Reset()
	v := md.Options.Version
	if v == 0 {
		probe := d.Decoder
		var err error
		if v, err = peekVersion(&probe); err != nil {
			return nil, err
		}
		if v < 1 || v > 3 {
			return nil, &Error{BitOffset: 2, Path: "mess.version", Msg: fmt.Sprintf("unsupported protocol version %d (1..3)", v)}
		}
	}
	m := &md.msg
	*m = model.MegacoMessage{}
	if err := decodeMessage(d, v, m); err != nil {
		return nil, err
	}
	if err := d.End(); err != nil {
		return nil, err
	}
	return m, nil
}

// Append appends the complete encoding of m to b.
func Append(b []byte, m *model.MegacoMessage, opts Options) ([]byte, error) {
	v := opts.Version
	if v == 0 {
		v = int(m.Mess.Version)
	}
	if v < 1 || v > 3 {
		return b, WithPath(WithPath(encErrorf("unsupported protocol version %d (1..3)", v), "version"), "mess")
	}
	start := len(b)
	e := NewEncoder(b)
	if err := appendMessage(e, v, m); err != nil {
		return b[:start], err
	}
	return e.Finish(), nil
}

// Codec is the PER codec behind the common codec interface.
type Codec struct{ Options Options }

// Decode implements the codec interface.
func (c Codec) Decode(data []byte) (*model.MegacoMessage, error) { return Decode(data, c.Options) }

// Append implements the codec interface.
func (c Codec) Append(b []byte, m *model.MegacoMessage) ([]byte, error) {
	return Append(b, m, c.Options)
}

var decoders slab.Pool[MessageDecoder]

// DecodeReused decodes into a pooled MessageDecoder's memory: the message
// is valid until release is called.
func (c Codec) DecodeReused(data []byte) (*model.MegacoMessage, func(), error) {
	d, release := decoders.Get()
	d.Options = c.Options
	m, err := d.Decode(data)
	if err != nil {
		release()
		return nil, nop, err
	}
	return m, release, nil
}

func nop() {}
