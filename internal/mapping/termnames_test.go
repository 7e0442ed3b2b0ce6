package mapping

import (
	"fmt"
	"strings"
	"testing"

	"megaco/internal/mapping/termid"
	"megaco/internal/model"
)

// gateway is a names file for an access gateway with 2048 lines and some
// other shapes of range, on layout [8,8,16].
const gateway = `
termination AL{1-2048}         00000001/00000000/{n}             # the lines
termination E{65541-65600}     00000010/00000000/{n-65540}       # numbered from 1 in binary
termination TS{01-31}          00000011/00000000/{n+256}         # zero-padded names
termination Trunk{1-5}Port     00000100/{n}/0000000000000001     # a middle level
termination A4444              00000101/00000000/0000000000000001
`

func gatewayNames(t testing.TB) *TermIDNames {
	t.Helper()
	n, err := ReadNames(strings.NewReader(gateway), termid.Layout{8, 8, 16})
	if err != nil {
		t.Fatal(err)
	}
	return n.TermIDs
}

func TestNameRanges(t *testing.T) {
	names := gatewayNames(t)
	if got, want := names.Len(), 2048+60+31+5+1; got != want {
		t.Errorf("Len %d, want %d", got, want)
	}
	type pair struct{ name, text string }
	var pairs []pair
	for n := 1; n <= 2048; n++ {
		pairs = append(pairs, pair{fmt.Sprintf("AL%d", n), fmt.Sprintf("00000001/00000000/%016b", n)})
	}
	for n := 65541; n <= 65600; n++ {
		pairs = append(pairs, pair{fmt.Sprintf("E%d", n), fmt.Sprintf("00000010/00000000/%016b", n-65540)})
	}
	for n := 1; n <= 31; n++ {
		pairs = append(pairs, pair{fmt.Sprintf("TS%02d", n), fmt.Sprintf("00000011/00000000/%016b", n+256)})
	}
	for n := 1; n <= 5; n++ {
		pairs = append(pairs, pair{fmt.Sprintf("Trunk%dPort", n), fmt.Sprintf("00000100/%08b/0000000000000001", n)})
	}
	pairs = append(pairs, pair{"A4444", "00000101/00000000/0000000000000001"})
	for _, p := range pairs {
		for _, name := range []string{p.name, strings.ToLower(p.name), strings.ToUpper(p.name)} {
			if got, ok := names.appendBinary(nil, name); !ok || string(got) != p.text {
				t.Fatalf("%s -> %q %v, want %s", name, got, ok, p.text)
			}
		}
		if got, ok := names.appendName([]byte(p.text)); !ok || string(got) != p.name {
			t.Fatalf("%s -> %q %v, want %s", p.text, got, ok, p.name)
		}
	}
	for _, name := range []string{"AL0", "AL2049", "AL01", "AL", "AL1x", "XAL1", "E65540", "E65601", "TS1", "TS32", "TS001", "Trunk1", "Trunk6Port", "Trunk1Port2", "AL99999999999999999999"} {
		if got, ok := names.appendBinary(nil, name); ok {
			t.Errorf("%s -> %s, want no binary form", name, got)
		}
	}
	for _, text := range []string{"00000001/00000000/0000000000000000", "00000001/00000000/0000100000000001", "00000011/00000000/0000000100000000", "00000100/00000110/0000000000000001", "00000001/00000000/*"} {
		if got, ok := names.appendName([]byte(text)); ok {
			t.Errorf("%s -> %s, want no name", text, got)
		}
	}

	// Through a conversion: AL2048 to binary and back.
	m := &model.MegacoMessage{Mess: model.Message{Version: 1, MessageBody: model.MessageMessageBody{
		Kind: model.MessageMessageBody_Transactions,
		Transactions: []model.Transaction{{Kind: model.Transaction_TransactionRequest, TransactionRequest: &model.TransactionRequest{
			Actions: []model.ActionRequest{{CommandRequests: []model.CommandRequest{{Command: model.Command{
				Kind: model.Command_ModReq, ModReq: &model.AmmRequest{TerminationID: []model.TerminationID{{Id: model.Octets("al2048")}, {Id: model.Octets("ts07")}}, Descriptors: []model.AmmDescriptor{}},
			}}}}},
		}}},
	}}}
	c := &Config{Layout: termid.Layout{8, 8, 16}, TermIDNames: names}
	if err := ToBinary(m, 1, c); err != nil {
		t.Fatal(err)
	}
	ids := m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.ModReq.TerminationID
	if string(ids[0].Id) != "\x01\x00\x08\x00" || string(ids[1].Id) != "\x03\x00\x01\x07" {
		t.Fatalf("binary ids %X %X", []byte(ids[0].Id), []byte(ids[1].Id))
	}
	if err := ToText(m, 1, c); err != nil {
		t.Fatal(err)
	}
	if string(ids[0].Id) != "AL2048" || string(ids[1].Id) != "TS07" {
		t.Errorf("text ids %s %s", ids[0].Id, ids[1].Id)
	}
}

