package native_test

import (
	"bytes"
	"testing"

	"megaco/internal/codec/ber"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/native"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
)

var variants = []struct {
	name string
	c    native.Compression
}{{"native", native.None}, {"native-zstd", native.Zstd}, {"native-s2", native.S2}}

// encoded is the corpus in variant c, in name order.
func encoded(t testing.TB, c native.Compression) [][]byte {
	_, msgs, _ := corpusMessages(t)
	codec := native.Codec{Options: native.Options{Compression: c}}
	out := make([][]byte, len(msgs))
	for i, m := range msgs {
		b, err := codec.Append(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out
}

// TestScanCorpus: for every corpus message in every variant, Scan
// reports what FromModel reads off the decoded message, and the spans
// hold the values.
func TestScanCorpus(t *testing.T) {
	names, _, _ := corpusMessages(t)
	for _, v := range variants {
		codec := native.Codec{Options: native.Options{Compression: v.c}}
		var got, want scan.Summary
		for i, data := range encoded(t, v.c) {
			m, err := codec.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			scan.FromModel(m, false, &want)
			if err := v.c.Scan(data, &got, limits.Limits{}); err != nil {
				t.Fatalf("%s %s: %v", v.name, names[i], err)
			}
			if msg := corpus.SameSummary(&got, &want); msg != "" {
				t.Errorf("%s %s: %s", v.name, names[i], msg)
			}
			wire := data
			if v.c != native.None {
				wire = got.Scratch
			}
			for _, term := range got.Terminations {
				if sp := term.Span; !bytes.Equal(wire[sp.Off:sp.End()], term.ID) {
					t.Errorf("%s %s: termination span %+v", v.name, names[i], sp)
				}
			}
			for _, tx := range got.Transactions {
				if sp := tx.IDSpan; tx.ID != 0 && varint(wire[sp.Off:sp.End()]) != uint64(tx.ID) {
					t.Errorf("%s %s: transaction span %+v", v.name, names[i], sp)
				}
			}
		}
	}
}

func varint(b []byte) uint64 {
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<7 | uint64(b[i]&0x7f)
	}
	return v
}

// A scan into a grown Summary allocates nothing (plain native; the
// compressed variants decompress into the Summary's Scratch).
func TestScanAllocs(t *testing.T) {
	for _, v := range variants {
		msgs := encoded(t, v.c)
		var s scan.Summary
		run := func() {
			for _, data := range msgs {
				if err := v.c.Scan(data, &s, limits.Limits{}); err != nil {
					t.Fatal(err)
				}
			}
		}
		run()
		if n := testing.AllocsPerRun(5, run); n != 0 {
			t.Errorf("%s: %v allocations per corpus scan, want 0", v.name, n)
		}
	}
}

// TestRewriteCorpus: Rewrite is decode -> change -> encode, byte for
// byte, in every variant.
func TestRewriteCorpus(t *testing.T) {
	for _, v := range variants {
		codec := native.Codec{Options: native.Options{Compression: v.c}}
		to := func(data []byte) []byte {
			m, err := ber.Decode(data, ber.Options{})
			if err != nil {
				t.Fatal(err)
			}
			b, err := codec.Append(nil, m)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		corpus.CheckRewrite(t, ".ber", codec, v.c.Rewrite, to)
	}
}
