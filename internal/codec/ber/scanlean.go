package ber

import (
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// The lean scanner is Scan's fast path, for input in the encoder's form
// within generous limits: every header it reads has a low tag number and
// a definite, minimal length of up to two octets, and holds what the
// encoder writes there, in the schema's order. It reads a header as raw
// octets, compares the identifier octet with what it expects (class,
// constructed bit and tag number in one), keeps its place in locals, and
// never builds an error: at anything else it gives up, and Scan starts
// again with the general scanner (scan.go), which reads every form BER
// allows and reports what is wrong with an offset.
//
// It reads no more than the general scanner, often less: past the last
// component it wants in a SEQUENCE it hops to the end without reading
// the headers in between. What it reads, it checks as the general
// scanner does. Its Summary is the general scanner's for any input both
// accept (the corpus tests and FuzzScan compare both with FromModel).
//
// Limits: it does not count elements nor nesting. Each header takes two
// octets at least and is read once, so it reads at most len(data)/2
// headers; its nesting is bounded by the schema's (leanDepth). Scan takes
// the lean path only when neither can reach the limits.

// leanDepth bounds the nesting of the elements the lean scanner enters:
// the deepest path is MegacoMessage, mess, messageBody, transactions, a
// reply, its transactionResult, actionReplies, an ActionReply, its
// commandReply, an audit reply, its AuditReply, auditResult,
// terminationAuditResult, an errorDescriptor: 14 (with room to spare).
const leanDepth = 16

// lean is the lean scanner's state: what does not change during a scan.
type lean struct {
	data []byte
	s    *scan.Summary
	id   *leanIDs
	// The depths wanted: actions, commands, everything.
	actions, commands, everything bool
	// edits, when not nil, collects the edits of a Rewrite, in the order
	// of the input: the transaction IDs (and acknowledged ranges' ends)
	// by txIDs, the context IDs but the special ones by ctxIDs.
	edits         *[]edit
	txIDs, ctxIDs func(uint32) uint32
	// skipMID: the caller does not read s.MID (a Rewrite that keeps the
	// mId), which is then hopped over unread.
	skipMID bool
}

// leanIDs are one version's identifier octets, made from its tags; 0xff
// for a component the version lacks (it matches nothing: the lean
// scanner rejects a high tag number before it compares).
type leanIDs struct {
	auth, mess, version, mId, body    byte                  // the same in every version (init checks)
	tx                                [256]scan.TxKind      // a Transaction's alternative, by identifier
	command, reply                    [256]scan.CommandKind // a Command's, a CommandReply's alternative
	mid                               [256]scan.MIDKind     // an MId's alternative
	txID                              [6]byte               // by scan.TxKind: the transactionId's (a ResponseAck's firstAck)
	actReqID, actRepID                byte                  // the contextIds
	errCode                           byte
	cmdCommand                        byte
	replyImmAck, replyResult          byte
	replySegNum, replySegDone         byte
	segNum, segDone                   byte
	resultError, resultActions        byte
	reqActions                        byte
	actReqCmds                        byte
	actRepErr, actRepCmds             byte
	cmdOptional, cmdWildcard          byte
	bodyError, bodyTransactions       byte
	lastAck                           byte
	termWildcard, termID              byte
	auditReturnError, scResultError   byte
	address                           [6][2]byte // by scan.MIDKind: the address's and the port's
	requestParts, replyParts          [9][]leanPart
	auditReply, auditResult, tlResult []leanPart
}

// leanPart is a shape's part (scanshape.go) by identifier octet: every
// part the scanner reads is constructed.
type leanPart struct {
	id   byte
	role role
}

var leanTables [4]leanIDs

// leanFirst has the identifiers down to the version (the version then
// chooses the table).
var leanFirst = &leanTables[limits.MaxVersion]

func init() {
	for v := 1; v < len(scanTags); v++ {
		sh := newShapes(&scanTags[v]) // shapes may not be made yet: init runs file by file
		leanTables[v] = newLeanIDs(&scanTags[v], &sh)
	}
	for v := 1; v < len(scanTags); v++ {
		if l := &leanTables[v]; l.mId != leanFirst.mId || l.body != leanFirst.body {
			panic("ber: the lean scanner reads the mId and body before it knows the version's tags, and they differ")
		}
	}
}

// identifier is the identifier octet of tag, constructed or not; 0xff
// for noTag (and a high tag number, which the schema has none of).
func identifier(tag uint32, cons bool) byte {
	if tag == noTag || tag&(1<<30-1) >= 0x1f {
		return 0xff
	}
	id := byte(tag>>30)<<6 | byte(tag)
	if cons {
		id |= 0x20
	}
	return id
}

func newLeanIDs(t *scanTagSet, sh *shapeSet) leanIDs {
	var l leanIDs
	for i, tag := range t.Transaction {
		if id := identifier(tag, true); id != 0xff {
			l.tx[id] = scan.TxKind(i + 1)
		}
	}
	for i, tag := range t.MId {
		if id := identifier(tag, i < 3); id != 0xff { // the addresses are SEQUENCEs, the names strings
			l.mid[id] = scan.MIDKind(i + 1)
		}
	}
	for k, tag := range sh.txID {
		l.txID[k] = identifier(tag, false)
	}
	l.txID[scan.ResponseAck] = identifier(t.TransactionAckFirstAck, false)
	l.actReqID, l.actRepID = identifier(t.ActionRequestContextId, false), identifier(t.ActionReplyContextId, false)
	l.errCode, l.cmdCommand = identifier(t.ErrorDescriptorErrorCode, false), identifier(t.CommandRequestCommand, true)
	for i := range t.Command {
		if id := identifier(t.Command[i], true); id != 0xff {
			l.command[id] = scan.CommandKind(i + 1)
		}
		if id := identifier(t.CommandReply[i], true); id != 0xff {
			l.reply[id] = scan.CommandKind(i + 1)
		}
	}
	prim, cons := func(tag uint32) byte { return identifier(tag, false) }, func(tag uint32) byte { return identifier(tag, true) }
	l.auth, l.mess, l.version = cons(t.MegacoMessageAuthHeader), cons(t.MegacoMessageMess), prim(t.MessageVersion)
	l.mId, l.body = cons(t.MessageMId), cons(t.MessageMessageBody)
	l.replyImmAck, l.replyResult = prim(t.TransactionReplyImmAckRequired), cons(t.TransactionReplyTransactionResult)
	l.replySegNum, l.replySegDone = prim(t.TransactionReplySegmentNumber), prim(t.TransactionReplySegmentationComplete)
	l.segNum, l.segDone = prim(t.SegmentReplySegmentNumber), prim(t.SegmentReplySegmentationComplete)
	l.resultError, l.resultActions = cons(t.TransactionReplyTransactionResultTransactionError), cons(t.TransactionReplyTransactionResultActionReplies)
	l.reqActions, l.actReqCmds = cons(t.TransactionRequestActions), cons(t.ActionRequestCommandRequests)
	l.actRepErr, l.actRepCmds = cons(t.ActionReplyErrorDescriptor), cons(t.ActionReplyCommandReply)
	l.cmdOptional, l.cmdWildcard = prim(t.CommandRequestOptional), prim(t.CommandRequestWildcardReturn)
	l.bodyError, l.bodyTransactions = cons(t.MessageMessageBodyMessageError), cons(t.MessageMessageBodyTransactions)
	l.lastAck = prim(t.TransactionAckLastAck)
	l.termWildcard, l.termID = cons(t.TerminationIDWildcard), prim(t.TerminationIDId)
	l.auditReturnError, l.scResultError = cons(t.AuditReturnParameterErrorDescriptor), cons(t.ServiceChangeResultErrorDescriptor)
	for k, a := range sh.address {
		l.address[k] = [2]byte{prim(a[0]), prim(a[1])}
	}
	parts := func(ps []part) []leanPart {
		out := make([]leanPart, len(ps))
		for i, p := range ps {
			out[i] = leanPart{cons(p.tag), p.role}
		}
		return out
	}
	for k := range sh.request {
		l.requestParts[k], l.replyParts[k] = parts(sh.request[k]), parts(sh.reply[k])
	}
	l.auditReply, l.auditResult, l.tlResult = parts(sh.auditReply), parts(sh.auditResult), parts(sh.termListResult)
	return l
}

// leanOK reports whether the lean scanner may scan data within lim (as
// OrDefault gives it: no zero field): the input is within the size, and
// the scanner cannot reach the limits it does not check.
func leanOK(data []byte, lim limits.Limits) bool {
	return len(data) <= lim.MaxSize && len(data) <= 2*lim.MaxElements && lim.MaxDepth >= leanDepth
}

// leanUint reads an INTEGER's contents data[start:stop] of 0..2^32-1 (as
// the general scanner's integer reads it, but for redundant leading
// octets beyond the fifth). It is inlined.
func leanUint(data []byte, start, stop int) (v uint32, ok bool) {
	c := data[start:stop]
	if uint(len(c)-1) > 4 || c[0] >= 0x80 || len(c) == 5 && c[0] != 0 {
		return
	}
	for _, x := range c {
		v = v<<8 | uint32(x)
	}
	return v, true
}

// otherForm reports whether id is want's tag in the other form
// (primitive for constructed, or the reverse): the lean scanner then
// gives up rather than hop over it, and the general scanner, which
// compares tags whatever their form, says what is wrong with it.
func otherForm(id, want byte) bool { return id != want && id^0x20 == want }

// leanScan is the lean scanner's Scan: false when it gave up (s is then
// partly filled).
func leanScan(data []byte, s *scan.Summary) bool {
	d := lean{data: data, s: s}
	d.want(s.Want)
	return d.message()
}

func newLean(data []byte, s *scan.Summary) lean {
	d := lean{data: data, s: s}
	d.want(s.Want)
	return d
}

func (d *lean) want(w scan.Depth) {
	d.actions, d.commands, d.everything = w.Reaches(scan.Actions), w.Reaches(scan.Commands), w.Reaches(scan.Everything)
}

// edit appends the edit that writes v over the INTEGER data[start:stop].
func (d *lean) edit(start, stop int, v uint32) {
	*d.edits = append(*d.edits, edit{span: scan.Span{Off: start, Len: stop - start}, v: v})
}

func (d *lean) message() bool {
	data := d.data
	id, start, end := hdr(data, 0, len(data))
	if id != 0x30 {
		id, start, end = hdrSlow(data, 0, len(data))
	}
	if id != 0x30 || end != len(data) {
		return false
	}
	id, s, e := hdr(data, start, end)
	if id == bad {
		id, s, e = hdrSlow(data, start, end)
	}
	if id == leanFirst.auth {
		at := e
		if id, s, e = hdr(data, at, end); id == bad {
			id, s, e = hdrSlow(data, at, end)
		}
	}
	if id != leanFirst.mess {
		return false
	}
	return d.mess(s, e)
}

// mess reads the Message in data[off:end]: version, mId and messageBody,
// in this order; it does not look past them.
func (d *lean) mess(off, end int) bool {
	data := d.data
	id, start, stop := hdr(data, off, end)
	if id != leanFirst.version {
		if id, start, stop = hdrSlow(data, off, end); id != leanFirst.version {
			return false
		}
	}
	v, ok := leanUint(data, start, stop)
	if !ok || !limits.ValidVersion(int(v)) {
		return false
	}
	d.s.Version, d.id = int(v), &leanTables[v]
	at := stop
	id, start, stop = hdr(data, at, end)
	if id != leanFirst.mId {
		if id, start, stop = hdrSlow(data, at, end); id != leanFirst.mId {
			return false
		}
	}
	if !d.skipMID && !d.mid(start, stop) {
		return false
	}
	at = stop
	id, start, stop = hdr(data, at, end)
	if id != leanFirst.body {
		if id, start, stop = hdrSlow(data, at, end); id != leanFirst.body {
			return false
		}
	}
	return d.body(start, stop)
}

// explicit reads the one element inside an explicit tag's contents
// data[off:end].
func (d *lean) explicit(off, end int) (id byte, start, stop int, ok bool) {
	id, start, stop = hdr(d.data, off, end)
	if id == bad {
		id, start, stop = hdrSlow(d.data, off, end)
	}
	return id, start, stop, id != bad && stop == end
}

func (d *lean) mid(off, end int) bool {
	// explicit, without the call: once a message.
	id, start, stop := hdr(d.data, off, end)
	if id == bad {
		id, start, stop = hdrSlow(d.data, off, end)
	}
	if id == bad || stop != end {
		return false
	}
	m := &d.s.MID
	m.Port, m.Span = -1, scan.Span{Off: off, Len: stop - off}
	m.Kind = d.id.mid[id]
	switch m.Kind {
	case scan.DeviceName, scan.MTPAddress:
		m.Value = d.data[start:stop:stop]
		return true
	case 0:
		return false
	}
	// An address (or name) and an optional port.
	ids := &d.id.address[m.Kind]
	data := d.data
	id, s, e := hdr(data, start, stop)
	if id != ids[0] {
		if id, s, e = hdrSlow(data, start, stop); id != ids[0] {
			return false
		}
	}
	m.Value = data[s:e:e]
	if e == stop {
		return true
	}
	at := e
	id, s, e = hdr(data, at, stop)
	if id != ids[1] {
		id, s, e = hdrSlow(data, at, stop)
	}
	if id != ids[1] || e != stop {
		return false
	}
	p, ok := leanUint(data, s, e)
	m.Port = int(p)
	return ok && p <= 65535
}

func (d *lean) body(off, end int) bool {
	// explicit, without the call: once a message.
	id, start, stop := hdr(d.data, off, end)
	if id == bad {
		id, start, stop = hdrSlow(d.data, off, end)
	}
	switch {
	case id == bad || stop != end:
		return false
	case id == d.id.bodyError:
		return d.errorDescriptor(start, stop, -1, -1)
	case id != d.id.bodyTransactions:
		return false
	}
	data := d.data
	for off := start; off < stop; {
		id, s, e := hdr(data, off, stop)
		kind := d.id.tx[id]
		if kind == 0 {
			id, s, e = hdrSlow(data, off, stop)
			if kind = d.id.tx[id]; kind == 0 {
				return false
			}
		}
		var good bool
		if kind == scan.ResponseAck {
			good = d.list(s, e, 0, elemAck)
		} else {
			good = d.transaction(kind, s, e)
		}
		if !good {
			return false
		}
		off = e
	}
	return true
}

// transaction reads a request, pending, reply or segment reply: its ID
// first, then what the kind has.
func (d *lean) transaction(kind scan.TxKind, off, end int) bool {
	data := d.data
	want := d.id.txID[kind]
	id, s, e := hdr(data, off, end)
	if id != want {
		if id, s, e = hdrSlow(data, off, end); id != want {
			return false
		}
	}
	txID, ok := leanUint(data, s, e)
	if !ok {
		return false
	}
	tx := len(d.s.Transactions)
	d.s.Transactions = append(d.s.Transactions, scan.Transaction{Kind: kind, ID: txID, LastID: txID, IDSpan: scan.Span{Off: s, Len: e - s}})
	if d.txIDs != nil {
		d.edit(s, e, d.txIDs(txID))
	}
	switch kind {
	case scan.Request:
		if !d.actions {
			return true
		}
		at, want := e, d.id.reqActions
		id, s, e = hdr(data, at, end)
		if id != want {
			id, s, e = hdrSlow(data, at, end)
		}
		return id == want && d.actionRequests(tx, s, e)
	case scan.Reply:
		return d.reply(tx, e, end)
	case scan.SegmentReply:
		return d.segmentReply(tx, e, end)
	}
	return true
}

// reply reads the rest of a TransactionReply after its ID.
func (d *lean) reply(tx, off, end int) bool {
	data := d.data
	id, s, e := hdr(data, off, end)
	if id == bad {
		id, s, e = hdrSlow(data, off, end)
	}
	if id == d.id.replyImmAck {
		d.s.Transactions[tx].ImmAckRequired = true
		at := e
		if id, s, e = hdr(data, at, end); id == bad {
			id, s, e = hdrSlow(data, at, end)
		}
	}
	if id != d.id.replyResult || !d.result(tx, s, e) {
		return false
	}
	for off = e; off < end; off = e {
		if id, s, e = hdr(data, off, end); id == bad {
			if id, s, e = hdrSlow(data, off, end); id == bad {
				return false
			}
		}
		if otherForm(id, d.id.replySegNum) || otherForm(id, d.id.replySegDone) {
			return false
		}
		t := &d.s.Transactions[tx]
		switch id {
		case d.id.replySegNum:
			n, ok := leanUint(data, s, e)
			if !ok || n > 65535 {
				return false
			}
			t.Segment = uint16(n)
		case d.id.replySegDone:
			t.Complete = true
		}
	}
	return true
}

func (d *lean) result(tx, off, end int) bool {
	id, s, e, ok := d.explicit(off, end)
	switch {
	case !ok:
		return false
	case id == d.id.resultError:
		return d.errorDescriptor(s, e, tx, -1)
	case id != d.id.resultActions:
		return false
	case !d.actions:
		return true
	}
	return d.list(s, e, tx, elemActionReply)
}

// segmentReply reads the rest of a SegmentReply after its ID.
func (d *lean) segmentReply(tx, off, end int) bool {
	data, want := d.data, d.id.segNum
	id, s, e := hdr(data, off, end)
	if id != want {
		if id, s, e = hdrSlow(data, off, end); id != want {
			return false
		}
	}
	n, ok := leanUint(data, s, e)
	if !ok || n > 65535 {
		return false
	}
	t := &d.s.Transactions[tx]
	t.Segment = uint16(n)
	for off = e; off < end; off = e {
		if id, _, e = hdr(data, off, end); id == bad {
			if id, _, e = hdrSlow(data, off, end); id == bad {
				return false
			}
		}
		if otherForm(id, d.id.segDone) {
			return false
		}
		if id == d.id.segDone {
			t.Complete = true
		}
	}
	return true
}

func (d *lean) ack(off, end int) bool {
	data, want := d.data, d.id.txID[scan.ResponseAck]
	id, s, e := hdr(data, off, end)
	if id != want {
		if id, s, e = hdrSlow(data, off, end); id != want {
			return false
		}
	}
	first, ok := leanUint(data, s, e)
	if !ok {
		return false
	}
	t := scan.Transaction{Kind: scan.ResponseAck, ID: first, LastID: first, IDSpan: scan.Span{Off: s, Len: e - s}}
	if d.txIDs != nil {
		d.edit(s, e, d.txIDs(first))
	}
	if e < end {
		at, want := e, d.id.lastAck
		id, s, e = hdr(data, at, end)
		if id != want {
			id, s, e = hdrSlow(data, at, end)
		}
		if id != want || e != end {
			return false
		}
		if t.LastID, ok = leanUint(data, s, e); !ok {
			return false
		}
		if d.txIDs != nil {
			d.edit(s, e, d.txIDs(t.LastID))
		}
	}
	d.s.Transactions = append(d.s.Transactions, t)
	return true
}

// contextID reads an action's context ID (want), its first component,
// and appends the action.
func (d *lean) contextID(tx, off, end int, want byte) (int, bool) {
	data := d.data
	id, s, e := hdr(data, off, end)
	if id != want {
		if id, s, e = hdrSlow(data, off, end); id != want {
			return 0, false
		}
	}
	v, ok := leanUint(data, s, e)
	d.s.Actions = append(d.s.Actions, scan.Action{Tx: tx, ContextID: v, Span: scan.Span{Off: s, Len: e - s}})
	if d.ctxIDs != nil && !scan.Special(v) {
		d.edit(s, e, d.ctxIDs(v))
	}
	return e, ok
}

// actionRequests reads the ActionRequests of transaction tx in
// data[off:end]: each one's context ID and, when wanted, commands.
func (d *lean) actionRequests(tx, off, end int) bool {
	data := d.data
	for off < end {
		id, s, next := hdr(data, off, end)
		if id&0x20 == 0 {
			if id, s, next = hdrSlow(data, off, end); id&0x20 == 0 {
				return false
			}
		}
		e, ok := d.contextID(tx, s, next, d.id.actReqID)
		if !ok || d.commands && !d.commandList(len(d.s.Actions)-1, e, next, d.id.actReqCmds, false) {
			return false
		}
		off = next
	}
	return true
}

// actionReply reads an ActionReply: context ID, error, commands.
func (d *lean) actionReply(tx, off, end int) bool {
	next, ok := d.contextID(tx, off, end, d.id.actRepID)
	if !ok {
		return false
	}
	if next == end {
		return true
	}
	id, s, e := hdr(d.data, next, end)
	if id == bad {
		if id, s, e = hdrSlow(d.data, next, end); id == bad {
			return false
		}
	}
	if otherForm(id, d.id.actRepErr) {
		return false
	}
	if id == d.id.actRepErr {
		if !d.errorDescriptor(s, e, tx, -1) {
			return false
		}
		next = e
	}
	if !d.commands {
		return true
	}
	return d.commandList(len(d.s.Actions)-1, next, end, d.id.actRepCmds, true)
}

// commandList finds the component listID among an action's components
// data[off:end] and reads its commands, requests or replies.
func (d *lean) commandList(act, off, end int, listID byte, replies bool) bool {
	data := d.data
	for off < end {
		id, s, e := hdr(data, off, end)
		if id == bad {
			if id, s, e = hdrSlow(data, off, end); id == bad {
				return false
			}
		}
		if otherForm(id, listID) {
			return false
		}
		if id == listID {
			if replies {
				return d.commandReplies(act, s, e)
			}
			return d.commandRequests(act, s, e)
		}
		off = e
	}
	return false
}

// commandRequests reads the CommandRequests of action act in
// data[off:end]: each one's command (its kind, and when wanted what is
// inside), then its flags.
func (d *lean) commandRequests(act, off, end int) bool {
	data, want := d.data, d.id.cmdCommand
	for off < end {
		id, s, e := hdr(data, off, end)
		if id&0x20 == 0 {
			if id, s, e = hdrSlow(data, off, end); id&0x20 == 0 {
				return false
			}
		}
		at, next := s, e
		id, s, e = hdr(data, at, next)
		if id != want {
			if id, s, e = hdrSlow(data, at, next); id != want {
				return false
			}
		}
		id, cs, ce := hdr(data, s, e)
		kind := d.id.command[id]
		if kind == 0 {
			id, cs, ce = hdrSlow(data, s, e)
			kind = d.id.command[id]
		}
		if kind == 0 || ce != e {
			return false
		}
		cmd := len(d.s.Commands)
		d.s.Commands = append(d.s.Commands, scan.Command{Action: act, Kind: kind})
		if e < next && !d.flags(cmd, e, next) || d.everything && !d.parts(cs, ce, d.id.requestParts[kind], cmd) {
			return false
		}
		off = next
	}
	return true
}

// flags reads the components after a command request's command.
func (d *lean) flags(cmd, off, end int) bool {
	data := d.data
	for off < end {
		id, _, e := hdr(data, off, end)
		if id == bad {
			if id, _, e = hdrSlow(data, off, end); id == bad {
				return false
			}
		}
		if otherForm(id, d.id.cmdOptional) || otherForm(id, d.id.cmdWildcard) {
			return false
		}
		switch id {
		case d.id.cmdOptional:
			d.s.Commands[cmd].Optional = true
		case d.id.cmdWildcard:
			d.s.Commands[cmd].Wildcard = true
		}
		off = e
	}
	return true
}

func (d *lean) commandReplies(act, off, end int) bool {
	data := d.data
	for off < end {
		id, s, e := hdr(data, off, end)
		kind := d.id.reply[id]
		if kind == 0 {
			id, s, e = hdrSlow(data, off, end)
			if kind = d.id.reply[id]; kind == 0 {
				return false
			}
		}
		cmd := len(d.s.Commands)
		d.s.Commands = append(d.s.Commands, scan.Command{Action: act, Kind: kind, Reply: true})
		if d.everything {
			var ok bool
			if kind == scan.AuditCapability || kind == scan.AuditValue {
				ok = d.choice(s, e, roleAuditReply, cmd)
			} else {
				ok = d.parts(s, e, d.id.replyParts[kind], cmd)
			}
			if !ok {
				return false
			}
		}
		off = e
	}
	return true
}

// parts reads the components of a SEQUENCE that shape names, up to the
// last of them: it does not look further. The first component of most
// commands is their termination ID list, read here with no more calls.
func (d *lean) parts(off, end int, shape []leanPart, cmd int) bool {
	data := d.data
	left := len(shape)
	for off < end && left > 0 {
		id, s, e := hdr(data, off, end)
		if id == bad {
			if id, s, e = hdrSlow(data, off, end); id == bad {
				return false
			}
		}
		for i, p := range shape {
			if otherForm(id, p.id) {
				return false
			}
			if p.id == id {
				if p.role == roleTermList {
					if !d.terms(s, e, cmd) {
						return false
					}
				} else if !d.part(s, e, p.role, cmd) {
					return false
				}
				left = len(shape) - 1 - i
				break
			}
		}
		off = e
	}
	return true
}

// part reads a component in its role.
func (d *lean) part(off, end int, r role, cmd int) bool {
	switch r {
	case roleTermList:
		return d.terms(off, end, cmd)
	case roleTerm:
		return d.term(off, end, cmd)
	case roleError:
		return d.errorDescriptor(off, end, -1, cmd)
	case roleAuditResult:
		return d.parts(off, end, d.id.auditResult, cmd)
	case roleTermListResult:
		return d.parts(off, end, d.id.tlResult, cmd)
	case roleSCResult, roleAuditReply:
		return d.choice(off, end, r, cmd)
	}
	// roleAuditReturn: a TerminationAudit, errors among its parameters.
	data := d.data
	for off < end {
		id, s, e := hdr(data, off, end)
		if id == bad {
			if id, s, e = hdrSlow(data, off, end); id == bad {
				return false
			}
		}
		if otherForm(id, d.id.auditReturnError) || id == d.id.auditReturnError && !d.errorDescriptor(s, e, -1, cmd) {
			return false
		}
		off = e
	}
	return true
}

// choice reads an explicitly tagged CHOICE: a service change result's
// error descriptor, or an audit reply.
func (d *lean) choice(off, end int, r role, cmd int) bool {
	id, s, e, ok := d.explicit(off, end)
	if !ok {
		return false
	}
	if r == roleSCResult {
		return id != d.id.scResultError || d.errorDescriptor(s, e, -1, cmd)
	}
	for _, p := range d.id.auditReply {
		if p.id == id {
			return d.part(s, e, p.role, cmd)
		}
	}
	return false
}

// list reads the elements of a SEQUENCE OF in data[off:end], each
// constructed: the ranges of a TransactionResponseAck (one Transaction
// each), or the action replies of transaction i.
func (d *lean) list(off, end, i int, what elem) bool {
	data := d.data
	for off < end {
		id, s, e := hdr(data, off, end)
		if id&0x20 == 0 {
			if id, s, e = hdrSlow(data, off, end); id&0x20 == 0 {
				return false
			}
		}
		var ok bool
		if what == elemAck {
			ok = d.ack(s, e)
		} else {
			ok = d.actionReply(i, s, e)
		}
		if !ok {
			return false
		}
		off = e
	}
	return true
}

// terms reads the TerminationIDs of command cmd in data[off:end] (as
// term reads each, without a call per ID).
func (d *lean) terms(off, end, cmd int) bool {
	data, wildID, idID := d.data, d.id.termWildcard, d.id.termID
	for off < end {
		id, s, e := hdr(data, off, end)
		if id&0x20 == 0 {
			if id, s, e = hdrSlow(data, off, end); id&0x20 == 0 {
				return false
			}
		}
		next := e
		id, ws, we := hdr(data, s, next)
		if id != wildID {
			if id, ws, we = hdrSlow(data, s, next); id != wildID {
				return false
			}
		}
		id, s, e = hdr(data, we, next)
		if id != idID {
			if id, s, e = hdrSlow(data, we, next); id != idID {
				return false
			}
		}
		d.s.Terminations = append(d.s.Terminations, scan.Termination{Command: cmd, ID: data[s:e:e], Wildcarded: we > ws, Span: scan.Span{Off: s, Len: e - s}})
		off = next
	}
	return true
}

// term reads a TerminationID: its wildcard list and its id, in this
// order.
func (d *lean) term(off, end, cmd int) bool {
	data, want := d.data, d.id.termWildcard
	id, s, e := hdr(data, off, end)
	if id != want {
		if id, s, e = hdrSlow(data, off, end); id != want {
			return false
		}
	}
	wild := e > s
	at := e
	want = d.id.termID
	id, s, e = hdr(data, at, end)
	if id != want {
		if id, s, e = hdrSlow(data, at, end); id != want {
			return false
		}
	}
	d.s.Terminations = append(d.s.Terminations, scan.Termination{Command: cmd, ID: data[s:e:e], Wildcarded: wild, Span: scan.Span{Off: s, Len: e - s}})
	return true
}

// errorDescriptor appends the error code, the first component of the
// ErrorDescriptor in data[off:end]; cmd -1 is outside a command (the
// transaction is then tx).
func (d *lean) errorDescriptor(off, end, tx, cmd int) bool {
	data, want := d.data, d.id.errCode
	id, s, e := hdr(data, off, end)
	if id != want {
		if id, s, e = hdrSlow(data, off, end); id != want {
			return false
		}
	}
	code, ok := leanUint(data, s, e)
	if !ok || code > 65535 {
		return false
	}
	if cmd >= 0 {
		tx = d.s.Actions[d.s.Commands[cmd].Action].Tx
	}
	d.s.Errors = append(d.s.Errors, scan.Error{Tx: tx, Command: cmd, Code: uint16(code), Span: scan.Span{Off: s, Len: e - s}})
	return true
}
