// Package ber is the ASN.1 BER codec of H.248.1 (Annex A), versions 1 to
// 3. The per-type encoders and decoders in ber_gen.go are generated from
// the ASN.1 modules; this file holds the entry points.
//
// Decoding accepts everything X.690 allows a BER sender (indefinite
// lengths, long-form lengths, segmented strings, unknown extensions);
// encoding writes definite, minimal lengths as Erlang/OTP's encoder does,
// so a message decoded from OTP's BER re-encodes to the same bytes.
//
// Every error is a *codecerr.Error of codec "ber" with the field path;
// a decode error has the byte offset where the input went wrong.
package ber

import (
	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/slab"
	"megaco/internal/model"
)

// Options tune a decode or an encode.
type Options struct {
	// Version forces the schema (1, 2 or 3). Zero reads it from the
	// message (decode) or from its Mess.Version field (encode).
	Version int
	// Limits bound a decode; zero fields mean limits.Default.
	Limits limits.Limits
}

// PeekVersion reads the protocol version from an encoded MegacoMessage
// without decoding the rest: it is the first component of Message in
// every version's schema.
func PeekVersion(data []byte) (int, error) {
	d := &reader{data: data, lim: limits.Default}
	h, err := d.header(0, len(data))
	if err != nil {
		return 0, err
	}
	return d.peekVersion(h)
}

func (d *reader) peekVersion(h header) (int, error) {
	if v, ok := d.quickVersion(&h); ok {
		return v, nil
	}
	return d.slowVersion(h)
}

func (d *reader) slowVersion(h header) (int, error) {
	elems := d.elems
	defer func() { d.elems = elems }()
	if h.tag != 16 || !h.cons {
		return 0, d.unexpected(h, "[UNIVERSAL 16] (MegacoMessage)")
	}
	e, err := d.header(h.start, h.end)
	if err != nil {
		return 0, err
	}
	if e.tag == ctxTag(0) { // authHeader
		if e, err = d.header(e.next, h.end); err != nil {
			return 0, err
		}
	}
	if e.tag != ctxTag(1) || !e.cons {
		return 0, codecerr.At(d.unexpected(e, "[1] (mess)"), "mess")
	}
	v, err := d.header(e.start, e.end)
	if err != nil {
		return 0, codecerr.At(err, "mess")
	}
	if v.tag != ctxTag(0) {
		return 0, codecerr.At(codecerr.At(d.unexpected(v, "[0]"), "version"), "mess")
	}
	n, err := d.integer(&v, 0, 99)
	if err != nil {
		return 0, codecerr.At(codecerr.At(err, "version"), "mess")
	}
	return int(n), nil
}

// quickVersion reads the version where the message starts as encoders
// write it: no authHeader, mess [1] with a length of at most two octets,
// then version [0] of one octet. Anything else is left to peekVersion's
// full header reads (ok false).
func (d *reader) quickVersion(h *header) (v int, ok bool) {
	b := d.data[:h.end]
	p := h.start + 2 // after mess's identifier and first length octet
	if !h.cons || h.tag != 16 || p+5 > len(b) || b[p-2] != 0xa1 {
		return 0, false
	}
	n := int(b[p-1]) // mess's length
	switch n {
	case 0x81:
		n, p = int(b[p]), p+1
	case 0x82:
		n, p = int(b[p])<<8|int(b[p+1]), p+2
	default:
		if n >= 0x80 {
			return 0, false
		}
	}
	if n < 3 || p+n > len(b) || b[p] != 0x80 || b[p+1] != 1 || b[p+2] > 99 {
		return 0, false
	}
	return int(b[p+2]), true
}

// Decode decodes one MegacoMessage. The message keeps references into a
// private copy of data, never into data itself.
func Decode(data []byte, opts Options) (*model.MegacoMessage, error) {
	var d Decoder
	d.Options = opts
	return d.Decode(data)
}

// A Decoder decodes messages one after the other, reusing its memory: the
// message Decode returns is valid until the next call of Decode. Use it
// where messages are handled one at a time (a transcoder's loop); use the
// package-level Decode to keep messages. A Decoder is not safe for
// concurrent use.
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
	if len(data) > lim.MaxSize { // CheckSize's test, without its call
		return nil, lim.CheckSize("ber", codecerr.AtByte(0), len(data))
	}
	// The private copy lets strings and byte fields share memory with the
	// input safely: nobody else can change it.
	dec.buf = append(dec.buf[:0], data...)
	d := &dec.d
	d.data, d.lim, d.depth, d.elems = dec.buf, lim, 0, 0
	d.fast = len(d.data)/2 <= lim.MaxElements
	d.s.Reset()
	var h header
	v := dec.Options.Version
	if v != 0 || !d.quickStart(&h, &v) {
		var err error
		if h, v, err = d.start(v); err != nil {
			return nil, err
		}
	}
	m := &dec.msg
	*m = model.MegacoMessage{}
	if err := decodeMessage(d, v, &h, m); err != nil {
		return nil, err
	}
	return m, nil
}

