package asn1gen

import (
	"bytes"
	"fmt"
)

// The fast decoders of SEQUENCEs of a few simple components (a
// TerminationID, a TimeNotation, an IP4Address, a property, a notify
// request with its observed events): a SEQUENCE whose components, in the
// form the encoder writes (short lengths), are all primitives the
// generated code reads itself (see leanComponent), BOOLEANs,
// ENUMERATEDs, SEQUENCEs or CHOICEs with a fast decoder, or lists of
// OCTET STRINGs or of such SEQUENCEs, is read by a small function with
// no header, no nesting count and no loop. It reports false for anything
// else (having perhaps set some fields), and the caller then calls the
// type's full decoder, which reads the element from its start and sets
// those fields again alike: the full decoder reads the same components
// in the same order first. The full decoder's call, entry and header
// checks cost a TerminationID more than its two components. A CHOICE
// has one when every alternative is read so (an MId): a switch on the
// identifier octet.

// fastKind is how the fast decoder of a SEQUENCE reads a component.
type fastKind int

const (
	fastNone   fastKind = iota // not read: an optional one, present only in the full decoder
	fastLean                   // a primitive, as leanComponent
	fastSeq                    // a SEQUENCE with a fast decoder
	fastOctets                 // a list of OCTET STRINGs
	fastList                   // a list of SEQUENCEs with a fast decoder
	fastChoice                 // a CHOICE with a fast decoder, under an explicit tag
	fastEmpty                  // a CHOICE's NULL alternative
	fastScalar                 // a BOOLEAN or an ENUMERATED
)

// fastInfo is whether a type has a fast decoder, and the depth of the
// SEQUENCEs it reads (1 for itself alone).
type fastInfo struct {
	ok     bool
	height int
}

// fastComponent tells how the fast decoder of t reads component c, and
// the depth of the SEQUENCEs in it.
func (g *berGen) fastComponent(v *Version, t *GoType, c *Component) (fastKind, int, error) {
	tags, err := decTags(v, t, c, "component")
	if err != nil || len(tags) != 1 || tags[0].Number >= 31 {
		return fastNone, 0, err
	}
	fl := fieldOf(t, c.Name)
	if t.Kind == KindChoice && fl.GoType == "struct{}" {
		return fastEmpty, 0, nil
	}
	lean, err := g.isLean(v, t, c, tags)
	if err != nil || lean {
		if fl.Rep == RepPointer {
			return fastNone, 0, err
		}
		return fastLean, 0, err
	}
	r, err := v.Resolve(c.Type)
	if err != nil {
		return fastNone, 0, err
	}
	if !tags[0].Constructed {
		if (r.Kind == KindBoolean || r.Kind == KindEnumerated) && (fl.Rep == RepValue || fl.Rep == RepOpt) {
			return fastScalar, 0, nil
		}
		return fastNone, 0, nil
	}
	if (r.Kind == KindSequence || r.Kind == KindChoice) && (fl.Rep == RepValue || fl.Rep == RepPointer) {
		fi, err := g.hasFast(v, r)
		if err != nil || !fi.ok {
			return fastNone, 0, err
		}
		if r.Kind == KindChoice {
			return fastChoice, fi.height, nil
		}
		return fastSeq, fi.height, nil
	}
	if r.Kind != KindSequenceOf || (fl.Rep != RepValue && fl.Rep != RepNil) {
		return fastNone, 0, nil
	}
	er, err := v.Resolve(r.Elem)
	if err != nil {
		return fastNone, 0, err
	}
	etags, err := v.Tags(r.Elem)
	if err != nil || len(etags) != 1 || etags[0].Number >= 31 {
		return fastNone, 0, err
	}
	switch er.Kind {
	case KindOctetString:
		return fastOctets, 0, nil
	case KindSequence:
		fi, err := g.hasFast(v, er)
		if err != nil || !fi.ok || !etags[0].Constructed {
			return fastNone, 0, err
		}
		return fastList, fi.height, nil
	}
	return fastNone, 0, nil
}

