// Package x691 is the bit-level runtime of the ASN.1 Packed Encoding Rules,
// BASIC-PER ALIGNED variant (ITU-T X.691), as Erlang/OTP's asn1 "per"
// back-end writes it: a Reader and a Writer of the encodings of each ASN.1
// type. It knows no schema: the generated H.248.1 codec in the parent
// package per calls it, field by field.
//
// Clause numbers below and in the comments are those of X.691 (07/2002),
// the edition OTP's asn1 cites (later editions shift most of them by one).
//
// # What it covers
//
//   - 10.1 complete encodings (Writer.Finish: padding, and one zero octet
//     for an empty encoding), 10.2 open types (BeginOpenType/EndOpenType,
//     OpenType/SkipOpenType), 10.5 constrained whole numbers (every range
//     of int64 bounds), 10.6 normally small numbers, 10.7 semi-constrained
//     and 10.8 unconstrained whole numbers, 10.9 length determinants
//     (constrained, normally small, unconstrained with 16K..64K
//     fragmentation);
//   - 11 BOOLEAN, 12 INTEGER (including extensible constraints),
//     13 ENUMERATED, 15 BIT STRING (also with named bits), 16 OCTET STRING,
//     17 NULL (nothing to encode), 18 SEQUENCE extension bitmaps,
//     19 SEQUENCE OF counts, 22 CHOICE indexes, 23 OBJECT IDENTIFIER,
//     27 known-multiplier character strings with one-octet characters
//     (IA5String, VisibleString, PrintableString, NumericString, with or
//     without a permitted alphabet).
//
// Not covered, because the H.248 modules do not use them: REAL, the
// time types, BMPString/UniversalString, and the other string types.
//
// # Conventions
//
// SIZE constraints are passed as lb, ub with ub = Unbounded for "no upper
// bound" (no SIZE constraint at all is 0, Unbounded), and ext true when the
// constraint has an extension marker. Writer methods append to a caller's
// buffer and return a *codecerr.Error for values that do not fit their
// constraint; Reader methods return the value and a *codecerr.Error. Both
// errors carry a bit position (see errors.go); generated code adds the
// ASN.1 component path with codecerr.At as errors travel outwards.
//
// # How generated code uses it
//
// A SEQUENCE { a INTEGER (0..99), b BOOLEAN OPTIONAL, ..., c [[...]] } is
// encoded as: PutBool(extension present), PutBool(b present) (the
// preamble, 18.2), PutConstrained(a, 0, 99), PutBool(b) if present, then
// if extensions are present PutExtensionBitmap and one
// BeginOpenType/EndOpenType per present addition. Decoding mirrors it;
// additions the decoder does not know are counted by GetExtensionBitmap
// and skipped with SkipOpenType.
//
// A CHOICE is PutChoiceIndex followed by the alternative (wrapped in an
// open type when it is an extension alternative). A SEQUENCE OF uses
// PutLength/GetLength and, for counts of 16K or more, the chunk loop shown
// at those methods.
//
// # Compatibility notes
//
// Like OTP, the contents of a variable-size string are octet-aligned after
// their length even when the string is empty. For character strings of
// fixed size, contents of at most 16 bits are not aligned (X.691 27.5, as
// for BIT STRING and OCTET STRING);
// OTP aligns a fixed size of exactly 16 bits (e.g. IA5String (SIZE(2))),
// a case the H.248 modules do not contain.
package x691
