package scan

import (
	"bytes"

	"megaco/internal/model"
)

// FromModel fills s (after Reset) from a decoded message: what a scanner
// reports of its encoding, but without positions (every Span is zero).
// It is the reference the scanners are tested against, and the summary
// of a caller that has decoded anyway. It fills down to s.Want, exactly.
//
// The byte values come from the model: in binary form a termination ID
// is its id octets, as binary scanners report; in text form (text set) it
// is the name as the text decoder keeps it, wildcarded when it has '*' or
// '$'. An mId's Value is its address octets or name.
func FromModel(m *model.MegacoMessage, text bool, s *Summary) {
	s.Reset()
	s.text = text
	s.Version = int(m.Mess.Version)
	s.MID = midOf(&m.Mess.MId)
	body := &m.Mess.MessageBody
	if body.Kind == model.MessageMessageBody_MessageError {
		s.addError(body.MessageError, -1, -1)
		return
	}
	for i := range body.Transactions {
		s.addTransaction(&body.Transactions[i])
	}
}

func midOf(id *model.MId) MID {
	out := MID{Kind: MIDKind(id.Kind), Port: -1}
	port := func(p model.Opt[uint32]) {
		if p.Present {
			out.Port = int(p.Value)
		}
	}
	switch id.Kind {
	case model.MId_Ip4Address:
		out.Value = id.Ip4Address.Address
		port(id.Ip4Address.PortNumber)
	case model.MId_Ip6Address:
		out.Value = id.Ip6Address.Address
		port(id.Ip6Address.PortNumber)
	case model.MId_DomainName:
		out.Value = []byte(id.DomainName.Name)
		port(id.DomainName.PortNumber)
	case model.MId_DeviceName:
		out.Value = []byte(id.DeviceName)
	case model.MId_MtpAddress:
		out.Value = id.MtpAddress
	}
	return out
}

func (s *Summary) addTransaction(t *model.Transaction) {
	tx := len(s.Transactions)
	switch t.Kind {
	case model.Transaction_TransactionRequest:
		r := t.TransactionRequest
		s.Transactions = append(s.Transactions, Transaction{Kind: Request, ID: r.TransactionId, LastID: r.TransactionId})
		if !s.Want.Reaches(Actions) {
			return
		}
		for i := range r.Actions {
			s.addActionRequest(tx, &r.Actions[i])
		}
	case model.Transaction_TransactionPending:
		id := t.TransactionPending.TransactionId
		s.Transactions = append(s.Transactions, Transaction{Kind: Pending, ID: id, LastID: id})
	case model.Transaction_TransactionReply:
		s.addReply(tx, t.TransactionReply)
	case model.Transaction_TransactionResponseAck:
		for _, a := range t.TransactionResponseAck {
			last := a.FirstAck
			if a.LastAck.Present {
				last = a.LastAck.Value
			}
			s.Transactions = append(s.Transactions, Transaction{Kind: ResponseAck, ID: a.FirstAck, LastID: last})
		}
	case model.Transaction_SegmentReply:
		r := t.SegmentReply
		s.Transactions = append(s.Transactions, Transaction{Kind: SegmentReply, ID: r.TransactionId, LastID: r.TransactionId,
			Segment: uint16(r.SegmentNumber), Complete: r.SegmentationComplete})
	}
}

func (s *Summary) addReply(tx int, r *model.TransactionReply) {
	t := Transaction{Kind: Reply, ID: r.TransactionId, LastID: r.TransactionId,
		ImmAckRequired: r.ImmAckRequired, Complete: r.SegmentationComplete}
	if r.SegmentNumber.Present {
		t.Segment = uint16(r.SegmentNumber.Value)
	}
	s.Transactions = append(s.Transactions, t)
	res := &r.TransactionResult
	if res.Kind == model.TransactionReplyTransactionResult_TransactionError {
		s.addError(res.TransactionError, tx, -1)
		return
	}
	if !s.Want.Reaches(Actions) {
		return
	}
	for i := range res.ActionReplies {
		a := &res.ActionReplies[i]
		s.Actions = append(s.Actions, Action{Tx: tx, ContextID: a.ContextId})
		act := len(s.Actions) - 1
		if a.ErrorDescriptor != nil {
			s.addError(a.ErrorDescriptor, tx, -1)
		}
		if !s.Want.Reaches(Commands) {
			continue
		}
		for j := range a.CommandReply {
			s.addCommandReply(tx, act, &a.CommandReply[j])
		}
	}
}

