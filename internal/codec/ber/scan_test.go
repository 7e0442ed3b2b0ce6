package ber

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
)

// TestScanCorpus: for every corpus message, in OTP's definite form and
// in indefinite form, and at every depth, Scan reports what
// scan.FromModel reads from the decoded message at that depth, and its
// spans point at the IDs' encodings.
func TestScanCorpus(t *testing.T) {
	files := corpus.Files(t, ".ber")
	var got, want scan.Summary
	n := 0
	for _, name := range corpus.Names(files) {
		data := files[name]
		m, err := Decode(data, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, form := range [][]byte{data, toIndefinite(t, data)} {
			for _, depth := range depths {
				want.Want, got.Want = depth, depth
				scan.FromModel(m, false, &want)
				if err := Scan(form, &got, limits.Limits{}); err != nil {
					t.Fatalf("%s at %v: %v", name, depth, err)
				}
				if msg := diffSummary(&got, &want); msg != "" {
					t.Fatalf("%s at %v: %s", name, depth, msg)
				}
				if msg := checkSpans(form, &got); msg != "" {
					t.Fatalf("%s at %v: %s", name, depth, msg)
				}
			}
		}
		n++
	}
	t.Logf("scan = FromModel(decode) for %d/%d corpus messages, definite and indefinite, at depths %v", n, len(files), depths)
}

var depths = []scan.Depth{scan.Transactions, scan.Actions, scan.Commands, scan.Everything}

// diffSummary compares a scan with FromModel's summary, which has no
// positions.
func diffSummary(got, want *scan.Summary) string {
	g := *got
	g.MID.Span = scan.Span{}
	switch {
	case g.Want != want.Want || g.Version != want.Version || g.MID.Kind != want.MID.Kind || g.MID.Port != want.MID.Port ||
		!bytes.Equal(g.MID.Value, want.MID.Value):
		return fmt.Sprintf("header %d %+v, want %d %+v", g.Version, g.MID, want.Version, want.MID)
	case len(g.Transactions) != len(want.Transactions) || len(g.Actions) != len(want.Actions) ||
		len(g.Terminations) != len(want.Terminations) || len(g.Errors) != len(want.Errors):
		return fmt.Sprintf("counts %d/%d/%d/%d, want %d/%d/%d/%d", len(g.Transactions), len(g.Actions), len(g.Terminations), len(g.Errors),
			len(want.Transactions), len(want.Actions), len(want.Terminations), len(want.Errors))
	case !slices.Equal(g.Commands, want.Commands):
		return fmt.Sprintf("commands %+v, want %+v", g.Commands, want.Commands)
	}
	for i, x := range g.Transactions {
		x.IDSpan = scan.Span{}
		if x != want.Transactions[i] {
			return fmt.Sprintf("transaction %d: %+v, want %+v", i, x, want.Transactions[i])
		}
	}
	for i, x := range g.Actions {
		x.Span = scan.Span{}
		if x != want.Actions[i] {
			return fmt.Sprintf("action %d: %+v, want %+v", i, x, want.Actions[i])
		}
	}
	for i, x := range g.Terminations {
		y := want.Terminations[i]
		if x.Command != y.Command || x.Wildcarded != y.Wildcarded || !bytes.Equal(x.ID, y.ID) {
			return fmt.Sprintf("termination %d: %+v, want %+v", i, x, y)
		}
	}
	for i, x := range g.Errors {
		x.Span = scan.Span{}
		if x != want.Errors[i] {
			return fmt.Sprintf("error %d: %+v, want %+v", i, x, want.Errors[i])
		}
	}
	return ""
}

// checkSpans checks that every span holds the value reported: an
// INTEGER's contents octets for the IDs and codes, the id octets of a
// termination, the mId's alternative.
func checkSpans(data []byte, s *scan.Summary) string {
	d := &reader{data: data, lim: limits.Default}
	num := func(sp scan.Span) int64 {
		v, err := d.integer(&header{start: sp.Off, end: sp.End()}, 0, 1<<32-1)
		if err != nil || sp.Len == 0 {
			return -1
		}
		return v
	}
	for i, x := range s.Transactions {
		if num(x.IDSpan) != int64(x.ID) {
			return fmt.Sprintf("transaction %d: span %+v does not hold %d", i, x.IDSpan, x.ID)
		}
	}
	for i, x := range s.Actions {
		if num(x.Span) != int64(x.ContextID) {
			return fmt.Sprintf("action %d: span %+v does not hold %d", i, x.Span, x.ContextID)
		}
	}
	for i, x := range s.Errors {
		if num(x.Span) != int64(x.Code) {
			return fmt.Sprintf("error %d: span %+v does not hold %d", i, x.Span, x.Code)
		}
	}
	for i, x := range s.Terminations {
		if !bytes.Equal(data[x.Span.Off:x.Span.End()], x.ID) {
			return fmt.Sprintf("termination %d: span %+v does not hold %x", i, x.Span, x.ID)
		}
	}
	var h header
	if err := d.next(&h, s.MID.Span.Off, len(data)); err != nil || h.next != s.MID.Span.End() {
		return fmt.Sprintf("mId span %+v is not one element: %v", s.MID.Span, err)
	}
	return ""
}

// Once its lists have grown, a Summary is refilled with no allocation,
// at every depth.
func TestScanAllocates(t *testing.T) {
	msgs := corpus.List(t, ".ber")
	for _, depth := range depths {
		s := scan.Summary{Want: depth}
		scanAll := func() {
			for _, data := range msgs {
				if err := Scan(data, &s, limits.Limits{}); err != nil {
					t.Fatal(err)
				}
			}
		}
		scanAll()
		if n := testing.AllocsPerRun(10, scanAll); n != 0 {
			t.Errorf("%v: %v allocations per corpus scan, want 0", depth, n)
		}
	}
}

// Every prefix of a message, and the message with any byte changed, fails
// with a *codecerr.Error or scans: never a panic.
func TestScanDamaged(t *testing.T) {
	data := corpus.Read(t, "msg03.ber")
	var s scan.Summary
	for i := range data {
		if err := Scan(data[:i], &s, limits.Limits{}); err == nil {
			t.Fatalf("prefix of %d bytes scans", i)
		} else {
			corpus.CodecError(t, err, "ber")
		}
		damaged := bytes.Clone(data)
		for _, b := range []byte{0, 0x80, 0xff, data[i] ^ 0x20} {
			damaged[i] = b
			if err := Scan(damaged, &s, limits.Limits{}); err != nil {
				corpus.CodecError(t, err, "ber")
			}
		}
	}
}

// The limits hold: a nesting deeper than MaxDepth, or more elements than
// MaxElements, is refused.
func TestScanLimits(t *testing.T) {
	data := corpus.Read(t, "msg03.ber")
	var s scan.Summary
	for _, lim := range []limits.Limits{{MaxDepth: 3}, {MaxElements: 5}, {MaxSize: len(data) - 1}} {
		err := Scan(data, &s, lim)
		if err == nil {
			t.Fatalf("%+v: no error", lim)
		}
		corpus.CodecError(t, err, "ber")
	}
}

// The lean path takes every corpus message (OTP's encoder's form) at
// every depth, and reports what the general scanner does.
func TestScanLean(t *testing.T) {
	files := corpus.Files(t, ".ber")
	var lean, general scan.Summary
	for _, name := range corpus.Names(files) {
		data := files[name]
		for _, depth := range depths {
			lean.Want, general.Want = depth, depth
			lean.Reset()
			if !leanScan(data, &lean) {
				t.Fatalf("%s at %v: the lean scanner gives up", name, depth)
			}
			general.Reset()
			sc := scanner{reader: reader{data: data, lim: limits.Default}, s: &general}
			if err := sc.message(); err != nil {
				t.Fatalf("%s at %v: %v", name, depth, err)
			}
			if !reflect.DeepEqual(lean, general) {
				t.Fatalf("%s at %v: lean %+v, general %+v", name, depth, lean, general)
			}
		}
	}
}
