package text

import (
	"bytes"
	"hash/maphash"
	"slices"
	"sync"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// Rewrite appends to dst the message data (either style) with the IDs ch
// names changed, written in style: byte for byte what Decode, changing
// the model (scan.Apply) and Append in style give. It keeps nothing from
// call to call, so it costs a decode and an encode; a caller that
// rewrites the same messages again and again (a load generator) keeps a
// Rewriter, which splices the new IDs into a template of each.
func Rewrite(dst, data []byte, ch *scan.Changes, style Style, lim limits.Limits) ([]byte, error) {
	lim = lim.OrDefault()
	if err := checkRewrite(data, style, lim); err != nil {
		return dst, err
	}
	return rewriteSlow(dst, data, ch, style, lim)
}

// Rewrite is the rewriter of the codec of this style (see Rewrite).
func (st Style) Rewrite(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
	return Rewrite(dst, data, ch, st, lim)
}

func checkRewrite(data []byte, style Style, lim limits.Limits) error {
	if style != Pretty && style != Compact {
		return encErrNoTextf("unknown style %d", int(style))
	}
	return lim.CheckSize(style.String(), placeIn(data, 0), len(data))
}

// A Rewriter is Rewrite in one style with memory of the messages it has
// seen. It is safe for concurrent use, so the callers that rewrite the
// same messages (a load generator's calls of one pattern) share one and
// what one of them taught it serves all. Its memory is bounded:
// templateMax templates of at most templateBytes in all, and
// templateSeen hashes of messages seen once; past a bound it starts over.
//
// The encoder does not write back what it read: it normalises spacing,
// keyword spellings and case. So the bytes to change are those of the
// encoder's output, not of data. A Rewriter keeps, for a message it has
// seen twice, a template: the encoder's output of the unchanged message
// and where its IDs stand in it. The IDs are written as the encoder
// writes them (none of them changes anything else of the encoding), so
// splicing the new IDs into the template is the encoding of the changed
// message. A message seen once, as in a proxy's traffic where every
// message differs, goes through decode -> change -> encode, and costs one
// hash more.
type Rewriter struct {
	style Style
	// mu guards the memory below; a template, once made, is read-only,
	// so it is applied outside the lock.
	mu    sync.Mutex
	seed  maphash.Seed
	byKey map[uint64]*template
	size  int
	seen  map[uint64]struct{}
}

// NewRewriter returns a Rewriter writing style. (The zero Rewriter
// writes Style(0).)
func NewRewriter(style Style) *Rewriter {
	return &Rewriter{style: style, seed: maphash.MakeSeed()}
}

// Rewrite is Rewrite in the Rewriter's style, from a template when it
// has one for data.
func (r *Rewriter) Rewrite(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
	lim = lim.OrDefault()
	if err := checkRewrite(data, r.style, lim); err != nil {
		return dst, err
	}
	t, h, again := r.lookup(data, lim)
	if t != nil {
		if out, ok := t.apply(dst, ch); ok {
			return out, nil
		}
	} else if again {
		// Made outside the lock: two callers may both make it, and the
		// second one's replaces the first's, which is the same.
		r.add(h, newTemplate(data, r.style, lim))
	}
	return rewriteSlow(dst, data, ch, r.style, lim)
}

// lookup returns data's template under lim, or else data's hash and
// whether data was seen before (which it records).
func (r *Rewriter) lookup(data []byte, lim limits.Limits) (t *template, h uint64, again bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seed == (maphash.Seed{}) { // a Rewriter not made by NewRewriter
		r.seed = maphash.MakeSeed()
	}
	h = maphash.Bytes(r.seed, data)
	if t = r.find(h, lim, data); t != nil {
		return t, h, true
	}
	return nil, h, r.seenBefore(h)
}

// rewriteSlow is decode -> change -> encode.
func rewriteSlow(dst, data []byte, ch *scan.Changes, style Style, lim limits.Limits) ([]byte, error) {
	m, release, err := Codec{Style: style, Options: Options{Limits: lim}}.DecodeReused(data)
	if err != nil {
		return dst, err
	}
	defer release()
	mid := m.Mess.MId
	scan.Apply(m, ch)
	dst, err = Append(dst, m, style, Options{})
	// The pooled decoder's memory must not keep the caller's mId.
	m.Mess.MId = mid
	return dst, err
}

// A spot is an ID in a template's bytes.
type spot struct {
	off, len int
	role     uint8
	old      uint32
}

const (
	spotMID uint8 = iota
	spotTx
	spotCtx
	spotTerm
)

// template is the encoder's output of a message in one style, and where
// its IDs are.
type template struct {
	in      []byte // the message as given to Rewrite
	style   Style
	lim     limits.Limits
	version int
	out     []byte
	spots   []spot
}

// newTemplate encodes data's message unchanged and finds its IDs; nil if
// it does not decode or encode.
func newTemplate(data []byte, style Style, lim limits.Limits) *template {
	m, release, err := Codec{Style: style, Options: Options{Limits: lim}}.DecodeReused(data)
	if err != nil {
		return nil
	}
	version := int(m.Mess.Version)
	out, err := Append(nil, m, style, Options{})
	release()
	if err != nil {
		return nil
	}
	var s scan.Summary
	if Scan(out, &s, limits.Limits{MaxSize: len(out)}) != nil {
		return nil
	}
	t := &template{in: bytes.Clone(data), style: style, lim: lim, version: version, out: out}
	t.spots = append(t.spots, spot{off: s.MID.Span.Off, len: s.MID.Span.Len, role: spotMID})
	for _, x := range s.Transactions {
		t.spots = append(t.spots, spot{off: x.IDSpan.Off, len: x.IDSpan.Len, role: spotTx, old: x.ID})
		if end := x.IDSpan.End(); x.Kind == scan.ResponseAck && end < len(out) && out[end] == '-' {
			n := end + 1
			for n < len(out) && out[n] >= '0' && out[n] <= '9' {
				n++
			}
			t.spots = append(t.spots, spot{off: end + 1, len: n - end - 1, role: spotTx, old: x.LastID})
		}
	}
	for _, a := range s.Actions {
		t.spots = append(t.spots, spot{off: a.Span.Off, len: a.Span.Len, role: spotCtx, old: a.ContextID})
	}
	for _, x := range s.Terminations {
		t.spots = append(t.spots, spot{off: x.Span.Off, len: x.Span.Len, role: spotTerm})
	}
	slices.SortFunc(t.spots, func(a, b spot) int { return a.off - b.off })
	return t
}

// apply appends the template with ch's changes; false if the new mId or
// a new termination ID does not encode (the slow path then reports why).
func (t *template) apply(dst []byte, ch *scan.Changes) ([]byte, bool) {
	var none scan.Changes
	if ch == nil {
		ch = &none
	}
	e := textEncoder{b: dst, v: t.version, pretty: t.style == Pretty, words: &wordSpelling[t.style]}
	last := 0
	for _, sp := range t.spots {
		e.b = append(e.b, t.out[last:sp.off]...)
		last = sp.off + sp.len
		switch {
		case sp.role == spotTx && ch.TransactionIDs != nil:
			e.uint(uint64(ch.TransactionIDs(sp.old)))
		case sp.role == spotCtx && ch.ContextIDs != nil && !scan.Special(sp.old):
			e.contextID(ch.ContextIDs(sp.old))
		case sp.role == spotTerm && ch.TerminationIDs != nil:
			// Any length: text holds none. A new ID the grammar cannot
			// hold fails in the slow path, which says why.
			if e.termName(ch.TerminationIDs(t.out[sp.off:last])) != nil {
				return dst, false
			}
		case sp.role == spotMID && ch.MID != nil:
			if e.mID(ch.MID) != nil {
				return dst, false
			}
		default:
			e.b = append(e.b, t.out[sp.off:last]...)
		}
	}
	return append(e.b, t.out[last:]...), true
}

// The bounds of a Rewriter's memory.
const (
	templateMax   = 256
	templateBytes = 4 << 20
	templateSeen  = 4096
)

// find returns the template of data under lim, or nil; r.mu held.
func (r *Rewriter) find(h uint64, lim limits.Limits, data []byte) *template {
	t := r.byKey[h]
	if t == nil || t.lim != lim || !bytes.Equal(t.in, data) {
		return nil
	}
	return t
}

// seenBefore records h and tells whether it was recorded before; r.mu
// held.
func (r *Rewriter) seenBefore(h uint64) bool {
	if _, ok := r.seen[h]; ok {
		return true
	}
	if r.seen == nil || len(r.seen) >= templateSeen {
		r.seen = make(map[uint64]struct{})
	}
	r.seen[h] = struct{}{}
	return false
}

func (r *Rewriter) add(h uint64, t *template) {
	if t == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(t.in) + len(t.out)
	if r.byKey == nil || len(r.byKey) >= templateMax || r.size+n > templateBytes {
		r.byKey, r.size = make(map[uint64]*template), 0
	}
	if old := r.byKey[h]; old != nil { // made by two callers at once
		r.size -= len(old.in) + len(old.out)
	}
	r.byKey[h] = t
	r.size += n
}
