package protoconv

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"

	pb "megaco/api/megaco/v1"
	"megaco/internal/codec"
	"megaco/internal/model"
)

// docOf decodes file in form and returns its document as plain JSON values.
func docOf(t *testing.T, file string, form codec.Form) map[string]any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m, from, err := codec.DecodeAs(data, "", form, codec.Options{})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return jsonOf(t, m, from, form)
}

func jsonOf(t *testing.T, m *model.MegacoMessage, from string, form codec.Form) map[string]any {
	t.Helper()
	resp, err := NewDecodeResponse(m, from, form, pb.DecodeView_DECODE_VIEW_DOCUMENT, codec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := DecodeJSON(resp)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return v
}

// strings lists every key path=string value of a JSON value.
func leaves(v any, path string, out map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			leaves(x, path+"."+k, out)
		}
	case []any:
		for i, x := range v {
			leaves(x, path+"["+string(rune('0'+i%10))+"]", out)
		}
	case string:
		out[path] = v
	}
}

func leafValues(v any) []string {
	out := map[string]string{}
	leaves(v, "", out)
	var vals []string
	for _, s := range out {
		vals = append(vals, s)
	}
	slices.Sort(vals)
	return vals
}

// TestDocumentTextReadable: in text form the names, termination IDs,
// addresses, context IDs and SDP of corpus messages read as in the text
// encoding, and no octet string of the whole corpus is hex or base64.
func TestDocumentTextReadable(t *testing.T) {
	doc := docOf(t, "../../corpus/otp-time-test/msg10.ber", codec.Text)
	vals := leafValues(doc["document"])
	for _, want := range []string{"123.123.123.4", "$", "11111111/00000000/00000000", "nt/jit", "40", "v", "0", "c", "IN IP4 $ ", "m", "audio $ RTP/AVP 4", "a", "ptime:30"} {
		if !slices.Contains(vals, want) {
			t.Errorf("msg10 text form lacks %q: %q", want, vals)
		}
	}
	if doc["form"] != "FORM_TEXT" && doc["form"] != "FORM_BINARY" {
		t.Errorf("form %v", doc["form"])
	}
	doc = docOf(t, "../../corpus/otp-time-test/msg03.ber", codec.Text)
	want := `{"codec":"CODEC_BER","document":{"mess":{"mId":{"ip4Address":{"address":"124.124.124.222","portNumber":55555}},"messageBody":{"transactions":{"items":[{"transactionRequest":{"actions":[{"commandRequests":[{"command":{"notifyReq":{"observedEventsDescriptor":{"observedEventLst":[{"eventName":"al/of","timeNotation":{"date":"19990729","time":"22000000"}}],"requestId":2222},"terminationId":[{"id":"11111111/00000000/00000000"}]}}}],"contextId":"-"}],"transactionId":10000}}]}},"version":1}},"form":"FORM_TEXT","version":1}`
	if got, _ := json.Marshal(doc); string(got) != want {
		t.Errorf("msg03 text form:\n%s\nwant\n%s", got, want)
	}
	// A name only the text has.
	doc = docOf(t, "../../corpus/appendix-a/corrected/a1-03-mgc-to-mg1-modify-t9999.txt", codec.Text)
	if vals := leafValues(doc); !slices.Contains(vals, "A4444") || !slices.Contains(vals, "al/of") || !slices.Contains(vals, "strict") || !slices.Contains(vals, "state") {
		t.Errorf("a1-03: %q", vals)
	}

	paths, _ := filepath.Glob("../../corpus/otp-time-test/*.ber")
	if len(paths) != 149 {
		t.Fatalf("%d corpus files", len(paths))
	}
	for _, p := range paths {
		out := map[string]string{}
		leaves(docOf(t, p, codec.Text)["document"], "", out)
		for path, s := range out {
			_, named := out[strings.TrimSuffix(path, "Text")]
			if strings.HasPrefix(s, "0x") || (strings.HasSuffix(path, "Text") && named) {
				t.Errorf("%s: %s = %q in text form", filepath.Base(p), path, s)
			}
		}
	}
}

