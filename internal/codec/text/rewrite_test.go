package text

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"testing"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
	"megaco/internal/model"
)

// rewriteChanges are the changes the property test makes: IDs shifted,
// to 0, to the largest, to lengths shorter and longer, and a new mId of
// each kind; and the changes every codec's rewriter is tested with
// (corpus.ChangeCases: termination IDs among them).
func rewriteChanges() map[string]*scan.Changes {
	plus := func(v uint32) uint32 { return v + 1 }
	port := model.Opt[uint32]{Present: true, Value: 2944}
	out := map[string]*scan.Changes{
		"none":     nil,
		"empty":    {},
		"plus one": {TransactionIDs: plus, ContextIDs: plus},
		"to zero":  {TransactionIDs: func(uint32) uint32 { return 0 }, ContextIDs: func(uint32) uint32 { return 0 }},
		"to max": {TransactionIDs: func(uint32) uint32 { return 0xFFFFFFFF },
			ContextIDs: func(uint32) uint32 { return 0xFFFFFFFF }},
		"to choose": {ContextIDs: func(uint32) uint32 { return 0xFFFFFFFE }},
		"lengths": {TransactionIDs: func(v uint32) uint32 { return v % 7 },
			ContextIDs: func(v uint32) uint32 { return v*1000 + 4000000000%(v+1) }},
		"ip4": {TransactionIDs: plus, MID: &model.MId{Kind: model.MId_Ip4Address,
			Ip4Address: &model.IP4Address{Address: []byte{10, 0, 0, 1}, PortNumber: port}}},
		"ip6": {MID: &model.MId{Kind: model.MId_Ip6Address,
			Ip6Address: &model.IP6Address{Address: make([]byte, 16)}}},
		"domain": {ContextIDs: plus, MID: &model.MId{Kind: model.MId_DomainName,
			DomainName: &model.DomainName{Name: "mgc.example.net", PortNumber: port}}},
		"device": {MID: &model.MId{Kind: model.MId_DeviceName, DeviceName: "mg/7"}},
		"mtp":    {MID: &model.MId{Kind: model.MId_MtpAddress, MtpAddress: []byte{1, 2, 3, 4}}},
	}
	for _, c := range corpus.ChangeCases() {
		out["shared "+c.Name] = &c.Changes
	}
	return out
}

// decodeChangeEncode is what Rewrite must give.
func decodeChangeEncode(data []byte, ch *scan.Changes, style Style) ([]byte, error) {
	m, err := Decode(data, Options{})
	if err != nil {
		return nil, err
	}
	scan.Apply(m, ch)
	return Append(nil, m, style, Options{})
}

// Rewrite gives decode -> change -> encode byte for byte, for every
// message of the corpus in both styles and the encoder's own output, in
// both styles, whether it takes the template or not.
func TestRewriteMatchesDecodeChangeEncode(t *testing.T) {
	changes := rewriteChanges()
	n := 0
	for _, c := range scanCases(t) {
		if _, err := Decode(c.data, Options{}); err != nil {
			continue
		}
		for _, style := range []Style{Pretty, Compact} {
			tmpl := newTemplate(c.data, style, limits.Default)
			if _, err := decodeChangeEncode(c.data, nil, style); err != nil {
				// Appendix A has SDP the encoder refuses: so does Rewrite.
				if _, rerr := Rewrite(nil, c.data, nil, style, limits.Limits{}); tmpl != nil || rerr == nil {
					t.Errorf("%s: %v encodes to nothing (%v), but Rewrite gives no error", c.name, style, err)
				}
				continue
			}
			if tmpl == nil {
				t.Errorf("%s: no %v template", c.name, style)
				continue
			}
			for name, ch := range changes {
				want, werr := decodeChangeEncode(c.data, ch, style)
				got, ok := tmpl.apply([]byte("x"), ch)
				if werr != nil {
					if ok {
						t.Errorf("%s %v %s: template gave %q where the encoder fails: %v", c.name, style, name, got, werr)
					}
					continue
				}
				if !ok || !bytes.Equal(got[1:], want) || got[0] != 'x' {
					t.Errorf("%s %v %s: template gave\n%q\nwant\n%q", c.name, style, name, got, want)
				}
				// Rewrite and a Rewriter's first two calls take the slow
				// path, its third the template: all agree.
				rw := NewRewriter(style)
				for i := range 4 {
					rewrite := rw.Rewrite
					if i == 3 {
						rewrite = style.Rewrite
					}
					out, err := rewrite(nil, c.data, ch, limits.Limits{})
					if err != nil || !bytes.Equal(out, want) {
						t.Fatalf("%s %v %s call %d: %q, %v\nwant %q", c.name, style, name, i, out, err, want)
					}
				}
				n++
			}
		}
	}
	t.Logf("%d rewrites agree with decode -> change -> encode", n)
}

