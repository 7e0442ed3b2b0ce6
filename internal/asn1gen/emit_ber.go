package asn1gen

import (
	"bytes"
	"fmt"
	"go/format"
	"sort"
	"strconv"
	"strings"
)

// berGen writes the BER encoders and decoders of every version. Types
// whose definition (followed through every reference) is the same in
// several versions share one function.
type berGen struct {
	f    *Family
	w    bytes.Buffer
	sigs map[string]string // version/name -> signature
	n    int               // counter for unique local names
	// slabs lists the Go types the decoders allocate, each from a slab in
	// the decoder so that a reused decoder allocates nothing.
	slabs map[string]string // field name -> qualified Go type
	// fast holds, by decoder name, what hasFast found out.
	fast map[string]*fastInfo
	// noFast tells the next fastCall or fastChoiceCall that the fast
	// decoder was tried already (fastFirst).
	noFast bool
	// winOf names, for a header variable, a window variable that holds
	// its element (that of the SEQUENCE or list it is in, see window).
	winOf map[string]string
}

// window returns the expression of a window for the element of header
// variable hv for the list code and the unwrapping of explicit tags: one
// that holds it already when there is one, which saves reader.window's
// call. A larger window is as good there: they check that what they read
// ends where the element does, and read elements they counted, or found
// to fill the list, in that window. Not for a fast decoder, which must
// not read past the element's end (see fastFirst).
func (g *berGen) window(hv string) string {
	if win, ok := g.winOf[hv]; ok {
		return win
	}
	return "d.window(" + addr(hv) + ")"
}

// slab returns the decoder field (of slab.Model) that allocates values
// of goT.
func (g *berGen) slab(goT string) string {
	name := slabName(goT)
	g.slabs[name] = g.f.qualify(goT, "model.")
	return "d.s." + name
}

// one emits code that points target at a new zeroed value of goT from
// its slab. The zeroing is written for the concrete type, which the
// compiler does inline; slab.One's generic zeroing is a runtime call
// (memclrHasPointers) per value.
func (g *berGen) one(target, goT string) {
	p := g.tmp("p")
	g.raw(p, ":=", goT, "1")
	fmt.Fprintf(&g.w, "%s[0] = %s{}\n%s = &%s[0]\n", p, g.f.qualify(goT, "model."), target, p)
}

// raw emits code that assigns (op) n values of goT from their slab to
// target, their content left over: from the current chunk inline
// (slab.Room), through Raw when it is full.
func (g *berGen) raw(target, op, goT, n string) {
	sl := g.slab(goT)
	fmt.Fprintf(&g.w, "%s %s %s.Room(%s)\nif %s == nil {\n%s = %s.Raw(%s)\n}\n", target, op, sl, n, target, target, sl, n)
}

// slabName names the slab of Go type goT: "[]PropertyParm" is
// "ListPropertyParm", "uint32" is "Uint32".
func slabName(goT string) string {
	base := strings.TrimLeft(goT, "[]")
	lists := (len(goT) - len(base)) / 2
	return strings.Repeat("List", lists) + strings.ToUpper(base[:1]) + base[1:]
}

// slabTypes maps each field of slab.Model to its element type: one slab
// for every Go type a decoder of the model allocates (optional structured
// fields, CHOICE alternatives held by pointer, list elements).
func (f *Family) slabTypes() map[string]string {
	types := map[string]string{}
	var addList func(goT string)
	addList = func(goT string) {
		elem := goT[2:]
		types[slabName(elem)] = f.qualify(elem, "model.")
		if strings.HasPrefix(elem, "[]") {
			addList(elem)
		}
	}
	for _, t := range f.Types {
		for _, fl := range t.Fields {
			switch {
			case fl.Rep == RepPointer:
				types[slabName(fl.GoType)] = f.qualify(fl.GoType, "model.")
			case strings.HasPrefix(fl.GoType, "[]"):
				addList(fl.GoType)
			}
		}
	}
	return types
}

// checkSlabs fails when a decoder generator asked for a slab that
// slab.Model lacks.
func (f *Family) checkSlabs(codec string, used map[string]string) error {
	have := f.slabTypes()
	for n := range used {
		if _, ok := have[n]; !ok {
			return fmt.Errorf("%s decoder needs slab %s, which slab.Model lacks", codec, n)
		}
	}
	return nil
}

// EmitSlabs writes slab.Model, shared by every codec's decoder.
func (f *Family) EmitSlabs(pkg, modelPkg string) ([]byte, error) {
	types := f.slabTypes()
	var names []string
	for n := range types {
		names = append(names, n)
	}
	sort.Strings(names)
	var w bytes.Buffer
	w.WriteString(Header)
	fmt.Fprintf(&w, "package %s\n\nimport %q\n\n", pkg, modelPkg)
	w.WriteString("// Model holds a slab for every type a decoder of the message model\n// allocates. The zero value is ready; Reset makes all memory available again.\ntype Model struct {\n")
	for _, n := range names {
		fmt.Fprintf(&w, "%s Slab[%s]\n", n, types[n])
	}
	// Reset writes each slab's length itself: Slab.Reset's check of
	// kept, a hundred times per message, made a twentieth of a BER decode.
	// Keep sets kept in every slab, so the first one's tells.
	fmt.Fprintf(&w, "}\n\n// Reset resets every slab.\nfunc (s *Model) Reset() {\nif s.%s.kept {\npanic(\"slab: Reset after Keep\")\n}\n", names[0])
	for _, n := range names {
		fmt.Fprintf(&w, "s.%[1]s.buf = s.%[1]s.buf[:0]\n", n)
	}
	w.WriteString("}\n\n// Keep makes every slab hand out values for keeps.\nfunc (s *Model) Keep() {\n")
	for _, n := range names {
		fmt.Fprintf(&w, "s.%s.Keep()\n", n)
	}
	w.WriteString("}\n")
	return format.Source(w.Bytes())
}

func newBerGen(f *Family) *berGen {
	return &berGen{f: f, sigs: map[string]string{}, slabs: map[string]string{}, fast: map[string]*fastInfo{}, winOf: map[string]string{}}
}

// begin writes the start of a generated codec file: the header, the
// package clause and the imports.
func (g *berGen) begin(pkg string, imports ...string) {
	g.w.WriteString(Header)
	fmt.Fprintf(&g.w, "package %s\n\nimport (\n", pkg)
	for _, imp := range imports {
		fmt.Fprintf(&g.w, "%q\n", imp)
	}
	g.w.WriteString(")\n\n")
}

// typeFunc is a type's definition shared by a group of versions: the
// generators emit one encoder and one decoder for it.
type typeFunc struct {
	t   *GoType
	vs  []int    // the versions that share the definition
	v   *Version // the first of them
	def *Type    // the definition in v
}

