package load

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"megaco/internal/codec"
	"megaco/internal/codec/ber"
	"megaco/internal/mapping"
	"megaco/internal/model"
)

const corpusDir = "../../corpus/appendix-a"

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFlowMatchesIndex checks the templates against the corpus's index:
// order, direction, request or reply, transaction, command, context.
func TestFlowMatchesIndex(t *testing.T) {
	f, err := LoadFlow()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(readFile(t, filepath.Join(corpusDir, "index.tsv")))), "\n")[1:]
	if len(lines) != 28 || len(f.Steps) != 28 {
		t.Fatalf("%d index lines, %d steps", len(lines), len(f.Steps))
	}
	for i, l := range lines {
		c := strings.Split(l, "\t") // seq file step from to kind transaction_id context commands
		st := f.Steps[i]
		if st.Name+".txt" != c[1] {
			t.Errorf("step %d is %s, index has %s", i+1, st.Name, c[1])
		}
		from := c[3]
		if (from == "mgc") != (st.From == MGC) {
			t.Errorf("%s: from %s, index %s", st.Name, st.From, from)
		}
		gw := c[3]
		if from == "mgc" {
			gw = c[4]
		}
		if "mg"+strconv.Itoa(st.Gateway) != gw {
			t.Errorf("%s: gateway %d, index %s", st.Name, st.Gateway, gw)
		}
		wantType := c[8]
		if c[5] == "reply" {
			wantType += "Reply"
		}
		if st.Type != wantType {
			t.Errorf("%s: type %s, want %s", st.Name, st.Type, wantType)
		}
		m, err := ber.Decode(st.Template, ber.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tr := &m.Mess.MessageBody.Transactions[0]
		if strconv.FormatUint(uint64(transactionID(tr)), 10) != c[6] {
			t.Errorf("%s: transaction %d, index %s", st.Name, transactionID(tr), c[6])
		}
		// The corrected a1-18 and a1-26 answer in the Notify's context.
		wantCtx := c[7]
		if i+1 == 18 || i+1 == 26 {
			wantCtx = "5000"
		}
		var ctx string
		forEachContext(tr, func(id *uint32) {
			switch *id {
			case 0:
				ctx = "-"
			case 0xFFFFFFFE:
				ctx = "$"
			default:
				ctx = strconv.FormatUint(uint64(*id), 10)
			}
		})
		if ctx != wantCtx {
			t.Errorf("%s: context %s, want %s", st.Name, ctx, wantCtx)
		}
		// The template is canonical BER: it re-encodes to itself.
		out, err := ber.Codec{}.Append(nil, m)
		if err != nil || !bytes.Equal(out, st.Template) {
			t.Errorf("%s: BER does not re-encode to itself: %v", st.Name, err)
		}
	}
	if f.Steps[f.HoldAfter].Name != "a1-22-mg1-to-mgc-modify-reply-t10006" {
		t.Errorf("the hold is after %s", f.Steps[f.HoldAfter].Name)
	}
	if len(f.tids) != 14 || len(f.contexts) != 2 {
		t.Errorf("%d transactions, %d contexts", len(f.tids), len(f.contexts))
	}
}

// flowText is what flow/regen.sh makes of a corrected corpus message.
func flowText(name string, corrected []byte) []byte {
	s := string(corrected)
	for _, r := range [][2]string{{"A4444", "00000001/00000000/00000000"}, {"A4445", "00000010/00000000/00000000"},
		{"A5555", "00000011/00000000/00000000"}, {"A5556", "00000100/00000000/00000000"}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	if strings.HasPrefix(name, "a1-24-") {
		s = strings.Replace(s, "              Events,\n", "", 1)
	}
	return []byte(s)
}

// TestFlowTextsFollowCorpus: flow/*.txt are the corrected corpus messages
// with only the documented changes.
func TestFlowTextsFollowCorpus(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(corpusDir, "corrected", "a1-*.txt"))
	if len(paths) != 28 {
		t.Fatalf("%d corrected messages", len(paths))
	}
	for _, p := range paths {
		name := filepath.Base(p)
		got := readFile(t, filepath.Join("flow", name))
		if want := flowText(name, readFile(t, p)); !bytes.Equal(got, want) {
			t.Errorf("flow/%s is not corrected/%s with the documented changes (run flow/regen.sh)", name, name)
		}
	}
}

// textCodec returns the pretty text codec, or skips.
func textCodec(t *testing.T) codec.Codec {
	c, err := codec.Lookup("pretty", Options())
	if err != nil {
		t.Skipf("the text decoder is not registered yet: %v", err)
	}
	return c
}

