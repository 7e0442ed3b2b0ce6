package native

import (
	"google.golang.org/protobuf/encoding/protowire"

	"megaco/internal/codec/scan"
)

// The walk of a message, type by type, along the path to what a
// scan.Summary reports. Rewriting, it goes only as deep as the IDs (the
// transactions, acks and actions) and copies the rest. Every walk is a
// loop over the message's fields that handles those it knows and copies
// the others (rewriting) or passes them (scanning).

// msgKind names a message type of the path; walk dispatches on it, so
// that the walk makes only direct calls (an indirect one would move the
// field iterators to the heap).
type msgKind uint8

const (
	kMessage msgKind = iota + 1
	kMId
	kAddress
	kMessageBody
	kTransaction
	kTransactionRequest
	kTransactionPending
	kTransactionReply
	kTransactionResult
	kTransactionAck
	kSegmentReply
	kActionRequest
	kActionReply
	kErrorDescriptor
	kCommandRequest
	kCommand
	kAmmRequest
	kSubtractRequest
	kAuditRequest
	kNotifyRequest
	kServiceChangeRequest
	kCommandReply
	kAmmsReply
	kAuditReply
	kAuditResult
	kTermListAuditResult
	kAuditReturnParameter
	kNotifyReply
	kServiceChangeReply
	kServiceChangeResult
	kTerminationID
)

func (w *walker) walk(k msgKind, b []byte, base int) error {
	switch k {
	case kMessage:
		return walkMessage(w, b, base)
	case kMId:
		return walkMId(w, b, base)
	case kAddress:
		return walkAddress(w, b, base)
	case kMessageBody:
		return walkMessageBody(w, b, base)
	case kTransaction:
		return walkTransaction(w, b, base)
	case kTransactionRequest, kTransactionPending, kSegmentReply:
		return walkTransactionIDOnly(w, k, b, base)
	case kTransactionReply:
		return walkTransactionReply(w, b, base)
	case kTransactionResult:
		return walkTransactionResult(w, b, base)
	case kTransactionAck:
		return walkTransactionAck(w, b, base)
	case kActionRequest:
		return walkActionRequest(w, b, base)
	case kActionReply:
		return walkActionReply(w, b, base)
	case kErrorDescriptor:
		return walkErrorDescriptor(w, b, base)
	case kCommandRequest:
		return walkCommandRequest(w, b, base)
	case kCommand:
		return walkCommand(w, b, base)
	case kCommandReply:
		return walkCommandReply(w, b, base)
	case kTerminationID:
		return walkTerminationID(w, b, base)
	}
	return walkCommandPart(w, k, b, base)
}

func walkMegacoMessage(w *walker, b []byte, base int) error {
	it := iter(b, base)
	for it.next() {
		if it.is(numMegacoMessageMess) {
			w.mess = true
			if err := w.nested(&it, kMessage); err != nil {
				return err
			}
			continue
		}
		w.copy(&it)
	}
	return it.err
}

func walkMessage(w *walker, b []byte, base int) error {
	it := iter(b, base)
	for it.next() {
		var err error
		switch {
		case it.isVarint(numMessageVersion):
			w.s.Version = int(uint32(it.v))
			w.copy(&it)
		case it.is(numMessageMId):
			w.s.MID.Span = it.span()
			switch {
			case w.ch != nil && w.ch.MID != nil:
				err = w.newMID()
			case w.acks == nil: // not patchIDs' scan (scanWire)
				err = w.nested(&it, kMId)
			}
		case it.is(numMessageMessageBody):
			err = w.nested(&it, kMessageBody)
		default:
			w.copy(&it)
		}
		if err != nil {
			return err
		}
	}
	return it.err
}

