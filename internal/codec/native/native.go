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
	"fmt"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"

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
	// MaxSize bounds the input and the decompressed size.
	MaxSize int
	// MaxElements bounds the messages and list items a decode makes
	// (0: 131072, as the other decoders).
	MaxElements int
}

// Codec is the native codec behind the common codec interface.
type Codec struct{ Options Options }

var (
	zstdOnce sync.Once
	zenc     *zstd.Encoder
	zdec     *zstd.Decoder
	zerr     error
	s2dict   = sync.OnceValue(func() *s2.Dict { return s2.NewDict(s2DictData) })
)

const (
	defaultMaxSize     = 1 << 20
	defaultMaxElements = 1 << 17
)

func zstdCodecs() (*zstd.Encoder, *zstd.Decoder, error) {
	zstdOnce.Do(func() {
		zenc, zerr = zstd.NewWriter(nil, zstd.WithEncoderDict(zstdDict), zstd.WithEncoderLevel(zstd.SpeedBetterCompression),
			zstd.WithEncoderConcurrency(1), zstd.WithZeroFrames(true))
		if zerr != nil {
			return
		}
		zdec, zerr = zstd.NewReader(nil, zstd.WithDecoderDicts(zstdDict), zstd.WithDecoderConcurrency(0),
			zstd.WithDecoderMaxMemory(defaultMaxSize))
	})
	return zenc, zdec, zerr
}

// Error is a native decode or encode failure.
type Error struct {
	Op, Msg string
}

func (e *Error) Error() string { return "native: " + e.Op + ": " + e.Msg }

// Append appends the encoding of m to b.
func (c Codec) Append(b []byte, m *model.MegacoMessage) ([]byte, error) {
	if c.Options.Version != 0 && c.Options.Version != int(m.Mess.Version) {
		return b, &Error{"encode", fmt.Sprintf("message is version %d, %d requested: native keeps the message as it is", m.Mess.Version, c.Options.Version)}
	}
	if c.Options.Compression == None {
		out, err := appendWire(b, m)
		if err != nil {
			return b, &Error{"encode", err.Error()}
		}
		return out, nil
	}
	// The compressors read the whole wire form: build it in a pooled
	// buffer.
	scratch := scratchBufs.Get().(*[]byte)
	defer scratchBufs.Put(scratch)
	wire, err := appendWire((*scratch)[:0], m)
	if err != nil {
		return b, &Error{"encode", err.Error()}
	}
	*scratch = wire
	switch c.Options.Compression {
	case Zstd:
		enc, _, err := zstdCodecs()
		if err != nil {
			return b, &Error{"encode", err.Error()}
		}
		return enc.EncodeAll(wire, b), nil
	case S2:
		return append(b, s2dict().Encode(nil, wire)...), nil
	}
	return b, &Error{"encode", fmt.Sprintf("unknown compression %d", c.Options.Compression)}
}

var scratchBufs = sync.Pool{New: func() any { return new([]byte) }}

// Decode decodes one message.
func (c Codec) Decode(data []byte) (*model.MegacoMessage, error) {
	max := c.Options.MaxSize
	if max == 0 {
		max = defaultMaxSize
	}
	if len(data) > max {
		return nil, &Error{"decode", fmt.Sprintf("message of %d bytes exceeds the limit of %d", len(data), max)}
	}
	wire := data
	switch c.Options.Compression {
	case Zstd:
		_, dec, err := zstdCodecs()
		if err != nil {
			return nil, &Error{"decode", err.Error()}
		}
		if wire, err = dec.DecodeAll(data, nil); err != nil {
			return nil, &Error{"decode", "zstd: " + err.Error()}
		}
	case S2:
		n, err := s2.DecodedLen(data)
		if err != nil {
			return nil, &Error{"decode", "s2: " + err.Error()}
		}
		if n > max {
			return nil, &Error{"decode", fmt.Sprintf("s2: decompressed size %d exceeds the limit of %d", n, max)}
		}
		if wire, err = s2dict().Decode(nil, data); err != nil {
			return nil, &Error{"decode", "s2: " + err.Error()}
		}
	}
	if len(wire) > max {
		return nil, &Error{"decode", fmt.Sprintf("decompressed size %d exceeds the limit of %d", len(wire), max)}
	}
	if c.Options.Compression == None {
		// The model points into the wire form: a copy, so that the
		// caller's buffer stays the caller's.
		wire = bytes.Clone(data)
	}
	maxElems := c.Options.MaxElements
	if maxElems == 0 {
		maxElems = defaultMaxElements
	}
	m, err := unwire(wire, maxElems)
	if err != nil {
		return nil, &Error{"decode", err.Error()}
	}
	return m, nil
}
