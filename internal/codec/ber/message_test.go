package ber

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/corpus"
	"megaco/internal/model"
)

// toIndefinite rewrites every constructed element of a definite-length
// encoding into the indefinite form, as some BER senders do.
func toIndefinite(t testing.TB, data []byte) []byte {
	t.Helper()
	d := newDecoder(data)
	var out []byte
	var walk func(off, end int)
	walk = func(off, end int) {
		for off < end {
			h, err := d.header(off, end)
			if err != nil {
				t.Fatal(err)
			}
			idLen := 1
			if data[off]&0x1f == 0x1f {
				for idLen = 2; data[off+idLen-1]&0x80 != 0; idLen++ {
				}
			}
			if h.cons {
				out = append(out, data[off:off+idLen]...)
				out = append(out, 0x80)
				walk(h.start, h.end)
				out = append(out, 0, 0)
			} else {
				out = append(out, data[off:h.next]...)
			}
			off = h.next
		}
	}
	walk(0, len(data))
	return out
}

func TestIndefiniteLengthCorpus(t *testing.T) {
	files := corpus.Files(t, ".ber")
	ok := 0
	for _, name := range corpus.Names(files) {
		golden := files[name]
		indef := toIndefinite(t, golden)
		if bytes.Equal(indef, golden) {
			t.Fatalf("%s: rewrite changed nothing", name)
		}
		m1, err := Decode(golden, Options{})
		if err != nil {
			t.Fatal(err)
		}
		m2, err := Decode(indef, Options{})
		if err != nil {
			t.Errorf("%s: indefinite form: %v", name, err)
			continue
		}
		if !reflect.DeepEqual(m1, m2) {
			t.Errorf("%s: indefinite form decodes to a different message", name)
			continue
		}
		// Encoding is always definite: back to OTP's bytes.
		out, err := Append(nil, m2, Options{})
		if err != nil || !bytes.Equal(out, golden) {
			t.Errorf("%s: re-encode of the indefinite form differs (%v)", name, err)
			continue
		}
		ok++
	}
	t.Logf("BER: indefinite-length forms decoded and re-encoded definite: %d/%d", ok, len(files))
}

func berError(t *testing.T, err error) *codecerr.Error {
	t.Helper()
	return corpus.CodecError(t, err, "ber")
}