// typeEmitter emits one Go function of a type: its signature (with the
// first lines of its body) is sig, formatted with the type's name, the
// versions' suffix and the name again; body emits the rest.
type typeEmitter struct {
	sig  string
	body func(tf typeFunc) error
}

// typeFuncs emits the encoder and the decoder of every type but the
// enumerations (which are encoded in place), one pair for each group of
// versions that share the type's definition.
func (g *berGen) typeFuncs(enc, dec typeEmitter) error {
	for _, t := range g.f.Types {
		if t.Kind == KindEnumerated {
			continue
		}
		for _, vs := range g.groups(t) {
			v := g.f.version(vs[0])
			tf := typeFunc{t: t, vs: vs, v: v, def: t.Defs[v.N]}
			for _, e := range [2]typeEmitter{enc, dec} {
				fmt.Fprintf(&g.w, e.sig, t.Name, suffix(vs), t.Name)
				if err := e.body(tf); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// absentFields emits the check that the fields version v lacks are
// absent from m; ret is what the encoder returns before its error ("b, "
// in BER).
func (g *berGen) absentFields(t *GoType, v *Version, ret string) {
	for _, fl := range t.Fields {
		if fl.In[v.N] != nil {
			continue
		}
		cond, _ := presence(fl, "m")
		fmt.Fprintf(&g.w, "if %s {\nreturn %scodecerr.At(encErrorf(\"not in version %%d\", %d), %q)\n}\n", cond, ret, v.N, fl.Name)
	}
}

// EmitBER writes the generated part of package ber.
func (f *Family) EmitBER(pkg, modelPkg string) ([]byte, error) {
	g := newBerGen(f)
	g.begin(pkg, "megaco/internal/codec/codecerr", modelPkg)
	if err := g.typeFuncs(typeEmitter{"func append%s%s(b []byte, m *model.%s) ([]byte, error) {\nvar err error\n", g.encFunc},
		typeEmitter{"func decode%s%s(d *decoder, h *header, m *model.%s) error {\nvar err error\n", g.decFunc}); err != nil {
		return nil, err
	}
	// Entry points per version for the top-level type.
	top := &Type{Kind: KindRef, Ref: "MegacoMessage"}
	w := &g.w
	w.WriteString("func appendMessage(b []byte, v int, m *model.MegacoMessage) ([]byte, error) {\nvar err error\nswitch v {\n")
	for _, v := range f.Versions {
		tags, err := v.Tags(top)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "case %d:\n", v.N)
		if err := g.enc(v, top, "(*m)", tags); err != nil {
			return nil, err
		}
	}
	w.WriteString("default:\nreturn b, encErrorf(\"no schema for version %d\", v)\n}\nreturn b, err\n}\n\n")
	w.WriteString("func decodeMessage(d *decoder, v int, h *header, m *model.MegacoMessage) error {\nvar err error\nswitch v {\n")
	for _, v := range f.Versions {
		tags, err := v.Tags(top)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "case %d:\nif h.tag != %#x {\nreturn d.unexpected(*h, %q)\n}\n", v.N, tags[0].Key(), tags[0].String())
		if err := g.dec(v, top, "(*m)", tags, "(*h)", "%s"); err != nil {
			return nil, err
		}
	}
	w.WriteString("default:\nreturn d.errorf(h.off, \"no schema for version %d\", v)\n}\nreturn err\n}\n\n")
	// Every slab used must exist in slab.Model.
	if err := f.checkSlabs("BER", g.slabs); err != nil {
		return nil, err
	}
	out, err := format.Source(g.w.Bytes())
	if err != nil {
		return g.w.Bytes(), fmt.Errorf("generated BER code does not parse: %w", err)
	}
	return out, nil
}

// signature renders t in version v with every reference expanded, so two
// versions encode a type alike exactly when their signatures are equal.
func (g *berGen) signature(v *Version, t *Type) string {
	var b strings.Builder
	var walk func(t *Type, depth int)
	walk = func(t *Type, depth int) {
		if t.Tag != nil {
			fmt.Fprintf(&b, "[%d %d %v]", t.Tag.Class, t.Tag.Number, t.Tag.Explicit)
		}
		if t.Kind == KindRef {
			key := fmt.Sprint(v.N, "/", t.Ref)
			if s, ok := g.sigs[key]; ok {
				b.WriteString(s)
				return
			}
			a := v.Module.Lookup(t.Ref)
			if a == nil || depth > 64 {
				b.WriteString("?" + t.Ref)
				return
			}
			b.WriteString(t.Ref + "=")
			walk(a.Type, depth+1)
			return
		}
		b.WriteString(t.Kind.String())
		for _, r := range []*Range{t.Value, t.Size} {
			if r != nil {
				fmt.Fprintf(&b, "(%v)", *r)
			}
		}
		if t.Alphabet != "" {
			fmt.Fprintf(&b, "FROM%q", t.Alphabet)
		}
		for _, nn := range t.Named {
			fmt.Fprintf(&b, "%s=%d,%v;", nn.Name, nn.Value, nn.Ext)
		}
		if t.Extensible {
			b.WriteString("...")
		}
		if t.Elem != nil {
			b.WriteString(" OF ")
			walk(t.Elem, depth+1)
		}
		for _, c := range t.Components {
			fmt.Fprintf(&b, "{%s %v %q %v %d ", c.Name, c.Optional, c.Default, c.Ext, c.Group)
			walk(c.Type, depth+1)
			b.WriteString("}")
		}
	}
	walk(t, 0)
	return b.String()
}

// groups splits the versions of t into sets that share a definition.
func (g *berGen) groups(t *GoType) [][]int {
	bySig := map[string][]int{}
	var order []string
	for _, vn := range t.Versions() {
		s := g.signature(g.f.version(vn), t.Defs[vn])
		if _, ok := bySig[s]; !ok {
			order = append(order, s)
		}
		bySig[s] = append(bySig[s], vn)
	}
	var out [][]int
	for _, s := range order {
		out = append(out, bySig[s])
	}
	return out
}

func suffix(vs []int) string {
	s := "V"
	for _, v := range vs {
		s += strconv.Itoa(v)
	}
	return s
}

// funcSuffix names the function that handles named type name in version v.
func (g *berGen) funcSuffix(name string, v int) string {
	t := g.f.Type(name)
	for _, grp := range g.groups(t) {
		for _, x := range grp {
			if x == v {
				return suffix(grp)
			}
		}
	}
	panic("asn1gen: no function for " + name)
}

// addr returns the address of an lvalue, without writing &(*p).
func addr(x string) string {
	if strings.HasPrefix(x, "(*") && strings.HasSuffix(x, ")") {
		return x[2 : len(x)-1]
	}
	return "&" + x
}

func (g *berGen) tmp(prefix string) string {
	g.n++
	return fmt.Sprintf("%s%d", prefix, g.n)
}

// presence returns the condition under which field fl is in the message,
// and the expression of its value.
func presence(fl *Field, base string) (cond, value string) {
	x := base + "." + fl.GoName
	switch fl.Rep {
	case RepPointer:
		return x + " != nil", "(*" + x + ")"
	case RepOpt:
		return x + ".Present", x + ".Value"
	case RepNil:
		return x + " != nil", x
	case RepFlag:
		return x, ""
	}
	return "", x
}

func (g *berGen) encFunc(tf typeFunc) error {
	t, v, def, w := tf.t, tf.v, tf.def, &g.w
	if t.Kind == KindChoice {
		w.WriteString("switch m.Kind {\n")
		for _, fl := range t.Fields {
			c := fl.In[v.N]
			fmt.Fprintf(w, "case model.%s_%s:\n", t.Name, fl.GoName)
			if c == nil {
				fmt.Fprintf(w, "return b, encErrorf(\"alternative %s is not in version %%d\", %d)\n", fl.Name, v.N)
				continue
			}
			tags, err := v.Tags(c.Type)
			if err != nil {
				return err
			}
			value := "m." + fl.GoName
			if fl.Rep == RepPointer {
				fmt.Fprintf(w, "if %s == nil {\nreturn b, codecerr.At(encErrorf(\"alternative is nil\"), %q)\n}\n", value, fl.Name)
				value = "(*" + value + ")"
			}
			if err := g.enc(v, c.Type, value, tags); err != nil {
				return err
			}
			fmt.Fprintf(w, "if err != nil {\nreturn b, codecerr.At(err, %q)\n}\n", fl.Name)
		}
		fmt.Fprintf(w, "default:\nreturn b, encErrorf(\"%s: no alternative chosen\")\n}\nreturn b, nil\n}\n\n", t.Name)
		return nil
	}
	g.absentFields(t, v, "b, ")
	for _, c := range def.Components {
		fl := fieldOf(t, c.Name)
		tags, err := v.Tags(c.Type)
		if err != nil {
			return err
		}
		cond, value := presence(fl, "m")
		mandatory := !c.Optional && c.Default == ""
		switch {
		case fl.Rep == RepFlag:
			fmt.Fprintf(w, "if %s {\n", cond)
			if mandatory {
				// A mandatory NULL is always sent.
				fmt.Fprintf(w, "}\n{\n")
			}
		case cond == "":
			w.WriteString("{\n")
		case mandatory:
			fmt.Fprintf(w, "if !(%s) {\nreturn b, codecerr.At(encErrorf(\"mandatory in version %%d\", %d), %q)\n}\n{\n", cond, v.N, fl.Name)
		default:
			fmt.Fprintf(w, "if %s {\n", cond)
		}
		if err := g.enc(v, c.Type, value, tags); err != nil {
			return err
		}
		fmt.Fprintf(w, "if err != nil {\nreturn b, codecerr.At(err, %q)\n}\n}\n", fl.Name)
	}
	w.WriteString("return b, err\n}\n\n")
	return nil
}

func fieldOf(t *GoType, name string) *Field {
	for _, fl := range t.Fields {
		if strings.EqualFold(fl.Name, name) {
			return fl
		}
	}
	panic("asn1gen: no field " + name)
}

func quoteTag(t TagSpec) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range t.Bytes() {
		fmt.Fprintf(&b, "\\x%02x", c)
	}
	b.WriteByte('"')
	return b.String()
}

// sizeCond returns the condition under which n breaks the SIZE
// constraint r, "" when nothing needs checking (no constraint, an
// extensible one, or bounds that cannot be broken).
func sizeCond(r *Range, n string) string {
	if r == nil || r.Extensible {
		return ""
	}
	var conds []string
	if r.HasLower && r.Lower > 0 {
		conds = append(conds, fmt.Sprintf("%s < %d", n, r.Lower))
	}
	if r.HasUpper {
		conds = append(conds, fmt.Sprintf("%s > %d", n, r.Upper))
	}
	return strings.Join(conds, " || ")
}

// sizeCheck emits a check of n against a SIZE constraint.
func sizeCheck(w *bytes.Buffer, r *Range, n, what string) {
	if cond := sizeCond(r, n); cond != "" {
		fmt.Fprintf(w, "if %s {\nerr = sizeError(%s, %s, %d, %d)\n} else\n", cond, what, n, r.Lower, r.Upper)
	}
}

// resolveNamed resolves t in v and gives the name the model calls the
// resolved type by ("" for an anonymous one).
func (g *berGen) resolveNamed(v *Version, t *Type) (*Type, string, error) {
	r, err := v.Resolve(t)
	if err != nil {
		return nil, "", err
	}
	return r, g.f.named[r], nil
}

// endLenCode is the code that closes the element whose length octet
// is at mark: the short form written in place, the long form through
// the runtime's endLen. Written out, not a call: endLen is over the
// inliner's budget, and its call per constructed element cost the
// encoder 7% of its instructions (callgrind, BenchmarkEncode).
func endLenCode(mark string) string {
	return fmt.Sprintf("if n := len(b) - %s - 1; n < 0x80 {\nb[%s] = byte(n)\n} else {\nb = endLen(b, %s)\n}\n", mark, mark, mark)
}

// enc emits code that appends the encoding of value (of ASN.1 type t,
// tagged with tags) to b, leaving any error in err.
func (g *berGen) enc(v *Version, t *Type, value string, tags []TagSpec) error {
	w := &g.w
	r, err := v.Resolve(t)
	if err != nil {
		return err
	}
	wrappers := tags
	if r.Kind != KindChoice {
		wrappers = tags[:len(tags)-1]
	}
	var marks []string
	for _, tag := range wrappers {
		mk := g.tmp("mk")
		fmt.Fprintf(w, "b = append(b, %s...)\n%s := len(b)\nb = append(b, 0)\n", quoteTag(tag), mk)
		marks = append(marks, mk)
	}
	var tag string
	if r.Kind != KindChoice {
		tag = quoteTag(tags[len(tags)-1])
	}
	name := g.f.named[r]
	switch r.Kind {
	case KindInteger:
		goT, _ := g.f.GoTypeOf(v, r)
		rangeCheck(w, r.Value, value, goT)
		if goT == "uint32" {
			fmt.Fprintf(w, "{\nb = appendUint(b, %s, uint64(%s))\n}\n", tag, value)
		} else {
			fmt.Fprintf(w, "{\nb = appendInt(b, %s, int64(%s))\n}\n", tag, value)
		}
	case KindEnumerated:
		if !r.Extensible {
			fmt.Fprintf(w, "if !valid%s(int64(%s)) {\nerr = encErrorf(\"value %%d is not in %s\", int64(%s))\n} else ", enumFuncName(r), value, name, value)
			g.needEnum(r)
		}
		fmt.Fprintf(w, "{\nb = appendInt(b, %s, int64(%s))\n}\n", tag, value)
	case KindBoolean:
		fmt.Fprintf(w, "b = appendBool(b, %s, %s)\n", tag, value)
	case KindNull:
		fmt.Fprintf(w, "b = append(b, %s...)\nb = append(b, 0)\n", tag)
	case KindOctetString:
		sizeCheck(w, r.Size, "len("+value+")", `"octets"`)
		fmt.Fprintf(w, "{\nb = appendBytes(b, %s, %s)\n}\n", tag, value)
	case KindIA5String, KindVisibleString, KindPrintableString, KindUTF8String:
		sizeCheck(w, r.Size, "len("+value+")", `"characters"`)
		if r.Alphabet != "" {
			fmt.Fprintf(w, "if !inAlphabet(%s, %q) {\nerr = encErrorf(\"character not in %q\")\n} else ", value, r.Alphabet, r.Alphabet)
		} else if r.Kind == KindIA5String {
			fmt.Fprintf(w, "if !isIA5(%s) {\nerr = encErrorf(\"not an IA5String: %%q\", %s)\n} else ", value, value)
		}
		fmt.Fprintf(w, "{\nb = appendString(b, %s, %s)\n}\n", tag, value)
	case KindBitString:
		sizeCheck(w, r.Size, value+".EncLen()", `"bits"`)
		fmt.Fprintf(w, "{\nb = appendBits(b, %s, %s)\n}\n", tag, value)
	case KindObjectIdentifier:
		fmt.Fprintf(w, "b, err = appendOID(b, %s, %s)\n", tag, value)
	case KindSequence, KindSet:
		mk := g.tmp("mk")
		fmt.Fprintf(w, "b = append(b, %s...)\n%s := len(b)\nb = append(b, 0)\nb, err = append%s%s(b, %s)\n%s",
			tag, mk, name, g.funcSuffix(name, v.N), addr(value), endLenCode(mk))
	case KindChoice:
		fmt.Fprintf(w, "b, err = append%s%s(b, %s)\n", name, g.funcSuffix(name, v.N), addr(value))
	case KindSequenceOf, KindSetOf:
		mk, i := g.tmp("mk"), g.tmp("i")
		etags, err := v.Tags(r.Elem)
		if err != nil {
			return err
		}
		sizeCheck(w, r.Size, "len("+value+")", `"elements"`)
		fmt.Fprintf(w, "{\nb = append(b, %s...)\n%s := len(b)\nb = append(b, 0)\nfor %s := range %s {\n", tag, mk, i, value)
		if err := g.enc(v, r.Elem, value+"["+i+"]", etags); err != nil {
			return err
		}
		fmt.Fprintf(w, "if err != nil {\nerr = codecerr.AtIndex(err, %s)\nbreak\n}\n}\n%s}\n", i, endLenCode(mk))
	default:
		return fmt.Errorf("BER: %s is not supported", r.Kind)
	}
	for i := len(marks) - 1; i >= 0; i-- {
		w.WriteString(endLenCode(marks[i]))
	}
	return nil
}

func rangeCheck(w *bytes.Buffer, r *Range, value, goT string) {
	if r == nil || r.Extensible {
		return
	}
	var conds []string
	if r.HasLower && !(goT == "uint32" && r.Lower == 0) {
		conds = append(conds, fmt.Sprintf("int64(%s) < %d", value, r.Lower))
	}
	if r.HasUpper && !(goT == "uint32" && r.Upper == 0xFFFFFFFF) {
		conds = append(conds, fmt.Sprintf("int64(%s) > %d", value, r.Upper))
	}
	if len(conds) > 0 {
		fmt.Fprintf(w, "if %s {\nerr = rangeError(int64(%s), %d, %d)\n} else ", strings.Join(conds, " || "), value, r.Lower, r.Upper)
	}
}

// Enumeration validity checks are emitted once per distinct value set
// (Family.enumChecks).

func enumFuncName(r *Type) string {
	vals := make([]string, 0, len(r.Named))
	for _, nn := range r.Named {
		vals = append(vals, strconv.FormatInt(nn.Value, 10))
	}
	sort.Strings(vals)
	return "Enum" + strings.Join(vals, "_")
}

func (g *berGen) needEnum(r *Type) {
	name := enumFuncName(r)
	if _, ok := g.f.enumChecks[name]; ok {
		return
	}
	var vals []int64
	for _, nn := range r.Named {
		vals = append(vals, nn.Value)
	}
	g.f.enumChecks[name] = vals
}

// EmitEnumChecks writes the validity functions collected while emitting.
func (f *Family) EmitEnumChecks(pkg string) ([]byte, error) {
	var w bytes.Buffer
	w.WriteString(Header)
	fmt.Fprintf(&w, "package %s\n\n", pkg)
	var names []string
	for n := range f.enumChecks {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var vals []string
		for _, v := range f.enumChecks[n] {
			vals = append(vals, strconv.FormatInt(v, 10))
		}
		fmt.Fprintf(&w, "func valid%s(v int64) bool {\nswitch v {\ncase %s:\nreturn true\n}\nreturn false\n}\n\n", n, strings.Join(vals, ", "))
	}
	return format.Source(w.Bytes())
}

// decTags returns the tags of component c of t, the first of which tells
// a decoder that c comes next: an untagged CHOICE (where) has none.
func decTags(v *Version, t *GoType, c *Component, where string) ([]TagSpec, error) {
	tags, err := v.Tags(c.Type)
	if err == nil && len(tags) == 0 {
		err = fmt.Errorf("%s.%s: an untagged CHOICE %s is not supported", t.Name, c.Name, where)
	}
	return tags, err
}

func (g *berGen) decFunc(tf typeFunc) error {
	t, v, def, w := tf.t, tf.v, tf.def, &g.w
	if t.Kind == KindChoice {
		w.WriteString("switch h.tag {\n")
		for _, c := range def.Components {
			fl := fieldOf(t, c.Name)
			tags, err := decTags(v, t, c, "inside a CHOICE")
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "case %#x: // %s\nm.Kind = model.%s_%s\n", tags[0].Key(), tags[0], t.Name, fl.GoName)
			target := "m." + fl.GoName
			switch {
			case fl.GoType == "struct{}":
				target = ""
			case fl.Rep == RepPointer:
				g.one(target, fl.GoType)
				target = "(*" + target + ")"
			}
			if err := g.dec(v, c.Type, target, tags, "(*h)", fmt.Sprintf("codecerr.At(%%s, %q)", c.Name)); err != nil {
				return err
			}
		}
		what := "alternative"
		if def.Extensible {
			what = "extension alternative"
		}
		// Every error returns where it happens: err is dead after the
		// switch, and the compiler need not keep it.
		fmt.Fprintf(w, "default:\nreturn d.unknownAlternative(*h, %q, %q)\n}\nreturn nil\n}\n\n", what, t.Name)
		return g.fastFunc(tf)
	}
	if len(def.Components) > 64 {
		return fmt.Errorf("%s has more than 64 components", t.Name)
	}
	w.WriteString("if err = d.enter(h); err != nil {\nreturn err\n}\n")
	if len(def.Components) > 0 {
		w.WriteString("var seen uint64\n")
	}
	w.WriteString("var e header\nb, end := d.window(h), h.end\noff := h.start\n")
	g.winOf["e"] = "b"
	defer delete(g.winOf, "e")
	// The components in order, each in the form the encoder writes
	// (identifier octet as expected, short length): read here without
	// the loop's header parsing, dispatch and order checks. The first
	// that is not there (absent, unusual or out of order) leaves the rest
	// to the loop, which sees what was read in seen.
	for i, c := range def.Components {
		tags, err := decTags(v, t, c, "component")
		if err != nil {
			return err
		}
		if tags[0].Number >= 31 {
			continue
		}
		id := tags[0].Bytes()[0]
		lean, err := g.isLean(v, t, c, tags)
		if err != nil {
			return err
		}
		if !lean && tags[0].Constructed && !c.Optional && c.Default == "" {
			// A mandatory element of others (a message's body, a
			// transaction's actions) is often longer than 127 octets:
			// its length is then one octet after 0x81 (expectLong).
			fmt.Fprintf(w, "{\ns, en := off+2, expect(b, off, %#[1]x)\nif en == 0 {\ns, en = expectLong(b, off, %#[1]x)\n}\nif en != 0 { // %s %s\n", id, tags[0], c.Name)
			if err := g.firstComponent(v, t, c, i, tags, "s"); err != nil {
				return err
			}
			w.WriteString("off = en\n}\n}\n")
			continue
		}
		fmt.Fprintf(w, "if en := expect(b, off, %#x); en != 0 { // %s %s\n", id, tags[0], c.Name)
		if lean {
			if _, err := g.leanComponent(v, t, c, i, tags); err != nil {
				return err
			}
		} else if err := g.firstComponent(v, t, c, i, tags, "off+2"); err != nil {
			return err
		}
		w.WriteString("off = en\n}\n")
	}
	w.WriteString("for off < end {\n")
	g.next("e", "off", "h", "b", "return err")
	if len(def.Components) > 0 {
		w.WriteString("switch e.tag {\n")
	} else {
		w.WriteString("switch {\n")
	}
	var mandatory uint64
	for i, c := range def.Components {
		tags, err := decTags(v, t, c, "component")
		if err != nil {
			return err
		}
		if !c.Optional && c.Default == "" {
			mandatory |= 1 << i
		}
		fmt.Fprintf(w, "case %#x: // %s %s\n", tags[0].Key(), tags[0], c.Name)
		if def.Kind == KindSequence {
			// In a SEQUENCE each component comes after the ones before it.
			fmt.Fprintf(w, "if seen>>%d != 0 {\nreturn d.errorf(e.off, \"%s: duplicate or out of order\")\n}\n", i, c.Name)
		} else {
			fmt.Fprintf(w, "if seen&(1<<%d) != 0 {\nreturn d.errorf(e.off, \"%s: duplicate\")\n}\n", i, c.Name)
		}
		if err := g.component(v, t, c, i, tags); err != nil {
			return err
		}
	}
	w.WriteString("default:\n")
	if def.Extensible || v.Module.ExtImplied {
		w.WriteString("// An extension this version does not know: skipped.\n")
	} else {
		fmt.Fprintf(w, "return d.unexpected(e, %q)\n", "a component of "+t.Name)
	}
	w.WriteString("}\noff = e.next\n}\n")
	if mandatory != 0 {
		fmt.Fprintf(w, "if seen&%#x != %#x {\n", mandatory, mandatory)
		for i, c := range def.Components {
			if mandatory&(1<<i) != 0 {
				fmt.Fprintf(w, "if seen&(1<<%d) == 0 {\nreturn d.missing(h, %q)\n}\n", i, c.Name)
			}
		}
		w.WriteString("}\n")
	}
	// Every error returns where it happens: returning nil rather than
	// err keeps err dead across the loop, out of the spilled registers.
	w.WriteString("d.leave()\nreturn nil\n}\n\n")
	return g.fastFunc(tf)
}

