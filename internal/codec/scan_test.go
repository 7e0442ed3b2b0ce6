package codec

import (
	"errors"
	"strings"
	"testing"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// A codec without a scanner or rewriter says so; an unknown name is
// ErrUnknownCodec.
func TestScanSeam(t *testing.T) {
	var s scan.Summary
	if err := Scan("xml", nil, &s, limits.Limits{}); !errors.Is(err, ErrUnknownCodec) {
		t.Errorf("Scan(xml) = %v, want ErrUnknownCodec", err)
	}
	for _, d := range All() {
		if d.Scan == nil {
			err := Scan(d.Name, []byte("x"), &s, limits.Limits{})
			var e *codecerr.Error
			if !errors.As(err, &e) || e.Kind != codecerr.Unsupported || !strings.Contains(err.Error(), "not implemented") {
				t.Errorf("Scan(%s) = %v, want an unsupported error", d.Name, err)
			}
		}
		if d.Rewrite == nil {
			_, err := Rewrite(d.Name, nil, []byte("x"), &scan.Changes{}, limits.Limits{})
			if err == nil || !strings.Contains(err.Error(), "not implemented") {
				t.Errorf("Rewrite(%s) = %v, want an unsupported error", d.Name, err)
			}
		}
	}
}
