package text

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"megaco/internal/codec/ber"
	"megaco/internal/codec/codecerr"
	"megaco/internal/model"
)

// corpusMsg is one message of corpus/otp-time-test: OTP's encodings of
// it in every codec.
// expected is what the encoder must write for a corpus message: OTP's
// golden text, except where we differ on purpose.
//
// msg79a01: its AuditValue reply lists the empty descriptors "Packages,
// Statistics, DigitMap, Media". The golden texts were made by OTP from a
// decode of the source text, and OTP's text decoder reverses that list;
// in the model (and in BER) it is a BIT STRING, so the encoder writes the
// names in bit order: "Media, DigitMap, Statistics, Packages". OTP's own
// encoders write the same when they start from the BER.
func etExpected(c corpusMsg, style Style) []byte {
	golden := c.pretty
	if style == Compact {
		golden = c.compact
	}
	if c.name == "msg79a01" {
		if style == Compact {
			return bytes.Replace(golden, []byte("PG,SA,DM,M}"), []byte("M,DM,SA,PG}"), 1)
		}
		return bytes.Replace(golden,
			[]byte("Packages,\n\t\t\tStatistics,\n\t\t\tDigitMap,\n\t\t\tMedia\n"),
			[]byte("Media,\n\t\t\tDigitMap,\n\t\t\tStatistics,\n\t\t\tPackages\n"), 1)
	}
	return golden
}

// TestCorpusGolden: golden BER -> ber.Decode -> mapping.ToText -> Append
// must give OTP's compact and pretty texts byte for byte.
func TestCorpusGolden(t *testing.T) {
	msgs := loadCorpus(t)
	for _, style := range []Style{Compact, Pretty} {
		ok := 0
		for _, c := range msgs {
			m := textForm(t, c)
			got, err := Append(nil, m, style, Options{})
			if err != nil {
				t.Errorf("%s %s: %v", c.name, style, err)
				continue
			}
			want := etExpected(c, style)
			if !bytes.Equal(got, want) {
				t.Errorf("%s %s: differs from OTP at byte %d\n got: %q\nwant: %q", c.name, style, etDiffAt(got, want), got, want)
				continue
			}
			ok++
		}
		t.Logf("text: %s encode equals OTP's golden %s text: %d/%d", style, style, ok, len(msgs))
	}
}

