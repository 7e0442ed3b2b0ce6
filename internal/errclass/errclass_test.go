package errclass

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"google.golang.org/grpc/codes"

	"megaco/internal/codec"
	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/mapping/pkgs"
	"megaco/internal/mapping/sdp"
	"megaco/internal/mapping/termid"
	"megaco/internal/model"
)

type classed struct{ c Class }

func (e classed) Error() string     { return "classed" }
func (e classed) ErrorClass() Class { return e.c }

func TestTable(t *testing.T) {
	withCause := func(kind codecerr.Kind, cause error) error {
		return fmt.Errorf("wrapped: %w", &codecerr.Error{Codec: "mapping", Op: codecerr.Map, Kind: kind, Msg: "x", Err: cause})
	}
	// The mapping's own error as the codec pipeline hands it on.
	mapVersion := codec.Convert(&model.MegacoMessage{}, codec.Text, codec.Binary, codec.Options{Version: 9})
	for _, c := range []struct {
		name   string
		err    error
		grpc   codes.Code
		http   int
		reason string
		megaco uint32
	}{
		{"malformed", codecerr.New("ber", codecerr.Decode, codecerr.Malformed, "x"), codes.InvalidArgument, 400, "malformed", 403},
		{"codec limit", codecerr.New("ber", codecerr.Decode, codecerr.TooLarge, "x"), codes.InvalidArgument, 400, "too_large", 403},
		{"schema", codecerr.New("text", codecerr.Encode, codecerr.Schema, "x"), codes.InvalidArgument, 400, "schema", 403},
		{"version option", limits.CheckOption("ber", 9), codes.InvalidArgument, 400, "unsupported", 406},
		{"version field", limits.VersionError("per", codecerr.Decode, codecerr.AtBit(8), 4), codes.InvalidArgument, 400, "unsupported", 406},
		{"version of the mapping", mapVersion, codes.InvalidArgument, 400, "unsupported", 406},
		{"other unsupported", codecerr.New("text", codecerr.Encode, codecerr.Unsupported, "protocol version words, not a version error"), codes.InvalidArgument, 400, "unsupported", 403},
		{"termination ID", withCause(codecerr.Mapping, termid.ErrWidth), codes.InvalidArgument, 400, "mapping", 430},
		{"package", withCause(codecerr.Mapping, pkgs.ErrUnknown), codes.InvalidArgument, 400, "mapping", 440},
		{"value", withCause(codecerr.Mapping, sdp.ErrValue), codes.InvalidArgument, 400, "mapping", 449},
		{"undetected", fmt.Errorf("x: %w", codec.ErrUndetected), codes.InvalidArgument, 400, "malformed", 403},
		{"service limit", classed{Limit}, codes.ResourceExhausted, http.StatusRequestEntityTooLarge, "too_large", 500},
		{"request", classed{Request}, codes.InvalidArgument, 400, "internal", 500},
		{"busy", fmt.Errorf("w: %w", classed{Busy}), codes.Internal, http.StatusServiceUnavailable, "internal", 500},
		{"anything else", errors.New("boom"), codes.Internal, 500, "internal", 500},
	} {
		if got := GRPCCode(c.err); got != c.grpc {
			t.Errorf("%s: gRPC %v, want %v", c.name, got, c.grpc)
		}
		if got := HTTPStatus(c.err); got != c.http {
			t.Errorf("%s: HTTP %d, want %d", c.name, got, c.http)
		}
		if got := Reasons[ReasonIndex(c.err)]; got != c.reason {
			t.Errorf("%s: reason %q, want %q", c.name, got, c.reason)
		}
		if got := MegacoCode(c.err); got != c.megaco {
			t.Errorf("%s: Megaco code %d, want %d", c.name, got, c.megaco)
		}
	}
	if mapVersion == nil {
		t.Error("mapping accepted version 9")
	}
}

// TestReasons: the reason label's values are the codec error kinds' own
// labels and "internal", each once, so that the series' label set stays
// that of the kinds.
func TestReasons(t *testing.T) {
	var want []string
	for _, k := range codecerr.Kinds() {
		want = append(want, k.String())
	}
	want = append(want, "internal")
	if !slices.Equal(Reasons, want) {
		t.Errorf("Reasons %q, want %q", Reasons, want)
	}
}
