package proxy

import "megaco/internal/model"

// txInfo is what routing and metrics need of one transaction.
type txInfo struct {
	kind    kind
	tid     uint32
	final   bool  // a reply that ends the transaction (last segment, or unsegmented)
	command uint8 // requests: index in commands
}

// inspect lists the transactions of m into out (a message-level error is
// one entry of kindError).
func inspect(m *model.MegacoMessage, out []txInfo) []txInfo {
	body := &m.Mess.MessageBody
	if body.Kind != model.MessageMessageBody_Transactions {
		return append(out, txInfo{kind: kindError})
	}
	for i := range body.Transactions {
		out = append(out, transactionInfo(&body.Transactions[i]))
	}
	return out
}

func transactionInfo(t *model.Transaction) txInfo {
	switch t.Kind {
	case model.Transaction_TransactionRequest:
		return txInfo{kind: kindRequest, tid: t.TransactionRequest.TransactionId, command: firstCommand(t.TransactionRequest)}
	case model.Transaction_TransactionPending:
		return txInfo{kind: kindPending, tid: t.TransactionPending.TransactionId}
	case model.Transaction_TransactionReply:
		r := t.TransactionReply
		// A v3 segmented reply is final with its last segment; an
		// unsegmented one at once.
		final := !r.SegmentNumber.Present || r.SegmentationComplete
		return txInfo{kind: kindReply, tid: r.TransactionId, final: final}
	case model.Transaction_SegmentReply:
		return txInfo{kind: kindAck, tid: t.SegmentReply.TransactionId}
	}
	// TransactionResponseAck: its IDs are ranges of replies acknowledged,
	// routed like any message to the answering peer.
	info := txInfo{kind: kindAck}
	if len(t.TransactionResponseAck) > 0 {
		info.tid = t.TransactionResponseAck[0].FirstAck
	}
	return info
}

// commandIndex maps model.CommandKind (1..8) to the index in commands.
var commandIndex = [...]uint8{
	model.Command_AddReq:            0,
	model.Command_MoveReq:           1,
	model.Command_ModReq:            2,
	model.Command_SubtractReq:       3,
	model.Command_AuditCapRequest:   4,
	model.Command_AuditValueRequest: 5,
	model.Command_NotifyReq:         6,
	model.Command_ServiceChangeReq:  7,
}

const commandNone = 8

func firstCommand(r *model.TransactionRequest) uint8 {
	if len(r.Actions) == 0 || len(r.Actions[0].CommandRequests) == 0 {
		return commandNone
	}
	if k := r.Actions[0].CommandRequests[0].Command.Kind; k > 0 && int(k) < len(commandIndex) {
		return commandIndex[k]
	}
	return commandNone
}
