// Package native is the "native" codec: the protobuf wire form of the API's
// mirror of the message model (api/megaco/v1), plain or compressed with
// zstd or S2 (github.com/klauspost/compress).
//
// Small messages compress badly with generic compressors: a zstd frame or
// S2 block of a 150-byte message has little history to refer to. Both
// compressed variants therefore use a dictionary trained on the native
// encodings of the corpus (make dict), embedded here; sender and receiver
// must use the same dictionary, which the zstd frame names by its ID.
package native

import (
	_ "embed"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/slab"
	"megaco/internal/model"
)

//go:embed megaco.zdict
var zstdDict []byte

//go:embed megaco.s2dict
var s2DictData []byte

// Compression selects a variant.
type Compression int

const (
	None Compression = iota
	Zstd
	S2
)

// Options tune the codec.
type Options struct {
	Compression Compression
	// Version forces the protocol version on encode (checked against the
	// schema by the other codecs); zero keeps the message's own.
	Version int
	// Limits bound a decode (zero fields: limits.Default). MaxSize bounds
	// the input and the decompressed size; MaxDepth the nesting of
	// messages (protobuf's recursion limit); MaxElements the messages and
	// list items a decode makes.
	Limits limits.Limits
}

// Codec is the native codec behind the common codec interface.
type Codec struct{ Options Options }

// codecName names the codec in its errors, whatever the compression.
const codecName = "native"

var (
	zstdOnce sync.Once
	zenc     *zstd.Encoder
	zdec     *zstd.Decoder
	zerr     error
	s2dict   = sync.OnceValue(func() *s2.Dict { return s2.NewDict(s2DictData) })
)

func zstdCodecs() (*zstd.Encoder, *zstd.Decoder, error) {
	zstdOnce.Do(func() {
		zenc, zerr = zstd.NewWriter(nil, zstd.WithEncoderDict(zstdDict), zstd.WithEncoderLevel(zstd.SpeedBetterCompression),
			zstd.WithEncoderConcurrency(1), zstd.WithZeroFrames(true))
		if zerr != nil {
			return
		}
		zdec, zerr = zstd.NewReader(nil, zstd.WithDecoderDicts(zstdDict), zstd.WithDecoderConcurrency(0),
			zstd.WithDecoderMaxMemory(uint64(limits.Default.MaxSize)))
	})
	return zenc, zdec, zerr
}

// fail is an error of the codec, with no place in the input (the wire
// decoder's own carry the field path: wire.go).
func fail(op codecerr.Op, kind codecerr.Kind, format string, args ...any) *codecerr.Error {
	return codecerr.New(codecName, op, kind, fmt.Sprintf(format, args...))
}

// failOn is fail for err, a library's error, kept as the cause.
func failOn(op codecerr.Op, kind codecerr.Kind, prefix string, err error) *codecerr.Error {
	e := codecerr.New(codecName, op, kind, prefix+err.Error())
	e.Err = err
	return e
}

// Append appends the encoding of m to b.
func (c Codec) Append(b []byte, m *model.MegacoMessage) ([]byte, error) {
	if c.Options.Version != 0 && c.Options.Version != int(m.Mess.Version) {
		return b, fail(codecerr.Encode, codecerr.Unsupported, "message is version %d, %d requested: native keeps the message as it is", m.Mess.Version, c.Options.Version)
	}
	if c.Options.Compression == None {
		return appendWire(b, m)
	}
	// The compressors read the whole wire form: build it in a pooled
	// buffer.
	scratch := scratchBufs.Get().(*[]byte)
	defer scratchBufs.Put(scratch)
	wire, err := appendWire((*scratch)[:0], m)
	if err != nil {
		return b, err
	}
	*scratch = wire
	return c.Options.Compression.compress(b, wire, nil)
}

var scratchBufs = sync.Pool{New: func() any { return new([]byte) }}

