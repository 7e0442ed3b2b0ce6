package protoconv

import (
	pb "megaco/api/megaco/v1"
	"megaco/internal/codec"
)

// Codec names between the API enum and the codec table: each descriptor
// names its enum value; CODEC_UNSPECIFIED is "" (detect the input).
var codecNames, codecEnums = func() (map[pb.Codec]string, map[string]pb.Codec) {
	names := map[pb.Codec]string{pb.Codec_CODEC_UNSPECIFIED: ""}
	enums := map[string]pb.Codec{}
	for _, d := range codec.All() {
		if v, ok := pb.Codec_value[d.API]; ok {
			names[pb.Codec(v)], enums[d.Name] = d.Name, pb.Codec(v)
		}
	}
	return names, enums
}()

// CodecName is the table's name of an enum value ("" for
// CODEC_UNSPECIFIED); ok is false for a value no codec has.
func CodecName(c pb.Codec) (name string, ok bool) {
	name, ok = codecNames[c]
	return name, ok
}

// CodecEnum is the enum value of a codec name (CODEC_UNSPECIFIED for a
// name no codec has).
func CodecEnum(name string) pb.Codec { return codecEnums[name] }
