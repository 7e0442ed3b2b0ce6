package load

import (
	"bytes"
	"math/bits"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"

	"megaco/internal/codec"
	"megaco/internal/codec/ber"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// A patcher makes one side of one step for each call, faster than a
// rewrite: a call's output differs from another's only in the IDs'
// values as long as every new ID encodes to as many bytes (the calls
// from 256 to 65535 all do, say). So it keeps the last rewrite's output
// and where its IDs stand, and for a call whose IDs have the same
// lengths writes them over a copy; only a call with other lengths is
// rewritten (its codec.NewRewriter), and scanned to find its IDs.
//
// It writes a number as the codec writes it when that has the same
// length (big-endian octets: BER and PER INTEGERs; a varint: native;
// decimal digits: text), which it checks on the first output: a codec
// whose IDs are not such bytes where its scanner says (a compressed
// encoding) is always rewritten.
type patcher struct {
	name string
	// rewrite is the codec's, with memory of its own where the codec
	// keeps some (codec.NewRewriter: text's templates of the bases).
	rewrite codec.Rewriter
	sites   []idSite // the base's IDs, in the order a scan reports them
	put     putFunc  // nil: rewrite every call
	tried   bool     // put was looked for

	out, scratch []byte
	sig, newSig  []uint8     // the lengths of out's IDs, of the call's
	spans        []scan.Span // where out's IDs stand
	vals         []uint32    // the call's new numbers, in site order
	terms        []byte      // the call's new termination IDs, one after the other
	s            scan.Summary
	patched      int // calls made by patching (for the tests)
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
	p := &patcher{name: name}
	var err error
	if p.rewrite, err = codec.NewRewriter(name); err != nil {
		p.rewrite = func(dst, data []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
			return codec.Rewrite(name, dst, data, ch, lim) // which says why
		}
	}
	if codec.Scan(name, base, &p.s, lim) != nil {
		p.tried = true // no sites: rewrite every call
		return p
	}
	for _, t := range p.s.Transactions {
		if t.Kind == scan.ResponseAck {
			p.tried = true // a lastAck is no site: rewrite every call
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

// build appends to dst base with ch's changes.
func (p *patcher) build(dst, base []byte, ch *scan.Changes, lim limits.Limits) ([]byte, error) {
	if p.tried && p.put == nil {
		return p.rewrite(dst, base, ch, lim)
	}
	p.values(ch)
	if p.out != nil && slices.Equal(p.sig, p.newSig) {
		at := len(dst)
		dst = append(dst, p.out...)
		p.patch(dst[at:])
		p.patched++
		return dst, nil
	}
	out, err := p.rewrite(p.out[:0], base, ch, lim)
	if err != nil {
		return dst, err
	}
	p.out = out
	p.learn(lim)
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

// patch writes the call's IDs over b, a copy of p.out.
func (p *patcher) patch(b []byte) {
	vals, terms := p.vals, p.terms
	for i, s := range p.sites {
		sp := b[p.spans[i].Off:p.spans[i].End()]
		if s.kind == siteTerm {
			terms = terms[copy(sp, terms):]
			continue
		}
		p.put(sp, vals[0])
		vals = vals[1:]
	}
}

// learn finds the IDs in p.out (just rewritten with the call's IDs) and
// how the codec writes a number there; when it cannot tell, the patcher
// rewrites every call from then on.
func (p *patcher) learn(lim limits.Limits) {
	p.sig = append(p.sig[:0], p.newSig...)
	p.tried = true
	if p.findSpans(lim) {
		// The last way first: a short value may not tell a varint from
		// big-endian octets, a longer one does.
		// Big-endian octets are BER's and PER's INTEGER contents, which
		// the BER rewriter writes in place the same way.
		for _, put := range []putFunc{p.put, ber.PutUint, putVarint, putDecimal} {
			if put != nil && p.check(put) {
				p.put = put
				return
			}
		}
	}
	p.put, p.out = nil, nil
}

// findSpans scans p.out for the sites' places: the same IDs in the same
// order as in the base, with the call's values.
func (p *patcher) findSpans(lim limits.Limits) bool {
	if codec.Scan(p.name, p.out, &p.s, lim) != nil {
		return false
	}
	p.spans = p.spans[:0]
	for _, t := range p.s.Transactions {
		p.spans = append(p.spans, t.IDSpan)
	}
	for _, a := range p.s.Actions {
		if !scan.Special(a.ContextID) {
			p.spans = append(p.spans, a.Span)
		}
	}
	for _, t := range p.s.Terminations {
		p.spans = append(p.spans, t.Span)
	}
	if len(p.spans) != len(p.sites) {
		return false
	}
	for _, sp := range p.spans {
		if sp.Off < 0 || sp.End() > len(p.out) || sp.Len == 0 {
			return false
		}
	}
	return true
}

// check reports whether put (and copying the terminations), writing the call's IDs over a copy of
// p.out whose IDs are blanked, gives p.out again.
func (p *patcher) check(put putFunc) bool {
	p.scratch = append(p.scratch[:0], p.out...)
	for _, sp := range p.spans {
		clear(p.scratch[sp.Off:sp.End()])
	}
	vals, terms := p.vals, p.terms
	for i, s := range p.sites {
		sp := p.scratch[p.spans[i].Off:p.spans[i].End()]
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
	return bytes.Equal(p.scratch, p.out)
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