func (s *Summary) addActionRequest(tx int, a *model.ActionRequest) {
	s.Actions = append(s.Actions, Action{Tx: tx, ContextID: a.ContextId})
	act := len(s.Actions) - 1
	if !s.Want.Reaches(Commands) {
		return
	}
	for i := range a.CommandRequests {
		r := &a.CommandRequests[i]
		c := &r.Command
		s.Commands = append(s.Commands, Command{Action: act, Kind: CommandKind(c.Kind), Optional: r.Optional, Wildcard: r.WildcardReturn})
		if s.Want.Reaches(Everything) {
			s.addCommandRequest(tx, len(s.Commands)-1, c)
		}
	}
}

// addCommandRequest adds what is inside a command request.
func (s *Summary) addCommandRequest(tx, cmd int, c *model.Command) {
	requestTerms(c, func(id *model.TerminationID) { s.addTerm(cmd, id) })
	if c.Kind == model.Command_NotifyReq {
		s.addError(c.NotifyReq.ErrorDescriptor, tx, cmd)
	}
}

func (s *Summary) addCommandReply(tx, act int, c *model.CommandReply) {
	s.Commands = append(s.Commands, Command{Action: act, Kind: CommandKind(c.Kind), Reply: true})
	if !s.Want.Reaches(Everything) {
		return
	}
	cmd := len(s.Commands) - 1
	replyTerms(c, func(id *model.TerminationID) { s.addTerm(cmd, id) })
	switch c.Kind {
	case model.CommandReply_AddReply:
		s.addAuditErrors(tx, cmd, c.AddReply.TerminationAudit)
	case model.CommandReply_MoveReply:
		s.addAuditErrors(tx, cmd, c.MoveReply.TerminationAudit)
	case model.CommandReply_ModReply:
		s.addAuditErrors(tx, cmd, c.ModReply.TerminationAudit)
	case model.CommandReply_SubtractReply:
		s.addAuditErrors(tx, cmd, c.SubtractReply.TerminationAudit)
	case model.CommandReply_AuditCapReply:
		s.addAuditReplyErrors(tx, cmd, c.AuditCapReply)
	case model.CommandReply_AuditValueReply:
		s.addAuditReplyErrors(tx, cmd, c.AuditValueReply)
	case model.CommandReply_NotifyReply:
		s.addError(c.NotifyReply.ErrorDescriptor, tx, cmd)
	case model.CommandReply_ServiceChangeReply:
		r := c.ServiceChangeReply
		if r.ServiceChangeResult.Kind == model.ServiceChangeResult_ErrorDescriptor {
			s.addError(r.ServiceChangeResult.ErrorDescriptor, tx, cmd)
		}
	}
}

func (s *Summary) addAuditReplyErrors(tx, cmd int, r *model.AuditReply) {
	switch r.Kind {
	case model.AuditReply_Error:
		s.addError(r.Error, tx, cmd)
	case model.AuditReply_AuditResult:
		s.addAuditErrors(tx, cmd, r.AuditResult.TerminationAuditResult)
	case model.AuditReply_AuditResultTermList:
		s.addAuditErrors(tx, cmd, r.AuditResultTermList.TerminationAuditResult)
	}
}

// addAuditErrors adds the error descriptors among a termination's audit
// results (an AuditReturnParameter may be one).
func (s *Summary) addAuditErrors(tx, cmd int, ps []model.AuditReturnParameter) {
	for i := range ps {
		if ps[i].Kind == model.AuditReturnParameter_ErrorDescriptor {
			s.addError(ps[i].ErrorDescriptor, tx, cmd)
		}
	}
}

func (s *Summary) addTerm(cmd int, id *model.TerminationID) {
	w := len(id.Wildcard) > 0
	if s.text {
		w = bytes.ContainsAny(id.Id, "*$")
	}
	s.Terminations = append(s.Terminations, Termination{Command: cmd, ID: id.Id, Wildcarded: w})
}

func (s *Summary) addError(e *model.ErrorDescriptor, tx, cmd int) {
	if e == nil {
		return
	}
	s.Errors = append(s.Errors, Error{Tx: tx, Command: cmd, Code: uint16(e.ErrorCode)})
}