// firstComponent emits, for the first part of a SEQUENCE's decoder, the
// decoding of component c (the i-th of t), found by expect at off with
// contents from s up to en: by its type's fast decoder when it has one
// (fastFirst), else from header e.
func (g *berGen) firstComponent(v *Version, t *GoType, c *Component, i int, tags []TagSpec, s string) error {
	if ok, err := g.fastFirst(v, t, c, i, tags, s); ok || err != nil {
		return err
	}
	g.expectedAt("e", &tags[0], "off", s, "en")
	return g.component(v, t, c, i, tags)
}

// component emits the decoding of component c (the i-th) of t from
// header variable e, whose first tag (tags[0]) the caller matched.
func (g *berGen) component(v *Version, t *GoType, c *Component, i int, tags []TagSpec) error {
	target := g.componentTarget(t, c, i)
	return g.dec(v, c.Type, target, tags, "e", fmt.Sprintf("codecerr.At(%%s, %q)", c.Name))
}

// componentTarget emits the marking of component c (the i-th) of t as
// seen and the making of its field, and returns the Go expression it
// is decoded into ("" for a NULL flag).
func (g *berGen) componentTarget(t *GoType, c *Component, i int) string {
	w := &g.w
	fl := fieldOf(t, c.Name)
	fmt.Fprintf(w, "seen |= 1 << %d\n", i)
	target := "m." + fl.GoName
	switch fl.Rep {
	case RepPointer:
		g.one(target, fl.GoType)
		target = "(*" + target + ")"
	case RepOpt:
		fmt.Fprintf(w, "%s.Present = true\n", target)
		target += ".Value"
	case RepFlag:
		fmt.Fprintf(w, "%s = true\n", target)
		target = ""
	}
	return target
}