// TestCorrectedCorpusDecodes: the 28 corrected messages decode with our
// text decoder and, with A4444... provisioned as the flow's IDs, are the
// templates (a1-24 less its empty Events descriptor, which v1 binary
// cannot carry).
func TestCorrectedCorpusDecodes(t *testing.T) {
	tc := textCodec(t)
	names, err := mapping.NewTermIDNames(map[string]string{
		"A4444": "00000001/00000000/00000000", "A4445": "00000010/00000000/00000000",
		"A5555": "00000011/00000000/00000000", "A5556": "00000100/00000000/00000000"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := LoadFlow()
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range f.Steps {
		m, err := tc.Decode(readFile(t, filepath.Join(corpusDir, "corrected", st.Name+".txt")))
		if err != nil {
			t.Errorf("corrected/%s.txt: %v", st.Name, err)
			continue
		}
		if i+1 == 24 {
			res := m.Mess.MessageBody.Transactions[0].TransactionReply.TransactionResult.ActionReplies[0].CommandReply[0].AuditValueReply.AuditResult
			var keep []model.AuditReturnParameter
			for _, p := range res.TerminationAuditResult {
				if p.Kind != model.AuditReturnParameter_EventsDescriptor {
					keep = append(keep, p)
				}
			}
			res.TerminationAuditResult = keep
		}
		if err := mapping.ToBinary(m, 1, &mapping.Config{TermIDNames: names}); err != nil {
			t.Errorf("corrected/%s.txt to binary: %v", st.Name, err)
			continue
		}
		out, err := ber.Codec{}.Append(nil, m)
		if err != nil || !bytes.Equal(out, st.Template) {
			t.Errorf("corrected/%s.txt is not the template: %v\n got %x\nwant %x", st.Name, err, out, st.Template)
		}
	}
}

// TestFlowTextsDecode: flow/*.txt decode to the templates.
func TestFlowTextsDecode(t *testing.T) {
	textCodec(t)
	f, err := LoadFlow()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range f.Steps {
		m, _, err := codec.DecodeAs(readFile(t, filepath.Join("flow", st.Name+".txt")), "pretty", codec.Binary, Options())
		if err != nil {
			t.Errorf("flow/%s.txt: %v", st.Name, err)
			continue
		}
		out, err := ber.Codec{}.Append(nil, m)
		if err != nil || !bytes.Equal(out, st.Template) {
			t.Errorf("flow/%s.txt is not flow/%s.ber: %v", st.Name, st.Name, err)
		}
	}
}

// TestBuilderVaries: each call has its own IDs, consistent within the call.
func TestBuilderVaries(t *testing.T) {
	f, err := LoadFlow()
	if err != nil {
		t.Fatal(err)
	}
	def := DefaultCodecs
	for _, cs := range []Codecs{def, {MGC: "per", MG: "ber"}, {MGC: "ber", MG: "native-zstd"}} {
		b, err := NewBuilder(f, cs)
		if err != nil {
			t.Fatal(err)
		}
		notes, err := b.Prepare()
		if err != nil {
			t.Fatalf("%v: %v", cs, err)
		}
		for _, n := range notes {
			t.Logf("%v: note: %s", cs, n)
		}
		var c0, c1 CallMsgs
		if err := b.Build(0, &c0); err != nil {
			t.Fatal(err)
		}
		if err := b.Build(258, &c1); err != nil {
			t.Fatal(err)
		}
		for i := range f.Steps {
			if bytes.Equal(c0.In[i], c1.In[i]) || bytes.Equal(c0.Want[i], c1.Want[i]) {
				t.Errorf("%v %s: calls 0 and 258 send the same bytes", cs, f.Steps[i].Name)
			}
		}
	}
	// Call 258 (0x0102) in text form.
	b, err := NewBuilder(f, Codecs{MGC: "ber", MG: "ber"})
	if err != nil {
		t.Fatal(err)
	}
	var cm CallMsgs
	if err := b.Build(258, &cm); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for i := range f.Steps {
		m, _, err := codec.DecodeAs(cm.In[i], "ber", codec.Text, Options())
		if err != nil {
			t.Fatal(err)
		}
		text.WriteString(jsonOf(t, m))
	}
	all := text.String()
	for _, want := range []string{`"00000001/00000001/00000010"`, `"00000010/00000001/00000010"`, `"00000011/00000001/00000010"`, `"00000100/00000001/00000010"`} {
		if !strings.Contains(all, want) {
			t.Errorf("call 258 has no termination %s", want)
		}
	}
	if strings.Contains(all, `"00000001/00000000/00000000"`) {
		t.Error("call 258 still has a template termination ID")
	}
	// 14 transactions, each in its request and its reply.
	tids := regexp.MustCompile(`"transactionId":(\d+)`).FindAllStringSubmatch(all, -1)
	count := map[string]int{}
	for _, m := range tids {
		count[m[1]]++
	}
	if len(count) != 14 {
		t.Errorf("%d distinct transaction IDs, want 14: %v", len(count), count)
	}
	for id, n := range count {
		if n != 2 {
			t.Errorf("transaction %s appears %d times", id, n)
		}
		v, _ := strconv.Atoi(id)
		if first := int(CallTransactionID(0, 14, 258)); v < first || v >= first+14 {
			t.Errorf("transaction %s is not one of call 258's (%d..%d)", id, first, first+13)
		}
	}
	for _, want := range []uint32{CallContextID(0, 2, 258), CallContextID(1, 2, 258)} {
		if !strings.Contains(all, `"contextId":`+strconv.Itoa(int(want))) {
			t.Errorf("no context %d", want)
		}
	}
}

func jsonOf(t *testing.T, m *model.MegacoMessage) string {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
