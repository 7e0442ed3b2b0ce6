package text

import (
	"strconv"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/slab"
	"megaco/internal/model"
)

// Style is the layout of the text encoding.
type Style int

const (
	// Pretty writes long keywords, one item per line, tab-indented, as
	// Erlang/OTP's megaco_pretty_text_encoder does.
	Pretty Style = iota
	// Compact writes short keywords and no optional white space, as
	// Erlang/OTP's megaco_compact_text_encoder does.
	Compact
)

// String names the style.
func (s Style) String() string {
	switch s {
	case Pretty:
		return "pretty"
	case Compact:
		return "compact"
	}
	return "Style(" + strconv.Itoa(int(s)) + ")"
}

// Options tune a decode and an encode.
type Options struct {
	// Version forces the protocol version (1, 2 or 3): of a decode's result
	// and its version checks, and of an encode's grammar, keywords and
	// header. Zero takes it from the message (the MEGACO/N header, or
	// m.Mess.Version).
	Version int
	// Limits bound the work and memory of a decode; a zero field takes its
	// default from limits.Default.
	Limits limits.Limits
	// MaxNumberLength is the most digits a number may have in a decode (a
	// longer one is an error, even with leading zeros); zero takes
	// DefaultMaxNumberLength.
	MaxNumberLength int
}

// DefaultMaxNumberLength is enough digits for any UINT32 with leading
// zeros, and few enough that reading a number costs nothing to speak of.
const DefaultMaxNumberLength = 20

// Codec is the text encoding in one style: Append writes that style;
// Decode reads both and names the style in its errors
// ("compact: 3:17: ...").
type Codec struct {
	Style   Style
	Options Options
}

// Decode decodes one message, which is the caller's to keep (see Decode).
func (c Codec) Decode(data []byte) (*model.MegacoMessage, error) {
	return decode(data, c.Style.String(), c.Options)
}

// decoders keep the Decoders of DecodeReused, warm.
var decoders slab.Pool[Decoder]

// DecodeReused decodes into the memory of a pooled Decoder: once the pool
// is warm it allocates nothing. The message is valid until release is
// called, which gives the memory back; on error there is nothing to
// release (release is a no-op).
func (c Codec) DecodeReused(data []byte) (m *model.MegacoMessage, release func(), err error) {
	d, release := decoders.Get()
	d.Options, d.name = c.Options, c.Style.String()
	m, err = d.Decode(data)
	if err != nil {
		release()
		return nil, nop, err
	}
	return m, release, nil
}

func nop() {}

// Append appends the encoding of m in the codec's style to b (see
// Append).
func (c Codec) Append(b []byte, m *model.MegacoMessage) ([]byte, error) {
	return Append(b, m, c.Style, c.Options)
}
