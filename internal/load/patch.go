package load

import (
	"bytes"
	"math/bits"
	"slices"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"

	"megaco/internal/codec"
	"megaco/internal/codec/ber"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// A patcher makes one side of one step for each call, faster than a
// rewrite: a call's output differs from another's only in the IDs'
// values as long as every new ID encodes to as many bytes (the calls
// from 256 to 65535 all do, say). So it keeps, for each signature (the
// lengths of the call's IDs), a lesson: one rewrite's output and where
// its IDs stand; a call whose signature has a lesson is that output with
// the call's IDs written over a copy. Only a call with a new signature
// is rewritten (its codec.NewRewriter) and scanned to find its IDs.
//
// It writes a number as the codec writes it when that has the same
// length (big-endian octets: BER and PER INTEGERs; a varint: native;
// decimal digits: text), which it checks on the first output: a codec
// whose IDs are not such bytes where its scanner says (a compressed
// encoding) is always rewritten.
//
// The patchers of one step side in a run's Builders are forks of one
// (fork): they share the lessons and the rewriter, so what one call
// learnt serves every call after it, in whichever Builder.
type patcher struct {
	name string
	// rewrite is the codec's, with memory of its own where the codec
	// keeps some (codec.NewRewriter: text's templates of the bases).
	rewrite codec.Rewriter
	sites   []idSite // the base's IDs, in the order a scan reports them
	lessons *lessons
	cur     *lesson // the last call's
	never   bool    // lessons.never, once seen

	scratch []byte
	newSig  []uint8  // the lengths of the call's IDs
	vals    []uint32 // the call's new numbers, in site order
	terms   []byte   // the call's new termination IDs, one after the other
	s       scan.Summary
	patched int // calls made by patching (for the tests)
}

// A lesson is what one rewrite taught: read-only once made.
type lesson struct {
	sig   []uint8     // the lengths of out's IDs
	out   []byte      // a call's output
	spans []scan.Span // where out's IDs stand
	put   putFunc     // how the codec writes a number there
}

// lessons are a step side's lessons by signature, for every fork of its
// patcher at once. never says the codec's output cannot be patched (see
// patcher): every call is rewritten.
type lessons struct {
	mu    sync.Mutex
	bySig map[string]*lesson
	never bool
}

// maxLessons bounds a step side's lessons: a run's call numbers give a
// few signatures (the IDs' lengths change at powers of 2 and 10), but
// the numbers are the user's to choose.
const maxLessons = 64

func (ls *lessons) get(sig []uint8) (l *lesson, never bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.bySig[string(sig)], ls.never
}

func (ls *lessons) add(l *lesson) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if l == nil {
		ls.never = true
		return
	}
	if ls.bySig == nil || len(ls.bySig) >= maxLessons {
		ls.bySig = make(map[string]*lesson)
	}
	ls.bySig[string(l.sig)] = l
}

type siteKind uint8

const (
	siteTx siteKind = iota
	siteCtx
	siteTerm
)

// idSite is one ID the changes may change.
type idSite struct {
	kind siteKind
	old  uint32
	term []byte // a termination's old ID (in the base)
}

// putFunc writes v over b, as many bytes as b has; false if v does not
// take that many.
type putFunc func(b []byte, v uint32) bool

func newPatcher(name string, base []byte, lim limits.Limits) *patcher {
	p := &patcher{name: name, lessons: new(lessons)}
	var err error
	if p.rewrite, err = codec.NewRewriter(name); err != nil {
		p.rewrite = func(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
			return codec.Rewrite(name, dst, data, ch, lim) // which says why
		}
	}
	if codec.Scan(name, base, &p.s, lim) != nil {
		p.lessons.never = true // no sites: rewrite every call
		return p
	}
	for _, t := range p.s.Transactions {
		if t.Kind == scan.ResponseAck {
			p.lessons.never = true // a lastAck is no site: rewrite every call
			return p
		}
		p.sites = append(p.sites, idSite{kind: siteTx, old: t.ID})
	}
	for _, a := range p.s.Actions {
		if !scan.Special(a.ContextID) {
			p.sites = append(p.sites, idSite{kind: siteCtx, old: a.ContextID})
		}
	}
	for _, t := range p.s.Terminations {
		p.sites = append(p.sites, idSite{kind: siteTerm, term: bytes.Clone(t.ID)})
	}
	return p
}

// fork returns a patcher for another Builder, sharing what p has and
// will learn: its sites (read-only), its rewriter and its lessons (both
// safe for concurrent use).
func (p *patcher) fork() *patcher {
	return &patcher{name: p.name, rewrite: p.rewrite, sites: p.sites, lessons: p.lessons}
}

