package text

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// scanCase is one text message to scan, named for the test's messages.
type scanCase struct {
	name string
	data []byte
}

// scanCases are the corpus in both styles, the encoder's own output of
// every corpus message in both styles, and RFC 3525's appendix A.
func scanCases(t testing.TB) []scanCase {
	t.Helper()
	var out []scanCase
	for _, c := range loadCorpus(t) {
		out = append(out, scanCase{c.name + ".pretty", c.pretty}, scanCase{c.name + ".compact", c.compact})
		m := textForm(t, c)
		for _, st := range []Style{Pretty, Compact} {
			b, err := Append(nil, m, st, Options{Version: c.version})
			if err != nil {
				t.Fatalf("%s: encode %v: %v", c.name, st, err)
			}
			out = append(out, scanCase{c.name + ".encoded-" + st.String(), b})
		}
	}
	paths, _ := filepath.Glob("../../../corpus/appendix-a/a*.txt")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, scanCase{filepath.Base(p), b})
	}
	return out
}

// Scan reports what FromModel makes of the decoded message, for every
// message that decodes, and its spans hold what it reports.
func TestScanMatchesDecode(t *testing.T) {
	var got, want scan.Summary
	n := 0
	for _, c := range scanCases(t) {
		m, err := Decode(c.data, Options{})
		if err != nil {
			continue // appendix A has messages the model cannot hold
		}
		if err := Scan(c.data, &got, limits.Limits{}); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		scan.FromModel(m, true, &want)
		if msg := summaryDiff(&got, &want); msg != "" {
			t.Errorf("%s: %s", c.name, msg)
		}
		if msg := checkSpans(c.data, &got); msg != "" {
			t.Errorf("%s: %s", c.name, msg)
		}
		n++
	}
	if n < 4*149 {
		t.Errorf("only %d messages compared", n)
	}
	t.Logf("%d messages scanned as decoded", n)
}

// summaryDiff compares a scan with FromModel's, leaving out the spans and
// the mId's value (FromModel has the model's address octets).
func summaryDiff(got, want *scan.Summary) string {
	noSpans := func(s *scan.Summary) *scan.Summary {
		c := *s
		c.MID = scan.MID{Kind: s.MID.Kind, Port: s.MID.Port}
		c.Transactions = slices.Clone(s.Transactions)
		for i := range c.Transactions {
			c.Transactions[i].IDSpan = scan.Span{}
		}
		c.Actions = slices.Clone(s.Actions)
		for i := range c.Actions {
			c.Actions[i].Span = scan.Span{}
		}
		c.Errors = slices.Clone(s.Errors)
		for i := range c.Errors {
			c.Errors[i].Span = scan.Span{}
		}
		c.Terminations = slices.Clone(s.Terminations)
		for i := range c.Terminations {
			c.Terminations[i].Span = scan.Span{}
		}
		return &c
	}
	g, w := noSpans(got), noSpans(want)
	switch {
	case g.Version != w.Version || g.MID.Kind != w.MID.Kind || g.MID.Port != w.MID.Port:
		return fmt.Sprintf("header %d %+v, want %d %+v", g.Version, g.MID, w.Version, w.MID)
	case !slices.Equal(g.Transactions, w.Transactions):
		return fmt.Sprintf("transactions\n%+v\nwant\n%+v", g.Transactions, w.Transactions)
	case !slices.Equal(g.Actions, w.Actions):
		return fmt.Sprintf("actions\n%+v\nwant\n%+v", g.Actions, w.Actions)
	case !slices.Equal(g.Commands, w.Commands):
		return fmt.Sprintf("commands\n%+v\nwant\n%+v", g.Commands, w.Commands)
	case !slices.Equal(g.Errors, w.Errors):
		return fmt.Sprintf("errors\n%+v\nwant\n%+v", g.Errors, w.Errors)
	case !slices.EqualFunc(g.Terminations, w.Terminations, func(a, b scan.Termination) bool {
		return a.Command == b.Command && a.Wildcarded == b.Wildcarded && bytes.Equal(a.ID, b.ID)
	}):
		return fmt.Sprintf("terminations\n%q\nwant\n%q", termNames(g), termNames(w))
	}
	return ""
}