// leanComponent emits, for the fast part of a SEQUENCE's decoder, the
// decoding of component c (the i-th) of t, found in the form the
// encoder writes at off with contents up to en, when it is a primitive
// the generated code reads itself (OCTET STRING, INTEGER, NULL, an
// IA5String of any character under one tag): from off and en, without
// filling header e but where the value needs the general code. It
// reports false (and emits nothing) for any other component.
func (g *berGen) leanComponent(v *Version, t *GoType, c *Component, i int, tags []TagSpec) (bool, error) {
	if lean, err := g.isLean(v, t, c, tags); !lean || err != nil {
		return false, err
	}
	r, _ := v.Resolve(c.Type)
	w := &g.w
	target := g.componentTarget(t, c, i)
	ret := fmt.Sprintf("codecerr.At(%%s, %q)", c.Name)
	switch r.Kind {
	case KindNull:
		fmt.Fprintf(w, "if en != off+2 {\nreturn %s\n}\n", fmt.Sprintf(ret, `d.errorf(off, "NULL with %d octets of contents", en-off-2)`))
	case KindOctetString:
		// b is the input up to the end of the SEQUENCE: expect checked
		// that the component ends inside it.
		fmt.Fprintf(w, "%s = b[off+2 : en : en]\n", target)
		g.decSize(r.Size, "len("+target+")", "off+2", "octets", ret)
	case KindIA5String:
		x := g.tmp("x")
		fmt.Fprintf(w, "%s, ok := ia5At(b, off+2, en)\nif !ok {\n", x)
		g.expected("e", &tags[0], "off", "en")
		fmt.Fprintf(w, "var err error\nif %s, err = d.str(&e, %q); err != nil {\nreturn %s\n}\n}\n%s = %s\n", x, "ia5", fmt.Sprintf(ret, "err"), target, x)
		g.decSize(r.Size, "len("+target+")", "off+2", "characters", ret)
	case KindInteger:
		goT, lo, hi := g.intRange(v, r)
		x := g.tmp("x")
		fmt.Fprintf(w, "%s, ok := intAt(b, off+2, en)\nif %s {\n", x, intFails(x, lo, hi))
		g.expected("e", &tags[0], "off", "en")
		fmt.Fprintf(w, "var err error\nif %s, err = d.integer(&e, %s, %s); err != nil {\nreturn %s\n}\n}\n%s = %s(%s)\n", x, lo, hi, fmt.Sprintf(ret, "err"), target, goT, x)
	}
	return true, nil
}

