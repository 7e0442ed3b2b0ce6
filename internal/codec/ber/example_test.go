package ber_test

import (
	"fmt"

	"megaco/internal/codec/ber"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/model"
)

// A proxy that routes replies needs the transactions only: it says so in
// Want, and the scan hops over the action replies by their length.
func ExampleScan_transactions() {
	reply := &model.TransactionReply{TransactionId: 42,
		TransactionResult: model.TransactionReplyTransactionResult{Kind: model.TransactionReplyTransactionResult_ActionReplies,
			ActionReplies: []model.ActionReply{{ContextId: 7}}}}
	m := &model.MegacoMessage{}
	m.Mess.Version = 3
	m.Mess.MId = model.MId{Kind: model.MId_DeviceName, DeviceName: "mg1"}
	m.Mess.MessageBody = model.MessageMessageBody{Kind: model.MessageMessageBody_Transactions,
		Transactions: []model.Transaction{{Kind: model.Transaction_TransactionReply, TransactionReply: reply}}}
	data, err := ber.Append(nil, m, ber.Options{})
	if err != nil {
		panic(err)
	}
	var s scan.Summary
	for _, want := range []scan.Depth{scan.Transactions, scan.Actions} {
		s.Want = want // Reset, which Scan calls, keeps it
		if err := ber.Scan(data, &s, limits.Limits{}); err != nil {
			panic(err)
		}
		t := s.Transactions[0]
		fmt.Printf("%v: %s %d final %v, %d actions\n", s.Want, s.MID.Value, t.ID, t.Final(), len(s.Actions))
	}
	// Output:
	// transactions: mg1 42 final true, 0 actions
	// actions: mg1 42 final true, 1 actions
}
