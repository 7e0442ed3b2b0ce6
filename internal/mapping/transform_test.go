package mapping

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"megaco/internal/codec/ber"
	"megaco/internal/mapping/pkgs"
	"megaco/internal/mapping/sdp"
	"megaco/internal/mapping/termid"
	"megaco/internal/model"
)

// corpusDir holds OTP's golden encodings of time_test.msgs.
const corpusDir = "../../corpus/otp-time-test"

type golden struct {
	name        string
	ber, pretty []byte
}

func loadCorpus(t testing.TB) []golden {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(corpusDir, "*.ber"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no .ber files in %s: %v", corpusDir, err)
	}
	var out []golden
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pretty, err := os.ReadFile(strings.TrimSuffix(p, ".ber") + ".pretty.txt")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, golden{strings.TrimSuffix(filepath.Base(p), ".ber"), b, pretty})
	}
	return out
}

func readGolden(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir, name+".ber"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// textForm decodes a golden message and converts it to text form.
func textForm(t testing.TB, name string, c *Config) (*model.MegacoMessage, int) {
	t.Helper()
	m, err := ber.Decode(readGolden(t, name), ber.Options{})
	if err != nil {
		t.Fatalf("%s: decode: %v", name, err)
	}
	v := int(m.Mess.Version)
	if err := ToText(m, v, c); err != nil {
		t.Fatalf("%s: ToText: %v", name, err)
	}
	return m, v
}

// field is one visited field as the collector saw it.
type field struct {
	target model.WalkTarget
	path   string
	text   string
}

// collector records every field the walker visits, rendered as text.
type collector struct {
	model.NopVisitor
	fields []field
}

func (c *collector) add(w *model.Walker, suffix, s string) {
	c.fields = append(c.fields, field{w.Site().Target, w.Path() + suffix, s})
}

func (c *collector) VisitTerminationID(w *model.Walker, x *model.TerminationID) error {
	if len(x.Wildcard) != 0 {
		c.add(w, ".wildcard", fmt.Sprintf("%x", x.Wildcard))
	}
	c.add(w, "", string(x.Id))
	return nil
}

func (c *collector) VisitPkgdName(w *model.Walker, x *model.Octets) error {
	c.add(w, "", string(*x))
	return nil
}

func (c *collector) VisitName(w *model.Walker, x *model.Octets) error {
	c.add(w, "", string(*x))
	return nil
}

func (c *collector) VisitDigitMapName(w *model.Walker, x *model.Octets) error {
	c.add(w, "", string(*x))
	return nil
}

func (c *collector) VisitValue(w *model.Walker, x *[]model.Octets) error {
	for i, v := range *x {
		c.add(w, fmt.Sprintf("[%d]", i), string(v))
	}
	return nil
}

func (c *collector) VisitPropertyGroups(w *model.Walker, x *[][]model.PropertyParm) error {
	for g, grp := range *x {
		for i, p := range grp {
			var vals []string
			for _, v := range p.Value {
				vals = append(vals, string(v))
			}
			c.add(w, fmt.Sprintf("[%d][%d]", g, i), string(p.Name)+"="+strings.Join(vals, ","))
		}
	}
	return nil
}

func (c *collector) VisitMtpAddress(w *model.Walker, x *model.Octets) error {
	c.add(w, "", string(*x))
	return nil
}

func collect(t testing.TB, m *model.MegacoMessage) []field {
	t.Helper()
	c := &collector{}
	w := model.Walker{V: c}
	if err := w.Walk(m); err != nil {
		t.Fatal(err)
	}
	return c.fields
}

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// TestCorpusRoundTrip: for every golden message, BER decode -> ToText ->
// ToBinary -> BER encode gives OTP's bytes back. On the way, the text form
// must be text: no wildcard octets, printable names, and every name, ID
// and value must occur in the message's .pretty.txt (OTP's own text).
func TestCorpusRoundTrip(t *testing.T) {
	corpus := loadCorpus(t)
	exact, checked := 0, 0
	for _, g := range corpus {
		m, err := ber.Decode(g.ber, ber.Options{})
		if err != nil {
			t.Errorf("%s: decode: %v", g.name, err)
			continue
		}
		v := int(m.Mess.Version)
		if err := ToText(m, v, nil); err != nil {
			t.Errorf("%s: ToText: %v", g.name, err)
			continue
		}
		pretty := strings.ToLower(string(g.pretty))
		for _, f := range collect(t, m) {
			checked++
			if strings.HasSuffix(f.path, ".wildcard") {
				t.Errorf("%s: %s: text form has wildcard octets %s", g.name, f.path, f.text)
				continue
			}
			if !printable(f.text) {
				t.Errorf("%s: %s: %q is not text", g.name, f.path, f.text)
				continue
			}
			want := strings.ToLower(f.text)
			if f.target == model.WalkPropertyGroups {
				// An SDP line: OTP writes it as name=value, CRLF-ended.
				want += "\r\n"
			}
			if f.text != "" && !strings.Contains(pretty, want) {
				t.Errorf("%s: %s: %q does not occur in %s.pretty.txt", g.name, f.path, f.text, g.name)
			}
		}
		if err := ToBinary(m, v, nil); err != nil {
			t.Errorf("%s: ToBinary: %v", g.name, err)
			continue
		}
		out, err := ber.Append(nil, m, ber.Options{})
		if err != nil {
			t.Errorf("%s: encode: %v", g.name, err)
			continue
		}
		if !bytes.Equal(out, g.ber) {
			t.Errorf("%s: BER differs after text form and back\n got %x\nwant %x", g.name, out, g.ber)
			continue
		}
		exact++
	}
	t.Logf("%d/%d golden messages give their exact BER back through the text form (%d text fields checked against .pretty.txt)", exact, len(corpus), checked)
	if exact != 149 || len(corpus) != 149 {
		t.Errorf("%d/%d exact, want 149/149", exact, len(corpus))
	}
}

func lookupField(t *testing.T, fs []field, path string) string {
	t.Helper()
	for _, f := range fs {
		if f.path == path {
			return f.text
		}
	}
	var have []string
	for _, f := range fs {
		have = append(have, f.path)
	}
	t.Fatalf("no field %s; have:\n%s", path, strings.Join(have, "\n"))
	return ""
}

const (
	req0 = "mess.messageBody.transactions[0].transactionRequest.actions[0].commandRequests[0].command."
	req1 = "mess.messageBody.transactions[0].transactionRequest.actions[0].commandRequests[1].command."
	rep0 = "mess.messageBody.transactions[0].transactionReply.transactionResult.actionReplies[0].commandReply[0]."
)

// TestTextFormSpotChecks: the text form holds what OTP's pretty text shows,
// at the expected paths.
func TestTextFormSpotChecks(t *testing.T) {
	cases := []struct{ msg, path, want string }{
		{"msg03", req0 + "notifyReq.terminationID[0]", "11111111/00000000/00000000"},
		{"msg03", req0 + "notifyReq.observedEventsDescriptor.observedEventLst[0].eventName", "al/of"},
		{"msg05", rep0 + "serviceChangeReply.terminationID[0]", "root"},
		{"msg08a", req0 + "modReq.descriptors[0].eventsDescriptor.eventList[0].pkgdName", "al/on"},
		{"msg08a", req0 + "modReq.descriptors[0].eventsDescriptor.eventList[1].pkgdName", "dd/ce"},
		{"msg08a", req0 + "modReq.descriptors[0].eventsDescriptor.eventList[1].eventAction.eventDM.digitMapName", "dialplan00"},
		{"msg08a", req0 + "modReq.descriptors[1].signalsDescriptor[0].signal.signalName", "cg/rt"},
		{"msg08a", req0 + "modReq.descriptors[2].digitMapDescriptor.digitMapName", "dialplan00"},
		{"msg09", req0 + "notifyReq.observedEventsDescriptor.observedEventLst[0].eventParList[0].eventParameterName", "ds"},
		{"msg09", req0 + "notifyReq.observedEventsDescriptor.observedEventLst[0].eventParList[0].value[0]", "916135551212"},
		{"msg10", req1 + "addReq.terminationID[0]", "$"},
		{"msg10", req1 + "addReq.descriptors[0].mediaDescriptor.streams.multiStream[0].streamParms.localControlDescriptor.propertyParms[0].name", "nt/jit"},
		{"msg10", req1 + "addReq.descriptors[0].mediaDescriptor.streams.multiStream[0].streamParms.localDescriptor.propGrps[0][0]", "v=0"},
		{"msg10", req1 + "addReq.descriptors[0].mediaDescriptor.streams.multiStream[0].streamParms.localDescriptor.propGrps[0][1]", "c=IN IP4 $ "},
		{"msg10", req1 + "addReq.descriptors[0].mediaDescriptor.streams.multiStream[0].streamParms.localDescriptor.propGrps[1][0]", "v=0"},
		{"msg10", req1 + "addReq.descriptors[0].mediaDescriptor.streams.multiStream[0].streamParms.localDescriptor.propGrps[1][2]", "m=audio $ RTP/AVP 0"},
		{"msg11", "", "a=a=ptime:30"},
		{"msg22a", rep0 + "auditValueReply.auditResult.terminationAuditResult[1].packagesDescriptor[0].packageName", "nt"},
		{"msg22a", rep0 + "auditValueReply.auditResult.terminationAuditResult[2].statisticsDescriptor[0].statName", "rtp/ps"},
		{"msg22a", rep0 + "auditValueReply.auditResult.terminationAuditResult[2].statisticsDescriptor[4].statValue[0]", "0.2"},
		{"msg51a", "", "tdmc/gain"},
		{"msg75a02", "", "901 mg col boot"},
	}
	for _, c := range cases {
		m, _ := textForm(t, c.msg, nil)
		fs := collect(t, m)
		if c.path == "" {
			found := false
			for _, f := range fs {
				found = found || f.text == c.want
			}
			if !found {
				t.Errorf("%s: no field holds %q: %v", c.msg, c.want, fs)
			}
			continue
		}
		if got := lookupField(t, fs, c.path); got != c.want {
			t.Errorf("%s: %s = %q, want %q", c.msg, c.path, got, c.want)
		}
	}
	// The text form of a termination ID has no wildcard octets, and the
	// wildcard returns in binary: Add = $ is {[57], 000000} (golden msg10).
	m, v := textForm(t, "msg10", nil)
	tid := &m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[1].Command.AddReq.TerminationID[0]
	if tid.Wildcard != nil || string(tid.Id) != "$" {
		t.Errorf("text form of $: %+v", *tid)
	}
	if err := ToBinary(m, v, nil); err != nil {
		t.Fatal(err)
	}
	if len(tid.Wildcard) != 1 || tid.Wildcard[0][0] != 0x57 || !bytes.Equal(tid.Id, []byte{0, 0, 0}) {
		t.Errorf("binary form of $: %x %x", tid.Wildcard, tid.Id)
	}
}

// editor changes the field at one path of a message.
type editor struct {
	model.NopVisitor
	path   string
	found  bool
	octets func(*model.Octets)
	tid    func(*model.TerminationID)
	groups func(*[][]model.PropertyParm)
	values func(*[]model.Octets)
}

func (e *editor) hit(w *model.Walker) bool {
	if w.Path() == e.path {
		e.found = true
		return true
	}
	return false
}

func (e *editor) VisitTerminationID(w *model.Walker, x *model.TerminationID) error {
	if e.hit(w) && e.tid != nil {
		e.tid(x)
	}
	return nil
}

func (e *editor) VisitPkgdName(w *model.Walker, x *model.Octets) error {
	if e.hit(w) && e.octets != nil {
		e.octets(x)
	}
	return nil
}

func (e *editor) VisitName(w *model.Walker, x *model.Octets) error { return e.VisitPkgdName(w, x) }

func (e *editor) VisitDigitMapName(w *model.Walker, x *model.Octets) error {
	return e.VisitPkgdName(w, x)
}

func (e *editor) VisitValue(w *model.Walker, x *[]model.Octets) error {
	if e.hit(w) && e.values != nil {
		e.values(x)
	}
	return nil
}

func (e *editor) VisitPropertyGroups(w *model.Walker, x *[][]model.PropertyParm) error {
	if e.hit(w) && e.groups != nil {
		e.groups(x)
	}
	return nil
}

func edit(t *testing.T, m *model.MegacoMessage, e *editor) {
	t.Helper()
	w := model.Walker{V: e}
	if err := w.Walk(m); err != nil {
		t.Fatal(err)
	}
	if !e.found {
		t.Fatalf("no field at %s", e.path)
	}
}

func setText(s string) func(*model.Octets) { return func(x *model.Octets) { *x = model.Octets(s) } }

const (
	ev08    = req0 + "modReq.descriptors[0].eventsDescriptor.eventList[0].pkgdName"
	sig08   = req0 + "modReq.descriptors[1].signalsDescriptor[0].signal.signalName"
	dm08    = req0 + "modReq.descriptors[2].digitMapDescriptor.digitMapName"
	tid08   = req0 + "modReq.terminationID[0]"
	par09   = req0 + "notifyReq.observedEventsDescriptor.observedEventLst[0].eventParList[0].eventParameterName"
	sp10    = req1 + "addReq.descriptors[0].mediaDescriptor.streams.multiStream[0].streamParms."
	local10 = sp10 + "localDescriptor.propGrps"
	jit10   = sp10 + "localControlDescriptor.propertyParms[0]"
	pkg22   = rep0 + "auditValueReply.auditResult.terminationAuditResult[1].packagesDescriptor[0].packageName"
)

// TestToBinaryErrors: names, IDs and values the binary form cannot carry
// are reported with the field's path and the offending text.
func TestToBinaryErrors(t *testing.T) {
	cases := []struct {
		name, msg string
		c         *Config
		e         editor
		want      string // the whole message when it starts with "mapping:", else a part of it
		is        []error
	}{
		{"unknown package", "msg08a", nil, editor{path: ev08, octets: setText("foo/bar")},
			"mapping: " + ev08 + `: unknown event "foo/bar" in version 1 (no package "foo")`, []error{pkgs.ErrUnknown}},
		{"unknown event", "msg08a", nil, editor{path: ev08, octets: setText("al/xyz")},
			"mapping: " + ev08 + `: unknown event "al/xyz" in version 1`, []error{pkgs.ErrUnknown}},
		{"event used as a signal", "msg08a", nil, editor{path: sig08, octets: setText("al/of")},
			`unknown signal "al/of" in version 1 (it is an event)`, []error{pkgs.ErrUnknown}},
		{"digit event not in v1", "msg08a", nil, editor{path: ev08, octets: setText("dd/d0")},
			`unknown event "dd/d0" in version 1 (defined in versions 2, 3)`, []error{pkgs.ErrUnknown}},
		{"unknown parameter", "msg09", nil, editor{path: par09, octets: setText("xyz")},
			"mapping: " + par09 + `: unknown event parameter "xyz" in version 1 (of dd/ce)`, []error{pkgs.ErrUnknown}},
		{"unknown package name", "msg22a", nil, editor{path: pkg22, octets: setText("zz")},
			`: unknown package "zz" in version 1`, []error{pkgs.ErrUnknown}},
		{"termination ID not binary digits", "msg08a", nil, editor{path: tid08, tid: func(x *model.TerminationID) { x.Id = model.Octets("line/1") }},
			"mapping: " + tid08 + `: termination ID "line/1" is not a provisioned name and has no binary form with layout [8,8,8]: `, []error{termid.ErrSyntax}},
		{"termination ID too short for the layout", "msg08a", nil, editor{path: tid08, tid: func(x *model.TerminationID) { x.Id = model.Octets("11111111/00000000") }},
			`termination ID "11111111/00000000" is not a provisioned name and has no binary form with layout [8,8,8]`, []error{termid.ErrLevels}},
		{"termination ID still binary", "msg08a", nil, editor{path: tid08, tid: func(x *model.TerminationID) { x.Wildcard = []model.Octets{{0x57}} }},
			"termination ID is not in text form", nil},
		{"digit map name", "msg08a", nil, editor{path: dm08, octets: setText("myplan")},
			`digit map name "myplan" has no binary form`, nil},
		{"SDP letter", "msg10", nil, editor{path: local10, groups: func(x *[][]model.PropertyParm) { (*x)[0][1].Name = model.Octets("x") }},
			"mapping: " + local10 + `[0][1].name: SDP line "x=" has no binary form: not an SDP line type`, []error{sdp.ErrName}},
		{"SDP letter case", "msg10", nil, editor{path: local10, groups: func(x *[][]model.PropertyParm) { (*x)[0][0].Name = model.Octets("V") }},
			`SDP line "V=" has no binary form`, []error{sdp.ErrName}},
		{"rfc value without a type", "msg22a", &Config{Profile: pkgs.RFC}, editor{},
			`.statisticsDescriptor[5].statValue[0]: value "20" has no binary form: rfc value of statistic rtp/jit`, []error{pkgs.ErrNoType}},
		{"rfc value that does not fit its type", "msg10", &Config{Profile: pkgs.RFC}, editor{path: jit10 + ".value", values: func(x *[]model.Octets) { (*x)[0] = model.Octets("forty") }},
			"mapping: " + jit10 + `.value[0]: value "forty" has no binary form: `, []error{pkgs.ErrBadValue}},
		{"rfc value of an OTP extension", "msg01a", &Config{Profile: pkgs.RFC}, editor{},
			`value "g165" has no binary form: rfc value of property tdmc/ec`, []error{pkgs.ErrBadValue}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, v := textForm(t, c.msg, nil)
			if c.e.path != "" {
				edit(t, m, &c.e)
			}
			err := ToBinary(m, v, c.c)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.HasPrefix(c.want, "mapping:") && !strings.HasPrefix(msg, c.want) || !strings.Contains(msg, c.want) {
				t.Errorf("error\n %s\nwant\n %s", msg, c.want)
			}
			var me *Error
			if !errors.As(err, &me) || !strings.HasPrefix(me.Path, "mess.") {
				t.Errorf("not an *Error with a path: %#v", err)
			}
			for _, target := range append(c.is, ErrNoBinary) {
				if !errors.Is(err, target) {
					t.Errorf("errors.Is(%v) is false for %q", target, msg)
				}
			}
		})
	}
}

