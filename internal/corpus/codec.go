package corpus

import (
	"bytes"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"

	"megaco/internal/codec/codecerr"
	"megaco/internal/model"
)

// This file holds the checks and benchmark loops every binary codec's
// tests share, so that BER, PER (and native) test the same things the
// same way.

// Size is the number of messages in the corpus, of every encoding.
const Size = 149

// Codec is what the shared checks need of a codec: ber.Codec, per.Codec
// and native.Codec have these methods.
type Codec interface {
	Decode(data []byte) (*model.MegacoMessage, error)
	Append(b []byte, m *model.MegacoMessage) ([]byte, error)
}

// List returns the corpus files ending in ext, in the order of their names.
func List(t testing.TB, ext string) [][]byte {
	t.Helper()
	files := Files(t, ext)
	out := make([][]byte, 0, len(files))
	for _, name := range Names(files) {
		out = append(out, files[name])
	}
	return out
}

// Decoded decodes every corpus file ending in ext with c, in name order.
func Decoded(t testing.TB, ext string, c Codec) []*model.MegacoMessage {
	t.Helper()
	var out []*model.MegacoMessage
	for _, data := range List(t, ext) {
		m, err := c.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// Seed adds every corpus file ending in ext to f's seed corpus and returns
// the files, by name, for seeds made from them.
func Seed(f *testing.F, ext string) map[string][]byte {
	files := Files(f, ext)
	for _, name := range Names(files) {
		f.Add(files[name])
	}
	return files
}

// Unhex decodes hex digits, spaces allowed between them.
func Unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// CodecError returns err as a *codecerr.Error of the named codec, or
// fails the test.
func CodecError(t testing.TB, err error, codec string) *codecerr.Error {
	t.Helper()
	e, ok := codecerr.As(err)
	if !ok || e.Codec != codec {
		t.Fatalf("error %v (%T) is not a *codecerr.Error of %s", err, err, codec)
	}
	return e
}

// RoundTrip checks that every corpus file ending in ext decodes with c and
// encodes again to the same bytes, Erlang/OTP's, byte for byte.
func RoundTrip(t *testing.T, ext string, c Codec) {
	files := Files(t, ext)
	decoded, exact := 0, 0
	for _, name := range Names(files) {
		data := files[name]
		m, err := c.Decode(data)
		if err != nil {
			t.Errorf("%s: decode: %v", name, err)
			continue
		}
		decoded++
		out, err := c.Append(nil, m)
		if err != nil {
			t.Errorf("%s: encode: %v", name, err)
			continue
		}
		if !bytes.Equal(out, data) {
			t.Errorf("%s: re-encoding differs\n got %x\nwant %x", name, out, data)
			continue
		}
		exact++
	}
	t.Logf("%s: decoded %d/%d, re-encoded byte for byte %d/%d", ext, decoded, len(files), exact, len(files))
	if len(files) != Size {
		t.Errorf("corpus has %d %s files, want %d", len(files), ext, Size)
	}
}

// PeekVersions checks peek (a codec's PeekVersion) on every corpus file
// ending in ext: it finds the version the message decodes with, and the
// corpus has 35 messages of version 1, 22 of version 2 and 92 of version 3
// (its README).
func PeekVersions(t *testing.T, ext string, c Codec, peek func([]byte) (int, error)) {
	files := Files(t, ext)
	counts := map[int]int{}
	for _, name := range Names(files) {
		v, err := peek(files[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m, err := c.Decode(files[name])
		if err != nil {
			t.Fatal(err)
		}
		if int(m.Mess.Version) != v {
			t.Errorf("%s: peeked version %d, decoded %d", name, v, m.Mess.Version)
		}
		counts[v]++
	}
	if counts[1] != 35 || counts[2] != 22 || counts[3] != 92 {
		t.Errorf("versions %v, want 35/22/92", counts)
	}
}

// Reusing is a Codec that can also decode into pooled memory.
type Reusing interface {
	Codec
	DecodeReused(data []byte) (m *model.MegacoMessage, release func(), err error)
}

// Reuse checks, over the corpus files ending in ext, that a decoder
// reused from message to message (reused) and c.DecodeReused give the
// same messages as fresh decodes, and that DecodeReused, once warm,
// allocates nothing.
func Reuse(t *testing.T, ext string, c Reusing, reused func([]byte) (*model.MegacoMessage, error)) {
	files := Files(t, ext)
	for _, name := range Names(files) {
		want, err := c.Decode(files[name])
		if err != nil {
			t.Fatal(err)
		}
		got, err := reused(files[name])
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: reused decoder differs (%v)", name, err)
		}
		got, release, err := c.DecodeReused(files[name])
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: DecodeReused differs (%v)", name, err)
		}
		release()
	}
	msgs := List(t, ext)
	allocs := testing.AllocsPerRun(5, func() {
		for _, data := range msgs {
			_, release, err := c.DecodeReused(data)
			if err != nil {
				t.Fatal(err)
			}
			release()
		}
	})
	if allocs != 0 {
		t.Errorf("DecodeReused of the corpus allocated %v times once warm", allocs)
	}
}

// Stable is the check of a binary codec's fuzz target on any input data:
// a failed decode returns a *codecerr.Error of the codec; what decodes must
// encode, with the version read from data (peek), decode again to the same
// message and encode again to the same bytes. withVersion returns the codec
// forcing a version. Stable returns the encoding, nil if data did not
// decode.
func Stable(t *testing.T, data []byte, name string, withVersion func(v int) Codec, peek func([]byte) (int, error)) []byte {
	t.Helper()
	m, err := withVersion(0).Decode(data)
	if err != nil {
		if e, ok := err.(*codecerr.Error); !ok || e.Codec != name || e.Op != codecerr.Decode {
			t.Fatalf("error of type %T: %v", err, err)
		}
		return nil
	}
	v, _ := peek(data)
	c := withVersion(v)
	enc, err := c.Append(nil, m)
	if err != nil {
		t.Fatalf("decoded message does not encode: %v", err)
	}
	m2, err := c.Decode(enc)
	if err != nil {
		t.Fatalf("re-encoding does not decode: %v\n%x", err, enc)
	}
	if !reflect.DeepEqual(m, m2) {
		t.Fatalf("decode→encode→decode changed the message\n%x", enc)
	}
	enc2, err := c.Append(nil, m2)
	if err != nil || !bytes.Equal(enc, enc2) {
		t.Fatalf("encoding is not stable: %v", err)
	}
	return enc
}

// AppendContract checks what every Append promises, with the first
// corpus message ending in ext: Append appends to b, and on error (the
// message with its mId emptied) returns b at its original length and a
// *codecerr.Error of kind Schema from the codec.
func AppendContract(t *testing.T, name, ext string, c Codec) {
	good := Decoded(t, ext, c)[0]
	bad := *good
	bad.Mess.MId = model.MId{} // no alternative chosen
	prefix := []byte("prefix")
	b := append(make([]byte, 0, 1<<16), prefix...)
	want, err := c.Append(nil, good)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Append(b, good)
	if err != nil || !bytes.Equal(out[:len(prefix)], prefix) || !bytes.Equal(out[len(prefix):], want) {
		t.Fatalf("Append to a prefix: %x, %v; want the prefix and %x", out, err, want)
	}
	for _, b := range [][]byte{nil, prefix, b} {
		out, err := c.Append(b, &bad)
		e := CodecError(t, err, name)
		if e.Op != codecerr.Encode || e.Kind != codecerr.Schema || err.Error() != name+": encode: mess.mId: MId: no alternative chosen" {
			t.Errorf("encode error %v: %v, %v", err, e.Op, e.Kind)
		}
		if len(out) != len(b) || !bytes.Equal(out, prefix[:len(out)]) {
			t.Errorf("failed Append returned %q, want b (%q) at its original length", out, b)
		}
	}
}

// Bench times run, which handles n messages of size bytes in all (0: no
// throughput), and reports the mean per message as ns/msg, as OTP's tables
// give it. run loops over the messages itself, calling its codec directly,
// so that the loop costs what it did before it was shared.
func Bench(b *testing.B, n, size int, run func() error) {
	if size > 0 {
		b.SetBytes(int64(size))
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := run(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/msg")
}

// TotalSize is the number of bytes in all of msgs.
func TotalSize(msgs [][]byte) int {
	n := 0
	for _, m := range msgs {
		n += len(m)
	}
	return n
}