// hasFast tells whether SEQUENCE type r of version v has a fast decoder
// (for a CHOICE: whether every alternative is read so):
// one that reads every mandatory component and all optional ones but one
// CHOICE at most (a property's extraInfo), which it then expects absent.
// A type with more that it does not read would often be read twice.
func (g *berGen) hasFast(v *Version, r *Type) (*fastInfo, error) {
	name := g.f.named[r]
	t := g.f.Type(name)
	if t == nil || (r.Kind != KindSequence && r.Kind != KindChoice) {
		return &fastInfo{}, nil
	}
	key := name + g.funcSuffix(name, v.N)
	if fi, ok := g.fast[key]; ok {
		return fi, nil // known, or being found out: a type within itself has none
	}
	fi := &fastInfo{}
	g.fast[key] = fi
	read, left, height := 0, 0, 0
	for _, c := range r.Components {
		k, h, err := g.fastComponent(v, t, c)
		switch {
		case err != nil:
			return fi, err
		case k != fastNone:
			read++
			height = max(height, h)
		case r.Kind == KindChoice:
		case !c.Optional && c.Default == "":
			return fi, nil
		default:
			left++
			if cr, err := v.Resolve(c.Type); err != nil || cr.Kind != KindChoice {
				left++ // a list, say, which a message may well have
			}
		}
	}
	if r.Kind == KindChoice {
		// A CHOICE's reads every alternative (one that did not would
		// make its users' fast decoders read and fail, and the full
		// decoders read again); it adds no nesting.
		fi.ok, fi.height = read == len(r.Components), height
		return fi, nil
	}
	fi.ok, fi.height = read > 0 && left <= 1, height+1
	return fi, nil
}

// fastCall emits the decoding of SEQUENCE, SET or CHOICE r from header
// variable hv into target: a SEQUENCE's by its fast decoder first when
// it has one (a CHOICE's is tried before its tag is unwrapped).
func (g *berGen) fastCall(v *Version, r *Type, hv, target, fail string) error {
	name := g.f.named[r]
	fn := name + g.funcSuffix(name, v.N)
	fi, err := g.hasFast(v, r)
	if err != nil {
		return err
	}
	// A CHOICE's is tried before its tag is unwrapped (fastChoiceCall).
	fast := fi.ok && r.Kind == KindSequence && !g.noFast
	g.noFast = false
	if fast {
		fmt.Fprintf(&g.w, "if !%[1]s.cons || d.depth+%[5]d > d.lim.MaxDepth || !fast%[2]s(d, d.window(%[3]s), %[1]s.start, %[1]s.end, %[4]s) {\n", hv, fn, addr(hv), addr(target), fi.height)
	}
	fmt.Fprintf(&g.w, "if err = decode%s(d, %s, %s); err != nil {\n%s\n}\n", fn, addr(hv), addr(target), fail)
	if fast {
		g.w.WriteString("}\n")
	}
	return nil
}

// fastChoiceCall emits, where CHOICE r under nw explicit tags is decoded
// from header variable hv into target, the start of its decoding by its
// fast decoder when it has one and nw is 1: the caller then emits the
// full decoding, and a closing brace after it (when fast is true).
func (g *berGen) fastChoiceCall(v *Version, r *Type, hv, target string, nw int) (fast bool, err error) {
	fi, err := g.hasFast(v, r)
	tried := g.noFast
	g.noFast = false
	if err != nil || !fi.ok || nw != 1 || tried {
		return false, err
	}
	name := g.f.named[r]
	depth := "" // a CHOICE of primitives nests nothing
	if fi.height > 0 {
		depth = fmt.Sprintf(" || d.depth+%d > d.lim.MaxDepth", fi.height)
	}
	fmt.Fprintf(&g.w, "if !%[1]s.cons%[6]s || !fast%[2]s%[3]s(d, d.window(%[4]s), %[1]s.start, %[1]s.end, %[5]s) {\n", hv, name, g.funcSuffix(name, v.N), addr(hv), addr(target), depth)
	return true, nil
}