// isLean reports whether leanComponent reads component c of t, of tags.
func (g *berGen) isLean(v *Version, t *GoType, c *Component, tags []TagSpec) (bool, error) {
	r, err := v.Resolve(c.Type)
	if err != nil || len(tags) != 1 {
		return false, err
	}
	fl := fieldOf(t, c.Name)
	switch {
	case r.Kind == KindNull && fl.Rep == RepFlag:
	case (r.Kind == KindOctetString || r.Kind == KindInteger) && fl.Rep != RepFlag:
	case r.Kind == KindIA5String && r.Alphabet == "" && fl.Rep != RepFlag:
	default:
		return false, nil
	}
	return true, nil
}

// dec emits code that decodes the element described by header variable
// hv (whose first tag the caller matched) into target (of ASN.1 type t),
// leaving any error in err. An empty target discards a NULL.
func (g *berGen) dec(v *Version, t *Type, target string, tags []TagSpec, hv, ret string) error {
	w := &g.w
	fail := "return " + fmt.Sprintf(ret, "err")
	r, err := v.Resolve(t)
	if err != nil {
		return err
	}
	// Unwrap explicit tags: each wrapper holds exactly one element.
	nw := len(tags) - 1
	if r.Kind == KindChoice {
		nw = len(tags)
		fast, err := g.fastChoiceCall(v, r, hv, target, nw)
		if err != nil {
			return err
		}
		if fast {
			defer g.w.WriteString("}\n") // closes the full decoding
		}
	}
	for i := 0; i < nw; i++ {
		inner := g.tmp("h")
		var want *TagSpec
		if i+1 < len(tags) {
			want = &tags[i+1]
		}
		g.explicit(inner, hv, want, fail)
		hv = inner
	}
	name := g.f.named[r]
	switch r.Kind {
	case KindInteger:
		goT, lo, hi := g.intRange(v, r)
		x := g.tmp("x")
		g.integer(x, hv, lo, hi, fail)
		fmt.Fprintf(w, "%s = %s(%s)\n", target, goT, x)
	case KindEnumerated:
		x := g.tmp("x")
		g.integer(x, hv, "minInt", "maxInt", fail)
		if !r.Extensible {
			g.needEnum(r)
			fmt.Fprintf(w, "if !valid%s(%s) {\nreturn %s\n}\n", enumFuncName(r), x, fmt.Sprintf(ret, fmt.Sprintf("d.errorf(%s.start, \"%%d is not a value of %s\", %s)", hv, name, x)))
		} else {
			fmt.Fprintf(w, "if %s < -1<<31 || %s >= 1<<31 {\nreturn %s\n}\n", x, x, fmt.Sprintf(ret, fmt.Sprintf("d.errorf(%s.start, \"enumeration value %%d out of range\", %s)", hv, x)))
		}
		fmt.Fprintf(w, "%s = model.%s(%s)\n", target, name, x)
	case KindBoolean:
		fmt.Fprintf(w, "if %s, err = d.boolean(%s); err != nil {\n%s\n}\n", target, hv, fail)
	case KindNull:
		fmt.Fprintf(w, "if err = d.null(%s); err != nil {\n%s\n}\n", hv, fail)
	case KindOctetString:
		// A primitive one (every encoder's) is a sub-slice, taken inline.
		fmt.Fprintf(w, "if !%[2]s.cons {\n%[1]s = d.data[%[2]s.start:%[2]s.end:%[2]s.end]\n} else if %[1]s, err = d.octets(%[2]s); err != nil {\n%[3]s\n}\n", target, hv, fail)
		g.decSize(r.Size, "len("+target+")", hv+".start", "octets", ret)
	case KindIA5String, KindVisibleString, KindPrintableString, KindUTF8String:
		alpha := r.Alphabet
		if alpha == "" && r.Kind == KindIA5String {
			alpha = "ia5"
		}
		fmt.Fprintf(w, "if %s, err = d.str(%s, %q); err != nil {\n%s\n}\n", target, addr(hv), alpha, fail)
		g.decSize(r.Size, "len("+target+")", hv+".start", "characters", ret)
	case KindBitString:
		fmt.Fprintf(w, "if %s, err = d.bits(%s); err != nil {\n%s\n}\n", target, hv, fail)
		g.decSize(r.Size, target+".Len", hv+".start", "bits", ret)
	case KindObjectIdentifier:
		fmt.Fprintf(w, "if %s, err = d.oid(%s); err != nil {\n%s\n}\n", target, hv, fail)
	case KindSequence, KindSet, KindChoice:
		return g.fastCall(v, r, hv, target, fail)
	case KindSequenceOf, KindSetOf:
		er, egoT, etags, err := g.listElem(v, r)
		if err != nil {
			return err
		}
		n, i, off, e := g.tmp("n"), g.tmp("i"), g.tmp("off"), g.tmp("e")
		// Most lists have one element: a common header that fills the
		// list says so without reader.count.
		win := g.tmp("b")
		// An empty one (a TerminationID's wildcard list) needs no count
		// either.
		// The element's identifier octet, when it has one of its own
		// (not an untagged CHOICE) and a low tag number: the elements in
		// the form the encoder writes are then read by expect.
		var id int = -1
		if len(etags) > 0 && etags[0].Number < 31 {
			id = int(etags[0].Bytes()[0])
		}
		if id >= 0 {
			// Two elements in the form the encoder writes are counted
			// here too, without reader.count's call.
			x := g.tmp("x")
			fmt.Fprintf(w, "%[1]s := %[8]s\n%[3]s := 1\nif %[4]s.cons && %[4]s.start == %[4]s.end {\n%[3]s = 0\n} else if %[5]s := expect(%[1]s, %[4]s.start, %#[6]x); !(%[4]s.cons && %[5]s == %[4]s.end) {\nif %[4]s.cons && %[5]s != 0 && expect(%[1]s, %[5]s, %#[6]x) == %[4]s.end {\n%[3]s = 2\n} else {\nvar err error\nif %[3]s, err = d.count(%[2]s); err != nil {\n%[7]s\n}\n}\n}\n",
				win, addr(hv), n, hv, x, id, fail, g.window(hv))
		} else {
			one := fmt.Sprintf("%[1]s && %[2]s.start+2+int(%[3]s[%[2]s.start+1]) == %[2]s.end", short(hv+".start", win), hv, win)
			fmt.Fprintf(w, "%[1]s := %[7]s\n%[3]s := 1\nif %[4]s.cons && %[4]s.start == %[4]s.end {\n%[3]s = 0\n} else if !(%[4]s.cons && %[5]s) {\nvar err error\nif %[3]s, err = d.count(%[2]s); err != nil {\n%[6]s\n}\n}\n",
				win, addr(hv), n, hv, one, fail, g.window(hv))
		}
		g.decSize(r.Size, n, hv+".start", "elements", ret)
		g.raw(target, "=", egoT, n)
		// Elements of other types are each assigned in full below: they
		// need no zeroing.
		if er.Kind == KindSequence || er.Kind == KindSet || er.Kind == KindChoice {
			// Most lists have one element: zeroed inline, as in one.
			// Two are too: clear costs a call of the runtime's.
			fmt.Fprintf(w, "if %[1]s == 1 {\n%[2]s[0] = %[3]s{}\n} else if len(%[2]s) == 2 {\n%[2]s[0], %[2]s[1] = %[3]s{}, %[3]s{}\n} else {\nclear(%[2]s)\n}\n", n, target, g.f.qualify(egoT, "model."))
		}
		fmt.Fprintf(w, "var %s header\n", e)
		g.winOf[e] = win
		fmt.Fprintf(w, "for %s, %s := 0, %s.start; %s < %s; %s++ {\n", i, off, hv, i, n, i)
		if id >= 0 && er.Kind == KindOctetString && len(etags) == 1 {
			// A primitive OCTET STRING in the form the encoder writes
			// (a wildcard, a property's value) is taken from the window
			// without filling the element's header.
			en := g.tmp("en")
			elem := target + "[" + i + "]"
			fmt.Fprintf(w, "if %[1]s := expect(%[2]s, %[3]s, %#[4]x); %[1]s != 0 {\n%[5]s = %[2]s[%[3]s+2 : %[1]s : %[1]s]\n", en, win, off, id, elem)
			g.decSize(er.Size, "len("+elem+")", off+"+2", "octets", fmt.Sprintf(ret, "codecerr.AtIndex(%s, "+i+")"))
			fmt.Fprintf(w, "%s = %s\ncontinue\n}\n", off, en)
			id = -1 // the rest as any other element
		}
		fast, err := g.fastElemFirst(v, er, etags, id, win, off, target+"["+i+"]")
		if err != nil {
			return err
		}
		if id >= 0 {
			en := g.tmp("en")
			fmt.Fprintf(w, "if %[1]s := expect(%[2]s, %[3]s, %#[4]x); %[1]s != 0 {\n", en, win, off, id)
			g.expected(e, &etags[0], off, en)
			w.WriteString("} else {\n")
		}
		g.next(e, off, hv, win, fail)
		if er.Kind != KindChoice || len(etags) > 0 {
			fmt.Fprintf(w, "if %s.tag != %#x {\nreturn %s\n}\n", e, etags[0].Key(), fmt.Sprintf(ret, fmt.Sprintf("codecerr.AtIndex(d.unexpected(%s, %q), %s)", e, etags[0].String(), i)))
		}
		if id >= 0 {
			w.WriteString("}\n")
		}
		// Errors inside the element get its index, written into every
		// return of the element's code (a closure per element would cost
		// a call where the compiler does not inline it).
		g.noFast = fast
		if err := g.dec(v, r.Elem, target+"["+i+"]", etags, e, fmt.Sprintf(ret, "codecerr.AtIndex(%s, "+i+")")); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s = %s.next\n}\n", off, e)
	default:
		return fmt.Errorf("BER: %s is not supported", r.Kind)
	}
	return nil
}

