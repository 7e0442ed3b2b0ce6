package native

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/dict"
	"github.com/klauspost/compress/zstd"

	"megaco/internal/codec/ber"
	"megaco/internal/model"
)

func corpus(t testing.TB) ([]string, []*model.MegacoMessage, [][]byte) {
	t.Helper()
	paths, _ := filepath.Glob("../../../corpus/otp-time-test/*.ber")
	if len(paths) != 149 {
		t.Fatalf("%d corpus files", len(paths))
	}
	var msgs []*model.MegacoMessage
	var bers [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ber.Decode(data, ber.Options{})
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
		bers = append(bers, data)
	}
	return paths, msgs, bers
}

// TestRoundTrip: every variant gives back the same message, and its BER
// is OTP's. The mean sizes are logged against OTP's erl_dist rows
// (875 plain, 405 megaco_compressed, 345 compressed, 200 both).
func TestRoundTrip(t *testing.T) {
	paths, msgs, bers := corpus(t)
	for _, v := range []struct {
		name string
		c    Compression
	}{{"native", None}, {"native-zstd", Zstd}, {"native-s2", S2}} {
		codec := Codec{Options: Options{Compression: v.c}}
		total, ok := 0, 0
		for i, m := range msgs {
			enc, err := codec.Append(nil, m)
			if err != nil {
				t.Fatalf("%s %s: %v", v.name, paths[i], err)
			}
			total += len(enc)
			back, err := codec.Decode(enc)
			if err != nil {
				t.Errorf("%s %s: decode: %v", v.name, filepath.Base(paths[i]), err)
				continue
			}
			if !reflect.DeepEqual(back, m) {
				t.Errorf("%s %s: message changed", v.name, filepath.Base(paths[i]))
				continue
			}
			if out, err := ber.Append(nil, back, ber.Options{}); err != nil || !bytes.Equal(out, bers[i]) {
				t.Errorf("%s %s: BER differs", v.name, filepath.Base(paths[i]))
				continue
			}
			ok++
		}
		t.Logf("%s: %d/%d round trips, mean size %.1f bytes (BER 164.9)", v.name, ok, len(msgs), float64(total)/float64(len(msgs)))
	}
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		c    Compression
		in   []byte
		want string
	}{
		{None, []byte{0xff, 0xff, 0xff}, "native: decode"},
		{None, []byte{}, "no message"},
		{Zstd, []byte("not zstd at all"), "zstd"},
		{S2, []byte{0xff, 0xff, 0xff, 0xff, 0x0f}, "s2"},
	}
	for _, c := range cases {
		_, err := Codec{Options: Options{Compression: c.c}}.Decode(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %x: %v, want %q", c.c, c.in, err, c.want)
		}
	}
	if _, err := (Codec{Options: Options{MaxSize: 4}}).Decode(make([]byte, 5)); err == nil {
		t.Error("size limit not applied")
	}
}

func FuzzDecode(f *testing.F) {
	_, msgs, _ := corpus(f)
	for _, c := range []Compression{None, Zstd, S2} {
		enc, _ := Codec{Options: Options{Compression: c}}.Append(nil, msgs[0])
		f.Add(byte(c), enc)
	}
	f.Fuzz(func(t *testing.T, c byte, data []byte) {
		codec := Codec{Options: Options{Compression: Compression(c % 3)}}
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
	_, msgs, _ := corpus(t)
	var train, test [][]byte
	for i, m := range msgs {
		wire, err := Codec{}.Append(nil, m)
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
