package asn1gen

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"
)

// walkTarget is one kind of field the generated walker hands to its
// visitor instead of descending into it. A field is a target when its
// ASN.1 type refers, directly or through a chain of type references, to
// one of Types (the first match along the chain wins, so DigitMapName is
// not reported as the Name it is defined as), or when it is one of Fields.
// SEQUENCE OF such a type is walked element by element.
type walkTarget struct {
	Name   string   // WalkTarget constant suffix and Visit method suffix
	Types  []string // ASN.1 type names
	Fields []string // "Type.field" for inline types that have no name of their own
	// Frame: the field names the item that holds it (an event, a signal, a
	// property, a parameter...). The walker visits it before the item's
	// other fields and keeps it in Walker.Items while it walks them, so
	// that a parameter can find its event and a value its name.
	Frame bool
	Doc   string
}

// walkTargets are the fields whose content differs between the text and
// the binary form of the model (docs/text-binary-mapping.md, sections 1-5).
var walkTargets = []walkTarget{
	{Name: "TerminationID", Types: []string{"TerminationID"},
		Doc: "a TerminationID (each element of a TerminationIDList)"},
	{Name: "PkgdName", Types: []string{"PkgdName"}, Frame: true,
		Doc: "a PkgdName: the name of a property, event, signal or statistic (also through EventName and SignalName)"},
	{Name: "Name", Types: []string{"Name"}, Frame: true,
		Doc: "a 2-octet Name: a parameter name or a package name"},
	{Name: "DigitMapName", Types: []string{"DigitMapName"},
		Doc: "a DigitMapName"},
	{Name: "Value", Types: []string{"Value"}, Fields: []string{"PropertyParm.value"},
		Doc: "a Value (SEQUENCE OF OCTET STRING) of a property, parameter or statistic, or the ServiceChange reason"},
	{Name: "PropertyGroups", Fields: []string{"LocalRemoteDescriptor.propGrps"},
		Doc: "the property groups of a Local or Remote descriptor (walked as a whole, not descended into)"},
	{Name: "MtpAddress", Fields: []string{"MId.mtpAddress", "ServiceChangeAddress.mtpAddress"},
		Doc: "an MTP address (OCTET STRING(SIZE(2..4)))"},
}

type walkSiteKey struct {
	target      int
	typ         string
	parent, fld string
	list        bool
}

type walkGen struct {
	f      *Family
	needs  map[string]bool // Go type -> has a target somewhere inside
	sites  []walkSiteKey
	siteIx map[walkSiteKey]int
	goType map[int]string // target -> Go type of the visited value
	loops  int            // loop variables used so far in the current field
}

// targetOf reports which target (index into walkTargets, -1 for none) the
// type expression t of field parent.fld is, and the name of the ASN.1 type
// that made it one.
func (g *walkGen) targetOf(v *Version, t *Type, parent, fld string) (int, string) {
	if fld != "" {
		key := parent + "." + fld
		for i, wt := range walkTargets {
			for _, f := range wt.Fields {
				if f == key {
					return i, inlineName(t)
				}
			}
		}
	}
	declared := ""
	for seen := 0; t != nil && t.Kind == KindRef && seen < 100; seen++ {
		if declared == "" {
			declared = t.Ref
		}
		for i, wt := range walkTargets {
			for _, n := range wt.Types {
				if n == t.Ref {
					return i, declared
				}
			}
		}
		a := v.Module.Lookup(t.Ref)
		if a == nil {
			return -1, ""
		}
		t = a.Type
	}
	return -1, ""
}

// inlineName names an inline type for WalkSite.Type, e.g. "SEQUENCE OF
// OCTET STRING".
func inlineName(t *Type) string {
	switch {
	case t.Kind == KindRef:
		return t.Ref
	case t.Elem != nil:
		return t.Kind.String() + " " + inlineName(t.Elem)
	}
	return t.Kind.String()
}

