package per

import (
	"encoding/binary"
	"fmt"
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
	"megaco/internal/model"
)

// TestScanCorpus: for every corpus message, at every depth, Scan
// reports what FromModel reads off the decoded message at that depth,
// and every span holds its value.
func TestScanCorpus(t *testing.T) {
	files := corpus.Files(t, ".per")
	var got, want scan.Summary
	for _, name := range corpus.Names(files) {
		data := files[name]
		m, err := Decode(data, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, depth := range []scan.Depth{scan.Transactions, scan.Actions, scan.Commands, scan.Everything} {
			want.Want, got.Want = depth, depth
			scan.FromModel(m, false, &want)
			if err := Scan(data, &got, limits.Limits{}); err != nil {
				t.Fatalf("%s at %v: %v", name, depth, err)
			}
			if msg := corpus.SameSummary(&got, &want); msg != "" {
				t.Errorf("%s at %v: %s", name, depth, msg)
			}
			if msg := checkSpans(data, &got); msg != "" {
				t.Errorf("%s at %v: %s", name, depth, msg)
			}
		}
	}
}

// checkSpans checks that every ID's span holds its value, big-endian in
// as few octets as it takes (the ack ranges' and segment replies' too).
func checkSpans(data []byte, s *scan.Summary) string {
	be := func(sp scan.Span) (uint64, bool) {
		if sp.Off < 0 || sp.Len < 1 || sp.Len > 4 || sp.End() > len(data) {
			return 0, false
		}
		var b [8]byte
		copy(b[8-sp.Len:], data[sp.Off:sp.End()])
		return binary.BigEndian.Uint64(b[:]), true
	}
	for _, t := range s.Transactions {
		if v, ok := be(t.IDSpan); !ok || v != uint64(t.ID) {
			return fmt.Sprintf("transaction %d: span %+v holds %d", t.ID, t.IDSpan, v)
		}
	}
	for _, a := range s.Actions {
		if v, ok := be(a.Span); !ok || v != uint64(a.ContextID) {
			return fmt.Sprintf("context %d: span %+v holds %d", a.ContextID, a.Span, v)
		}
	}
	for _, e := range s.Errors {
		if v, ok := be(e.Span); !ok || v != uint64(e.Code) || e.Span.Len != 2 {
			return fmt.Sprintf("error %d: span %+v holds %d", e.Code, e.Span, v)
		}
	}
	for _, t := range s.Terminations {
		if string(data[t.Span.Off:t.Span.End()]) != string(t.ID) {
			return fmt.Sprintf("termination %x: span %+v", t.ID, t.Span)
		}
	}
	if sp := s.MID.Span; sp.Len == 0 || sp.End() > len(data) {
		return fmt.Sprintf("mId span %+v", sp)
	}
	return ""
}

// A scan into a grown Summary allocates nothing.
func TestScanAllocs(t *testing.T) { corpus.CheckScanAllocs(t, corpus.List(t, ".per"), Scan) }

// A truncated message fails with a per error, and so does a message of
// a version with no schema; limits are kept.
func TestScanErrors(t *testing.T) {
	files := corpus.Files(t, ".per")
	var s scan.Summary
	for _, name := range corpus.Names(files)[:20] {
		data := files[name]
		for _, n := range []int{0, 1, len(data) / 2, len(data) - 1} {
			if err := Scan(data[:n], &s, limits.Limits{}); err == nil {
				// Scanning stops at the last field: only the padding may go.
				if n != len(data)-1 {
					t.Errorf("%s cut to %d octets: no error", name, n)
				}
			} else {
				corpus.CodecError(t, err, "per")
			}
		}
		if err := Scan(data, &s, limits.Limits{MaxDepth: 3}); err == nil {
			t.Errorf("%s: depth 3 accepted", name)
		}
		if err := Scan(data, &s, limits.Limits{MaxSize: len(data) - 1}); err == nil {
			t.Errorf("%s: size limit not kept", name)
		}
	}
}

// FuzzScan: no input panics or hangs the scanner, errors are the codec's,
// and what it reports of a message that decodes is what FromModel reads.
func FuzzScan(f *testing.F) {
	corpus.Seed(f, ".per")
	var got, want scan.Summary
	var dec Decoder
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Scan(data, &got, limits.Limits{})
		if err != nil {
			corpus.CodecError(t, err, "per")
		}
		m, derr := dec.Decode(data)
		if derr != nil {
			return
		}
		if err != nil {
			t.Fatalf("decodes but does not scan: %v", err)
		}
		scan.FromModel(m, false, &want)
		if msg := corpus.SameSummary(&got, &want); msg != "" {
			t.Fatal(msg)
		}
		// A shallow scan, which may stop early, reads the same.
		for _, depth := range []scan.Depth{scan.Transactions, scan.Actions, scan.Commands} {
			got.Want, want.Want = depth, depth
			if err := Scan(data, &got, limits.Limits{}); err != nil {
				t.Fatalf("%v: decodes but does not scan: %v", depth, err)
			}
			scan.FromModel(m, false, &want)
			if msg := corpus.SameSummary(&got, &want); msg != "" {
				t.Fatalf("%v: %s", depth, msg)
			}
		}
		got.Want, want.Want = scan.Everything, scan.Everything
	})
}

// BenchmarkScan against BenchmarkDecodeMessage: ns/msg over the corpus.
func BenchmarkScan(b *testing.B) { benchScan(b, scan.Everything) }