func walkMId(w *walker, b []byte, base int) error {
	it := iter(b, base)
	mid := &w.s.MID
	for it.next() {
		var err error
		switch {
		case it.is(numMIdIp4Address):
			mid.Kind = scan.IP4Address
			err = w.nested(&it, kAddress)
		case it.is(numMIdIp6Address):
			mid.Kind = scan.IP6Address
			err = w.nested(&it, kAddress)
		case it.is(numMIdDomainName):
			mid.Kind = scan.DomainName
			err = w.nested(&it, kAddress)
		case it.is(numMIdDeviceName):
			mid.Kind, mid.Value = scan.DeviceName, it.val()
			w.copy(&it)
		case it.is(numMIdMtpAddress):
			mid.Kind, mid.Value = scan.MTPAddress, it.val()
			w.copy(&it)
		default:
			w.copy(&it)
		}
		if err != nil {
			return err
		}
	}
	return it.err
}

// The three kinds of address have the same fields.
const (
	_ = uint(numIP4AddressAddress-numIP6AddressAddress) + uint(numIP6AddressAddress-numIP4AddressAddress) +
		uint(numIP4AddressAddress-numDomainNameName) + uint(numDomainNameName-numIP4AddressAddress)
	_ = uint(numIP4AddressPortNumber-numIP6AddressPortNumber) + uint(numIP6AddressPortNumber-numIP4AddressPortNumber) +
		uint(numIP4AddressPortNumber-numDomainNamePortNumber) + uint(numDomainNamePortNumber-numIP4AddressPortNumber)
)

// walkAddress reads an IP4Address, IP6Address or DomainName (the same
// fields, checked above at compile time).
func walkAddress(w *walker, b []byte, base int) error {
	it := iter(b, base)
	for it.next() {
		switch {
		case it.is(numIP4AddressAddress):
			w.s.MID.Value = it.val()
		case it.isVarint(numIP4AddressPortNumber):
			w.s.MID.Port = int(uint32(it.v))
		}
		w.copy(&it)
	}
	return it.err
}

func walkMessageBody(w *walker, b []byte, base int) error {
	it := iter(b, base)
	for it.next() {
		var err error
		switch {
		case it.is(numMessageMessageBodyMessageError) && w.ch == nil:
			err = w.nested(&it, kErrorDescriptor)
		case it.is(numMessageMessageBodyTransactions):
			err = w.items(&it, wrappedMessageMessageBodyTransactions, kTransaction)
		default:
			w.copy(&it)
		}
		if err != nil {
			return err
		}
	}
	return it.err
}

func walkTransaction(w *walker, b []byte, base int) error {
	it := iter(b, base)
	for it.next() {
		var err error
		switch {
		case it.is(numTransactionTransactionRequest):
			w.tx(scan.Request)
			err = w.nested(&it, kTransactionRequest)
		case it.is(numTransactionTransactionPending):
			w.tx(scan.Pending)
			err = w.nested(&it, kTransactionPending)
		case it.is(numTransactionTransactionReply):
			w.tx(scan.Reply)
			err = w.nested(&it, kTransactionReply)
		case it.is(numTransactionTransactionResponseAck):
			err = w.items(&it, wrappedTransactionTransactionResponseAck, kTransactionAck)
		case it.is(numTransactionSegmentReply):
			w.tx(scan.SegmentReply)
			err = w.nested(&it, kSegmentReply)
		default:
			w.copy(&it)
		}
		if err != nil {
			return err
		}
	}
	return it.err
}

// walkTransactionIDOnly reads a TransactionRequest (its actions too), a
// TransactionPending or a SegmentReply.
func walkTransactionIDOnly(w *walker, k msgKind, b []byte, base int) error {
	num := numTransactionRequestTransactionId
	switch k {
	case kTransactionPending:
		num = numTransactionPendingTransactionId
	case kSegmentReply:
		num = numSegmentReplyTransactionId
	}
	it, seen := iter(b, base), false
	for it.next() {
		if w.id(&it, num, txSite, &seen) {
			continue
		}
		var err error
		switch {
		case k == kTransactionRequest && it.is(numTransactionRequestActions) && w.wants(scan.Actions):
			err = w.items(&it, wrappedTransactionRequestActions, kActionRequest)
		case k == kSegmentReply && it.isVarint(numSegmentReplySegmentNumber):
			w.lastTx().Segment = uint16(it.v)
			w.copy(&it)
		case k == kSegmentReply && it.isVarint(numSegmentReplySegmentationComplete):
			w.lastTx().Complete = it.v != 0
			w.copy(&it)
		default:
			w.copy(&it)
		}
		if err != nil {
			return err
		}
	}
	w.idEnd(num, txSite, seen)
	return it.err
}

