package load

import (
	"bytes"
	"fmt"

	"megaco/internal/codec"
	"megaco/internal/codec/ber"
	"megaco/internal/mapping/termid"
	"megaco/internal/model"
)

// Layout is the termination ID layout of the call flow's IDs: the
// generator sends it with every request, so the service maps the IDs as the
// generator does whatever its own default.
const Layout = "8,8,8"

// Codecs are the encodings of the two sides.
type Codecs struct {
	MGC, MG string
}

// Builder makes the messages of one call: each is the template with this
// call's transaction, context and termination IDs, encoded in its sender's
// codec (the input) and in the receiver's (the output the service must
// give). One Builder per goroutine.
type Builder struct {
	flow   *Flow
	codecs [2]codecSide // by Side
	opts   codec.Options
	// local[i]: the expected output of step i is the library's own
	// transcoding of the input, not the message encoded directly (see
	// Prepare).
	local []bool
	tmpl  ber.Codec
	vary  varier
	// base[i]: step i's input and expected output with the template's
	// own IDs (Prepare); Build rewrites them with each call's IDs. Nil
	// before Prepare: Build then decodes and encodes (BuildDecoded).
	base [][2][]byte
	// sameBase[i]: step i's two base encodings are the same bytes in
	// the same codec, and so are its rewritten ones.
	sameBase []bool
	ids      *callIDs
	patchers [][2]*patcher // by step and side (sender, receiver): this Builder's own
}

type codecSide struct {
	name string
	c    codec.Codec
	form codec.Form
}

// CallMsgs are one call's messages: In[i] goes to the service, Want[i] is
// what must come back.
type CallMsgs struct {
	In, Want [][]byte
}

// Options returns the codec options the generator uses and sends.
func Options() codec.Options {
	l, _ := termid.ParseLayout(Layout)
	return codec.Options{Profile: codec.ProfileOTP, Layout: l} // zero limits: the defaults
}

// NewBuilder checks the codecs.
func NewBuilder(f *Flow, c Codecs) (*Builder, error) {
	b := &Builder{flow: f, opts: Options(), local: make([]bool, len(f.Steps))}
	b.ids = newCallIDs(f, b.opts.Layout)
	for i, name := range []string{c.MGC, c.MG} {
		cd, err := codec.Lookup(name, b.opts)
		if err != nil {
			return nil, err
		}
		b.codecs[i] = codecSide{name: name, c: cd, form: codec.FormOf(name)}
	}
	return b, nil
}

// clone shares what is read-only and checked, and forks b's patchers, so
// what one clone's calls teach them serves all (patcher).
func (b *Builder) clone() *Builder {
	nb := *b
	nb.vary = varier{}
	nb.ids = newCallIDs(b.flow, b.opts.Layout)
	if b.base != nil {
		nb.patchers = make([][2]*patcher, len(b.patchers))
		for i, ps := range b.patchers {
			nb.patchers[i] = [2]*patcher{ps[0].fork(), ps[1].fork()}
		}
	}
	return &nb
}

// Src and Dst name the codecs of step i.
func (b *Builder) Src(i int) string { return b.codecs[b.flow.Steps[i].From].name }
func (b *Builder) Dst(i int) string { return b.codecs[1-b.flow.Steps[i].From].name }

// Prepare checks every step on a few call numbers: the input must
// transcode, with this library, to exactly the expected output, and that
// output must decode. Where the direct encoding and the library's
// transcoding differ, the step's expected output is the library's
// transcoding from then on, and a note says so. Then it encodes each
// step with the template's own IDs, which Build rewrites from then on.
func (b *Builder) Prepare() (notes []string, err error) {
	b.base, b.sameBase, b.patchers = nil, nil, nil
	notes, err = b.check()
	if err != nil {
		return notes, err
	}
	base := make([][2][]byte, len(b.flow.Steps))
	for i := range base {
		if base[i][0], base[i][1], err = b.step(i, 0, nil, nil, false); err != nil {
			return notes, fmt.Errorf("call flow %s: %w", b.flow.Steps[i].Name, err)
		}
	}
	b.base = base
	b.sameBase = make([]bool, len(base))
	for i := range base {
		b.sameBase[i] = b.codecs[0].name == b.codecs[1].name && bytes.Equal(base[i][0], base[i][1])
	}
	b.patchers = b.newPatchers()
	return notes, nil
}

