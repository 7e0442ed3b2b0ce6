package asn1gen

import (
	"fmt"
	"sort"
	"strings"
)

// emitConv writes ToProto/FromProto and their per-type helpers. The
// conversion cannot fail: anything the proto side leaves out becomes the
// model's zero value, which the encoders then check against the schema.
func (g *protoGen) emitConv(pkg, pbImport string) error {
	w := &g.conv
	w.WriteString(Header)
	fmt.Fprintf(w, "package %s\n\nimport (\npb %q\n\"megaco/internal/model\"\n)\n\n", pkg, pbImport)
	w.WriteString("// ToProto converts a message of the model into its API mirror.\nfunc ToProto(m *model.MegacoMessage) *pb.MegacoMessage { return toMegacoMessage(m) }\n\n")
	w.WriteString("// FromProto converts an API message into the model.\nfunc FromProto(p *pb.MegacoMessage) *model.MegacoMessage {\nm := new(model.MegacoMessage)\nfromMegacoMessage(p, m)\nreturn m\n}\n\n")
	lists := map[string]bool{}
	for _, t := range g.f.Types {
		if t.Kind == KindEnumerated {
			continue
		}
		g.convType(t, lists)
	}
	eachListType(lists, g.convList)
	return nil
}

// eachListType calls emit once for each list type in lists and for the
// lists inside them ("[][]T" brings "[]T"), in a fixed order.
func eachListType(lists map[string]bool, emit func(goT string)) {
	var ls []string
	for l := range lists {
		ls = append(ls, l)
	}
	sort.Strings(ls)
	done := map[string]bool{}
	for len(ls) > 0 {
		l := ls[0]
		ls = ls[1:]
		if done[l] {
			continue
		}
		done[l] = true
		if inner := l[2:]; strings.HasPrefix(inner, "[]") {
			ls = append(ls, inner)
		}
		emit(l)
	}
}

func (g *protoGen) modelType(goT string) string {
	return g.f.qualify(goT, "model.")
}

// pbGoType is the Go type protoc-gen-go uses for one value of proto type
// item.
func (g *protoGen) pbGoType(item string) string {
	switch item {
	case "uint32", "int64", "bool", "string":
		return item
	case "bytes":
		return "[]byte"
	}
	if t := g.f.byName[item]; t != nil && t.Kind == KindEnumerated {
		return "pb." + item
	}
	return "*pb." + item
}

func listFuncName(goT string) string {
	n := strings.ReplaceAll(goT, "[]", "List")
	return n
}

// toExpr converts model value x (addressable, of Go type goT, not a list)
// into a proto value.
func (g *protoGen) toExpr(goT, x string) string {
	switch {
	case goT == "Octets":
		return "[]byte(" + x + ")"
	case goT == "BitString":
		return "&pb.BitString{Bits: " + x + ".Bits, Len: uint32(" + x + ".Len)}"
	case goT == "ObjectIdentifier":
		return "&pb.ObjectIdentifier{Arcs: []uint64(" + x + ")}"
	case goT == "struct{}":
		return "&pb.Null{}"
	case g.isEnum(goT):
		return "pb." + goT + "(int32(" + x + ")+1)"
	case g.isMessage(goT):
		return "to" + goT + "(&" + x + ")"
	case strings.HasPrefix(goT, "[]"):
		return "to" + listFuncName(goT) + "(" + x + ")"
	}
	return x
}

// fromStmt stores proto value p (of the proto mirror of goT) into model
// lvalue x.
func (g *protoGen) fromStmt(goT, p, x string) string {
	switch {
	case goT == "Octets":
		return x + " = model.Octets(" + p + ")"
	case goT == "BitString":
		return "if " + p + " != nil {\n" + x + " = model.BitString{Bits: " + p + ".Bits, Len: int(" + p + ".Len)}\n}"
	case goT == "ObjectIdentifier":
		return "if " + p + " != nil {\n" + x + " = model.ObjectIdentifier(" + p + ".Arcs)\n}"
	case goT == "struct{}":
		return ""
	case g.isEnum(goT):
		return x + " = model." + goT + "(int32(" + p + ")-1)"
	case g.isMessage(goT):
		return "from" + goT + "(" + p + ", &" + x + ")"
	case strings.HasPrefix(goT, "[]"):
		return x + " = from" + listFuncName(goT) + "(" + p + ")"
	}
	return x + " = " + p
}