// has reports whether a value of ASN.1 type t (Go type goT) contains a
// target, with the current knowledge of which Go types do.
func (g *walkGen) has(v *Version, t *Type, goT, parent, fld string) (bool, error) {
	if i, _ := g.targetOf(v, t, parent, fld); i >= 0 {
		return true, nil
	}
	r, err := v.Resolve(t)
	if err != nil {
		return false, err
	}
	if r.Kind == KindSequenceOf || r.Kind == KindSetOf {
		return g.has(v, r.Elem, strings.TrimPrefix(goT, "[]"), parent, "")
	}
	return g.needs[goT], nil
}

// computeNeeds finds, by fixpoint, every Go type that holds a target.
func (g *walkGen) computeNeeds() error {
	for changed := true; changed; {
		changed = false
		for _, gt := range g.f.Types {
			if gt.Kind == KindEnumerated || g.needs[gt.Name] {
				continue
			}
			for _, fl := range gt.Fields {
				for _, n := range sortedVersions(fl.In) {
					ok, err := g.has(g.f.version(n), fl.In[n].Type, fl.GoType, gt.Name, fl.Name)
					if err != nil {
						return err
					}
					if ok {
						g.needs[gt.Name] = true
						changed = true
					}
				}
			}
		}
	}
	return nil
}

func (g *walkGen) site(k walkSiteKey) int {
	if i, ok := g.siteIx[k]; ok {
		return i
	}
	g.siteIx[k] = len(g.sites)
	g.sites = append(g.sites, k)
	return len(g.sites) - 1
}

// walkAddr turns an addressable expression into a pointer expression.
func walkAddr(expr string) string {
	if strings.HasPrefix(expr, "(*") && strings.HasSuffix(expr, ")") {
		return expr[2 : len(expr)-1]
	}
	return "&" + expr
}

// code returns the statements that walk the value expr (addressable, of
// ASN.1 type t and Go type goT) of field parent.fld, or "" when nothing in
// it is visited.
func (g *walkGen) code(v *Version, t *Type, goT, expr, parent, fld string, list bool) (string, error) {
	if i, typ := g.targetOf(v, t, parent, fld); i >= 0 {
		if want, ok := g.goType[i]; ok && want != goT {
			return "", fmt.Errorf("walk: %s.%s is a %s held as %s, elsewhere as %s", parent, fld, walkTargets[i].Name, goT, want)
		}
		g.goType[i] = goT
		s := g.site(walkSiteKey{target: i, typ: typ, parent: parent, fld: fld, list: list})
		return fmt.Sprintf("w.site = &WalkSites[%d]\nif err := w.V.Visit%s(w, %s); err != nil {\nreturn err\n}\n", s, walkTargets[i].Name, walkAddr(expr)), nil
	}
	r, err := v.Resolve(t)
	if err != nil {
		return "", err
	}
	if r.Kind == KindSequenceOf || r.Kind == KindSetOf {
		iv := fmt.Sprintf("i%d", g.loops)
		g.loops++
		inner, err := g.code(v, r.Elem, strings.TrimPrefix(goT, "[]"), expr+"["+iv+"]", parent, fld, true)
		if err != nil || inner == "" {
			return "", err
		}
		return fmt.Sprintf("for %s := range %s {\nw.pushIndex(%s)\n%sw.pop()\n}\n", iv, expr, iv, inner), nil
	}
	if g.needs[goT] {
		return fmt.Sprintf("if err := w.walk%s(%s); err != nil {\nreturn err\n}\n", goT, walkAddr(expr)), nil
	}
	return "", nil
}

// fieldCode renders the walk of one field, the same in every version
// that has it (an error otherwise).
func (g *walkGen) fieldCode(gt *GoType, fl *Field, expr string) (string, error) {
	var out string
	for k, n := range sortedVersions(fl.In) {
		g.loops = 0 // loop variables i0, i1... per field
		c, err := g.code(g.f.version(n), fl.In[n].Type, fl.GoType, expr, gt.Name, fl.Name, false)
		if err != nil {
			return "", fmt.Errorf("%s.%s: %w", gt.Name, fl.Name, err)
		}
		if k > 0 && c != out {
			return "", fmt.Errorf("walk: %s.%s is walked differently in v%d", gt.Name, fl.Name, n)
		}
		out = c
	}
	return out, nil
}

