package text

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"megaco/internal/codec/ber"
	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/per"
	"megaco/internal/mapping"
	"megaco/internal/model"
)

func decJSON(m *model.MegacoMessage) string {
	b, _ := json.MarshalIndent(m, "", " ")
	return string(b)
}

// TestDecodeCorpusRoundTrip decodes the pretty and the compact text of
// every corpus message. The result must be the text form of the golden
// BER (ber.Decode, then mapping.ToText), deeply equal; and turned into the
// binary form (mapping.ToBinary) it must encode to the golden BER and PER
// bytes.
//
// msg79a01 needs no exception here: Erlang/OTP's text decoder reverses the
// order of the bare descriptor names of an audit reply (Media, DigitMap,
// Statistics, Packages), so its decode -> encode is not a fixed point; but
// the names become bits of one emptyDescriptors BIT STRING, whose value
// does not depend on their order, so the model compares equal.
func TestDecodeCorpusRoundTrip(t *testing.T) {
	corpus := loadCorpus(t)
	for _, style := range []string{"pretty", "compact"} {
		decoded, same, berOK, perOK := 0, 0, 0, 0
		for _, c := range corpus {
			text := c.pretty
			if style == "compact" {
				text = c.compact
			}
			m, err := Decode(text, Options{})
			if err != nil {
				t.Errorf("%s.%s: %v", c.name, style, err)
				continue
			}
			decoded++
			want := textForm(t, c)
			if !reflect.DeepEqual(m, want) {
				t.Errorf("%s.%s: model differs from the golden BER's text form\n got %s\nwant %s", c.name, style, decJSON(m), decJSON(want))
				continue
			}
			same++
			if err := mapping.ToBinary(m, int(m.Mess.Version), nil); err != nil {
				t.Errorf("%s.%s: ToBinary: %v", c.name, style, err)
				continue
			}
			b, err := ber.Append(nil, m, ber.Options{})
			if err != nil {
				t.Errorf("%s.%s: ber: %v", c.name, style, err)
			} else if !bytes.Equal(b, c.ber) {
				t.Errorf("%s.%s: BER differs\n got %x\nwant %x", c.name, style, b, c.ber)
			} else {
				berOK++
			}
			p, err := per.Append(nil, m, per.Options{})
			if err != nil {
				t.Errorf("%s.%s: per: %v", c.name, style, err)
			} else if !bytes.Equal(p, c.per) {
				t.Errorf("%s.%s: PER differs\n got %x\nwant %x", c.name, style, p, c.per)
			} else {
				perOK++
			}
		}
		n := len(corpus)
		t.Logf("text: %s: decoded %d/%d, model = golden BER's text form %d/%d, -> BER byte for byte %d/%d, -> PER byte for byte %d/%d",
			style, decoded, n, same, n, berOK, n, perOK, n)
	}
	if len(corpus) != 149 {
		t.Errorf("corpus has %d messages, want 149", len(corpus))
	}
}

// decAppendixDir holds RFC 3525's example call flow, one message a file,
// as the RFC prints it (corrected/ has the fixed copies).
const decAppendixDir = "../../../corpus/appendix-a"

// decAppendixErrors are the RFC examples a reader cannot take as they are
// printed, and the (clear) error each gives. Everything else the RFC
// prints is read: its 3-space indent, blank lines, comments, line breaks
// inside descriptors, an mId without a port, and the parentheses around
// event parameters that its examples use for the ABNF's braces.
var decAppendixErrors = map[string]string{
	// A comma before the closing brace of a Stream descriptor.
	"a1-03-mgc-to-mg1-modify-t9999.txt": "text: 11:21: expected LocalControl, Local, Remote or Statistics after ',', found '}'",
	// The RFC's line wrapping cut an SDP line in two; the second half is
	// no "name=value" line.
	"a1-14-mg2-to-mgc-add-reply-t50003.txt": `text: 9:4: SDP line "RTP/AVP 4 " has no '='`,
	"a1-15-mgc-to-mg1-modify-t10005.txt":    `text: 11:4: SDP line "RTP/AVP 4" has no '='`,
	// The RFC's ServiceChange has no Reason, which Annex B makes REQUIRED
	// and Annex A mandatory (OTP: missing_required_serviceChangeParm);
	// corrected/ adds one.
	"a1-01-mg1-to-mgc-servicechange-t9998.txt": `text: 3:34: ServiceChange without a Reason`,
}

