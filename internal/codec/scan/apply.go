package scan

import "megaco/internal/model"

// Apply makes in a decoded message the changes ch describes: what a
// Rewrite must give is the encoding of m after Apply (decode -> change ->
// encode), and a rewriter that cannot work on the bytes does just that.
// The context IDs changed are the actions' and action replies'; the
// special IDs (0, 0xFFFFFFFE, 0xFFFFFFFF) are left alone.
func (ch *Changes) Apply(m *model.MegacoMessage) {
	if ch.MID != nil {
		m.Mess.MId = *ch.MID
	}
	body := &m.Mess.MessageBody
	if body.Kind != model.MessageMessageBody_Transactions {
		return
	}
	for i := range body.Transactions {
		ch.applyTransaction(&body.Transactions[i])
	}
}

func (ch *Changes) tx(id *uint32) {
	if ch.TransactionIDs != nil {
		*id = ch.TransactionIDs(*id)
	}
}

func (ch *Changes) context(id *uint32) {
	if ch.ContextIDs != nil && *id != 0 && *id < 0xFFFFFFFE {
		*id = ch.ContextIDs(*id)
	}
}

func (ch *Changes) applyTransaction(t *model.Transaction) {
	switch t.Kind {
	case model.Transaction_TransactionRequest:
		r := t.TransactionRequest
		ch.tx(&r.TransactionId)
		for i := range r.Actions {
			ch.context(&r.Actions[i].ContextId)
		}
	case model.Transaction_TransactionPending:
		ch.tx(&t.TransactionPending.TransactionId)
	case model.Transaction_TransactionReply:
		r := t.TransactionReply
		ch.tx(&r.TransactionId)
		if r.TransactionResult.Kind == model.TransactionReplyTransactionResult_ActionReplies {
			for i := range r.TransactionResult.ActionReplies {
				ch.context(&r.TransactionResult.ActionReplies[i].ContextId)
			}
		}
	case model.Transaction_TransactionResponseAck:
		for i := range t.TransactionResponseAck {
			a := &t.TransactionResponseAck[i]
			ch.tx(&a.FirstAck)
			if a.LastAck.Present {
				ch.tx(&a.LastAck.Value)
			}
		}
	case model.Transaction_SegmentReply:
		ch.tx(&t.SegmentReply.TransactionId)
	}
}