// BenchmarkScanTransactions scans what a proxy routing replies reads
// (Want = scan.Transactions).
func BenchmarkScanTransactions(b *testing.B) { benchScan(b, scan.Transactions) }

func benchScan(b *testing.B, depth scan.Depth) {
	msgs := corpus.List(b, ".per")
	s := scan.Summary{Want: depth}
	corpus.Bench(b, len(msgs), 0, func() error {
		for _, data := range msgs {
			if err := Scan(data, &s, limits.Limits{}); err != nil {
				return err
			}
		}
		return nil
	})
}

// In v3 an audit's list of termination IDs and an audit reply's result
// for such a list are extension additions, open types: below Everything
// the scan skips them by their length; at every depth it reports what
// FromModel reads (at Everything the request's list in place of its
// terminationID).
func TestScanSkipsAuditLists(t *testing.T) {
	ids := []model.TerminationID{{Id: []byte{1, 2, 3}}, {Id: []byte{4, 5}}}
	req := model.Transaction{Kind: model.Transaction_TransactionRequest, TransactionRequest: &model.TransactionRequest{
		TransactionId: 7, Actions: []model.ActionRequest{{ContextId: 9, CommandRequests: []model.CommandRequest{{Command: model.Command{
			Kind: model.Command_AuditValueRequest, AuditValueRequest: &model.AuditRequest{TerminationID: ids[0], TerminationIDList: ids},
		}}}}}}}
	rep := model.Transaction{Kind: model.Transaction_TransactionReply, TransactionReply: &model.TransactionReply{
		TransactionId: 8, TransactionResult: model.TransactionReplyTransactionResult{Kind: model.TransactionReplyTransactionResult_ActionReplies,
			ActionReplies: []model.ActionReply{{ContextId: 10, CommandReply: []model.CommandReply{{Kind: model.CommandReply_AuditValueReply,
				AuditValueReply: &model.AuditReply{Kind: model.AuditReply_AuditResultTermList, AuditResultTermList: &model.TermListAuditResult{
					TerminationIDList: ids, TerminationAuditResult: []model.AuditReturnParameter{
						{Kind: model.AuditReturnParameter_ErrorDescriptor, ErrorDescriptor: &model.ErrorDescriptor{ErrorCode: 431}}}}}}}}}}}}
	m := &model.MegacoMessage{Mess: model.Message{Version: 3, MId: model.MId{Kind: model.MId_DeviceName, DeviceName: "mg1"},
		MessageBody: model.MessageMessageBody{Kind: model.MessageMessageBody_Transactions, Transactions: []model.Transaction{req, rep}}}}
	data, err := Append(nil, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got, want scan.Summary
	for _, depth := range []scan.Depth{scan.Transactions, scan.Actions, scan.Commands, scan.Everything} {
		got.Want, want.Want = depth, depth
		scan.FromModel(m, false, &want)
		if err := Scan(data, &got, limits.Limits{}); err != nil {
			t.Fatalf("%v: %v", depth, err)
		}
		if msg := corpus.SameSummary(&got, &want); msg != "" {
			t.Errorf("%v: %s", depth, msg)
		}
	}
	if len(got.Terminations) != 4 || len(got.Errors) != 1 {
		t.Errorf("everything: %d terminations and %d errors, want 4 and 1", len(got.Terminations), len(got.Errors))
	}
	// Cut inside the skipped open type: an error wherever the walk reads
	// that far. At Transactions it stops at the last transaction's
	// actions, leaving the cut unread.
	for _, depth := range []scan.Depth{scan.Commands, scan.Everything} {
		got.Want = depth
		if err := Scan(data[:len(data)-6], &got, limits.Limits{}); err == nil {
			t.Errorf("%v: a message cut short scans", depth)
		}
	}
	got.Want, want.Want = scan.Transactions, scan.Transactions
	scan.FromModel(m, false, &want)
	if err := Scan(data[:len(data)-6], &got, limits.Limits{}); err != nil {
		t.Errorf("transactions: the walk read past the last transaction's ID: %v", err)
	}
}

// A shallow scan stops once it has read what its depth reports, so a
// message cut short after that place scans; cut before it, it does not.
// Either way it never reports other than the whole message's summary.
func TestScanStopsEarly(t *testing.T) {
	var full, got scan.Summary
	stopped := map[scan.Depth]int{}
	for name, data := range corpus.Files(t, ".per") {
		for _, depth := range []scan.Depth{scan.Transactions, scan.Actions} {
			full.Want, got.Want = depth, depth
			if err := Scan(data, &full, limits.Limits{}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for n := len(data) - 1; n >= 0; n-- {
				if Scan(data[:n], &got, limits.Limits{}) != nil {
					continue
				}
				if n == len(data)-1 {
					stopped[depth]++
				}
				if msg := corpus.SameSummary(&got, &full); msg != "" {
					t.Fatalf("%s at %v, cut to %d octets: %s", name, depth, n, msg)
				}
			}
		}
	}
	// Most of the corpus is one request or reply, which the walk leaves
	// after its ID (Transactions) or its last context ID (Actions).
	for _, depth := range []scan.Depth{scan.Transactions, scan.Actions} {
		if stopped[depth] == 0 {
			t.Errorf("%v: no message scanned without its last octet", depth)
		}
	}
}