func (g *protoGen) convList(goT string) {
	w := &g.conv
	item := g.listItem(goT)
	elem := goT[2:]
	pbT := g.pbGoType(item)
	if strings.HasPrefix(elem, "[]") {
		pbT = "*pb." + item
	}
	name := listFuncName(goT)
	fmt.Fprintf(w, "func to%s(l %s) []%s {\nif l == nil {\nreturn nil\n}\nout := make([]%s, len(l))\nfor i := range l {\n", name, g.modelType(goT), pbT, pbT)
	if strings.HasPrefix(elem, "[]") {
		fmt.Fprintf(w, "out[i] = &pb.%s{Items: to%s(l[i])}\n", item, listFuncName(elem))
	} else {
		fmt.Fprintf(w, "out[i] = %s\n", g.toExpr(elem, "l[i]"))
	}
	w.WriteString("}\nreturn out\n}\n\n")
	fmt.Fprintf(w, "func from%s(l []%s) %s {\nif l == nil {\nreturn nil\n}\nout := make(%s, len(l))\nfor i := range l {\n", name, pbT, g.modelType(goT), g.modelType(goT))
	if strings.HasPrefix(elem, "[]") {
		fmt.Fprintf(w, "out[i] = from%s(l[i].GetItems())\nif out[i] == nil {\nout[i] = %s{}\n}\n", listFuncName(elem), g.modelType(elem))
	} else {
		fmt.Fprintf(w, "%s\n", g.fromStmt(elem, "l[i]", "out[i]"))
	}
	w.WriteString("}\nreturn out\n}\n\n")
}

// convType writes the two converters of message type t, noting in lists
// the list types its fields use.
func (g *protoGen) convType(t *GoType, lists map[string]bool) {
	for _, fl := range t.Fields {
		if strings.HasPrefix(fl.GoType, "[]") {
			lists[fl.GoType] = true
		}
	}
	g.convTo(t)
	g.convFrom(t)
}

// convTo writes to<T>, model to mirror.
func (g *protoGen) convTo(t *GoType) {
	w := &g.conv
	choice := t.Kind == KindChoice
	fmt.Fprintf(w, "func to%s(m *model.%s) *pb.%s {\nif m == nil {\nreturn nil\n}\np := &pb.%s{}\n", t.Name, t.Name, t.Name, t.Name)
	if choice {
		w.WriteString("switch m.Kind {\n")
	}
	g.convFields(t, g.toMember, g.toField)
	w.WriteString("return p\n}\n\n")
}

// convFields writes the body of a conversion of t: for a CHOICE the cases
// of the switch the caller opened (member's) and its end, else a
// statement per field (field's).
func (g *protoGen) convFields(t *GoType, member func(*GoType, *Field) string, field func(*Field) string) {
	w := &g.conv
	for _, fl := range t.Fields {
		if t.Kind == KindChoice {
			w.WriteString(member(t, fl))
		} else {
			w.WriteString(field(fl))
		}
	}
	if t.Kind == KindChoice {
		w.WriteString("}\n")
	}
}

// toMember is the case of to<T> for alternative fl of CHOICE t.
func (g *protoGen) toMember(t *GoType, fl *Field) string {
	gn := goCamel(snake(fl.Name))
	x := "m." + fl.GoName
	var v string
	switch {
	case fl.GoType == "struct{}":
		v = "&pb.Null{}"
	case g.shape(fl, true) == shapeWrapped:
		v = "&pb." + g.listWrapper(fl.GoType) + "{Items: " + g.toExpr(fl.GoType, x) + "}"
	case fl.Rep == RepPointer:
		v = "to" + fl.GoType + "(" + x + ")"
	default:
		v = g.toExpr(fl.GoType, x)
	}
	return fmt.Sprintf("case model.%s_%s:\np.Kind = &pb.%s_%s{%s: %s}\n", t.Name, fl.GoName, t.Name, gn, gn, v)
}

// toField is the code of to<T> that sets field fl of a SEQUENCE.
func (g *protoGen) toField(fl *Field) string {
	x := "m." + fl.GoName
	p := "p." + goCamel(snake(fl.Name))
	switch g.shape(fl, false) {
	case shapeWrapped:
		return fmt.Sprintf("if %s != nil {\n%s = &pb.%s{Items: %s}\n}\n", x, p, g.listWrapper(fl.GoType), g.toExpr(fl.GoType, x))
	case shapeRepeated:
		return fmt.Sprintf("%s = %s\n", p, g.toExpr(fl.GoType, x))
	case shapeOptional:
		if fl.Rep == RepNil {
			return fmt.Sprintf("if %s != nil {\n%s = []byte(%s)\n}\n", x, p, x)
		}
		return fmt.Sprintf("if %s.Present {\nv := %s\n%s = &v\n}\n", x, g.toExpr(fl.GoType, x+".Value"), p)
	}
	switch fl.Rep {
	case RepFlag:
		return fmt.Sprintf("%s = %s\n", p, x)
	case RepPointer:
		return fmt.Sprintf("%s = to%s(%s)\n", p, fl.GoType, x)
	case RepOpt: // a message-typed optional (BitString, OID)
		return fmt.Sprintf("if %s.Present {\n%s = %s\n}\n", x, p, g.toExpr(fl.GoType, x+".Value"))
	}
	return fmt.Sprintf("%s = %s\n", p, g.toExpr(fl.GoType, x))
}