// intRange returns the Go type of INTEGER type r and its bounds, as
// Go expressions.
func (g *berGen) intRange(v *Version, r *Type) (goT, lo, hi string) {
	goT, _ = g.f.GoTypeOf(v, r)
	lo, hi = "minInt", "maxInt"
	if r.Value != nil && !r.Value.Extensible {
		if r.Value.HasLower {
			lo = strconv.FormatInt(r.Value.Lower, 10)
		}
		if r.Value.HasUpper {
			hi = strconv.FormatInt(r.Value.Upper, 10)
		}
	}
	return goT, lo, hi
}

// integer emits code that decodes the INTEGER of header variable hv
// within lo..hi into a new variable x: a value of up to four octets in range
// inline, anything else (and every error) through reader.integer.
func (g *berGen) integer(x, hv, lo, hi, fail string) {
	fmt.Fprintf(&g.w, "%[1]s, ok := d.smallInt(%[2]s)\nif %[3]s {\nvar err error\nif %[1]s, err = d.integer(%[2]s, %[4]s, %[5]s); err != nil {\n%[6]s\n}\n}\n", x, addr(hv), intFails(x, lo, hi), lo, hi, fail)
}

// intFails is the condition under which x, read with ok by smallInt or
// intAt, is not an INTEGER within lo..hi there.
func intFails(x, lo, hi string) string {
	cond := "!ok"
	if lo != "minInt" { // a value of four octets is never below minInt, nor above maxInt
		cond += " || " + x + " < " + lo
	}
	if hi != "maxInt" {
		cond += " || " + x + " > " + hi
	}
	return cond
}

