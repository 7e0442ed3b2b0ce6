package native_test

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	pb "megaco/api/megaco/v1"
	"megaco/internal/codec/ber"
	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/native"
	"megaco/internal/corpus"
	"megaco/internal/mapping"
	"megaco/internal/model"
	"megaco/internal/protoconv"
)

// The wire form of the native codec (without compression) is protobuf's
// encoding of the API mirror: these tests compare it with protobuf-go's.

// plain is the codec without compression; its element limit is out of
// the way of the comparisons with protobuf-go, which has none.
var plain = native.Codec{Options: native.Options{Limits: limits.Limits{MaxElements: 1 << 30}}}

// wireMaxDepth is protobuf-go's default recursion limit, the native
// decoder's default too.
const wireMaxDepth = 64

// wireCheck compares the native encoding with protobuf-go's encoding of
// the mirror.
func wireCheck(t *testing.T, what string, m *model.MegacoMessage) bool {
	t.Helper()
	want, err := proto.Marshal(protoconv.ToProto(m))
	prefix := []byte("prefix")
	got, werr := plain.Append(prefix, m)
	if err != nil || werr != nil {
		// Both fail (a string that is not UTF-8), b left as it was.
		if err == nil || werr == nil || !bytes.Equal(got, prefix) {
			t.Errorf("%s: proto.Marshal: %v; Append: %v", what, err, werr)
			return false
		}
		return true
	}
	if !bytes.Equal(got[:len(prefix)], prefix) || !bytes.Equal(got[len(prefix):], want) {
		t.Errorf("%s: Append differs from proto.Marshal(protoconv.ToProto(m))\n got %x\nwant %x", what, got[len(prefix):], want)
		return false
	}
	return true
}

