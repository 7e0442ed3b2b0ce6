package ber

import (
	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// Scan fills s (after resetting it) with what package scan reports of a
// BER MegacoMessage, without decoding it: it walks the TLVs down the path
// to the IDs (message, transactions, actions, commands, termination IDs,
// error descriptors) and hops over everything else by its length. The
// tags come from the ASN.1 modules (scantags_gen.go). Definite and
// indefinite lengths are read as the decoder reads them, within lim.
//
// It reads down to s.Want and no further: below it, a transaction's
// actions, an action's commands or a command's contents are hopped over
// whole, unchecked.
//
// Byte values in s alias data, except a segmented (constructed) OCTET
// STRING, which no encoder we know writes, and which is joined into new
// memory.
func Scan(data []byte, s *scan.Summary, lim limits.Limits) error {
	s.Reset()
	lim = lim.OrDefault()
	if leanOK(data, lim) {
		if leanScan(data, s) {
			return nil
		}
		s.Reset()
	}
	if err := lim.CheckSize("ber", codecerr.AtByte(0), len(data)); err != nil {
		return err
	}
	sc := scanner{reader: reader{data: data, lim: lim}, s: s}
	return sc.message()
}

// scanner is a reader that fills a Summary.
type scanner struct {
	reader
	t  *scanTagSet
	sh *shapeSet
	s  *scan.Summary
	// lastAcks, when not nil, collects the acknowledged ranges' lastAck
	// with its span, which a Summary does not have (Rewrite needs it).
	lastAcks *[]edit
}

// message reads the outer SEQUENCE and the version, which chooses the
// tags of everything below.
func (d *scanner) message() error {
	var h header
	if err := d.next(&h, 0, len(d.data)); err != nil {
		return err
	}
	if h.next != len(d.data) {
		return d.errorf(h.next, "%d bytes after the message", len(d.data)-h.next)
	}
	if h.tag != 16 || !h.cons {
		return d.unexpected(h, "[UNIVERSAL 16] (MegacoMessage)")
	}
	if err := d.enter(&h); err != nil {
		return err
	}
	var e header
	for off := h.start; off < h.end; off = e.next {
		if err := d.next(&e, off, h.end); err != nil {
			return err
		}
		if e.tag == anyVersion.MegacoMessageMess {
			return d.mess(&e)
		}
	}
	return d.missing(&h, "mess")
}

// anyVersion has the tags down to the version, which are every version's
// (init checks): the version then chooses the tags of the rest.
var anyVersion = &scanTags[limits.MaxVersion]

func (d *scanner) mess(h *header) error {
	if err := d.enter(h); err != nil {
		return err
	}
	var e header
	if err := d.version(h, &e); err != nil {
		return codecerr.At(err, "mess")
	}
	seen := 0
	for off := e.next; off < h.end; off = e.next {
		if err := d.next(&e, off, h.end); err != nil {
			return err
		}
		var err error
		switch e.tag {
		case d.t.MessageMId:
			seen |= 1
			err = d.mid(&e)
		case d.t.MessageMessageBody:
			seen |= 2
			err = d.body(&e)
		}
		if err != nil {
			return err
		}
	}
	switch {
	case seen&1 == 0:
		return d.missing(h, "mId")
	case seen&2 == 0:
		return d.missing(h, "messageBody")
	}
	d.leave()
	return nil
}

// version reads the version, the first component of Message (into e).
func (d *scanner) version(h, e *header) error {
	if h.start >= h.end {
		return d.missing(h, "version")
	}
	if err := d.next(e, h.start, h.end); err != nil {
		return err
	}
	if e.tag != anyVersion.MessageVersion {
		return codecerr.At(d.unexpected(*e, "[0]"), "version")
	}
	v, err := d.integer(e, 0, 99)
	if err != nil {
		return codecerr.At(err, "version")
	}
	if !limits.ValidVersion(int(v)) {
		return limits.VersionError("ber", codecerr.Decode, codecerr.AtByte(e.start), int(v))
	}
	d.s.Version, d.t, d.sh = int(v), &scanTags[v], &shapes[v]
	return nil
}

func (d *scanner) mid(h *header) error {
	var a header
	if err := d.explicit(&a, h, anyTag); err != nil {
		return codecerr.At(err, "mId")
	}
	m := &d.s.MID
	m.Port, m.Span = -1, scan.Span{Off: a.off, Len: a.next - a.off}
	m.Kind = scan.MIDKind(alternative(a.tag, d.t.MId[:]))
	switch m.Kind {
	case scan.DeviceName, scan.MTPAddress:
		v, err := d.octets(a)
		m.Value = v
		return err
	case scan.IP4Address, scan.IP6Address, scan.DomainName:
		// The address (or name) first, the port second.
		tags := d.sh.address[m.Kind]
		return d.parts(&a, []part{{tags[0], roleMIDValue}, {tags[1], roleMIDPort}}, -1)
	}
	return d.unknownAlternative(a, "extension alternative", "MId")
}

func (d *scanner) body(h *header) error {
	var a header
	if err := d.explicit(&a, h, anyTag); err != nil {
		return codecerr.At(err, "messageBody")
	}
	switch a.tag {
	case d.t.MessageMessageBodyMessageError:
		return d.errorDescriptor(&a, -1, -1)
	case d.t.MessageMessageBodyTransactions:
	default:
		return d.unknownAlternative(a, "alternative", "messageBody")
	}
	if err := d.enter(&a); err != nil {
		return err
	}
	var e header
	for off := a.start; off < a.end; off = e.next {
		if err := d.next(&e, off, a.end); err != nil {
			return err
		}
		if err := d.transaction(&e); err != nil {
			return codecerr.At(err, "transactions")
		}
	}
	d.leave()
	return nil
}

// alternative is the position (from 1) of tag among a CHOICE's
// alternatives' tags, 0 when none has it.
func alternative(tag uint32, alts []uint32) int {
	for i, t := range alts {
		if t == tag {
			return i + 1
		}
	}
	return 0
}

func (d *scanner) transaction(h *header) error {
	kind := scan.TxKind(alternative(h.tag, d.t.Transaction[:]))
	if kind == scan.ResponseAck {
		return d.acks(h)
	}
	if kind == 0 {
		return d.unknownAlternative(*h, "extension alternative", "Transaction")
	}
	if err := d.enter(h); err != nil {
		return err
	}
	tx := len(d.s.Transactions)
	d.s.Transactions = append(d.s.Transactions, scan.Transaction{Kind: kind})
	var e header
	hasID := false
	for off := h.start; off < h.end; off = e.next {
		if err := d.next(&e, off, h.end); err != nil {
			return err
		}
		if e.tag == d.sh.txID[kind] && !hasID {
			hasID = true
			if err := d.txID(&e, tx); err != nil {
				return err
			}
			if kind == scan.Request && !d.s.Want.Reaches(scan.Actions) {
				break // the rest is the actions
			}
			continue
		}
		if err := d.txPart(kind, &e, tx); err != nil {
			return err
		}
	}
	return d.done(h, hasID, "transactionId")
}

// done leaves SEQUENCE h, or reports its mandatory field missing when
// it was not seen.
func (d *scanner) done(h *header, seen bool, field string) error {
	if !seen {
		return d.missing(h, field)
	}
	d.leave()
	return nil
}

func (d *scanner) txID(e *header, tx int) error {
	// The common ID (up to four octets, not negative) without the call
	// of integer: one per transaction.
	id, ok := d.smallInt(e)
	if !ok || id < 0 {
		var err error
		if id, err = d.integer(e, 0, 1<<32-1); err != nil {
			return codecerr.At(err, "transactionId")
		}
	}
	t := &d.s.Transactions[tx]
	t.ID, t.LastID, t.IDSpan = uint32(id), uint32(id), span(e)
	return nil
}

func span(e *header) scan.Span { return scan.Span{Off: e.start, Len: e.end - e.start} }

// txPart reads a component of a transaction after its ID.
func (d *scanner) txPart(kind scan.TxKind, e *header, tx int) error {
	t, tags := &d.s.Transactions[tx], d.t
	switch {
	case kind == scan.Request && e.tag == tags.TransactionRequestActions:
		if !d.s.Want.Reaches(scan.Actions) {
			return nil
		}
		return d.list(e, tx, elemActionRequest)
	case kind == scan.Reply && e.tag == tags.TransactionReplyImmAckRequired:
		t.ImmAckRequired = true
	case kind == scan.Reply && e.tag == tags.TransactionReplyTransactionResult:
		return d.result(e, tx)
	case kind == scan.Reply && e.tag == tags.TransactionReplySegmentNumber,
		kind == scan.SegmentReply && e.tag == tags.SegmentReplySegmentNumber:
		n, err := d.integer(e, 0, 65535)
		if err != nil {
			return codecerr.At(err, "segmentNumber")
		}
		t.Segment = uint16(n)
	case kind == scan.Reply && e.tag == tags.TransactionReplySegmentationComplete,
		kind == scan.SegmentReply && e.tag == tags.SegmentReplySegmentationComplete:
		t.Complete = true
	}
	return nil
}

// elem says what the elements of a SEQUENCE OF are. (A switch rather
// than a function value: through a function value the scanner and its
// headers would escape to the heap.)
type elem uint8

const (
	elemAck elem = iota
	elemActionRequest
	elemActionReply
	elemCommandRequest
	elemCommandReply
	elemTerm        // a TerminationID
	elemAuditReturn // an AuditReturnParameter: only its error descriptor is read
)

// list reads the elements of a SEQUENCE OF; i is the index of the
// transaction (actions), action (commands) or command (terminations,
// audit returns) they belong to.
func (d *scanner) list(h *header, i int, what elem) error {
	if err := d.enter(h); err != nil {
		return err
	}
	var e header
	for off := h.start; off < h.end; off = e.next {
		if err := d.next(&e, off, h.end); err != nil {
			return err
		}
		var err error
		switch what {
		case elemAck:
			err = d.ack(&e)
		case elemActionRequest:
			err = d.action(&e, i, d.t.ActionRequestContextId, d.t.ActionRequestCommandRequests, noTag, elemCommandRequest)
		case elemActionReply:
			err = d.action(&e, i, d.t.ActionReplyContextId, d.t.ActionReplyCommandReply, d.t.ActionReplyErrorDescriptor, elemCommandReply)
		case elemCommandRequest:
			err = d.commandRequest(&e, i)
		case elemCommandReply:
			err = d.commandReply(&e, i)
		case elemTerm:
			err = d.term(&e, i)
		case elemAuditReturn:
			if e.tag == d.t.AuditReturnParameterErrorDescriptor {
				err = d.errorDescriptor(&e, -1, i)
			}
		}
		if err != nil {
			return err
		}
	}
	d.leave()
	return nil
}

// acks reads a TransactionResponseAck: one Transaction per range.
func (d *scanner) acks(h *header) error {
	return d.list(h, 0, elemAck)
}

func (d *scanner) ack(h *header) error {
	if err := d.enter(h); err != nil {
		return err
	}
	tx := len(d.s.Transactions)
	d.s.Transactions = append(d.s.Transactions, scan.Transaction{Kind: scan.ResponseAck})
	var e header
	hasID := false
	for off := h.start; off < h.end; off = e.next {
		if err := d.next(&e, off, h.end); err != nil {
			return err
		}
		switch e.tag {
		case d.t.TransactionAckFirstAck:
			hasID = true
			if err := d.txID(&e, tx); err != nil {
				return codecerr.At(err, "firstAck")
			}
		case d.t.TransactionAckLastAck:
			last, err := d.integer(&e, 0, 1<<32-1)
			if err != nil {
				return codecerr.At(err, "lastAck")
			}
			d.s.Transactions[tx].LastID = uint32(last)
			if d.lastAcks != nil {
				*d.lastAcks = append(*d.lastAcks, edit{span: span(&e), v: uint32(last)})
			}
		}
	}
	return d.done(h, hasID, "firstAck")
}

// result reads a reply's transactionResult: an error or action replies.
func (d *scanner) result(h *header, tx int) error {
	var a header
	if err := d.explicit(&a, h, anyTag); err != nil {
		return codecerr.At(err, "transactionResult")
	}
	switch a.tag {
	case d.t.TransactionReplyTransactionResultTransactionError:
		return d.errorDescriptor(&a, tx, -1)
	case d.t.TransactionReplyTransactionResultActionReplies:
		if !d.s.Want.Reaches(scan.Actions) {
			return nil
		}
		return d.list(&a, tx, elemActionReply)
	}
	return d.unknownAlternative(a, "alternative", "transactionResult")
}

// action reads an ActionRequest or ActionReply: the context ID, an
// action reply's error, and the commands (with cmd).
func (d *scanner) action(h *header, tx int, idTag, cmdTag, errTag uint32, cmds elem) error {
	if err := d.enter(h); err != nil {
		return err
	}
	act := len(d.s.Actions)
	d.s.Actions = append(d.s.Actions, scan.Action{Tx: tx})
	// rest: something after the context ID is wanted (a reply's error
	// descriptor, the commands).
	rest := errTag != noTag || d.s.Want.Reaches(scan.Commands)
	var e header
	hasID := false
	for off := h.start; off < h.end && (rest || !hasID); off = e.next {
		if err := d.next(&e, off, h.end); err != nil {
			return err
		}
		var err error
		switch e.tag {
		case idTag:
			hasID = true
			var id int64
			id, err = d.integer(&e, 0, 1<<32-1)
			a := &d.s.Actions[act]
			a.ContextID, a.Span = uint32(id), span(&e)
		case cmdTag:
			if d.s.Want.Reaches(scan.Commands) {
				err = d.list(&e, act, cmds)
			}
		case errTag:
			err = d.errorDescriptor(&e, tx, -1)
		}
		if err != nil {
			return err
		}
	}
	return d.done(h, hasID, "contextId")
}

func (d *scanner) commandRequest(h *header, act int) error {
	if err := d.enter(h); err != nil {
		return err
	}
	cmd := len(d.s.Commands)
	d.s.Commands = append(d.s.Commands, scan.Command{Action: act})
	c := &d.s.Commands[cmd]
	var e header
	for off := h.start; off < h.end; off = e.next {
		if err := d.next(&e, off, h.end); err != nil {
			return err
		}
		switch e.tag {
		case d.t.CommandRequestCommand:
			var a header
			if err := d.explicit(&a, &e, anyTag); err != nil {
				return codecerr.At(err, "command")
			}
			c.Kind = scan.CommandKind(alternative(a.tag, d.t.Command[:]))
			if c.Kind == 0 {
				return d.unknownAlternative(a, "extension alternative", "Command")
			}
			if err := d.inside(&a, d.sh.request[c.Kind], cmd); err != nil {
				return err
			}
		case d.t.CommandRequestOptional:
			c.Optional = true
		case d.t.CommandRequestWildcardReturn:
			c.Wildcard = true
		}
	}
	if c.Kind == 0 {
		return d.missing(h, "command")
	}
	d.leave()
	return nil
}

func (d *scanner) commandReply(h *header, act int) error {
	cmd := len(d.s.Commands)
	kind := scan.CommandKind(alternative(h.tag, d.t.CommandReply[:]))
	if kind == 0 {
		return d.unknownAlternative(*h, "extension alternative", "CommandReply")
	}
	d.s.Commands = append(d.s.Commands, scan.Command{Action: act, Kind: kind, Reply: true})
	if !d.s.Want.Reaches(scan.Everything) {
		return nil
	}
	if kind == scan.AuditCapability || kind == scan.AuditValue {
		return d.part(h, roleAuditReply, cmd)
	}
	return d.parts(h, d.sh.reply[kind], cmd)
}

// inside reads what is inside a command request (h, with shape) when the
// caller wants it.
func (d *scanner) inside(h *header, shape []part, cmd int) error {
	if !d.s.Want.Reaches(scan.Everything) {
		return nil
	}
	return d.parts(h, shape, cmd)
}

// errorDescriptor appends the error code of an ErrorDescriptor; cmd -1
// is outside a command (the transaction is then tx).
func (d *scanner) errorDescriptor(h *header, tx, cmd int) error {
	if cmd >= 0 {
		tx = d.s.Actions[d.s.Commands[cmd].Action].Tx
	}
	if err := d.enter(h); err != nil {
		return err
	}
	var e header
	for off := h.start; off < h.end; off = e.next {
		if err := d.next(&e, off, h.end); err != nil {
			return err
		}
		if e.tag == d.t.ErrorDescriptorErrorCode {
			code, err := d.integer(&e, 0, 65535)
			if err != nil {
				return codecerr.At(err, "errorCode")
			}
			d.s.Errors = append(d.s.Errors, scan.Error{Tx: tx, Command: cmd, Code: uint16(code), Span: span(&e)})
			d.leave()
			return nil
		}
	}
	return d.missing(h, "errorCode")
}

// term appends a TerminationID of command cmd.
func (d *scanner) term(h *header, cmd int) error {
	if err := d.enter(h); err != nil {
		return err
	}
	t := scan.Termination{Command: cmd}
	var e header
	hasID := false
	for off := h.start; off < h.end; off = e.next {
		if err := d.next(&e, off, h.end); err != nil {
			return err
		}
		switch e.tag {
		case d.t.TerminationIDWildcard:
			t.Wildcarded = e.end > e.start
		case d.t.TerminationIDId:
			v, err := d.octets(e)
			if err != nil {
				return codecerr.At(err, "id")
			}
			hasID, t.ID, t.Span = true, v, span(&e)
		}
	}
	if !hasID {
		return d.missing(h, "id")
	}
	d.s.Terminations = append(d.s.Terminations, t)
	d.leave()
	return nil
}
