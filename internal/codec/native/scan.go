package native

import (
	"sync"

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
	if !hasMessageField(wire, numMegacoMessageMess) {
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
	if err := w.rewrite(wire); err != nil {
		return dst, err
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
	s, terms                scan.Summary
	wire, out, block, newID []byte
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
