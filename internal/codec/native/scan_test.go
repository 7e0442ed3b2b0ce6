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

// TestScanCorpus: for every corpus message in every variant and at every
// depth, Scan reports what FromModel reads off the decoded message down
// to that depth, exactly (this scanner reads no deeper than asked), and
// the spans hold the values.
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
			for _, depth := range []scan.Depth{scan.Everything, scan.Transactions, scan.Actions, scan.Commands} {
				got.Want, want.Want = depth, depth
				scan.FromModel(m, false, &want)
				if err := v.c.Scan(data, &got, limits.Limits{}); err != nil {
					t.Fatalf("%s %s at %v: %v", v.name, names[i], depth, err)
				}
				if msg := corpus.SameSummary(&got, &want); msg != "" {
					t.Errorf("%s %s at %v: %s", v.name, names[i], depth, msg)
				}
				checkSpans(t, v.name+" "+names[i], v.c, data, &got)
			}
		}
	}
}

// checkSpans checks that the spans of s, a scan of data, hold the values.
func checkSpans(t *testing.T, name string, c native.Compression, data []byte, s *scan.Summary) {
	t.Helper()
	wire := data
	if c != native.None {
		wire = s.Scratch // the decompressed form, whole
	}
	wire = wire[:len(wire):len(wire)] // a span past it fails the test
	for _, term := range s.Terminations {
		if sp := term.Span; !bytes.Equal(wire[sp.Off:sp.End()], term.ID) {
			t.Errorf("%s: termination span %+v", name, sp)
		}
	}
	for _, tx := range s.Transactions {
		if sp := tx.IDSpan; tx.ID != 0 && varint(wire[sp.Off:sp.End()]) != uint64(tx.ID) {
			t.Errorf("%s: transaction span %+v", name, sp)
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
		corpus.CheckScanAllocs(t, encoded(t, v.c), v.c.Scan)
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

// FuzzScanRewrite: no input panics the scanner or the rewriter, their
// errors are the codec's; for a message as the encoder writes it, the
// scan agrees with FromModel and a rewrite with decode -> change ->
// encode.
func FuzzScanRewrite(f *testing.F) {
	for _, b := range encoded(f, native.None) {
		f.Add(b)
	}
	codec := native.Codec{}
	cases := corpus.ChangeCases()
	var got, want scan.Summary
	f.Fuzz(func(t *testing.T, data []byte) {
		err := native.None.Scan(data, &got, limits.Limits{})
		if err != nil {
			corpus.CodecError(t, err, "native")
		}
		for _, cc := range cases {
			if _, err := native.None.Rewrite(nil, data, &cc.Changes, limits.Limits{}); err != nil {
				corpus.CodecError(t, err, "native")
			}
		}
		m, derr := codec.Decode(data)
		if derr != nil {
			return
		}
		if again, _ := codec.Append(nil, m); !bytes.Equal(again, data) {
			return // not canonical: fields merged, reordered or unknown
		}
		if err != nil {
			t.Fatalf("decodes but does not scan: %v", err)
		}
		scan.FromModel(m, false, &want)
		if msg := corpus.SameSummary(&got, &want); msg != "" {
			t.Fatal(msg)
		}
		for _, cc := range cases {
			m, _ := codec.Decode(data)
			scan.Apply(m, &cc.Changes)
			wantB, werr := codec.Append(nil, m)
			gotB, err := native.None.Rewrite(nil, data, &cc.Changes, limits.Limits{})
			if werr == nil && (err != nil || !bytes.Equal(gotB, wantB)) {
				t.Fatalf("%s: rewrite %x (%v), want %x", cc.Name, gotB, err, wantB)
			}
		}
	})
}

// Mean per message over the corpus in ns/msg, each variant: Scan against
// a decode (BenchmarkDecode), Rewrite against decode -> change -> encode.
// A variant's name alone is the full scan; "native@transactions" and so
// on a scan at that depth.
func BenchmarkScan(b *testing.B) {
	for _, v := range variants {
		for _, depth := range []scan.Depth{scan.Everything, scan.Transactions, scan.Actions, scan.Commands} {
			name := v.name
			if depth != scan.Everything {
				name += "@" + depth.String()
			}
			b.Run(name, func(b *testing.B) {
				msgs := encoded(b, v.c)
				s := scan.Summary{Want: depth}
				corpus.Bench(b, len(msgs), 0, func() error {
					for _, data := range msgs {
						if err := v.c.Scan(data, &s, limits.Limits{}); err != nil {
							return err
						}
					}
					return nil
				})
			})
		}
	}
}

func BenchmarkRewrite(b *testing.B) {
	plus1 := func(v uint32) uint32 { return v + 1 }
	ch := scan.Changes{TransactionIDs: plus1, ContextIDs: plus1}
	for _, v := range variants {
		codec := native.Codec{Options: native.Options{Compression: v.c}}
		msgs := encoded(b, v.c)
		var buf []byte
		b.Run(v.name, func(b *testing.B) {
			corpus.Bench(b, len(msgs), 0, func() error {
				for _, data := range msgs {
					var err error
					if buf, err = v.c.Rewrite(buf[:0], data, &ch, limits.Limits{}); err != nil {
						return err
					}
				}
				return nil
			})
		})
		b.Run(v.name+"+terms", func(b *testing.B) {
			ch := ch
			ch.TerminationIDs = func(id []byte) []byte { return id }
			corpus.Bench(b, len(msgs), 0, func() error {
				for _, data := range msgs {
					var err error
					if buf, err = v.c.Rewrite(buf[:0], data, &ch, limits.Limits{}); err != nil {
						return err
					}
				}
				return nil
			})
		})
		b.Run(v.name+"-by-model", func(b *testing.B) {
			corpus.Bench(b, len(msgs), 0, func() error {
				for _, data := range msgs {
					m, err := codec.Decode(data)
					if err != nil {
						return err
					}
					scan.Apply(m, &ch)
					if buf, err = codec.Append(buf[:0], m); err != nil {
						return err
					}
				}
				return nil
			})
		})
	}
}

// A truncated message fails with the codec's error, and the limits are
// kept: size, depth and elements.
func TestScanErrors(t *testing.T) {
	var s scan.Summary
	for i, data := range encoded(t, native.None)[:30] {
		for _, n := range []int{1, len(data) / 3, len(data) - 1} {
			err := native.None.Scan(data[:n], &s, limits.Limits{})
			if err == nil {
				t.Errorf("message %d cut to %d octets: no error", i, n)
				continue
			}
			corpus.CodecError(t, err, "native")
		}
		for _, lim := range []limits.Limits{{MaxSize: len(data) - 1}, {MaxDepth: 3}, {MaxElements: 3}} {
			if err := native.None.Scan(data, &s, lim); err == nil {
				t.Errorf("message %d: limits %+v not kept", i, lim)
			}
			if _, err := native.None.Rewrite(nil, data, &scan.Changes{}, lim); err == nil {
				t.Errorf("message %d: rewrite: limits %+v not kept", i, lim)
			}
		}
	}
}