// TestDocumentBinaryNames: in binary form each ID is hex with its text
// form beside it, for every ID of every corpus message.
func TestDocumentBinaryNames(t *testing.T) {
	doc := docOf(t, "../../corpus/otp-time-test/msg03.ber", codec.Binary)
	out := map[string]string{}
	leaves(doc["document"], "", out)
	for path, want := range map[string]string{
		".mess.mId.ip4Address.address": "124.124.124.222",
		".mess.messageBody.transactions.items[0].transactionRequest.actions[0].contextIdText":                                                                                   "-",
		".mess.messageBody.transactions.items[0].transactionRequest.actions[0].commandRequests[0].command.notifyReq.observedEventsDescriptor.observedEventLst[0].eventName":     "0x00090005",
		".mess.messageBody.transactions.items[0].transactionRequest.actions[0].commandRequests[0].command.notifyReq.observedEventsDescriptor.observedEventLst[0].eventNameText": "al/of",
		".mess.messageBody.transactions.items[0].transactionRequest.actions[0].commandRequests[0].command.notifyReq.terminationId[0].id":                                        "0xff0000",
		".mess.messageBody.transactions.items[0].transactionRequest.actions[0].commandRequests[0].command.notifyReq.terminationId[0].idText":                                    "11111111/00000000/00000000",
	} {
		if out[path] != want {
			t.Errorf("msg03 %s = %q, want %q", path, out[path], want)
		}
	}
	paths, _ := filepath.Glob("../../corpus/otp-time-test/*.ber")
	ids := 0
	for _, p := range paths {
		out := map[string]string{}
		leaves(docOf(t, p, codec.Binary)["document"], "", out)
		for path, s := range out {
			last := path[strings.LastIndexAny(path, ".]")+1:]
			switch last {
			case "eventName", "pkgdName", "signalName", "statName", "name", "sigParameterName", "eventParameterName", "packageName", "digitMapName", "id":
				ids++
				if _, ok := out[path+"Text"]; !strings.HasPrefix(s, "0x") || !ok {
					t.Errorf("%s: %s = %q, text %q", filepath.Base(p), path, s, out[path+"Text"])
				}
			}
		}
	}
	t.Logf("%d IDs in binary form, each with its name", ids)
}

// TestDocumentUnknownID: an ID the registry does not know is shown without
// a name; the IDs before it keep theirs, and the document is still written.
func TestDocumentUnknownID(t *testing.T) {
	data, _ := os.ReadFile("../../corpus/otp-time-test/msg03.ber")
	m, from, err := codec.DecodeAs(data, "", codec.Binary, codec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ev := &m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].CommandRequests[0].Command.NotifyReq.ObservedEventsDescriptor.ObservedEventLst[0]
	ev.EventName = model.Octets{0x77, 0x77, 0, 1}
	b, _ := json.Marshal(jsonOf(t, m, from, codec.Binary))
	if !strings.Contains(string(b), `"eventName":"0x77770001","timeNotation"`) || !strings.Contains(string(b), `"idText":"11111111/00000000/00000000"`) {
		t.Errorf("%s", b)
	}
}