func TestNameRangeErrors(t *testing.T) {
	const (
		l1 = "termination A4444 00000001/00000000/00000001\n"
		// Columns below: "termination " is 12 characters, so a name starts
		// at column 13.
	)
	for _, c := range []struct{ in, want string }{
		// Patterns, with line:column.
		{"termination AL{1-2048} 00000001/00000000/{n}", `line 1:42: ID pattern "00000001/00000000/{n}": {n} gives 1 to 2048 for AL{1-2048}, level 3 holds 0 to 255`},
		{"termination AL{1-2048 00000001/00000000/{n}", `line 1:15: name pattern "AL{1-2048": { without }`},
		{"termination AL{1-2}{3-4} 00000001/00000000/{n}", `line 1:20: name pattern "AL{1-2}{3-4}": only one {first-last} range`},
		{"termination A}L{1-2} 00000001/00000000/{n}", `line 1:14: name pattern "A}L{1-2}": } without {`},
		{"termination AL1{1-2} 00000001/00000000/{n}", `line 1:16: name pattern "AL1{1-2}": a digit before {`},
		{"termination AL{1-2}9 00000001/00000000/{n}", `line 1:20: name pattern "AL{1-2}9": a digit after }`},
		{"termination 1/{1-2} 00000001/00000000/{n}", `line 1:13: name pattern "1/{1-2}": the text around the range needs a character`},
		{"termination AL{1} 00000001/00000000/{n}", `line 1:16: name pattern "AL{1}": want {first-last}`},
		{"termination AL{x-2} 00000001/00000000/{n}", `line 1:16: name pattern "AL{x-2}": first number "x" is not a decimal number`},
		{"termination AL{1-} 00000001/00000000/{n}", `line 1:18: name pattern "AL{1-}": last number "" is not a decimal number`},
		{"termination AL{9-2} 00000001/00000000/{n}", `line 1:18: name pattern "AL{9-2}": last number 2 is less than first 9`},
		{"termination AL{01-100} 00000001/00000000/{n}", `line 1:19: name pattern "AL{01-100}": a zero-padded range needs both numbers of the same width (2 digits)`},
		{"termination AL{1-2} 00000001/00000000", `line 1:21: ID pattern "00000001/00000000" has 2 levels, layout [8,8,8] has 3`},
		{"termination AL{1-2} 00000001/{n}/{n}", `line 1:34: ID pattern "00000001/{n}/{n}": only one level may be {n}`},
		{"termination AL{1-2}  00000001/00000000/{m}", `line 1:40: ID pattern "00000001/00000000/{m}": level 3 is "{m}"; want {n}`},
		{"termination AL{1-2} 00000001/00000000/{n*2}", `level 3 is "{n*2}"; want {n}, {n+K} or {n-K}`},
		{"termination AL{1-2} 00000001/00000000/{n+}", `level 3 offset "" is not a decimal number`},
		{"termination AL{1-2} 00000001/00000000/{n-2}", `{n} gives -1 to 0 for AL{1-2}, level 3 holds 0 to 255`},
		{"termination AL{1-2} 00000001/0000000/{n}", `line 1:21: ID pattern "00000001/0000000/{n}": termination ID`},
		{"termination AL{1-2} 00000001/00000000/00000001", `line 1:21: name "AL{1-2}" is a range but ID "00000001/00000000/00000001" has no {n} level`},
		{"termination AL1 00000001/00000000/{n}", `line 1:35: the ID has {n} but the name "AL1" has no {first-last} range`},
		// Overlaps, naming both lines.
		{l1 + "termination AL{1-100} 00000010/00000000/{n}\ntermination AL{50-200} 00000011/00000000/{n}",
			"line 3: termination ID name patterns AL{1-100} on line 2 and AL{50-200} on line 3 both name AL50"},
		{"termination AL{001-200} 00000010/00000000/{n-1}\ntermination al{1-150} 00000011/00000000/{n}",
			"line 2: termination ID name patterns AL{001-200} on line 1 and al{1-150} on line 2 both name al100"},
		{"termination A{1-10} 00000001/00000000/{n}\ntermination B{1-10} 00000001/00000000/{n+5}",
			"line 2: termination ID name patterns A{1-10} on line 1 and B{1-10} on line 2 both map to 00000001/00000000/00000110"},
		{"termination X{1-5} {n}/00000011/00000000\ntermination Y{1-9} 00000010/{n}/00000000",
			"termination ID name patterns X{1-5} on line 1 and Y{1-9} on line 2 both map to 00000010/00000011/00000000"},
		{"termination AL5 00000001/00000000/11111111\ntermination AL{1-10} 00000001/00000000/{n}",
			`line 2: termination ID name "AL5" on line 1 is also named by AL{1-10} on line 2 (number 5)`},
		{"termination AL{1-10} 00000001/00000000/{n}\ntermination B 00000001/00000000/00001010",
			`line 2: termination ID name "B" on line 2 and AL{1-10} on line 1 (AL10) both map to 00000001/00000000/00001010`},
		{l1 + "termination B 00000001/00000000/00000001", `line 2: termination ID names "A4444" and "B" both map to 00000001/00000000/00000001 on line 1`},
	} {
		_, err := ReadNames(strings.NewReader(c.in), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %q", c.in, err, c.want)
		}
	}

	// Ranges that fill different levels and do not meet are fine, as are
	// adjacent ranges and a padded range beside plain names of other widths.
	for _, ok := range []string{
		"termination X{2-5} {n}/00000011/00000000\ntermination Y{1-9} 00000001/{n}/00000000",
		"termination X{1-5} {n}/00000011/00000000\ntermination Y{4-9} 00000001/{n}/00000000",
		"termination A{1-10} 00000001/00000000/{n}\ntermination B{1-10} 00000001/00000000/{n+10}\ntermination A{11-20} 00000001/00000001/{n}",
		"termination AL{001-099} 00000001/00000000/{n}\ntermination AL{1-200} 00000010/00000000/{n}",
	} {
		if _, err := ReadNames(strings.NewReader(ok), nil); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

// FuzzReadNames: any file is read or refused, without a panic; what is
// read maps both ways.
func FuzzReadNames(f *testing.F) {
	f.Add(gateway)
	f.Add("termination X{1-5} {n}/00000011/0000000000000000\ntermination Y{4-9} 00000001/{n}/0000000000000000")
	f.Add("termination AL{001-099} 00000001/00000000/{n-1}\ntermination AL{1-200} 00000010/00000000/{n+7}")
	f.Add("termination AL{1-10} 00000001/00000000/{n}\ntermination B 00000001/00000000/0000000000001010")
	f.Fuzz(func(t *testing.T, in string) {
		n, err := ReadNames(strings.NewReader(in), termid.Layout{8, 8, 16})
		if err != nil || n.TermIDs == nil {
			return
		}
		names := n.TermIDs
		check := func(name string) {
			text, ok := names.appendBinary(nil, name)
			if !ok {
				t.Fatalf("%s has no binary form", name)
			}
			back, ok := names.appendName(text)
			if !ok || string(back) != name {
				t.Fatalf("%s -> %s -> %q %v", name, text, back, ok)
			}
		}
		for _, s := range names.single {
			check(s.name)
		}
		for _, r := range names.ranges {
			check(string(r.name(nil, r.lo)))
			check(string(r.name(nil, r.hi)))
		}
	})
}

// BenchmarkNameRanges looks names and IDs up among 4096 ranges of 16
// names each: the cost does not grow with the number of lines.
func BenchmarkNameRanges(b *testing.B) {
	var f strings.Builder
	for i := range 4096 {
		fmt.Fprintf(&f, "termination G%dL{1-16} %08b/%08b/{n}\n", i, i>>8, i&0xFF)
	}
	n, err := ReadNames(strings.NewReader(f.String()), nil)
	if err != nil {
		b.Fatal(err)
	}
	names := n.TermIDs
	text := []byte("00001111/11111111/00001000")
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = names.appendBinary(buf[:0], "G4095L8")
		if _, ok := names.appendName(text); !ok {
			b.Fatal("no name")
		}
		text = append(text[:0], "00001111/11111111/00001000"...)
	}
}