func termNames(s *scan.Summary) []string {
	var out []string
	for _, t := range s.Terminations {
		out = append(out, strconv.Itoa(t.Command)+":"+string(t.ID))
	}
	return out
}

// checkSpans checks that each span holds the value reported.
func checkSpans(data []byte, s *scan.Summary) string {
	at := func(sp scan.Span) string { return string(data[sp.Off:sp.End()]) }
	if got := at(s.MID.Span); !bytes.HasPrefix([]byte(got), s.MID.Value) {
		return fmt.Sprintf("mId span %q, value %q", got, s.MID.Value)
	}
	// A number may be written with leading zeros.
	value := func(sp scan.Span) uint64 {
		switch t := at(sp); t {
		case "-":
			return 0
		case "$":
			return 0xFFFFFFFE
		case "*":
			return 0xFFFFFFFF
		default:
			v, err := strconv.ParseUint(t, 10, 32)
			if err != nil {
				return 1 << 40
			}
			return v
		}
	}
	for _, t := range s.Transactions {
		if value(t.IDSpan) != uint64(t.ID) {
			return fmt.Sprintf("transaction span %q, ID %d", at(t.IDSpan), t.ID)
		}
	}
	for _, a := range s.Actions {
		if value(a.Span) != uint64(a.ContextID) {
			return fmt.Sprintf("context span %q, ID %d", at(a.Span), a.ContextID)
		}
	}
	for _, e := range s.Errors {
		if value(e.Span) != uint64(e.Code) {
			return fmt.Sprintf("error span %q, code %d", at(e.Span), e.Code)
		}
	}
	for _, tm := range s.Terminations {
		if got := at(tm.Span); got != string(tm.ID) {
			return fmt.Sprintf("termination span %q, ID %q", got, tm.ID)
		}
	}
	return ""
}

// What the scan reports beyond the corpus: long and short tokens in any
// case, comments, prefixes, segments, ack ranges, special context IDs,
// braces in quoted strings and SDP, and errors at every level.
func TestScanConstructs(t *testing.T) {
	msg := "; a comment\n!/3 [10.0.0.1]:2944\n" +
		"T=7{C=${o-w-add=a/*{M{L{v=0 \\} {\n},R{x}},E=1{al/of(strict=\"{\")}}," +
		"notify=t1{OE=2{x},ER=402{\"}\"}}}}" +
		"reply=8/2/END{IA,context=-{AV=Context{x,y},Error=433{}}}" +
		"K{9-11,12}SM=13/4 PN=14{}P=15{ER=500{}}"
	var s scan.Summary
	if err := Scan([]byte(msg), &s, limits.Limits{}); err != nil {
		t.Fatal(err)
	}
	if s.Version != 3 || s.MID.Kind != scan.IP4Address || string(s.MID.Value) != "[10.0.0.1]" || s.MID.Port != 2944 {
		t.Errorf("header %d %+v", s.Version, s.MID)
	}
	wantTx := []scan.Transaction{
		{Kind: scan.Request, ID: 7, LastID: 7},
		{Kind: scan.Reply, ID: 8, LastID: 8, Segment: 2, Complete: true, ImmAckRequired: true},
		{Kind: scan.ResponseAck, ID: 9, LastID: 11},
		{Kind: scan.ResponseAck, ID: 12, LastID: 12},
		{Kind: scan.SegmentReply, ID: 13, LastID: 13, Segment: 4},
		{Kind: scan.Pending, ID: 14, LastID: 14},
		{Kind: scan.Reply, ID: 15, LastID: 15},
	}
	wantAct := []scan.Action{{Tx: 0, ContextID: 0xFFFFFFFE}, {Tx: 1, ContextID: 0}}
	wantCmd := []scan.Command{
		{Action: 0, Kind: scan.Add, Optional: true, Wildcard: true},
		{Action: 0, Kind: scan.Notify},
		{Action: 1, Kind: scan.AuditValue, Reply: true},
	}
	wantErr := []scan.Error{{Tx: 1, Command: -1, Code: 433}, {Tx: 0, Command: 1, Code: 402}, {Tx: 6, Command: -1, Code: 500}}
	slices.SortStableFunc(wantErr, func(a, b scan.Error) int { return a.Tx - b.Tx })
	want := scan.Summary{Version: 3, Transactions: wantTx, Actions: wantAct, Commands: wantCmd, Errors: wantErr,
		Terminations: []scan.Termination{{Command: 0, ID: []byte("a/*"), Wildcarded: true}, {Command: 1, ID: []byte("t1")},
			{Command: 2, ID: []byte("x")}, {Command: 2, ID: []byte("y")}}}
	want.MID = scan.MID{Kind: scan.IP4Address, Port: 2944}
	if msg := summaryDiff(&s, &want); msg != "" {
		t.Error(msg)
	}
	if msg := checkSpans([]byte(msg), &s); msg != "" {
		t.Error(msg)
	}
}

