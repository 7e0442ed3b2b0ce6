package asn1gen

import (
	"fmt"
	"go/format"
	"strings"
)

// EmitWire writes the per-type functions behind protoconv.AppendWire
// (wire.go holds the rest): the model straight to the protobuf wire form
// of its API mirror, the bytes proto.Marshal(ToProto(m)) gives, without
// building the mirror. It follows the converters' rules (emitConv) field
// by field: proto3 implicit presence leaves out zero scalars and empty
// lists, explicit presence (optional, oneof members, messages) keeps them,
// numeric lists are packed, and fields go in field-number order, as
// protobuf-go writes them.
func (f *Family) EmitWire(pkg string) ([]byte, error) {
	g := &protoGen{f: f, wrappers: map[string]string{}}
	w := &g.conv
	w.WriteString(Header)
	fmt.Fprintf(w, "package %s\n\nimport (\n\"google.golang.org/protobuf/encoding/protowire\"\n\"megaco/internal/model\"\n)\n\n", pkg)
	lists := map[string]bool{}
	for _, t := range f.Types {
		if t.Kind == KindEnumerated {
			continue
		}
		g.wireType(t, lists)
	}
	eachListType(lists, g.wireList)
	out, err := format.Source(w.Bytes())
	if err != nil {
		return w.Bytes(), fmt.Errorf("generated wire encoder does not parse: %w", err)
	}
	return out, nil
}

// wireScalar is the code that writes scalar or message value x of Go type
// goT as field num; always keeps a zero value (explicit presence).
func (g *protoGen) wireScalar(goT, x, num string, always bool) string {
	cond := func(nonZero, code string) string {
		if always {
			return code
		}
		return "if " + nonZero + " {\n" + code + "}\n"
	}
	varint := func(v string) string {
		return "b = protowire.AppendTag(b, " + num + ", protowire.VarintType)\nb = protowire.AppendVarint(b, " + v + ")\n"
	}
	switch {
	case goT == "uint32":
		return cond(x+" != 0", varint("uint64("+x+")"))
	case goT == "int64":
		return cond(x+" != 0", varint("uint64("+x+")"))
	case goT == "bool":
		return cond(x, varint("wireBool("+x+")"))
	case goT == "Octets" || goT == "string":
		return cond("len("+x+") > 0", "b = protowire.AppendTag(b, "+num+", protowire.BytesType)\nb = protowire.AppendBytes(b, []byte("+x+"))\n")
	case goT == "BitString":
		return "b = wireBitString(b, " + num + ", &" + x + ")\n"
	case goT == "ObjectIdentifier":
		return "b = wireObjectIdentifier(b, " + num + ", " + x + ")\n"
	case goT == "struct{}":
		return "b = wireNull(b, " + num + ")\n"
	case g.isEnum(goT):
		return cond("int32("+x+")+1 != 0", varint("uint64(int64(int32("+x+")+1))"))
	case g.isMessage(goT):
		return "b = wireMsg" + goT + "(b, " + num + ", &" + x + ")\n"
	}
	panic("wire: unhandled type " + goT)
}

// isPacked tells list element types that protobuf packs.
func (g *protoGen) isPacked(elem string) bool {
	switch elem {
	case "uint32", "int64", "bool":
		return true
	}
	return g.isEnum(elem)
}

