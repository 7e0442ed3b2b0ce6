package native

import (
	"google.golang.org/protobuf/encoding/protowire"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// The scan of a message: one method per message type on the path to what
// a scan.Summary reports, each a loop over the message's fields that
// reads those on the path and hops every other by its length. A full
// scan of a corpus message reads some 25 fields, so what a field costs
// is what a scan costs: the tags are compared whole with constants (every
// field on the path has a one-octet tag), a field with a one-octet tag
// and a one-octet value or length is read inline (next), and nothing is
// stored but what the Summary gets.

// scanner is the state of one scan.
type scanner struct {
	w        []byte // the wire form
	s        *scan.Summary
	maxDepth int
	elems    int // what the element limit leaves
	cmd      int // the current command's index in s.Commands, -1 outside one
	// The depths the scan reaches (s.Want).
	actions, commands, inside bool
	acks                      *[]lastAck // not nil: patchIDs' scan (scanWire)
}

// field is one field of a message: its tag as on the wire (number and
// type), its value (a varint) or contents' length, and the offset past
// it: a length-delimited field's contents end there. The offsets of the
// scan are in the whole wire form.
type field struct {
	tag uint64
	v   uint64
	end int
}

// off is the offset of a length-delimited field's contents.
func (f *field) off() int { return f.end - int(f.v) }

// val is a length-delimited field's contents, in b, the wire form.
func (f *field) val(b []byte) []byte { return b[f.end-int(f.v) : f.end] }

// span is where a length-delimited field's contents sit.
func (f *field) span() scan.Span { return scan.Span{Off: f.off(), Len: int(f.v)} }

// varintSpan is where a varint field's value sits in b, the wire form:
// back from its end to the last octet of the tag, the one before it
// below 0x80.
func (f *field) varintSpan(b []byte) scan.Span {
	off := f.end - 1
	for b[off-1] >= 0x80 {
		off--
	}
	return scan.Span{Off: off, Len: f.end - off}
}

// tag is the tag of field num with a length-delimited value; varintTag,
// with a varint one.
func tag(num protowire.Number) uint64       { return uint64(num)<<3 | uint64(protowire.BytesType) }
func varintTag(num protowire.Number) uint64 { return uint64(num)<<3 | uint64(protowire.VarintType) }

// next reads the field at b[p:end] when it has a one-octet tag (fields 1
// to 15) and a one-octet varint or length, as most fields have: it is
// inlined in the field loops, which call slow when it gives end 0.
func next(b []byte, p, end int) field {
	if p+1 < end {
		t, v := b[p], b[p+1]
		if t-1<<3 < 0x80-1<<3 && v < 0x80 {
			switch t & 7 {
			case uint8(protowire.VarintType):
				return field{uint64(t), uint64(v), p + 2}
			case uint8(protowire.BytesType):
				if e := p + 2 + int(v); e <= end {
					return field{uint64(t), uint64(v), e}
				}
			}
		}
	}
	return field{}
}

// slow reads any field at b[p:end] into f; false when it does not parse
// (malformed says why). A one-octet tag with a varint or length of two
// or three octets (an ID, the length of a message on the path) is read
// here without protowire's general code.
//
//go:noinline
func (f *field) slow(b []byte, p, end int) bool {
	if p+2 < end {
		t, c1, c2 := b[p], b[p+1], b[p+2]
		v, n := uint64(c1&0x7f)|uint64(c2&0x7f)<<7, 3
		if c2 >= 0x80 {
			if p+3 >= end || b[p+3] >= 0x80 {
				return f.any(b[:end], p)
			}
			v, n = v|uint64(b[p+3])<<14, 4
		}
		if t-1<<3 < 0x80-1<<3 && c1 >= 0x80 {
			switch t & 7 {
			case uint8(protowire.VarintType):
				f.tag, f.v, f.end = uint64(t), v, p+n
				return true
			case uint8(protowire.BytesType):
				if e := p + n + int(v); e <= end {
					f.tag, f.v, f.end = uint64(t), v, e
					return true
				}
			}
		}
	}
	return f.any(b[:end], p)
}

// any is slow for any field, by protowire.
func (f *field) any(b []byte, p int) bool {
	t, n := protowire.ConsumeVarint(b[p:])
	if n < 0 || t>>3 < uint64(protowire.MinValidNumber) || t>>3 > uint64(protowire.MaxValidNumber) {
		return false
	}
	p += n
	f.tag = t
	switch protowire.Type(t & 7) {
	case protowire.VarintType:
		f.v, n = protowire.ConsumeVarint(b[p:])
		f.end = p + n
		return n > 0
	case protowire.BytesType:
		f.v, n = protowire.ConsumeVarint(b[p:])
		if n < 0 || f.v > uint64(len(b)-p-n) {
			return false
		}
		f.end = p + n + int(f.v)
		return true
	}
	f.v = 0
	n = protowire.ConsumeFieldValue(protowire.Number(t>>3), protowire.Type(t&7), b[p:])
	f.end = p + n
	return n >= 0
}

// malformed is the error of the field at b[p:end] that does not parse.
//
//go:noinline
func malformed(b []byte, p, end int) error {
	b = b[:end]
	num, typ, n := protowire.ConsumeTag(b[p:])
	switch {
	case n < 0:
	case num < protowire.MinValidNumber || num > protowire.MaxValidNumber:
		return malformedAt(p, errFieldNumber.Error())
	case typ == protowire.BytesType:
		if _, m := protowire.ConsumeVarint(b[p+n:]); m >= 0 {
			return malformedAt(p, "truncated length-delimited field")
		}
		n = protowire.ConsumeFieldValue(num, typ, b[p+n:])
	default:
		n = protowire.ConsumeFieldValue(num, typ, b[p+n:])
	}
	msg := "malformed field" // not reached: slow rejected it
	if n < 0 {
		msg = protowire.ParseError(n).Error()
	}
	return malformedAt(p, msg)
}

func malformedAt(p int, msg string) error {
	e := codecerr.New(codecName, codecerr.Decode, codecerr.Malformed, msg)
	e.Pos = codecerr.AtByte(p)
	return e
}

// newScanner is a scan into s, which has been Reset, within lim (its
// defaults filled in).
func newScanner(s *scan.Summary, lim limits.Limits, acks *[]lastAck) scanner {
	s.MID.Port = -1
	return scanner{
		s: s, maxDepth: lim.MaxDepth, elems: lim.MaxElements, cmd: -1, acks: acks,
		actions: s.Want.Reaches(scan.Actions), commands: s.Want.Reaches(scan.Commands), inside: s.Want.Reaches(scan.Everything),
	}
}

// enter starts a message of depth d at base, within the limits (the
// MegacoMessage is depth 0, its Message 1, as the scan counted them).
func (sc *scanner) enter(start, d int) error {
	if sc.elems--; d > sc.maxDepth || sc.elems < 0 {
		return sc.tooLarge(start, d)
	}
	return nil
}

// tooLarge is the error of a message at base, of depth d, past the depth
// or element limit. (A method of its own keeps enter's call small.)
//
//go:noinline
func (sc *scanner) tooLarge(base, d int) error { return limitError(base, d > sc.maxDepth) }

// limitError is the error of the scan's or the rewrite's message at p
// past the depth limit (deep) or the element limit.
func limitError(p int, deep bool) error {
	msg := errWireElems.Error()
	if deep {
		msg = errWireDepth.Error()
	}
	e := codecerr.New(codecName, codecerr.Decode, codecerr.TooLarge, msg)
	e.Pos = codecerr.AtByte(p)
	return e
}

// megacoMessage scans the whole message; one without mess fails as the
// decoder fails.
func (sc *scanner) megacoMessage(b []byte) error {
	sc.w = b
	mess := false
	var f field
	for p, end := 0, len(b); p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		if f.tag == tag(numMegacoMessageMess) {
			mess = true
			if err := sc.message(f.off(), f.end, 1); err != nil {
				return err
			}
		}
	}
	if !mess {
		return decodeError(errNoMess)
	}
	return nil
}

