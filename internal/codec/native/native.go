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
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
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

// Decode decodes one message. The message does not point into data.
func (c Codec) Decode(data []byte) (*model.MegacoMessage, error) {
	lim := c.Options.Limits.OrDefault()
	if err := lim.CheckSize("native", codecerr.Pos{}, len(data)); err != nil {
		return nil, err
	}
	wire, err := c.decompress(data, lim.MaxSize)
	if err != nil {
		return nil, err
	}
	return unwire(wire, lim)
}

// decompress returns the wire form of data, in memory of its own: the
// model points into it.
func (c Codec) decompress(data []byte, max int) ([]byte, error) {
	if c.Options.Compression == None {
		// A copy, so that the caller's buffer stays the caller's.
		return bytes.Clone(data), nil
	}
	return c.Options.Compression.decompress(nil, data, max)
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
