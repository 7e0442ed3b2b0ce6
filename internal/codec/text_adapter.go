package codec

import (
	"megaco/internal/codec/slab"
	"megaco/internal/codec/text"
	"megaco/internal/model"
)

// textCodecImpl is the text encoding in one style; its decoder reads both.
type textCodecImpl struct {
	style text.Style
	dec   text.DecodeOptions
	enc   text.EncodeOptions
}

func (c textCodecImpl) Decode(data []byte) (*model.MegacoMessage, error) {
	return text.Decode(data, c.dec)
}

var textDecoders slab.Pool[text.Decoder]

// DecodeReused decodes into a pooled Decoder's memory (see Reusing).
func (c textCodecImpl) DecodeReused(data []byte) (*model.MegacoMessage, func(), error) {
	d, release := textDecoders.Get()
	d.Options = c.dec
	m, err := d.Decode(data)
	if err != nil {
		release()
		return nil, nop, err
	}
	return m, release, nil
}

func (c textCodecImpl) Append(b []byte, m *model.MegacoMessage) ([]byte, error) {
	return text.Append(b, m, c.style, c.enc)
}