// TestDecodeAppendixA decodes the 28 messages of RFC 3525's example call
// flow.
func TestDecodeAppendixA(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(decAppendixDir, "a1-*.txt"))
	if len(paths) == 0 {
		t.Skipf("no RFC 3525 example messages in %s", decAppendixDir)
	}
	ok, failed := 0, 0
	for _, p := range paths {
		name := filepath.Base(p)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(data, Options{})
		want, bad := decAppendixErrors[name]
		switch {
		case bad && err == nil:
			t.Errorf("%s: decoded, want error %q", name, want)
		case bad && err.Error() != want:
			t.Errorf("%s: error\n got %q\nwant %q", name, err, want)
		case bad:
			failed++
		case err != nil:
			t.Errorf("%s: %v", name, err)
		default:
			ok++
			if m.Mess.Version != 1 {
				t.Errorf("%s: version %d", name, m.Mess.Version)
			}
		}
	}
	t.Logf("text: RFC 3525 Appendix I messages: decoded %d/%d, clear errors %d/%d", ok, len(paths), failed, len(paths))
	if len(paths) != 28 {
		t.Errorf("%d messages, want 28", len(paths))
	}

	// A few of them in detail.
	read := func(name string) *model.MegacoMessage {
		data, err := os.ReadFile(filepath.Join(decAppendixDir, name))
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(data, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return m
	}
	m := read("corrected/a1-01-mg1-to-mgc-servicechange-t9998.txt")
	if a := m.Mess.MId.Ip4Address; a == nil || a.PortNumber.Present || string(a.Address) != "\x7c\x7c\x7c\xde" {
		t.Errorf("a1-01: mId %+v", m.Mess.MId)
	}
	sc := m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.ServiceChangeReq
	if string(sc.TerminationID[0].Id) != "ROOT" || sc.ServiceChangeParms.ServiceChangeMethod != model.ServiceChangeMethod_Restart ||
		sc.ServiceChangeParms.ServiceChangeAddress.PortNumber != 55555 || sc.ServiceChangeParms.ServiceChangeProfile.ProfileName != "ResGW/1" {
		t.Errorf("a1-01: %+v", sc)
	}
	m = read("a1-05-mg1-to-mgc-notify-t10000.txt")
	ev := m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.NotifyReq.ObservedEventsDescriptor.ObservedEventLst[0]
	if string(ev.EventName) != "al/of" || len(ev.EventParList) != 1 || string(ev.EventParList[0].EventParameterName) != "init" ||
		string(ev.EventParList[0].Value[0]) != "false" || ev.TimeNotation.Time != "22000000" {
		t.Errorf("a1-05: %s", decJSON(m))
	}
	m = read("a1-07-mgc-to-mg1-modify-t10001.txt")
	d := m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.ModReq.Descriptors[2].DigitMapDescriptor
	if string(d.DigitMapName) != "Dialplan0" || d.DigitMapValue.DigitMapBody != "(0| 00|[1-\n   7]xxx|8xxxxxxx|Fxxxxxxx|Exx|91xxxxxxxxxx|9011x.)" {
		t.Errorf("a1-07: %s", decJSON(m))
	}
	m = read("a1-24-mg2-to-mgc-auditvalue-reply-t50007.txt")
	res := m.Mess.MessageBody.Transactions[0].TransactionReply.TransactionResult.ActionReplies[0].CommandReply[0].AuditValueReply.AuditResult.TerminationAuditResult
	if len(res) != 6 || res[3].Kind != model.AuditReturnParameter_EmptyDescriptors || res[3].EmptyDescriptors.AuditToken.Value.String() != "000001" ||
		len(res[4].PackagesDescriptor) != 2 || len(res[5].StatisticsDescriptor) != 7 {
		t.Errorf("a1-24: %s", decJSON(m))
	}
}

