package per

import (
	"fmt"
	"unsafe"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/per/x691"
	"megaco/internal/codec/scan"
	"megaco/internal/codec/slab"
	"megaco/internal/model"
)

// Options tune a decode or an encode.
type Options struct {
	// Version forces the schema (1, 2 or 3); zero reads it from the message
	// (decode) or from its Mess.Version field (encode).
	Version int
	// Limits bound a decode (MaxElements counts SEQUENCE OF elements);
	// zero fields mean limits.Default.
	Limits limits.Limits
}

// decoder is the walker plus what a whole-message decode needs: memory
// for the model.
type decoder struct {
	walker
	s     slab.Model
	bytes slab.Slab[byte] // for the octets of shortOctets
}

// openType switches d to the contents of the open type that follows and
// returns the outer reader, which the caller restores afterwards.
func (d *decoder) openType() (x691.Reader, error) {
	sub, err := d.OpenType()
	if err != nil {
		return d.Reader, err
	}
	outer := d.Reader
	d.Reader = sub
	return outer, nil
}

// shortOctets reads an OCTET STRING of a fixed size of n <= 2 octets,
// which X.691 16.6 sends as a bit-field, not octet-aligned: its octets
// are copied into the decoder's memory instead of a new slice.
func (d *decoder) shortOctets(n int) ([]byte, error) {
	b := d.bytes.Raw(n)
	if d.GetFieldOctets(b) {
		return b, nil
	}
	return d.AppendOctetString(b[:0], n, n, false)
}

// str reads a character string; the result shares memory with the
// decoder's private copy of the input, which nobody changes.
func (d *decoder) str(lb, ub int, ext bool, cs *x691.CharSet) (string, error) {
	return aliasString(d.GetString(lb, ub, ext, cs))
}

// fixedStr reads a character string of a fixed size of more than two
// characters, as str does.
func (d *decoder) fixedStr(size int, cs *x691.CharSet) (string, error) {
	return aliasString(d.GetFixedChars(size, cs))
}

func aliasString(b []byte, err error) (string, error) {
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
		e := d.Errorf(codecerr.Unsupported, "BIT STRING of %d bits, at most 64 supported", n)
		e.Pos = codecerr.AtBit(start)
		return bs, e
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

func putBitString(e *x691.Writer, v model.BitString, lb, ub int, ext bool) error {
	var buf [8]byte
	n := v.EncLen()
	for i := 0; i < n; i++ {
		if v.Has(i) {
			buf[i/8] |= 0x80 >> (i % 8)
		}
	}
	return e.PutBitString(buf[:(n+7)/8], n, lb, ub, ext)
}

// encErrorf reports a message that does not fit the schema of the version
// being written.
//
//go:noinline
func encErrorf(format string, args ...any) error {
	return codecerr.New("per", codecerr.Encode, codecerr.Schema, fmt.Sprintf(format, args...))
}

// PeekVersion reads the protocol version of an encoded MegacoMessage
// without knowing its schema. In every version the encoding starts the
// same way: the presence bit of the optional authHeader, the
// AuthenticationHeader if present (identical in all three modules), the
// extension bit of Message and then Message.version, INTEGER(0..99) in 7
// bits. So the version is found at a fixed place once the optional header
// is skipped.
func PeekVersion(data []byte) (int, error) {
	d := x691.NewReader(data)
	return peekVersion(&d)
}

// Salvage fills s (after resetting it) with what can be read of a message
// that does not decode: its version, when the header reads. PER has no
// structure that survives an error further in.
func Salvage(data []byte, s *scan.Summary, max int) {
	s.Reset()
	if v, err := PeekVersion(data); err == nil {
		s.Version = v
	}
}

func peekVersion(d *x691.Reader) (int, error) {
	auth, err := d.GetBool()
	if err != nil {
		return 0, err
	}
	if auth {
		if _, err := d.GetOctetString(4, 4, false); err != nil {
			return 0, codecerr.At(codecerr.At(err, "secParmIndex"), "authHeader")
		}
		if _, err := d.GetOctetString(4, 4, false); err != nil {
			return 0, codecerr.At(codecerr.At(err, "seqNum"), "authHeader")
		}
		if _, err := d.GetOctetString(12, 32, false); err != nil {
			return 0, codecerr.At(codecerr.At(err, "ad"), "authHeader")
		}
	}
	if _, err := d.GetBool(); err != nil { // Message's extension bit
		return 0, codecerr.At(err, "mess")
	}
	v, err := d.GetSmallConstrained(0, 99, 7)
	if err != nil {
		return 0, codecerr.At(codecerr.At(err, "version"), "mess")
	}
	return int(v), nil
}

// Decode decodes one MegacoMessage. The message keeps references into a
// private copy of data, never into data itself.
func Decode(data []byte, opts Options) (*model.MegacoMessage, error) {
	var d Decoder
	d.Options = opts
	return d.Decode(data)
}

// A Decoder is the PER counterpart of ber.Decoder: it reuses its memory
// from message to message, so what Decode returns lives until the next
// call; not for concurrent use.
type Decoder struct {
	Options Options
	d       decoder
	msg     model.MegacoMessage
	buf     []byte
}

// Decode decodes data; see the type's documentation for the lifetime of
// the result.
func (dec *Decoder) Decode(data []byte) (*model.MegacoMessage, error) {
	lim := dec.Options.Limits.OrDefault()
	if err := lim.CheckSize("per", codecerr.AtBit(0), len(data)); err != nil {
		return nil, err
	}
	v := dec.Options.Version
	dec.buf = append(dec.buf[:0], data...)
	d := &dec.d
	d.start(dec.buf, lim)
	d.s.Reset()
	d.bytes.Reset()
	if v == 0 {
		var err error
		if v, err = d.version(); err != nil {
			return nil, err
		}
	} else if err := limits.CheckOption("per", v); err != nil {
		return nil, err
	}
	m := &dec.msg
	*m = model.MegacoMessage{}
	if err := decodeMessage(d, v, m); err != nil {
		return nil, err
	}
	if err := d.End(); err != nil {
		return nil, err
	}
	return m, nil
}

// Append appends the complete encoding of m to b. On error it returns b at
// its original length (the bytes between len(b) and cap(b) may have been
// overwritten) and a *codecerr.Error.
func Append(b []byte, m *model.MegacoMessage, opts Options) ([]byte, error) {
	v := opts.Version
	if v == 0 {
		v = int(m.Mess.Version)
	}
	if !limits.ValidVersion(v) {
		return b, limits.VersionError("per", codecerr.Encode, codecerr.Pos{}, v)
	}
	e := x691.NewWriter(b)
	if err := appendMessage(e, v, m); err != nil {
		return b, err
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

var decoders slab.Pool[Decoder]

// DecodeReused decodes into a pooled Decoder's memory: the message is
// valid until release is called. Transcoding, where the message lives
// only until it is encoded again, then allocates nothing once warm.
func (c Codec) DecodeReused(data []byte) (*model.MegacoMessage, func(), error) {
	return slab.DecodeReused(&decoders, data, func(d *Decoder) { d.Options = c.Options })
}