// short is the condition under which the header at off, inside window
// win (reader.window), is the common one: low tag number, short-form
// length, inside the window.
func short(off, win string) string {
	return fmt.Sprintf("uint(%[1]s)+1 < uint(len(%[2]s)) && %[2]s[%[1]s+1] < 0x80 && %[2]s[%[1]s]&0x1f != 0x1f && %[1]s+2+int(%[2]s[%[1]s+1]) <= len(%[2]s)", off, win)
}

// long81 is the condition under which the header at off, inside window
// win, has a low tag number and a length of one octet after 0x81 (128
// to 255: less is not minimal); the caller bounds the element's end.
func long81(off, win string) string {
	return fmt.Sprintf("uint(%[1]s)+2 < uint(len(%[2]s)) && %[2]s[%[1]s+1] == 0x81 && %[2]s[%[1]s+2] >= 0x80 && %[2]s[%[1]s]&0x1f != 0x1f", off, win)
}

// fill emits the statements that read the header of hl octets at off
// into header variable e: 2 after short held, 3 after long81 did.
func (g *berGen) fill(e, off, win string, hl int) {
	fmt.Fprintf(&g.w, "t, l := %[3]s[%[2]s], int(%[3]s[%[2]s+%[4]d])\n%[1]s.tag, %[1]s.cons, %[1]s.off, %[1]s.start, %[1]s.end, %[1]s.next = uint32(t>>6)<<30|uint32(t&0x1f), t&0x20 != 0, %[2]s, %[2]s+%[5]d, %[2]s+%[5]d+l, %[2]s+%[5]d+l\n", e, off, win, hl-1, hl)
}

