package asn1gen

import (
	"bytes"
	"fmt"
)

// The fast decoders of small SEQUENCEs (a TerminationID, a TimeNotation,
// an IP4Address, a property): a SEQUENCE whose components, in the form
// the encoder writes, are all primitives the generated code reads itself
// (see leanComponent) or lists of OCTET STRINGs of up to one element is
// read by a small function with no header, no nesting count and no loop.
// It reports false for anything else (having perhaps set some fields),
// and the caller then calls the type's full decoder, which reads the
// element from its start and sets those fields again alike: the full
// decoder reads the same components in the same order first. The full
// decoder's call, entry and header checks cost a TerminationID more
// than its two components.

// fastKind is how the fast decoder of a SEQUENCE reads component c.
type fastKind int

const (
	fastNone   fastKind = iota // not read: an optional one, present only in the full decoder
	fastLean                   // a primitive, as leanComponent
	fastOctets                 // a list of OCTET STRINGs, empty or of one element
)

// fastComponent tells how the fast decoder of t reads component c.
func (g *berGen) fastComponent(v *Version, t *GoType, c *Component) (fastKind, error) {
	tags, err := decTags(v, t, c, "component")
	if err != nil || len(tags) != 1 || tags[0].Number >= 31 {
		return fastNone, err
	}
	r, err := v.Resolve(c.Type)
	if err != nil {
		return fastNone, err
	}
	fl := fieldOf(t, c.Name)
	switch {
	case r.Kind == KindNull && fl.Rep == RepFlag:
		return fastLean, nil
	case (r.Kind == KindOctetString || r.Kind == KindInteger) && (fl.Rep == RepValue || fl.Rep == RepOpt || fl.Rep == RepNil):
		return fastLean, nil
	case r.Kind == KindIA5String && r.Alphabet == "" && (fl.Rep == RepValue || fl.Rep == RepOpt):
		return fastLean, nil
	case r.Kind == KindSequenceOf && tags[0].Constructed && (fl.Rep == RepValue || fl.Rep == RepNil):
		er, err := v.Resolve(r.Elem)
		if err != nil {
			return fastNone, err
		}
		etags, err := v.Tags(r.Elem)
		if err == nil && er.Kind == KindOctetString && len(etags) == 1 && etags[0].Number < 31 {
			return fastOctets, nil
		}
		return fastNone, err
	}
	return fastNone, nil
}

// hasFast reports whether SEQUENCE or SET type r of version v has a fast
// decoder: it reads every mandatory component and all optional ones but
// one at most (a property's extraInfo), which it then expects absent.
// A type with more that it does not read would mostly be read twice.
func (g *berGen) hasFast(v *Version, r *Type) (bool, error) {
	t := g.f.Type(g.f.named[r])
	if t == nil || (r.Kind != KindSequence && r.Kind != KindSet) {
		return false, nil
	}
	read, left := 0, 0
	for _, c := range r.Components {
		k, err := g.fastComponent(v, t, c)
		switch {
		case err != nil:
			return false, err
		case k != fastNone:
			read++
		case !c.Optional && c.Default == "":
			return false, nil
		default:
			left++
		}
	}
	return read > 0 && left <= 1, nil
}

// fastCall emits the decoding of SEQUENCE r (named name) from header
// variable hv into target, by its fast decoder when it has one.
func (g *berGen) fastCall(v *Version, r *Type, hv, target, fail string) error {
	name := g.f.named[r]
	fn := name + g.funcSuffix(name, v.N)
	ok, err := g.hasFast(v, r)
	if err != nil {
		return err
	}
	if ok {
		fmt.Fprintf(&g.w, "if !fast%s(d, %s, %s) {\n", fn, addr(hv), addr(target))
	}
	fmt.Fprintf(&g.w, "if err = decode%s(d, %s, %s); err != nil {\n%s\n}\n", fn, addr(hv), addr(target), fail)
	if ok {
		g.w.WriteString("}\n")
	}
	return nil
}

// fastFunc emits the fast decoder of tf's SEQUENCE, when it has one.
func (g *berGen) fastFunc(tf typeFunc) error {
	t, v, def, w := tf.t, tf.v, tf.def, &g.w
	if ok, err := g.hasFast(v, def); !ok || err != nil {
		return err
	}
	fn := t.Name + suffix(tf.vs)
	fmt.Fprintf(w, "// fast%[1]s is decode%[1]s for the form the encoder writes; false for\n// anything else, which the caller decodes in full.\n", fn)
	fmt.Fprintf(w, "func fast%s(d *decoder, h *header, m *model.%s) bool {\n", fn, t.Name)
	w.WriteString("if !h.cons || d.depth >= d.lim.MaxDepth {\nreturn false\n}\nb, off := d.window(h), h.start\n")
	for _, c := range def.Components {
		k, err := g.fastComponent(v, t, c)
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
	w.WriteString("return off == h.end\n}\n\n")
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
	fl := fieldOf(t, c.Name)
	target := "m." + fl.GoName
	switch fl.Rep {
	case RepOpt:
		fmt.Fprintf(w, "%s.Present = true\n", target)
		target += ".Value"
	case RepFlag:
		fmt.Fprintf(w, "%s = true\n", target)
	}
	bail := "return false"
	switch {
	case k == fastOctets:
		egoT, err := g.f.GoTypeOf(v, r.Elem)
		if err != nil {
			return err
		}
		er, _ := v.Resolve(r.Elem)
		etags, _ := v.Tags(r.Elem)
		sl := g.slab(egoT)
		fmt.Fprintf(w, "if en == off+2 {\n%[1]s = %[2]s.Room(0)\n} else if expect(b, off+2, %#[3]x) == en {\n%[1]s = %[2]s.Room(1)\nif %[1]s == nil {\n%[4]s\n}\n%[1]s[0] = b[off+4 : en : en]\n", target, sl, etags[0].Bytes()[0], bail)
		fastSize(w, er.Size, "len("+target+"[0])")
		fmt.Fprintf(w, "} else {\n%[2]s\n}\nif %[1]s == nil {\n%[2]s\n}\n", target, bail)
		fastSize(w, r.Size, "len("+target+")")
	case r.Kind == KindNull:
		fmt.Fprintf(w, "if en != off+2 {\n%s\n}\n", bail)
	case r.Kind == KindOctetString:
		fmt.Fprintf(w, "%s = b[off+2 : en : en]\n", target)
		fastSize(w, r.Size, "len("+target+")")
	case r.Kind == KindIA5String:
		x := g.tmp("x")
		fmt.Fprintf(w, "%s, ok := ia5At(b, off+2, en)\nif !ok {\n%s\n}\n%s = %s\n", x, bail, target, x)
		fastSize(w, r.Size, "len("+target+")")
	case r.Kind == KindInteger:
		goT, lo, hi := g.intRange(v, r)
		x := g.tmp("x")
		fmt.Fprintf(w, "%s, ok := intAt(b, off+2, en)\nif %s {\n%s\n}\n%s = %s(%s)\n", x, intFails(x, lo, hi), bail, target, goT, x)
	default:
		return fmt.Errorf("BER: no fast reading of %s", r.Kind)
	}
	return nil
}

// fastSize emits a fast decoder's check of n against a SIZE constraint.
func fastSize(w *bytes.Buffer, r *Range, n string) {
	if cond := sizeCond(r, n); cond != "" {
		fmt.Fprintf(w, "if %s {\nreturn false\n}\n", cond)
	}
}