// An audit request's v3 list of termination IDs counts each ID once, as
// FromModel does.
func TestScanAuditList(t *testing.T) {
	msg := []byte("!/3 [1.2.3.4] T=1{C=1{AV=[a,b]{AT{}}}}")
	m, err := Decode(msg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got, want scan.Summary
	if err := Scan(msg, &got, limits.Limits{}); err != nil {
		t.Fatal(err)
	}
	scan.FromModel(m, true, &want)
	if msg := summaryDiff(&got, &want); msg != "" || len(got.Terminations) != 2 {
		t.Errorf("%d terminations: %s", len(got.Terminations), msg)
	}
}

// A message-level error, an MTP mId, a device name and a domain name.
func TestScanHeaders(t *testing.T) {
	for _, c := range []struct {
		msg   string
		kind  scan.MIDKind
		value string
		port  int
	}{
		{"MEGACO/1 <mg.example.net>:55 Error=400{\"x\"}", scan.DomainName, "<mg.example.net>", 55},
		{"!/2 mtp{0A0B0C0D}\nER=401{}", scan.MTPAddress, "mtp{0A0B0C0D}", -1},
		{"!/2 mg/one ER=402{}", scan.DeviceName, "mg/one", -1},
		{"!/2 [::1] ER=403{}", scan.IP6Address, "[::1]", -1},
	} {
		var s scan.Summary
		if err := Scan([]byte(c.msg), &s, limits.Limits{}); err != nil {
			t.Errorf("%q: %v", c.msg, err)
			continue
		}
		code, ok := s.MessageError()
		if s.MID.Kind != c.kind || string(s.MID.Value) != c.value || s.MID.Port != c.port || !ok || code < 400 {
			t.Errorf("%q: %+v, error %d %v", c.msg, s.MID, code, ok)
		}
	}
}

// Bad input fails with a positioned error; limits hold.
func TestScanErrors(t *testing.T) {
	for _, c := range []struct {
		msg  string
		lim  limits.Limits
		kind codecerr.Kind
		line int
	}{
		{"", limits.Limits{}, codecerr.Malformed, 1},
		{"HELLO/1 [1.2.3.4]", limits.Limits{}, codecerr.Malformed, 1},
		{"!/9 [1.2.3.4] T=1{C=1{}}", limits.Limits{}, codecerr.Unsupported, 1},
		{"!/1 [1.2.3.4]\nT=1{C=1{A=x{M{", limits.Limits{}, codecerr.Malformed, 2},
		{"!/1 [1.2.3.4]\n\nT=99999999999{C=1{}}", limits.Limits{}, codecerr.Malformed, 3},
		{"!/1 [1.2.3.4] T=1{C=1{A=x{M{\"}}}}}", limits.Limits{}, codecerr.Malformed, 1},
		{"!/1 [1.2.3.4] T=1{C=1{A=x{M{{{{{}}}}}}}}", limits.Limits{MaxDepth: 4}, codecerr.TooLarge, 1},
		{"!/1 [1.2.3.4] T=1{C=1{}}", limits.Limits{MaxSize: 10}, codecerr.TooLarge, 1},
		{"!/1 [1.2.3.4] T=1{C=1{A=a,A=b,A=c}}", limits.Limits{MaxElements: 4}, codecerr.TooLarge, 1},
		{"!/1 [1.2.3.4] X=1{}", limits.Limits{}, codecerr.Malformed, 1},
	} {
		var s scan.Summary
		err := Compact.Scan([]byte(c.msg), &s, c.lim)
		e, ok := codecerr.As(err)
		if !ok || e.Kind != c.kind || e.Codec != "compact" || e.Pos.Line != c.line {
			t.Errorf("%q: %v (%#v), want a %v error on line %d", c.msg, err, e, c.kind, c.line)
		}
	}
}

// Once its lists have grown, a Summary is refilled without allocating.
func TestScanAllocs(t *testing.T) {
	cases := scanCases(t)
	var s scan.Summary
	for _, c := range cases {
		_ = Scan(c.data, &s, limits.Limits{})
	}
	allocs := testing.AllocsPerRun(5, func() {
		for _, c := range cases {
			_ = Scan(c.data, &s, limits.Limits{})
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run over the corpus, want 0", allocs)
	}
}

// Scanning arbitrary bytes at any depth ends with a summary or an error,
// never a panic; the spans of a summary hold what it reports, and a
// message the decoder takes scans to FromModel's summary of it at that
// depth.
func FuzzScan(f *testing.F) {
	for _, c := range scanCases(f) {
		f.Add(c.data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, derr := Decode(data, Options{})
		for _, d := range []scan.Depth{scan.Everything, scan.Transactions, scan.Actions, scan.Commands} {
			flatAgrees(t, data, d)
			got := scan.Summary{Want: d}
			err := Scan(data, &got, limits.Limits{})
			if err != nil {
				if _, ok := codecerr.As(err); !ok {
					t.Fatalf("%v: error %v is not a *codecerr.Error", d, err)
				}
				if derr == nil {
					t.Fatalf("%v: the message decodes, but Scan: %v", d, err)
				}
				continue
			}
			if msg := checkSpans(data, &got); msg != "" {
				t.Fatalf("%v: %s", d, msg)
			}
			if derr != nil {
				continue
			}
			want := scan.Summary{Want: d}
			scan.FromModel(m, true, &want)
			if msg := summaryDiff(&got, &want); msg != "" {
				t.Fatalf("%v: %s", d, msg)
			}
		}
	})
}

// skimKeyword knows the keywords the skimmer reads as the decoder's table
// does, in either case, and no other.
func TestSkimKeywords(t *testing.T) {
	for _, k := range lexKeywordSpellings {
		want := 0
		if commandKind(k.tok) != 0 {
			want = k.tok
		}
		switch k.tok {
		case transToken, replyToken, pendingToken, responseAckToken, messageSegmentToken,
			ctxToken, errorToken, immAckRequiredToken, authToken:
			want = k.tok
		}
		for _, w := range []string{k.long, k.short, strings.ToUpper(k.long), strings.ToLower(k.short)} {
			if w == "" {
				continue
			}
			if got := skimKeyword([]byte(w)); got != want {
				t.Errorf("skimKeyword(%q) = %d, want %d", w, got, want)
			}
			// One byte changed anywhere (to another letter, or
			// to what an OR with 0x20 takes for one) makes it
			// no keyword, unless it spells another.
			for i := range w {
				for _, c := range []byte{w[i] ^ 1, w[i] &^ 0x20 &^ 0x40} {
					b := []byte(w)
					b[i] = c
					if got := skimKeyword(b); got != 0 && lexLookup(b) != got {
						t.Errorf("skimKeyword(%q) = %d, want 0", b, got)
					}
				}
			}
		}
	}
}

// At each depth, Scan reports what FromModel makes of the decoded
// message at that depth: the lists the depth names, no more (that the
// corpus has something below each depth, package scan's tests show).
func TestScanDepthMatchesDecode(t *testing.T) {
	var got, want scan.Summary
	for _, c := range scanCases(t) {
		m, err := Decode(c.data, Options{})
		if err != nil {
			continue
		}
		for _, d := range []scan.Depth{scan.Transactions, scan.Actions, scan.Commands, scan.Everything} {
			got.Want, want.Want = d, d
			if err := Scan(c.data, &got, limits.Limits{}); err != nil {
				t.Fatalf("%s at %v: %v", c.name, d, err)
			}
			scan.FromModel(m, true, &want)
			if msg := summaryDiff(&got, &want); msg != "" {
				t.Fatalf("%s at %v: %s", c.name, d, msg)
			}
			if msg := checkSpans(c.data, &got); msg != "" {
				t.Fatalf("%s at %v: %s", c.name, d, msg)
			}
		}
	}
}

// Below the depth asked, a body is stepped over, not read: what is
// inside goes unrecorded, and what the skimmer would reject there goes
// unnoticed.
func TestScanDepthSkips(t *testing.T) {
	msg := []byte("!/3 [10.0.0.1]\nT=7{C=1{add=[a,b]{M{O{MO=SR}}},N=t1{OE=1{x}}}}P=8{C=2{AV=t2{ER=5},ER=433}}")
	bad := []byte("!/3 [10.0.0.1]\nT=7{C=1{N=t1{ER=x}}}")
	var s scan.Summary
	for _, c := range []struct {
		d                        scan.Depth
		tx, act, cmd, term, errs int
	}{
		{scan.Transactions, 2, 0, 0, 0, 0},
		{scan.Actions, 2, 2, 0, 0, 1},
		{scan.Commands, 2, 2, 3, 0, 1},
		{scan.Everything, 2, 2, 3, 4, 2},
	} {
		s.Want = c.d
		if err := Scan(msg, &s, limits.Limits{}); err != nil {
			t.Fatalf("%v: %v", c.d, err)
		}
		got := []int{len(s.Transactions), len(s.Actions), len(s.Commands), len(s.Terminations), len(s.Errors)}
		if want := []int{c.tx, c.act, c.cmd, c.term, c.errs}; !slices.Equal(got, want) {
			t.Errorf("%v: transactions, actions, commands, terminations, errors %v, want %v", c.d, got, want)
		}
		err := Scan(bad, &s, limits.Limits{})
		if (err != nil) != (c.d == scan.Everything) {
			t.Errorf("%v: the error code that is no number: %v", c.d, err)
		}
	}
}

// A number may have leading zeros up to the decoder's length limit; past
// it, or over its maximum, it fails; the decoder agrees on which decode.
func TestScanNumbers(t *testing.T) {
	for _, c := range []struct {
		id string
		ok bool
	}{
		{"1", true}, {"4294967295", true}, {"4294967296", false}, {"00000000004294967295", true},
		{"000000000004294967295", false}, {"18446744073709551617", false}, {"99999999999", false},
	} {
		msg := []byte("!/1 [1.2.3.4] K{" + c.id + "}")
		var s scan.Summary
		err := Scan(msg, &s, limits.Limits{})
		if _, derr := Decode(msg, Options{}); (err == nil) != c.ok || (derr == nil) != c.ok {
			t.Errorf("%s: scan %v, decode %v, want ok %v", c.id, err, derr, c.ok)
			continue
		}
		if want, _ := strconv.ParseUint(c.id, 10, 32); c.ok && uint64(s.Transactions[0].ID) != want {
			t.Errorf("%s: ID %d", c.id, s.Transactions[0].ID)
		}
	}
}

// digitsOrDots counts the digits and dots before any other byte, in
// every place.
func TestDigitsOrDots(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			b := []byte("12.45.78")
			b[pos] = byte(c)
			want := 8
			for i, x := range b {
				if !(x >= '0' && x <= '9' || x == '.') {
					want = i
					break
				}
			}
			if got := digitsOrDots(binary.LittleEndian.Uint64(b)); got != want {
				t.Fatalf("%q: %d, want %d", b, got, want)
			}
		}
	}
}

// The flat scanner reads every corpus message in either style at every
// depth without giving up to the skimmer, and fills what Scan fills.
func TestFlatReadsCorpus(t *testing.T) {
	for _, c := range loadCorpus(t) {
		for _, m := range [][]byte{c.compact, c.pretty} {
			for _, d := range []scan.Depth{scan.Everything, scan.Transactions, scan.Actions, scan.Commands} {
				if !flatAgrees(t, m, d) {
					t.Errorf("%s at %v: the flat scanner gives up on %.60q", c.name, d, m)
				}
			}
		}
	}
}

// flatAgrees tells whether the flat scanner reads data at depth d and,
// if it does, checks that the skimmer reads it alike, spans and all.
func flatAgrees(t *testing.T, data []byte, d scan.Depth) bool {
	t.Helper()
	return flatAgreesWithin(t, data, d, limits.Limits{}.OrDefault())
}

// flatAgreesWithin is flatAgrees under limits lim (not zero).
func flatAgreesWithin(t *testing.T, data []byte, d scan.Depth, lim limits.Limits) bool {
	t.Helper()
	got, want := scan.Summary{Want: d}, scan.Summary{Want: d}
	k := skimmer{src: data, s: &got, name: "text", maxDepth: lim.MaxDepth, maxElems: lim.MaxElements,
		actions: d.Reaches(scan.Actions), commands: d.Reaches(scan.Commands), deep: d.Reaches(scan.Everything)}
	if !k.flat() {
		return false
	}
	k = skimmer{src: data, s: &want, name: "text", maxDepth: lim.MaxDepth, maxElems: lim.MaxElements,
		actions: k.actions, commands: k.commands, deep: k.deep}
	if !k.message() {
		t.Fatalf("%v: the flat scanner reads %q, the skimmer fails: %v", d, data, k.err)
	}
	if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
		t.Fatalf("%v: %q: flat\n%s\nskimmer\n%s", d, data, g, w)
	}
	return true
}