// fastFirst emits, for the first part of a SEQUENCE's full decoder, the
// decoding of component c (the i-th of t), found by expect at off with
// contents from s up to en, by its type's fast decoder straight from the
// SEQUENCE's window b cut at en: header e is filled only where that
// fails, for the full decoding that follows. The cut matters: a fast
// decoder that read on past en (its type's optional components) would
// set fields that the full decoding, which stops at en, leaves set. It
// reports false (and emits nothing) when c's type, under one
// constructed tag, is no SEQUENCE or CHOICE with a fast decoder.
func (g *berGen) fastFirst(v *Version, t *GoType, c *Component, i int, tags []TagSpec, s string) (bool, error) {
	if len(tags) != 1 || !tags[0].Constructed {
		return false, nil
	}
	r, err := v.Resolve(c.Type)
	if err != nil || (r.Kind != KindSequence && r.Kind != KindChoice) {
		return false, err
	}
	fi, err := g.hasFast(v, r)
	if err != nil || !fi.ok {
		return false, err
	}
	name := g.f.named[r]
	target := g.componentTarget(t, c, i)
	depth := "" // a CHOICE of primitives nests nothing
	if fi.height > 0 {
		depth = fmt.Sprintf("d.depth+%d > d.lim.MaxDepth || ", fi.height)
	}
	fmt.Fprintf(&g.w, "if %s!fast%s%s(d, b[:en], %s, en, %s) {\n", depth, name, g.funcSuffix(name, v.N), s, addr(target))
	g.expectedAt("e", &tags[0], "off", s, "en")
	g.noFast = true
	err = g.dec(v, c.Type, target, tags, "e", fmt.Sprintf("codecerr.At(%%s, %q)", c.Name))
	g.w.WriteString("}\n")
	return true, err
}

// fastElemFirst emits, at the start of the decoding of a list's element
// (of type er, tags etags, identifier octet id or -1) at off in window
// win into elem, its decoding by the type's fast decoder when the
// element is in the form the encoder writes, straight from the window
// cut at the element's end (see fastFirst). It reports whether it
// emitted that: the rest of the element's decoding need not try the
// fast decoder again.
func (g *berGen) fastElemFirst(v *Version, er *Type, etags []TagSpec, id int, win, off, elem string) (bool, error) {
	if id < 0 || len(etags) != 1 || !etags[0].Constructed || er.Kind != KindSequence {
		return false, nil
	}
	fi, err := g.hasFast(v, er)
	if err != nil || !fi.ok {
		return false, err
	}
	name, en := g.f.named[er], g.tmp("en")
	fmt.Fprintf(&g.w, "if %[1]s := expect(%[2]s, %[3]s, %#[4]x); %[1]s != 0 && d.depth+%[5]d <= d.lim.MaxDepth && fast%[6]s%[7]s(d, %[2]s[:%[1]s], %[3]s+2, %[1]s, &%[8]s) {\n%[3]s = %[1]s\ncontinue\n}\n",
		en, win, off, id, fi.height, name, g.funcSuffix(name, v.N), elem)
	return true, nil
}

// fastHead emits the start of the fast decoder of tf, which reads what
// (in window b), with cond to fail it. The callers check the nesting:
// the full decoders before the call (fastCall), a fast one for all it
// reads (its height).
func (g *berGen) fastHead(tf typeFunc, fi *fastInfo, what, cond string) {
	fn := tf.t.Name + suffix(tf.vs)
	fmt.Fprintf(&g.w, "// fast%[1]s is decode%[1]s for %[2]s in the form the encoder\n// writes; false for anything else, which the caller decodes in full.\n", fn, what)
	fmt.Fprintf(&g.w, "func fast%s(d *decoder, b []byte, off, end int, m *model.%s) bool {\n", fn, tf.t.Name)
	if cond != "" {
		fmt.Fprintf(&g.w, "if %s {\nreturn false\n}\n", cond)
	}
}

// fastChoiceFunc emits the fast decoder of tf's CHOICE: the one element
// at off must end at end.
func (g *berGen) fastChoiceFunc(tf typeFunc, fi *fastInfo) error {
	t, v, def, w := tf.t, tf.v, tf.def, &g.w
	g.fastHead(tf, fi, "the element at off ending at end", "uint(off) >= uint(len(b))")
	w.WriteString("en := expect(b, off, b[off])\nif en != end {\nreturn false\n}\nswitch b[off] {\n")
	for _, c := range def.Components {
		k, _, err := g.fastComponent(v, t, c)
		if err != nil {
			return err
		}
		if k == fastNone {
			continue
		}
		tags, _ := v.Tags(c.Type)
		fl := fieldOf(t, c.Name)
		fmt.Fprintf(w, "case %#x: // %s %s\nm.Kind = model.%s_%s\n", tags[0].Bytes()[0], tags[0], c.Name, t.Name, fl.GoName)
		if err := g.fastValue(v, t, c, k); err != nil {
			return err
		}
	}
	w.WriteString("default:\nreturn false\n}\nreturn true\n}\n\n")
	return nil
}