// expected emits the statement that fills header variable e with the
// element at off that expect found with tag's identifier octet, its
// contents from off+2 up to en.
func (g *berGen) expected(e string, tag *TagSpec, off, en string) {
	g.expectedAt(e, tag, off, off+"+2", en)
}

// expectedAt is expected for contents from s.
func (g *berGen) expectedAt(e string, tag *TagSpec, off, s, en string) {
	fmt.Fprintf(&g.w, "%[1]s.tag, %[1]s.cons, %[1]s.off, %[1]s.start, %[1]s.end, %[1]s.next = %#[2]x, %[3]t, %[4]s, %[5]s, %[6]s, %[6]s\n", e, tag.Key(), tag.Constructed, off, s, en)
}

// next emits code that reads the header at off, inside the element of
// header variable hv, into header variable e; win is the element's
// window (reader.window). The common header is read right here:
// through reader.next, which is too large to be inlined, it costs a
// call and a third more instructions. Anything else goes to reader.next,
// as does every header when win is nil.
func (g *berGen) next(e, off, hv, win, fail string) {
	fmt.Fprintf(&g.w, "if %s {\n", short(off, win))
	g.fill(e, off, win, 2)
	// A length of one octet after 0x81 (less is not minimal and goes to
	// reader.next, which notes it): elements that hold a few others.
	fmt.Fprintf(&g.w, "} else if %[1]s && %[2]s+3+int(%[3]s[%[2]s+2]) <= len(%[3]s) {\n", long81(off, win), off, win)
	g.fill(e, off, win, 3)
	fmt.Fprintf(&g.w, "} else if err := d.next(&%s, %s, %s.end); err != nil {\n%s\n}\n", e, off, hv, fail)
}

// explicit emits code that reads the one element inside the explicit
// tag of header variable hv into a new header variable inner: a common
// header that fills the tag exactly (with tag want, unless nil: a
// CHOICE) right here, anything else (and every error) through
// reader.explicit.
func (g *berGen) explicit(inner, hv string, want *TagSpec, fail string) {
	win := g.tmp("b")
	fmt.Fprintf(&g.w, "var %s header\n", inner)
	if want != nil && want.Number < 31 {
		en := g.tmp("en")
		fmt.Fprintf(&g.w, "if %[1]s := %[2]s; %[3]s.cons && expect(%[1]s, %[3]s.start, %#[4]x) == %[3]s.end {\n", win, g.window(hv), hv, want.Bytes()[0])
		fmt.Fprintf(&g.w, "%s := %s.end\n", en, hv)
		g.expected(inner, want, hv+".start", en)
		fmt.Fprintf(&g.w, "} else if err := d.explicit(&%s, %s, %#x); err != nil {\n%s\n}\n", inner, addr(hv), want.Key(), fail)
		return
	}
	wantTag := "anyTag"
	if want != nil {
		wantTag = fmt.Sprintf("%#x", want.Key())
	}
	cond := fmt.Sprintf("%[1]s.cons && %[2]s && %[1]s.start+2+int(%[3]s[%[1]s.start+1]) == %[1]s.end", hv, short(hv+".start", win), win)
	if want != nil {
		cond += fmt.Sprintf(" && uint32(%[2]s[%[1]s.start]>>6)<<30|uint32(%[2]s[%[1]s.start]&0x1f) == %[3]s", hv, win, wantTag)
	}
	fmt.Fprintf(&g.w, "%s := %s\nif %s {\n", win, g.window(hv), cond)
	g.winOf[inner] = win
	g.fill(inner, hv+".start", win, 2)
	if want == nil {
		// A CHOICE of a few elements (a message's transactions) often
		// has a length of one octet after 0x81.
		st := hv + ".start"
		fmt.Fprintf(&g.w, "} else if %[1]s.cons && %[2]s && %[3]s+3+int(%[4]s[%[3]s+2]) == %[1]s.end {\n", hv, long81(st, win), st, win)
		g.fill(inner, st, win, 3)
	}
	fmt.Fprintf(&g.w, "} else if err := d.explicit(&%s, %s, %s); err != nil {\n%s\n}\n", inner, addr(hv), wantTag, fail)
}

// qualify prefixes the named types in a Go type expression with pkg.
func (f *Family) qualify(goT, pkg string) string {
	base := strings.TrimLeft(goT, "[]")
	prefix := goT[:len(goT)-len(base)]
	if f.byName[base] != nil || base == "BitString" || base == "ObjectIdentifier" || base == "Octets" {
		return prefix + pkg + base
	}
	return goT
}

func (g *berGen) decSize(r *Range, n, at, what, ret string) {
	if cond := sizeCond(r, n); cond != "" {
		fmt.Fprintf(&g.w, "if %s {\nreturn %s\n}\n", cond, fmt.Sprintf(ret, fmt.Sprintf("d.errorf(%s, \"%%d %s, want %d..%d\", %s)", at, what, r.Lower, r.Upper, n)))
	}
}