// Decode decodes one message, which is the caller's to keep. It does not
// point into data.
//
// The message's values come from a pooled decoder's slabs, which hand
// them out for good (slab.Model.Keep): chunks are shared by the messages
// decoded one after the other, so that a decode makes a few allocations,
// not one per value, or a set of slabs of its own.
func (c Codec) Decode(data []byte) (*model.MegacoMessage, error) {
	k, release := keepers.Get()
	defer release()
	d := &k.Decoder
	if !k.kept {
		d.mem.Keep()
		k.kept = true
	}
	d.Options = c.Options
	lim := d.Options.Limits.OrDefault()
	if err := lim.CheckSize("native", codecerr.Pos{}, len(data)); err != nil {
		return nil, err
	}
	if cap(d.wire)-len(d.wire) < len(data) {
		d.wire = make([]byte, 0, max(len(data), keptWireChunk))
	}
	wire, err := d.Options.decompress(d.wire[len(d.wire):], data, lim.MaxSize)
	if err != nil {
		return nil, err
	}
	// What follows the message's bytes stays free for the next one (a
	// decompressor may have made new memory: then the old chunk goes).
	d.wire = wire[len(wire):]
	m := new(model.MegacoMessage)
	if err := unwire(wire, m, lim, &d.mem); err != nil {
		return nil, err
	}
	return m, nil
}

// keepers are the decoders of Decode, whose messages are kept.
var keepers slab.Pool[keeper]

type keeper struct {
	Decoder
	kept bool // its slabs hand out values for good
}

// keptWireChunk is the size of the buffers Decode shares between the wire
// forms of its messages: the model points into them.
const keptWireChunk = 4 << 10

// A Decoder decodes messages one after the other, reusing its memory: the
// message Decode returns is valid until the next call of Decode. Use it
// where messages are handled one at a time (a transcoder's loop); use
// Codec.Decode to keep messages. A Decoder is not safe for concurrent use.
type Decoder struct {
	Options Options
	mem     slab.Model
	msg     model.MegacoMessage
	wire    []byte // the wire form the message points into
}

// Decode decodes data; see the type's documentation for the lifetime of
// the result. The message does not point into data.
func (dec *Decoder) Decode(data []byte) (*model.MegacoMessage, error) {
	lim := dec.Options.Limits.OrDefault()
	if err := lim.CheckSize("native", codecerr.Pos{}, len(data)); err != nil {
		return nil, err
	}
	wire, err := dec.Options.decompress(dec.wire[:0], data, lim.MaxSize)
	if err != nil {
		return nil, err
	}
	dec.wire = wire
	dec.mem.Reset()
	m := &dec.msg
	*m = model.MegacoMessage{}
	if err := unwire(wire, m, lim, &dec.mem); err != nil {
		return nil, err
	}
	return m, nil
}

var decoders slab.Pool[Decoder]

// DecodeReused decodes into a pooled Decoder's memory: the message is
// valid until release is called. Transcoding, where the message lives
// only until it is encoded again, then allocates nothing once warm.
func (c Codec) DecodeReused(data []byte) (*model.MegacoMessage, func(), error) {
	return slab.DecodeReused(&decoders, data, func(d *Decoder) { d.Options = c.Options })
}

// decompress puts the wire form of data in dst's memory (dst is empty:
// from dst[0], growing it if need be), which is the decoder's own: the
// model points into it.
func (o Options) decompress(dst, data []byte, max int) ([]byte, error) {
	if o.Compression == None {
		// A copy, so that the caller's buffer stays the caller's.
		return append(dst[:0], data...), nil
	}
	return o.Compression.decompress(dst, data, max)
}

// decompress decompresses data into dst's memory (from dst[0], growing
// it if need be).
func (c Compression) decompress(dst, data []byte, max int) ([]byte, error) {
	var wire []byte
	switch c {
	case Zstd:
		_, dec, err := zstdCodecs()
		if err != nil {
			return nil, failOn(codecerr.Decode, codecerr.Unsupported, "", err)
		}
		if wire, err = dec.DecodeAll(data, dst[:0]); err != nil {
			kind := codecerr.Malformed
			if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
				kind = codecerr.TooLarge
			}
			return nil, failOn(codecerr.Decode, kind, "zstd: ", err)
		}
	case S2:
		n, err := s2.DecodedLen(data)
		if err != nil {
			return nil, failOn(codecerr.Decode, codecerr.Malformed, "s2: ", err)
		}
		if n > max {
			return nil, fail(codecerr.Decode, codecerr.TooLarge, "s2: decompressed size %d exceeds the limit of %d", n, max)
		}
		// Decode uses dst when its length (not its capacity) is enough.
		if wire, err = s2dict().Decode(dst[:cap(dst)], data); err != nil {
			return nil, failOn(codecerr.Decode, codecerr.Malformed, "s2: ", err)
		}
	default:
		return nil, fail(codecerr.Decode, codecerr.Unsupported, "unknown compression %d", c)
	}
	if len(wire) > max {
		return nil, fail(codecerr.Decode, codecerr.TooLarge, "decompressed size %d exceeds the limit of %d", len(wire), max)
	}
	return wire, nil
}