// newPatchers makes the patchers of every step's two sides.
func (b *Builder) newPatchers() [][2]*patcher {
	ps := make([][2]*patcher, len(b.base))
	for i, st := range b.flow.Steps {
		for k, cs := range [2]*codecSide{&b.codecs[st.From], &b.codecs[1-st.From]} {
			ps[i][k] = newPatcher(cs.name, b.base[i][k], b.opts.Limits)
		}
	}
	return ps
}

// check is Prepare's checks, on the messages made the long way.
func (b *Builder) check() (notes []string, err error) {
	var cm CallMsgs
	for _, call := range []uint64{0, 1, 65536 + 257} {
		if err := b.Build(call, &cm); err != nil {
			return notes, err
		}
		for i, st := range b.flow.Steps {
			src, dst := b.Src(i), b.Dst(i)
			got, _, err := codec.Transcode(nil, cm.In[i], src, dst, b.opts)
			if err != nil {
				return notes, fmt.Errorf("call flow %s: %s -> %s with this library: %w", st.Name, src, dst, err)
			}
			if !bytes.Equal(got, cm.Want[i]) && !b.local[i] {
				b.local[i] = true
				notes = append(notes, fmt.Sprintf("%s: %s -> %s: the library's transcoding differs from the message encoded directly in %s; the expected output is the library's transcoding", st.Name, src, dst, dst))
				if err := b.Build(call, &cm); err != nil {
					return notes, err
				}
			}
			if err := b.CheckOutput(i, cm.Want[i], cm.Want[i], true); err != nil {
				return notes, fmt.Errorf("call flow %s: expected %s output: %w", st.Name, dst, err)
			}
		}
	}
	return notes, nil
}

// Build makes call number n's messages into cm, reusing its buffers:
// after Prepare, each step's two encodings rewritten with the call's IDs
// (a codec.NewRewriter, or a patcher writing them over the last call's bytes
// when they have the same lengths), before it the long way
// (BuildDecoded). Both give the same bytes.
func (b *Builder) Build(n uint64, cm *CallMsgs) error {
	if b.base == nil {
		return b.BuildDecoded(n, cm)
	}
	return b.build(n, cm, b.rewriteStep)
}

// BuildDecoded makes call number n's messages the long way: each step's
// template decoded, given the call's IDs, converted and encoded in both
// codecs. It is the reference Build's rewriting is tested against.
func (b *Builder) BuildDecoded(n uint64, cm *CallMsgs) error {
	return b.build(n, cm, func(i int, n uint64, in, want []byte) ([]byte, []byte, error) {
		return b.step(i, n, in, want, true)
	})
}

type stepFunc func(i int, n uint64, in, want []byte) ([]byte, []byte, error)

func (b *Builder) build(n uint64, cm *CallMsgs, step stepFunc) error {
	steps := b.flow.Steps
	if len(cm.In) != len(steps) {
		cm.In, cm.Want = make([][]byte, len(steps)), make([][]byte, len(steps))
	}
	for i := range steps {
		in, want, err := step(i, n, cm.In[i][:0], cm.Want[i][:0])
		if err != nil {
			return fmt.Errorf("call flow %s, call %d: %w", steps[i].Name, n, err)
		}
		cm.In[i], cm.Want[i] = in, want
	}
	return nil
}

// rewriteStep makes step i of call n from its two base encodings.
func (b *Builder) rewriteStep(i int, n uint64, in, want []byte) ([]byte, []byte, error) {
	st := &b.flow.Steps[i]
	b.ids.n = n
	base := &b.base[i]
	out := [2][]byte{in, want}
	for k, cs := range [2]*codecSide{&b.codecs[st.From], &b.codecs[1-st.From]} {
		if k == 1 && b.sameBase[i] {
			// The same bytes rewritten the same way (same codec, same
			// form): the input again.
			out[1] = append(out[1], out[0]...)
			break
		}
		var err error
		if out[k], err = b.patchers[i][k].build(out[k], base[k], b.ids.changes(cs.form), b.opts.Limits); err != nil {
			return in, want, fmt.Errorf("%s: %w", cs.name, err)
		}
	}
	return out[0], out[1], nil
}

