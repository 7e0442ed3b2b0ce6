package protoconv

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "megaco/api/megaco/v1"
	"megaco/internal/codec/ber"
)

// TestCorpusRoundTrip: model -> API mirror -> protobuf wire -> mirror ->
// model gives back the same message, for every corpus message, so the API
// loses nothing (presence included).
func TestCorpusRoundTrip(t *testing.T) {
	paths, _ := filepath.Glob("../../corpus/otp-time-test/*.ber")
	if len(paths) != 149 {
		t.Fatalf("%d corpus files", len(paths))
	}
	ok := 0
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		m, err := ber.Decode(data, ber.Options{})
		if err != nil {
			t.Fatal(err)
		}
		wire, err := proto.Marshal(ToProto(m))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		back := new(pb.MegacoMessage)
		if err := proto.Unmarshal(wire, back); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		m2 := FromProto(back)
		if !reflect.DeepEqual(m, m2) {
			t.Errorf("%s: the message changed through the API mirror", filepath.Base(p))
			continue
		}
		out, err := ber.Append(nil, m2, ber.Options{})
		if err != nil || !bytes.Equal(out, data) {
			t.Errorf("%s: BER after the round trip differs (%v)", filepath.Base(p), err)
			continue
		}
		ok++
	}
	t.Logf("protobuf mirror round trip: %d/%d", ok, len(paths))
}
