package native

import (
	"google.golang.org/protobuf/encoding/protowire"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// walker follows the path of messages from a MegacoMessage down to what
// a scan.Summary reports, in the wire form, by the field numbers the
// generator emits (fields_gen.go). It scans (out unused) or rewrites: then
// the messages on the path to an ID are written again to out, with their
// lengths as wireEnd sets them, and every other field is copied as it is.
type walker struct {
	s     *scan.Summary
	ch    *scan.Changes // nil: scan only
	out   []byte
	lim   limits.Limits
	depth int
	elems int
	cmd   int        // the current command's index in s.Commands, -1 outside one
	mess  bool       // the MegacoMessage has its mess field
	acks  *[]lastAck // not nil: the lastAcks are listed there (scanWire)
}

// fieldIter reads the fields of one message. It keeps offsets rather
// than slices: next, called for every field, writes a few words.
type fieldIter struct {
	msg   []byte // the message's fields
	base  int    // offset of msg in the wire form
	pos   int    // offset in msg of the next field
	start int    // offset in msg of the current field
	num   protowire.Number
	typ   protowire.Type
	v     uint64 // a varint field's value, a length-delimited one's length
	voff  int    // offset in msg of the value (the varint, or the contents)
	err   error
}

func iter(b []byte, base int) fieldIter { return fieldIter{msg: b, base: base} }

// val is a length-delimited field's contents.
func (it *fieldIter) val() []byte { return it.msg[it.voff : it.voff+int(it.v)] }

// off is the offset of the value in the wire form.
func (it *fieldIter) off() int { return it.base + it.voff }

// raw is the whole field, tag included.
func (it *fieldIter) raw() []byte { return it.msg[it.start:it.pos] }

// next reads the next field; false at the end or on an error (it.err,
// after which it stays at the end). A one-octet tag with a varint or
// length of one or two octets, nearly every field, is read here;
// nextSlow reads the others (the field loop was the largest part of a
// scan).
func (it *fieldIter) next() bool {
	return it.pos < len(it.msg) && it.read() // inlined: the loop's last call is none
}

// read is next past the end check.
func (it *fieldIter) read() bool {
	p, msg := it.pos, it.msg
	if p+1 >= len(msg) {
		return it.nextSlow()
	}
	c := msg[p]
	if c-0x08 >= 0x80-0x08 { // not field 1..15
		return it.nextSlow()
	}
	v, q := uint64(msg[p+1]), p+2 // q: past the varint
	if v >= 0x80 {
		if q >= len(msg) || msg[q] >= 0x80 {
			return it.nextSlow()
		}
		v, q = v&0x7f|uint64(msg[q])<<7, q+1
	}
	switch protowire.Type(c & 7) {
	case protowire.VarintType:
		it.num, it.typ, it.v = protowire.Number(c>>3), protowire.VarintType, v
		it.start, it.voff, it.pos = p, p+1, q
		return true
	case protowire.BytesType:
		if end := q + int(v); end <= len(msg) {
			it.num, it.typ, it.v = protowire.Number(c>>3), protowire.BytesType, v
			it.start, it.voff, it.pos = p, q, end
			return true
		}
	}
	return it.nextSlow()
}

//go:noinline
func (it *fieldIter) nextSlow() bool {
	p := it.pos
	b := it.msg[p:]
	tag, n := uint64(b[0]), 1
	if tag >= 0x80 {
		if tag, n = protowire.ConsumeVarint(b); n < 0 {
			return it.fail(protowire.ParseError(n).Error())
		}
	}
	num, typ := protowire.Number(tag>>3), protowire.Type(tag&7)
	if num < protowire.MinValidNumber || num > protowire.MaxValidNumber {
		return it.fail("invalid field number")
	}
	rest := b[n:]
	size := 0
	switch typ {
	case protowire.VarintType:
		v, m := varint(rest)
		if m < 0 {
			return it.fail(protowire.ParseError(m).Error())
		}
		it.v, size = v, n+m
	case protowire.BytesType:
		l, m := varint(rest)
		if m < 0 || l > uint64(len(rest)-m) {
			return it.fail("truncated length-delimited field")
		}
		it.v, size = l, n+m+int(l)
		n += m
	default:
		m := protowire.ConsumeFieldValue(num, typ, rest)
		if m < 0 {
			return it.fail(protowire.ParseError(m).Error())
		}
		size = n + m
	}
	it.num, it.typ, it.start, it.voff, it.pos = num, typ, p, p+n, p+size
	return true
}

// varint reads a varint, inline when it is one octet.
func varint(b []byte) (uint64, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	return protowire.ConsumeVarint(b)
}

//go:noinline
func (it *fieldIter) fail(msg string) bool {
	e := codecerr.New(codecName, codecerr.Decode, codecerr.Malformed, msg)
	e.Pos = codecerr.AtByte(it.base + it.pos)
	it.err = e
	it.pos = len(it.msg)
	return false
}

// is reports whether the field is number num with a length-delimited
// value (a message, bytes or a string).
func (it *fieldIter) is(num protowire.Number) bool {
	return it.num == num && it.typ == protowire.BytesType
}

// isVarint reports whether the field is number num with a varint value.
func (it *fieldIter) isVarint(num protowire.Number) bool {
	return it.num == num && it.typ == protowire.VarintType
}

func (it *fieldIter) span() scan.Span { return scan.Span{Off: it.off(), Len: int(it.v)} }

// varintSpan is the span of a varint field's value.
func (it *fieldIter) varintSpan() scan.Span {
	return scan.Span{Off: it.off(), Len: protowire.SizeVarint(it.v)}
}

// copy writes the field as it is (rewriting).
func (w *walker) copy(it *fieldIter) {
	if w.ch != nil {
		w.out = append(w.out, it.raw()...)
	}
}

// enter starts a message on the path: one level deeper and, rewriting,
// its tag and a length to be set by leave.
func (w *walker) enter(it *fieldIter) (int, error) {
	w.depth++
	if w.elems++; w.depth > w.lim.MaxDepth || w.elems > w.lim.MaxElements {
		return 0, w.tooLarge(it)
	}
	start := 0
	if w.ch != nil {
		w.out, start = wireBegin(w.out, it.num)
	}
	return start, nil
}

// tooLarge is the error of a message past the depth or element limit.
//
//go:noinline
func (w *walker) tooLarge(it *fieldIter) error {
	msg := errWireElems.Error()
	if w.depth > w.lim.MaxDepth {
		msg = errWireDepth.Error()
	}
	e := codecerr.New(codecName, codecerr.Decode, codecerr.TooLarge, msg)
	e.Pos = codecerr.AtByte(it.off())
	return e
}

func (w *walker) leave(start int, err error) error {
	w.depth--
	if w.ch != nil && err == nil {
		w.out = wireEnd(w.out, start)
	}
	return err
}

// nested walks the message of kind k in field it. A scan, the walk of
// nearly every message, keeps the limits here without enter and leave.
func (w *walker) nested(it *fieldIter, k msgKind) error {
	if w.ch == nil {
		w.depth++
		if w.elems++; w.depth > w.lim.MaxDepth || w.elems > w.lim.MaxElements {
			return w.tooLarge(it)
		}
		err := w.walk(k, it.val(), it.off())
		w.depth--
		return err
	}
	start, err := w.enter(it)
	if err != nil {
		return err
	}
	return w.leave(start, w.walk(k, it.val(), it.off()))
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
	in := iter(it.val(), it.off())
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
// varint, left out when zero: proto3), before the field it. Scanning, it
// records the ID. Rewriting, it writes the new ID where the encoder would:
// in its place, or before the first field of a higher number when it was
// absent (zero). It reports whether it was the ID field.
func (w *walker) id(it *fieldIter, num protowire.Number, k siteKind, seen *bool) bool {
	if *seen || it.num < num {
		return false
	}
	*seen = true
	if !it.isVarint(num) {
		w.putID(num, k, 0)
		return false
	}
	w.found(k, uint32(it.v), it.varintSpan())
	w.putID(num, k, uint32(it.v))
	return true
}

// idEnd is id at the end of the message, for an ID that was absent.
func (w *walker) idEnd(num protowire.Number, k siteKind, seen bool) {
	if !seen {
		w.putID(num, k, 0)
	}
}

func (w *walker) putID(num protowire.Number, k siteKind, old uint32) {
	if w.ch == nil {
		return
	}
	if v := w.newID(k, old); v != 0 {
		w.putVarint(num, uint64(v))
	}
}

// putVarint writes varint field num (rewriting).
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

// found records an ID in the summary.
func (w *walker) found(k siteKind, v uint32, sp scan.Span) {
	if k == contextSite {
		a := &w.s.Actions[len(w.s.Actions)-1]
		a.ContextID, a.Span = v, sp
		return
	}
	t := w.lastTx()
	t.ID, t.LastID, t.IDSpan = v, v, sp
}

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

// wants reports whether the scan fills the lists of depth level: below
// the depth asked for, a message is passed by its length unread. A
// rewrite reads all it needs whatever the depth.
func (w *walker) wants(level scan.Depth) bool {
	return w.ch != nil || w.s.Want.Reaches(level)
}

func (w *walker) tx(k scan.TxKind) {
	w.s.Transactions = append(w.s.Transactions, scan.Transaction{Kind: k})
	w.cmd = -1
}

func (w *walker) lastTx() *scan.Transaction { return &w.s.Transactions[len(w.s.Transactions)-1] }

func (w *walker) action() {
	w.s.Actions = append(w.s.Actions, scan.Action{Tx: len(w.s.Transactions) - 1})
	w.cmd = -1
}

func (w *walker) command(k scan.CommandKind, reply bool) {
	w.cmd = len(w.s.Commands)
	w.s.Commands = append(w.s.Commands, scan.Command{Action: len(w.s.Actions) - 1, Kind: k, Reply: reply})
}