func walkTransactionReply(w *walker, b []byte, base int) error {
	it, seen := iter(b, base), false
	for it.next() {
		if w.id(&it, numTransactionReplyTransactionId, txSite, &seen) {
			continue
		}
		t := w.lastTx()
		switch {
		case it.isVarint(numTransactionReplyImmAckRequired):
			t.ImmAckRequired = it.v != 0
		case it.isVarint(numTransactionReplySegmentNumber):
			t.Segment = uint16(it.v)
		case it.isVarint(numTransactionReplySegmentationComplete):
			t.Complete = it.v != 0
		case it.is(numTransactionReplyTransactionResult):
			if err := w.nested(&it, kTransactionResult); err != nil {
				return err
			}
			continue
		}
		w.copy(&it)
	}
	w.idEnd(numTransactionReplyTransactionId, txSite, seen)
	return it.err
}

func walkTransactionResult(w *walker, b []byte, base int) error {
	it := iter(b, base)
	for it.next() {
		var err error
		switch {
		case it.is(numTransactionReplyTransactionResultTransactionError) && w.ch == nil:
			err = w.nested(&it, kErrorDescriptor)
		case it.is(numTransactionReplyTransactionResultActionReplies) && w.wants(scan.Actions):
			err = w.items(&it, wrappedTransactionReplyTransactionResultActionReplies, kActionReply)
		default:
			w.copy(&it)
		}
		if err != nil {
			return err
		}
	}
	return it.err
}

func walkTransactionAck(w *walker, b []byte, base int) error {
	w.tx(scan.ResponseAck)
	it, seen := iter(b, base), false
	for it.next() {
		if w.id(&it, numTransactionAckFirstAck, txSite, &seen) {
			continue
		}
		if it.isVarint(numTransactionAckLastAck) {
			// optional: written even when zero.
			w.lastTx().LastID = uint32(it.v)
			if w.acks != nil {
				*w.acks = append(*w.acks, lastAck{uint32(it.v), it.varintSpan()})
			}
			if w.ch != nil {
				w.putVarint(it.num, uint64(w.newID(txSite, uint32(it.v))))
				continue
			}
		}
		w.copy(&it)
	}
	w.idEnd(numTransactionAckFirstAck, txSite, seen)
	return it.err
}

func walkActionRequest(w *walker, b []byte, base int) error {
	w.action()
	it, seen := iter(b, base), false
	for it.next() {
		if w.id(&it, numActionRequestContextId, contextSite, &seen) {
			continue
		}
		if it.is(numActionRequestCommandRequests) && w.ch == nil && w.wants(scan.Commands) {
			if err := w.items(&it, wrappedActionRequestCommandRequests, kCommandRequest); err != nil {
				return err
			}
			continue
		}
		w.copy(&it)
	}
	w.idEnd(numActionRequestContextId, contextSite, seen)
	return it.err
}

func walkActionReply(w *walker, b []byte, base int) error {
	w.action()
	it, seen := iter(b, base), false
	for it.next() {
		if w.id(&it, numActionReplyContextId, contextSite, &seen) {
			continue
		}
		var err error
		switch {
		case w.ch != nil:
			w.copy(&it)
		case it.is(numActionReplyErrorDescriptor):
			err = w.nested(&it, kErrorDescriptor)
		case it.is(numActionReplyCommandReply) && w.wants(scan.Commands):
			err = w.items(&it, wrappedActionReplyCommandReply, kCommandReply)
		}
		if err != nil {
			return err
		}
	}
	w.idEnd(numActionReplyContextId, contextSite, seen)
	return it.err
}

