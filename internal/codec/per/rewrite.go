package per

import (
	"math/bits"
	"sync"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/per/x691"
	"megaco/internal/codec/scan"
	"megaco/internal/model"
)

// Rewrite appends to dst data with the IDs ch names changed, as decode ->
// scan.Apply -> encode would write it (for data as an encoder writes it:
// other bytes are copied as they are).
//
// A transaction or context ID is an INTEGER (0..4294967295): X.691 10.5.7.4
// writes its octet count less one in 2 bits, then pads to an octet
// boundary and writes the minimal octets. A new value is written in place:
// the 2 bits rewritten and the octets spliced. The 2 bits stay where they
// are, so does the padding after them, and everything after the octets
// moves by whole octets, so that every later alignment is unchanged. No
// length counts octets but an open type's (an extension addition's): an ID
// inside one whose octet count changes goes the long way, decode ->
// change -> encode: correct, not faster. A new mId of as many bits as the
// old one (an IPv4 address for another) is written over it; one of
// another size would move what follows by bits, changing its alignment,
// and goes the long way too.
//
// A termination's id (OCTET STRING SIZE(1..8)) is a 3-bit length, the
// padding to an octet boundary, then the octets: a new ID as long as
// the old one is written over them, where the IDs before it have moved
// them; one of another length would move what follows by bits, and goes
// the long way.
func Rewrite(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
	w := rewriters.Get().(*rewriter)
	defer rewriters.Put(w)
	w.sites = w.sites[:0]
	// The IDs are collected down to where the walk stops: the summary's
	// depth is the deepest ID that changes. Past the last of them the
	// walk stops (see scanner.done) and what follows is copied unread.
	switch {
	case ch.TerminationIDs != nil:
		w.s.Want = scan.Everything
	case ch.ContextIDs != nil:
		w.s.Want = scan.Actions
	default:
		w.s.Want = scan.Transactions
	}
	d := scanner{sites: &w.sites}
	if err := d.run(data, &w.s, lim); err != nil {
		return dst, err
	}
	if d.reassembled {
		return rewriteByModel(dst, data, ch, lim) // positions are in a copy
	}
	if ch.MID != nil {
		if !w.newMID(&d, data, ch.MID) {
			return rewriteByModel(dst, data, ch, lim)
		}
		data = w.buf
	}
	if ch.TerminationIDs != nil && !w.newTerms(ch.TerminationIDs) {
		return rewriteByModel(dst, data, ch, lim)
	}
	same := true // every new ID has as many octets as the old one
	for i := range w.sites {
		st := &w.sites[i]
		st.value = newID(st, ch)
		if n := octets32(st.value); n != oldOctets(data, st.at) {
			if st.open {
				return rewriteByModel(dst, data, ch, lim)
			}
			same = false
		}
	}
	start := len(dst)
	w.moves = w.moves[:0]
	if same {
		dst = w.patchIDs(dst, data)
	} else {
		dst = w.spliceIDs(dst, data)
	}
	if ch.TerminationIDs != nil {
		w.patchTerms(dst[start:])
	}
	return dst, nil
}

// patchIDs appends data with the new IDs written over the old ones, all
// of the same octet counts: the common case, one copy.
func (w *rewriter) patchIDs(dst, data []byte) []byte {
	base := len(dst)
	dst = append(dst, data...)
	for _, st := range w.sites {
		off := base + (st.at+2+7)>>3
		for k, n := 0, octets32(st.value); k < n; k++ {
			dst[off+k] = byte(st.value >> (8 * (n - 1 - k)))
		}
	}
	return dst
}

// spliceIDs appends data with the new IDs in place of the old ones, their
// 2-bit lengths rewritten, noting in w.moves where what follows moved.
func (w *rewriter) spliceIDs(dst, data []byte) []byte {
	prev := 0
	for _, st := range w.sites {
		off := (st.at + 2 + 7) >> 3
		base := len(dst)
		dst = append(dst, data[prev:off]...)
		n := octets32(st.value)
		putBits2(dst[base:], st.at-8*prev, uint8(n-1))
		for k := n - 1; k >= 0; k-- {
			dst = append(dst, byte(st.value>>(8*k)))
		}
		prev = off + oldOctets(data, st.at)
		w.moves = append(w.moves, move{off: off, by: n - oldOctets(data, st.at)})
	}
	return append(dst, data[prev:]...)
}