// wireList writes the helpers for list type goT: wireRep (the repeated
// field) and wireWrap (the list in its wrapper message).
func (g *protoGen) wireList(goT string) {
	w := &g.conv
	name := listFuncName(goT)
	elem := goT[2:]
	fmt.Fprintf(w, "func wireRep%s(b []byte, num protowire.Number, l %s) []byte {\n", name, g.modelType(goT))
	switch {
	case strings.HasPrefix(elem, "[]"):
		fmt.Fprintf(w, "for i := range l {\nb = wireWrap%s(b, num, l[i])\n}\n", listFuncName(elem))
	case g.isPacked(elem):
		v := "uint64(l[i])"
		switch {
		case elem == "bool":
			v = "wireBool(l[i])"
		case g.isEnum(elem):
			v = "uint64(int64(int32(l[i]) + 1))"
		}
		fmt.Fprintf(w, "if len(l) == 0 {\nreturn b\n}\nb, start := wireBegin(b, num)\nfor i := range l {\nb = protowire.AppendVarint(b, %s)\n}\nb = wireEnd(b, start)\n", v)
	default:
		fmt.Fprintf(w, "for i := range l {\n%s}\n", g.wireScalar(elem, "l[i]", "num", true))
	}
	w.WriteString("return b\n}\n\n")
	fmt.Fprintf(w, "func wireWrap%s(b []byte, num protowire.Number, l %s) []byte {\nb, start := wireBegin(b, num)\nb = wireRep%s(b, 1, l)\nreturn wireEnd(b, start)\n}\n\n", name, g.modelType(goT), name)
}

func (g *protoGen) wireType(t *GoType, lists map[string]bool) {
	w := &g.conv
	fmt.Fprintf(w, "func wireMsg%s(b []byte, num protowire.Number, m *model.%s) []byte {\nb, start := wireBegin(b, num)\nb = wire%s(b, m)\nreturn wireEnd(b, start)\n}\n\n", t.Name, t.Name, t.Name)
	fmt.Fprintf(w, "func wire%s(b []byte, m *model.%s) []byte {\n", t.Name, t.Name)
	choice := t.Kind == KindChoice
	if choice {
		w.WriteString("switch m.Kind {\n")
	}
	for i, fl := range t.Fields {
		num := fmt.Sprint(i + 1)
		x := "m." + fl.GoName
		if strings.HasPrefix(fl.GoType, "[]") {
			lists[fl.GoType] = true
		}
		if choice {
			fmt.Fprintf(w, "case model.%s_%s:\n", t.Name, fl.GoName)
			switch {
			case g.shape(fl, true) == shapeWrapped:
				fmt.Fprintf(w, "b = wireWrap%s(b, %s, %s)\n", listFuncName(fl.GoType), num, x)
			case fl.Rep == RepPointer:
				// A chosen alternative with no value is still chosen: an
				// empty message, as protobuf writes a oneof's nil message.
				fmt.Fprintf(w, "if %s != nil {\nb = wireMsg%s(b, %s, %s)\n} else {\nb = wireNull(b, %s)\n}\n", x, fl.GoType, num, x, num)
			default:
				w.WriteString(g.wireScalar(fl.GoType, x, num, true))
			}
			continue
		}
		switch g.shape(fl, false) {
		case shapeWrapped:
			fmt.Fprintf(w, "if %s != nil {\nb = wireWrap%s(b, %s, %s)\n}\n", x, listFuncName(fl.GoType), num, x)
		case shapeRepeated:
			fmt.Fprintf(w, "b = wireRep%s(b, %s, %s)\n", listFuncName(fl.GoType), num, x)
		case shapeOptional:
			if fl.Rep == RepNil {
				fmt.Fprintf(w, "if %s != nil {\n%s}\n", x, g.wireScalar(fl.GoType, x, num, true))
			} else {
				fmt.Fprintf(w, "if %s.Present {\n%s}\n", x, g.wireScalar(fl.GoType, x+".Value", num, true))
			}
		default:
			switch fl.Rep {
			case RepFlag:
				w.WriteString(g.wireScalar("bool", x, num, false))
			case RepPointer:
				fmt.Fprintf(w, "if %s != nil {\nb = wireMsg%s(b, %s, %s)\n}\n", x, fl.GoType, num, x)
			case RepOpt: // a message-typed optional (BitString, OID)
				fmt.Fprintf(w, "if %s.Present {\n%s}\n", x, g.wireScalar(fl.GoType, x+".Value", num, true))
			default:
				w.WriteString(g.wireScalar(fl.GoType, x, num, false))
			}
		}
	}
	if choice {
		w.WriteString("}\n")
	}
	w.WriteString("return b\n}\n\n")
}
