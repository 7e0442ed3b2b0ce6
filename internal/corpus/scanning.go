package corpus

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/model"
)

// Rewriter is a codec's copy-with-changes (codec.Rewriter).
type Rewriter func(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error)

// ChangeCase is one set of changes the rewrite checks apply.
type ChangeCase struct {
	Name    string
	Changes scan.Changes
}

// ChangeCases are changes that move IDs across every length: +1, to 0,
// to the largest value, to small and to 4-octet values, a new mId of
// every kind, with and without a port, and termination IDs of the same
// length and one longer.
func ChangeCases() []ChangeCase {
	plus1 := func(v uint32) uint32 { return v + 1 }
	zero := func(uint32) uint32 { return 0 }
	top := func(uint32) uint32 { return 0xFFFFFFFF }
	small := func(v uint32) uint32 { return v % 200 }
	large := func(v uint32) uint32 { return v | 0x01000000 }
	port := model.Opt[uint32]{Present: true, Value: 2944}
	mids := []model.MId{
		{Kind: model.MId_Ip4Address, Ip4Address: &model.IP4Address{Address: []byte{10, 0, 0, 1}, PortNumber: port}},
		{Kind: model.MId_Ip4Address, Ip4Address: &model.IP4Address{Address: []byte{192, 168, 1, 2}}},
		{Kind: model.MId_Ip6Address, Ip6Address: &model.IP6Address{Address: bytes.Repeat([]byte{0xfe}, 16), PortNumber: port}},
		{Kind: model.MId_DomainName, DomainName: &model.DomainName{Name: "mgc.example.net", PortNumber: port}},
		{Kind: model.MId_DomainName, DomainName: &model.DomainName{Name: "a"}},
		{Kind: model.MId_DeviceName, DeviceName: "mg/1"},
		{Kind: model.MId_MtpAddress, MtpAddress: []byte{0x12, 0x34, 0x56}},
	}
	cases := []ChangeCase{
		{"tx+1", scan.Changes{TransactionIDs: plus1}},
		{"ctx+1", scan.Changes{ContextIDs: plus1}},
		{"both zero", scan.Changes{TransactionIDs: zero, ContextIDs: zero}},
		{"both top", scan.Changes{TransactionIDs: top, ContextIDs: top}},
		{"both small", scan.Changes{TransactionIDs: small, ContextIDs: small}},
		{"both large", scan.Changes{TransactionIDs: large, ContextIDs: large}},
		{"none", scan.Changes{}},
		{"terms same length", scan.Changes{TerminationIDs: bumpTerm}},
		{"terms longer", scan.Changes{TerminationIDs: func(id []byte) []byte { return append(bytes.Clone(id), '7') }}},
		{"all", scan.Changes{TransactionIDs: large, ContextIDs: small, TerminationIDs: bumpTerm}},
	}
	for i := range mids {
		cases = append(cases, ChangeCase{"mid " + mids[i].Kind.String(), scan.Changes{MID: &mids[i], TransactionIDs: plus1}})
	}
	return cases
}

// bumpTerm changes a termination ID without changing its length, into one
// as valid in text as the old: each digit to the next (9 to 0), each
// letter to the other case, and in binary IDs each octet that is no
// printable character (0x00-0x1F, 0x80-0xFF) to the other half; the
// others stay.
func bumpTerm(id []byte) []byte {
	out := bytes.Clone(id)
	for i, c := range out {
		switch {
		case c >= '0' && c <= '9':
			out[i] = '0' + (c-'0'+1)%10
		case c|0x20 >= 'a' && c|0x20 <= 'z':
			out[i] = c ^ 0x20
		case c < 0x20 || c >= 0x80:
			out[i] = c ^ 0x80
		}
	}
	return out
}

