package codec

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
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

// FromModel reports the same structure for a message decoded from BER
// (binary form) and from its compact text (text form): the IDs, kinds,
// counts and error codes do not depend on the form.
func TestFromModelForms(t *testing.T) {
	bers, texts := corpus.Files(t, ".ber"), corpus.Files(t, ".compact.txt")
	bc, _ := Lookup("ber", Options{})
	tc, _ := Lookup("compact", Options{})
	var sb, st scan.Summary
	n := 0
	for _, name := range corpus.Names(bers) {
		mb, err := bc.Decode(bers[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		mt, err := tc.Decode(texts[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		scan.FromModel(mb, false, &sb)
		scan.FromModel(mt, true, &st)
		if msg := sameShape(&sb, &st); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
		if len(sb.Transactions) == 0 && len(sb.Errors) == 0 {
			t.Errorf("%s: an empty summary", name)
		}
		n++
	}
	t.Logf("FromModel: %d/%d corpus messages agree in binary and text form", n, len(bers))
}

// sameShape compares what does not depend on the form.
func sameShape(a, b *scan.Summary) string {
	switch {
	case a.Version != b.Version || a.MID.Kind != b.MID.Kind || a.MID.Port != b.MID.Port:
		return fmt.Sprintf("header %d %v %d vs %d %v %d", a.Version, a.MID.Kind, a.MID.Port, b.Version, b.MID.Kind, b.MID.Port)
	case !slices.Equal(a.Transactions, b.Transactions):
		return fmt.Sprintf("transactions %+v vs %+v", a.Transactions, b.Transactions)
	case !slices.Equal(a.Actions, b.Actions):
		return fmt.Sprintf("actions %+v vs %+v", a.Actions, b.Actions)
	case !slices.Equal(a.Commands, b.Commands):
		return fmt.Sprintf("commands %+v vs %+v", a.Commands, b.Commands)
	case !slices.Equal(a.Errors, b.Errors):
		return fmt.Sprintf("errors %+v vs %+v", a.Errors, b.Errors)
	case len(a.Terminations) != len(b.Terminations):
		return fmt.Sprintf("%d terminations vs %d", len(a.Terminations), len(b.Terminations))
	}
	for i := range a.Terminations {
		x, y := a.Terminations[i], b.Terminations[i]
		if x.Command != y.Command || x.Wildcarded != y.Wildcarded {
			return fmt.Sprintf("termination %d: %+v vs %+v", i, x, y)
		}
	}
	return ""
}
