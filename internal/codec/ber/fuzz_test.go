package ber

import (
	"bytes"
	"megaco/internal/codec/codecerr"
	"reflect"
	"testing"

	"megaco/internal/corpus"
)

// FuzzDecode: no input may panic or hang the decoder, and whatever it
// accepts must encode, and decode again to the same message and the same
// bytes (decode → encode → decode is stable).
func FuzzDecode(f *testing.F) {
	files := corpus.Files(f, ".ber")
	for _, name := range corpus.Names(files) {
		f.Add(files[name])
	}
	f.Add(toIndefinite(f, files["msg03"]))
	f.Add([]byte{})
	f.Add([]byte{0x30, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data, Options{})
		if err != nil {
			if _, ok := err.(*codecerr.Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		// Encode with the schema the message was decoded with.
		v, _ := PeekVersion(data)
		enc, err := Append(nil, m, Options{Version: v})
		if err != nil {
			t.Fatalf("decoded message does not encode: %v", err)
		}
		m2, err := Decode(enc, Options{Version: v})
		if err != nil {
			t.Fatalf("re-encoding does not decode: %v\n%x", err, enc)
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("decode→encode→decode changed the message\n%x", enc)
		}
		enc2, err := Append(nil, m2, Options{Version: v})
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not stable: %v", err)
		}
	})
}
