package scan_test

import (
	"bytes"
	"slices"
	"testing"

	"megaco/internal/codec/ber"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
)

var depths = []scan.Depth{scan.Transactions, scan.Actions, scan.Commands, scan.Everything}

// Each depth reaches itself and the shallower ones, not the deeper;
// Everything (the zero value), and a value past the last, reach all.
func TestDepthReaches(t *testing.T) {
	for i, d := range depths {
		for j, level := range depths {
			if got := d.Reaches(level); got != (j <= i) {
				t.Errorf("%v.Reaches(%v) = %v", d, level, got)
			}
		}
		if !scan.Depth(200).Reaches(d) {
			t.Errorf("Depth(200) does not reach %v", d)
		}
	}
	if scan.Everything != 0 || scan.Depth(200).String() != "unknown" {
		t.Errorf("Everything = %d, Depth(200) = %v", scan.Everything, scan.Depth(200))
	}
}

// Want is the caller's: Reset and FromModel keep it.
func TestResetKeepsWant(t *testing.T) {
	m := corpus.Decoded(t, ".ber", ber.Codec{})[0]
	s := scan.Summary{Want: scan.Actions}
	scan.FromModel(m, false, &s)
	s.Reset()
	if s.Want != scan.Actions {
		t.Errorf("Want %v after FromModel and Reset, want actions", s.Want)
	}
}

// FromModel at each depth fills exactly the lists the depth names, each
// as the full summary has it, and the errors of the structures it reads.
// The corpus has messages where each depth leaves something out.
func TestFromModelDepth(t *testing.T) {
	var full, s scan.Summary
	cut := map[scan.Depth]int{}
	for _, m := range corpus.Decoded(t, ".ber", ber.Codec{}) {
		scan.FromModel(m, false, &full)
		for _, d := range depths {
			s.Want = d
			scan.FromModel(m, false, &s)
			want := cutTo(&full, d)
			if msg := diff(&s, &want); msg != "" {
				t.Fatalf("%v: %s", d, msg)
			}
			if len(s.Actions)+len(s.Commands)+len(s.Terminations)+len(s.Errors) <
				len(full.Actions)+len(full.Commands)+len(full.Terminations)+len(full.Errors) {
				cut[d]++
			}
		}
	}
	for _, d := range depths[:3] {
		if cut[d] == 0 {
			t.Errorf("no corpus message has anything below depth %v", d)
		}
	}
	t.Logf("messages with something below the depth: %v", cut)
}

// cutTo is full without what lies below depth d. An error with no command
// is a transaction's when its reply has no action (a reply has either a
// transactionError or action replies), else an action reply's.
func cutTo(full *scan.Summary, d scan.Depth) scan.Summary {
	s := *full
	s.Want = d
	s.Errors = nil
	hasActions := map[int]bool{}
	for _, a := range full.Actions {
		hasActions[a.Tx] = true
	}
	for _, e := range full.Errors {
		level := scan.Everything
		switch {
		case e.Tx < 0, e.Command < 0 && !hasActions[e.Tx]:
			level = scan.Transactions
		case e.Command < 0:
			level = scan.Actions
		}
		if d.Reaches(level) {
			s.Errors = append(s.Errors, e)
		}
	}
	if !d.Reaches(scan.Actions) {
		s.Actions = nil
	}
	if !d.Reaches(scan.Commands) {
		s.Commands = nil
	}
	if !d.Reaches(scan.Everything) {
		s.Terminations = nil
	}
	return s
}

func diff(got, want *scan.Summary) string {
	switch {
	case got.Want != want.Want || got.Version != want.Version || got.MID.Kind != want.MID.Kind || got.MID.Port != want.MID.Port:
		return "header differs"
	case !slices.Equal(got.Transactions, want.Transactions):
		return "transactions differ"
	case !slices.Equal(got.Actions, want.Actions):
		return "actions differ"
	case !slices.Equal(got.Commands, want.Commands):
		return "commands differ"
	case !slices.Equal(got.Errors, want.Errors):
		return "errors differ"
	case !slices.EqualFunc(got.Terminations, want.Terminations, func(x, y scan.Termination) bool {
		return x.Command == y.Command && x.Wildcarded == y.Wildcarded && bytes.Equal(x.ID, y.ID)
	}):
		return "terminations differ"
	}
	return ""
}