func walkErrorDescriptor(w *walker, b []byte, base int) error {
	w.s.Errors = append(w.s.Errors, scan.Error{Tx: len(w.s.Transactions) - 1, Command: w.cmd})
	e := &w.s.Errors[len(w.s.Errors)-1]
	it := iter(b, base)
	for it.next() {
		if it.isVarint(numErrorDescriptorErrorCode) {
			e.Code, e.Span = uint16(it.v), it.varintSpan()
		}
	}
	return it.err
}

// The commands, scanned only.

func walkCommandRequest(w *walker, b []byte, base int) error {
	it := iter(b, base)
	for it.next() {
		switch {
		case it.is(numCommandRequestCommand):
			if err := w.nested(&it, kCommand); err != nil {
				return err
			}
		case it.isVarint(numCommandRequestOptional) && w.cmd >= 0:
			w.s.Commands[w.cmd].Optional = it.v != 0
		case it.isVarint(numCommandRequestWildcardReturn) && w.cmd >= 0:
			w.s.Commands[w.cmd].Wildcard = it.v != 0
		}
	}
	return it.err
}

type commandPart struct {
	kind scan.CommandKind
	msg  msgKind
}

// commandRequests maps the fields of Command to the command's kind and
// the message type of its value; commandReplies those of CommandReply.
var (
	commandRequests = [...]commandPart{
		numCommandAddReq: {scan.Add, kAmmRequest}, numCommandMoveReq: {scan.Move, kAmmRequest},
		numCommandModReq: {scan.Modify, kAmmRequest}, numCommandSubtractReq: {scan.Subtract, kSubtractRequest},
		numCommandAuditCapRequest: {scan.AuditCapability, kAuditRequest}, numCommandAuditValueRequest: {scan.AuditValue, kAuditRequest},
		numCommandNotifyReq: {scan.Notify, kNotifyRequest}, numCommandServiceChangeReq: {scan.ServiceChange, kServiceChangeRequest},
	}
	commandReplies = [...]commandPart{
		numCommandReplyAddReply: {scan.Add, kAmmsReply}, numCommandReplyMoveReply: {scan.Move, kAmmsReply},
		numCommandReplyModReply: {scan.Modify, kAmmsReply}, numCommandReplySubtractReply: {scan.Subtract, kAmmsReply},
		numCommandReplyAuditCapReply: {scan.AuditCapability, kAuditReply}, numCommandReplyAuditValueReply: {scan.AuditValue, kAuditReply},
		numCommandReplyNotifyReply: {scan.Notify, kNotifyReply}, numCommandReplyServiceChangeReply: {scan.ServiceChange, kServiceChangeReply},
	}
)

// commandOf is the command field it is in table (zero if none).
func commandOf(table []commandPart, it *fieldIter) commandPart {
	if it.typ != protowire.BytesType || int(it.num) >= len(table) {
		return commandPart{}
	}
	return table[it.num]
}

func walkCommand(w *walker, b []byte, base int) error {
	it := iter(b, base)
	for it.next() {
		if c := commandOf(commandRequests[:], &it); c.kind != 0 {
			w.command(c.kind, false)
			if err := w.inCommand(&it, c.msg); err != nil {
				return err
			}
		}
	}
	return it.err
}

func walkCommandReply(w *walker, b []byte, base int) error {
	it := iter(b, base)
	for it.next() {
		if c := commandOf(commandReplies[:], &it); c.kind != 0 {
			w.command(c.kind, true)
			if err := w.inCommand(&it, c.msg); err != nil {
				return err
			}
		}
	}
	return it.err
}

// inCommand walks a command's or reply's value, of kind k, when the
// scan wants what is inside (the termination IDs and errors).
func (w *walker) inCommand(it *fieldIter, k msgKind) error {
	if !w.wants(scan.Everything) {
		return nil
	}
	return w.nested(it, k)
}

// part is where a command's termination IDs and error descriptors are
// in one type of command or reply: the field numbers (0: none), and
// whether the list of IDs is wrapped.
type part struct {
	term, termList, err protowire.Number
	wrapped             bool
	audit               protowire.Number // AuditReturnParameters
	auditWrapped        bool
	result, auditResult protowire.Number // ServiceChangeResult; AuditReply's AuditResult
	termListResult      protowire.Number // AuditReply's TermListAuditResult
	contextResult       protowire.Number // AuditReply's TerminationIDList
}

