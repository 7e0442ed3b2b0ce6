// Package per is the aligned PER codec of H.248.1 (Annex A), versions 1
// to 3, compatible with Erlang/OTP's megaco_per_encoder. The per-type
// encoders and decoders in per_gen.go are generated from the ASN.1
// modules by internal/asn1gen; they call the X.691 runtime in package
// x691, which knows nothing of H.248. message.go holds the entry points
// (Decode, Append, the reusable Decoder, PeekVersion) and the few helpers
// that involve the message model. The scanner (scan.go, Scan and Rewrite)
// walks the same schemas with the walkers of scan_gen.go, also generated,
// which store nothing.
//
// Every error is a *codecerr.Error of codec "per" with the field path; a
// decode error has the bit offset where the input went wrong, an encode
// error the bit offset of the value that did not fit its constraint, or
// none when the message does not fit the version's schema.
package per
