package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	pb "megaco/api/megaco/v1"
)

// TestDecodeOneDocument: the gRPC Decode (in protobuf's JSON mapping, as
// grpcurl prints it) and /v1/decode give the same JSON document for every
// corpus message, in both forms and each view.
func TestDecodeOneDocument(t *testing.T) {
	ts := start(t, DefaultConfig())
	ctx := context.Background()
	base := "http://" + ts.httpAddr
	forms := []struct {
		name string
		form pb.Form
	}{{"text", pb.Form_FORM_TEXT}, {"binary", pb.Form_FORM_BINARY}}
	views := []struct {
		name string
		view pb.DecodeView
	}{{"", pb.DecodeView_DECODE_VIEW_UNSPECIFIED}, {"message", pb.DecodeView_DECODE_VIEW_MESSAGE}, {"both", pb.DecodeView_DECODE_VIEW_BOTH}}
	same := 0
	for i, p := range corpusPaths(t) {
		data := read(t, p)
		for j, f := range forms {
			v := views[(i+j)%len(views)] // each view on a third of the corpus
			resp, err := ts.client.Decode(ctx, &pb.DecodeRequest{Data: data, Options: &pb.Options{Form: f.form}, View: v.view})
			if err != nil {
				t.Fatalf("%s: %v", filepath.Base(p), err)
			}
			if (resp.Document != nil) == (v.view == pb.DecodeView_DECODE_VIEW_MESSAGE) || (resp.Message != nil) == (v.view == pb.DecodeView_DECODE_VIEW_UNSPECIFIED) {
				t.Errorf("%s view %q: document %v, message %v", filepath.Base(p), v.name, resp.Document != nil, resp.Message != nil)
			}
			g, err := protojson.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			url := base + "/v1/decode?form=" + f.name
			if v.name != "" {
				url += "&view=" + v.name
			}
			r, err := http.Post(url, "application/octet-stream", bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			h, _ := io.ReadAll(r.Body)
			r.Body.Close()
			var gv, hv any
			if err := json.Unmarshal(g, &gv); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(h, &hv); err != nil || r.StatusCode != 200 {
				t.Fatalf("%s: HTTP %d %v: %s", filepath.Base(p), r.StatusCode, err, h)
			}
			if !reflect.DeepEqual(gv, hv) {
				t.Errorf("%s form %s view %q: gRPC\n%s\nHTTP\n%s", filepath.Base(p), f.name, v.name, g, h)
				continue
			}
			same++
		}
	}
	t.Logf("gRPC and HTTP documents equal: %d/%d", same, 2*149)

	// The default view of msg03 in text form: names as written, nothing
	// in base64.
	resp, err := ts.client.Decode(ctx, &pb.DecodeRequest{Data: read(t, "../../corpus/otp-time-test/msg03.per"), Options: &pb.Options{Form: pb.Form_FORM_TEXT}})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := protojson.Marshal(resp)
	for _, want := range []string{`"al/of"`, `"11111111/00000000/00000000"`, `"124.124.124.222"`, `"-"`} {
		if !strings.Contains(string(g), want) {
			t.Errorf("msg03 text form lacks %s: %s", want, g)
		}
	}
	if _, err := ts.client.Decode(ctx, &pb.DecodeRequest{Data: read(t, "../../corpus/otp-time-test/msg03.per"), View: 9}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("view 9: %v", err)
	}
	// Binary form: the ID and its name.
	resp, _ = ts.client.Decode(ctx, &pb.DecodeRequest{Data: read(t, "../../corpus/otp-time-test/msg03.per")})
	g, _ = protojson.Marshal(resp)
	if c := strings.Join(strings.Fields(string(g)), ""); !strings.Contains(c, `"eventName":"0x00090005","eventNameText":"al/of"`) {
		t.Errorf("msg03 binary form: %s", g)
	}
}