// TestDecodeErrors checks the messages and places of errors.
func TestDecodeErrors(t *testing.T) {
	const h = "!/1 [1.2.3.4]:55555\n"
	for _, c := range []struct{ style, in, want string }{
		// Syntax: what was expected, after what, and what was found.
		{"compact", "!/2 [1.2.3.4]:55555\nT=1{C=-{\nMF=root,SC,x{SV{MT=RS}}}}",
			"compact: 3:11: expected '=' after ServiceChange, found ','"},
		{"compact", h + "T=1{C=-{N=a{OE=1{al/of}}}",
			"compact: 2:26: expected '}' or ',' after '}', found end of message"},
		{"pretty", "MEGACO/1 [1.2.3.4]:55555\nTransaction = 1 {\n\tContext = - {\n\t\tNotify = a {\n\t\t\tObservedEvents = 1 {\n\t\t\t\tal/of\n\t\t\t}\n\t\t\n\t}\n}",
			"pretty: 10:2: expected '}' or ',' after '}', found end of message"},
		{"", "", "text: 1:1: expected Authentication or MEGACO/version, found end of message"},
		{"", "   ; nothing but a comment\n", "text: 2:1: expected Authentication or MEGACO/version, found end of message"},
		{"compact", h + "T=1{C=-{A=a{E=1{al/on}},SG{al/ri}}}",
			"compact: 2:25: expected a command, a context property, ContextAudit, O- or W- after ',', found Signals"},
		{"compact", h + "T=1{C=-{Foo=a}}",
			`compact: 2:9: expected a command, a context property, ContextAudit, O- or W- after '{', found "Foo"`},
		{"compact", h + "T=1{C=-{A=a{M{ST=1{O{MO=AB}}}}}}",
			`compact: 2:25: expected a stream mode after '=', found "AB"`},
		{"compact", h + "T=1{C=-{A=a{M{ST=1{O{MO=SR},}}}}}",
			"compact: 2:29: expected LocalControl, Local, Remote or Statistics after ',', found '}'"},
		{"compact", h + "T=1{C=-{A=a{E=1{al/on{KA,ST}}}}}",
			"compact: 2:28: expected '=' after Stream, found '}'"},
		{"compact", h + "T=1{C=-{A=}}",
			"compact: 2:11: expected a name or value or '[' after '=', found '}'"},
		{"compact", h + "T=1{C=-{AV=a{AT{M,X}}}}",
			`compact: 2:19: expected a descriptor, ObservedEvents or Packages after ',', found "X"`},
		// Lexical.
		{"compact", h + `P=1{C=-{N=a{ER=502{"abc}}}}`, "compact: 2:20: quoted string not closed"},
		{"compact", h + "T=1{C=-{A=a{M{ST=1{L{v=0\nc=IN IP4 1.2.3.4\n", "compact: 2:22: Local or Remote descriptor not closed by '}'"},
		{"compact", h + "T=1{C=-{A=a{DM=x{T:5,(1x)", "compact: 2:22: digit map not closed by '}'"},
		{"compact", "!/1 [1.2.3.4:55555\nT=1{C=-{A=a}}", "compact: 1:5: address not closed by ']'"},
		{"compact", h + "T=1{C=-{A=a{E=1{al/on{X=1}}}\x01}}", "compact: 2:29: unexpected character 0x01"},
		// Values.
		{"compact", h + "T=abc{C=-{N=a{OE=1{al/of}}}}", `compact: 2:3: transaction ID "abc" is not a number`},
		{"compact", h + "T=4294967296{C=-{N=a{OE=1{al/of}}}}", `compact: 2:3: transaction ID "4294967296" is out of range 0..4294967295`},
		{"compact", h + "T=1{C=1{PR=16,N=a{OE=1{al/of}}}}", `compact: 2:12: priority "16" is out of range 0..15`},
		{"compact", "!/1 [1.2.3.999]:55555\nT=1{C=-{A=a}}", `compact: 1:6: IPv4 address "1.2.3.999" is not four numbers 0..255 with dots`},
		{"compact", h + "T=1{C=-{N=a{OE=1{1999072922000000:al/of}}}}", `compact: 2:18: time stamp "1999072922000000" is not yyyymmddThhmmssss`},
		{"compact", h + "T=1{C=-{A=a{DM=x{T:5,}}}}", "compact: 2:22: digit map is empty"},
		{"compact", h + `T=1{C=-{SC=a{SV{RE="x"}}}}`, "compact: 2:14: ServiceChange descriptor without a Method"},
		{"compact", h + "T=1{C=-{A=a{M{O{RV=maybe}}}}}", `compact: 2:20: expected ON or OFF, found "maybe"`},
		{"compact", h + "T=1{C=-{SC=a{SV{MT=X-foo}}}}", `compact: 2:20: an extension ServiceChange method has no field in the message model`},
		// Versions.
		{"compact", "!/4 [1.2.3.4]:55555\nT=1{C=1{N=a{OE=1{al/of}}}}", "compact: 1:1: protocol version 4 is not 1, 2 or 3"},
		{"compact", h + "T=1{C=1{IEPS=ON,N=a{OE=1{al/of}}}}", "compact: 2:9: IEPSCall is not in version 1 (it needs version 3 or later)"},
		{"compact", h + "P=1/1{C=1{N=a}}", `compact: 2:5: a segment number is not in version 1 (it needs version 3 or later)`},
		{"compact", h + "T=1{C=1{AV=a{AT{M{TS{SI}}}}}}", "compact: 2:17: a descriptor with a body in an audit is not in version 1 (it needs version 2 or later)"},
	} {
		_, err := decodeAs(c.style, []byte(c.in))
		if err == nil {
			t.Errorf("%q: no error, want %q", c.in, c.want)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, err, c.want)
		}
		var de *codecerr.Error
		if !errors.As(err, &de) {
			t.Errorf("%q: %T, want *codecerr.Error", c.in, err)
		}
	}
}

// decodeAs decodes in with the errors named style: "pretty" or "compact"
// (a Codec's), or "" for "text" (Decode's).
func decodeAs(style string, in []byte) (*model.MegacoMessage, error) {
	switch style {
	case "pretty":
		return Codec{Style: Pretty}.Decode(in)
	case "compact":
		return Codec{Style: Compact}.Decode(in)
	}
	return Decode(in, Options{})
}

// TestDecodeErrorFields checks the parts of a decode error.
func TestDecodeErrorFields(t *testing.T) {
	_, err := Codec{Style: Compact}.Decode([]byte("!/2 [1.2.3.4]:55555\nT=1{C=-{\nMF=root,SC,x{SV{MT=RS}}}}"))
	var e *codecerr.Error
	if !errors.As(err, &e) {
		t.Fatalf("%v", err)
	}
	want := &codecerr.Error{Codec: "compact", Op: codecerr.Decode, Kind: codecerr.Malformed, Pos: codecerr.AtLine(3, 11, 39),
		Msg: "expected '=' after ServiceChange, found ','"}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("got %#v\nwant %#v", *e, *want)
	}
}