// start reads the message's header and (unless the options force one,
// v) its version.
func (d *decoder) start(v int) (header, int, error) {
	h, err := d.header(0, len(d.data))
	if err != nil {
		return h, 0, err
	}
	if h.next != len(d.data) {
		return h, 0, d.errorf(h.next, "%d bytes after the message", len(d.data)-h.next)
	}
	if v == 0 {
		if v, err = d.peekVersion(h); err != nil {
			return h, 0, err
		}
		if !limits.ValidVersion(v) {
			return h, 0, limits.VersionError("ber", codecerr.Decode, codecerr.AtByte(0), v)
		}
	} else if err := limits.CheckOption("ber", v); err != nil {
		return h, 0, err
	}
	return h, v, nil
}

// quickStart is start for a message that begins as encoders write it:
// the MegacoMessage SEQUENCE over the whole input with a minimal length
// of up to two octets, then what quickVersion reads, of a valid version.
// It reports false for anything else, which start reads (and reports).
func (d *decoder) quickStart(h *header, v *int) bool {
	b := d.data
	if len(b) < 4 || b[0] != 0x30 || d.lim.MaxElements < 1 {
		return false
	}
	p, l := 2, int(b[1])
	switch {
	case l < 0x80:
	case l == 0x81 && b[2] >= 0x80:
		p, l = 3, int(b[2])
	case l == 0x82 && b[2] != 0:
		p, l = 4, int(b[2])<<8|int(b[3])
	default:
		return false
	}
	if p+l != len(b) {
		return false
	}
	// What quickVersion reads, here without its call: mess [1] with a
	// length of up to two octets, then version [0] of one octet.
	if p+7 > len(b) || b[p] != 0xa1 {
		return false
	}
	q, n := p+2, int(b[p+1])
	switch n {
	case 0x81:
		q, n = q+1, int(b[q])
	case 0x82:
		q, n = q+2, int(b[q])<<8|int(b[q+1])
	default:
		if n >= 0x80 {
			return false
		}
	}
	if n < 3 || q+n > len(b) {
		return false
	}
	c := b[q : q+3]
	if c[0] != 0x80 || c[1] != 1 || c[2] > 99 || !limits.ValidVersion(int(c[2])) {
		return false
	}
	h.tag, h.cons, h.off, h.start, h.end, h.next = 16, true, 0, p, p+l, p+l
	d.elems++ // as start's header read counts it
	*v = int(c[2])
	return true
}

// Append appends the encoding of m to b. On error it returns b at its
// original length (the bytes between len(b) and cap(b) may have been
// overwritten) and a *codecerr.Error.
func Append(b []byte, m *model.MegacoMessage, opts Options) ([]byte, error) {
	v := opts.Version
	if v == 0 {
		v = int(m.Mess.Version)
	}
	if !limits.ValidVersion(v) {
		return b, limits.VersionError("ber", codecerr.Encode, codecerr.Pos{}, v)
	}
	out, err := appendMessage(b, v, m)
	if err != nil {
		return b, err
	}
	return out, nil
}

// Codec is the BER codec behind the common codec interface.
type Codec struct{ Options Options }

// Decode implements the codec interface.
func (c Codec) Decode(data []byte) (*model.MegacoMessage, error) { return Decode(data, c.Options) }

// Append implements the codec interface.
func (c Codec) Append(b []byte, m *model.MegacoMessage) ([]byte, error) {
	return Append(b, m, c.Options)
}

// ctxTag is the packed form of context-specific tag n.
func ctxTag(n uint32) uint32 { return 2<<30 | n }

var decoders slab.Pool[Decoder]

// DecodeReused decodes into a pooled Decoder's memory: the message is
// valid until release is called. Transcoding, where the message lives
// only until it is encoded again, then allocates nothing once warm.
func (c Codec) DecodeReused(data []byte) (*model.MegacoMessage, func(), error) {
	return slab.DecodeReused(&decoders, data, func(d *Decoder) { d.Options = c.Options })
}