// CheckRewrite checks rewrite against decode -> Apply -> encode with c,
// byte for byte, for every corpus file ending in ext and every change
// case; to(data) turns a corpus file into the codec's encoding (nil: as
// it is).
func CheckRewrite(t *testing.T, ext string, c Codec, rewrite Rewriter, to func([]byte) []byte) {
	files := Files(t, ext)
	n := 0
	for _, name := range Names(files) {
		data := files[name]
		if to != nil {
			data = to(data)
		}
		for _, cc := range ChangeCases() {
			m, err := c.Decode(data)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			scan.Apply(m, &cc.Changes)
			want, werr := c.Append(nil, m)
			got, err := rewrite([]byte("prefix"), data, &cc.Changes, limits.Limits{})
			switch {
			case werr != nil:
				// A change the schema cannot take (a v3 mId kind in v1?):
				// the rewrite must fail too.
				if err == nil {
					t.Errorf("%s, %s: rewrite succeeds where encode fails: %v", name, cc.Name, werr)
				}
			case err != nil:
				t.Errorf("%s, %s: %v", name, cc.Name, err)
			case string(got[:6]) != "prefix" || !bytes.Equal(got[6:], want):
				t.Errorf("%s, %s: rewrite differs from decode -> change -> encode\n got %x\nwant %x", name, cc.Name, got, want)
			default:
				n++
			}
		}
	}
	t.Logf("%s: %d rewrites byte-identical to decode -> change -> encode", ext, n)
}

// SameSummary compares two summaries but for the spans, which FromModel
// does not have: "" when they agree, else what differs.
func SameSummary(got, want *scan.Summary) string {
	g, w := noSpans(got), noSpans(want)
	switch {
	case g.Version != w.Version:
		return fmt.Sprintf("version %d, want %d", g.Version, w.Version)
	case !reflect.DeepEqual(g.MID, w.MID):
		return fmt.Sprintf("mId %+v, want %+v", g.MID, w.MID)
	}
	for _, l := range []struct {
		name      string
		got, want any
	}{
		{"transactions", g.Transactions, w.Transactions},
		{"actions", g.Actions, w.Actions},
		{"commands", g.Commands, w.Commands},
		{"terminations", g.Terminations, w.Terminations},
		{"errors", g.Errors, w.Errors},
	} {
		if !reflect.DeepEqual(l.got, l.want) {
			return fmt.Sprintf("%s\n %+v\nwant %+v", l.name, l.got, l.want)
		}
	}
	return ""
}

// SameShape is SameSummary for the summaries of one message in two forms
// (binary and text): all but the byte values (the mId's and the
// termination IDs'), which the form decides, must agree.
func SameShape(a, b *scan.Summary) string {
	x, y := noSpans(a), noSpans(b)
	for _, c := range []*scan.Summary{&x, &y} {
		c.MID.Value = nil
		for i := range c.Terminations {
			c.Terminations[i].ID = nil
		}
	}
	return SameSummary(&x, &y)
}

// noSpans is a copy of s with the spans zeroed and empty lists nil.
func noSpans(s *scan.Summary) scan.Summary {
	c := scan.Summary{Version: s.Version, MID: s.MID}
	c.MID.Span = scan.Span{}
	for _, t := range s.Transactions {
		t.IDSpan = scan.Span{}
		c.Transactions = append(c.Transactions, t)
	}
	for _, a := range s.Actions {
		a.Span = scan.Span{}
		c.Actions = append(c.Actions, a)
	}
	c.Commands = append(c.Commands, s.Commands...)
	for _, t := range s.Terminations {
		t.Span = scan.Span{}
		if len(t.ID) == 0 {
			t.ID = nil
		}
		c.Terminations = append(c.Terminations, t)
	}
	for _, e := range s.Errors {
		e.Span = scan.Span{}
		c.Errors = append(c.Errors, e)
	}
	return c
}

// Scanner is a codec's scanner (codec.Scanner).
type Scanner func(data []byte, s *scan.Summary, lim limits.Limits) error

// CheckScanAllocs checks that once a Summary has grown, scanning msgs
// again allocates nothing.
func CheckScanAllocs(t *testing.T, msgs [][]byte, sc Scanner) {
	t.Helper()
	var s scan.Summary
	run := func() {
		for _, data := range msgs {
			if err := sc(data, &s, limits.Limits{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	run()
	if n := testing.AllocsPerRun(5, run); n != 0 {
		t.Errorf("%v allocations per scan of %d messages, want 0", n, len(msgs))
	}
}
