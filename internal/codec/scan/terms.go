package scan

import "megaco/internal/model"

// The termination IDs a Summary reports of each command, in order: what
// FromModel lists and Apply changes, so that the two agree.

// requestTerms calls f on each termination ID of a command request.
func requestTerms(c *model.Command, f func(*model.TerminationID)) {
	switch c.Kind {
	case model.Command_AddReq:
		eachTerm(c.AddReq.TerminationID, f)
	case model.Command_MoveReq:
		eachTerm(c.MoveReq.TerminationID, f)
	case model.Command_ModReq:
		eachTerm(c.ModReq.TerminationID, f)
	case model.Command_SubtractReq:
		eachTerm(c.SubtractReq.TerminationID, f)
	case model.Command_AuditCapRequest:
		auditRequestTerms(c.AuditCapRequest, f)
	case model.Command_AuditValueRequest:
		auditRequestTerms(c.AuditValueRequest, f)
	case model.Command_NotifyReq:
		eachTerm(c.NotifyReq.TerminationID, f)
	case model.Command_ServiceChangeReq:
		eachTerm(c.ServiceChangeReq.TerminationID, f)
	}
}

// auditRequestTerms is the v3 terminationIDList when there is one, else
// the terminationID: with a list, the terminationID repeats its first ID
// (the text decoder fills both from "[a,b]"; the encoder writes the list).
func auditRequestTerms(r *model.AuditRequest, f func(*model.TerminationID)) {
	if len(r.TerminationIDList) > 0 {
		eachTerm(r.TerminationIDList, f)
		return
	}
	f(&r.TerminationID)
}

// replyTerms calls f on each termination ID of a command reply.
func replyTerms(c *model.CommandReply, f func(*model.TerminationID)) {
	switch c.Kind {
	case model.CommandReply_AddReply:
		eachTerm(c.AddReply.TerminationID, f)
	case model.CommandReply_MoveReply:
		eachTerm(c.MoveReply.TerminationID, f)
	case model.CommandReply_ModReply:
		eachTerm(c.ModReply.TerminationID, f)
	case model.CommandReply_SubtractReply:
		eachTerm(c.SubtractReply.TerminationID, f)
	case model.CommandReply_AuditCapReply:
		auditReplyTerms(c.AuditCapReply, f)
	case model.CommandReply_AuditValueReply:
		auditReplyTerms(c.AuditValueReply, f)
	case model.CommandReply_NotifyReply:
		eachTerm(c.NotifyReply.TerminationID, f)
	case model.CommandReply_ServiceChangeReply:
		eachTerm(c.ServiceChangeReply.TerminationID, f)
	}
}

func auditReplyTerms(r *model.AuditReply, f func(*model.TerminationID)) {
	switch r.Kind {
	case model.AuditReply_ContextAuditResult:
		eachTerm(r.ContextAuditResult, f)
	case model.AuditReply_AuditResult:
		f(&r.AuditResult.TerminationID)
	case model.AuditReply_AuditResultTermList:
		eachTerm(r.AuditResultTermList.TerminationIDList, f)
	}
}

func eachTerm(ids []model.TerminationID, f func(*model.TerminationID)) {
	for i := range ids {
		f(&ids[i])
	}
}

// AppendTerminationIDs appends to dst the new IDs f gives the
// terminations ts, one after the other: what a binary rewriter writes
// over the old ones, each at its span. False when one's length differs
// from its old one's (its span's): then nothing can be written in place.
func AppendTerminationIDs(dst []byte, ts []Termination, f func([]byte) []byte) ([]byte, bool) {
	for _, t := range ts {
		id := f(t.ID)
		if len(id) != t.Span.Len {
			return dst, false
		}
		dst = append(dst, id...)
	}
	return dst, true
}