// EmitWalk writes the schema-dependent half of the walker over the union
// model (walk_gen.go in package model; Walker itself is in walk.go): the
// walk functions of every type that holds a field of the walkTargets
// kinds, the sites they visit, and the visitor interface, so that code
// working on names, IDs and values needs no list of model types.
func (f *Family) EmitWalk(pkg string) ([]byte, error) {
	g := &walkGen{f: f, needs: map[string]bool{}, siteIx: map[walkSiteKey]int{}, goType: map[int]string{}}
	if err := g.computeNeeds(); err != nil {
		return nil, err
	}
	if !g.needs["MegacoMessage"] {
		return nil, fmt.Errorf("walk: MegacoMessage holds none of the walk targets")
	}
	// The walk functions first: they find the sites and the Go type of
	// each target, which the declarations list.
	var funcs bytes.Buffer
	for _, gt := range f.Types {
		if g.needs[gt.Name] {
			if err := g.walkFunc(&funcs, gt); err != nil {
				return nil, err
			}
		}
	}
	var w bytes.Buffer
	w.WriteString(Header)
	fmt.Fprintf(&w, "package %s\n\nimport \"strconv\"\n\n", pkg)
	g.writeTargets(&w)
	g.writeSites(&w)
	if err := g.writeVisitor(&w); err != nil {
		return nil, err
	}
	w.Write(funcs.Bytes())
	out, err := format.Source(w.Bytes())
	if err != nil {
		return w.Bytes(), fmt.Errorf("generated walker does not parse: %w", err)
	}
	return out, nil
}

// walkFunc writes walk<T>, the walk of a value of type gt.
func (g *walkGen) walkFunc(w *bytes.Buffer, gt *GoType) error {
	fmt.Fprintf(w, "func (w *Walker) walk%s(x *%s) error {\n", gt.Name, gt.Name)
	var err error
	if gt.Kind == KindChoice {
		err = g.walkChoice(w, gt)
	} else {
		err = g.walkSequence(w, gt)
	}
	w.WriteString("return nil\n}\n\n")
	return err
}

// walkChoice writes the walk of the chosen alternative of CHOICE gt.
func (g *walkGen) walkChoice(w *bytes.Buffer, gt *GoType) error {
	w.WriteString("switch x.Kind {\n")
	for _, fl := range gt.Fields {
		if fl.GoType == "struct{}" {
			continue
		}
		c, err := g.walkField(gt, fl)
		if err != nil {
			return err
		}
		if c == "" {
			continue
		}
		if fl.Rep == RepPointer {
			c = fmt.Sprintf("if x.%s != nil {\n%s}\n", fl.GoName, c)
		}
		fmt.Fprintf(w, "case %s_%s:\nw.push(%q)\n%sw.pop()\n", gt.Name, fl.GoName, fl.Name, c)
	}
	w.WriteString("}\n")
	return nil
}

// walkSequence writes the walk of the fields of SEQUENCE gt. The field
// that names the item comes first and stays on the item stack while the
// others are walked.
func (g *walkGen) walkSequence(w *bytes.Buffer, gt *GoType) error {
	frame, fields := g.frameFirst(gt)
	entered := false
	for _, fl := range fields {
		c, err := g.walkField(gt, fl)
		if err != nil {
			return err
		}
		if c == "" {
			continue
		}
		c = fmt.Sprintf("w.push(%q)\n%sw.pop()\n", fl.Name, c)
		// An absent OPTIONAL field is not visited (a loop over a nil
		// slice needs no test).
		if fl.Rep == RepPointer || fl.Rep == RepNil && !strings.HasPrefix(c, "w.push(\""+fl.Name+"\")\nfor ") {
			c = fmt.Sprintf("if x.%s != nil {\n%s}\n", fl.GoName, c)
		}
		w.WriteString(c)
		if fl == frame {
			fmt.Fprintf(w, "w.enterItem(&x.%s)\n", fl.GoName)
			entered = true
		}
	}
	if entered {
		w.WriteString("w.leaveItem()\n")
	}
	return nil
}

