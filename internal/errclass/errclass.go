// Package errclass is the one outward error table: what an error means to
// each outside party, a gRPC client (status code), an HTTP client
// (status), the metrics (the reason label of megaco_codec_errors_total)
// and a Megaco peer (the error descriptor's code, H.248.8). The service
// and the proxy classify errors here rather than each by its own rules.
//
// An error's class comes from the codec error kind it carries
// (codecerr.Kind), or from the error itself when an application's error
// type says its class (Classed), or is Undetected or Internal. A Megaco
// code is refined by the error's cause where H.248.8 has a code for it
// (an unknown termination ID, package or value; a version).
package errclass

import (
	"errors"
	"net/http"

	"google.golang.org/grpc/codes"

	"megaco/internal/codec"
	"megaco/internal/codec/codecerr"
	"megaco/internal/mapping/pkgs"
	"megaco/internal/mapping/sdp"
	"megaco/internal/mapping/termid"
)

// Class is what sort of failure an error is, as the outside sees it.
type Class uint8

// The first classes are the codec error kinds, in codecerr.Kind order
// (Class(k) for a kind k).
const (
	Malformed   = Class(codecerr.Malformed)
	TooLarge    = Class(codecerr.TooLarge) // the input past a codec limit
	Unsupported = Class(codecerr.Unsupported)
	Mapping     = Class(codecerr.Mapping)
	Schema      = Class(codecerr.Schema)
)

// The classes of errors that carry no codec error kind.
const (
	// Undetected: the input is no encoding the codecs know.
	Undetected = Class(len(kindRows)) + iota
	// Request: the request names something that does not exist (a
	// codec, a profile, a layout).
	Request
	// Limit: the request goes past a limit of the service (a message or
	// batch size).
	Limit
	// Busy: refused for load; the client may retry.
	Busy
	// Internal: anything else.
	Internal
	numClasses
)

// Row is what a class means outward.
type Row struct {
	GRPC   codes.Code
	HTTP   int    // status
	Reason string // metric label
	Megaco uint32 // H.248.8 error code, for a request a peer sent
}

// Megaco error codes (H.248.8, the list RFC 3525 section 7.3 refers to;
// the numbers of Erlang/OTP's megaco.hrl).
const (
	MegacoBadTransaction = 403 // Syntax error in transaction request
	MegacoVersion        = 406 // Version not supported
	MegacoTermID         = 430 // Unknown TerminationID
	MegacoPackage        = 440 // Unsupported or unknown package
	MegacoValue          = 449 // Unsupported or unknown parameter or property value
	MegacoInternal       = 500 // Internal gateway error
)

// kindRows are the codec error kinds' rows, by codecerr.Kind.
var kindRows = [...]Row{
	codecerr.Malformed:   {codes.InvalidArgument, http.StatusBadRequest, codecerr.Malformed.String(), MegacoBadTransaction},
	codecerr.TooLarge:    {codes.InvalidArgument, http.StatusBadRequest, codecerr.TooLarge.String(), MegacoBadTransaction},
	codecerr.Unsupported: {codes.InvalidArgument, http.StatusBadRequest, codecerr.Unsupported.String(), MegacoBadTransaction},
	codecerr.Mapping:     {codes.InvalidArgument, http.StatusBadRequest, codecerr.Mapping.String(), MegacoBadTransaction},
	codecerr.Schema:      {codes.InvalidArgument, http.StatusBadRequest, codecerr.Schema.String(), MegacoBadTransaction},
}

// table is every class's row.
var table = func() [numClasses]Row {
	var t [numClasses]Row
	copy(t[:], kindRows[:])
	t[Undetected] = Row{codes.InvalidArgument, http.StatusBadRequest, codecerr.Malformed.String(), MegacoBadTransaction}
	t[Request] = Row{codes.InvalidArgument, http.StatusBadRequest, reasonInternal, MegacoInternal}
	t[Limit] = Row{codes.ResourceExhausted, http.StatusRequestEntityTooLarge, codecerr.TooLarge.String(), MegacoInternal}
	t[Busy] = Row{codes.Internal, http.StatusServiceUnavailable, reasonInternal, MegacoInternal}
	t[Internal] = Row{codes.Internal, http.StatusInternalServerError, reasonInternal, MegacoInternal}
	return t
}()

const reasonInternal = "internal"

// megacoCauses refine the Megaco code of a codec error by its cause, in
// order: H.248.8 has codes for these. Other codec errors are syntax
// errors in the transaction (RFC 3525 section 8.2.2).
var megacoCauses = []struct {
	code   uint32
	causes []error
}{
	{MegacoVersion, []error{codecerr.ErrVersion}},
	{MegacoTermID, []error{termid.ErrSyntax, termid.ErrWidth, termid.ErrLevels, termid.ErrIDLength, termid.ErrWildcard, termid.ErrReserved}},
	{MegacoPackage, []error{pkgs.ErrUnknown}},
	{MegacoValue, []error{pkgs.ErrNoType, pkgs.ErrBadValue, sdp.ErrSyntax, sdp.ErrName, sdp.ErrValue}},
}

// Classed is an application's error that says its class (a size limit
// of the service, a bad request, load).
type Classed interface {
	error
	ErrorClass() Class
}

// Of is err's class: an application's Classed error first, then the kind
// of the codec error it carries, then Undetected or Internal.
func Of(err error) Class {
	var c Classed
	if errors.As(err, &c) {
		return c.ErrorClass()
	}
	if e, ok := codecerr.As(err); ok && int(e.Kind) < len(kindRows) {
		return Class(e.Kind)
	}
	if errors.Is(err, codec.ErrUndetected) {
		return Undetected
	}
	return Internal
}

// IsCodec reports whether c is a codec error kind's class.
func (c Class) IsCodec() bool { return int(c) < len(kindRows) }

// Row is the class's row of the table.
func (c Class) Row() Row {
	if c >= numClasses {
		return table[Internal]
	}
	return table[c]
}

// GRPCCode is err's gRPC status code.
func GRPCCode(err error) codes.Code { return Of(err).Row().GRPC }

// HTTPStatus is err's HTTP status.
func HTTPStatus(err error) int { return Of(err).Row().HTTP }

// Reasons are the reason label's values, each once, in a fixed order: the
// codec error kinds', then "internal". ReasonIndex indexes it.
var Reasons = func() []string {
	var out []string
	for _, r := range kindRows {
		out = append(out, r.Reason)
	}
	return append(out, reasonInternal)
}()

// ReasonIndex is the index in Reasons of err's reason label.
func ReasonIndex(err error) int {
	r := Of(err).Row().Reason
	for i, s := range Reasons {
		if s == r {
			return i
		}
	}
	return len(Reasons) - 1
}

// MegacoCode is the error descriptor's code for a request that failed
// with err: the code that names the cause when H.248.8 has one, else a
// syntax error in the transaction for a codec error, else an internal
// error.
func MegacoCode(err error) uint32 {
	c := Of(err)
	if c.IsCodec() {
		for _, m := range megacoCauses {
			for _, cause := range m.causes {
				if errors.Is(err, cause) {
					return m.code
				}
			}
		}
	}
	return c.Row().Megaco
}