func mustWire(t testing.TB, m *model.MegacoMessage) []byte {
	t.Helper()
	b, err := plain.Append(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAppendWire: for every corpus message, in binary and in text form,
// Append writes protobuf-go's bytes.
func TestAppendWire(t *testing.T) {
	names, msgs, _ := corpusMessages(t)
	ok := 0
	for i, name := range names {
		m := msgs[i]
		if !wireCheck(t, name+" binary form", m) {
			continue
		}
		if err := mapping.ToText(m, int(m.Mess.Version), nil); err != nil {
			t.Fatal(err)
		}
		if wireCheck(t, name+" text form", m) {
			ok++
		}
	}
	t.Logf("Append = proto.Marshal(protoconv.ToProto(m)): %d/%d messages, both forms", ok, len(msgs))
}

// TestAppendWireEdges: what decoders never give but a model can hold:
// zero scalars in oneofs and optionals, a chosen alternative without its
// value, empty and nil lists, long fields (multi-byte lengths), negative
// and large numbers.
func TestAppendWireEdges(t *testing.T) {
	long := bytes.Repeat([]byte("x"), 300)
	m := &model.MegacoMessage{
		AuthHeader: &model.AuthenticationHeader{Ad: model.Octets(long)},
		Mess: model.Message{Version: 0, MId: model.MId{Kind: model.MId_DeviceName, DeviceName: ""},
			MessageBody: model.MessageMessageBody{Kind: model.MessageMessageBody_Transactions, Transactions: []model.Transaction{
				{Kind: model.Transaction_TransactionRequest}, // chosen, no value
				{Kind: model.Transaction_TransactionPending, TransactionPending: &model.TransactionPending{}},
				{Kind: model.Transaction_TransactionResponseAck, TransactionResponseAck: []model.TransactionAck{{FirstAck: 0, LastAck: model.Some(uint32(0))}, {FirstAck: 1 << 31}}},
				{Kind: model.Transaction_TransactionRequest, TransactionRequest: &model.TransactionRequest{Actions: []model.ActionRequest{{
					ContextId:      0xFFFFFFFF,
					ContextRequest: &model.ContextRequest{Priority: model.Some(uint32(0)), Emergency: model.Some(false)},
					CommandRequests: []model.CommandRequest{{Command: model.Command{Kind: model.Command_NotifyReq, NotifyReq: &model.NotifyRequest{
						TerminationID:            []model.TerminationID{{Wildcard: []model.Octets{}, Id: model.Octets(long)}},
						ObservedEventsDescriptor: model.ObservedEventsDescriptor{ObservedEventLst: []model.ObservedEvent{{EventName: model.Octets("al/on"), EventParList: []model.EventParameter{}}}},
					}}}},
				}}}},
			}}}}
	wireCheck(t, "edges", m)
	wireCheck(t, "empty", &model.MegacoMessage{})
	// A proto3 string must be UTF-8: both refuse, naming the field.
	m.Mess.MId = model.MId{Kind: model.MId_DeviceName, DeviceName: "gw\xff1"}
	if !wireCheck(t, "not UTF-8", m) {
		return
	}
	if _, err := plain.Append(nil, m); err == nil || !strings.Contains(err.Error(), "MId.deviceName: string field contains invalid UTF-8") {
		t.Errorf("not UTF-8: %v", err)
	}
}

// FuzzAppendWire: any input reads the same with Decode as with
// protobuf-go and FromProto, and a model from it writes with Append as
// protobuf-go writes its mirror.
func FuzzAppendWire(f *testing.F) {
	_, msgs, _ := corpusMessages(f)
	for i := 0; i < len(msgs); i += 5 {
		f.Add(mustWire(f, msgs[i]))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		unwireCheck(t, "fuzz", data)
		var p pb.MegacoMessage
		if proto.Unmarshal(data, &p) != nil {
			return
		}
		wireCheck(t, "fuzz", protoconv.FromProto(&p))
	})
}

// reused decodes every input of unwireCheck in the memory the previous
// ones left behind.
var reused = native.Decoder{Options: plain.Options}

// unwireCheck compares Decode with FromProto of protobuf-go's decoding:
// both fail, or both give the same model; and a reused Decoder gives what
// Decode gives.
func unwireCheck(t *testing.T, what string, b []byte) {
	t.Helper()
	var p pb.MegacoMessage
	perr := proto.UnmarshalOptions{RecursionLimit: wireMaxDepth}.Unmarshal(b, &p)
	m, err := plain.Decode(b)
	if r, rerr := reused.Decode(b); (rerr == nil) != (err == nil) || (err != nil && rerr.Error() != err.Error()) || !reflect.DeepEqual(r, m) {
		t.Fatalf("%s: a reused Decoder gives %v, %v; Decode %v, %v", what, r, rerr, m, err)
	}
	switch {
	case perr != nil && err != nil:
		return
	case perr != nil:
		t.Fatalf("%s: protobuf fails (%v), Decode does not", what, perr)
	case err != nil && strings.Contains(err.Error(), "no message (mess is missing)") == (p.Mess == nil):
		if p.Mess == nil {
			return
		}
		t.Fatalf("%s: Decode fails (%v), protobuf does not", what, err)
	case err != nil:
		t.Fatalf("%s: Decode: %v (mess present: %v)", what, err, p.Mess != nil)
	case p.Mess == nil:
		t.Fatalf("%s: Decode accepts a message without mess", what)
	}
	if want := protoconv.FromProto(&p); !reflect.DeepEqual(m, want) {
		t.Fatalf("%s: Decode differs from protoconv.FromProto(proto.Unmarshal)\n got %+v\nwant %+v", what, m, want)
	}
}

// TestUnwireElements: the element budget stops a decode that would make
// more messages and list items than allowed, and only such a decode.
func TestUnwireElements(t *testing.T) {
	m, err := ber.Decode(corpus.Files(t, ".ber")["msg22a"], ber.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wire := mustWire(t, m)
	need := 0
	for n := 1; n < 10000; n++ {
		if _, err := decodeWithin(n, wire); err == nil {
			need = n
			break
		} else if e, ok := codecerr.As(err); !ok || e.Kind != codecerr.TooLarge || e.Codec != "native" || e.Op != codecerr.Decode {
			t.Fatalf("budget %d: %v", n, err)
		}
	}
	if need < 20 {
		t.Errorf("msg22a decodes with a budget of %d elements", need)
	}
	if _, err := decodeWithin(need-1, wire); err == nil || !strings.Contains(err.Error(), "more elements than the limit") {
		t.Errorf("budget %d: %v", need-1, err)
	}
}

func decodeWithin(maxElements int, b []byte) (*model.MegacoMessage, error) {
	return native.Codec{Options: native.Options{Limits: limits.Limits{MaxElements: maxElements}}}.Decode(b)
}

// TestUnwire: every corpus message, in both forms, and the edge cases of
// TestAppendWireEdges read back as protobuf-go reads them.
func TestUnwire(t *testing.T) {
	names, msgs, _ := corpusMessages(t)
	var prev []byte
	for i, name := range names {
		m := msgs[i]
		wire := mustWire(t, m)
		unwireCheck(t, name, wire)
		// Concatenated messages merge (protobuf's rule): the fallback.
		unwireCheck(t, name+" after the previous one", append(prev, wire...))
		prev = wire
		if err := mapping.ToText(m, int(m.Mess.Version), nil); err != nil {
			t.Fatal(err)
		}
		unwireCheck(t, name+" text form", mustWire(t, m))
	}
	for _, b := range [][]byte{nil, {}, {0x12, 0}, {0x08, 0x80}, {0x12, 0x05, 0x0a}, {0x1a, 0x00, 0x12, 0x00}} {
		unwireCheck(t, fmt.Sprintf("%x", b), b)
	}
}

// TestUnwireMerge: a message field that comes more than once merges into
// the first occurrence, as in protobuf-go, at every depth. Each
// length-delimited field of every corpus message is in turn written twice,
// or followed or preceded by an empty occurrence (which must change
// nothing in a message, and selects an alternative in a oneof).
func TestUnwireMerge(t *testing.T) {
	names, msgs, _ := corpusMessages(t)
	cases := 0
	for i, name := range names {
		wire := mustWire(t, msgs[i])
		for k := 0; ; k++ {
			found := false
			for _, how := range []func(v []byte) [][]byte{
				func(v []byte) [][]byte { return [][]byte{v, v} },
				func(v []byte) [][]byte { return [][]byte{v, nil} },
				func(v []byte) [][]byte { return [][]byte{nil, v} },
			} {
				left := k
				b := repeatField(wire, &left, how)
				if left >= 0 {
					break
				}
				found = true
				cases++
				unwireCheck(t, fmt.Sprintf("%s field %d", name, k), b)
			}
			if !found {
				break
			}
		}
	}
	t.Logf("%d inputs with a field repeated", cases)
}

// TestUnwireSpread: the items of a list may come anywhere in their
// message, between other fields (protobuf allows it; the decoder sizes a
// list by counting them all). Each length-delimited field of every corpus
// message is in turn moved to the end of its message.
func TestUnwireSpread(t *testing.T) {
	names, msgs, _ := corpusMessages(t)
	cases := 0
	for i, name := range names {
		wire := mustWire(t, msgs[i])
		for k := 0; ; k++ {
			left := k
			b := moveField(wire, &left)
			if left >= 0 {
				break
			}
			cases++
			unwireCheck(t, fmt.Sprintf("%s field %d moved", name, k), b)
		}
	}
	t.Logf("%d inputs with a field moved", cases)
}

// TestDecoderAllocs: a warm reused Decoder allocates nothing.
func TestDecoderAllocs(t *testing.T) {
	_, msgs, _ := corpusMessages(t)
	var wires [][]byte
	for _, m := range msgs {
		wires = append(wires, mustWire(t, m))
	}
	var dec native.Decoder
	allocs := testing.AllocsPerRun(5, func() {
		for _, w := range wires {
			if _, err := dec.Decode(w); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per pass over the corpus", allocs)
	}
}

// TestDecodeKeeps: the messages of Codec.Decode share memory chunks but
// keep their values: decoding the whole corpus one message after the
// other changes none of the earlier messages.
func TestDecodeKeeps(t *testing.T) {
	_, msgs, _ := corpusMessages(t)
	var wires [][]byte
	var kept []*model.MegacoMessage
	for _, m := range msgs {
		w := mustWire(t, m)
		d, err := plain.Decode(w)
		if err != nil {
			t.Fatal(err)
		}
		wires, kept = append(wires, w), append(kept, d)
	}
	for i, w := range wires {
		var fresh native.Decoder
		want, err := fresh.Decode(w)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(kept[i], want) {
			t.Fatalf("message %d changed after the later decodes", i)
		}
	}
}

// moveField moves the k-th length-delimited field of message b (in
// pre-order, counting those in nested messages) to the end of the
// message that holds it; *k < 0 when it was found.
func moveField(b []byte, k *int) []byte {
	var out, moved []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil
		}
		field := b[:n+m]
		b = b[n+m:]
		if typ != protowire.BytesType || *k < 0 {
			out = append(out, field...)
			continue
		}
		*k--
		if *k < 0 {
			moved = field
			continue
		}
		v, _ := protowire.ConsumeBytes(field[n:])
		if inner := moveField(v, k); *k < 0 && inner != nil {
			v = inner
		}
		out = protowire.AppendTag(out, num, typ)
		out = protowire.AppendBytes(out, v)
	}
	return append(out, moved...)
}

// repeatField rewrites the k-th length-delimited field of message b (in
// pre-order, counting those in nested messages) as the occurrences how
// gives for its value; *k < 0 when it was found.
func repeatField(b []byte, k *int, how func(v []byte) [][]byte) []byte {
	var out []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil
		}
		field := b[:n+m]
		b = b[n+m:]
		if typ != protowire.BytesType || *k < 0 {
			out = append(out, field...)
			continue
		}
		v, _ := protowire.ConsumeBytes(field[n:])
		*k--
		if *k < 0 {
			for _, x := range how(v) {
				out = protowire.AppendTag(out, num, typ)
				out = protowire.AppendBytes(out, x)
			}
			continue
		}
		if inner := repeatField(v, k, how); *k < 0 && inner != nil {
			v = inner
		}
		out = protowire.AppendTag(out, num, typ)
		out = protowire.AppendBytes(out, v)
	}
	return out
}
