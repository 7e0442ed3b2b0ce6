package text

import (
	"slices"
	"testing"

	"megaco/internal/codec/scan"
)

// Salvage reads the transactions at the top level only, steps over
// quoted strings (whatever braces they hold) and comments, and goes on
// past text that does not parse.
func TestSalvage(t *testing.T) {
	for _, c := range []struct {
		in      string
		version int
		reqs    []uint32
		kinds   []scan.TxKind // of the rest, in order
		errs    int
	}{
		{in: "MEGACO/2 [1.2.3.4]:5 Transaction = 12 { Context = - { Local { v=0 ; {\n } } } Reply = 13 { } T=14{ \"}\" ",
			version: 2, reqs: []uint32{12, 14}, kinds: []scan.TxKind{scan.Reply}},
		{in: "  !/3 <a> T=1{C=1{A=a{?? \"T=9{\" ; T=8{\n}}} pn=2{} k{3} Sm=4/1 ER=400{}",
			version: 3, reqs: []uint32{1}, kinds: []scan.TxKind{scan.Pending, scan.ResponseAck, scan.SegmentReply}, errs: 1},
		{in: "!/1 m Trans = 1 {} Transaction=99999999999{} T={} T=7 {", version: 1, reqs: []uint32{7}},
		{in: "!/250 m T=1{}", version: 99, reqs: []uint32{1}},
		{in: "!/1 m T=1{} T=23", version: 1, reqs: []uint32{1}}, // 23 may be cut
		{in: "MEGACO 1 T=1{}"},
		{in: "!/ T=1{}"},
	} {
		var s scan.Summary
		Salvage([]byte(c.in), &s, 64)
		var reqs []uint32
		var kinds []scan.TxKind
		for _, tr := range s.Transactions {
			if tr.Kind == scan.Request {
				reqs = append(reqs, tr.ID)
			} else {
				kinds = append(kinds, tr.Kind)
			}
		}
		if s.Version != c.version || !slices.Equal(reqs, c.reqs) || !slices.Equal(kinds, c.kinds) || len(s.Errors) != c.errs {
			t.Errorf("%q: version %d, requests %v, others %v, errors %d", c.in, s.Version, reqs, kinds, len(s.Errors))
		}
	}
}