// TestDocumentIPv6 writes IPv6 addresses per RFC 5952.
func TestDocumentIPv6(t *testing.T) {
	data, _ := os.ReadFile("../../corpus/otp-time-test/msg03.ber")
	m, from, _ := codec.DecodeAs(data, "", codec.Text, codec.Options{})
	m.Mess.MId = model.MId{Kind: model.MId_Ip6Address, Ip6Address: &model.IP6Address{
		Address: model.Octets{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, PortNumber: model.Some[uint32](2944)}}
	b, _ := json.Marshal(jsonOf(t, m, from, codec.Text))
	if !strings.Contains(string(b), `"ip6Address":{"address":"2001:db8::1","portNumber":2944}`) {
		t.Errorf("%s", b)
	}
}

// TestDocumentOctets: the rule for octet strings.
func TestDocumentOctets(t *testing.T) {
	for _, c := range []struct {
		in   string
		id   bool
		want string
	}{
		{"al/of", false, "al/of"},
		{"al/of", true, "0x616c2f6f66"},
		{"0x12", false, "0x30783132"},
		{"\x00\x09", false, "0x0009"},
		{"é", false, "é"},
		{"\xff", false, "0xff"},
		{"a\nb", false, "0x610a62"},
	} {
		if got := octets([]byte(c.in), c.id); got != c.want {
			t.Errorf("octets(%q, %v) = %q, want %q", c.in, c.id, got, c.want)
		}
	}
}

// TestDocumentTextNames: no message of the mirror has a field whose JSON
// name is that of an octet string or context ID field plus "Text", which
// the document uses for the text form beside it.
func TestDocumentTextNames(t *testing.T) {
	seen := map[protoreflect.FullName]bool{}
	var check func(md protoreflect.MessageDescriptor)
	check = func(md protoreflect.MessageDescriptor) {
		if seen[md.FullName()] {
			return
		}
		seen[md.FullName()] = true
		fields := md.Fields()
		for i := 0; i < fields.Len(); i++ {
			fd := fields.Get(i)
			if fd.Kind() == protoreflect.BytesKind || fd.Name() == "context_id" {
				if other := fields.ByJSONName(fd.JSONName() + "Text"); other != nil {
					t.Errorf("%s: %s and %s", md.FullName(), fd.Name(), other.Name())
				}
			}
			if fd.Message() != nil {
				check(fd.Message())
			}
		}
	}
	check((&pb.DecodeResponse{}).ProtoReflect().Descriptor())
	if len(seen) < 100 {
		t.Errorf("only %d messages checked", len(seen))
	}
}

// TestDocumentRoundTrip: FromDocument reads back what Document wrote, for
// every corpus message in both forms (and in the rfc profile's binary
// form, whose values are BER), so the document loses nothing.
func TestDocumentRoundTrip(t *testing.T) {
	paths, _ := filepath.Glob("../../corpus/otp-time-test/*.ber")
	ok := 0
	rfc := codec.Options{Profile: codec.ProfileRFC}
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		for _, c := range []struct {
			form codec.Form
			opts codec.Options
		}{{codec.Text, codec.Options{}}, {codec.Binary, codec.Options{}}, {codec.Binary, rfc}} {
			m, _, err := codec.DecodeAs(data, "ber", codec.Text, codec.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.form == codec.Binary {
				if err := codec.Convert(m, codec.Text, codec.Binary, c.opts); err != nil {
					continue // the rfc profile has no binary form of some values
				}
			}
			doc, err := Document(m, c.form, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			// Through its JSON, as a client would get it.
			b, err := protojson.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			var back structpb.Struct
			if err := protojson.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			got, err := FromDocument(&back)
			if err != nil {
				t.Errorf("%s %s: %v", filepath.Base(p), c.form, err)
				continue
			}
			if want := ToProto(m); !proto.Equal(got, want) {
				t.Errorf("%s %s profile %v: read back\n%v\nwant\n%v", filepath.Base(p), c.form, c.opts.Profile, got, want)
				continue
			}
			ok++
		}
	}
	t.Logf("documents read back to the message: %d (149 text, 149 binary otp, the rfc binary ones)", ok)
	for _, bad := range []string{`{"mess": {"bogus": 1}}`, `{"mess": {"version": -1}}`, `{"mess": {"version": "1"}}`, `{"authHeader": {"ad": "0xzz"}}`, `{"mess": {"mId": []}}`} {
		var s structpb.Struct
		if err := protojson.Unmarshal([]byte(bad), &s); err != nil {
			t.Fatal(err)
		}
		if _, err := FromDocument(&s); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// BenchmarkDocument: the cost of the document against the mirror alone
// (what Decode returned before), for msg10 (SDP) in each form.
func BenchmarkDocument(b *testing.B) {
	data, _ := os.ReadFile("../../corpus/otp-time-test/msg10.ber")
	for _, form := range []codec.Form{codec.Text, codec.Binary} {
		m, _, err := codec.DecodeAs(data, "ber", form, codec.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run("mirror/"+form.String(), func(b *testing.B) {
			for b.Loop() {
				ToProto(m)
			}
		})
		b.Run("document/"+form.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := Document(m, form, codec.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