// TestDecodeErrorKinds: a limit is TooLarge, a protocol version or text
// the model has no field for Unsupported, anything else Malformed.
func TestDecodeErrorKinds(t *testing.T) {
	const h = "!/1 [1.2.3.4]:55555\n"
	for _, c := range []struct {
		in   string
		opts Options
		want codecerr.Kind
	}{
		{h + "T=1{C=-{A=a}}", Options{Limits: limits.Limits{MaxSize: 20}}, codecerr.TooLarge},
		{h + "T=1{C=-{A=a{M{O{a/b={1,2}}}}}}", Options{Limits: limits.Limits{MaxDepth: 5}}, codecerr.TooLarge},
		{h + "K{1,2,3}", Options{Limits: limits.Limits{MaxElements: 2}}, codecerr.TooLarge},
		{h + "T=00001{C=-{A=a}}", Options{MaxNumberLength: 4}, codecerr.TooLarge},
		{h + "T=1{C=-{A=a}}", Options{Version: 4}, codecerr.Unsupported},
		{"!/4 [1.2.3.4]:55555\nT=1{C=-{A=a}}", Options{}, codecerr.Unsupported},
		{h + "T=1{C=-{SC=a{SV{MT=X-foo}}}}", Options{}, codecerr.Unsupported},
		{h + "T=1{C=-{Foo=a}}", Options{}, codecerr.Malformed},
		{h + `P=1{C=-{N=a{ER=502{"abc}}}}`, Options{}, codecerr.Malformed},
		{h + "T=abc{C=-{A=a}}", Options{}, codecerr.Malformed},
		{h + "T=1{C=1{IEPS=ON,N=a{OE=1{al/of}}}}", Options{}, codecerr.Malformed},
	} {
		_, err := Decode([]byte(c.in), c.opts)
		e, ok := codecerr.As(err)
		if !ok || e.Kind != c.want || e.Op != codecerr.Decode || e.Codec != "text" || e.Pos.Unit != codecerr.LineCol {
			t.Errorf("%q: %#v, want kind %v", c.in, err, c.want)
		}
	}
}

// TestDecodeLimits checks that every limit holds and says so.
func TestDecodeLimits(t *testing.T) {
	const h = "!/1 [1.2.3.4]:55555\n"
	deep := "!/3 [1.2.3.4]:55555\nT=1{C=-{CA{" + strings.Repeat("CT{", 70) + "TP" + strings.Repeat("}", 70) + "}}}"
	many := h + "K{" + strings.Repeat("1,", 200) + "1}"
	for _, c := range []struct {
		in   string
		opts Options
		want string
	}{
		{h + "T=1{C=-{A=a}}", Options{Limits: limits.Limits{MaxSize: 20}}, "text: 1:1: message of 33 bytes exceeds the limit of 20"},
		{deep, Options{}, "text: 2:197: nesting deeper than the limit of 64"},
		{h + "T=1{C=-{A=a{M{O{a/b={1,2}}}}}}", Options{Limits: limits.Limits{MaxDepth: 5}}, "text: 2:21: nesting deeper than the limit of 5"},
		{many, Options{Limits: limits.Limits{MaxElements: 100}}, "text: 2:201: more than 100 elements in the message"},
		{h + "T=0000000000000000000001{C=-{A=a}}", Options{}, "text: 2:3: transaction ID has more than 20 digits"},
		{"!/1 [1.2.3.4]:5555\nT=00001{C=-{A=a}}", Options{MaxNumberLength: 4}, "text: 2:3: transaction ID has more than 4 digits"},
	} {
		_, err := Decode([]byte(c.in), c.opts)
		if err == nil || err.Error() != c.want {
			t.Errorf("options %+v:\n got %v\nwant %s", c.opts, err, c.want)
		}
	}
	// Within the limits, the same messages decode.
	for _, in := range []string{many, deep} {
		if _, err := Decode([]byte(in), Options{Limits: limits.Limits{MaxDepth: 100}}); err != nil {
			t.Error(err)
		}
	}
	if _, err := Decode([]byte(h+"T=00001{C=-{A=a}}"), Options{}); err != nil {
		t.Error(err)
	}
}

// TestDecodeVersion: the version comes from the header unless forced.
func TestDecodeVersion(t *testing.T) {
	in := []byte("MEGACO/2 [1.2.3.4]:55555\nT=1{C=-{N=a{OE=1{al/of}}}}")
	for _, c := range []struct{ force, want int }{{0, 2}, {1, 1}, {3, 3}} {
		m, err := Decode(in, Options{Version: c.force})
		if err != nil {
			t.Fatal(err)
		}
		if int(m.Mess.Version) != c.want {
			t.Errorf("forced %d: version %d, want %d", c.force, m.Mess.Version, c.want)
		}
	}
	if _, err := Decode(in, Options{Version: 4}); err == nil || err.Error() != "text: 1:1: protocol version 4 forced, want 1, 2 or 3" {
		t.Errorf("forced 4: %v", err)
	}
	// A v3 construct in a v1 message is refused; forcing v3 reads it.
	v3 := []byte("!/1 [1.2.3.4]:55555\nT=1{C=1{AV=[a,b]{AT{M}}}}")
	if _, err := Decode(v3, Options{}); err == nil {
		t.Error("v3 termination ID list in v1: no error")
	}
	if _, err := Decode(v3, Options{Version: 3}); err != nil {
		t.Errorf("forced v3: %v", err)
	}
}

