package scan

import "megaco/internal/model"

// Special context IDs, which Changes.ContextIDs never sees: they name no
// context of their own.
const (
	NullContext   = 0          // "-"
	ChooseContext = 0xFFFFFFFE // "$"
	AllContexts   = 0xFFFFFFFF // "*"
)

// Apply makes ch's changes in a decoded message: what a rewriter does to
// the encoded bytes, and so its reference (decode -> Apply -> encode) and
// its fallback. Transaction IDs are those of requests, pendings, replies,
// segment replies and both ends of acknowledged ranges; context IDs those
// of actions and action replies, termination IDs those of commands and
// command replies (the IDs a Summary reports).
func Apply(m *model.MegacoMessage, ch *Changes) {
	if ch == nil { // no changes
		return
	}
	if ch.MID != nil {
		m.Mess.MId = *ch.MID
	}
	body := &m.Mess.MessageBody
	if body.Kind != model.MessageMessageBody_Transactions {
		return
	}
	for i := range body.Transactions {
		applyTransaction(&body.Transactions[i], ch)
	}
}

func applyTransaction(t *model.Transaction, ch *Changes) {
	tx := func(id *uint32) {
		if ch.TransactionIDs != nil {
			*id = ch.TransactionIDs(*id)
		}
	}
	switch t.Kind {
	case model.Transaction_TransactionRequest:
		r := t.TransactionRequest
		tx(&r.TransactionId)
		for i := range r.Actions {
			applyActionRequest(&r.Actions[i], ch)
		}
	case model.Transaction_TransactionPending:
		tx(&t.TransactionPending.TransactionId)
	case model.Transaction_TransactionReply:
		r := t.TransactionReply
		tx(&r.TransactionId)
		if r.TransactionResult.Kind == model.TransactionReplyTransactionResult_ActionReplies {
			for i := range r.TransactionResult.ActionReplies {
				applyActionReply(&r.TransactionResult.ActionReplies[i], ch)
			}
		}
	case model.Transaction_TransactionResponseAck:
		for i := range t.TransactionResponseAck {
			a := &t.TransactionResponseAck[i]
			tx(&a.FirstAck)
			if a.LastAck.Present {
				tx(&a.LastAck.Value)
			}
		}
	case model.Transaction_SegmentReply:
		tx(&t.SegmentReply.TransactionId)
	}
}

// applyActionRequest changes an action's context ID and its commands'
// termination IDs: the one walk of the action Apply makes.
func applyActionRequest(a *model.ActionRequest, ch *Changes) {
	applyContext(&a.ContextId, ch)
	if ch.TerminationIDs == nil {
		return
	}
	for i := range a.CommandRequests {
		requestTerms(&a.CommandRequests[i].Command, ch.newTermID)
	}
}

// applyActionReply is applyActionRequest for an action reply.
func applyActionReply(a *model.ActionReply, ch *Changes) {
	applyContext(&a.ContextId, ch)
	if ch.TerminationIDs == nil {
		return
	}
	for i := range a.CommandReply {
		replyTerms(&a.CommandReply[i], ch.newTermID)
	}
}

// newTermID gives id its new ID under ch. The new octets are a copy: the
// model may alias memory the caller does not own, and the result of
// ch.TerminationIDs is not kept by contract.
func (ch *Changes) newTermID(id *model.TerminationID) {
	id.Id = append(model.Octets(nil), ch.TerminationIDs(id.Id)...)
}

func applyContext(id *uint32, ch *Changes) {
	if ch.ContextIDs != nil && !Special(*id) {
		*id = ch.ContextIDs(*id)
	}
}

// Special reports whether a context ID is one of the special ones
// (null, choose, all), which Changes.ContextIDs leaves alone.
func Special(id uint32) bool { return id == NullContext || id == ChooseContext || id == AllContexts }
