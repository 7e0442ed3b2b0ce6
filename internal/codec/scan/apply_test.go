package scan

import (
	"testing"

	"megaco/internal/model"
)

// Apply changes every transaction ID (both ends of an acknowledged
// range, only the lastAck that is present), every context ID but the
// special ones, and the mId; a nil function changes nothing.
func TestApply(t *testing.T) {
	m := &model.MegacoMessage{}
	m.Mess.MId = model.MId{Kind: model.MId_DeviceName, DeviceName: "mg1"}
	m.Mess.MessageBody = model.MessageMessageBody{Kind: model.MessageMessageBody_Transactions, Transactions: []model.Transaction{
		{Kind: model.Transaction_TransactionRequest, TransactionRequest: &model.TransactionRequest{TransactionId: 1,
			Actions: []model.ActionRequest{{ContextId: 10}, {ContextId: NullContext}, {ContextId: ChooseContext}}}},
		{Kind: model.Transaction_TransactionPending, TransactionPending: &model.TransactionPending{TransactionId: 2}},
		{Kind: model.Transaction_TransactionReply, TransactionReply: &model.TransactionReply{TransactionId: 3,
			TransactionResult: model.TransactionReplyTransactionResult{Kind: model.TransactionReplyTransactionResult_ActionReplies,
				ActionReplies: []model.ActionReply{{ContextId: 11}, {ContextId: AllContexts}}}}},
		{Kind: model.Transaction_TransactionResponseAck, TransactionResponseAck: []model.TransactionAck{
			{FirstAck: 4, LastAck: model.Opt[uint32]{Present: true, Value: 5}}, {FirstAck: 6}}},
		{Kind: model.Transaction_SegmentReply, SegmentReply: &model.SegmentReply{TransactionId: 7}},
	}}
	Apply(m, &Changes{ContextIDs: func(x uint32) uint32 { return x * 2 }})
	tx := m.Mess.MessageBody.Transactions
	if tx[0].TransactionRequest.TransactionId != 1 || m.Mess.MId.DeviceName != "mg1" {
		t.Error("nil functions changed something")
	}
	if a := tx[0].TransactionRequest.Actions; a[0].ContextId != 20 || a[1].ContextId != NullContext || a[2].ContextId != ChooseContext {
		t.Errorf("request contexts %+v", a)
	}
	if a := tx[2].TransactionReply.TransactionResult.ActionReplies; a[0].ContextId != 22 || a[1].ContextId != AllContexts {
		t.Errorf("reply contexts %+v", a)
	}
	mid := &model.MId{Kind: model.MId_DeviceName, DeviceName: "mg2"}
	Apply(m, &Changes{TransactionIDs: func(x uint32) uint32 { return x + 100 }, MID: mid})
	acks := tx[3].TransactionResponseAck
	switch {
	case tx[0].TransactionRequest.TransactionId != 101, tx[1].TransactionPending.TransactionId != 102,
		tx[2].TransactionReply.TransactionId != 103, tx[4].SegmentReply.TransactionId != 107:
		t.Errorf("transaction IDs not moved: %+v", tx)
	case acks[0].FirstAck != 104 || acks[0].LastAck.Value != 105 || acks[1].FirstAck != 106 || acks[1].LastAck.Present:
		t.Errorf("acks %+v", acks)
	case m.Mess.MId.DeviceName != "mg2":
		t.Errorf("mId %+v", m.Mess.MId)
	}
}

// Apply changes the termination IDs a Summary reports: a command's, an
// audit request's list (not the terminationID that repeats its first
// ID), a reply's; each into octets of its own.
func TestApplyTerminations(t *testing.T) {
	id := func(s string) model.TerminationID { return model.TerminationID{Id: model.Octets(s)} }
	audit := &model.AuditRequest{TerminationID: id("a"), TerminationIDList: []model.TerminationID{id("a"), id("b")}}
	m := &model.MegacoMessage{}
	m.Mess.MessageBody = model.MessageMessageBody{Kind: model.MessageMessageBody_Transactions, Transactions: []model.Transaction{
		{Kind: model.Transaction_TransactionRequest, TransactionRequest: &model.TransactionRequest{Actions: []model.ActionRequest{{
			CommandRequests: []model.CommandRequest{
				{Command: model.Command{Kind: model.Command_AddReq, AddReq: &model.AmmRequest{TerminationID: []model.TerminationID{id("c"), id("d")}}}},
				{Command: model.Command{Kind: model.Command_AuditValueRequest, AuditValueRequest: audit}},
			}}}}},
		{Kind: model.Transaction_TransactionReply, TransactionReply: &model.TransactionReply{
			TransactionResult: model.TransactionReplyTransactionResult{Kind: model.TransactionReplyTransactionResult_ActionReplies,
				ActionReplies: []model.ActionReply{{CommandReply: []model.CommandReply{
					{Kind: model.CommandReply_AuditValueReply, AuditValueReply: &model.AuditReply{Kind: model.AuditReply_AuditResult,
						AuditResult: &model.AuditResult{TerminationID: id("e")}}}}}}}}},
	}}
	var buf []byte
	Apply(m, &Changes{TerminationIDs: func(old []byte) []byte {
		buf = append(append(buf[:0], old...), '2') // reused memory, as the contract allows
		return buf
	}})
	tx := m.Mess.MessageBody.Transactions
	add := tx[0].TransactionRequest.Actions[0].CommandRequests[0].Command.AddReq.TerminationID
	res := tx[1].TransactionReply.TransactionResult.ActionReplies[0].CommandReply[0].AuditValueReply.AuditResult
	for _, c := range []struct{ got, want string }{
		{string(add[0].Id), "c2"}, {string(add[1].Id), "d2"},
		{string(audit.TerminationIDList[0].Id), "a2"}, {string(audit.TerminationIDList[1].Id), "b2"},
		{string(audit.TerminationID.Id), "a"}, {string(res.TerminationID.Id), "e2"},
	} {
		if c.got != c.want {
			t.Errorf("termination %q, want %q", c.got, c.want)
		}
	}
}
