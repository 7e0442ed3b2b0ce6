// Package text is the text encoding of H.248.1 (Annex B), protocol
// versions 1 to 3: one decoder, a goyacc grammar (grammar.y) over a
// hand-written zero-copy scanner, reads both the pretty form (long
// tokens, indented) and the compact form (short tokens, no optional
// white space); two encoders write them, byte for byte as Erlang/OTP's
// megaco does.
//
// Both sides work on the text form of the message model (see package
// mapping): names, termination IDs and values as they are written. The
// codec pipeline converts to and from the binary form that BER and PER
// carry.
//
// Codec is the codec in one style, as the codec table builds it; Decode,
// Decoder and Append are its parts for callers that want them alone. Every
// error is a *codecerr.Error: a decode's at line:column, an encode's at a
// field path with ErrBinaryForm, ErrNotInVersion or ErrNoTextForm as the
// cause.
//
// Scan (summary.go) reads what package scan reports of a message without
// the parser, and Rewrite (rewrite.go) changes its IDs as decode ->
// change -> encode would; a caller's Rewriter does it from a template once
// it has seen the message.
package text
