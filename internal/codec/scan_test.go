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
	"megaco/internal/model"
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
		if msg := corpus.SameShape(&sb, &st); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
		if len(sb.Transactions) == 0 && len(sb.Errors) == 0 {
			t.Errorf("%s: an empty summary", name)
		}
		n++
	}
	t.Logf("FromModel: %d/%d corpus messages agree in binary and text form", n, len(bers))
}

// Every scanner in the table, asked for a depth, keeps Want and fills
// at least the lists the depth names, as a full scan fills them (it may
// fill more: one that ignores Want is correct).
func TestScanDepthContract(t *testing.T) {
	// The messages in each form: decoded from BER and from compact text.
	msgs := map[Form][]*model.MegacoMessage{}
	for form, src := range map[Form][2]string{Binary: {"ber", ".ber"}, Text: {"compact", ".compact.txt"}} {
		c, _ := Lookup(src[0], Options{})
		msgs[form] = corpus.Decoded(t, src[1], c)
	}
	var full, s scan.Summary
	for _, d := range All() {
		if d.Scan == nil {
			continue
		}
		c := d.New(0, limits.Limits{})
		for i, m := range msgs[d.Form] {
			enc, err := c.Append(nil, m)
			if err != nil {
				t.Fatalf("%s: message %d: %v", d.Name, i, err)
			}
			if err := Scan(d.Name, enc, &full, limits.Limits{}); err != nil {
				t.Fatalf("%s: message %d: %v", d.Name, i, err)
			}
			for _, depth := range []scan.Depth{scan.Transactions, scan.Actions, scan.Commands} {
				s.Want = depth
				if err := Scan(d.Name, enc, &s, limits.Limits{}); err != nil {
					t.Fatalf("%s: message %d at %v: %v", d.Name, i, depth, err)
				}
				if msg := covers(&s, &full, depth); msg != "" {
					t.Fatalf("%s: message %d at %v: %s", d.Name, i, depth, msg)
				}
			}
		}
	}
}

// covers checks that s, scanned at depth, has what full has down to it.
func covers(s, full *scan.Summary, depth scan.Depth) string {
	switch {
	case s.Want != depth:
		return fmt.Sprintf("Want is %v after the scan", s.Want)
	case s.Version != full.Version || s.MID.Kind != full.MID.Kind || s.MID.Port != full.MID.Port:
		return "header differs"
	case !slices.Equal(s.Transactions, full.Transactions):
		return fmt.Sprintf("transactions %+v, want %+v", s.Transactions, full.Transactions)
	case depth.Reaches(scan.Actions) && !slices.Equal(s.Actions, full.Actions):
		return fmt.Sprintf("actions %+v, want %+v", s.Actions, full.Actions)
	case depth.Reaches(scan.Commands) && !slices.Equal(s.Commands, full.Commands):
		return fmt.Sprintf("commands %+v, want %+v", s.Commands, full.Commands)
	}
	return ""
}

// NewRewriter gives what Rewrite gives, for every codec, call after call
// (a text rewriter's third call takes its template); an unknown name is
// ErrUnknownCodec.
func TestNewRewriter(t *testing.T) {
	if _, err := NewRewriter("xml"); !errors.Is(err, ErrUnknownCodec) {
		t.Errorf("NewRewriter(xml) = %v, want ErrUnknownCodec", err)
	}
	msg := []byte("!/2 [10.0.0.1]:2944 T=7{C=3{N=00000000/00000000/00000001{OE=2{al/of}}}}")
	ch := &scan.Changes{TransactionIDs: func(v uint32) uint32 { return v + 100 }}
	for _, d := range All() {
		if d.Rewrite == nil {
			continue
		}
		enc, _, err := Transcode(nil, msg, "compact", d.Name, Options{})
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		want, err := Rewrite(d.Name, nil, enc, ch, limits.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		rw, err := NewRewriter(d.Name)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if got, err := rw(nil, enc, ch, limits.Limits{}); err != nil || !slices.Equal(got, want) {
				t.Errorf("%s call %d: %q, %v; want %q", d.Name, i, got, err, want)
			}
		}
	}
}