// frameFirst returns the field of gt that names its item (nil if none)
// and gt's fields in walk order: that field first.
func (g *walkGen) frameFirst(gt *GoType) (*Field, []*Field) {
	for i, fl := range gt.Fields {
		if fl.Rep == RepValue && g.isFrame(gt, fl) {
			fields := append([]*Field{fl}, gt.Fields[:i]...)
			return fl, append(fields, gt.Fields[i+1:]...)
		}
	}
	return nil, gt.Fields
}

// walkField is the walk of field fl of gt, "" when nothing in it is
// visited; a pointer field is walked through (the caller tests nil).
func (g *walkGen) walkField(gt *GoType, fl *Field) (string, error) {
	expr := "x." + fl.GoName
	if fl.Rep == RepPointer {
		expr = "(*x." + fl.GoName + ")"
	}
	return g.fieldCode(gt, fl, expr)
}

// writeTargets writes the WalkTarget constants and their names.
func (g *walkGen) writeTargets(w *bytes.Buffer) {
	w.WriteString("const (\n")
	for i, wt := range walkTargets {
		fmt.Fprintf(w, "// Walk%s: %s.\nWalk%s WalkTarget = %d\n", wt.Name, wt.Doc, wt.Name, i+1)
	}
	w.WriteString(")\n\n// String returns the target's name.\nfunc (t WalkTarget) String() string {\nswitch t {\n")
	for _, wt := range walkTargets {
		fmt.Fprintf(w, "case Walk%s:\nreturn %q\n", wt.Name, wt.Name)
	}
	w.WriteString("}\nreturn \"WalkTarget(\" + strconv.Itoa(int(t)) + \")\"\n}\n\n")
}

// writeSites writes WalkSites, the sites the walk functions visit.
func (g *walkGen) writeSites(w *bytes.Buffer) {
	w.WriteString("// WalkSites lists every site, in the order the generator met them.\nvar WalkSites = [...]WalkSite{\n")
	for i, s := range g.sites {
		list := ""
		if s.list {
			list = ", List: true"
		}
		fmt.Fprintf(w, "{Target: Walk%s, Type: %q, Parent: %q, Field: %q%s, Index: %d},\n", walkTargets[s.target].Name, s.typ, s.parent, s.fld, list, i)
	}
	w.WriteString("}\n\n")
}

// writeVisitor writes WalkVisitor, one method per target with the Go type
// its fields have, and NopVisitor.
func (g *walkGen) writeVisitor(w *bytes.Buffer) error {
	if len(g.goType) != len(walkTargets) {
		return fmt.Errorf("walk: a target matches no field of the schema")
	}
	w.WriteString("// WalkVisitor receives the fields the Walker visits. The Walker's Site,\n// Path and Items describe the field being visited. A non-nil error stops\n// the walk and is returned by Walk.\ntype WalkVisitor interface {\n")
	for i, wt := range walkTargets {
		fmt.Fprintf(w, "// Visit%s visits %s.\nVisit%s(w *Walker, x *%s) error\n", wt.Name, wt.Doc, wt.Name, g.goType[i])
	}
	w.WriteString("}\n\n// NopVisitor visits nothing; embed it to implement part of WalkVisitor.\ntype NopVisitor struct{}\n\n")
	for i, wt := range walkTargets {
		fmt.Fprintf(w, "// Visit%s does nothing.\nfunc (NopVisitor) Visit%s(*Walker, *%s) error { return nil }\n\n", wt.Name, wt.Name, g.goType[i])
	}
	return nil
}

// isFrame reports whether fl is, in every version that has it, a target
// that names the item gt.
func (g *walkGen) isFrame(gt *GoType, fl *Field) bool {
	for _, n := range sortedVersions(fl.In) {
		i, _ := g.targetOf(g.f.version(n), fl.In[n].Type, gt.Name, fl.Name)
		if i < 0 || !walkTargets[i].Frame {
			return false
		}
	}
	return true
}
