package ber

import (
	"math/bits"
	"sync/atomic"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/codec/slab"
)

// Rewrite appends to dst a copy of the BER message data with the IDs ch
// names changed: what decode -> scan.Apply -> encode gives, without the
// decode and the encode. The scanner finds the IDs, reading only as deep
// as ch needs (the actions for context IDs, else the transactions); the
// copy re-writes only the elements on the way to them (each ID as the
// encoder writes an INTEGER, minimal two's complement; a new mId as the
// encoder writes it; every enclosing length anew, long form where it
// grows past 127) and copies the rest as it is.
//
// Copying is exact for input in the encoder's form (ours and OTP's):
// definite, minimal lengths. Where an element the scan or the copy reads
// is not in that form (an indefinite or a non-minimal length), Rewrite
// decodes and re-encodes instead, which normalises everything. Inside
// the elements it copies whole (and the runs of elements between and
// after the edits), it does not look: a non-canonical encoding there
// (say a BOOLEAN TRUE as 0x01) is kept, where decode -> encode would
// write 0xFF; both decode to the same message.
func Rewrite(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
	if rw := spare.Swap(nil); rw != nil {
		out, err := rw.rewrite(dst, data, ch, lim)
		spare.Store(rw)
		return out, err
	}
	rw, release := rewriters.Get()
	defer release()
	return rw.rewrite(dst, data, ch, lim)
}

// spare is a rewriter at hand, for one caller at a time: taking it and
// giving it back is a swap each, where the pool's Get and Put cost a
// twentieth of a rewrite. Callers that find it taken use the pool. (It
// keeps its memory, within MaxSize, for the life of the program.)
var spare atomic.Pointer[rewriter]

func init() { spare.Store(new(rewriter)) }

var rewriters slab.Pool[rewriter]

func (rw *rewriter) rewrite(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
	lim = lim.OrDefault()
	if err := rw.scan(data, ch, lim); err != nil {
		return dst, err
	}
	if err := rw.plan(ch); err != nil {
		return dst, err
	}
	if rw.termLen || rw.odd {
		// A header the scan read is not in the encoder's form (indefinite
		// or non-minimal): re-encoding puts it in that form.
		return rw.recode(dst, data, ch, lim)
	}
	if rw.sameLengths() {
		return rw.patch(dst, data), nil
	}
	rw.next = 0
	out, from, ok := rw.emit(dst, data, 0, 0, len(data))
	if ok {
		return append(out, data[from:]...), nil
	}
	return rw.recode(dst, data, ch, lim)
}

// rewriter is the memory of a Rewrite, reused from call to call.
type rewriter struct {
	s        scan.Summary
	lastAcks []edit // each range's lastAck, with its value
	edits    []edit
	tmp      []edit // sortEdits' scratch
	mid      []byte // the new mId's encoding
	terms    []byte // the new termination IDs, one after the other
	termLen  bool   // a new termination ID's length differs from the old one's
	next     int    // the first edit not yet written
	odd      bool   // the scan met a header not in the encoder's form
	lean     bool   // the lean scanner read the input (and listed the edits)
	dec      Decoder
}

// edit is one element to write anew: an INTEGER with a new value, a
// termination's id OCTET STRING with new contents of the same length
// (terms[term-1:][:span.Len]), or the mId's alternative (the element its
// span covers).
type edit struct {
	span scan.Span
	v    uint32
	term int
	mid  bool
}

// scan reads the IDs ch changes: everything when it changes termination
// IDs, down to the actions when it changes context IDs, else the
// transactions only.
func (rw *rewriter) scan(data []byte, ch *scan.Changes, lim limits.Limits) error {
	rw.s.Want = scan.Transactions
	if ch.ContextIDs != nil {
		rw.s.Want = scan.Actions
	}
	if ch.TerminationIDs != nil {
		rw.s.Want = scan.Everything
	}
	rw.s.Reset()
	rw.edits = rw.edits[:0]
	if ch.MID != nil {
		rw.edits = append(rw.edits, edit{mid: true}) // plan sets its span
	}
	d := newLean(data, &rw.s)
	d.edits, d.txIDs, d.ctxIDs, d.skipMID = &rw.edits, ch.TransactionIDs, ch.ContextIDs, ch.MID == nil
	if leanOK(data, lim) && d.message() {
		// The lean scanner reads the encoder's form only, and has listed
		// the edits of the IDs.
		rw.odd, rw.lean = false, true
		return nil
	}
	rw.lean = false
	if err := lim.CheckSize("ber", codecerr.AtByte(0), len(data)); err != nil {
		return err // (leanOK has refused it)
	}
	rw.s.Reset()
	rw.lastAcks = rw.lastAcks[:0]
	sc := scanner{reader: reader{data: data, lim: lim}, s: &rw.s, lastAcks: &rw.lastAcks}
	err := sc.message()
	rw.odd = sc.odd
	return err
}