func (sc *scanner) message(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		var err error
		switch f.tag {
		case varintTag(numMessageVersion):
			sc.s.Version = int(uint32(f.v))
		case tag(numMessageMId):
			sc.s.MID.Span = f.span()
			if sc.acks == nil { // patchIDs' scan passes it
				err = sc.mID(f.off(), f.end, d+1)
			}
		case tag(numMessageMessageBody):
			err = sc.messageBody(f.off(), f.end, d+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (sc *scanner) mID(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	mid := &sc.s.MID
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		var err error
		switch f.tag {
		case tag(numMIdIp4Address):
			mid.Kind = scan.IP4Address
			err = sc.address(f.off(), f.end, d+1)
		case tag(numMIdIp6Address):
			mid.Kind = scan.IP6Address
			err = sc.address(f.off(), f.end, d+1)
		case tag(numMIdDomainName):
			mid.Kind = scan.DomainName
			err = sc.address(f.off(), f.end, d+1)
		case tag(numMIdDeviceName):
			mid.Kind, mid.Value = scan.DeviceName, f.val(b)
		case tag(numMIdMtpAddress):
			mid.Kind, mid.Value = scan.MTPAddress, f.val(b)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// The three kinds of address have the same fields.
const (
	_ = uint(numIP4AddressAddress-numIP6AddressAddress) + uint(numIP6AddressAddress-numIP4AddressAddress) +
		uint(numIP4AddressAddress-numDomainNameName) + uint(numDomainNameName-numIP4AddressAddress)
	_ = uint(numIP4AddressPortNumber-numIP6AddressPortNumber) + uint(numIP6AddressPortNumber-numIP4AddressPortNumber) +
		uint(numIP4AddressPortNumber-numDomainNamePortNumber) + uint(numDomainNamePortNumber-numIP4AddressPortNumber)
)

// address reads an IP4Address, IP6Address or DomainName (the same fields,
// checked above at compile time).
func (sc *scanner) address(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		switch f.tag {
		case tag(numIP4AddressAddress):
			sc.s.MID.Value = f.val(b)
		case varintTag(numIP4AddressPortNumber):
			sc.s.MID.Port = int(uint32(f.v))
		}
	}
	return nil
}

func (sc *scanner) messageBody(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		var err error
		switch f.tag {
		case tag(numMessageMessageBodyMessageError):
			err = sc.errorDescriptor(f.off(), f.end, d+1)
		case tag(numMessageMessageBodyTransactions):
			err = sc.wrapper(kTransaction, f.off(), f.end, d+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// wrapper reads a wrapper message, which holds the items of a list in
// its field 1: the message's transactions (k kTransaction), the ranges of
// a TransactionResponseAck (kTransactionAck) or a transaction result's
// action replies (kActionReply).
func (sc *scanner) wrapper(k msgKind, start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		if f.tag != tag(1) {
			continue
		}
		var err error
		switch k {
		case kTransaction:
			err = sc.transaction(f.off(), f.end, d+1)
		case kTransactionAck:
			sc.tx(scan.ResponseAck)
			err = sc.transactionAck(f.off(), f.end, d+1)
		default:
			err = sc.actionReply(f.off(), f.end, d+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (sc *scanner) transaction(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		var err error
		switch f.tag {
		case tag(numTransactionTransactionRequest):
			sc.tx(scan.Request)
			err = sc.transactionRequest(f.off(), f.end, d+1)
		case tag(numTransactionTransactionPending):
			sc.tx(scan.Pending)
			err = sc.transactionPending(f.off(), f.end, d+1)
		case tag(numTransactionTransactionReply):
			sc.tx(scan.Reply)
			err = sc.transactionReply(f.off(), f.end, d+1)
		case tag(numTransactionTransactionResponseAck):
			err = sc.wrapper(kTransactionAck, f.off(), f.end, d+1)
		case tag(numTransactionSegmentReply):
			sc.tx(scan.SegmentReply)
			err = sc.segmentReply(f.off(), f.end, d+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// tx starts a transaction of kind k.
func (sc *scanner) tx(k scan.TxKind) {
	sc.s.Transactions = append(sc.s.Transactions, scan.Transaction{Kind: k})
	sc.cmd = -1
}

func (sc *scanner) lastTx() *scan.Transaction { return &sc.s.Transactions[len(sc.s.Transactions)-1] }

// txID records the ID of the last transaction, a varint field f.
func (sc *scanner) txID(f *field, b []byte) {
	t := sc.lastTx()
	t.ID, t.LastID, t.IDSpan = uint32(f.v), uint32(f.v), f.varintSpan(b)
}

func (sc *scanner) transactionRequest(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		switch f.tag {
		case varintTag(numTransactionRequestTransactionId):
			sc.txID(&f, b)
		case tag(numTransactionRequestActions):
			if sc.actions {
				if err := sc.actionRequest(f.off(), f.end, d+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (sc *scanner) transactionPending(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		if f.tag == varintTag(numTransactionPendingTransactionId) {
			sc.txID(&f, b)
		}
	}
	return nil
}

func (sc *scanner) segmentReply(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		switch f.tag {
		case varintTag(numSegmentReplyTransactionId):
			sc.txID(&f, b)
		case varintTag(numSegmentReplySegmentNumber):
			sc.lastTx().Segment = uint16(f.v)
		case varintTag(numSegmentReplySegmentationComplete):
			sc.lastTx().Complete = f.v != 0
		}
	}
	return nil
}

func (sc *scanner) transactionReply(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		switch f.tag {
		case varintTag(numTransactionReplyTransactionId):
			sc.txID(&f, b)
		case varintTag(numTransactionReplyImmAckRequired):
			sc.lastTx().ImmAckRequired = f.v != 0
		case tag(numTransactionReplyTransactionResult):
			if err := sc.transactionResult(f.off(), f.end, d+1); err != nil {
				return err
			}
		case varintTag(numTransactionReplySegmentNumber):
			sc.lastTx().Segment = uint16(f.v)
		case varintTag(numTransactionReplySegmentationComplete):
			sc.lastTx().Complete = f.v != 0
		}
	}
	return nil
}

func (sc *scanner) transactionResult(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		var err error
		switch f.tag {
		case tag(numTransactionReplyTransactionResultTransactionError):
			err = sc.errorDescriptor(f.off(), f.end, d+1)
		case tag(numTransactionReplyTransactionResultActionReplies):
			if sc.actions {
				err = sc.wrapper(kActionReply, f.off(), f.end, d+1)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// transactionAck reads one acknowledged range: its lastAck, optional, is
// its firstAck when absent.
func (sc *scanner) transactionAck(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	last := false
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		switch t := sc.lastTx(); f.tag {
		case varintTag(numTransactionAckFirstAck):
			t.ID, t.IDSpan = uint32(f.v), f.varintSpan(b)
			if !last {
				t.LastID = t.ID
			}
		case varintTag(numTransactionAckLastAck):
			t.LastID, last = uint32(f.v), true
			if sc.acks != nil {
				*sc.acks = append(*sc.acks, lastAck{uint32(f.v), f.varintSpan(b)})
			}
		}
	}
	return nil
}

func (sc *scanner) actionRequest(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	sc.action()
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		switch f.tag {
		case varintTag(numActionRequestContextId):
			sc.contextID(&f, b)
		case tag(numActionRequestCommandRequests):
			if sc.commands {
				if err := sc.commandRequest(f.off(), f.end, d+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (sc *scanner) actionReply(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	sc.action()
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		var err error
		switch f.tag {
		case varintTag(numActionReplyContextId):
			sc.contextID(&f, b)
		case tag(numActionReplyErrorDescriptor):
			err = sc.errorDescriptor(f.off(), f.end, d+1)
		case tag(numActionReplyCommandReply):
			if sc.commands {
				err = sc.commandReply(f.off(), f.end, d+1)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// action starts an action (request or reply) of the last transaction.
func (sc *scanner) action() {
	sc.s.Actions = append(sc.s.Actions, scan.Action{Tx: len(sc.s.Transactions) - 1})
	sc.cmd = -1
}

// contextID records the context ID of the last action, a varint field f.
func (sc *scanner) contextID(f *field, b []byte) {
	a := &sc.s.Actions[len(sc.s.Actions)-1]
	a.ContextID, a.Span = uint32(f.v), f.varintSpan(b)
}

func (sc *scanner) errorDescriptor(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	sc.s.Errors = append(sc.s.Errors, scan.Error{Tx: len(sc.s.Transactions) - 1, Command: sc.cmd})
	e := &sc.s.Errors[len(sc.s.Errors)-1]
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		if f.tag == varintTag(numErrorDescriptorErrorCode) {
			e.Code, e.Span = uint16(f.v), f.varintSpan(b)
		}
	}
	return nil
}

// The commands.

func (sc *scanner) commandRequest(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		switch f.tag {
		case tag(numCommandRequestCommand):
			if err := sc.command(commandRequests[:], false, f.off(), f.end, d+1); err != nil {
				return err
			}
		case varintTag(numCommandRequestOptional):
			if sc.cmd >= 0 {
				sc.s.Commands[sc.cmd].Optional = f.v != 0
			}
		case varintTag(numCommandRequestWildcardReturn):
			if sc.cmd >= 0 {
				sc.s.Commands[sc.cmd].Wildcard = f.v != 0
			}
		}
	}
	return nil
}

// commandPart is a command's kind and the message type of its value, by
// its field in Command (commandRequests) or CommandReply
// (commandReplies).
type commandPart struct {
	kind scan.CommandKind
	part *part
}

var (
	commandRequests = [...]commandPart{
		numCommandAddReq: {scan.Add, &ammRequest}, numCommandMoveReq: {scan.Move, &ammRequest},
		numCommandModReq: {scan.Modify, &ammRequest}, numCommandSubtractReq: {scan.Subtract, &subtractRequest},
		numCommandAuditCapRequest: {scan.AuditCapability, &auditRequest}, numCommandAuditValueRequest: {scan.AuditValue, &auditRequest},
		numCommandNotifyReq: {scan.Notify, &notifyRequest}, numCommandServiceChangeReq: {scan.ServiceChange, &serviceChangeRequest},
	}
	commandReplies = [...]commandPart{
		numCommandReplyAddReply: {scan.Add, &ammsReply}, numCommandReplyMoveReply: {scan.Move, &ammsReply},
		numCommandReplyModReply: {scan.Modify, &ammsReply}, numCommandReplySubtractReply: {scan.Subtract, &ammsReply},
		numCommandReplyAuditCapReply: {scan.AuditCapability, &auditReply}, numCommandReplyAuditValueReply: {scan.AuditValue, &auditReply},
		numCommandReplyNotifyReply: {scan.Notify, &notifyReply}, numCommandReplyServiceChangeReply: {scan.ServiceChange, &serviceChangeReply},
	}
)

// command reads a Command or a CommandReply, table the kinds of its
// fields.
func (sc *scanner) command(table []commandPart, reply bool, start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		if n := f.tag >> 3; f.tag&7 == uint64(protowire.BytesType) && n < uint64(len(table)) && table[n].kind != 0 {
			c := &table[n]
			sc.cmd = len(sc.s.Commands)
			sc.s.Commands = append(sc.s.Commands, scan.Command{Action: len(sc.s.Actions) - 1, Kind: c.kind, Reply: reply})
			if sc.inside {
				if err := sc.part(c.part, f.off(), f.end, d+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// commandReply reads the repeated CommandReply field of an action reply.
func (sc *scanner) commandReply(start, end, d int) error {
	return sc.command(commandReplies[:], true, start, end, d)
}

// part is where a command's or reply's value, or a part of it, has what
// the scan reports: the tags of its fields that hold a termination ID, a
// list of them (wrapped or repeated), an error descriptor, audit results
// and so on; 0 for none.
type part struct {
	term, termList, contextResult, err, audit, result, auditResult, termListResult uint64
	wrapped, auditWrapped                                                          bool
}

var (
	ammRequest      = part{termList: tag(numAmmRequestTerminationID), wrapped: wrappedAmmRequestTerminationID}
	subtractRequest = part{termList: tag(numSubtractRequestTerminationID), wrapped: wrappedSubtractRequestTerminationID}
	auditRequest    = part{term: tag(numAuditRequestTerminationID), termList: tag(numAuditRequestTerminationIDList),
		wrapped: wrappedAuditRequestTerminationIDList}
	notifyRequest = part{termList: tag(numNotifyRequestTerminationID), wrapped: wrappedNotifyRequestTerminationID,
		err: tag(numNotifyRequestErrorDescriptor)}
	serviceChangeRequest = part{termList: tag(numServiceChangeRequestTerminationID), wrapped: wrappedServiceChangeRequestTerminationID}
	ammsReply            = part{termList: tag(numAmmsReplyTerminationID), wrapped: wrappedAmmsReplyTerminationID,
		audit: tag(numAmmsReplyTerminationAudit), auditWrapped: wrappedAmmsReplyTerminationAudit}
	notifyReply = part{termList: tag(numNotifyReplyTerminationID), wrapped: wrappedNotifyReplyTerminationID,
		err: tag(numNotifyReplyErrorDescriptor)}
	serviceChangeReply = part{termList: tag(numServiceChangeReplyTerminationID), wrapped: wrappedServiceChangeReplyTerminationID,
		result: tag(numServiceChangeReplyServiceChangeResult)}
	serviceChangeResult = part{err: tag(numServiceChangeResultErrorDescriptor)}
	auditReply          = part{contextResult: tag(numAuditReplyContextAuditResult), err: tag(numAuditReplyError),
		auditResult: tag(numAuditReplyAuditResult), termListResult: tag(numAuditReplyAuditResultTermList)}
	auditResult = part{term: tag(numAuditResultTerminationID), audit: tag(numAuditResultTerminationAuditResult),
		auditWrapped: wrappedAuditResultTerminationAuditResult}
	termListAuditResult = part{termList: tag(numTermListAuditResultTerminationIDList), wrapped: wrappedTermListAuditResultTerminationIDList,
		audit: tag(numTermListAuditResultTerminationAuditResult), auditWrapped: wrappedTermListAuditResultTerminationAuditResult}
	auditReturnParameter = part{err: tag(numAuditReturnParameterErrorDescriptor)}
)

// part reads a message of the kind pt describes.
func (sc *scanner) part(pt *part, start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		if f.tag&7 == uint64(protowire.BytesType) {
			v, vend := f.off(), f.end
			var err error
			switch f.tag {
			case pt.term:
				err = sc.terminationID(v, vend, d+1)
			case pt.termList:
				err = sc.list(nil, pt.wrapped, v, vend, d+1)
			case pt.contextResult:
				err = sc.list(nil, wrappedAuditReplyContextAuditResult, v, vend, d+1)
			case pt.err:
				err = sc.errorDescriptor(v, vend, d+1)
			case pt.audit:
				err = sc.list(&auditReturnParameter, pt.auditWrapped, v, vend, d+1)
			case pt.result:
				err = sc.part(&serviceChangeResult, v, vend, d+1)
			case pt.auditResult:
				err = sc.part(&auditResult, v, vend, d+1)
			case pt.termListResult:
				err = sc.part(&termListAuditResult, v, vend, d+1)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// list reads a list field's value: the items of kind pt (termination IDs
// when nil), one in a repeated field's occurrence or all in a wrapper's
// field 1.
func (sc *scanner) list(pt *part, wrapped bool, start, end, d int) error {
	if !wrapped {
		return sc.item(pt, start, end, d)
	}
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		if f.tag == tag(1) {
			if err := sc.item(pt, f.off(), f.end, d+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func (sc *scanner) item(pt *part, start, end, d int) error {
	if pt == nil {
		return sc.terminationID(start, end, d)
	}
	return sc.part(pt, start, end, d)
}

func (sc *scanner) terminationID(start, end, d int) error {
	if err := sc.enter(start, d); err != nil {
		return err
	}
	b := sc.w
	sc.s.Terminations = append(sc.s.Terminations, scan.Termination{Command: sc.cmd})
	t := &sc.s.Terminations[len(sc.s.Terminations)-1]
	var f field
	for p := start; p < end; p = f.end {
		if f = next(b, p, end); f.end == 0 && !f.slow(b, p, end) {
			return malformed(b, p, end)
		}
		switch f.tag {
		case tag(numTerminationIDWildcard):
			t.Wildcarded = true
		case tag(numTerminationIDId):
			t.ID, t.Span = f.val(b), f.span()
		}
	}
	return nil
}
