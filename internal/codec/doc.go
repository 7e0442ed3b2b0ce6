// Package codec is the seam between the message model and its encodings:
// every encoding is a Codec, described once in the table of table.go and
// found by name. Data flows one way, bytes -> model -> bytes, so
// transcoding is a decode, a conversion between the text and binary forms
// of the model where the two codecs differ, and an append (pipeline.go).
//
// Every codec and the mapping fail with a *codecerr.Error, so callers read
// the codec, operation, kind, field path and position of any failure the
// same way; every decoder works within a limits.Limits.
//
// # Adding a codec
//
//  1. Write the codec in its own package under internal/codec: a Codec
//     value type with Decode and Append (and DecodeReused if it pools
//     memory), built from Options{Version, Limits}, failing with
//     *codecerr.Error and keeping the Append contract below.
//  2. Add one Descriptor to the table in table.go: its name, its form
//     (text or binary), the factory, the API enum value's name, and a
//     detector if its bytes can be recognised (table order is the order
//     detection tries them).
//  3. Add the enum value to api/megaco/v1/codec.proto (and make
//     generate); the server maps it by the descriptor's API name, and a
//     test fails when the two disagree.
//  4. Add it to the corpus tests (internal/codec/pipeline_test.go runs every
//     descriptor) and to megaco bench's configurations (internal/bench).
//
// Nothing else names codecs: the CLI, the HTTP routes, gRPC, metrics and
// the load generator take the list from here.
package codec