// decSmall is a decode that must succeed.
func decSmall(t *testing.T, in string) *model.MegacoMessage {
	t.Helper()
	m, err := Decode([]byte(in), Options{})
	if err != nil {
		t.Fatalf("%q: %v", in, err)
	}
	return m
}

// TestDecodeForms reads what the corpus does not have and checks the
// model fields each construct fills.
func TestDecodeForms(t *testing.T) {
	m := decSmall(t, "Authentication = 0x01020304:0x0A0B0C0D:0x00112233445566778899AABB\nMEGACO/3 [2001:db8::1]:2944 Pending = 7 { }")
	if h := m.AuthHeader; h == nil || string(h.SecParmIndex) != "\x01\x02\x03\x04" || string(h.SeqNum) != "\x0a\x0b\x0c\x0d" || len(h.Ad) != 12 {
		t.Errorf("auth header %+v", m.AuthHeader)
	}
	if a := m.Mess.MId.Ip6Address; a == nil || a.Address[0] != 0x20 || a.Address[15] != 1 || a.PortNumber.Value != 2944 {
		t.Errorf("IPv6 mId %+v", m.Mess.MId)
	}
	if p := m.Mess.MessageBody.Transactions[0].TransactionPending; p == nil || p.TransactionId != 7 {
		t.Errorf("pending %+v", m.Mess.MessageBody)
	}

	m = decSmall(t, "!/2 <mg1.example.net>:2944\nER=400{\"Syntax error\"}")
	if d := m.Mess.MId.DomainName; d == nil || d.Name != "mg1.example.net" || d.PortNumber.Value != 2944 {
		t.Errorf("domain mId %+v", m.Mess.MId)
	}
	if e := m.Mess.MessageBody.MessageError; e == nil || e.ErrorCode != 400 || e.ErrorText.Value != "Syntax error" {
		t.Errorf("message error %+v", m.Mess.MessageBody)
	}

	m = decSmall(t, "!/1 MTP{0A1B}\nK{1,3-4}")
	if string(m.Mess.MId.MtpAddress) != "0A1B" {
		t.Errorf("MTP mId %+v", m.Mess.MId)
	}
	if a := m.Mess.MessageBody.Transactions[0].TransactionResponseAck; len(a) != 2 || a[1].FirstAck != 3 || a[1].LastAck.Value != 4 || a[0].LastAck.Present {
		t.Errorf("acks %+v", a)
	}

	m = decSmall(t, "!/3 mg1/trunk1\nSM=8102/65535/END")
	if m.Mess.MId.DeviceName != "mg1/trunk1" {
		t.Errorf("device mId %+v", m.Mess.MId)
	}
	if s := m.Mess.MessageBody.Transactions[0].SegmentReply; s == nil || s.TransactionId != 8102 || s.SegmentNumber != 65535 || !s.SegmentationComplete {
		t.Errorf("segment reply %+v", s)
	}

	m = decSmall(t, "!/3 [1.2.3.4]\nT=1{C=${O-A=$,W-S=*,O-W-MF=[a,b,c]{M{TS{SI=TE,BF=SP,x/y>5}},"+
		"E=3{al/of{ST=2,EM{SG{al/ri},E=4{al/on}}}},EB{g/x{ST=1,p=v}},MD[V18,V32b]{m/p=1},MX=H221{t1,t2}}}}")
	a := m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0]
	if a.ContextId != 0xFFFFFFFE || len(a.CommandRequests) != 3 {
		t.Fatalf("action %s", decJSON(m))
	}
	c0, c1, c2 := a.CommandRequests[0], a.CommandRequests[1], a.CommandRequests[2]
	if !c0.Optional || c0.WildcardReturn || c1.Optional || !c1.WildcardReturn || !c2.Optional || !c2.WildcardReturn {
		t.Errorf("O-/W- prefixes %s", decJSON(m))
	}
	mod := c2.Command.ModReq
	if len(mod.TerminationID) != 3 || len(mod.Descriptors) != 5 {
		t.Fatalf("modify %s", decJSON(m))
	}
	ts := mod.Descriptors[0].MediaDescriptor.TermStateDescr
	if ts.ServiceState.Value != model.ServiceState_Test || ts.EventBufferControl.Value != model.EventBufferControl_LockStep ||
		ts.PropertyParms[0].ExtraInfo.Relation != model.Relation_GreaterThan {
		t.Errorf("termination state %+v", ts)
	}
	re := mod.Descriptors[1].EventsDescriptor.EventList[0]
	if re.StreamID.Value != 2 || re.EventAction.KeepActive.Present || re.EventAction.SecondEvent.RequestID.Value != 4 || len(re.EventAction.SignalsDescriptor) != 1 {
		t.Errorf("requested event %s", decJSON(m))
	}
	if eb := mod.Descriptors[2].EventBufferDescriptor; len(eb) != 1 || eb[0].StreamID.Value != 1 || len(eb[0].EventParList) != 1 {
		t.Errorf("event buffer %+v", eb)
	}
	if md := mod.Descriptors[3].ModemDescriptor; len(md.Mtl) != 2 || md.Mtl[1] != model.ModemType_V32bis || len(md.Mpl) != 1 {
		t.Errorf("modem %+v", md)
	}
	if mx := mod.Descriptors[4].MuxDescriptor; mx.MuxType != model.MuxType_H221 || len(mx.TermList) != 2 {
		t.Errorf("mux %+v", mx)
	}

	m = decSmall(t, "!/3 [1.2.3.4]\nT=1{C=1{TP{a,b,OW,OWE,ST=2,c,d,IS},CA{ANDLgc,CT{x/y,x/z=3}},"+
		"SC=root{SV{MT=FO,DL=100,MG=[1.2.3.4]:99,V=3,20040101T12000000,SIC,RE=\"901 x\",M,E}}}}")
	a = m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0]
	tp := a.ContextRequest.TopologyReq
	if len(tp) != 2 || tp[0].StreamID.Value != 2 || tp[0].TopologyDirectionExtension.Value != model.TopologyRequestTopologyDirectionExtension_Onewayexternal ||
		string(tp[1].TerminationFrom.Id) != "c" || tp[1].TopologyDirection != model.TopologyRequestTopologyDirection_Isolate {
		t.Errorf("topology %s", decJSON(m))
	}
	ca := a.ContextAttrAuditReq
	// "x/y, x/z=3": a name and the property after it are one item, as in
	// LocalControl audits.
	if ca.SelectLogic.Kind != model.SelectLogic_AndAUDITSelect || len(ca.ContextPropAud) != 1 || string(ca.ContextPropAud[0].Name) != "x/y" ||
		ca.ContextPropAud[0].PropertyParms == nil || string(ca.ContextPropAud[0].PropertyParms.Name) != "x/z" {
		t.Errorf("context audit %+v", ca)
	}
	sp := a.CommandRequests[0].Command.ServiceChangeReq.ServiceChangeParms
	if sp.ServiceChangeMethod != model.ServiceChangeMethod_Forced || sp.ServiceChangeDelay.Value != 100 ||
		sp.ServiceChangeMgcId.Ip4Address.PortNumber.Value != 99 || sp.ServiceChangeVersion.Value != 3 ||
		sp.TimeStamp.Date != "20040101" || !sp.ServiceChangeIncompleteFlag || sp.ServiceChangeInfo.AuditToken.Value.String() != "0011" ||
		sp.ServiceChangeAddress != nil || len(sp.ServiceChangeReason) != 1 || string(sp.ServiceChangeReason[0]) != "901 x" {
		t.Errorf("service change %s", decJSON(m))
	}

	m = decSmall(t, "!/2 [1.2.3.4]\nP=1{IA,C=1{AV=C{a,b},AC=C{ER=1{}},AV=x{M{ST=1{O{MO=LB,RV=ON,RG=OFF,a/b={1,2},a/c=[1:2],a/d=[3,4]}}}},"+
		"N=x{ER=3{\"t\"}},SC=x,SC=y{ER=4{}},SC=z{SV{V=2,PF=p/1,20040101T12000000}}}}")
	r := m.Mess.MessageBody.Transactions[0].TransactionReply
	if !r.ImmAckRequired || len(r.TransactionResult.ActionReplies[0].CommandReply) != 7 {
		t.Fatalf("reply %s", decJSON(m))
	}
	cr := r.TransactionResult.ActionReplies[0].CommandReply
	if cr[0].AuditValueReply.Kind != model.AuditReply_ContextAuditResult || len(cr[0].AuditValueReply.ContextAuditResult) != 2 ||
		cr[1].AuditCapReply.Kind != model.AuditReply_Error || cr[3].NotifyReply.ErrorDescriptor.ErrorText.Value != "t" ||
		cr[4].ServiceChangeReply.ServiceChangeResult.ServiceChangeResParms == nil ||
		cr[5].ServiceChangeReply.ServiceChangeResult.ErrorDescriptor.ErrorCode != 4 ||
		cr[6].ServiceChangeReply.ServiceChangeResult.ServiceChangeResParms.Timestamp.Time != "12000000" {
		t.Errorf("replies %s", decJSON(m))
	}
	lc := cr[2].AuditValueReply.AuditResult.TerminationAuditResult[0].MediaDescriptor.Streams.MultiStream[0].StreamParms.LocalControlDescriptor
	x := lc.PropertyParms
	if lc.StreamMode.Value != model.StreamMode_LoopBack || !lc.ReserveValue.Value || lc.ReserveGroup.Value || !lc.ReserveGroup.Present ||
		x[0].ExtraInfo.Kind != model.PropertyParmExtraInfo_Sublist || x[0].ExtraInfo.Sublist ||
		!x[1].ExtraInfo.Range || !x[2].ExtraInfo.Sublist || len(x[2].Value) != 2 {
		t.Errorf("local control %+v", lc)
	}

	m = decSmall(t, "!/3 [1.2.3.4]\nT=1{C=1{MF=x{DM={T:1,S:2,L:3,Z:4,(1x|2x)},SG{SL=3{a/b{SY=OO,DR=20,NC={IBS,IR}},c/d}}}}}")
	ds := m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.ModReq.Descriptors
	dv := ds[0].DigitMapDescriptor.DigitMapValue
	if ds[0].DigitMapDescriptor.DigitMapName != nil || dv.StartTimer.Value != 1 || dv.ShortTimer.Value != 2 || dv.LongTimer.Value != 3 ||
		dv.DurationTimer.Value != 4 || dv.DigitMapBody != "(1x|2x)" {
		t.Errorf("digit map %+v", dv)
	}
	sl := ds[1].SignalsDescriptor[0].SeqSigList
	if sl.Id != 3 || len(sl.SignalList) != 2 || sl.SignalList[0].SigType.Value != model.SignalType_OnOff ||
		sl.SignalList[0].Duration.Value != 20 || sl.SignalList[0].NotifyCompletion.Value.String() != "00101" {
		t.Errorf("signal list %+v", sl)
	}

	// SDP: CRLF, a blank line, "\}" and a new group at each v=; a keyword
	// as a termination ID.
	m = decSmall(t, "!/3 [1.2.3.4]\nT=1{C=1{A=Add{M{L{ \r\nv=0\r\na=x\\}y \r\n\r\n  v=1\r\n}}}}}")
	am := m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.AddReq
	g := am.Descriptors[0].MediaDescriptor.Streams.OneStream.LocalDescriptor.PropGrps
	if string(am.TerminationID[0].Id) != "Add" || len(g) != 2 || len(g[0]) != 2 || string(g[0][1].Value[0]) != "x}y " || string(g[1][0].Value[0]) != "1" {
		t.Errorf("SDP %s", decJSON(m))
	}

	// v3 audits: Local/Remote, a selection by value, ServiceStates.
	m = decSmall(t, "!/3 [1.2.3.4]\nT=1{C=1{AV=x{AT{M{ST=1{L{v=0\r\n},SA{nt/dur}},TS{SI=OS,BF,a/b,a/b=1}},SG{SL=2{c/d{ST=1,SPARQ=5}}},E=7{e/f},EB{g/h{ST=2}},DM=dp,PG{nt-1}}}}}")
	ap := m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.AuditValueRequest.AuditDescriptor.AuditPropertyToken
	if len(ap) != 6 {
		t.Fatalf("audit %s", decJSON(m))
	}
	med := ap[0].IndAudMediaDescriptor
	if med.TermStateDescr.ServiceStateSel.Value != model.ServiceState_OutOfSvc || !med.TermStateDescr.EventBufferControl ||
		len(med.TermStateDescr.PropertyParms) != 1 || med.TermStateDescr.PropertyParms[0].PropertyParms == nil ||
		med.Streams.MultiStream[0].StreamParms.StatisticsDescriptor == nil || med.Streams.MultiStream[0].StreamParms.LocalDescriptor == nil {
		t.Errorf("indAud media %s", decJSON(m))
	}
	if s := ap[1].IndAudSignalsDescriptor.SeqSigList; s.Id != 2 || s.SignalList.SignalRequestID.Value != 5 || s.SignalList.StreamID.Value != 1 {
		t.Errorf("indAud signals %+v", s)
	}
	if ap[2].IndAudEventsDescriptor.RequestID.Value != 7 || ap[3].IndAudEventBufferDescriptor.StreamID.Value != 2 ||
		string(ap[4].IndAudDigitMapDescriptor.DigitMapName) != "dp" || ap[5].IndAudPackagesDescriptor.PackageVersion != 1 {
		t.Errorf("indAud %s", decJSON(m))
	}

	// Keywords in any case, long or short; comments; no SEP where the
	// tokens tell themselves apart.
	m = decSmall(t, "megaco/1 [1.2.3.4]:5 ; header\ntransaction=1{context=1{ADD=a;add\n,a=b{media{stream=1{lOcAlCoNtRoL{mode=SENDONLY}}}}}}")
	if n := len(m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests); n != 2 {
		t.Errorf("keywords: %d commands", n)
	}
}