// plan lists the edits ch makes, in the order of the input. The lean
// scan has listed those of the IDs; after the general scanner, they come
// from the Summary.
func (rw *rewriter) plan(ch *scan.Changes) error {
	if ch.MID != nil {
		var err error
		if rw.mid, err = appendMIdV123(rw.mid[:0], ch.MID); err != nil {
			return codecerr.At(err, "mId")
		}
	}
	if !rw.lean {
		rw.listEdits(ch)
	} else if ch.MID != nil {
		rw.edits[0].span = rw.s.MID.Span
	}
	n := len(rw.edits)
	rw.planTerms(ch.TerminationIDs)
	if !rw.lean || len(rw.edits) > n {
		rw.tmp = sortEdits(rw.edits, rw.tmp)
	}
	return nil
}

// listEdits lists the edits of the mId and the IDs from the Summary and
// the lastAcks the general scanner collected: a few runs, each in the
// order of the input.
func (rw *rewriter) listEdits(ch *scan.Changes) {
	rw.edits = rw.edits[:0]
	s := &rw.s
	if ch.MID != nil {
		rw.edits = append(rw.edits, edit{span: s.MID.Span, mid: true})
	}
	if f := ch.TransactionIDs; f != nil {
		for _, t := range s.Transactions {
			rw.edits = append(rw.edits, edit{span: t.IDSpan, v: f(t.ID)})
		}
		for _, a := range rw.lastAcks {
			rw.edits = append(rw.edits, edit{span: a.span, v: f(a.v)})
		}
	}
	if f := ch.ContextIDs; f != nil {
		for _, a := range s.Actions {
			if !scan.Special(a.ContextID) {
				rw.edits = append(rw.edits, edit{span: a.Span, v: f(a.ContextID)})
			}
		}
	}
}

// sortEdits puts the edits in the order of the input. plan lists them
// in a few runs, each in order (the mId, the transactions' IDs, the
// lastAcks, the actions' context IDs, the terminations): merging each run
// into the ones before it costs a pass per run, with no comparison calls
// (slices.SortFunc made a tenth of a rewrite). tmp is scratch memory,
// returned for reuse.
func sortEdits(es, tmp []edit) []edit {
	for end := 1; end < len(es); {
		if es[end].span.Off >= es[end-1].span.Off {
			end++
			continue
		}
		next := end + 1 // es[:end] is in order; es[end:next] is the next run
		for next < len(es) && es[next].span.Off >= es[next-1].span.Off {
			next++
		}
		tmp = append(tmp[:0], es[:end]...)
		a, b, k := 0, end, 0
		for a < len(tmp) && b < next {
			if es[b].span.Off < tmp[a].span.Off {
				es[k], b = es[b], b+1
			} else {
				es[k], a = tmp[a], a+1
			}
			k++
		}
		copy(es[k:], tmp[a:]) // what is left of es[b:next] is in place
		end = next
	}
	return tmp
}

// planTerms lists the new termination IDs, noting in termLen one whose
// length differs: that one moves every enclosing length and goes the
// long way.
func (rw *rewriter) planTerms(f func([]byte) []byte) {
	rw.terms, rw.termLen = rw.terms[:0], false
	if f == nil {
		return
	}
	var ok bool
	if rw.terms, ok = scan.AppendTerminationIDs(rw.terms, rw.s.Terminations, f); !ok {
		rw.termLen = true
		return
	}
	at := 1
	for _, t := range rw.s.Terminations {
		rw.edits = append(rw.edits, edit{span: t.Span, term: at})
		at += t.Span.Len
	}
}

// newTerm is the new contents of a termination edit.
func (rw *rewriter) newTerm(e *edit) []byte { return rw.terms[e.term-1:][:e.span.Len] }

// emit writes data[off:end], a run of elements, to b, writing anew
// those that are or hold an edit. It writes data as it is lazily: from
// is the first octet of data not yet written, and only an edit writes
// data[from:] up to itself, in one piece (the headers on the way to it,
// and the elements between edits, which it does not read). It returns
// the new from. It reports false when an element it reads is not in the
// encoder's form (the caller then re-encodes): hdr and hdrSlow read only
// that form (a low tag number, a definite and minimal length).
func (rw *rewriter) emit(b, data []byte, from, off, end int) ([]byte, int, bool) {
	for off < end && rw.next < len(rw.edits) && rw.edits[rw.next].span.Off < end {
		id, start, stop := hdr(data, off, end)
		if id == bad {
			if id, start, stop = hdrSlow(data, off, end); id == bad {
				return b, from, false
			}
		}
		e := &rw.edits[rw.next]
		if e.span.Off >= stop {
			off = stop
			continue
		}
		cons := id&0x20 != 0
		switch {
		case e.mid && e.span.Off == off && e.span.End() == stop:
			b = append(append(b, data[from:off]...), rw.mid...)
			rw.next++
			from = stop
		case e.term > 0 && !cons && e.span.Off == start && e.span.End() == stop:
			b = append(append(b, data[from:start]...), rw.newTerm(e)...)
			rw.next++
			from = stop
		case !e.mid && !cons && e.span.Off == start && e.span.End() == stop:
			b = appendID(append(b, data[from:off]...), id, e.v)
			rw.next++
			from = stop
		case cons:
			// An element that holds the edit. Its header goes out with
			// the first edit inside (there is one: the edit), the old
			// length octets at mark holding the place of the new ones,
			// which mostly take as many (then nothing moves). len(b)-from
			// is how far the output has moved from the input: the
			// contents grow by as much as it moves inside them.
			k, mark, moved := start-off-1, len(b)+off+1-from, len(b)-from
			var ok bool
			if b, from, ok = rw.emit(b, data, from, start, stop); !ok {
				return b, from, false
			}
			n := stop - start + len(b) - from - moved
			if !sameLen(b, mark, k, n) {
				b = putLen(b, mark, k, n)
			}
		default:
			return b, from, false // an edit inside a primitive: not what the scanner reports
		}
		off = stop
	}
	return b, from, true
}