// move is how many octets an ID's new value moves what follows it.
type move struct{ off, by int }

// newTerms lists the new termination IDs in w.terms; false when one's
// length differs from the old one's.
func (w *rewriter) newTerms(f func([]byte) []byte) bool {
	var ok bool
	w.terms, ok = scan.AppendTerminationIDs(w.terms[:0], w.s.Terminations, f)
	return ok
}

// patchTerms writes the new termination IDs over out, the copy, each
// where the IDs before it have moved it.
func (w *rewriter) patchTerms(out []byte) {
	ids, k, by := w.terms, 0, 0
	for _, t := range w.s.Terminations {
		for k < len(w.moves) && w.moves[k].off <= t.Span.Off {
			by += w.moves[k].by
			k++
		}
		ids = ids[copy(out[t.Span.Off+by:t.Span.End()+by], ids):]
	}
}

// rewriter is the memory a Rewrite reuses.
type rewriter struct {
	s               scan.Summary
	sites           []site
	mid, buf, terms []byte
	moves           []move
}

// newMID writes mid over the message's mId in a copy of data (w.buf)
// when its encoding has the same number of bits, which is all it takes
// (an address for another, a name for one as long); false when it has
// not, or does not encode: the caller then goes the long way, which says
// why.
func (w *rewriter) newMID(d *scanner, data []byte, mid *model.MId) bool {
	phase := d.midAt & 7
	e := x691.NewWriter(w.mid[:0])
	e.PutBits(0, phase) // the same alignment as in the message
	if appendMIdV123(e, mid) != nil || e.BitLen()-phase != d.midTo-d.midAt {
		return false
	}
	w.mid = e.Bytes()
	w.buf = append(w.buf[:0], data...)
	first := d.midAt >> 3
	for k, b := range w.mid {
		lo, hi := max(d.midAt-8*(first+k), 0), min(d.midTo-8*(first+k), 8)
		if hi <= lo {
			continue
		}
		mask := byte(0xFF>>lo) &^ byte(0xFF>>hi) // the mId's bits of this octet
		w.buf[first+k] = w.buf[first+k]&^mask | b&mask
	}
	return true
}

var rewriters = sync.Pool{New: func() any { return new(rewriter) }}

// newID is the value the site takes under ch.
func newID(st *site, ch *scan.Changes) uint32 {
	v := st.value
	switch {
	case st.kind == txSite && ch.TransactionIDs != nil:
		return ch.TransactionIDs(v)
	case st.kind == contextSite && ch.ContextIDs != nil && !scan.Special(v):
		return ch.ContextIDs(v)
	}
	return v
}

// octets32 is the minimal number of octets of v, at least one.
func octets32(v uint32) int { return max(1, (bits.Len32(v)+7)/8) }

// oldOctets reads the octet count of the INTEGER (0..4294967295) whose
// 2-bit length is at bit at (checked by the scan that found it).
func oldOctets(data []byte, at int) int {
	hi := data[at>>3] >> (7 - uint(at&7)) & 1
	lo := data[(at+1)>>3] >> (7 - uint((at+1)&7)) & 1
	return int(hi<<1|lo) + 1
}

// putBits2 writes the two bits of v at bit at of b.
func putBits2(b []byte, at int, v uint8) {
	for i := 0; i < 2; i++ {
		p := at + i
		mask := byte(0x80) >> uint(p&7)
		if v>>(1-uint(i))&1 != 0 {
			b[p>>3] |= mask
		} else {
			b[p>>3] &^= mask
		}
	}
}

// rewriteByModel is decode -> change -> encode.
func rewriteByModel(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
	var dec Decoder
	dec.Options.Limits = lim
	m, err := dec.Decode(data)
	if err != nil {
		return dst, err
	}
	scan.Apply(m, ch)
	return Append(dst, m, Options{})
}
