package mapping

import (
	"strings"
	"testing"

	"megaco/internal/model"
)

func TestReadNames(t *testing.T) {
	n, err := ReadNames(strings.NewReader(`
# RFC 3525 Appendix A's lines
termination A4444 00000001/00000000/00000001   # first line
Termination a5555 00000001/00000000/00000010
digitmap    mydialplan 0x0102
digitmap    other 7
digitmap    dialplan5 0x0005    # the convention's own ID: allowed
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := n.TermIDs.appendBinary(nil, "a4444"); !ok || string(b) != "00000001/00000000/00000001" {
		t.Errorf("A4444 -> %q %v", b, ok)
	}
	if name, ok := n.TermIDs.appendName([]byte("00000001/00000000/00000010")); !ok || string(name) != "a5555" {
		t.Errorf("... -> %q %v", name, ok)
	}
	if n.DigitMaps["mydialplan"] != 0x0102 || n.DigitMaps["other"] != 7 || len(n.DigitMaps) != 3 {
		t.Errorf("digit maps %v", n.DigitMaps)
	}

	// The names work in a conversion: ToBinary and back.
	m := &model.MegacoMessage{Mess: model.Message{Version: 1, MessageBody: model.MessageMessageBody{
		Kind: model.MessageMessageBody_Transactions,
		Transactions: []model.Transaction{{Kind: model.Transaction_TransactionRequest, TransactionRequest: &model.TransactionRequest{
			Actions: []model.ActionRequest{{CommandRequests: []model.CommandRequest{{Command: model.Command{
				Kind: model.Command_ModReq, ModReq: &model.AmmRequest{TerminationID: []model.TerminationID{{Id: model.Octets("A4444")}},
					Descriptors: []model.AmmDescriptor{{Kind: model.AmmDescriptor_DigitMapDescriptor, DigitMapDescriptor: &model.DigitMapDescriptor{DigitMapName: model.Octets("MyDialPlan")}}}},
			}}}}},
		}}},
	}}}
	c := &Config{TermIDNames: n.TermIDs, DigitMapNames: n.DigitMaps}
	if err := ToBinary(m, 1, c); err != nil {
		t.Fatal(err)
	}
	amm := m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.ModReq
	if string(amm.TerminationID[0].Id) != "\x01\x00\x01" || string(amm.Descriptors[0].DigitMapDescriptor.DigitMapName) != "\x01\x02" {
		t.Fatalf("binary form: %X %X", []byte(amm.TerminationID[0].Id), []byte(amm.Descriptors[0].DigitMapDescriptor.DigitMapName))
	}
	if err := ToText(m, 1, c); err != nil {
		t.Fatal(err)
	}
	if string(amm.TerminationID[0].Id) != "A4444" || string(amm.Descriptors[0].DigitMapDescriptor.DigitMapName) != "mydialplan" {
		t.Errorf("text form: %s %s", amm.TerminationID[0].Id, amm.Descriptors[0].DigitMapDescriptor.DigitMapName)
	}

	for _, c := range []struct{ in, want string }{
		{"termination A4444", "line 1: want 3 fields (kind, name, ID), found 2"},
		{"\n\nalias A4444 1/2/3", `line 3: unknown kind "alias"`},
		{"termination A4444 00000001/00000000/00000001\ntermination a4444 00000001/00000000/00000010", `line 2: termination ID name "a4444" is given twice`},
		{"termination A4444 00000001/00000000/00000001\ntermination B 00000001/00000000/00000001", `line 2: termination ID names "A4444" and "B" both map to 00000001/00000000/00000001`},
		{"termination 00000001/00000000/00000001 00000001/00000000/00000010", "is itself an ID of layout"},
		{"termination ROOT 00000001/00000000/00000010", "is itself an ID of layout"},
		{"termination A 0000000x/00000000/00000010", `line 1: termination ID name "A": "0000000x/00000000/00000010"`},
		{"termination A 00000001/00000000/0000001*", "is a wildcard"},
		{"digitmap d 70000", `line 1: digit map ID "70000" is not a number`},
		{"digitmap d 1\ndigitmap D 2", `line 2: digit map name "D" is already on line 1`},
		{"digitmap DialPlan00 0x0102", `line 1: digit map name "DialPlan00" means ID 0x0000 by the dialplanXY convention, not 0x0102`},
	} {
		_, err := ReadNames(strings.NewReader(c.in), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}