// convFrom writes from<T>, mirror to model. An absent message reads as an
// empty one: ToProto writes every mandatory message, even empty, so both
// must give the same model (mandatory lists empty, not nil; enums
// UNSPECIFIED).
func (g *protoGen) convFrom(t *GoType) {
	w := &g.conv
	choice := t.Kind == KindChoice
	fmt.Fprintf(w, "func from%s(p *pb.%s, m *model.%s) {\nif p == nil {\np = &pb.%s{}\n}\n", t.Name, t.Name, t.Name, t.Name)
	if choice {
		k := "_"
		for _, fl := range t.Fields {
			if fl.GoType != "struct{}" {
				k = "k"
			}
		}
		if k == "_" {
			w.WriteString("switch p.Kind.(type) {\n")
		} else {
			w.WriteString("switch k := p.Kind.(type) {\n")
		}
	}
	g.convFields(t, g.fromMember, g.fromField)
	w.WriteString("}\n\n")
}

// fromMember is the case of from<T> for alternative fl of CHOICE t.
func (g *protoGen) fromMember(t *GoType, fl *Field) string {
	gn := goCamel(snake(fl.Name))
	x := "m." + fl.GoName
	pv := "k." + gn
	out := fmt.Sprintf("case *pb.%s_%s:\nm.Kind = model.%s_%s\n", t.Name, gn, t.Name, fl.GoName)
	switch {
	case fl.GoType == "struct{}":
		return out
	case g.shape(fl, true) == shapeWrapped:
		return out + fmt.Sprintf("%s = from%s(%s.GetItems())\nif %s == nil {\n%s = %s{}\n}\n", x, listFuncName(fl.GoType), pv, x, x, g.modelType(fl.GoType))
	case fl.Rep == RepPointer:
		return out + fmt.Sprintf("%s = new(%s)\nfrom%s(%s, %s)\n", x, g.modelType(fl.GoType), fl.GoType, pv, x)
	}
	return out + g.fromStmt(fl.GoType, pv, x) + "\n"
}

// fromField is the code of from<T> that sets field fl of a SEQUENCE.
func (g *protoGen) fromField(fl *Field) string {
	x := "m." + fl.GoName
	pv := "p." + goCamel(snake(fl.Name))
	switch g.shape(fl, false) {
	case shapeWrapped:
		return fmt.Sprintf("if %s != nil {\n%s = from%s(%s.Items)\nif %s == nil {\n%s = %s{}\n}\n}\n", pv, x, listFuncName(fl.GoType), pv, x, x, g.modelType(fl.GoType))
	case shapeRepeated:
		// A mandatory list is never absent: empty, as a decoder gives it.
		return fmt.Sprintf("%s = from%s(%s)\nif %s == nil {\n%s = %s{}\n}\n", x, listFuncName(fl.GoType), pv, x, x, g.modelType(fl.GoType))
	case shapeOptional:
		if fl.Rep == RepNil {
			return fmt.Sprintf("if %s != nil {\n%s = model.Octets(%s)\n}\n", pv, x, pv)
		}
		val := "*" + pv
		if g.isEnum(fl.GoType) {
			val = "model." + fl.GoType + "(int32(" + val + ")-1)"
		}
		return fmt.Sprintf("if %s != nil {\n%s = model.Some(%s)\n}\n", pv, x, val)
	}
	switch fl.Rep {
	case RepFlag:
		return fmt.Sprintf("%s = %s\n", x, pv)
	case RepPointer:
		return fmt.Sprintf("if %s != nil {\n%s = new(%s)\nfrom%s(%s, %s)\n}\n", pv, x, g.modelType(fl.GoType), fl.GoType, pv, x)
	case RepOpt:
		return fmt.Sprintf("if %s != nil {\n%s.Present = true\n%s\n}\n", pv, x, g.fromStmt(fl.GoType, pv, x+".Value"))
	}
	return g.fromStmt(fl.GoType, pv, x) + "\n"
}