// TestErrorNamesOffsetAndPath corrupts a length deep inside a message and
// checks that the error gives the byte offset and the field path.
func TestErrorNamesOffsetAndPath(t *testing.T) {
	golden := corpus.Files(t, ".ber")["msg03"]
	// msg03: ... a1 .. (mId) ... the transactionId element sits in
	// mess.messageBody.transactions[0].transactionRequest; find its [0] INTEGER.
	m, err := Decode(golden, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tid := m.Mess.MessageBody.Transactions[0].TransactionRequest.TransactionId
	want := appendUint(nil, "\x80", uint64(tid))
	i := bytes.Index(golden, want)
	if i < 0 {
		t.Fatalf("transactionId %d not found", tid)
	}
	bad := append([]byte(nil), golden...)
	bad[i+1] = 0x7f // a length far beyond the enclosing element
	_, err = Decode(bad, Options{})
	e := berError(t, err)
	if e.Pos != codecerr.AtByte(i) || e.Kind != codecerr.Malformed {
		t.Errorf("position %v kind %v, want offset %d, malformed", e.Pos, e.Kind, i)
	}
	if p := e.Path(); p != "mess.messageBody.transactions[0].transactionRequest" {
		t.Errorf("path %q", p)
	}
	if !strings.HasPrefix(err.Error(), "ber: offset ") || !strings.Contains(err.Error(), "exceeds the") {
		t.Errorf("message %q", err)
	}

	// An out-of-range value names the field itself.
	bad = append([]byte(nil), golden...)
	v := bytes.Index(bad, []byte{0x80, 0x01, 0x01}) // mess.version = 1
	bad[v+2] = 100
	_, err = Decode(bad, Options{Version: 1})
	if e := berError(t, err); e.Path() != "mess.version" || !strings.Contains(e.Msg, "out of range 0..99") {
		t.Errorf("got %v", err)
	}
}

func TestLimits(t *testing.T) {
	golden := corpus.Files(t, ".ber")["msg03"]
	cases := []struct {
		lim  limits.Limits
		want string
	}{
		{limits.Limits{MaxSize: len(golden) - 1, MaxDepth: 64, MaxElements: 1000}, "exceeds the limit"},
		{limits.Limits{MaxSize: 1 << 20, MaxDepth: 5, MaxElements: 1000}, "nesting deeper than 5"},
		{limits.Limits{MaxSize: 1 << 20, MaxDepth: 64, MaxElements: 10}, "more than 10 elements"},
	}
	for _, c := range cases {
		_, err := Decode(golden, Options{Limits: c.lim})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("limits %+v: got %v, want %q", c.lim, err, c.want)
		} else if e := berError(t, err); e.Kind != codecerr.TooLarge {
			t.Errorf("limits %+v: kind %v", c.lim, e.Kind)
		}
		if _, err := Decode(golden, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	// Deep nesting of unknown indefinite-length content inside an
	// extensible type is bounded too.
	deep := bytes.Repeat([]byte{0x30, 0x80}, 10000)
	deep = append(deep, bytes.Repeat([]byte{0, 0}, 10000)...)
	if _, err := Decode(deep, Options{}); err == nil || !strings.Contains(err.Error(), "nesting deeper") {
		t.Errorf("deep indefinite nesting: %v", err)
	}
	// Many tiny elements stop at the element limit, not at memory.
	many := []byte{0x30, 0x83, 0x03, 0x0d, 0x40}
	many = append(many, bytes.Repeat([]byte{0x05, 0x00}, 100000)...)
	if _, err := Decode(many, Options{Limits: limits.Limits{MaxSize: 1 << 20, MaxDepth: 64, MaxElements: 1000}}); err == nil {
		t.Error("100000 elements accepted")
	}
}

func TestVersions(t *testing.T) {
	corpus.PeekVersions(t, ".ber", Codec{}, PeekVersion)
	files := corpus.Files(t, ".ber")

	// A v3-only field cannot be encoded as v1 or v2.
	m, err := Decode(files["msg03"], Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := m.Mess.MessageBody.Transactions[0].TransactionRequest
	tr.Actions[0].ContextRequest = &model.ContextRequest{Iepscallind: model.Some(true)}
	for _, v := range []int{1, 2} {
		_, err := Append(nil, m, Options{Version: v})
		e := berError(t, err)
		if !strings.Contains(e.Path(), "actions[0].contextRequest.iepscallind") || !strings.Contains(e.Msg, "not in version") {
			t.Errorf("v%d: %v", v, err)
		}
	}
	m.Mess.Version = 3
	if _, err := Append(nil, m, Options{}); err != nil {
		t.Errorf("v3: %v", err)
	}
	m.Mess.Version = 4
	if _, err := Append(nil, m, Options{}); err == nil || err.Error() != "ber: encode: mess.version: unsupported protocol version 4 (1..3)" {
		t.Errorf("version 4: %v", err)
	}

	// A v1 message decoded with the v3 schema where they agree: forcing
	// works; a v3 message forced to v1 fails where v1 lacks something.
	if _, err := Decode(files["msg03"], Options{Version: 3}); err != nil {
		t.Errorf("v1 message with the v3 schema: %v", err)
	}
	var failed int
	for _, name := range corpus.Names(files) {
		if v, _ := PeekVersion(files[name]); v == 3 {
			if _, err := Decode(files[name], Options{Version: 1}); err != nil {
				failed++
			}
		}
	}
	t.Logf("v3 messages that the v1 schema rejects: %d/92", failed)

	// Version 0 and >3 in the message are refused with the field named.
	bad := append([]byte(nil), files["msg03"]...)
	bad[bytes.Index(bad, []byte{0x80, 0x01, 0x01})+2] = 7
	_, err = Decode(bad, Options{})
	if err == nil || err.Error() != "ber: offset 0: mess.version: unsupported protocol version 7 (1..3)" || berError(t, err).Kind != codecerr.Unsupported {
		t.Errorf("version 7: %v", err)
	}
	// A forced version outside 1..3 is refused before anything is read.
	if _, err := Decode(files["msg03"], Options{Version: 4}); err == nil || berError(t, err).Kind != codecerr.Unsupported {
		t.Errorf("forced version 4: %v", err)
	}
}

// TestMandatoryAndChoice checks the encoder's own checks.
func TestMandatoryAndChoice(t *testing.T) {
	m := &model.MegacoMessage{Mess: model.Message{Version: 1}}
	_, err := Append(nil, m, Options{})
	if e := berError(t, err); e.Path() != "mess.mId" || !strings.Contains(e.Msg, "no alternative chosen") {
		t.Errorf("empty mId: %v", err)
	}
	m.Mess.MId = model.MId{Kind: model.MId_Ip4Address, Ip4Address: &model.IP4Address{Address: model.Octets{1, 2, 3}}}
	_, err = Append(nil, m, Options{})
	if e := berError(t, err); !strings.Contains(e.Path(), "mId.ip4Address.address") || !strings.Contains(e.Msg, "3 octets, want 4..4") {
		t.Errorf("short address: %v", err)
	}
}

func TestTrailingAndReuse(t *testing.T) {
	golden := corpus.Files(t, ".ber")["msg03"]
	if _, err := Decode(append(append([]byte(nil), golden...), 0), Options{}); err == nil || !strings.Contains(err.Error(), "1 bytes after the message") {
		t.Errorf("trailing byte: %v", err)
	}
	// A reused Decoder gives the same messages as fresh decodes.
	var dec Decoder
	corpus.Reuse(t, ".ber", Codec{}, dec.Decode)
}

// TestAppendContract: Append appends, and on error gives b back at its
// original length.
func TestAppendContract(t *testing.T) { corpus.AppendContract(t, "ber", ".ber", Codec{}) }
