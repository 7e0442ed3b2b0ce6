package protoconv

import (
	"testing"

	pb "megaco/api/megaco/v1"
	"megaco/internal/codec"
)

// TestCodecEnum: every value of the API's Codec enum has a codec in the
// table, and every codec an enum value.
func TestCodecEnum(t *testing.T) {
	for v, name := range pb.Codec_name {
		if got, ok := CodecName(pb.Codec(v)); !ok || (v != 0 && got == "") {
			t.Errorf("enum %s has no codec", name)
		}
	}
	for _, d := range codec.All() {
		if CodecEnum(d.Name) == pb.Codec_CODEC_UNSPECIFIED {
			t.Errorf("codec %s: API name %q is not in the enum", d.Name, d.API)
		}
	}
}