// step makes step i of call n the long way; with vary unset, with the
// template's own IDs.
func (b *Builder) step(i int, n uint64, in, want []byte, vary bool) ([]byte, []byte, error) {
	st := &b.flow.Steps[i]
	m, release, err := b.tmpl.DecodeReused(st.Template)
	if err != nil {
		return in, want, err
	}
	defer release()
	if vary {
		if err := b.vary.apply(b.flow, m, n); err != nil {
			return in, want, err
		}
	}
	src, dst := &b.codecs[st.From], &b.codecs[1-st.From]
	// Binary-form encodings first, then the text ones: the message is
	// converted in place.
	out := [2][]byte{in, want}
	sides := [2]*codecSide{src, dst}
	form := codec.Binary
	for _, pass := range []codec.Form{codec.Binary, codec.Text} {
		for k, cs := range sides {
			if cs.form != pass || (k == 1 && b.local[i]) {
				continue
			}
			if form != pass {
				if err := codec.Convert(m, form, pass, b.opts); err != nil {
					return in, want, err
				}
				form = pass
			}
			if out[k], err = cs.c.Append(out[k], m); err != nil {
				return in, want, fmt.Errorf("%s: %w", cs.name, err)
			}
		}
	}
	if b.local[i] {
		if out[1], _, err = codec.Transcode(out[1], out[0], src.name, dst.name, b.opts); err != nil {
			return in, want, err
		}
	}
	return out[0], out[1], nil
}

// CheckOutput compares the service's output of step i with the expected
// bytes and, when decode is set, decodes it with the receiver's codec.
func (b *Builder) CheckOutput(i int, got, want []byte, decode bool) error {
	if !bytes.Equal(got, want) {
		return fmt.Errorf("output differs from the expected %s (%d bytes, want %d)", b.Dst(i), len(got), len(want))
	}
	if !decode {
		return nil
	}
	dst := b.codecs[1-b.flow.Steps[i].From]
	if r, ok := dst.c.(codec.Reusing); ok {
		_, release, err := r.DecodeReused(got)
		release()
		if err != nil {
			return fmt.Errorf("output does not decode as %s: %w", dst.name, err)
		}
		return nil
	}
	if _, err := dst.c.Decode(got); err != nil {
		return fmt.Errorf("output does not decode as %s: %w", dst.name, err)
	}
	return nil
}

// varier gives a message this call's IDs (in binary form).
type varier struct {
	model.NopVisitor
	w    model.Walker
	call uint64
}

// CallTermID is the termination ID (layout [8,8,8], binary) that the
// template termination with first level t has in call n: the two lower
// levels carry n modulo 65536.
func CallTermID(t byte, n uint64) []byte { return []byte{t, byte(n >> 8), byte(n)} }

// callTerm is CallTermID without the allocation.
func callTerm(t byte, n uint64) [3]byte { return [3]byte{t, byte(n >> 8), byte(n)} }

// CallTransactionID is the ID the template transaction with ordinal k (of
// nk in the flow) has in call n: never 0, distinct over 2^32-2 / nk calls.
func CallTransactionID(k, nk uint32, n uint64) uint32 {
	return 1 + uint32((n*uint64(nk)+uint64(k))%(1<<32-2))
}

// CallContextID is the same for contexts: 1..0xFFFFFFFD.
func CallContextID(k, nk uint32, n uint64) uint32 {
	return 1 + uint32((n*uint64(nk)+uint64(k))%0xFFFFFFFD)
}

func (v *varier) apply(f *Flow, m *model.MegacoMessage, n uint64) error {
	for i := range m.Mess.MessageBody.Transactions {
		t := &m.Mess.MessageBody.Transactions[i]
		if p := tidRef(t); p != nil {
			if k, ok := f.tids[*p]; ok {
				*p = CallTransactionID(k, uint32(len(f.tids)), n)
			}
		}
		forEachContext(t, func(c *uint32) {
			if k, ok := f.contexts[*c]; ok {
				*c = CallContextID(k, uint32(len(f.contexts)), n)
			}
		})
	}
	v.call = n
	v.w.V = v
	return v.w.Walk(m)
}

// VisitTerminationID gives the template terminations this call's IDs. The
// template's octets may be read-only memory: new ones are made.
func (v *varier) VisitTerminationID(_ *model.Walker, x *model.TerminationID) error {
	if len(x.Wildcard) == 0 && templateTerm(x.Id) {
		x.Id = CallTermID(x.Id[0], v.call)
	}
	return nil
}

// templateTerm reports whether id (binary) is one of the template's
// termination IDs, which vary per call.
func templateTerm(id []byte) bool {
	if len(id) != 3 || id[1] != 0 || id[2] != 0 {
		return false
	}
	_, ok := templateTerms[id[0]]
	return ok
}
