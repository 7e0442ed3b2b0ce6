package native

import (
	"google.golang.org/protobuf/encoding/protowire"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// The rewrite's walk of a message, for what patchIDs cannot write in
// place: it writes again, to out, the messages on the path to the IDs
// (the transactions, acks and actions), whose lengths change with their
// contents (wireEnd sets them), and copies every other field as it is.
// Every walk is a loop over the message's fields, by the field numbers
// the generator emits (fields_gen.go).

// walker is the state of one rewrite.
type walker struct {
	wire  []byte
	ch    *scan.Changes
	out   []byte
	lim   limits.Limits
	depth int
	elems int
	mess  bool // the MegacoMessage has its mess field
}

// msgKind names a message type of the path; walk dispatches on it, so
// that the walk makes only direct calls (an indirect one would move the
// field iterators to the heap).
type msgKind uint8

const (
	kMessage msgKind = iota + 1
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
)

func (w *walker) walk(k msgKind, start, end int) error {
	switch k {
	case kMessage:
		return walkMessage(w, start, end)
	case kMessageBody:
		return walkList(w, numMessageMessageBodyTransactions, wrappedMessageMessageBodyTransactions, kTransaction, start, end)
	case kTransaction:
		return walkTransaction(w, start, end)
	case kTransactionRequest, kTransactionPending, kSegmentReply, kTransactionReply:
		return walkTransactionOf(w, k, start, end)
	case kTransactionResult:
		return walkList(w, numTransactionReplyTransactionResultActionReplies, wrappedTransactionReplyTransactionResultActionReplies, kActionReply, start, end)
	case kTransactionAck:
		return walkTransactionAck(w, start, end)
	case kActionRequest:
		return walkAction(w, numActionRequestContextId, start, end)
	}
	return walkAction(w, numActionReplyContextId, start, end)
}

// rewrite walks wire writing w.out; a new mId that cannot be written
// (a name that is not UTF-8) fails as the encoder fails.
func (w *walker) rewrite(wire []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*codecerr.Error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	w.wire = wire
	it := w.iter(0, len(wire))
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
	if it.err == nil && !w.mess {
		return decodeError(errNoMess)
	}
	return it.err
}

func walkMessage(w *walker, start, end int) error {
	it := w.iter(start, end)
	for it.next() {
		switch {
		case it.is(numMessageMId) && w.ch.MID != nil:
			w.out = wireMsgMId(w.out, numMessageMId, w.ch.MID)
		case it.is(numMessageMessageBody):
			if err := w.nested(&it, kMessageBody); err != nil {
				return err
			}
		default:
			w.copy(&it)
		}
	}
	return it.err
}

// walkList walks a message whose one field on the path is the list
// num of items of kind k (a message body's transactions, a transaction
// result's action replies), copying the rest.
func walkList(w *walker, num protowire.Number, wrapped bool, k msgKind, start, end int) error {
	it := w.iter(start, end)
	for it.next() {
		if it.is(num) {
			if err := w.items(&it, wrapped, k); err != nil {
				return err
			}
			continue
		}
		w.copy(&it)
	}
	return it.err
}

func walkTransaction(w *walker, start, end int) error {
	it := w.iter(start, end)
	for it.next() {
		var err error
		switch {
		case it.is(numTransactionTransactionRequest):
			err = w.nested(&it, kTransactionRequest)
		case it.is(numTransactionTransactionPending):
			err = w.nested(&it, kTransactionPending)
		case it.is(numTransactionTransactionReply):
			err = w.nested(&it, kTransactionReply)
		case it.is(numTransactionTransactionResponseAck):
			err = w.items(&it, wrappedTransactionTransactionResponseAck, kTransactionAck)
		case it.is(numTransactionSegmentReply):
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

// walkTransactionOf writes a transaction of kind k, any but an ack: its
// ID, and the field the path goes on into (a request's actions, a reply's
// result; a pending or a segment reply has none), copying the rest.
func walkTransactionOf(w *walker, k msgKind, start, end int) error {
	num, inner, wrapped, ik := numTransactionRequestTransactionId, numTransactionRequestActions, wrappedTransactionRequestActions, kActionRequest
	switch k {
	case kTransactionReply:
		num, inner, wrapped, ik = numTransactionReplyTransactionId, numTransactionReplyTransactionResult, false, kTransactionResult
	case kTransactionPending:
		num, inner = numTransactionPendingTransactionId, 0
	case kSegmentReply:
		num, inner = numSegmentReplyTransactionId, 0
	}
	it, seen := w.iter(start, end), false
	for it.next() {
		if w.id(&it, num, txSite, &seen) {
			continue
		}
		if inner != 0 && it.is(inner) {
			if err := w.items(&it, wrapped, ik); err != nil {
				return err
			}
			continue
		}
		w.copy(&it)
	}
	w.idEnd(num, txSite, seen)
	return it.err
}

func walkTransactionAck(w *walker, start, end int) error {
	it, seen := w.iter(start, end), false
	for it.next() {
		if w.id(&it, numTransactionAckFirstAck, txSite, &seen) {
			continue
		}
		if it.isVarint(numTransactionAckLastAck) { // optional: written even when zero
			w.putVarint(numTransactionAckLastAck, uint64(w.newID(txSite, uint32(it.f.v))))
			continue
		}
		w.copy(&it)
	}
	w.idEnd(numTransactionAckFirstAck, txSite, seen)
	return it.err
}

// walkAction writes an action request or reply, num its context ID
// field; its commands are copied.
func walkAction(w *walker, num protowire.Number, start, end int) error {
	it, seen := w.iter(start, end), false
	for it.next() {
		if !w.id(&it, num, contextSite, &seen) {
			w.copy(&it)
		}
	}
	w.idEnd(num, contextSite, seen)
	return it.err
}

// fieldIter reads the fields of one message, b[pos:end] of the wire
// form, as the scan reads them.
type fieldIter struct {
	b        []byte // the wire form
	pos, end int    // offsets of the current field and of the message's end
	f        field  // the current field
	err      error
}

func (w *walker) iter(start, end int) fieldIter {
	return fieldIter{b: w.wire, end: end, f: field{end: start}}
}

// next reads the next field; false at the end or on an error (it.err,
// after which it stays at the end).
func (it *fieldIter) next() bool {
	if it.f.end >= it.end {
		return false
	}
	it.pos = it.f.end
	if it.f = next(it.b, it.pos, it.end); it.f.end == 0 && !it.f.slow(it.b, it.pos, it.end) {
		it.err = malformed(it.b, it.pos, it.end)
		it.f.end = it.end
		return false
	}
	return true
}

// num is the field's number.
func (it *fieldIter) num() protowire.Number { return protowire.Number(it.f.tag >> 3) }

// is reports whether the field is number num with a length-delimited
// value (a message, bytes or a string).
func (it *fieldIter) is(num protowire.Number) bool { return it.f.tag == tag(num) }

// isVarint reports whether the field is number num with a varint value.
func (it *fieldIter) isVarint(num protowire.Number) bool { return it.f.tag == varintTag(num) }

// copy writes the field as it is.
func (w *walker) copy(it *fieldIter) { w.out = append(w.out, it.b[it.pos:it.f.end]...) }

// nested walks the message of kind k in field it: one level deeper, its
// tag and a length that wireEnd sets after it.
func (w *walker) nested(it *fieldIter, k msgKind) error {
	start, err := w.enter(it)
	if err != nil {
		return err
	}
	return w.leave(start, w.walk(k, it.f.off(), it.f.end))
}

// enter starts a message on the path: one level deeper, and its tag and
// a length to be set by leave.
func (w *walker) enter(it *fieldIter) (int, error) {
	w.depth++
	if w.elems++; w.depth > w.lim.MaxDepth || w.elems > w.lim.MaxElements {
		return 0, limitError(it.f.off(), w.depth > w.lim.MaxDepth)
	}
	var start int
	w.out, start = wireBegin(w.out, it.num())
	return start, nil
}

func (w *walker) leave(start int, err error) error {
	w.depth--
	if err == nil {
		w.out = wireEnd(w.out, start)
	}
	return err
}

// items walks a list field of items of kind k: a repeated field is one
// item per occurrence; a wrapped one (a wrapper message) holds its items
// in field 1.
func (w *walker) items(it *fieldIter, wrapped bool, k msgKind) error {
	if !wrapped {
		return w.nested(it, k)
	}
	start, err := w.enter(it)
	if err != nil {
		return err
	}
	in := w.iter(it.f.off(), it.f.end)
	for err == nil && in.next() {
		if in.is(1) {
			err = w.nested(&in, k)
		} else {
			w.copy(&in)
		}
	}
	if err == nil {
		err = in.err
	}
	return w.leave(start, err)
}

// id handles the ID field num of a transaction, an ack or an action (a
// varint, left out when zero: proto3), before the field it: it writes
// the new ID where the encoder would, in its place, or before the first
// field of a higher number when it was absent (zero). It reports whether
// it was the ID field.
func (w *walker) id(it *fieldIter, num protowire.Number, k siteKind, seen *bool) bool {
	if *seen || it.num() < num {
		return false
	}
	*seen = true
	if !it.isVarint(num) {
		w.putID(num, k, 0)
		return false
	}
	w.putID(num, k, uint32(it.f.v))
	return true
}

// idEnd is id at the end of the message, for an ID that was absent.
func (w *walker) idEnd(num protowire.Number, k siteKind, seen bool) {
	if !seen {
		w.putID(num, k, 0)
	}
}

func (w *walker) putID(num protowire.Number, k siteKind, old uint32) {
	if v := w.newID(k, old); v != 0 {
		w.putVarint(num, uint64(v))
	}
}

// putVarint writes varint field num.
func (w *walker) putVarint(num protowire.Number, v uint64) {
	w.out = protowire.AppendTag(w.out, num, protowire.VarintType)
	w.out = protowire.AppendVarint(w.out, v)
}

// siteKind tells the IDs apart.
type siteKind uint8

const (
	txSite siteKind = iota + 1
	contextSite
)

// newID is the value an ID takes under the changes.
func (w *walker) newID(k siteKind, v uint32) uint32 {
	switch {
	case k == txSite && w.ch.TransactionIDs != nil:
		return w.ch.TransactionIDs(v)
	case k == contextSite && w.ch.ContextIDs != nil && !scan.Special(v):
		return w.ch.ContextIDs(v)
	}
	return v
}