func etDiffAt(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestAppendKeepsBuffer: Append appends, and leaves the buffer alone on
// error.
func TestAppendKeepsBuffer(t *testing.T) {
	c := loadCorpus(t)[0]
	m := textForm(t, c)
	buf := []byte("prefix:")
	out, err := Append(buf, m, Compact, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, []byte("prefix:")) || !bytes.Equal(out[7:], c.compact) {
		t.Fatalf("got %q", out)
	}
	m.Mess.Version = 7
	out, err = Append(buf, m, Compact, Options{})
	if err == nil || string(out) != "prefix:" {
		t.Fatalf("bad version: got %q, %v", out, err)
	}
	if !errors.Is(err, ErrNoTextForm) {
		t.Fatalf("error %v is not ErrNoTextForm", err)
	}
}

// Builders for hand-made messages in text form.

func etTid(s string) model.TerminationID { return model.TerminationID{Id: model.Octets(s)} }

const etT1, etT2 = "11111111/00000000/00000001", "11111111/00000000/00000010"

func etHeader(v int) model.Message {
	return model.Message{
		Version: uint32(v),
		MId: model.MId{Kind: model.MId_Ip4Address, Ip4Address: &model.IP4Address{
			Address: model.Octets{124, 124, 124, 222}, PortNumber: model.Some[uint32](55555)}},
	}
}

// request is a message with one transaction request of one action.
func etRequest(v int, a model.ActionRequest) *model.MegacoMessage {
	m := &model.MegacoMessage{Mess: etHeader(v)}
	m.Mess.MessageBody = model.MessageMessageBody{Kind: model.MessageMessageBody_Transactions,
		Transactions: []model.Transaction{{Kind: model.Transaction_TransactionRequest,
			TransactionRequest: &model.TransactionRequest{TransactionId: 1, Actions: []model.ActionRequest{a}}}}}
	return m
}

// reply is a message with one transaction reply of one action reply.
func etReply(v int, a model.ActionReply) *model.MegacoMessage {
	m := &model.MegacoMessage{Mess: etHeader(v)}
	m.Mess.MessageBody = model.MessageMessageBody{Kind: model.MessageMessageBody_Transactions,
		Transactions: []model.Transaction{{Kind: model.Transaction_TransactionReply,
			TransactionReply: &model.TransactionReply{TransactionId: 1, TransactionResult: model.TransactionReplyTransactionResult{
				Kind: model.TransactionReplyTransactionResult_ActionReplies, ActionReplies: []model.ActionReply{a}}}}}}
	return m
}

// add is an action with Add = t1 { descriptors }.
func etAdd(v int, ds ...model.AmmDescriptor) *model.MegacoMessage {
	return etRequest(v, model.ActionRequest{ContextId: 1, CommandRequests: []model.CommandRequest{{
		Command: model.Command{Kind: model.Command_AddReq, AddReq: &model.AmmRequest{
			TerminationID: []model.TerminationID{etTid(etT1)}, Descriptors: ds}}}}})
}

func etMedia(lc *model.LocalControlDescriptor) model.AmmDescriptor {
	return model.AmmDescriptor{Kind: model.AmmDescriptor_MediaDescriptor, MediaDescriptor: &model.MediaDescriptor{
		Streams: &model.MediaDescriptorStreams{Kind: model.MediaDescriptorStreams_OneStream,
			OneStream: &model.StreamParms{LocalControlDescriptor: lc}}}}
}

func etProp(name string, values ...string) model.PropertyParm {
	p := model.PropertyParm{Name: model.Octets(name)}
	for _, v := range values {
		p.Value = append(p.Value, model.Octets(v))
	}
	return p
}

func etSignals(s ...model.Signal) model.AmmDescriptor {
	d := model.AmmDescriptor{Kind: model.AmmDescriptor_SignalsDescriptor, SignalsDescriptor: []model.SignalRequest{}}
	for i := range s {
		d.SignalsDescriptor = append(d.SignalsDescriptor, model.SignalRequest{Kind: model.SignalRequest_Signal, Signal: &s[i]})
	}
	return d
}

func etEvents(rid uint32, evs ...model.RequestedEvent) model.AmmDescriptor {
	return model.AmmDescriptor{Kind: model.AmmDescriptor_EventsDescriptor, EventsDescriptor: &model.EventsDescriptor{
		RequestID: model.Some(rid), EventList: evs}}
}

// body returns what follows the message header line.
func etBody(t *testing.T, m *model.MegacoMessage, style Style) string {
	t.Helper()
	out, err := Append(nil, m, style, Options{})
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	_, rest, _ := strings.Cut(string(out), "\n")
	return rest
}

func TestQuoting(t *testing.T) {
	for _, c := range []struct {
		v     int
		value string
		want  string // compact text of the property; "" = error
	}{
		{1, "40", `nt/jit=40`},
		{1, "sendonly", `nt/jit=sendonly`},   // SafeChars: bare
		{1, "SendOnly", `nt/jit="SendOnly"`}, // upper case: quoted, since bare SafeChars are case-insensitive
		{1, "a+b-c&d!e_f/g'h?i@j^k`l~m*n$o\\p(q)r%s|t.u", "nt/jit=a+b-c&d!e_f/g'h?i@j^k`l~m*n$o\\p(q)r%s|t.u"},
		{1, "", `nt/jit=""`},           // empty: quoted
		{1, "a b", `nt/jit="a b"`},     // white space
		{1, "a\tb", "nt/jit=\"a\tb\""}, // HTAB
		{1, "x=1", `nt/jit="x=1"`},     // RestChars
		{1, "a,b;c[d]e{f}g:h#i<j>k", `nt/jit="a,b;c[d]e{f}g:h#i<j>k"`},
		{1, `a"b`, ""},    // a double quote has no text form
		{1, "a\x01b", ""}, // control character
		{1, "a\nb", ""},   // line end: only v3 quoted strings
		{3, "a\nb", "nt/jit=\"a\nb\""},
		{1, "caf\xc3\xa9", ""}, // non-ASCII: only v3 quoted strings
		{3, "caf\xc3\xa9", "nt/jit=\"caf\xc3\xa9\""},
	} {
		p := etProp("nt/jit", c.value)
		m := etAdd(c.v, etMedia(&model.LocalControlDescriptor{PropertyParms: []model.PropertyParm{p}}))
		out, err := Append(nil, m, Compact, Options{})
		if c.want == "" {
			if err == nil || !errors.Is(err, ErrNoTextForm) && !errors.Is(err, ErrNotInVersion) {
				t.Errorf("v%d %q: got %q, %v; want an error", c.v, c.value, out, err)
			} else if !strings.Contains(err.Error(), "localControlDescriptor.propertyParms[0].value") {
				t.Errorf("v%d %q: error %q lacks the field path", c.v, c.value, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("v%d %q: %v", c.v, c.value, err)
			continue
		}
		if !strings.Contains(string(out), "O{"+c.want+"}") {
			t.Errorf("v%d %q: got %q, want %s", c.v, c.value, out, c.want)
		}
	}
}

func TestQuotedStrings(t *testing.T) {
	// The dd/ce digit string is always quoted, as OTP does.
	ev := model.RequestedEvent{PkgdName: model.Octets("dd/ce"), EvParList: []model.EventParameter{{
		EventParameterName: model.Octets("ds"), Value: []model.Octets{model.Octets("916135551212")}}}}
	if got := etBody(t, etAdd(1, etEvents(7, ev)), Compact); !strings.Contains(got, `E=7{dd/ce{ds="916135551212"}}`) {
		t.Errorf("ds: got %q", got)
	}
	// Error texts and reasons are always quoted; an empty one too.
	for _, c := range []struct{ text, want string }{{"x", `ER=400{"x"}`}, {"", `ER=400{""}`}, {"a, b", `ER=400{"a, b"}`}} {
		m := etReply(1, model.ActionReply{ContextId: 1, ErrorDescriptor: &model.ErrorDescriptor{ErrorCode: 400, ErrorText: model.Some(c.text)}})
		if got := etBody(t, m, Compact); !strings.Contains(got, c.want) {
			t.Errorf("error text %q: got %q, want %s", c.text, got, c.want)
		}
	}
	m := etReply(1, model.ActionReply{ContextId: 1, ErrorDescriptor: &model.ErrorDescriptor{ErrorCode: 400, ErrorText: model.Some(`say "hi"`)}})
	if _, err := Append(nil, m, Compact, Options{}); !errors.Is(err, ErrNoTextForm) || !strings.Contains(err.Error(), "errorDescriptor.errorText") {
		t.Errorf("quote in error text: %v", err)
	}
	// SDP: "}" is escaped, a line end inside a value has no text form.
	sdp := func(val string) *model.MegacoMessage {
		return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_MediaDescriptor, MediaDescriptor: &model.MediaDescriptor{
			Streams: &model.MediaDescriptorStreams{Kind: model.MediaDescriptorStreams_OneStream, OneStream: &model.StreamParms{
				LocalDescriptor: &model.LocalRemoteDescriptor{PropGrps: [][]model.PropertyParm{{etProp("v", "0"), etProp("a", val)}}}}}}})
	}
	if got := etBody(t, sdp("x}y"), Compact); !strings.Contains(got, "L{\nv=0\r\na=x\\}y\r\n}") {
		t.Errorf("SDP escape: got %q", got)
	}
	if _, err := Append(nil, sdp("x\ny"), Compact, Options{}); !errors.Is(err, ErrNoTextForm) || !strings.Contains(err.Error(), "localDescriptor.propGrps[0][1].value") {
		t.Errorf("SDP line end: %v", err)
	}
}

func TestParmValues(t *testing.T) {
	rel := func(r model.Relation) *model.PropertyParmExtraInfo {
		return &model.PropertyParmExtraInfo{Kind: model.PropertyParmExtraInfo_Relation, Relation: r}
	}
	rng := &model.PropertyParmExtraInfo{Kind: model.PropertyParmExtraInfo_Range, Range: true}
	and := &model.PropertyParmExtraInfo{Kind: model.PropertyParmExtraInfo_Sublist, Sublist: true}
	or := &model.PropertyParmExtraInfo{Kind: model.PropertyParmExtraInfo_Sublist}
	for _, c := range []struct {
		v       int
		x       *model.PropertyParmExtraInfo
		values  []string
		compact string
		pretty  string
	}{
		{1, rel(model.Relation_GreaterThan), []string{"3"}, "nt/jit>3", "nt/jit>3"},
		{1, rel(model.Relation_SmallerThan), []string{"3"}, "nt/jit<3", "nt/jit<3"},
		{1, rel(model.Relation_UnequalTo), []string{"3"}, "nt/jit#3", "nt/jit#3"},
		{1, rng, []string{"1", "2"}, "nt/jit=[1:2]", "nt/jit=[1:2]"},
		{3, rng, []string{"1", "2"}, "nt/jit=[1:2]", "nt/jit =  [ 1:2 ] "},
		{2, and, []string{"1", "2"}, "nt/jit=[1,2]", "nt/jit=[1,\n\t\t\t\t\t2]"},
		{3, and, []string{"1", "2"}, "nt/jit=[1,2]", "nt/jit =  [\n\t\t\t\t\t\t1,\n\t\t\t\t\t\t2\n\t\t\t\t\t]"},
		{2, or, []string{"1", "2"}, "nt/jit={1,2}", "nt/jit= { 1,\n\t\t\t\t\t2 } "},
		{3, or, []string{"1", "2"}, "nt/jit={1,2}", "nt/jit =  {\n\t\t\t\t\t\t1,\n\t\t\t\t\t\t2\n\t\t\t\t\t}"},
		{3, nil, []string{"1", "2"}, "nt/jit={1,2}", "nt/jit =  {\n\t\t\t\t\t\t1,\n\t\t\t\t\t\t2\n\t\t\t\t\t}"}, // no extraInfo: alternatives
		{3, and, []string{"1"}, "nt/jit=[1]", "nt/jit =  [\n\t\t\t\t\t\t1\n\t\t\t\t\t]"},
	} {
		p := etProp("nt/jit", c.values...)
		p.ExtraInfo = c.x
		m := etAdd(c.v, etMedia(&model.LocalControlDescriptor{PropertyParms: []model.PropertyParm{p}}))
		if got := etBody(t, m, Compact); !strings.Contains(got, "O{"+c.compact+"}") {
			t.Errorf("v%d %v %v compact: got %q, want %q", c.v, c.x, c.values, got, c.compact)
		}
		if got := etBody(t, m, Pretty); !strings.Contains(got, "LocalControl {\n\t\t\t\t\t"+c.pretty+"\n\t\t\t\t}") {
			t.Errorf("v%d %v %v pretty: got %q, want %q", c.v, c.x, c.values, got, c.pretty)
		}
	}
	for _, c := range []struct {
		x      *model.PropertyParmExtraInfo
		values []string
	}{{rel(model.Relation_GreaterThan), []string{"1", "2"}}, {rng, []string{"1"}}, {nil, nil}, {rel(9), []string{"1"}}} {
		p := etProp("nt/jit", c.values...)
		p.ExtraInfo = c.x
		if _, err := Append(nil, etAdd(3, etMedia(&model.LocalControlDescriptor{PropertyParms: []model.PropertyParm{p}})), Compact, Options{}); !errors.Is(err, ErrNoTextForm) {
			t.Errorf("%v %v: got %v, want ErrNoTextForm", c.x, c.values, err)
		}
	}
}

// TestDigitMapBlanks: blanks around a digit map body are not part of it in
// text; the body is written without them and reads back the same.
func TestDigitMapBlanks(t *testing.T) {
	m := etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_DigitMapDescriptor, DigitMapDescriptor: &model.DigitMapDescriptor{
		DigitMapName: model.Octets("dialplan00"), DigitMapValue: &model.DigitMapValue{DigitMapBody: " \t(0s|tx) \r\n"}}})
	out, err := Append(nil, m, Compact, Options{})
	if err != nil || !strings.Contains(string(out), "DM=dialplan00{(0s|tx)}") {
		t.Fatalf("%s %v", out, err)
	}
	back, err := Decode(out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := Append(nil, back, Compact, Options{}); !bytes.Equal(again, out) {
		t.Errorf("%s read back as %s", out, again)
	}
}

