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
	w := walker{s: s, lim: lim, cmd: -1}
	s.MID.Port = -1
	return w.message(wire)
}

// message walks a whole MegacoMessage; a message without mess fails as
// the decoder fails.
func (w *walker) message(wire []byte) error {
	if err := walkMegacoMessage(w, wire, 0); err != nil {
		return err
	}
	if !w.mess {
		return decodeError(errNoMess)
	}
	return nil
}

// Rewrite appends to dst data with the IDs ch names changed: byte for
// byte what decode -> scan.Apply -> encode gives for data as the encoder
// writes it. The messages on the way to the IDs are written again (their
// lengths change with their contents); the rest is copied. A compressed
// message is decompressed, rewritten and compressed again as the
// encoder compresses.
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
	w := walker{s: &rw.s, ch: ch, lim: lim, cmd: -1}
	rw.s.Reset()
	if c == None {
		w.out = dst
	} else {
		w.out = rw.out[:0]
	}
	var patched bool
	if w.out, patched = rw.patchIDs(w.out, wire, ch, lim); !patched {
		if err := w.rewrite(wire); err != nil {
			return dst, err
		}
	}
	base := len(dst)
	if c != None {
		base = 0
	}
	if ch.TerminationIDs != nil && !rw.patchTerms(w.out[base:], ch.TerminationIDs, lim) {
		return c.recode(dst, data, ch, lim)
	}
	if c == None {
		return w.out, nil
	}
	rw.out = w.out
	return c.compress(dst, w.out, &rw.block)
}

// rewriter is the memory a Rewrite reuses.
type rewriter struct {
	s, terms, ids           scan.Summary
	wire, out, block, newID []byte
}

// patchIDs appends wire to out with the new transaction and context IDs
// written over the old ones, found by a scan: what the walk writes when
// every changed ID keeps its varint's size, so that no length around it
// changes (+1 mostly does). False, and out as it was, when one does not
// (it would appear, vanish or change size), for a new mId, a
// TransactionResponseAck (the scan has no span of a lastAck) or a wire
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
	if None.Scan(wire, s, lim) != nil {
		return out, false
	}
	base := len(out)
	out = append(out, wire...)
	for _, t := range s.Transactions {
		if ch.TransactionIDs == nil {
			break
		}
		if t.Kind == scan.ResponseAck || !patchID(out[base:], t.IDSpan, t.ID, ch.TransactionIDs(t.ID)) {
			return out[:base], false
		}
	}
	for _, a := range s.Actions {
		if ch.ContextIDs == nil {
			break
		}
		if scan.Special(a.ContextID) {
			continue
		}
		if !patchID(out[base:], a.Span, a.ContextID, ch.ContextIDs(a.ContextID)) {
			return out[:base], false
		}
	}
	return out, true
}

// patchID writes v over old, the varint at sp in wire, when it has the
// same size; false when it has not, or old is not there as the encoder
// writes it (absent because zero, or not in its shortest form).
func patchID(wire []byte, sp scan.Span, old, v uint32) bool {
	if v == old {
		return true
	}
	n := protowire.SizeVarint(uint64(v))
	if old == 0 || v == 0 || sp.Len != n || protowire.SizeVarint(uint64(old)) != n || wire[sp.End()-1] >= 0x80 {
		return false
	}
	protowire.AppendVarint(wire[sp.Off:sp.Off], uint64(v))
	return true
}

// patchTerms writes f's new termination IDs over the old ones in wire,
// the native encoding of a message; false (and wire unchanged) when one
// has another length, or wire does not scan.
func (rw *rewriter) patchTerms(wire []byte, f func([]byte) []byte, lim limits.Limits) bool {
	if None.Scan(wire, &rw.terms, lim) != nil {
		return false
	}
	var ok bool
	if rw.newID, ok = scan.AppendTerminationIDs(rw.newID[:0], rw.terms.Terminations, f); !ok {
		return false
	}
	ids := rw.newID
	for _, t := range rw.terms.Terminations {
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
	return w.message(wire)
}

// newMID writes the changed mId in place of the message's.
func (w *walker) newMID() error {
	w.out = wireMsgMId(w.out, numMessageMId, w.ch.MID)
	return nil
}

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