// A message that does not decode gives the decoder's error; one that
// does but whose new mId cannot be written gives the encoder's.
func TestRewriteErrors(t *testing.T) {
	_, err := Compact.Rewrite(nil, []byte("!/1 [1.2.3.4] X"), &scan.Changes{}, limits.Limits{})
	if e, ok := codecerr.As(err); !ok || e.Codec != "compact" {
		t.Errorf("bad message: %v", err)
	}
	_, err = Rewrite(nil, []byte("!/1 [1.2.3.4] T=1{C=1{}}"), nil, Compact, limits.Limits{MaxSize: 5})
	if e, ok := codecerr.As(err); !ok || e.Kind != codecerr.TooLarge {
		t.Errorf("too large: %v", err)
	}
	msg := []byte("!/1 [1.2.3.4] T=1{C=1{N=a{OE=1{al/on}}}}")
	bad := &scan.Changes{MID: &model.MId{Kind: model.MId_DeviceName, DeviceName: "no spaces allowed"}}
	rw := NewRewriter(Pretty)
	for range 3 {
		if _, err := rw.Rewrite(nil, msg, bad, limits.Limits{}); err == nil {
			t.Error("an mId with spaces was written")
		}
	}
}

// A Rewriter's templates stay within their bounds.
func TestRewriteCacheBounds(t *testing.T) {
	r := NewRewriter(Pretty)
	tm := &template{in: make([]byte, 100), out: make([]byte, 100), lim: limits.Default}
	for i := range 3 * templateMax {
		h := uint64(i) * 0x9e3779b97f4a7c15
		r.seenBefore(h)
		r.add(h, tm)
		if len(r.byKey) > templateMax || r.size > templateBytes || len(r.seen) > templateSeen {
			t.Fatalf("cache past its bounds: %d templates, %d bytes, %d seen", len(r.byKey), r.size, len(r.seen))
		}
	}
	if got := r.find(maphash.Bytes(r.seed, tm.in), limits.Default, tm.in); got != nil {
		t.Error("found a template never added for that key")
	}
	// The same key added again (two callers made its template at once)
	// counts once.
	r = NewRewriter(Pretty)
	r.add(1, tm)
	r.add(1, tm)
	if r.size != len(tm.in)+len(tm.out) {
		t.Errorf("one template added twice counts %d bytes, want %d", r.size, len(tm.in)+len(tm.out))
	}
}

// A Rewriter's memory is its own: what one learnt, another does not
// have, and neither does the package.
func TestRewriterOwnMemory(t *testing.T) {
	msg := scanCases(t)[0].data
	a, b := NewRewriter(Compact), NewRewriter(Compact)
	for range 2 {
		if _, err := a.Rewrite(nil, msg, nil, limits.Limits{}); err != nil {
			t.Fatal(err)
		}
	}
	if len(a.byKey) != 1 || len(b.byKey) != 0 || len(b.seen) != 0 {
		t.Errorf("templates: %d and %d, seen by the other %d; want 1, 0, 0", len(a.byKey), len(b.byKey), len(b.seen))
	}
	var zero Rewriter // usable, in Style(0)
	want, _ := Style(0).Rewrite(nil, msg, nil, limits.Limits{})
	for range 3 {
		if got, err := zero.Rewrite(nil, msg, nil, limits.Limits{}); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("the zero Rewriter: %q, %v; want %q", got, err, want)
		}
	}
}

// One Rewriter shared by several goroutines gives each the bytes of
// decode -> change -> encode, and what one taught it (a template) serves
// the others. (Run with -race as well: make test does.)
func TestRewriterShared(t *testing.T) {
	cases := scanCases(t)[:24]
	plus := &scan.Changes{TransactionIDs: func(v uint32) uint32 { return v + 1 }}
	want := make([][]byte, len(cases))
	distinct := map[string]bool{}
	for i, c := range cases {
		distinct[string(c.data)] = true
		var err error
		if want[i], err = decodeChangeEncode(c.data, plus, Compact); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRewriter(Compact)
	const workers = 4
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			for pass := range 3 {
				for k := range cases {
					i := (k + w*len(cases)/workers) % len(cases) // each its own order
					got, err := r.Rewrite(nil, cases[i].data, plus, limits.Limits{})
					if err == nil && !bytes.Equal(got, want[i]) {
						err = fmt.Errorf("%s pass %d: %q, want %q", cases[i].name, pass, got, want[i])
					}
					if err != nil {
						errs <- err
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.byKey) != len(distinct) {
		t.Errorf("%d templates after every message was seen more than twice; want %d", len(r.byKey), len(distinct))
	}
}

// Rewriting arbitrary bytes never panics; where decode -> change ->
// encode succeeds, Rewrite gives the same bytes, on its slow path and
// from a template.
func FuzzRewrite(f *testing.F) {
	for _, c := range scanCases(f) {
		f.Add(c.data, uint8(0))
	}
	changes := rewriteChanges()
	names := []string{"plus one", "to zero", "to max", "lengths", "domain", "mtp", "shared all", "shared terms longer"}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		ch := changes[names[int(which)%len(names)]]
		style := Style(which / 128)
		want, werr := decodeChangeEncode(data, ch, style)
		rw := NewRewriter(style)
		for i := range 4 {
			rewrite := rw.Rewrite
			if i == 3 {
				rewrite = style.Rewrite
			}
			got, err := rewrite(nil, data, ch, limits.Limits{})
			if err != nil {
				if _, ok := codecerr.As(err); !ok {
					t.Fatalf("error %v is not a *codecerr.Error", err)
				}
				if werr == nil {
					t.Fatalf("Rewrite: %v, but decode -> change -> encode gives %q", err, want)
				}
				continue
			}
			if werr != nil || !bytes.Equal(got, want) {
				t.Fatalf("Rewrite gives\n%q\nwant\n%q, %v", got, want, werr)
			}
		}
	})
}
