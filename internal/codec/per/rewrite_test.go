package per

import (
	"bytes"
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
	"megaco/internal/model"
)

// TestRewriteCorpus: Rewrite is decode -> change -> encode, byte for
// byte, over the corpus.
func TestRewriteCorpus(t *testing.T) { corpus.CheckRewrite(t, ".per", Codec{}, Rewrite, nil) }

// FuzzRewrite: no input panics Rewrite; for a message as the encoder
// writes it, it agrees with decode -> change -> encode or fails with the
// codec's error.
func FuzzRewrite(f *testing.F) {
	corpus.Seed(f, ".per")
	cases := corpus.ChangeCases()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, cc := range cases {
			got, err := Rewrite(nil, data, &cc.Changes, limits.Limits{})
			if err != nil {
				corpus.CodecError(t, err, "per")
			}
			m, derr := Decode(data, Options{})
			if derr != nil {
				return
			}
			if again, _ := Append(nil, m, Options{}); !bytes.Equal(again, data) {
				return // not canonical: only the IDs are rewritten
			}
			scan.Apply(m, &cc.Changes)
			want, werr := Append(nil, m, Options{})
			if werr == nil && err == nil && !bytes.Equal(got, want) {
				t.Fatalf("%s: rewrite %x, want %x", cc.Name, got, want)
			}
			if werr == nil && err != nil {
				t.Fatalf("%s: %v", cc.Name, err)
			}
		}
	})
}

// BenchmarkRewrite against BenchmarkRewriteByModel: ns/msg over the corpus,
// transaction and context IDs +1.
func BenchmarkRewrite(b *testing.B) {
	benchRewrite(b, Rewrite)
}

func BenchmarkRewriteByModel(b *testing.B) {
	var dec Decoder
	benchRewrite(b, func(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
		m, err := dec.Decode(data)
		if err != nil {
			return dst, err
		}
		scan.Apply(m, ch)
		return Append(dst, m, Options{})
	})
}

func benchRewrite(b *testing.B, rw corpus.Rewriter) {
	msgs := corpus.List(b, ".per")
	plus1 := func(v uint32) uint32 { return v + 1 }
	ch := scan.Changes{TransactionIDs: plus1, ContextIDs: plus1}
	var buf []byte
	corpus.Bench(b, len(msgs), 0, func() error {
		for _, data := range msgs {
			var err error
			if buf, err = rw(buf[:0], data, &ch, limits.Limits{}); err != nil {
				return err
			}
		}
		return nil
	})
}

// A v3 SegmentReply is an extension alternative, an open type: a new ID
// of the same octet count is written in place, one of another count goes
// decode -> change -> encode; both agree with it, and so does the scan.
func TestRewriteOpenType(t *testing.T) {
	m := &model.MegacoMessage{Mess: model.Message{Version: 3,
		MId: model.MId{Kind: model.MId_DeviceName, DeviceName: "mg1"},
		MessageBody: model.MessageMessageBody{Kind: model.MessageMessageBody_Transactions, Transactions: []model.Transaction{
			{Kind: model.Transaction_SegmentReply, SegmentReply: &model.SegmentReply{TransactionId: 300, SegmentNumber: 2, SegmentationComplete: true}},
			{Kind: model.Transaction_TransactionPending, TransactionPending: &model.TransactionPending{TransactionId: 70000}},
		}}}}
	data, err := Append(nil, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var s, want scan.Summary
	if err := Scan(data, &s, limits.Limits{}); err != nil {
		t.Fatal(err)
	}
	scan.FromModel(m, false, &want)
	if msg := corpus.SameSummary(&s, &want); msg != "" {
		t.Fatal(msg)
	}
	for _, f := range []func(uint32) uint32{
		func(v uint32) uint32 { return v + 1 },          // same counts: in place
		func(v uint32) uint32 { return v * 1000 },       // longer: the long way
		func(v uint32) uint32 { return v & 0xff },       // shorter
		func(v uint32) uint32 { return 0xFFFFFFFF - v }, // 4 octets
	} {
		ch := scan.Changes{TransactionIDs: f}
		got, err := Rewrite(nil, data, &ch, limits.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		mm, err := Decode(data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		scan.Apply(mm, &ch)
		if wantB, _ := Append(nil, mm, Options{}); !bytes.Equal(got, wantB) {
			t.Errorf("rewrite %x, want %x", got, wantB)
		}
	}
}