var parts = [...]part{
	kAmmRequest:           {termList: numAmmRequestTerminationID, wrapped: wrappedAmmRequestTerminationID},
	kSubtractRequest:      {termList: numSubtractRequestTerminationID, wrapped: wrappedSubtractRequestTerminationID},
	kAuditRequest:         {term: numAuditRequestTerminationID, termList: numAuditRequestTerminationIDList, wrapped: wrappedAuditRequestTerminationIDList},
	kNotifyRequest:        {termList: numNotifyRequestTerminationID, wrapped: wrappedNotifyRequestTerminationID, err: numNotifyRequestErrorDescriptor},
	kServiceChangeRequest: {termList: numServiceChangeRequestTerminationID, wrapped: wrappedServiceChangeRequestTerminationID},
	kAmmsReply: {termList: numAmmsReplyTerminationID, wrapped: wrappedAmmsReplyTerminationID,
		audit: numAmmsReplyTerminationAudit, auditWrapped: wrappedAmmsReplyTerminationAudit},
	kNotifyReply:         {termList: numNotifyReplyTerminationID, wrapped: wrappedNotifyReplyTerminationID, err: numNotifyReplyErrorDescriptor},
	kServiceChangeReply:  {termList: numServiceChangeReplyTerminationID, wrapped: wrappedServiceChangeReplyTerminationID, result: numServiceChangeReplyServiceChangeResult},
	kServiceChangeResult: {err: numServiceChangeResultErrorDescriptor},
	kAuditReply: {contextResult: numAuditReplyContextAuditResult, err: numAuditReplyError,
		auditResult: numAuditReplyAuditResult, termListResult: numAuditReplyAuditResultTermList},
	kAuditResult: {term: numAuditResultTerminationID, audit: numAuditResultTerminationAuditResult,
		auditWrapped: wrappedAuditResultTerminationAuditResult},
	kTermListAuditResult: {termList: numTermListAuditResultTerminationIDList, wrapped: wrappedTermListAuditResultTerminationIDList,
		audit: numTermListAuditResultTerminationAuditResult, auditWrapped: wrappedTermListAuditResultTerminationAuditResult},
	kAuditReturnParameter: {err: numAuditReturnParameterErrorDescriptor},
}

// walkCommandPart reads a command's or reply's value, or a part of it,
// by the table above.
func walkCommandPart(w *walker, k msgKind, b []byte, base int) error {
	p := parts[k]
	it := iter(b, base)
	for it.next() {
		if it.typ != protowire.BytesType || it.num == 0 {
			continue
		}
		var err error
		switch it.num {
		case p.term:
			err = w.nested(&it, kTerminationID)
		case p.termList:
			err = w.items(&it, p.wrapped, kTerminationID)
		case p.contextResult:
			err = w.items(&it, wrappedAuditReplyContextAuditResult, kTerminationID)
		case p.err:
			err = w.nested(&it, kErrorDescriptor)
		case p.audit:
			err = w.items(&it, p.auditWrapped, kAuditReturnParameter)
		case p.result:
			err = w.nested(&it, kServiceChangeResult)
		case p.auditResult:
			err = w.nested(&it, kAuditResult)
		case p.termListResult:
			err = w.nested(&it, kTermListAuditResult)
		}
		if err != nil {
			return err
		}
	}
	return it.err
}

func walkTerminationID(w *walker, b []byte, base int) error {
	w.s.Terminations = append(w.s.Terminations, scan.Termination{Command: w.cmd})
	t := &w.s.Terminations[len(w.s.Terminations)-1]
	it := iter(b, base)
	for it.next() {
		switch {
		case it.is(numTerminationIDWildcard):
			t.Wildcarded = true
		case it.is(numTerminationIDId):
			t.ID, t.Span = it.val(), it.span()
		}
	}
	return it.err
}