// TestKeywordNames: a property name without a package that is a keyword
// ("v", "m": Annex C SDP tags outside Local/Remote) has no text form; a
// non-keyword one ("IPv4") is written and reads back.
func TestKeywordNames(t *testing.T) {
	for _, name := range []string{"v", "M", "ST", "Mode"} {
		m := etAdd(3, etMedia(&model.LocalControlDescriptor{PropertyParms: []model.PropertyParm{etProp(name, "0")}}))
		if _, err := Append(nil, m, Compact, Options{}); !errors.Is(err, ErrNoTextForm) || !strings.Contains(err.Error(), "reads back as a text keyword") {
			t.Errorf("%s: got %v", name, err)
		}
	}
	m := etAdd(3, etMedia(&model.LocalControlDescriptor{PropertyParms: []model.PropertyParm{etProp("IPv4", "1.2.3.4")}}))
	out, err := Append(nil, m, Compact, Options{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(out, Options{})
	if err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if again, _ := Append(nil, back, Compact, Options{}); !bytes.Equal(again, out) {
		t.Errorf("%s read back as %s", out, again)
	}
	// SDP's v= inside Local is checked by TestQuotedStrings.
}

func TestIPv6(t *testing.T) {
	// Expected texts: what OTP's encoder writes for these addresses.
	for _, c := range []struct {
		addr [16]byte
		want string
	}{
		{[16]byte{}, "[::]"},
		{[16]byte{15: 1}, "[::1]"},
		{[16]byte{1: 1}, "[1::]"},
		{[16]byte{1: 1, 7: 2, 15: 3}, "[1::2:0:0:0:3]"},
		{[16]byte{1: 1, 5: 2, 11: 3, 15: 4}, "[1:0:2::3:0:4]"},
		{[16]byte{5: 1, 15: 2}, "[::1:0:0:0:0:2]"},
		{[16]byte{0xfe, 0x80, 13: 1, 15: 2}, "[FE80::1:2]"},
		{[16]byte{1: 1, 3: 2, 5: 3, 7: 4, 9: 5, 11: 6, 13: 7, 15: 8}, "[1:2:3:4:5:6:7:8]"},
		{[16]byte{3: 1, 5: 2, 7: 3, 9: 4, 11: 5, 13: 6, 15: 7}, "[0:1:2:3:4:5:6:7]"},
		{[16]byte{1: 1, 3: 2, 5: 3, 7: 4, 9: 5, 11: 6, 13: 7}, "[1:2:3:4:5:6:7:0]"},
		{[16]byte{1: 1, 9: 5, 11: 6, 3: 2}, "[1:2::5:6:0:0]"},
		{[16]byte{0xab, 0xcd, 0xef, 0x01}, "[ABCD:EF01::]"},
		{[16]byte{0x10, 0x00, 0x0f, 0xff, 15: 0x10}, "[1000:FFF::10]"},
	} {
		m := etAdd(1)
		m.Mess.MId = model.MId{Kind: model.MId_Ip6Address, Ip6Address: &model.IP6Address{Address: c.addr[:], PortNumber: model.Some[uint32](2944)}}
		out, err := Append(nil, m, Compact, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := "!/1 " + c.want + ":2944\n"; !strings.HasPrefix(string(out), want) {
			t.Errorf("%x: got %q, want %q", c.addr, out, want)
		}
	}
}

func TestMIds(t *testing.T) {
	for _, c := range []struct {
		mid             model.MId
		compact, pretty string
	}{
		{model.MId{Kind: model.MId_DomainName, DomainName: &model.DomainName{Name: "mg1.example.net"}}, "!/1 <mg1.example.net>\n", "MEGACO/1 <mg1.example.net>\n"},
		{model.MId{Kind: model.MId_DomainName, DomainName: &model.DomainName{Name: "mg1", PortNumber: model.Some[uint32](2944)}}, "!/1 <mg1>:2944\n", "MEGACO/1 <mg1>:2944\n"},
		{model.MId{Kind: model.MId_DeviceName, DeviceName: "mg1/trunk"}, "!/1 mg1/trunk\n", "MEGACO/1 mg1/trunk\n"},
		{model.MId{Kind: model.MId_MtpAddress, MtpAddress: model.Octets("0A1B")}, "!/1 MTP{0A1B}\n", "MEGACO/1 MTP { 0A1B } \n"},
		{model.MId{Kind: model.MId_Ip4Address, Ip4Address: &model.IP4Address{Address: model.Octets{10, 0, 0, 1}}}, "!/1 [10.0.0.1]\n", "MEGACO/1 [10.0.0.1]\n"},
	} {
		m := etAdd(1)
		m.Mess.MId = c.mid
		for style, want := range map[Style]string{Compact: c.compact, Pretty: c.pretty} {
			out, err := Append(nil, m, style, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(out), want) {
				t.Errorf("%s: got %q, want %q", style, out, want)
			}
		}
	}
	bad := etAdd(1)
	bad.Mess.MId = model.MId{Kind: model.MId_MtpAddress, MtpAddress: model.Octets{0x0a, 0x1b}}
	if _, err := Append(nil, bad, Compact, Options{}); !errors.Is(err, ErrBinaryForm) || !strings.Contains(err.Error(), "mess.mId.mtpAddress") {
		t.Errorf("packed MTP address: %v", err)
	}
}

func TestAuthHeader(t *testing.T) {
	m := etAdd(1)
	m.AuthHeader = &model.AuthenticationHeader{SecParmIndex: model.Octets{0, 1, 0x0a, 0xff}, SeqNum: model.Octets{0, 0, 0, 5},
		Ad: model.Octets{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0xfe}}
	out, err := Append(nil, m, Pretty, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Authentication = 0x00010AFF:0x00000005:0x0102030405060708090A0BFE\nMEGACO/1 "; !strings.HasPrefix(string(out), want) {
		t.Errorf("got %q, want prefix %q", out, want)
	}
	out, _ = Append(nil, m, Compact, Options{})
	if want := "AU=0x00010AFF:0x00000005:0x0102030405060708090A0BFE\n!/1 "; !strings.HasPrefix(string(out), want) {
		t.Errorf("got %q, want prefix %q", out, want)
	}
	m.AuthHeader.Ad = model.Octets{1}
	if _, err := Append(nil, m, Compact, Options{}); !errors.Is(err, ErrNoTextForm) || !strings.Contains(err.Error(), "authHeader.ad") {
		t.Errorf("short auth data: %v", err)
	}
}

// TestVersionConstructs: every construct a version's grammar lacks is
// refused in that version, naming the field, and written from the first
// version that has it.
func TestVersionConstructs(t *testing.T) {
	ctxReq := func(c model.ContextRequest) func(int) *model.MegacoMessage {
		return func(v int) *model.MegacoMessage {
			m := etAdd(v)
			m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].ContextRequest = &c
			return m
		}
	}
	ctxAudit := func(c model.ContextAttrAuditRequest) func(int) *model.MegacoMessage {
		return func(v int) *model.MegacoMessage {
			m := etAdd(v)
			m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].ContextAttrAuditReq = &c
			return m
		}
	}
	withDesc := func(d model.AmmDescriptor) func(int) *model.MegacoMessage {
		return func(v int) *model.MegacoMessage { return etAdd(v, d) }
	}
	sig := func(s model.Signal) func(int) *model.MegacoMessage {
		s.SignalName = model.Octets("cg/rt")
		return withDesc(etSignals(s))
	}
	evAction := func(a model.RequestedActions) func(int) *model.MegacoMessage {
		return withDesc(etEvents(1, model.RequestedEvent{PkgdName: model.Octets("al/on"), EventAction: &a}))
	}
	audit := func(a model.AuditDescriptor) func(int) *model.MegacoMessage {
		return withDesc(model.AmmDescriptor{Kind: model.AmmDescriptor_AuditDescriptor, AuditDescriptor: &a})
	}
	sc := func(p model.ServiceChangeParm) func(int) *model.MegacoMessage {
		return func(v int) *model.MegacoMessage {
			p.ServiceChangeReason = []model.Octets{model.Octets("901")}
			return etRequest(v, model.ActionRequest{CommandRequests: []model.CommandRequest{{Command: model.Command{
				Kind: model.Command_ServiceChangeReq, ServiceChangeReq: &model.ServiceChangeRequest{
					TerminationID: []model.TerminationID{etTid("root")}, ServiceChangeParms: p}}}}})
		}
	}
	topo := func(tr model.TopologyRequest) func(int) *model.MegacoMessage {
		tr.TerminationFrom, tr.TerminationTo = etTid(etT1), etTid(etT2)
		return ctxReq(model.ContextRequest{TopologyReq: []model.TopologyRequest{tr}})
	}
	indAud := model.IndAuditParameter{Kind: model.IndAuditParameter_IndAudStatisticsDescriptor,
		IndAudStatisticsDescriptor: &model.IndAudStatisticsDescriptor{StatName: model.Octets("nt/os")}}
	for _, c := range []struct {
		name  string
		since int
		build func(int) *model.MegacoMessage
		path  string // of the refusal
		text  string // in the compact text of the first version that has it
	}{
		{"segment reply", 3, func(v int) *model.MegacoMessage {
			m := etAdd(v)
			m.Mess.MessageBody.Transactions = append(m.Mess.MessageBody.Transactions, model.Transaction{Kind: model.Transaction_SegmentReply,
				SegmentReply: &model.SegmentReply{TransactionId: 5, SegmentNumber: 2, SegmentationComplete: true}})
			return m
		}, "transactions[1].segmentReply", "SM=5/2/&"},
		{"reply segment number", 3, func(v int) *model.MegacoMessage {
			m := etReply(v, model.ActionReply{ContextId: 1})
			r := m.Mess.MessageBody.Transactions[0].TransactionReply
			r.SegmentNumber, r.SegmentationComplete = model.Some[uint32](3), true
			return m
		}, "transactionReply.segmentNumber", "P=1/3/&{C=1}"},
		{"empty action reply", 3, func(v int) *model.MegacoMessage { return etReply(v, model.ActionReply{ContextId: 1}) },
			"transactionReply.transactionResult.actionReplies[0]", "P=1{C=1}"},
		{"EmergencyOff", 2, ctxReq(model.ContextRequest{Emergency: model.Some(false)}), "actions[0].contextRequest.emergency", "{C=1{EGO,A="},
		{"IEPSCall", 3, ctxReq(model.ContextRequest{Iepscallind: model.Some(true)}), "contextRequest.iepscallind", "{C=1{IEPS=ON,A="},
		{"ContextAttr", 3, ctxReq(model.ContextRequest{ContextProp: []model.PropertyParm{etProp("nt/jit", "4")}}), "contextRequest.contextProp", "CT{nt/jit=4}"},
		{"ContextList", 3, ctxReq(model.ContextRequest{ContextList: []uint32{1, 0xFFFFFFFE}}), "contextRequest.contextList", "CT{CLT={1,$}}"},
		{"topology stream", 2, topo(model.TopologyRequest{TopologyDirection: model.TopologyRequestTopologyDirection_Oneway, StreamID: model.Some[uint32](4)}),
			"contextRequest.topologyReq[0].streamID", ",OW,ST=4}"},
		{"topology direction extension", 3, topo(model.TopologyRequest{TopologyDirectionExtension: model.Some(model.TopologyRequestTopologyDirectionExtension_Onewayboth)}),
			"contextRequest.topologyReq[0].topologyDirectionExtension", ",BW,OWB}"},
		{"context audit IEPS", 3, ctxAudit(model.ContextAttrAuditRequest{Iepscallind: true}), "contextAttrAuditReq.iepscallind", "CA{IEPS}"},
		{"context audit select", 3, ctxAudit(model.ContextAttrAuditRequest{Selectpriority: model.Some[uint32](4), Selectemergency: model.Some(false),
			Selectiepscallind: model.Some(true), SelectLogic: &model.SelectLogic{Kind: model.SelectLogic_OrAUDITSelect}}),
			"contextAttrAuditReq.selectpriority", "CA{PR=4,EGV=EGO,IEPS=ON,ORLgc}"},
		{"context property audit", 3, ctxAudit(model.ContextAttrAuditRequest{ContextPropAud: []model.IndAudPropertyParm{{Name: model.Octets("nt/jit")}}}),
			"contextAttrAuditReq.contextPropAud", "CA{nt/jit}"},
		{"termination ID list", 3, func(v int) *model.MegacoMessage {
			m := etAdd(v)
			m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.AddReq.TerminationID = []model.TerminationID{etTid(etT1), etTid(etT2)}
			return m
		}, "commandRequests[0].command.addReq.terminationID", "A=[" + etT1 + "," + etT2 + "]"},
		{"audit request ID list", 3, func(v int) *model.MegacoMessage {
			return etRequest(v, model.ActionRequest{CommandRequests: []model.CommandRequest{{Command: model.Command{
				Kind: model.Command_AuditValueRequest, AuditValueRequest: &model.AuditRequest{TerminationID: etTid(etT1),
					TerminationIDList: []model.TerminationID{etTid(etT1), etTid(etT2)}}}}}})
		}, "auditValueRequest.terminationIDList", "AV=[" + etT1 + "," + etT2 + "]{AT{}}"},
		{"audit result list", 3, func(v int) *model.MegacoMessage {
			return etReply(v, model.ActionReply{CommandReply: []model.CommandReply{{Kind: model.CommandReply_AuditValueReply,
				AuditValueReply: &model.AuditReply{Kind: model.AuditReply_AuditResultTermList, AuditResultTermList: &model.TermListAuditResult{
					TerminationIDList: []model.TerminationID{etTid(etT1), etTid(etT2)}}}}}})
		}, "auditValueReply.auditResultTermList", "AV=[" + etT1 + "," + etT2 + "]}"},
		{"signal direction", 3, sig(model.Signal{Direction: model.Some(model.SignalDirection_Both)}), "signal.direction", "cg/rt{SPADI=B}"},
		{"signal request ID", 3, sig(model.Signal{RequestID: model.Some[uint32](0xFFFFFFFF)}), "signal.requestID", "cg/rt{SPARQ=*}"},
		{"intersignal delay", 3, sig(model.Signal{IntersigDelay: model.Some[uint32](20)}), "signal.intersigDelay", "cg/rt{SPAIS=20}"},
		{"notify completion on iteration", 3, sig(model.Signal{NotifyCompletion: model.Some(model.BitString{Bits: 1<<4 | 1})}), "signal.notifyCompletion", "cg/rt{NC={TO,IR}}"},
		{"notify behaviour", 3, evAction(model.RequestedActions{NotifyBehaviour: &model.NotifyBehaviour{Kind: model.NotifyBehaviour_NeverNotify}}),
			"eventList[0].eventAction.notifyBehaviour", "al/on{NBNN}"},
		{"reset events descriptor", 3, evAction(model.RequestedActions{ResetEventsDescriptor: true}), "eventAction.resetEventsDescriptor", "al/on{RSE}"},
		{"statistics descriptor in a command", 3, withDesc(model.AmmDescriptor{Kind: model.AmmDescriptor_StatisticsDescriptor,
			StatisticsDescriptor: []model.StatisticsParameter{{StatName: model.Octets("nt/os")}}}), "descriptors[0].statisticsDescriptor", "{SA{nt/os}}"},
		{"statistics in a stream", 3, withDesc(model.AmmDescriptor{Kind: model.AmmDescriptor_MediaDescriptor, MediaDescriptor: &model.MediaDescriptor{
			Streams: &model.MediaDescriptorStreams{Kind: model.MediaDescriptorStreams_OneStream, OneStream: &model.StreamParms{
				StatisticsDescriptor: []model.StatisticsParameter{{StatName: model.Octets("nt/os"), StatValue: []model.Octets{model.Octets("1"), model.Octets("2")}}}}}}}),
			"oneStream.statisticsDescriptor", "M{SA{nt/os=[1,2]}}"},
		{"ServiceChangeInc", 3, sc(model.ServiceChangeParm{ServiceChangeMethod: model.ServiceChangeMethod_Restart, ServiceChangeIncompleteFlag: true}),
			"serviceChangeParms.serviceChangeIncompleteFlag", "SV{MT=RS,RE=\"901\",SIC}"},
		{"audit items in a ServiceChange", 2, sc(model.ServiceChangeParm{ServiceChangeInfo: &model.AuditDescriptor{
			AuditToken: model.Some(model.BitString{Bits: 1<<2 | 1<<3}), AuditPropertyToken: []model.IndAuditParameter{indAud}}}),
			"serviceChangeParms.serviceChangeInfo", "SV{MT=FL,RE=\"901\",M,E,SA{nt/os}}"},
		{"individual audit", 2, audit(model.AuditDescriptor{AuditPropertyToken: []model.IndAuditParameter{indAud}}),
			"auditDescriptor.auditPropertyToken", "AT{SA{nt/os}}"},
		{"digit map Z timer", 2, withDesc(model.AmmDescriptor{Kind: model.AmmDescriptor_DigitMapDescriptor, DigitMapDescriptor: &model.DigitMapDescriptor{
			DigitMapValue: &model.DigitMapValue{DurationTimer: model.Some[uint32](7), DigitMapBody: "(xx)"}}}),
			"digitMapDescriptor.digitMapValue.durationTimer", "DM={Z:7,(xx)}"},
		{"Nx64Kservice", 2, withDesc(model.AmmDescriptor{Kind: model.AmmDescriptor_MuxDescriptor, MuxDescriptor: &model.MuxDescriptor{
			MuxType: model.MuxType_Nx64k, TermList: []model.TerminationID{etTid(etT2)}}}), "muxDescriptor.muxType", "MX=N64{" + etT2 + "}"},
	} {
		for v := 1; v <= 3; v++ {
			out, err := Append(nil, c.build(v), Compact, Options{})
			if v < c.since {
				if !errors.Is(err, ErrNotInVersion) {
					t.Errorf("%s in v%d: got %q, %v; want ErrNotInVersion", c.name, v, out, err)
				} else if !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), "version") {
					t.Errorf("%s in v%d: error %q does not name %s", c.name, v, err, c.path)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s in v%d: %v", c.name, v, err)
				continue
			}
			if v == c.since && !strings.Contains(string(out), c.text) {
				t.Errorf("%s in v%d: got %q, want it to contain %q", c.name, v, out, c.text)
			}
		}
	}
}