// eightDigits counts and adds up the leading digits of eight bytes as
// strconv does, whatever follows them.
func TestEightDigits(t *testing.T) {
	for _, s := range []string{"0", "7", "12", "1234567", "0000001", "99999999", "4294967", "1a", "12}", "123/4", "5\xff", "9:", "00 ", "x1", "{"} {
		b := []byte(s + "\x00\x00\x00\x00\x00\x00\x00\x00")
		v, n := eightDigits(binary.LittleEndian.Uint64(b))
		want := 0
		for want < len(s) && s[want] >= '0' && s[want] <= '9' {
			want++
		}
		want = min(want, 8)
		if n != want {
			t.Errorf("%q: %d digits, want %d", s, n, want)
			continue
		}
		if n > 0 && n < 8 {
			if w, _ := strconv.ParseUint(s[:n], 10, 64); v != w {
				t.Errorf("%q: %d, want %d", s, v, w)
			}
		}
	}
}

// Under any nesting and element limit, what the flat scanner reads the
// skimmer reads alike: the flat scanner gives up where a limit is
// reached, never reads past one.
func TestFlatLimits(t *testing.T) {
	for _, c := range loadCorpus(t) {
		for _, m := range [][]byte{c.compact, c.pretty} {
			for _, d := range []scan.Depth{scan.Everything, scan.Transactions, scan.Actions, scan.Commands} {
				for depth := 1; depth <= 10; depth++ {
					for _, elems := range []int{1, 2, 3, 5, 8, 13, 21, 34} {
						flatAgreesWithin(t, m, d, limits.Limits{MaxDepth: depth, MaxElements: elems})
					}
				}
			}
		}
	}
}