// sameLen writes the length n at mark where it takes k octets, as the
// old one did (up to three, which all but the largest lengths take): the
// header copied as it is then has the right first octet. Else it reports
// false, for putLen. It is inlined.
func sameLen(b []byte, mark, k, n int) bool {
	switch {
	case k == 1 && n < 0x80:
		b[mark] = byte(n)
	case k == 2 && n >= 0x80 && n < 0x100:
		b[mark+1] = byte(n)
	case k == 3 && n >= 0x100 && n < 0x10000:
		b[mark+1], b[mark+2] = byte(n>>8), byte(n)
	default:
		return false
	}
	return true
}

// putLen writes the length n at mark in place of the k octets there,
// moving what follows them in b when it takes another number of octets.
func putLen(b []byte, mark, k, n int) []byte {
	need := 1
	if n >= 0x80 {
		need += (bits.Len(uint(n)) + 7) / 8
	}
	switch tail := len(b) - mark - k; {
	case need > k:
		b = append(b, make([]byte, need-k)...)
		copy(b[mark+need:], b[mark+k:mark+k+tail])
	case need < k:
		copy(b[mark+need:], b[mark+k:])
		b = b[:mark+need+tail]
	}
	if need == 1 {
		b[mark] = byte(n)
		return b
	}
	b[mark] = 0x80 | byte(need-1)
	for i := need - 1; i >= 1; i-- {
		b[mark+i] = byte(n)
		n >>= 8
	}
	return b
}

// recode is Rewrite the slow way, for input not in the encoder's form.
func (rw *rewriter) recode(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
	rw.dec.Options = Options{Limits: lim}
	m, err := rw.dec.Decode(data)
	if err != nil {
		return dst, err
	}
	scan.Apply(m, ch)
	return Append(dst, m, Options{})
}

// sameLengths reports whether every edit keeps the length of what it
// replaces: then no enclosing length changes, and the copy is patched in
// place (a load generator's new IDs mostly have the old ones' length).
func (rw *rewriter) sameLengths() bool {
	for _, e := range rw.edits {
		n := len(rw.mid)
		switch {
		case e.term > 0:
			continue // planTerms has checked
		case !e.mid:
			n = intLen(e.v)
		}
		if n != e.span.Len {
			return false
		}
	}
	return true
}

// appendID appends an INTEGER of identifier octet id and value v as the
// encoder writes it (appendUint, minimal two's complement), with one
// append of at most seven octets: appendUint's general loops cost a
// rewrite more than the rest of its copying.
func appendID(b []byte, id byte, v uint32) []byte {
	n := intLen(v)
	var c [7]byte
	c[0], c[1] = id, byte(n)
	for i := n + 1; i >= 2; i-- {
		c[i] = byte(v)
		v >>= 8
	}
	return append(b, c[:n+2]...)
}

// intLen is the length of v's INTEGER contents as the encoder writes
// them: minimal two's complement.
func intLen(v uint32) int { return bits.Len32(v)/8 + 1 }

// patch appends data to dst and writes the edits over the copy.
func (rw *rewriter) patch(dst, data []byte) []byte {
	base := len(dst)
	dst = append(dst, data...)
	for _, e := range rw.edits {
		c := dst[base+e.span.Off : base+e.span.End()]
		switch {
		case e.mid:
			copy(c, rw.mid)
			continue
		case e.term > 0:
			copy(c, rw.newTerm(&e))
			continue
		}
		PutUint(c, e.v)
	}
	return dst
}

// PutUint writes v over b as big-endian octets, as many as b has: an
// INTEGER's contents written in place, where the new value takes as many
// octets as the old (sameLengths). It reports false, b then holding v's
// low octets, when v needs more. The load generator's patcher writes its
// per-call IDs with it too.
func PutUint(b []byte, v uint32) bool {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
	return v == 0
}
