// Package protoconv connects the message model with its protobuf mirror
// (api/megaco/v1, generated from the same ASN.1): ToProto and FromProto
// convert between the Go types, for the gRPC API. The converters are
// generated (internal/asn1gen). The native codec writes and reads the
// mirror's wire form without the mirror (internal/codec/native).
//
// It also writes the decode document (document.go): the one readable JSON
// shape of a decoded message that the gRPC Decode, HTTP /v1/decode and
// megaco decode return (NewDecodeResponse, DecodeJSON), and reads it back
// (FromDocument).
package protoconv