// A message cut anywhere makes the flat scanner give up or read what the
// skimmer reads, with no panic.
func TestFlatTruncated(t *testing.T) {
	for _, c := range loadCorpus(t) {
		for _, m := range [][]byte{c.compact, c.pretty} {
			for i := range len(m) {
				cut := bytes.Clone(m[:i]) // no bytes past the cut to read
				for _, d := range []scan.Depth{scan.Everything, scan.Transactions} {
					flatAgrees(t, cut, d)
				}
			}
		}
	}
}

// flatLookup knows the words skimKeyword knows, in any case, and no
// other: a keyword with a letter changed, added or taken away is none,
// unless it spells another; at the end of the input as well as before
// more text.
func TestFlatLookup(t *testing.T) {
	check := func(w []byte) {
		if got, want := flatLookup(w, 0, len(w)), skimKeyword(w); got != want {
			t.Errorf("flatLookup(%q) at the end = %d, want %d", w, got, want)
		}
		src := append(append([]byte("T="), w...), "{C=1{}}"...)
		if got, want := flatLookup(src, 2, 2+len(w)), skimKeyword(w); got != want {
			t.Errorf("flatLookup(%q) in text = %d, want %d", w, got, want)
		}
	}
	for _, k := range lexKeywordSpellings {
		for _, w := range []string{k.long, k.short} {
			if w == "" {
				continue
			}
			for _, v := range []string{w, strings.ToUpper(w), strings.ToLower(w), w + "s", w + "1", "x" + w, w[:len(w)-1], w[1:]} {
				check([]byte(v))
				for i := range v {
					for _, c := range []byte{v[i] ^ 1, v[i] ^ 0x20, v[i] ^ 0x80, v[i] &^ 0x20 &^ 0x40, '_', '@', '['} {
						b := []byte(v)
						b[i] = c
						check(b)
					}
				}
			}
		}
	}
}