// fastFunc emits the fast decoder of tf's SEQUENCE, when it has one. It
// reads the element's contents b[off:end] (b is a window, see
// reader.window).
func (g *berGen) fastFunc(tf typeFunc) error {
	t, v, def, w := tf.t, tf.v, tf.def, &g.w
	fi, err := g.hasFast(v, def)
	if !fi.ok || err != nil {
		return err
	}
	if def.Kind == KindChoice {
		return g.fastChoiceFunc(tf, fi)
	}
	g.fastHead(tf, fi, "the contents b[off:end]", "")
	for _, c := range def.Components {
		k, _, err := g.fastComponent(v, t, c)
		if err != nil || k == fastNone {
			if err != nil {
				return err
			}
			continue
		}
		tags, _ := v.Tags(c.Type)
		fmt.Fprintf(w, "if en := expect(b, off, %#x); en != 0 { // %s %s\n", tags[0].Bytes()[0], tags[0], c.Name)
		if err := g.fastValue(v, t, c, k); err != nil {
			return err
		}
		w.WriteString("off = en\n}")
		if !c.Optional && c.Default == "" {
			w.WriteString(" else {\nreturn false\n}")
		}
		w.WriteString("\n")
	}
	w.WriteString("return off == end\n}\n\n")
	return nil
}

// fastValue emits, for a fast decoder, the reading of component c found
// at off with contents up to en: false for a value the full decoder
// must read (or report).
func (g *berGen) fastValue(v *Version, t *GoType, c *Component, k fastKind) error {
	w := &g.w
	r, err := v.Resolve(c.Type)
	if err != nil {
		return err
	}
	if k == fastEmpty { // a CHOICE's NULL: its kind says it all
		w.WriteString("if en != off+2 {\nreturn false\n}\n")
		return nil
	}
	fl := fieldOf(t, c.Name)
	target := "m." + fl.GoName
	switch fl.Rep {
	case RepOpt:
		fmt.Fprintf(w, "%s.Present = true\n", target)
		target += ".Value"
	case RepFlag:
		fmt.Fprintf(w, "%s = true\n", target)
	}
	switch {
	case (k == fastSeq || k == fastChoice) && fl.Rep == RepPointer:
		p, name := g.tmp("p"), g.f.named[r]
		fmt.Fprintf(w, "%[1]s := %[2]s.Room(1)\nif %[1]s == nil {\nreturn false\n}\n%[1]s[0] = %[3]s{}\nif !fast%[4]s%[5]s(d, b[:en], off+2, en, &%[1]s[0]) {\nreturn false\n}\n%[6]s = &%[1]s[0]\n",
			p, g.slab(fl.GoType), g.f.qualify(fl.GoType, "model."), name, g.funcSuffix(name, v.N), target)
	case k == fastSeq || k == fastChoice:
		name := g.f.named[r]
		fmt.Fprintf(w, "if !fast%s%s(d, b[:en], off+2, en, &%s) {\nreturn false\n}\n", name, g.funcSuffix(name, v.N), target)
	case k == fastOctets || k == fastList:
		return g.fastList(v, r, target)
	case r.Kind == KindNull:
		w.WriteString("if en != off+2 {\nreturn false\n}\n")
	case r.Kind == KindBoolean:
		fmt.Fprintf(w, "if en != off+3 {\nreturn false\n}\n%s = b[off+2] != 0\n", target)
	case r.Kind == KindEnumerated:
		x, cond := g.tmp("x"), "!ok"
		if !r.Extensible {
			// A value of four octets at most is within the range an
			// extensible one must be in.
			g.needEnum(r)
			cond = "!ok || !valid" + enumFuncName(r) + "(" + x + ")"
		}
		fmt.Fprintf(w, "%s, ok := intAt(b, off+2, en)\nif %s {\nreturn false\n}\n%s = model.%s(%s)\n", x, cond, target, g.f.named[r], x)
	case r.Kind == KindOctetString:
		fmt.Fprintf(w, "%s = b[off+2 : en : en]\n", target)
		fastSize(w, r.Size, "len("+target+")")
	case r.Kind == KindIA5String && r.Size != nil && !r.Size.Extensible && r.Size.HasLower && r.Size.HasUpper && r.Size.Lower == 8 && r.Size.Upper == 8:
		// A TimeNotation's date or time: ia5At8 checks the size too.
		x := g.tmp("x")
		fmt.Fprintf(w, "%s, ok := ia5At8(b, off+2, en)\nif !ok {\nreturn false\n}\n%s = %s\n", x, target, x)
	case r.Kind == KindIA5String:
		x := g.tmp("x")
		fmt.Fprintf(w, "%s, ok := ia5At(b, off+2, en)\nif !ok {\nreturn false\n}\n%s = %s\n", x, target, x)
		fastSize(w, r.Size, "len("+target+")")
	case r.Kind == KindInteger:
		goT, lo, hi := g.intRange(v, r)
		x := g.tmp("x")
		fmt.Fprintf(w, "%s, ok := intAt(b, off+2, en)\nif %s {\nreturn false\n}\n%s = %s(%s)\n", x, intFails(x, lo, hi), target, goT, x)
	default:
		return fmt.Errorf("BER: no fast reading of %s", r.Kind)
	}
	return nil
}