// TestBinaryForm: a message straight from the BER decoder is refused
// with a clear error.
func TestBinaryForm(t *testing.T) {
	for _, c := range loadCorpus(t)[:20] {
		m, err := ber.Decode(c.ber, ber.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, style := range []Style{Pretty, Compact} {
			out, err := Append([]byte("x"), m, style, Options{})
			if !errors.Is(err, ErrBinaryForm) {
				t.Fatalf("%s %s: got %q, %v; want ErrBinaryForm", c.name, style, out, err)
			}
			if !strings.Contains(err.Error(), "mapping.ToText") || string(out) != "x" {
				t.Fatalf("%s %s: %q, %v", c.name, style, out, err)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		m     func() *model.MegacoMessage
		style Style
		kind  error
		path  string
	}{
		{"nil message", func() *model.MegacoMessage { return nil }, Compact, ErrNoTextForm, ""},
		{"bad style", func() *model.MegacoMessage { return etAdd(1) }, Style(7), ErrNoTextForm, ""},
		{"version 0", func() *model.MegacoMessage { m := etAdd(1); m.Mess.Version = 0; return m }, Compact, ErrNoTextForm, "mess.version"},
		{"no transactions", func() *model.MegacoMessage { m := etAdd(1); m.Mess.MessageBody.Transactions = nil; return m }, Compact, ErrNoTextForm, "mess.messageBody.transactions"},
		{"no body", func() *model.MegacoMessage { m := etAdd(1); m.Mess.MessageBody.Kind = 0; return m }, Pretty, ErrNoTextForm, "mess.messageBody"},
		{"empty action", func() *model.MegacoMessage { return etRequest(1, model.ActionRequest{}) }, Compact, ErrNoTextForm, "transactionRequest.actions[0]"},
		{"no termination ID", func() *model.MegacoMessage {
			m := etAdd(1)
			m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.AddReq.TerminationID = nil
			return m
		}, Compact, ErrNoTextForm, "addReq.terminationID"},
		{"bad termination ID", func() *model.MegacoMessage {
			m := etAdd(1)
			m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.AddReq.TerminationID[0] = etTid("a b")
			return m
		}, Compact, ErrNoTextForm, "addReq.terminationID[0]"},
		{"binary termination ID", func() *model.MegacoMessage {
			m := etAdd(1)
			m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.AddReq.TerminationID[0] =
				model.TerminationID{Wildcard: []model.Octets{{0x57}}, Id: model.Octets{0, 0, 0}}
			return m
		}, Compact, ErrBinaryForm, "addReq.terminationID[0]"},
		{"binary name", func() *model.MegacoMessage {
			return etAdd(1, etSignals(model.Signal{SignalName: model.Octets{0, 7, 0, 0x31}}))
		}, Compact, ErrBinaryForm, "signalsDescriptor[0].signal.signalName"},
		{"bad mode", func() *model.MegacoMessage {
			return etAdd(1, etMedia(&model.LocalControlDescriptor{StreamMode: model.Some(model.StreamMode(9))}))
		}, Pretty, ErrNoTextForm, "localControlDescriptor.streamMode"},
		{"empty local control", func() *model.MegacoMessage { return etAdd(1, etMedia(&model.LocalControlDescriptor{})) }, Compact, ErrNoTextForm, "localControlDescriptor"},
		{"empty media", func() *model.MegacoMessage {
			return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_MediaDescriptor, MediaDescriptor: &model.MediaDescriptor{}})
		}, Compact, ErrNoTextForm, "descriptors[0].mediaDescriptor"},
		{"empty stream", func() *model.MegacoMessage {
			return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_MediaDescriptor, MediaDescriptor: &model.MediaDescriptor{
				Streams: &model.MediaDescriptorStreams{Kind: model.MediaDescriptorStreams_MultiStream, MultiStream: []model.StreamDescriptor{{StreamID: 1}}}}})
		}, Compact, ErrNoTextForm, "mediaDescriptor.streams.multiStream[0].streamParms"},
		{"empty termination state", func() *model.MegacoMessage {
			return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_MediaDescriptor, MediaDescriptor: &model.MediaDescriptor{
				TermStateDescr: &model.TerminationStateDescriptor{}}})
		}, Compact, ErrNoTextForm, "mediaDescriptor.termStateDescr"},
		{"events without request ID", func() *model.MegacoMessage {
			return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_EventsDescriptor, EventsDescriptor: &model.EventsDescriptor{
				EventList: []model.RequestedEvent{{PkgdName: model.Octets("al/on")}}}})
		}, Compact, ErrNoTextForm, "eventsDescriptor"},
		{"UINT16 overflow", func() *model.MegacoMessage {
			return etAdd(1, etSignals(model.Signal{SignalName: model.Octets("cg/rt"), Duration: model.Some[uint32](70000)}))
		}, Compact, ErrNoTextForm, "signal.duration"},
		{"timer overflow", func() *model.MegacoMessage {
			return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_DigitMapDescriptor, DigitMapDescriptor: &model.DigitMapDescriptor{
				DigitMapValue: &model.DigitMapValue{StartTimer: model.Some[uint32](100), DigitMapBody: "xx"}}})
		}, Compact, ErrNoTextForm, "digitMapValue.startTimer"},
		{"digit map with a brace", func() *model.MegacoMessage {
			return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_DigitMapDescriptor, DigitMapDescriptor: &model.DigitMapDescriptor{
				DigitMapValue: &model.DigitMapValue{DigitMapBody: "x}x"}}})
		}, Compact, ErrNoTextForm, "digitMapValue.digitMapBody"},
		{"digit map that reads as a timer", func() *model.MegacoMessage {
			return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_DigitMapDescriptor, DigitMapDescriptor: &model.DigitMapDescriptor{
				DigitMapValue: &model.DigitMapValue{DigitMapBody: " t :5"}}})
		}, Compact, ErrNoTextForm, "digitMapValue.digitMapBody"},
		{"digit map that reads as a comment", func() *model.MegacoMessage {
			return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_DigitMapDescriptor, DigitMapDescriptor: &model.DigitMapDescriptor{
				DigitMapValue: &model.DigitMapValue{DigitMapBody: ";xx"}}})
		}, Compact, ErrNoTextForm, "digitMapValue.digitMapBody"},
		{"blank digit map", func() *model.MegacoMessage {
			return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_DigitMapDescriptor, DigitMapDescriptor: &model.DigitMapDescriptor{
				DigitMapValue: &model.DigitMapValue{DigitMapBody: " \t\r\n"}}})
		}, Compact, ErrNoTextForm, "digitMapValue.digitMapBody"},
		{"bad time stamp", func() *model.MegacoMessage {
			m := etAdd(1)
			m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command = model.Command{
				Kind: model.Command_NotifyReq, NotifyReq: &model.NotifyRequest{TerminationID: []model.TerminationID{etTid(etT1)},
					ObservedEventsDescriptor: model.ObservedEventsDescriptor{RequestId: 1, ObservedEventLst: []model.ObservedEvent{{
						EventName: model.Octets("al/on"), TimeNotation: &model.TimeNotation{Date: "2004", Time: "12000000"}}}}}}
			return m
		}, Compact, ErrNoTextForm, "observedEventLst[0].timeNotation"},
		{"non-standard data", func() *model.MegacoMessage {
			return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_MuxDescriptor, MuxDescriptor: &model.MuxDescriptor{
				TermList: []model.TerminationID{etTid(etT1)}, NonStandardData: &model.NonStandardData{}}})
		}, Compact, ErrNoTextForm, "muxDescriptor.nonStandardData"},
		{"second property group without v=", func() *model.MegacoMessage {
			return etAdd(1, model.AmmDescriptor{Kind: model.AmmDescriptor_MediaDescriptor, MediaDescriptor: &model.MediaDescriptor{
				Streams: &model.MediaDescriptorStreams{Kind: model.MediaDescriptorStreams_OneStream, OneStream: &model.StreamParms{
					RemoteDescriptor: &model.LocalRemoteDescriptor{PropGrps: [][]model.PropertyParm{{etProp("v", "0")}, {etProp("c", "IN IP4 $")}}}}}}})
		}, Compact, ErrNoTextForm, "remoteDescriptor.propGrps[1]"},
		{"v3 bare return item", func() *model.MegacoMessage {
			return etReply(3, model.ActionReply{CommandReply: []model.CommandReply{{Kind: model.CommandReply_AuditValueReply,
				AuditValueReply: &model.AuditReply{Kind: model.AuditReply_AuditResult, AuditResult: &model.AuditResult{TerminationID: etTid(etT1),
					TerminationAuditResult: []model.AuditReturnParameter{{Kind: model.AuditReturnParameter_EmptyDescriptors,
						EmptyDescriptors: &model.AuditDescriptor{AuditToken: model.Some(model.BitString{Bits: 1 << 3})}}}}}}}})
		}, Compact, ErrNotInVersion, "terminationAuditResult[0].emptyDescriptors.auditToken"},
	} {
		out, err := Append([]byte("keep"), c.m(), c.style, Options{})
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: got %q, %v; want %v", c.name, out, err, c.kind)
			continue
		}
		var ee *codecerr.Error
		if !errors.As(err, &ee) || !strings.Contains(ee.Path(), c.path) {
			t.Errorf("%s: error %v: path %q does not contain %q", c.name, err, ee.Path(), c.path)
		}
		kind := codecerr.Schema
		if c.path == "mess.version" {
			kind = codecerr.Unsupported
		}
		if ee.Codec != "text" || ee.Op != codecerr.Encode || ee.Kind != kind {
			t.Errorf("%s: error %#v: want text, encode, %v", c.name, ee, kind)
		}
		if string(out) != "keep" {
			t.Errorf("%s: buffer changed to %q", c.name, out)
		}
	}
}

