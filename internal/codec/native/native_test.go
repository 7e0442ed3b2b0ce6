package native_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/dict"
	"github.com/klauspost/compress/zstd"

	"megaco/internal/codec/ber"
	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/native"
	"megaco/internal/corpus"
	"megaco/internal/model"
)

// corpusMessages decodes the corpus's BER files, in name order: their
// names, messages and bytes.
func corpusMessages(t testing.TB) ([]string, []*model.MegacoMessage, [][]byte) {
	t.Helper()
	files := corpus.Files(t, ".ber")
	names := corpus.Names(files)
	msgs := make([]*model.MegacoMessage, len(names))
	bers := make([][]byte, len(names))
	for i, name := range names {
		m, err := ber.Decode(files[name], ber.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		msgs[i], bers[i] = m, files[name]
	}
	return names, msgs, bers
}

// TestRoundTrip: every variant gives back the same message, and its BER
// is OTP's. The mean sizes are logged against OTP's erl_dist rows
// (875 plain, 405 megaco_compressed, 345 compressed, 200 both).
func TestRoundTrip(t *testing.T) {
	names, msgs, bers := corpusMessages(t)
	for _, v := range []struct {
		name string
		c    native.Compression
	}{{"native", native.None}, {"native-zstd", native.Zstd}, {"native-s2", native.S2}} {
		codec := native.Codec{Options: native.Options{Compression: v.c}}
		total, ok := 0, 0
		for i, m := range msgs {
			enc, err := codec.Append(nil, m)
			if err != nil {
				t.Fatalf("%s %s: %v", v.name, names[i], err)
			}
			total += len(enc)
			back, err := codec.Decode(enc)
			if err != nil {
				t.Errorf("%s %s: decode: %v", v.name, names[i], err)
				continue
			}
			if !reflect.DeepEqual(back, m) {
				t.Errorf("%s %s: message changed", v.name, names[i])
				continue
			}
			if out, err := ber.Append(nil, back, ber.Options{}); err != nil || !bytes.Equal(out, bers[i]) {
				t.Errorf("%s %s: BER differs", v.name, names[i])
				continue
			}
			ok++
		}
		t.Logf("%s: %d/%d round trips, mean size %.1f bytes (BER 164.9)", v.name, ok, len(msgs), float64(total)/float64(len(msgs)))
	}
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		opts native.Options
		in   []byte
		kind codecerr.Kind
		want string
	}{
		{native.Options{}, []byte{0xff, 0xff, 0xff}, codecerr.Malformed, "native: decode: "},
		{native.Options{}, []byte{}, codecerr.Malformed, "native: decode: no message (mess is missing)"},
		{native.Options{}, []byte{0x12, 0x02, 0x08, 0x80}, codecerr.Malformed, "native: decode: MegacoMessage.mess: Message.version: unexpected EOF"},
		{native.Options{}, []byte{0x12, 0x05, 0x12, 0x03, 0x22, 0x01, 0xff}, codecerr.Malformed,
			"native: decode: MegacoMessage.mess: Message.mId: MId.deviceName: string field contains invalid UTF-8"},
		// MegacoMessage.mess.mId is at depth 3.
		{native.Options{Limits: limits.Limits{MaxDepth: 2}}, []byte{0x12, 0x02, 0x12, 0x00}, codecerr.TooLarge,
			"native: decode: MegacoMessage.mess: Message.mId: exceeded maximum recursion depth"},
		{native.Options{Limits: limits.Limits{MaxElements: 1}}, []byte{0x12, 0x00}, codecerr.TooLarge, "more elements than the limit"},
		{native.Options{Limits: limits.Limits{MaxSize: 4}}, make([]byte, 5), codecerr.TooLarge, "native: decode: message of 5 bytes exceeds the limit of 4"},
		{native.Options{Compression: native.Zstd}, []byte("not zstd at all"), codecerr.Malformed, "native: decode: zstd: "},
		{native.Options{Compression: native.S2}, []byte{0x05, 0xff}, codecerr.Malformed, "native: decode: s2: "},
		{native.Options{Compression: native.S2}, []byte{0xff, 0xff, 0xff, 0xff, 0x0f}, codecerr.TooLarge, "native: decode: s2: decompressed size 4294967295 exceeds the limit of 1048576"},
		{native.Options{Compression: 7}, []byte{0x12, 0x00}, codecerr.Unsupported, "native: decode: unknown compression 7"},
	}
	for _, c := range cases {
		_, err := native.Codec{Options: c.opts}.Decode(c.in)
		e, ok := codecerr.As(err)
		if !ok || !strings.Contains(err.Error(), c.want) || e.Kind != c.kind || e.Codec != "native" || e.Op != codecerr.Decode {
			t.Errorf("%+v %x: %v, want a %v error with %q", c.opts, c.in, err, c.kind, c.want)
		}
	}
}