// listElem gives the element type of list r: resolved, its Go type and
// its tags.
func (g *berGen) listElem(v *Version, r *Type) (er *Type, goT string, tags []TagSpec, err error) {
	if er, err = v.Resolve(r.Elem); err != nil {
		return nil, "", nil, err
	}
	if goT, err = g.f.GoTypeOf(v, r.Elem); err != nil {
		return nil, "", nil, err
	}
	tags, err = v.Tags(r.Elem)
	return er, goT, tags, err
}

// fastList emits, for a fast decoder, the reading of list r found at off
// with contents up to en into target: empty, of one element in the form
// the encoder writes, or of more, counted first.
func (g *berGen) fastList(v *Version, r *Type, target string) error {
	w := &g.w
	er, egoT, etags, err := g.listElem(v, r)
	if err != nil {
		return err
	}
	sl, id := g.slab(egoT), etags[0].Bytes()[0]
	// An empty list is non-nil and empty, as Raw(0) makes it: no memory.
	fmt.Fprintf(w, "if en == off+2 {\n%[1]s = []%[4]s{}\n} else if expect(b, off+2, %#[3]x) == en {\n%[1]s = %[2]s.Room(1)\nif %[1]s == nil {\nreturn false\n}\n", target, sl, id, g.f.qualify(egoT, "model."))
	g.fastElem(v, er, egoT, target+"[0]", "off+2", "en")
	// More elements: counted first, each in the form the encoder writes.
	n, i, p, q := g.tmp("n"), g.tmp("i"), g.tmp("p"), g.tmp("q")
	fmt.Fprintf(w, "} else {\n%[1]s := 0\nfor %[2]s := off + 2; %[2]s != en; %[1]s++ {\n%[3]s := expect(b, %[2]s, %#[4]x)\nif %[3]s == 0 || %[3]s > en {\nreturn false\n}\n%[2]s = %[3]s\n}\n", n, p, q, id)
	fmt.Fprintf(w, "%[1]s = %[2]s.Room(%[3]s)\nif %[1]s == nil {\nreturn false\n}\nfor %[4]s, %[5]s := 0, off+2; %[4]s < %[3]s; %[4]s++ {\n%[6]s := expect(b, %[5]s, %#[7]x)\n", target, sl, n, i, p, q, id)
	g.fastElem(v, er, egoT, target+"["+i+"]", p, q)
	fmt.Fprintf(w, "%s = %s\n}\n}\nif %s == nil {\nreturn false\n}\n", p, q, target)
	fastSize(w, r.Size, "len("+target+")")
	return nil
}

// fastElem emits, for a fast decoder, the reading of a list's element
// (of type er, Go type egoT) at off with contents up to en into elem.
func (g *berGen) fastElem(v *Version, er *Type, egoT, elem, off, en string) {
	if er.Kind == KindOctetString {
		fmt.Fprintf(&g.w, "%[1]s = b[%[2]s+2 : %[3]s : %[3]s]\n", elem, off, en)
		fastSize(&g.w, er.Size, "len("+elem+")")
		return
	}
	name := g.f.named[er]
	fmt.Fprintf(&g.w, "%s = %s{}\nif !fast%s%s(d, b[:%s], %s+2, %s, &%s) {\nreturn false\n}\n", elem, g.f.qualify(egoT, "model."), name, g.funcSuffix(name, v.N), en, off, en, elem)
}

// fastSize emits a fast decoder's check of n against a SIZE constraint.
func fastSize(w *bytes.Buffer, r *Range, n string) {
	if cond := sizeCond(r, n); cond != "" {
		fmt.Fprintf(w, "if %s {\nreturn false\n}\n", cond)
	}
}
