package per

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/per/x691"
	"megaco/internal/corpus"
	"megaco/internal/model"
)

func perError(t *testing.T, err error) *codecerr.Error {
	t.Helper()
	return corpus.CodecError(t, err, "per")
}

func TestPeekVersion(t *testing.T) {
	corpus.PeekVersions(t, ".per", Codec{}, PeekVersion)
	files := corpus.Files(t, ".per")
	// With an authentication header the version is still found.
	m, err := Decode(files["msg03"], Options{})
	if err != nil {
		t.Fatal(err)
	}
	m.AuthHeader = &model.AuthenticationHeader{
		SecParmIndex: model.Octets{1, 2, 3, 4}, SeqNum: model.Octets{0, 0, 0, 9},
		Ad: model.Octets(bytes.Repeat([]byte{0xaa}, 12)),
	}
	for _, v := range []uint32{1, 2, 3} {
		m.Mess.Version = v
		enc, err := Append(nil, m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := PeekVersion(enc); err != nil || got != int(v) {
			t.Errorf("with authHeader, v%d: peeked %d, %v", v, got, err)
		}
		back, err := Decode(enc, Options{})
		if err != nil || !reflect.DeepEqual(back, m) {
			t.Errorf("with authHeader, v%d: round trip failed: %v", v, err)
		}
	}
}

// TestZeroOctets: OTP's PER decoder accepts 64 zero octets as a valid
// message in every version. Per X.691 it is not one: the bits decode to
// version 0, which no H.248 version is, and a complete encoding is
// followed by nothing but the padding of its last octet (10.1.2), while
// here dozens of octets would be left over.
func TestZeroOctets(t *testing.T) {
	zeros := make([]byte, 64)
	_, err := Decode(zeros, Options{})
	if err == nil || err.Error() != "per: bit 2: mess.version: unsupported protocol version 0 (1..3)" || perError(t, err).Kind != codecerr.Unsupported {
		t.Errorf("auto version: %v", err)
	}
	for v := 1; v <= 3; v++ {
		_, err := Decode(zeros, Options{Version: v})
		if err == nil {
			t.Errorf("v%d: 64 zero octets accepted", v)
			continue
		}
		t.Logf("v%d: %v", v, err)
	}
}

func TestErrors(t *testing.T) {
	golden := corpus.Files(t, ".per")["msg03"]
	// Truncation: the error names the bit offset and the field path.
	_, err := Decode(golden[:20], Options{})
	e := perError(t, err)
	if e.Pos.Unit != codecerr.Bit || e.Pos.Offset <= 0 || e.Pos.Offset > 20*8 || !strings.HasPrefix(e.Path(), "mess.") {
		t.Errorf("truncated: %v", err)
	}
	if !strings.HasPrefix(err.Error(), "per: ") {
		t.Errorf("message %q", err)
	}
	// Trailing octets after a complete encoding.
	_, err = Decode(append(append([]byte(nil), golden...), 0xff), Options{})
	if err == nil {
		t.Error("trailing octet accepted")
	}
	// Limits: size, depth and elements.
	for _, c := range []struct {
		lim  limits.Limits
		want string
	}{
		{limits.Limits{MaxSize: 10, MaxDepth: 64, MaxElements: 100}, "per: bit 0: message of 52 bytes exceeds the limit of 10"},
		{limits.Limits{MaxSize: 1 << 20, MaxDepth: 3, MaxElements: 100}, "nesting deeper than 3"},
		{limits.Limits{MaxSize: 1 << 20, MaxDepth: 64, MaxElements: 2}, "more than 2 elements"},
	} {
		_, err := Decode(golden, Options{Limits: c.lim})
		if err == nil || !strings.Contains(err.Error(), c.want) || perError(t, err).Kind != codecerr.TooLarge {
			t.Errorf("limits %+v: %v, want %q (too large)", c.lim, err, c.want)
		}
	}
	// Encoder checks: a v3-only field in v1, a value out of range.
	m, err := Decode(golden, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].ContextRequest = &model.ContextRequest{Iepscallind: model.Some(true)}
	_, err = Append(nil, m, Options{})
	if e := perError(t, err); !strings.HasSuffix(e.Path(), "contextRequest.iepscallind") || !strings.Contains(e.Msg, "not in version 1") {
		t.Errorf("v3 field in v1: %v", err)
	}
	m.Mess.MessageBody.Transactions[0].TransactionRequest.Actions[0].ContextRequest = nil
	m.Mess.Version = 100
	if _, err := Append(nil, m, Options{Version: 1}); err == nil || !strings.Contains(err.Error(), "mess.version") {
		t.Errorf("version 100: %v", err)
	}
}

func TestReuse(t *testing.T) {
	var dec Decoder
	corpus.Reuse(t, ".per", Codec{}, dec.Decode)
}

// The decoder leaves the memory it reuses as the last message left it
// and zeroes each value as it decodes one: so a decoder that has seen
// every corpus message, in another order, still decodes each as a fresh
// one does.
func TestReuseAnyOrder(t *testing.T) {
	files := corpus.Files(t, ".per")
	names := corpus.Names(files)
	var dec Decoder
	for _, name := range names {
		if _, err := dec.Decode(files[name]); err != nil {
			t.Fatal(err)
		}
	}
	for i := range names {
		name := names[len(names)-1-i]
		want, err := Decode(files[name], Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := dec.Decode(files[name]); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: reused decoder differs (%v)", name, err)
		}
	}
}

// TestAppendContract: Append appends, and on error gives b back at its
// original length.
func TestAppendContract(t *testing.T) { corpus.AppendContract(t, "per", ".per", Codec{}) }

// FuzzDecodeMessage: no panic or hang on any input; what decodes must
// encode and decode again to the same message and bytes.
func FuzzDecodeMessage(f *testing.F) {
	corpus.Seed(f, ".per")
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		corpus.Stable(t, data, "per", withVersion, PeekVersion)
	})
}

func withVersion(v int) corpus.Codec { return Codec{Options{Version: v}} }

// TestBitStrings covers the helpers for BIT STRINGs without named bits
// (which the generator supports; the H.248 modules only have named ones).
func TestBitStrings(t *testing.T) {
	for _, bs := range []model.BitString{{Bits: 0b101, Len: 3}, {Bits: 1 << 9, Len: 12}, {Len: 0}} {
		e := x691.NewWriter(nil)
		if err := putBitString(e, bs, 0, x691.Unbounded, false); err != nil {
			t.Fatal(err)
		}
		d := &decoder{walker: walker{Reader: x691.NewReader(e.Finish()), lim: limits.Default}}
		got, err := d.bitString(0, x691.Unbounded, false, false)
		if err != nil || got.Bits != bs.Bits || got.Len != bs.EncLen() {
			t.Errorf("%+v: got %+v, %v", bs, got, err)
		}
	}
	// Named bits drop trailing zeros on decode, keeping at least lb.
	e := x691.NewWriter(nil)
	_ = putBitString(e, model.BitString{Bits: 1, Len: 8}, 0, x691.Unbounded, false)
	d := &decoder{walker: walker{Reader: x691.NewReader(e.Finish()), lim: limits.Default}}
	if got, err := d.bitString(0, x691.Unbounded, false, true); err != nil || got.Len != 1 {
		t.Errorf("named: %+v %v", got, err)
	}
}