// TestEncodeErrors: an encode that fails says why, and leaves b as it was.
func TestEncodeErrors(t *testing.T) {
	bad := &model.MegacoMessage{Mess: model.Message{Version: 2, MId: model.MId{Kind: model.MId_DeviceName, DeviceName: "gw\xff"}}}
	good := &model.MegacoMessage{Mess: model.Message{Version: 2, MId: model.MId{Kind: model.MId_DeviceName, DeviceName: "gw"}}}
	cases := []struct {
		opts native.Options
		m    *model.MegacoMessage
		kind codecerr.Kind
		want string
	}{
		{native.Options{}, bad, codecerr.Schema, "native: encode: MId.deviceName: string field contains invalid UTF-8"},
		{native.Options{Compression: native.Zstd}, bad, codecerr.Schema, "native: encode: MId.deviceName: string field contains invalid UTF-8"},
		{native.Options{Version: 3}, good, codecerr.Unsupported, "native: encode: message is version 2, 3 requested: native keeps the message as it is"},
		{native.Options{Compression: 7}, good, codecerr.Unsupported, "native: encode: unknown compression 7"},
	}
	for _, c := range cases {
		b := append(make([]byte, 0, 64), "kept"...)
		out, err := native.Codec{Options: c.opts}.Append(b, c.m)
		e, ok := codecerr.As(err)
		if !ok || err.Error() != c.want || e.Kind != c.kind || e.Op != codecerr.Encode {
			t.Errorf("%+v: %v, want a %v error %q", c.opts, err, c.kind, c.want)
		}
		if string(out) != "kept" {
			t.Errorf("%+v: b is %q after the error", c.opts, out)
		}
	}
	if _, err := (native.Codec{}).Append(nil, bad); err == nil || err.(*codecerr.Error).Path() != "MId.deviceName" {
		t.Errorf("path of the UTF-8 error: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	_, msgs, _ := corpusMessages(f)
	for _, c := range []native.Compression{native.None, native.Zstd, native.S2} {
		enc, _ := native.Codec{Options: native.Options{Compression: c}}.Append(nil, msgs[0])
		f.Add(byte(c), enc)
	}
	f.Fuzz(func(t *testing.T, c byte, data []byte) {
		codec := native.Codec{Options: native.Options{Compression: native.Compression(c % 3)}}
		m, err := codec.Decode(data)
		if err != nil {
			return
		}
		enc, err := codec.Append(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := codec.Decode(enc)
		if err != nil || !reflect.DeepEqual(m, m2) {
			t.Fatalf("not stable: %v", err)
		}
	})
}

// TestHeldOutDictionary: the embedded dictionaries are trained on the
// whole corpus, which flatters the sizes above. Training on every other
// message and measuring on the rest gives the honest figure for traffic
// the dictionary has not seen.
func TestHeldOutDictionary(t *testing.T) {
	_, msgs, _ := corpusMessages(t)
	var train, test [][]byte
	for i, m := range msgs {
		wire, err := native.Codec{}.Append(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			train = append(train, wire)
		} else {
			test = append(test, wire)
		}
	}
	zd, err := dict.BuildZstdDict(train, dict.Options{MaxDictSize: 4096, HashBytes: 6, ZstdDictID: 1, ZstdLevel: zstd.SpeedBetterCompression})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderDict(zd), zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithZeroFrames(true))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression))
	if err != nil {
		t.Fatal(err)
	}
	raw, withDict, without := 0, 0, 0
	for _, w := range test {
		raw += len(w)
		withDict += len(enc.EncodeAll(w, nil))
		without += len(plain.EncodeAll(w, nil))
	}
	n := float64(len(test))
	t.Logf("held-out half: native %.1f B, zstd without dictionary %.1f B, zstd with a dictionary from the other half %.1f B",
		float64(raw)/n, float64(without)/n, float64(withDict)/n)
	if withDict >= without {
		t.Errorf("the dictionary does not help on unseen messages: %d >= %d bytes", withDict, without)
	}
}
