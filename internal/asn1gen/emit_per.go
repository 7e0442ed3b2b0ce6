package asn1gen

import (
	"bytes"
	"fmt"
	"go/format"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

// perGen writes the aligned PER (X.691 ALIGNED, as OTP's asn1 "per")
// encoders and decoders of every version. It shares the version grouping,
// slab bookkeeping and naming helpers with the BER generator.
type perGen struct {
	*berGen
	charsets map[string]string // alphabet -> variable name
}

// EmitPER writes the generated part of package per.
func (f *Family) EmitPER(pkg, modelPkg string) ([]byte, error) {
	g := &perGen{berGen: newBerGen(f), charsets: map[string]string{}}
	w := &g.w
	g.begin(pkg, "megaco/internal/codec/codecerr", "megaco/internal/codec/per/x691", modelPkg)
	if err := g.typeFuncs(typeEmitter{"func append%s%s(e *x691.Writer, m *model.%s) error {\nvar err error\n", split(g.encFunc)},
		typeEmitter{"func decode%s%s(d *decoder, m *model.%s) error {\nvar err error\nif err = d.enter(); err != nil {\nreturn err\n}\n", split(g.decFunc)}); err != nil {
		return nil, err
	}
	top := &Type{Kind: KindRef, Ref: "MegacoMessage"}
	w.WriteString("func appendMessage(e *x691.Writer, v int, m *model.MegacoMessage) error {\nvar err error\nswitch v {\n")
	for _, v := range f.Versions {
		fmt.Fprintf(w, "case %d:\n", v.N)
		if err := g.enc(v, top, "(*m)"); err != nil {
			return nil, err
		}
	}
	w.WriteString("default:\nreturn encErrorf(\"no schema for version %d\", v)\n}\nreturn err\n}\n\n")
	w.WriteString("func decodeMessage(d *decoder, v int, m *model.MegacoMessage) error {\nvar err error\nswitch v {\n")
	for _, v := range f.Versions {
		fmt.Fprintf(w, "case %d:\n", v.N)
		if err := g.dec(v, top, "(*m)", "%s"); err != nil {
			return nil, err
		}
	}
	w.WriteString("default:\nreturn encErrorf(\"no schema for version %d\", v)\n}\nreturn err\n}\n\n")
	if err := f.checkSlabs("PER", g.slabs); err != nil {
		return nil, err
	}
	var alphas []string
	for a := range g.charsets {
		alphas = append(alphas, a)
	}
	sort.Strings(alphas)
	for _, a := range alphas {
		fmt.Fprintf(w, "\nvar %s = x691.NewCharSet(%q)\n", g.charsets[a], a)
	}
	out, err := format.Source(w.Bytes())
	if err != nil {
		return w.Bytes(), fmt.Errorf("generated PER code does not parse: %w", err)
	}
	return out, nil
}

// rootAndExt splits the components of tf's SEQUENCE, SET or CHOICE into
// the root (in PER order: canonical tag order for CHOICE and SET) and the
// extension additions (in definition order).
func rootAndExt(tf typeFunc) (root, ext []*Component, err error) {
	t := tf.def
	for _, c := range t.Components {
		if c.Ext {
			if c.Group != 0 {
				return nil, nil, fmt.Errorf("%s: extension addition groups are not supported in PER (%s)", tf.t.Name, c.Name)
			}
			ext = append(ext, c)
		} else {
			root = append(root, c)
		}
	}
	if t.Kind == KindChoice || t.Kind == KindSet {
		sort.SliceStable(root, func(i, j int) bool {
			a, b := root[i].Type.Tag, root[j].Type.Tag
			if a == nil || b == nil {
				return false
			}
			if a.Class != b.Class {
				return a.Class < b.Class
			}
			return a.Number < b.Number
		})
	}
	return root, ext, nil
}

// split gives emit, which reads the root and the extension components of
// the type apart (rootAndExt), to typeFuncs.
func split(emit func(tf typeFunc, root, ext []*Component) error) func(typeFunc) error {
	return func(tf typeFunc) error {
		root, ext, err := rootAndExt(tf)
		if err != nil {
			return err
		}
		return emit(tf, root, ext)
	}
}

// intForm names the X.691 form of an INTEGER with value range rg (the
// Writer.Put... and Reader.Get... methods) and the bounds they take.
func intForm(rg *Range) (form, bounds string) {
	switch {
	case rg != nil && rg.HasLower && rg.HasUpper && rg.Extensible:
		return "ConstrainedExt", fmt.Sprintf("%d, %d", rg.Lower, rg.Upper)
	case rg != nil && rg.HasLower && rg.HasUpper:
		return "Constrained", fmt.Sprintf("%d, %d", rg.Lower, rg.Upper)
	case rg != nil && rg.HasLower && !rg.Extensible:
		return "SemiConstrained", fmt.Sprintf("%d", rg.Lower)
	}
	return "Unconstrained", ""
}

func sizeArgs(r *Range) (lb, ub string, ext bool) {
	lb, ub = "0", "x691.Unbounded"
	if r == nil {
		return
	}
	if r.HasLower {
		lb = strconv.FormatInt(r.Lower, 10)
	}
	if r.HasUpper {
		ub = strconv.FormatInt(r.Upper, 10)
	}
	return lb, ub, r.Extensible
}

// charsetOf names the x691.CharSet of character string type r: its
// permitted alphabet, or that of its string type.
func (g *perGen) charsetOf(r *Type) string {
	if r.Alphabet != "" {
		return g.charset(r.Alphabet)
	}
	return map[Kind]string{KindIA5String: "x691.IA5String", KindVisibleString: "x691.VisibleString", KindPrintableString: "x691.PrintableString"}[r.Kind]
}

func (g *perGen) charset(alpha string) string {
	if n, ok := g.charsets[alpha]; ok {
		return n
	}
	n := fmt.Sprintf("charset%d", len(g.charsets)+1)
	g.charsets[alpha] = n
	return n
}

// enumIndexes returns the enumeration's items in PER index order: root
// items sorted by value, then the extension items as defined.
func enumIndexes(r *Type) (root, ext []NamedNumber) {
	for _, nn := range r.Named {
		if nn.Ext {
			ext = append(ext, nn)
		} else {
			root = append(root, nn)
		}
	}
	sort.SliceStable(root, func(i, j int) bool { return root[i].Value < root[j].Value })
	return root, ext
}

func (g *perGen) encFunc(tf typeFunc, root, ext []*Component) error {
	t, v, def, w := tf.t, tf.v, tf.def, &g.w
	if t.Kind == KindChoice {
		w.WriteString("switch m.Kind {\n")
		alts := append(append([]*Component{}, root...), ext...)
		for idx, c := range alts {
			fl := fieldOf(t, c.Name)
			fmt.Fprintf(w, "case model.%s_%s:\nif err = e.PutChoiceIndex(%d, %d, %v); err != nil {\nreturn err\n}\n", t.Name, fl.GoName, idx, len(root), def.Extensible)
			value := "m." + fl.GoName
			if fl.Rep == RepPointer {
				fmt.Fprintf(w, "if %s == nil {\nreturn codecerr.At(encErrorf(\"alternative is nil\"), %q)\n}\n", value, fl.Name)
				value = "(*" + value + ")"
			}
			if c.Ext {
				w.WriteString("mk := e.BeginOpenType()\n")
			}
			if err := g.enc(v, c.Type, value); err != nil {
				return err
			}
			if c.Ext {
				w.WriteString("if err == nil {\nerr = e.EndOpenType(mk)\n}\n")
			}
			fmt.Fprintf(w, "if err != nil {\nreturn codecerr.At(err, %q)\n}\n", fl.Name)
		}
		for _, fl := range t.Fields {
			if fl.In[v.N] == nil {
				fmt.Fprintf(w, "case model.%s_%s:\nreturn codecerr.At(encErrorf(\"not in version %%d\", %d), %q)\n", t.Name, fl.GoName, v.N, fl.Name)
			}
		}
		fmt.Fprintf(w, "default:\nreturn encErrorf(\"%s: no alternative chosen\")\n}\nreturn nil\n}\n\n", t.Name)
		return nil
	}
	g.absentFields(t, v, "")
	// presentExpr is the presence condition of a component in this version.
	presentExpr := func(c *Component) string {
		fl := fieldOf(t, c.Name)
		cond, _ := presence(fl, "m")
		if c.Optional || c.Default != "" {
			return cond
		}
		if cond == "" {
			return "true"
		}
		// Mandatory here but optional in the union: checked when written.
		return "true"
	}
	if def.Extensible {
		var conds []string
		for _, c := range ext {
			conds = append(conds, "("+presentExpr(c)+")")
		}
		if len(conds) == 0 {
			conds = []string{"false"}
		}
		fmt.Fprintf(w, "hasExt := %s\ne.PutBool(hasExt)\n", strings.Join(conds, " || "))
	}
	for _, c := range root {
		if c.Optional || c.Default != "" {
			fmt.Fprintf(w, "e.PutBool(%s)\n", presentExpr(c))
		}
	}
	emitComp := func(c *Component, open bool) error {
		fl := fieldOf(t, c.Name)
		cond, value := presence(fl, "m")
		mandatory := !c.Optional && c.Default == ""
		switch {
		case fl.Rep == RepFlag && mandatory:
			w.WriteString("{\n")
		case fl.Rep == RepFlag, cond != "" && !mandatory:
			fmt.Fprintf(w, "if %s {\n", cond)
		case cond == "":
			w.WriteString("{\n")
		default:
			fmt.Fprintf(w, "if !(%s) {\nreturn codecerr.At(encErrorf(\"mandatory in version %%d\", %d), %q)\n}\n{\n", cond, v.N, fl.Name)
		}
		if open {
			w.WriteString("mk := e.BeginOpenType()\n")
		}
		if err := g.enc(v, c.Type, value); err != nil {
			return err
		}
		if open {
			w.WriteString("if err == nil {\nerr = e.EndOpenType(mk)\n}\n")
		}
		fmt.Fprintf(w, "if err != nil {\nreturn codecerr.At(err, %q)\n}\n}\n", fl.Name)
		return nil
	}
	for _, c := range root {
		if err := emitComp(c, false); err != nil {
			return err
		}
	}
	if def.Extensible && len(ext) > 0 {
		w.WriteString("if hasExt {\nvar present uint64\n")
		for i, c := range ext {
			fmt.Fprintf(w, "if %s {\npresent |= 1 << %d\n}\n", presentExpr(c), i)
		}
		fmt.Fprintf(w, "if err = e.PutExtensionBitmap(present, %d); err != nil {\nreturn err\n}\n", len(ext))
		for _, c := range ext {
			if err := emitComp(c, true); err != nil {
				return err
			}
		}
		w.WriteString("}\n")
	}
	w.WriteString("return err\n}\n\n")
	return nil
}

// enc emits code that writes value (of ASN.1 type t), leaving any error
// in err.
func (g *perGen) enc(v *Version, t *Type, value string) error {
	w := &g.w
	r, name, err := g.resolveNamed(v, t)
	if err != nil {
		return err
	}
	switch r.Kind {
	case KindInteger:
		if form, bounds := intForm(r.Value); form == "Unconstrained" {
			fmt.Fprintf(w, "e.PutUnconstrained(int64(%s))\n", value)
		} else {
			fmt.Fprintf(w, "err = e.Put%s(int64(%s), %s)\n", form, value, bounds)
		}
	case KindEnumerated:
		root, ext := enumIndexes(r)
		fmt.Fprintf(w, "switch %s {\n", value)
		for i, nn := range append(append([]NamedNumber{}, root...), ext...) {
			fmt.Fprintf(w, "case %d:\nerr = e.PutEnumerated(%d, %d, %v)\n", nn.Value, i, len(root), r.Extensible)
		}
		fmt.Fprintf(w, "default:\nerr = encErrorf(\"value %%d is not in %s\", int64(%s))\n}\n", name, value)
	case KindBoolean:
		fmt.Fprintf(w, "e.PutBool(%s)\n", value)
	case KindNull:
	case KindOctetString:
		lb, ub, ext := sizeArgs(r.Size)
		fmt.Fprintf(w, "err = e.PutOctetString(%s, %s, %s, %v)\n", value, lb, ub, ext)
	case KindIA5String, KindVisibleString, KindPrintableString, KindUTF8String:
		if r.Kind == KindUTF8String {
			return fmt.Errorf("PER: UTF8String is not supported")
		}
		lb, ub, ext := sizeArgs(r.Size)
		cs := g.charsetOf(r)
		fmt.Fprintf(w, "err = e.PutString(%s, %s, %s, %v, %s)\n", value, lb, ub, ext, cs)
	case KindBitString:
		lb, ub, ext := sizeArgs(r.Size)
		if len(r.Named) > 0 {
			fmt.Fprintf(w, "err = e.PutNamedBits(%s.Bits, %s, %s, %v)\n", value, lb, ub, ext)
		} else {
			fmt.Fprintf(w, "err = putBitString(e, %s, %s, %s, %v)\n", value, lb, ub, ext)
		}
	case KindObjectIdentifier:
		fmt.Fprintf(w, "err = e.PutObjectIdentifier(%s)\n", value)
	case KindSequence, KindSet, KindChoice:
		fmt.Fprintf(w, "err = append%s%s(e, %s)\n", name, g.funcSuffix(name, v.N), addr(value))
	case KindSequenceOf, KindSetOf:
		lb, ub, ext := sizeArgs(r.Size)
		k, more, i, end := g.tmp("k"), g.tmp("more"), g.tmp("i"), g.tmp("end")
		fmt.Fprintf(w, "{\n%s, %s, err := e.PutLength(len(%s), %s, %s, %v)\nif err != nil {\nreturn err\n}\n", k, more, value, lb, ub, ext)
		fmt.Fprintf(w, "for %s := 0; ; {\nfor %s := %s + %s; %s < %s; %s++ {\n", i, end, i, k, i, end, i)
		if err := g.enc(v, r.Elem, value+"["+i+"]"); err != nil {
			return err
		}
		fmt.Fprintf(w, "if err != nil {\nreturn codecerr.AtIndex(err, %s)\n}\n}\nif !%s {\nbreak\n}\n%s, %s = e.PutLengthChunk(len(%s) - %s)\n}\n}\n", i, more, k, more, value, i)
	default:
		return fmt.Errorf("PER: %s is not supported", r.Kind)
	}
	return nil
}

func (g *perGen) decFunc(tf typeFunc, root, ext []*Component) error {
	t, v, def, w := tf.t, tf.v, tf.def, &g.w
	target := func(fl *Field) string {
		tg := "m." + fl.GoName
		if t.Kind == KindChoice && fl.GoType == "struct{}" {
			return "" // a NULL alternative: Kind says it all
		}
		switch fl.Rep {
		case RepPointer:
			// Zeroed here, inline, rather than by slab.One's clear: a
			// call and a bulk write barrier check per value.
			fmt.Fprintf(w, "%s = &%s.Raw(1)[0]\n*%s = %s{}\n", tg, g.slab(fl.GoType), tg, g.f.qualify(fl.GoType, "model."))
			return "(*" + tg + ")"
		case RepOpt:
			fmt.Fprintf(w, "%s.Present = true\n", tg)
			return tg + ".Value"
		case RepFlag:
			fmt.Fprintf(w, "%s = true\n", tg)
			return ""
		}
		if fl.GoType == "struct{}" {
			return ""
		}
		return tg
	}
	if t.Kind == KindChoice {
		emitIndex(w, "idx", "isExt", len(root), def.Extensible, "return err")
		w.WriteString("switch idx {\n")
		alts := append(append([]*Component{}, root...), ext...)
		for idx, c := range alts {
			fl := fieldOf(t, c.Name)
			fmt.Fprintf(w, "case %d:\nm.Kind = model.%s_%s\n", idx, t.Name, fl.GoName)
			ret := fmt.Sprintf("codecerr.At(%%s, %q)", c.Name)
			if c.Ext {
				fmt.Fprintf(w, "outer, err := d.openType()\nif err != nil {\nreturn %s\n}\n", fmt.Sprintf(ret, "err"))
			}
			if err := g.dec(v, c.Type, target(fl), ret); err != nil {
				return err
			}
			if c.Ext {
				w.WriteString("d.Reader = outer\n")
			}
		}
		fmt.Fprintf(w, "default:\n_ = isExt\nreturn d.errorf(\"unknown extension alternative %%d of %s\", idx)\n}\nd.leave()\nreturn err\n}\n\n", t.Name)
		return nil
	}
	var optional []*Component
	for _, c := range root {
		if c.Optional || c.Default != "" {
			optional = append(optional, c)
		}
	}
	if len(optional) > 63 {
		return fmt.Errorf("%s: more than 63 optional components", t.Name)
	}
	emitPreamble(w, def.Extensible, len(optional))
	oi := 0
	for _, c := range root {
		fl := fieldOf(t, c.Name)
		ret := fmt.Sprintf("codecerr.At(%%s, %q)", c.Name)
		if c.Optional || c.Default != "" {
			fmt.Fprintf(w, "if opt&(1<<%d) != 0 {\n", len(optional)-1-oi)
			oi++
		} else {
			w.WriteString("{\n")
		}
		if err := g.dec(v, c.Type, target(fl), ret); err != nil {
			return err
		}
		w.WriteString("}\n")
	}
	if def.Extensible {
		emitExtBitmap(w, len(ext))
		for i, c := range ext {
			fl := fieldOf(t, c.Name)
			ret := fmt.Sprintf("codecerr.At(%%s, %q)", c.Name)
			fmt.Fprintf(w, "if present&(1<<%d) != 0 {\nouter, err := d.openType()\nif err != nil {\nreturn %s\n}\n", i, fmt.Sprintf(ret, "err"))
			if err := g.dec(v, c.Type, target(fl), ret); err != nil {
				return err
			}
			w.WriteString("d.Reader = outer\n}")
			if !c.Optional && c.Default == "" {
				fmt.Fprintf(w, " else {\nreturn d.errorf(\"mandatory extension %s is missing\")\n}", c.Name)
			}
			w.WriteString("\n")
		}
		w.WriteString("for ; unknown > 0; unknown-- {\nif err = d.SkipOpenType(); err != nil {\nreturn err\n}\n}\n}")
		var mandatoryExt []string
		for _, c := range ext {
			if !c.Optional && c.Default == "" {
				mandatoryExt = append(mandatoryExt, c.Name)
			}
		}
		if len(mandatoryExt) > 0 {
			fmt.Fprintf(w, " else {\nreturn d.errorf(\"mandatory extension %s is missing\")\n}", mandatoryExt[0])
		}
		w.WriteString("\n")
	}
	w.WriteString("d.leave()\nreturn err\n}\n\n")
	return nil
}

// dec emits code that reads a value of ASN.1 type t into target; ret
// wraps an error expression (%s) on its way out.
func (g *perGen) dec(v *Version, t *Type, target, ret string) error {
	w := &g.w
	fail := "return " + fmt.Sprintf(ret, "err")
	r, name, err := g.resolveNamed(v, t)
	if err != nil {
		return err
	}
	switch r.Kind {
	case KindInteger:
		goT, _ := g.f.GoTypeOf(v, r)
		rg := r.Value
		x := g.tmp("x")
		emitInt(w, x, rg, fail)
		if goT == "uint32" && (rg == nil || rg.Extensible || rg.Lower < 0 || rg.Upper > 0xFFFFFFFF) {
			fmt.Fprintf(w, "if %s < 0 || %s > 0xFFFFFFFF {\nreturn %s\n}\n", x, x, fmt.Sprintf(ret, fmt.Sprintf("d.errorf(\"value %%d out of range\", %s)", x)))
		}
		fmt.Fprintf(w, "%s = %s(%s)\n", target, goT, x)
	case KindEnumerated:
		root, ext := enumIndexes(r)
		x := g.tmp("x")
		emitIndex(w, x, "", len(root), r.Extensible, fail)
		fmt.Fprintf(w, "switch %s {\n", x)
		for i, nn := range append(append([]NamedNumber{}, root...), ext...) {
			fmt.Fprintf(w, "case %d:\n%s = %d\n", i, target, nn.Value)
		}
		fmt.Fprintf(w, "default:\nreturn %s\n}\n", fmt.Sprintf(ret, fmt.Sprintf("d.errorf(\"unknown value index %%d of %s\", %s)", name, x)))
	case KindBoolean:
		fmt.Fprintf(w, "if %s, err = d.GetBool(); err != nil {\n%s\n}\n", target, fail)
	case KindNull:
	case KindOctetString:
		lb, ub, ext := sizeArgs(r.Size)
		if z := r.Size; z != nil && z.HasLower && z.HasUpper && z.Lower == z.Upper && !z.Extensible && z.Upper >= 1 && z.Upper <= 2 {
			// A bit-field, not octet-aligned: copied into the decoder's memory.
			fmt.Fprintf(w, "if %s, err = d.shortOctets(%s); err != nil {\n%s\n}\n", target, ub, fail)
			break
		}
		fmt.Fprintf(w, "if %s, err = d.%s; err != nil {\n%s\n}\n", target, octetsCall(r.Size, lb, ub, ext), fail)
	case KindIA5String, KindVisibleString, KindPrintableString:
		lb, ub, ext := sizeArgs(r.Size)
		cs := g.charsetOf(r)
		if n, ok := fixedSize(r.Size); ok && n > 2 {
			fmt.Fprintf(w, "if %s, err = d.fixedStr(%d, %s); err != nil {\n%s\n}\n", target, n, cs, fail)
			break
		}
		fmt.Fprintf(w, "if %s, err = d.str(%s, %s, %v, %s); err != nil {\n%s\n}\n", target, lb, ub, ext, cs, fail)
	case KindBitString:
		lb, ub, ext := sizeArgs(r.Size)
		fmt.Fprintf(w, "if %s, err = d.bitString(%s, %s, %v, %v); err != nil {\n%s\n}\n", target, lb, ub, ext, len(r.Named) > 0, fail)
	case KindObjectIdentifier:
		fmt.Fprintf(w, "if %s, err = d.GetObjectIdentifier(nil); err != nil {\n%s\n}\n", target, fail)
	case KindSequence, KindSet, KindChoice:
		fmt.Fprintf(w, "if err = decode%s%s(d, %s); err != nil {\n%s\n}\n", name, g.funcSuffix(name, v.N), addr(target), fail)
	case KindSequenceOf, KindSetOf:
		egoT, err := g.f.GoTypeOf(v, r.Elem)
		if err != nil {
			return err
		}
		sl := g.slab(egoT)
		k, more, i := g.tmp("k"), g.tmp("more"), g.tmp("i")
		emitCount(w, r.Size, k, more, fail)
		fmt.Fprintf(w, "if err = d.count(%s); err != nil {\n%s\n}\n", k, fail)
		// The elements are left as the last message left them: a
		// structured one is zeroed before it is decoded, inline; any other
		// is assigned whole.
		fmt.Fprintf(w, "%s = %s.Raw(%s)\n", target, sl, k)
		fmt.Fprintf(w, "for %s := 0; ; {\nfor ; %s < len(%s); %s++ {\n", i, i, target, i)
		if er, err := v.Resolve(r.Elem); err != nil {
			return err
		} else if er.Kind == KindSequence || er.Kind == KindSet || er.Kind == KindChoice {
			fmt.Fprintf(w, "%s[%s] = %s{}\n", target, i, g.f.qualify(egoT, "model."))
		}
		if err := g.dec(v, r.Elem, target+"["+i+"]", fmt.Sprintf(ret, "codecerr.AtIndex(%s, "+i+")")); err != nil {
			return err
		}
		fmt.Fprintf(w, "}\nif !%s {\nbreak\n}\nif %s, %s, err = d.GetLengthChunk(0); err != nil {\n%s\n}\n", more, k, more, fail)
		fmt.Fprintf(w, "if err = d.count(%s); err != nil {\n%s\n}\n%s = append(%s, make([]%s, %s)...)\n}\n}\n", k, fail, target, target, g.f.qualify(egoT, "model."), k)
	default:
		return fmt.Errorf("PER: %s is not supported", r.Kind)
	}
	return nil
}

// The calls below specialize a read for the constraint known at
// generation time: the fast paths of package x691 take the bit counts and
// ranges as constants and fall back to the general reads.

// emitPreamble emits the read of a SEQUENCE's extension bit and presence
// bits (at most 63), at once: hasExt and opt, the presence bits with the
// first component's highest.
func emitPreamble(w *bytes.Buffer, extensible bool, optional int) {
	switch {
	case extensible && optional > 0:
		emitBits(w, "opt", optional+1, "return err")
		fmt.Fprintf(w, "hasExt := opt&(1<<%d) != 0\n", optional)
	case extensible:
		w.WriteString("hasExt, err := d.GetBool()\nif err != nil {\nreturn err\n}\n")
	case optional > 0:
		emitBits(w, "opt", optional, "return err")
	}
}

// emitExtBitmap opens the block that reads a SEQUENCE's extension
// bitmap when hasExt: present, the bits of its n known extensions
// (the first's lowest), and unknown, how many more follow. The caller
// reads the extensions and closes the block.
func emitExtBitmap(w *bytes.Buffer, n int) {
	pv := "present"
	if n == 0 {
		pv = "_"
	}
	fmt.Fprintf(w, "if hasExt {\n%s, unknown, err := d.GetExtensionBitmap(%d)\nif err != nil {\nreturn err\n}\n", pv, n)
}

// emitBits emits the read of an n-bit field (n <= 64) into a new
// variable v: up to 57 bits, inlined for the common case of 8 octets
// left, else through GetBits, which reads or reports the rest.
func emitBits(w *bytes.Buffer, v string, n int, fail string) {
	if n > 57 {
		fmt.Fprintf(w, "%s, err := d.GetBits(%d)\nif err != nil {\n%s\n}\n", v, n, fail)
		return
	}
	fmt.Fprintf(w, "%s, ok := d.TryBits(%d)\nif !ok {\nvar err error\nif %s, err = d.GetBits(%d); err != nil {\n%s\n}\n}\n", v, n, v, n, fail)
}

// emitIndex emits the read of the index of a CHOICE alternative or
// ENUMERATED value of count root ones into a new int variable v (and
// whether it is an extension's into a new variable isExt, if named): a
// root index inline, an extension's through GetChoiceIndex.
func emitIndex(w *bytes.Buffer, v, isExt string, count int, ext bool, fail string) {
	n := indexBits(count)
	if ext {
		n++ // the extension bit, 0 for a root index
	}
	fmt.Fprintf(w, "%s, ok := d.TryIndex(%d, %d)\n", v, n, count)
	x := "_"
	if isExt != "" {
		fmt.Fprintf(w, "%s := false\n", isExt)
		x = isExt
	}
	fmt.Fprintf(w, "if !ok {\nvar err error\nif %s, %s, err = d.GetChoiceIndex(%d, %v); err != nil {\n%s\n}\n}\n", v, x, count, ext, fail)
}

// emitInt emits the read of an INTEGER of range rg into a new variable
// v: an ID, INTEGER (0..4294967295), inline for the common case.
func emitInt(w *bytes.Buffer, v string, rg *Range, fail string) {
	call := intCall(rg)
	if call == "GetUint32()" {
		fmt.Fprintf(w, "%s, ok := d.TryUint32()\nif !ok {\nvar err error\nif %s, err = d.GetUint32(); err != nil {\n%s\n}\n}\n", v, v, fail)
		return
	}
	fmt.Fprintf(w, "%s, err := d.%s\nif err != nil {\n%s\n}\n", v, call, fail)
}

// indexBits is the width of the index of one of n root alternatives or
// enumeration items.
func indexBits(n int) int { return bits.Len(uint(n - 1)) }

// intCall is the read of an INTEGER with value range rg.
func intCall(rg *Range) string {
	form, bounds := intForm(rg)
	if form != "Constrained" {
		return fmt.Sprintf("Get%s(%s)", form, bounds)
	}
	switch rng := uint64(rg.Upper) - uint64(rg.Lower); {
	case rg.Lower == 0 && rg.Upper == 1<<32-1:
		return "GetUint32()"
	case rng < 255:
		return fmt.Sprintf("GetSmallConstrained(%s, %d)", bounds, bits.Len64(rng))
	case rng <= 0xFFFF:
		return fmt.Sprintf("GetAlignedConstrained(%s, %d)", bounds, (bits.Len64(rng)+7)/8)
	}
	return fmt.Sprintf("GetConstrained(%s)", bounds)
}

// octetsCall is the read of an OCTET STRING with size constraint z (lb,
// ub, ext from sizeArgs) into a sub-slice of the input.
func octetsCall(z *Range, lb, ub string, ext bool) string {
	if z != nil && z.HasLower && z.HasUpper && !ext && z.Lower >= 0 {
		switch rng := z.Upper - z.Lower; {
		case rng == 0 && z.Upper > 2 && z.Upper < 1<<16:
			return fmt.Sprintf("GetFixedOctets(%d)", z.Upper)
		case rng > 0 && rng < 255:
			return fmt.Sprintf("GetSizedOctets(%d, %d, %d)", z.Lower, z.Upper, bits.Len64(uint64(rng)))
		}
	}
	return fmt.Sprintf("GetOctetString(%s, %s, %v)", lb, ub, ext)
}

// emitCount emits the read of the count of a SEQUENCE OF or SET OF with
// size constraint z into new variables k and more, in a block that
// declares err: without a constraint, the common count of one octet is
// read inline.
func emitCount(w *bytes.Buffer, z *Range, k, more, fail string) {
	if z != nil {
		lb, ub, ext := sizeArgs(z)
		fmt.Fprintf(w, "{\n%s, %s, err := d.GetLength(%s, %s, %v, 0)\nif err != nil {\n%s\n}\n", k, more, lb, ub, ext, fail)
		return
	}
	fmt.Fprintf(w, "{\nvar err error\n%s, %s := 0, false\nif n, ok := d.TryCount(); ok {\n%s = n\n} else if %s, %s, err = d.GetShortLength(0); err != nil {\n%s\n}\n", k, more, k, k, more, fail)
}

// fixedSize is the size z fixes, below 64K (X.691 sends no length for
// it).
func fixedSize(z *Range) (int, bool) {
	if z == nil || !z.HasLower || !z.HasUpper || z.Extensible || z.Lower != z.Upper || z.Upper >= 1<<16 {
		return 0, false
	}
	return int(z.Upper), true
}