// TestLayouts pins OTP's layouts of constructs the corpus lacks (checked
// against OTP by TestOTPOracle when Erlang is installed).
func TestLayouts(t *testing.T) {
	notify := func(v int, ed bool, etEvents int) *model.MegacoMessage {
		n := &model.NotifyRequest{TerminationID: []model.TerminationID{etTid(etT1)}}
		if etEvents > 0 {
			n.ObservedEventsDescriptor = model.ObservedEventsDescriptor{RequestId: 5, ObservedEventLst: []model.ObservedEvent{{EventName: model.Octets("al/on")}}}
		}
		if ed {
			n.ErrorDescriptor = &model.ErrorDescriptor{ErrorCode: 400}
		}
		return etRequest(v, model.ActionRequest{ContextId: 1, CommandRequests: []model.CommandRequest{{
			Command: model.Command{Kind: model.Command_NotifyReq, NotifyReq: n}}}})
	}
	acks := func(v int) *model.MegacoMessage {
		m := &model.MegacoMessage{Mess: etHeader(v)}
		m.Mess.MessageBody = model.MessageMessageBody{Kind: model.MessageMessageBody_Transactions, Transactions: []model.Transaction{
			{Kind: model.Transaction_TransactionResponseAck, TransactionResponseAck: []model.TransactionAck{{FirstAck: 1}, {FirstAck: 3, LastAck: model.Some[uint32](9)}}},
			{Kind: model.Transaction_TransactionPending, TransactionPending: &model.TransactionPending{TransactionId: 7}}}}
		return m
	}
	for _, c := range []struct {
		name  string
		m     *model.MegacoMessage
		style Style
		want  string
	}{
		{"notify error only", notify(3, true, 0), Pretty, "Transaction = 1 {\n\tContext = 1 {\n\t\tNotify = " + etT1 + " {\n\t\t\tError = 400 {  } \n\t\t}\n\t}\n}"},
		{"notify events and error", notify(3, true, 1), Compact, "T=1{C=1{N=" + etT1 + "{OE=5{al/on},ER=400{}}}}"},
		{"notify events and error", notify(1, true, 1), Pretty, "Transaction = 1 {\n\tContext = 1 {\n\t\tNotify = " + etT1 + " {\n\t\t\tObservedEvents = 5 {\n\t\t\t\tal/on\n\t\t\t}, Error = 400 {  } \n\t\t}\n\t}\n}"},
		{"acks v1", acks(1), Pretty, "TransactionResponseAck {\n\t1,\n\t3-9\n}Pending = 7 {\n\t\n}"},
		{"acks v2", acks(2), Pretty, "TransactionResponseAck {\n\t1,\n3-9\n}Pending = 7 {\n\t\n}"},
		{"acks compact", acks(3), Compact, "K{1,3-9}PN=7{}"},
		{"modem", etAdd(3, model.AmmDescriptor{Kind: model.AmmDescriptor_ModemDescriptor, ModemDescriptor: &model.ModemDescriptor{
			Mtl: []model.ModemType{model.ModemType_V18, model.ModemType_SynchISDN}, Mpl: []model.PropertyParm{etProp("nt/jit", "4")}}}), Compact,
			"T=1{C=1{A=" + etT1 + "{MD[V18,SN]{nt/jit=4}}}}"},
		{"message error", &model.MegacoMessage{Mess: model.Message{Version: 2, MId: etHeader(2).MId, MessageBody: model.MessageMessageBody{
			Kind: model.MessageMessageBody_MessageError, MessageError: &model.ErrorDescriptor{ErrorCode: 402, ErrorText: model.Some("no")}}}}, Pretty,
			"Error = 402 { \"no\" } "},
	} {
		if got := etBody(t, c.m, c.style); got != c.want {
			t.Errorf("%s %s:\n got %q\nwant %q", c.name, c.style, got, c.want)
		}
	}
}