// TestDecoderReuse: a reused Decoder gives what Decode gives, and Decode's
// result does not share memory with its input or with another decode:
// every message Decode gave is compared once all the others are decoded
// (its decoders hand out memory from chunks the messages share).
func TestDecoderReuse(t *testing.T) {
	corpus := loadCorpus(t)
	var kept []*model.MegacoMessage
	for _, c := range corpus {
		for _, text := range [][]byte{c.pretty, c.compact} {
			m, err := Decode(text, Options{})
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, m)
		}
	}
	var dec Decoder
	for i, c := range corpus {
		for j, text := range [][]byte{c.pretty, c.compact} {
			want := kept[2*i+j]
			got, err := dec.Decode(text)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Decoder and Decode differ", c.name)
			}
		}
	}
	in := append([]byte(nil), corpus[0].compact...)
	m1, _ := Decode(in, Options{})
	j1 := decJSON(m1)
	for i := range in {
		in[i] = 'x'
	}
	m2, _ := Decode(corpus[1].compact, Options{})
	if decJSON(m1) != j1 || m2 == m1 {
		t.Error("a decoded message changed with its input or the next decode")
	}
}

func TestIP4Parts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []byte // nil: not an IPv4 address
	}{
		{"1.2.3.4", []byte{1, 2, 3, 4}},
		{"255.255.255.255", []byte{255, 255, 255, 255}},
		{"000.010.200.007", []byte{0, 10, 200, 7}},
		{"124.124.124.222", []byte{124, 124, 124, 222}},
		{"", nil}, {"1.2.3", nil}, {"1.2.3.4.5", nil}, {"1..3.4", nil}, {".1.2.3", nil},
		{"1.2.3.4.", nil}, {"256.1.1.1", nil}, {"1.2.3.1000", nil}, {"0001.2.3.4", nil},
		{"1.2.3.256", nil}, {"1.2.3.", nil}, {"1.2.3.4a", nil}, {"99999999999999999999.1.2.3", nil},
	} {
		out := make([]byte, 4)
		ok := ip4Parts([]byte(c.in), out)
		if ok != (c.want != nil) || ok && string(out) != string(c.want) {
			t.Errorf("%q: %v %v, want %v", c.in, out, ok, c.want)
		}
	}
}