// TestToTextErrors: what the text form cannot hold.
func TestToTextErrors(t *testing.T) {
	cases := []struct {
		name, msg string
		c         *Config
		e         editor
		want      string
		is        []error
	}{
		{"unknown event ID", "msg08a", nil, editor{path: ev08, octets: func(x *model.Octets) { *x = model.Octets{0, 9, 0, 0x99} }},
			"mapping: " + ev08 + `: unknown event ID "00090099" in version 1`, []error{pkgs.ErrUnknown}},
		{"not a PkgdName", "msg08a", nil, editor{path: ev08, octets: func(x *model.Octets) { *x = model.Octets{0, 9, 0} }},
			"event name 000900 is not a PkgdName: 3 octets, want 4", nil},
		{"digit map name", "msg08a", nil, editor{path: dm08, octets: func(x *model.Octets) { *x = model.Octets{0xff, 0xff} }},
			"digit map name FFFF has no text form", nil},
		{"termination ID of another layout", "msg08a", &Config{Layout: termid.Layout{8, 8, 8, 8}}, editor{path: tid08, tid: func(*model.TerminationID) {}},
			"mapping: " + tid08 + ": termination ID {wildcard , id FF0000} has no text form with layout [8,8,8,8]", []error{termid.ErrIDLength}},
		{"second SDP group without v=", "msg10", nil, editor{path: local10, groups: func(x *[][]model.PropertyParm) {
			g := (*x)[1]
			g[0], g[1] = g[1], g[0]
		}}, "mapping: " + local10 + "[1][0]: property group 1 has no text form", []error{sdp.ErrNoText}},
		{"v= inside an SDP group", "msg10", nil, editor{path: local10, groups: func(x *[][]model.PropertyParm) {
			(*x)[0] = append((*x)[0], (*x)[1]...)
			*x = (*x)[:1]
		}}, local10 + "[0][4]: v= inside a property group has no text form", []error{sdp.ErrNoText}},
		{"empty SDP group", "msg10", nil, editor{path: local10, groups: func(x *[][]model.PropertyParm) { (*x)[1] = nil }},
			local10 + "[1]: an empty property group has no text form", nil},
		{"SDP line end in a value", "msg10", nil, editor{path: local10, groups: func(x *[][]model.PropertyParm) { (*x)[0][1].Value[0] = model.Octets("IN\r\nIP4") }},
			"contains a line end", []error{sdp.ErrNoText}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := ber.Decode(readGolden(t, c.msg), ber.Options{})
			if err != nil {
				t.Fatal(err)
			}
			edit(t, m, &c.e)
			err = ToText(m, int(m.Mess.Version), c.c)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.HasPrefix(c.want, "mapping:") && !strings.HasPrefix(msg, c.want) || !strings.Contains(msg, c.want) {
				t.Errorf("error\n %s\nwant\n %s", msg, c.want)
			}
			for _, target := range append(c.is, ErrNoText) {
				if !errors.Is(err, target) {
					t.Errorf("errors.Is(%v) is false for %q", target, msg)
				}
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	m, err := ber.Decode(readGolden(t, "msg03"), ber.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    int
		c    *Config
		want string
	}{
		{0, nil, "protocol version 0"},
		{4, nil, "protocol version 4"},
		{1, &Config{Layout: termid.Layout{7}}, "layout"},
		{1, &Config{Profile: 9}, "profile"},
	} {
		for _, f := range []func(*model.MegacoMessage, int, *Config) error{ToText, ToBinary} {
			err := f(m, c.v, c.c)
			if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("v%d %+v: %v, want ErrConfig about %s", c.v, c.c, err, c.want)
			}
		}
	}
	if err := ToText(nil, 1, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("nil message: %v", err)
	}
}

// TestRFCProfile: with the rfc profile every value is double-wrapped by its
// package type (RFC 3525 A.2), and the way back gives the same text form.
func TestRFCProfile(t *testing.T) {
	rfc := &Config{Profile: pkgs.RFC}

	// msg10: nt/jit=40 (integer) and SDP lines (strings).
	m, v := textForm(t, "msg10", nil)
	if err := ToBinary(m, v, rfc); err != nil {
		t.Fatal(err)
	}
	sp := m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[1].Command.AddReq.Descriptors[0].MediaDescriptor.Streams.MultiStream[0].StreamParms
	if got := sp.LocalControlDescriptor.PropertyParms[0].Value[0]; !bytes.Equal(got, []byte{0x02, 0x01, 40}) {
		t.Errorf("nt/jit=40 in rfc: %x, want 020128", got)
	}
	if p := sp.LocalDescriptor.PropGrps[0][0]; !bytes.Equal(p.Name, []byte{0, 0, 0xb0, 0x01}) || !bytes.Equal(p.Value[0], []byte{0x16, 0x01, '0'}) {
		t.Errorf("v=0 in rfc: %x %x, want 0000B001 160130", p.Name, p.Value[0])
	}

	// msg75a02: the ServiceChange reason is an IA5String.
	m, v = textForm(t, "msg75a02", nil)
	if err := ToBinary(m, v, rfc); err != nil {
		t.Fatal(err)
	}
	out, err := ber.Append(nil, m, ber.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := append([]byte{0x04, 0x11, 0x16, 0x0f}, "901 mg col boot"...); !bytes.Contains(out, want) {
		t.Errorf("reason in rfc: %x does not contain %x", out, want)
	}

	// Every golden message whose values all have a type: text (otp) ->
	// binary (rfc) -> BER -> binary -> text (rfc) is the same text form,
	// and back to otp gives the golden BER.
	typed, untyped := 0, 0
	for _, g := range loadCorpus(t) {
		m, v := textForm(t, g.name, nil)
		want := collect(t, m)
		if err := ToBinary(m, v, rfc); err != nil {
			if !errors.Is(err, pkgs.ErrNoType) && !errors.Is(err, pkgs.ErrBadValue) {
				t.Errorf("%s: %v", g.name, err)
			}
			untyped++
			continue
		}
		b, err := ber.Append(nil, m, ber.Options{})
		if err != nil {
			t.Errorf("%s: encode: %v", g.name, err)
			continue
		}
		m, err = ber.Decode(b, ber.Options{})
		if err != nil {
			t.Errorf("%s: decode: %v", g.name, err)
			continue
		}
		if err := ToText(m, v, rfc); err != nil {
			t.Errorf("%s: ToText rfc: %v", g.name, err)
			continue
		}
		if got := collect(t, m); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: rfc text form differs:\n got %v\nwant %v", g.name, got, want)
			continue
		}
		if err := ToBinary(m, v, nil); err != nil {
			t.Errorf("%s: %v", g.name, err)
			continue
		}
		if b, err := ber.Append(nil, m, ber.Options{}); err != nil || !bytes.Equal(b, g.ber) {
			t.Errorf("%s: rfc round trip does not give the golden BER back (%v)", g.name, err)
			continue
		}
		typed++
	}
	t.Logf("rfc profile: %d golden messages round-trip, %d have values without a usable type", typed, untyped)
	if typed < 140 {
		t.Errorf("only %d golden messages map with the rfc profile", typed)
	}
}

// TestLayout: a provisioned layout other than [8,8,8] (RFC A.1 / section 1).
func TestLayout(t *testing.T) {
	c := &Config{Layout: termid.Layout{3, 8, 5, 8}}
	for _, tc := range []struct {
		text     string
		wild, id []byte
	}{
		{"101/00000001/00011/00000011", nil, []byte{0xa0, 0x23, 0x03}},
		{"101/*", []byte{0xd4}, []byte{0xa0, 0x00, 0x00}},
		{"root", nil, bytes.Repeat([]byte{0xff}, 8)},
	} {
		m, v := textForm(t, "msg08a", nil)
		e := &editor{path: tid08, tid: func(x *model.TerminationID) { x.Id = model.Octets(tc.text) }}
		edit(t, m, e)
		if err := ToBinary(m, v, c); err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		x := &m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.ModReq.TerminationID[0]
		var wild []byte
		for _, w := range x.Wildcard {
			wild = append(wild, w...)
		}
		if !bytes.Equal(wild, tc.wild) || !bytes.Equal(x.Id, tc.id) || x.Wildcard == nil {
			t.Errorf("%s: {%x, %x}, want {%x, %x}", tc.text, wild, x.Id, tc.wild, tc.id)
		}
		if _, err := ber.Append(nil, m, ber.Options{}); err != nil {
			t.Errorf("%s: encode: %v", tc.text, err)
		}
		if err := ToText(m, v, c); err != nil || string(x.Id) != tc.text || x.Wildcard != nil {
			t.Errorf("%s: back to text: %q %v", tc.text, x.Id, err)
		}
	}
}

// TestDigitMapNames: OTP's dialplanXY convention and provisioned names.
func TestDigitMapNames(t *testing.T) {
	c := &Config{DigitMapNames: map[string]uint16{"Long_Plan": 0x7f00}}
	for _, tc := range []struct {
		text string
		id   []byte
		back string
	}{
		{"dialplan00", []byte{0, 0}, "dialplan00"},
		{"dialplan12", []byte{1, 2}, "dialplan12"},
		{"dialplan5", []byte{0, 5}, "dialplan05"},
		{"DialPlanAB", []byte{0x31, 0x32}, "dialplanab"},
		{"long_plan", []byte{0x7f, 0x00}, "Long_Plan"},
	} {
		m, v := textForm(t, "msg08a", nil)
		edit(t, m, &editor{path: dm08, octets: setText(tc.text)})
		if err := ToBinary(m, v, c); err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		x := &m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.ModReq.Descriptors[2].DigitMapDescriptor.DigitMapName
		if !bytes.Equal(*x, tc.id) {
			t.Errorf("%s: %x, want %x", tc.text, *x, tc.id)
		}
		if err := ToText(m, v, c); err != nil || string(*x) != tc.back {
			t.Errorf("%x: back to %q (%v), want %q", tc.id, *x, err, tc.back)
		}
	}
	for _, bad := range []string{"dialplan", "dialplan123", "plan00", "dialplan0-"} {
		m, v := textForm(t, "msg08a", nil)
		edit(t, m, &editor{path: dm08, octets: setText(bad)})
		if err := ToBinary(m, v, c); err == nil || !errors.Is(err, ErrNoBinary) {
			t.Errorf("%q: %v, want no binary form", bad, err)
		}
	}
}

// TestMTP: MTP addresses as OTP carries them (the hex characters) and,
// with PackMTP, as RFC 3525 does.
func TestMTP(t *testing.T) {
	for _, tc := range []struct {
		text string
		pack bool
		bin  []byte
		back string
	}{
		{"0A1B", false, []byte("0A1B"), "0A1B"},
		{"0A1B", true, []byte{0x0a, 0x1b}, "0A1B"},
		{"12345", true, []byte{0x01, 0x23, 0x45}, "012345"},
		{"deadbeef", true, []byte{0xde, 0xad, 0xbe, 0xef}, "DEADBEEF"},
	} {
		m, v := textForm(t, "msg03", nil)
		m.Mess.MId = model.MId{Kind: model.MId_MtpAddress, MtpAddress: model.Octets(tc.text)}
		c := &Config{PackMTP: tc.pack}
		if err := ToBinary(m, v, c); err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		if !bytes.Equal(m.Mess.MId.MtpAddress, tc.bin) {
			t.Errorf("%s: %x, want %x", tc.text, m.Mess.MId.MtpAddress, tc.bin)
		}
		if _, err := ber.Append(nil, m, ber.Options{}); err != nil {
			t.Errorf("%s: encode: %v", tc.text, err)
		}
		if err := ToText(m, v, c); err != nil || string(m.Mess.MId.MtpAddress) != tc.back {
			t.Errorf("%s: back to %q (%v)", tc.text, m.Mess.MId.MtpAddress, err)
		}
	}
	m, v := textForm(t, "msg03", nil)
	m.Mess.MId = model.MId{Kind: model.MId_MtpAddress, MtpAddress: model.Octets("0G1B")}
	if err := ToBinary(m, v, &Config{PackMTP: true}); err == nil || !strings.Contains(err.Error(), "mapping: mess.mId.mtpAddress: ") {
		t.Errorf("bad MTP address: %v", err)
	}
}

// TestWalkSites: every site the generated walker visits is one the
// mapping understands, so a new schema version cannot slip a name past it.
func TestWalkSites(t *testing.T) {
	wantKind := map[string]pkgs.Kind{
		"PropertyParm.name":                     pkgs.Property,
		"IndAudPropertyParm.name":               pkgs.Property,
		"RequestedEvent.pkgdName":               pkgs.Event,
		"SecondRequestedEvent.pkgdName":         pkgs.Event,
		"IndAudEventsDescriptor.pkgdName":       pkgs.Event,
		"EventSpec.eventName":                   pkgs.Event,
		"ObservedEvent.eventName":               pkgs.Event,
		"IndAudEventBufferDescriptor.eventName": pkgs.Event,
		"Signal.signalName":                     pkgs.Signal,
		"IndAudSignal.signalName":               pkgs.Signal,
		"StatisticsParameter.statName":          pkgs.Statistic,
		"IndAudStatisticsDescriptor.statName":   pkgs.Statistic,
	}
	seen := map[string]bool{}
	counts := map[model.WalkTarget]int{}
	for i := range model.WalkSites {
		s := &model.WalkSites[i]
		key := s.Parent + "." + s.Field
		counts[s.Target]++
		switch s.Target {
		case model.WalkPkgdName:
			k, ok := itemKind(s)
			want, known := wantKind[key]
			if !ok || !known || k != want {
				t.Errorf("%s: kind %v (%v), want %v (listed %v)", key, k, ok, want, known)
			}
			seen[key] = true
		case model.WalkName:
			if isPackageName(s) != (s.Field == "packageName") {
				t.Errorf("%s: package name %v", key, isPackageName(s))
			}
		}
	}
	for key := range wantKind {
		if !seen[key] {
			t.Errorf("%s is not a walk site", key)
		}
	}
	if counts[model.WalkTerminationID] < 10 || counts[model.WalkName] != 4 || counts[model.WalkDigitMapName] != 3 || counts[model.WalkValue] != 5 || counts[model.WalkPropertyGroups] != 1 || counts[model.WalkMtpAddress] != 2 {
		t.Errorf("site counts %v", counts)
	}
}

// TestWalkerItems: a parameter sees its event among the enclosing items,
// and a value sees its parameter and the event.
func TestWalkerItems(t *testing.T) {
	m, err := ber.Decode(readGolden(t, "msg09"), ber.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	w := model.Walker{V: &itemsProbe{got: &got}}
	if err := w.Walk(m); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"TerminationID: []",
		"PkgdName: []",
		"Name: [ObservedEvent.eventName=00060004]",
		"Value: [ObservedEvent.eventName=00060004 EventParameter.eventParameterName=0001]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("items\n got %q\nwant %q", got, want)
	}
}

type itemsProbe struct {
	model.NopVisitor
	got *[]string
}

func (p *itemsProbe) note(w *model.Walker) error {
	var s []string
	for _, it := range w.Items() {
		s = append(s, fmt.Sprintf("%s.%s=%X", it.Site.Parent, it.Site.Field, []byte(*it.Name)))
	}
	*p.got = append(*p.got, fmt.Sprintf("%s: [%s]", w.Site().Target, strings.Join(s, " ")))
	return nil
}

func (p *itemsProbe) VisitTerminationID(w *model.Walker, _ *model.TerminationID) error {
	return p.note(w)
}
func (p *itemsProbe) VisitPkgdName(w *model.Walker, _ *model.Octets) error   { return p.note(w) }
func (p *itemsProbe) VisitName(w *model.Walker, _ *model.Octets) error       { return p.note(w) }
func (p *itemsProbe) VisitValue(w *model.Walker, _ *[]model.Octets) error    { return p.note(w) }
func (p *itemsProbe) VisitMtpAddress(w *model.Walker, _ *model.Octets) error { return nil }

func BenchmarkRoundTrip(b *testing.B) {
	data := readGolden(b, "msg22a")
	b.ReportAllocs()
	for b.Loop() {
		m, err := ber.Decode(data, ber.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := ToText(m, 1, nil); err != nil {
			b.Fatal(err)
		}
		if err := ToBinary(m, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func TestTermIDNames(t *testing.T) {
	names, err := NewTermIDNames(map[string]string{"A4444": "00000001/00000000/00000001", "A5555": "00000001/00000000/00000010"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &Config{TermIDNames: names}
	m := &model.MegacoMessage{Mess: model.Message{Version: 1, MessageBody: model.MessageMessageBody{
		Kind: model.MessageMessageBody_Transactions,
		Transactions: []model.Transaction{{Kind: model.Transaction_TransactionRequest, TransactionRequest: &model.TransactionRequest{
			Actions: []model.ActionRequest{{CommandRequests: []model.CommandRequest{{Command: model.Command{
				Kind: model.Command_ModReq, ModReq: &model.AmmRequest{TerminationID: []model.TerminationID{{Id: model.Octets("a4444")}}, Descriptors: []model.AmmDescriptor{}},
			}}}}},
		}}},
	}}}
	if err := ToBinary(m, 1, c); err != nil {
		t.Fatal(err)
	}
	id := m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.ModReq.TerminationID[0]
	if string(id.Id) != "\x01\x00\x01" {
		t.Errorf("binary id %x", id.Id)
	}
	if err := ToText(m, 1, c); err != nil {
		t.Fatal(err)
	}
	id = m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.ModReq.TerminationID[0]
	if string(id.Id) != "A4444" {
		t.Errorf("text id %q", id.Id)
	}
	for _, bad := range []map[string]string{
		{"11111111/00000000/00000000": "00000001/00000000/00000001"},
		{"X": "00000001/*"},
		{"X": "1/2"},
		{"X": "00000001/00000000/00000001", "Y": "00000001/00000000/00000001"},
	} {
		if _, err := NewTermIDNames(bad, nil); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// A message converted by the package's ToBinary keeps its wildcard lists
// when another is converted after it: the pooled transformer's memory is
// not the message's.
func TestToBinaryKeepsWildcards(t *testing.T) {
	m1, v1 := textForm(t, "msg10", nil)
	if err := ToBinary(m1, v1, nil); err != nil {
		t.Fatal(err)
	}
	tid := &m1.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[1].Command.AddReq.TerminationID[0]
	for _, text := range []string{"00000001/*", "00000010/00000011/$", "*"} {
		m2, v2 := textForm(t, "msg08a", nil)
		edit(t, m2, &editor{path: tid08, tid: func(x *model.TerminationID) { x.Id = model.Octets(text) }})
		if err := ToBinary(m2, v2, nil); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if len(tid.Wildcard) != 1 || tid.Wildcard[0][0] != 0x57 {
			t.Fatalf("after converting %s, the first message's $ is %x, want [57]", text, tid.Wildcard)
		}
	}
}