func TestForcedVersion(t *testing.T) {
	c := loadCorpus(t)[0] // a v1 message
	m := textForm(t, c)
	out, err := Append(nil, m, Compact, Options{Version: 3})
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(string(c.compact), "!/1 ", "!/3 ", 1); string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
	if _, err := Append(nil, m, Compact, Options{Version: 4}); !errors.Is(err, ErrNoTextForm) {
		t.Errorf("version 4: %v", err)
	}
}

func TestDeepIndentation(t *testing.T) {
	for _, ind := range []int{0, 1, 31, 32, 33, 70} {
		e := textEncoder{}
		e.nl(ind)
		if want := "\n" + strings.Repeat("\t", ind); string(e.b) != want {
			t.Errorf("nl(%d) = %q", ind, e.b)
		}
	}
}

func TestWords(t *testing.T) {
	for w := range nWords {
		if wordSpelling[Pretty][w] == "" || wordSpelling[Compact][w] == "" || wordSince[w] == 0 {
			t.Errorf("%s has no spelling", wordRules[w])
		}
	}
	for _, c := range []struct {
		w           word
		long, short string
		since       uint8
	}{{wAdd, "Add", "A", 1}, {wMegacop, "MEGACO", "!", 1}, {wSegmentationComplete, "END", "&", 3}, {wNx64k, "Nx64Kservice", "N64", 2},
		{wV18, "V18", "V18", 1}, {wAndAUDITSelect, "ANSLgc", "ANSLgc", 3}, {wRecvonly, "ReceiveOnly", "RC", 1}} {
		if wordSpelling[Pretty][c.w] != c.long || wordSpelling[Compact][c.w] != c.short || wordSince[c.w] != c.since {
			t.Errorf("%s: %q %q %d", wordRules[c.w], wordSpelling[Pretty][c.w], wordSpelling[Compact][c.w], wordSince[c.w])
		}
	}
}