// TestNumShortAndLong: num's short way (up to nine digits) and its
// general one agree on values and errors, whatever the digit limit.
func TestNumShortAndLong(t *testing.T) {
	for _, maxDigits := range []int{3, 9, DefaultMaxNumberLength} {
		for _, w := range []string{"", "0", "7", "15", "16", "255", "65535", "65536", "123456789", "0000000042",
			"4294967295", "4294967296", "1x", "x1", "12345678x", "99999999999999999999999"} {
			for _, max := range []uint64{15, 1<<16 - 1, 1<<32 - 1} {
				d := decoder{src: []byte(w), maxDigits: maxDigits}
				got := d.num(span{0, int32(len(w))}, max, "number")
				slow := decoder{src: []byte(w), maxDigits: maxDigits}
				want := slow.numSlow(span{0, int32(len(w))}, max, "number")
				if got != want || (d.err == nil) != (slow.err == nil) || d.err != nil && d.err.Error() != slow.err.Error() {
					t.Errorf("%q max %d, %d digits: %d %v, want %d %v", w, max, maxDigits, got, d.err, want, slow.err)
				}
				n, err := strconv.ParseUint(w, 10, 64)
				if ok := err == nil && n <= max && len(w) <= maxDigits; ok != (d.err == nil) || ok && uint64(got) != n {
					t.Errorf("%q max %d, %d digits: %d %v", w, max, maxDigits, got, d.err)
				}
			}
		}
	}
}