// build appends to dst base with ch's changes.
func (p *patcher) build(dst, base []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
	if p.never {
		return p.rewrite(dst, base, ch, lim)
	}
	p.values(ch)
	if l := p.cur; l == nil || !slices.Equal(l.sig, p.newSig) {
		if p.cur, p.never = p.lessons.get(p.newSig); p.never {
			return p.rewrite(dst, base, ch, lim)
		}
	}
	if l := p.cur; l != nil {
		at := len(dst)
		dst = append(dst, l.out...)
		p.patch(dst[at:], l)
		p.patched++
		return dst, nil
	}
	out, err := p.rewrite(nil, base, ch, lim)
	if err != nil {
		return dst, err
	}
	p.cur = p.learn(out, lim)
	p.lessons.add(p.cur)
	return append(dst, out...), nil
}

// values computes the call's new IDs and their lengths.
func (p *patcher) values(ch *scan.Changes) {
	p.vals, p.terms, p.newSig = p.vals[:0], p.terms[:0], p.newSig[:0]
	for _, s := range p.sites {
		switch s.kind {
		case siteTx, siteCtx:
			f := ch.TransactionIDs
			if s.kind == siteCtx {
				f = ch.ContextIDs
			}
			v := s.old
			if f != nil {
				v = f(v)
			}
			p.vals = append(p.vals, v)
			p.newSig = append(p.newSig, uint8(bits.Len32(v)), decimalDigits(v))
		case siteTerm:
			t := s.term
			if ch.TerminationIDs != nil {
				t = ch.TerminationIDs(t)
			}
			p.terms = append(p.terms, t...)
			p.newSig = append(p.newSig, uint8(len(t)))
		}
	}
}

func decimalDigits(v uint32) uint8 {
	n := uint8(1)
	for ; v >= 10; v /= 10 {
		n++
	}
	return n
}

// patch writes the call's IDs over b, a copy of l.out.
func (p *patcher) patch(b []byte, l *lesson) {
	vals, terms := p.vals, p.terms
	for i, s := range p.sites {
		sp := b[l.spans[i].Off:l.spans[i].End()]
		if s.kind == siteTerm {
			terms = terms[copy(sp, terms):]
			continue
		}
		l.put(sp, vals[0])
		vals = vals[1:]
	}
}

// learn finds the IDs in out (just rewritten with the call's IDs) and
// how the codec writes a number there; nil when it cannot tell.
func (p *patcher) learn(out []byte, lim limits.Limits) *lesson {
	l := &lesson{sig: slices.Clone(p.newSig), out: out}
	if !p.findSpans(l, lim) {
		return nil
	}
	// A short value may not tell a varint from big-endian octets; any
	// of the ways that gives out back writes every value of this
	// signature so. Big-endian octets are BER's and PER's INTEGER
	// contents, which the BER rewriter writes in place the same way.
	for _, put := range []putFunc{ber.PutUint, putVarint, putDecimal} {
		if p.check(l, put) {
			l.put = put
			return l
		}
	}
	return nil
}

// findSpans scans l.out for the sites' places: the same IDs in the same
// order as in the base, with the call's values.
func (p *patcher) findSpans(l *lesson, lim limits.Limits) bool {
	if codec.Scan(p.name, l.out, &p.s, lim) != nil {
		return false
	}
	for _, t := range p.s.Transactions {
		l.spans = append(l.spans, t.IDSpan)
	}
	for _, a := range p.s.Actions {
		if !scan.Special(a.ContextID) {
			l.spans = append(l.spans, a.Span)
		}
	}
	for _, t := range p.s.Terminations {
		l.spans = append(l.spans, t.Span)
	}
	if len(l.spans) != len(p.sites) {
		return false
	}
	for _, sp := range l.spans {
		if sp.Off < 0 || sp.End() > len(l.out) || sp.Len == 0 {
			return false
		}
	}
	return true
}

// check reports whether put (and copying the terminations), writing the
// call's IDs over a copy of l.out whose IDs are blanked, gives l.out
// again.
func (p *patcher) check(l *lesson, put putFunc) bool {
	p.scratch = append(p.scratch[:0], l.out...)
	for _, sp := range l.spans {
		clear(p.scratch[sp.Off:sp.End()])
	}
	vals, terms := p.vals, p.terms
	for i, s := range p.sites {
		sp := p.scratch[l.spans[i].Off:l.spans[i].End()]
		if s.kind == siteTerm {
			if len(terms) < len(sp) {
				return false
			}
			terms = terms[copy(sp, terms):]
			continue
		}
		if !put(sp, vals[0]) {
			return false
		}
		vals = vals[1:]
	}
	return bytes.Equal(p.scratch, l.out)
}

func putVarint(b []byte, v uint32) bool {
	if protowire.SizeVarint(uint64(v)) != len(b) {
		return false
	}
	protowire.AppendVarint(b[:0], uint64(v))
	return true
}

func putDecimal(b []byte, v uint32) bool {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = '0' + byte(v%10)
		v /= 10
	}
	return v == 0
}