// TestMoreLayouts: replies and addresses the OTP oracle cannot produce
// (OTP's BER encoder refuses them), in OTP's text layout.
func TestMoreLayouts(t *testing.T) {
	auditReply := func(v int, r model.AuditReply) *model.MegacoMessage {
		return etReply(v, model.ActionReply{ContextId: 1, CommandReply: []model.CommandReply{{Kind: model.CommandReply_AuditValueReply, AuditValueReply: &r}}})
	}
	empty := model.AuditReturnParameter{Kind: model.AuditReturnParameter_EmptyDescriptors, EmptyDescriptors: &model.AuditDescriptor{}}
	media := model.AuditReturnParameter{Kind: model.AuditReturnParameter_EmptyDescriptors, EmptyDescriptors: &model.AuditDescriptor{AuditToken: model.Some(model.BitString{Bits: 1<<2 | 1<<5})}}
	sca := func(a model.ServiceChangeAddress) *model.MegacoMessage {
		return etRequest(1, model.ActionRequest{CommandRequests: []model.CommandRequest{{Command: model.Command{
			Kind: model.Command_ServiceChangeReq, ServiceChangeReq: &model.ServiceChangeRequest{TerminationID: []model.TerminationID{etTid("root")},
				ServiceChangeParms: model.ServiceChangeParm{ServiceChangeAddress: &a, ServiceChangeMgcId: &model.MId{Kind: model.MId_DeviceName, DeviceName: "mgc1"}}}}}}})
	}
	for _, c := range []struct {
		name  string
		m     *model.MegacoMessage
		style Style
		want  string
	}{
		{"context audit result", auditReply(1, model.AuditReply{Kind: model.AuditReply_ContextAuditResult, ContextAuditResult: []model.TerminationID{etTid(etT1), etTid(etT2)}}), Pretty,
			"Reply = 1 {\n\tContext = 1 {\n\t\tAuditValue = Context {\n\t\t\t" + etT1 + ",\n\t\t" + etT2 + "\n\t\t}\n\t}\n}"},
		{"context audit error", auditReply(1, model.AuditReply{Kind: model.AuditReply_Error, Error: &model.ErrorDescriptor{ErrorCode: 411}}), Compact,
			"P=1{C=1{AV=C{ER=411{}}}}"},
		{"empty return items are left out", auditReply(1, model.AuditReply{Kind: model.AuditReply_AuditResult, AuditResult: &model.AuditResult{
			TerminationID: etTid(etT1), TerminationAuditResult: []model.AuditReturnParameter{empty, media, empty}}}), Compact,
			"P=1{C=1{AV=" + etT1 + "{M,DM}}}"},
		{"no return items, no braces", auditReply(3, model.AuditReply{Kind: model.AuditReply_AuditResult, AuditResult: &model.AuditResult{
			TerminationID: etTid(etT1), TerminationAuditResult: []model.AuditReturnParameter{empty}}}), Compact,
			"P=1{C=1{AV=" + etT1 + "}}"},
		{"v1 return items", auditReply(1, model.AuditReply{Kind: model.AuditReply_AuditResult, AuditResult: &model.AuditResult{
			TerminationID: etTid(etT1), TerminationAuditResult: []model.AuditReturnParameter{media}}}), Pretty,
			"Reply = 1 {\n\tContext = 1 {\n\t\tAuditValue = " + etT1 + " {\n\t\t\tMedia,\n\t\t\t\tDigitMap\n\t\t}\n\t}\n}"},
		{"v3 return items", auditReply(3, model.AuditReply{Kind: model.AuditReply_AuditResult, AuditResult: &model.AuditResult{
			TerminationID: etTid(etT1), TerminationAuditResult: []model.AuditReturnParameter{media}}}), Pretty,
			"Reply = 1 {\n\tContext = 1 {\n\t\tAuditValue = " + etT1 + " {\n\t\t\tMedia,\n\t\t\tDigitMap\n\t\t}\n\t}\n}"},
		{"address ip4", sca(model.ServiceChangeAddress{Kind: model.ServiceChangeAddress_Ip4Address, Ip4Address: &model.IP4Address{Address: model.Octets{1, 2, 3, 4}, PortNumber: model.Some[uint32](5)}}),
			Compact, "T=1{C=-{SC=root{SV{MT=FL,AD=[1.2.3.4]:5,MG=mgc1}}}}"},
		{"address device", sca(model.ServiceChangeAddress{Kind: model.ServiceChangeAddress_DeviceName, DeviceName: "mg/dev1"}),
			Pretty, "Transaction = 1 {\n\tContext = - {\n\t\tServiceChange = root {\n\t\t\tServices {\n\t\t\t\tMethod = Failover,\n\t\t\t\tServiceChangeAddress = mg/dev1,\n\t\t\t\tMgcIdToTry = mgc1\n\t\t\t}\n\t\t}\n\t}\n}"},
		{"address mtp", sca(model.ServiceChangeAddress{Kind: model.ServiceChangeAddress_MtpAddress, MtpAddress: model.Octets("00AB12")}),
			Pretty, "Transaction = 1 {\n\tContext = - {\n\t\tServiceChange = root {\n\t\t\tServices {\n\t\t\t\tMethod = Failover,\n\t\t\t\tServiceChangeAddress = MTP { 00AB12 } ,\n\t\t\t\tMgcIdToTry = mgc1\n\t\t\t}\n\t\t}\n\t}\n}"},
	} {
		if got := etBody(t, c.m, c.style); got != c.want {
			t.Errorf("%s %s:\n got %q\nwant %q", c.name, c.style, got, c.want)
		}
	}
}

// TestEventParameters: event parameters take relations, ranges and lists
// like properties (OTP's text decoder drops them, the model keeps them).
func TestEventParameters(t *testing.T) {
	ev := model.RequestedEvent{PkgdName: model.Octets("al/fl"), EvParList: []model.EventParameter{
		{EventParameterName: model.Octets("mindur"), Value: []model.Octets{model.Octets("100")},
			ExtraInfo: &model.EventParameterExtraInfo{Kind: model.EventParameterExtraInfo_Relation, Relation: model.Relation_GreaterThan}},
		{EventParameterName: model.Octets("maxdur"), Value: []model.Octets{model.Octets("200"), model.Octets("900")},
			ExtraInfo: &model.EventParameterExtraInfo{Kind: model.EventParameterExtraInfo_Range, Range: true}},
		{EventParameterName: model.Octets("ds"), Value: []model.Octets{model.Octets("1"), model.Octets("2")}},
	}}
	if got, want := etBody(t, etAdd(1, etEvents(3, ev)), Compact), "E=3{al/fl{mindur>100,maxdur=[200:900],ds={1,2}}}"; !strings.Contains(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