// TestDecodeReadAhead: the parser takes its tokens from a batch the
// scanner reads ahead (lexFill), and the errors are still those of a
// parse that reads each token as it takes it: the first error found
// wins, though a lexical error further on was read ahead (and a long
// message has more tokens than one batch); a version header after an
// authentication header is checked when the parser gets to it; and a
// Decoder that failed decodes the next message as Decode does.
func TestDecodeReadAhead(t *testing.T) {
	audits := "AV=a/1{AT{M}}" + strings.Repeat(",AV=a/1{AT{M}}", 12) // 129 tokens, two batches
	for _, c := range []struct{ in, want string }{
		{"!/2 [1.2.3.4]\nT=99999999999{C=-{AV=a/1{AT{M}}}} \x01", `text: 2:3: transaction ID "99999999999" is out of range`},
		{"!/2 [1.2.3.4]\nT=99999999999{C=-{" + audits + "}} \x01", `text: 2:3: transaction ID "99999999999" is out of range`},
		{"!/2 [1.2.3.4]\nT=1{C=-{AV=a/1{AT{M}}}} \x01", "text: 2:25: unexpected character 0x01"},
		{"!/2 [1.2.3.4]\nT=1{C=-{" + audits + "}} \x01", "text: 2:193: unexpected character 0x01"},
		{"!/2 [1.2.3.4]\nT=1{C=-{" + audits + "}} =", "text: 2:193: expected a transaction or end of message after '}', found '='"},
		{"Authentication = 0x01020304:0x0A0B0C0D:0x00112233445566778899AABB\nMEGACO/9 [1.2.3.4] Pending = 7 { }", "text: 2:1: protocol version 9 is not 1, 2 or 3"},
		{"Authentication = 0x01:0x0A0B0C0D:0x00112233445566778899AABB\nMEGACO/9 [1.2.3.4] Pending = 7 { }", "text: 1:18: "},
	} {
		_, err := Decode([]byte(c.in), Options{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Decode(%q) = %v, want %s...", c.in, err, c.want)
		}
		var dec Decoder
		if _, err2 := dec.Decode([]byte(c.in)); err2 == nil || err == nil || err2.Error() != err.Error() {
			t.Errorf("Decoder.Decode(%q) = %v, Decode %v", c.in, err2, err)
		}
		good := []byte("!/2 [1.2.3.4]\nT=1{C=-{" + audits + "}}")
		want, _ := Decode(good, Options{})
		if got, err := dec.Decode(good); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("after %q, Decoder.Decode = %v, not as Decode", c.in, err)
		}
	}
}
