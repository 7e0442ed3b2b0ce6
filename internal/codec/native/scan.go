package native

import (
	"sync"

	"google.golang.org/protobuf/encoding/protowire"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// Scan fills s from data, the native encoding of a message, without
// decoding it: it follows the fields on the way to what package scan
// reports (scanwalk.go) and passes the others by their lengths. For
// native the byte values and the spans (a varint ID's or error code's
// varint, a termination ID's or the mId's contents) are in data; for the
// compressed variants, in the decompressed form, which is kept in
// s.Scratch until the next scan into s.
func (c Compression) Scan(data []byte, s *scan.Summary, lim limits.Limits) error {
	lim = lim.OrDefault()
	s.Reset()
	if err := lim.CheckSize(codecName, codecerr.Pos{}, len(data)); err != nil {
		return err
	}
	wire := data
	if c != None {
		var err error
		if wire, err = c.decompress(s.Scratch, data, lim.MaxSize); err != nil {
			return err
		}
		s.Scratch = wire
	}
	return scanWire(wire, s, lim, nil)
}

// scanWire scans wire, the native encoding of a message, into s, which
// has been Reset (Scratch may hold wire). With acks it is patchIDs'
// scan, for the IDs only: it lists there the lastAcks of the
// TransactionResponseAcks too, and passes the mId unread.
func scanWire(wire []byte, s *scan.Summary, lim limits.Limits, acks *[]lastAck) error {
	sc := newScanner(s, lim, acks)
	return sc.megacoMessage(wire)
}

// lastAck is the lastAck of an acknowledged range: its value, at sp (a
// Summary has no span for it).
type lastAck struct {
	v  uint32
	sp scan.Span
}

// Rewrite appends to dst data with the IDs ch names changed: byte for
// byte what decode -> scan.Apply -> encode gives for data as the encoder
// writes it. New IDs of their old IDs' sizes, the common case, are
// written over them in a copy (patchIDs); otherwise the messages on the
// way to the IDs are written again (their lengths change with their
// contents) and the rest is copied. A compressed message is
// decompressed, rewritten and compressed again as the encoder
// compresses.
func (c Compression) Rewrite(dst, data []byte, ch *scan.Changes, lim limits.Limits) (out []byte, err error) {
	lim = lim.OrDefault()
	if err := lim.CheckSize(codecName, codecerr.Pos{}, len(data)); err != nil {
		return dst, err
	}
	rw := rewriters.Get().(*rewriter)
	defer rewriters.Put(rw)
	wire := data
	if c != None {
		if wire, err = c.decompress(rw.wire, data, lim.MaxSize); err != nil {
			return dst, err
		}
		rw.wire = wire
	}
	out, base := dst, len(dst)
	if c != None {
		out, base = rw.out[:0], 0
	}
	// Patched, out[base:] has the spans of patchIDs' scan, which then
	// went down to the terminations; rewritten, it is scanned again.
	terms := &rw.ids
	var patched bool
	if out, patched = rw.patchIDs(out, wire, ch, lim); !patched {
		w := walker{ch: ch, lim: lim, out: out}
		if err := w.rewrite(wire); err != nil {
			return dst, err
		}
		out, terms = w.out, nil
	}
	if ch.TerminationIDs != nil && !rw.patchTerms(out[base:], terms, ch.TerminationIDs, lim) {
		return c.recode(dst, data, ch, lim)
	}
	if c == None {
		return out, nil
	}
	rw.out = out
	return c.compress(dst, out, &rw.block)
}

// rewriter is the memory a Rewrite reuses.
type rewriter struct {
	terms, ids              scan.Summary
	acks                    []lastAck
	wire, out, block, newID []byte
}

// patchIDs appends wire to out with the new transaction and context IDs
// written over the old ones, found by a scan: what the walk writes when
// every changed ID keeps its varint's size, so that no length around it
// changes (+1 mostly does). False, and out as it was, when one does not
// (it would appear, vanish or change size), for a new mId, or a wire
// form that does not scan: then the walk rewrites it.
func (rw *rewriter) patchIDs(out, wire []byte, ch *scan.Changes, lim limits.Limits) ([]byte, bool) {
	if ch.MID != nil {
		return out, false
	}
	s := &rw.ids
	s.Want = scan.Transactions
	if ch.ContextIDs != nil {
		s.Want = scan.Actions
	}
	if ch.TerminationIDs != nil { // for patchTerms: one scan, not two
		s.Want = scan.Everything
	}
	s.Reset()
	rw.acks = rw.acks[:0]
	if scanWire(wire, s, lim, &rw.acks) != nil {
		return out, false
	}
	base := len(out)
	out = append(out, wire...)
	if !patchTx(out[base:], s, rw.acks, ch.TransactionIDs) || !patchContexts(out[base:], s, ch.ContextIDs) {
		return out[:base], false
	}
	return out, true
}

// patchTx writes the new transaction IDs f gives over those of s in
// wire, the lastAcks acks too; false when one cannot be.
func patchTx(wire []byte, s *scan.Summary, acks []lastAck, f func(uint32) uint32) bool {
	if f == nil {
		return true
	}
	for _, t := range s.Transactions {
		if !patchID(wire, t.IDSpan, t.ID, f(t.ID)) {
			return false
		}
	}
	for _, a := range acks { // written even when zero
		if !patchVarint(wire, a.sp, a.v, f(a.v)) {
			return false
		}
	}
	return true
}

// patchContexts writes the new context IDs f gives over those of s in
// wire, but the special ones; false when one cannot be.
func patchContexts(wire []byte, s *scan.Summary, f func(uint32) uint32) bool {
	if f == nil {
		return true
	}
	for _, a := range s.Actions {
		if !scan.Special(a.ContextID) && !patchID(wire, a.Span, a.ContextID, f(a.ContextID)) {
			return false
		}
	}
	return true
}

// patchID is patchVarint for an ID that proto3 leaves out when zero: a
// change to or from zero adds or removes its field.
func patchID(wire []byte, sp scan.Span, old, v uint32) bool {
	if v != old && (old == 0 || v == 0) {
		return false
	}
	return patchVarint(wire, sp, old, v)
}

// patchVarint writes v over old, the varint at sp in wire, when it has
// the same size; false when it has not, or old is not there in its
// shortest form, as the encoder writes it.
func patchVarint(wire []byte, sp scan.Span, old, v uint32) bool {
	if v == old {
		return true
	}
	n := protowire.SizeVarint(uint64(v))
	if sp.Len != n || protowire.SizeVarint(uint64(old)) != n || wire[sp.End()-1] >= 0x80 {
		return false
	}
	last := sp.End() - 1
	for i := sp.Off; i < last; i++ {
		wire[i] = byte(v) | 0x80
		v >>= 7
	}
	wire[last] = byte(v)
	return true
}

// patchTerms writes f's new termination IDs over the old ones in wire,
// the native encoding of a message, at the terminations of s, a full
// scan of wire (nil: wire is scanned here); false (and wire unchanged)
// when one has another length, or wire does not scan.
func (rw *rewriter) patchTerms(wire []byte, s *scan.Summary, f func([]byte) []byte, lim limits.Limits) bool {
	if s == nil {
		if s = &rw.terms; None.Scan(wire, s, lim) != nil {
			return false
		}
	}
	var ok bool
	if rw.newID, ok = scan.AppendTerminationIDs(rw.newID[:0], s.Terminations, f); !ok {
		return false
	}
	ids := rw.newID
	for _, t := range s.Terminations {
		ids = ids[copy(wire[t.Span.Off:t.Span.End()], ids):]
	}
	return true
}

// recode is Rewrite the long way: decode -> scan.Apply -> encode.
func (c Compression) recode(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
	cd := Codec{Options: Options{Compression: c, Limits: lim}}
	m, err := cd.Decode(data)
	if err != nil {
		return dst, err
	}
	scan.Apply(m, ch)
	cd.Options.Limits = limits.Limits{}
	return cd.Append(dst, m)
}

var rewriters = sync.Pool{New: func() any { return new(rewriter) }}

// compress compresses wire as Append does, appending to dst; S2 encodes
// a block in memory of its own first, *scratch when it is not nil.
func (c Compression) compress(dst, wire []byte, scratch *[]byte) ([]byte, error) {
	switch c {
	case Zstd:
		enc, _, err := zstdCodecs()
		if err != nil {
			return dst, failOn(codecerr.Encode, codecerr.Unsupported, "", err)
		}
		return enc.EncodeAll(wire, dst), nil
	case S2:
		var buf []byte
		if scratch != nil {
			buf = (*scratch)[:cap(*scratch)] // Encode uses it when long enough
		}
		block := s2dict().Encode(buf, wire)
		if scratch != nil {
			*scratch = block
		}
		return append(dst, block...), nil
	}
	return dst, fail(codecerr.Encode, codecerr.Unsupported, "unknown compression %d", c)
}
