package asn1gen

import (
	"fmt"
	"go/format"
	"strconv"
	"strings"
)

// EmitWire writes the per-type functions behind the native codec's wire
// encoder (internal/codec/native; wire.go there holds the rest): the
// model straight to the protobuf wire form of its API mirror, the bytes
// proto.Marshal(ToProto(m)) gives, without building the mirror. It follows the converters' rules (emitConv) field
// by field: proto3 implicit presence leaves out zero scalars and empty
// lists, explicit presence (optional, oneof members, messages) keeps them,
// numeric lists are packed, and fields go in field-number order, as
// protobuf-go writes them.
func (f *Family) EmitWire(pkg string) ([]byte, error) {
	g := &protoGen{f: f, wrappers: map[string]string{}}
	return g.emitWireFile(pkg, "wire encoder", g.wireType, g.wireList)
}

// emitWireFile writes a file of package pkg with typeFn's functions
// for every message type and listFn's for every list type they use.
func (g *protoGen) emitWireFile(pkg, what string, typeFn func(*GoType, map[string]bool), listFn func(string), imports ...string) ([]byte, error) {
	w := &g.conv
	w.WriteString(Header)
	fmt.Fprintf(w, "package %s\n\nimport (\n\"google.golang.org/protobuf/encoding/protowire\"\n\"megaco/internal/model\"\n", pkg)
	for _, imp := range imports {
		fmt.Fprintf(w, "%q\n", imp)
	}
	w.WriteString(")\n\n")
	lists := map[string]bool{}
	for _, t := range g.f.Types {
		if t.Kind != KindEnumerated {
			typeFn(t, lists)
		}
	}
	eachListType(lists, listFn)
	out, err := format.Source(w.Bytes())
	if err != nil {
		return w.Bytes(), fmt.Errorf("generated %s does not parse: %w", what, err)
	}
	return out, nil
}

// wireScalarIn is the code that writes scalar or message value x of Go
// type goT as field num of field (named in errors); always keeps a zero
// value (explicit presence).
func (g *protoGen) wireScalarIn(goT, x, num string, always bool, field string) string {
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
	case goT == "Octets":
		return cond("len("+x+") > 0", "b = protowire.AppendTag(b, "+num+", protowire.BytesType)\nb = protowire.AppendBytes(b, "+x+")\n")
	case goT == "string":
		return cond("len("+x+") > 0", "b = wireString(b, "+num+", "+x+", "+strconv.Quote(field)+")\n")
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
		fmt.Fprintf(w, "for i := range l {\n%s}\n", g.wireScalarIn(elem, "l[i]", "num", true, "items"))
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
				w.WriteString(g.wireScalarIn(fl.GoType, x, num, true, t.Name+"."+fl.Name))
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
				fmt.Fprintf(w, "if %s != nil {\n%s}\n", x, g.wireScalarIn(fl.GoType, x, num, true, t.Name+"."+fl.Name))
			} else {
				fmt.Fprintf(w, "if %s.Present {\n%s}\n", x, g.wireScalarIn(fl.GoType, x+".Value", num, true, t.Name+"."+fl.Name))
			}
		default:
			switch fl.Rep {
			case RepFlag:
				w.WriteString(g.wireScalarIn("bool", x, num, false, t.Name+"."+fl.Name))
			case RepPointer:
				fmt.Fprintf(w, "if %s != nil {\nb = wireMsg%s(b, %s, %s)\n}\n", x, fl.GoType, num, x)
			case RepOpt: // a message-typed optional (BitString, OID)
				fmt.Fprintf(w, "if %s.Present {\n%s}\n", x, g.wireScalarIn(fl.GoType, x+".Value", num, true, t.Name+"."+fl.Name))
			default:
				w.WriteString(g.wireScalarIn(fl.GoType, x, num, false, t.Name+"."+fl.Name))
			}
		}
	}
	if choice {
		w.WriteString("}\n")
	}
	w.WriteString("return b\n}\n\n")
}

// EmitUnwire writes the per-type functions behind the native codec's wire
// decoder: the protobuf wire form of the API mirror straight into the
// model, giving what FromProto(proto.Unmarshal(b)) gives. It follows protobuf-go's
// rules: a field of another wire type than its own is unknown and
// skipped, the last scalar wins, a repeated message field merges, a oneof
// member replaces another, numeric lists read packed and unpacked, proto3
// strings must be UTF-8; and FromProto's: a mandatory list of a message
// that is there is never nil, bytes with presence are never nil, implicit
// empty bytes are.
func (f *Family) EmitUnwire(pkg string) ([]byte, error) {
	g := &protoGen{f: f, wrappers: map[string]string{}, slabs: map[string]string{}}
	out, err := g.emitWireFile(pkg, "wire decoder", g.unwireType, g.unwireList)
	if err != nil {
		return out, err
	}
	return out, f.checkSlabs("native", g.slabs)
}

// slab returns the decode's slab (a field of slab.Model, through the
// budget) that allocates values of goT.
func (g *protoGen) slab(goT string) string {
	name := slabName(goT)
	g.slabs[name] = g.f.qualify(goT, "model.")
	return "bud.mem." + name
}

// unwireBytesInline and unwireVarintInline read a field's value at b as
// unwireBytes and unwireVarint do (v, n, err), with the common case, a
// one-octet length or value, inline: those calls, too large for the
// compiler to inline, were a tenth of a decode's instructions.
const (
	unwireBytesInline = "var v []byte\nvar n int\nvar err error\n" +
		"if typ == protowire.BytesType && len(b) > 0 && int(b[0]) < min(len(b), 0x80) {\nn = int(b[0]) + 1\nv = b[1:n]\n} else {\nv, n, err = unwireBytes(b, typ)\n}\n"
	unwireVarintInline = "var v uint64\nvar n int\nvar err error\n" +
		"if typ == protowire.VarintType && len(b) > 0 && b[0] < 0x80 {\nv, n = uint64(b[0]), 1\n} else {\nv, n, err = unwireVarint(b, typ)\n}\n"
)

// unwireRead is the code that reads one value of scalar or message type
// goT (a field of the current message, value at b, wire type typ) and
// stores it with set, a format taking the converted value; explicit
// presence keeps empty bytes non-nil. The code continues the field loop
// when the wire type matched and falls through otherwise.
func (g *protoGen) unwireRead(goT, set, field string, explicit bool) string {
	fail := fmt.Sprintf("return wireFail(%q, err)", field)
	varint := func(conv string) string {
		return unwireVarintInline + "if err != nil {\n" + fail + "\n}\nif n > 0 {\n" + fmt.Sprintf(set, conv) + "\nb = b[n:]\ncontinue\n}\n"
	}
	bytesThen := func(body string) string {
		return unwireBytesInline + "if err != nil {\n" + fail + "\n}\nif n > 0 {\n" + body + "b = b[n:]\ncontinue\n}\n"
	}
	switch {
	case goT == "uint32":
		return varint("uint32(v)")
	case goT == "int64":
		return varint("int64(v)")
	case goT == "bool":
		return varint("v != 0")
	case g.isEnum(goT):
		return varint("model." + goT + "(int32(v)-1)")
	case goT == "Octets":
		if explicit {
			return bytesThen(fmt.Sprintf(set, "model.Octets(v)") + "\n")
		}
		return bytesThen("if len(v) == 0 {\nv = nil\n}\n" + fmt.Sprintf(set, "model.Octets(v)") + "\n")
	case goT == "string":
		return bytesThen("if err := unwireUTF8(v); err != nil {\n" + fail + "\n}\n" + fmt.Sprintf(set, "unwireString(v)") + "\n")
	}
	panic("unwire: unhandled type " + goT)
}

// unwireInto is the code that decodes a message value at b into what
// ptr points to (of message type goT: named, BitString, ObjectIdentifier
// or struct{} for Null), after prep. For a named type, again is the
// condition, read before prep, that ptr holds an earlier occurrence:
// protobuf merges a message field that comes more than once into it.
// (BitString and ObjectIdentifier merge by reading into the same value.)
func (g *protoGen) unwireInto(goT, ptr, again, prep, field string) string {
	call := "unwire" + goT + "(v, " + ptr + ", depth+1, bud)"
	switch {
	case goT == "struct{}":
		call = "unwireNull(v, depth+1, bud)"
	case g.f.byName[goT] != nil:
		prep = "again := " + again + "\n" + prep
		call = "unwire" + goT + "(v, " + ptr + ", depth+1, bud, again)"
	}
	return fmt.Sprintf(unwireBytesInline+"if err != nil {\nreturn wireFail(%q, err)\n}\nif n > 0 {\n%sif err := %s; err != nil {\nreturn wireFail(%q, err)\n}\nb = b[n:]\ncontinue\n}\n", field, prep, call, field)
}

func (g *protoGen) isScalar(goT string) bool {
	switch goT {
	case "uint32", "int64", "bool", "Octets", "string":
		return true
	}
	return g.isEnum(goT)
}

// unwireLoopHead starts the loop over a message's fields: the one-byte
// tag of fields 1..15, almost every tag, is read in line (unwireTag does
// not inline). A field read continues the loop; what falls through to
// unwireLoopTail, an unknown field or wire type, is skipped.
const unwireLoopHead = "for len(b) > 0 {\nnum, typ, n := protowire.Number(b[0]>>3), protowire.Type(b[0]&7), 1\nif c := b[0]; c < 0x08 || c >= 0x80 {\nvar err error\nif num, typ, n, err = unwireTagSlow(b); err != nil {\nreturn err\n}\n}\nb = b[n:]\n"

const unwireLoopTail = "n = protowire.ConsumeFieldValue(num, typ, b)\nif n < 0 {\nreturn protowire.ParseError(n)\n}\nb = b[n:]\n}\n"

// unwireType writes unwire<T> for message type t: a fresh value (merge
// false) starts as FromProto's empty message; merge reads a second
// occurrence of the field into the first, as protobuf does.
func (g *protoGen) unwireType(t *GoType, lists map[string]bool) {
	w := &g.conv
	fmt.Fprintf(w, "func unwire%s(b []byte, m *model.%s, depth int, bud *budget, merge bool) error {\nif err := unwireEnter(depth, bud); err != nil {\nreturn err\n}\n", t.Name, t.Name)
	choice := t.Kind == KindChoice
	if !choice {
		g.unwireFresh(t)
	}
	w.WriteString(unwireLoopHead + "switch num {\n")
	for i, fl := range t.Fields {
		if strings.HasPrefix(fl.GoType, "[]") {
			lists[fl.GoType] = true
		}
		fmt.Fprintf(w, "case %d:\n", i+1)
		if choice {
			w.WriteString("{\n" + g.unwireMember(t, fl) + "}\n")
		} else {
			w.WriteString(g.unwireField(t, fl, i))
		}
	}
	w.WriteString("}\n" + unwireLoopTail)
	if !choice {
		g.unwireAbsent(t)
	}
	w.WriteString("return nil\n}\n\n")
}

// holdsMessage reports whether fl is a mandatory message held by value:
// FromProto gives it an empty message when it is absent, so unwire
// notes which of them it has seen.
func (g *protoGen) holdsMessage(fl *Field) bool {
	return fl.Rep == RepValue && g.f.byName[fl.GoType] != nil && !g.isEnum(fl.GoType)
}

// unwireFresh writes the start of a SEQUENCE's decode: FromProto gives an
// absent plain enum its zero, UNSPECIFIED, one below the first ASN.1
// value (a value merged into keeps its own); seen tracks the mandatory
// messages.
func (g *protoGen) unwireFresh(t *GoType) {
	w := &g.conv
	var enums []string
	seen := false
	for _, fl := range t.Fields {
		if g.isEnum(fl.GoType) && g.shape(fl, false) == shapePlain {
			enums = append(enums, fmt.Sprintf("m.%s = -1\n", fl.GoName))
		}
		seen = seen || g.holdsMessage(fl)
	}
	if len(enums) > 0 {
		w.WriteString("if !merge {\n" + strings.Join(enums, "") + "}\n")
	}
	if seen {
		w.WriteString("var seen uint64\n")
	}
}

// unwireAbsent writes the end of a SEQUENCE's decode: an absent mandatory
// message reads as an empty one and an absent mandatory list as an empty
// list, as in FromProto. (A value merged into has them already.)
func (g *protoGen) unwireAbsent(t *GoType) {
	w := &g.conv
	for i, fl := range t.Fields {
		if g.holdsMessage(fl) {
			// (At this depth: protobuf-go does not descend into it.)
			fmt.Fprintf(w, "if !merge && seen&(1<<%d) == 0 {\nif err := unwire%s(nil, &m.%s, depth, bud, false); err != nil {\nreturn err\n}\n}\n", i, fl.GoType, fl.GoName)
		}
	}
	for _, fl := range t.Fields {
		if g.shape(fl, false) == shapeRepeated {
			fmt.Fprintf(w, "if m.%s == nil {\nm.%s = %s{}\n}\n", fl.GoName, fl.GoName, g.modelType(fl.GoType))
		}
	}
}

// unwireMember is the code that reads alternative fl of CHOICE t: another
// alternative replaces the one there; the same one merges into it.
func (g *protoGen) unwireMember(t *GoType, fl *Field) string {
	x := "m." + fl.GoName
	field := t.Name + "." + fl.Name
	kind := fmt.Sprintf("model.%s_%s", t.Name, fl.GoName)
	reset := fmt.Sprintf("if m.Kind != %s {\n*m = model.%s{Kind: %s}\n}\n", kind, t.Name, kind)
	switch {
	case g.shape(fl, true) == shapeWrapped:
		return g.unwireWrapRead(fl.GoType, x, field, reset)
	case fl.Rep == RepPointer:
		return g.unwireInto(fl.GoType, x, x+" != nil", reset+g.newIfNil(x, fl.GoType), field)
	case g.isScalar(fl.GoType):
		return g.unwireRead(fl.GoType, reset+x+" = %s", field, true)
	}
	return g.unwireInto(fl.GoType, "&"+x, "m.Kind == "+kind, reset, field)
}

// unwireField is the code that reads field i, fl, of SEQUENCE t.
func (g *protoGen) unwireField(t *GoType, fl *Field, i int) string {
	x := "m." + fl.GoName
	field := t.Name + "." + fl.Name
	switch g.shape(fl, false) {
	case shapeWrapped:
		return g.unwireWrapRead(fl.GoType, x, field, "")
	case shapeRepeated:
		return fmt.Sprintf("n, err := unwireAdd%s(b, num, typ, &%s, depth, bud)\nif err != nil {\nreturn wireFail(%q, err)\n}\nif n > 0 {\nb = b[n:]\ncontinue\n}\n", listFuncName(fl.GoType), x, field)
	case shapeOptional:
		switch {
		case fl.Rep == RepNil:
			return g.unwireRead(fl.GoType, x+" = %s", field, true)
		case g.isScalar(fl.GoType):
			return g.unwireRead(fl.GoType, x+" = model.Some(%s)", field, true)
		}
		return g.unwireInto(fl.GoType, "&"+x+".Value", x+".Present", x+".Present = true\n", field)
	}
	switch {
	case fl.Rep == RepFlag:
		return g.unwireRead("bool", x+" = %s", field, false)
	case fl.Rep == RepPointer:
		return g.unwireInto(fl.GoType, x, x+" != nil", g.newIfNil(x, fl.GoType), field)
	case fl.Rep == RepOpt: // a message-typed optional (BitString, OID)
		return g.unwireInto(fl.GoType, "&"+x+".Value", x+".Present", x+".Present = true\n", field)
	case g.isScalar(fl.GoType):
		return g.unwireRead(fl.GoType, x+" = %s", field, false)
	}
	return g.unwireInto(fl.GoType, "&"+x, fmt.Sprintf("merge || seen&(1<<%d) != 0", i), fmt.Sprintf("seen |= 1 << %d\n", i), field)
}

// newIfNil is the code that allocates pointer x to a goT, from the
// decode's slab, if it is nil. The value is zeroed by assigning the
// type's zero value, which the compiler writes inline, rather than by
// slab.One's clear, a call to the runtime's memclr per value.
func (g *protoGen) newIfNil(x, goT string) string {
	return "if " + x + " == nil {\n" + x + " = &" + g.slab(goT) + ".Raw(1)[0]\n*" + x + " = " + g.f.qualify(goT, "model.") + "{}\n}\n"
}

// unwireWrapRead is the code that reads a list in its wrapper message
// into lvalue x, after prep.
func (g *protoGen) unwireWrapRead(goT, x, field, prep string) string {
	return fmt.Sprintf(unwireBytesInline+"if err != nil {\nreturn wireFail(%q, err)\n}\nif n > 0 {\n%sif err := unwireWrap%s(v, &%s, depth+1, bud); err != nil {\nreturn wireFail(%q, err)\n}\nb = b[n:]\ncontinue\n}\n", field, prep, listFuncName(goT), x, field)
}

// unwireList writes, for list type goT, unwireAdd (one occurrence of the
// repeated field at b; 0 bytes read when the wire type is not the list's)
// and unwireWrap (the list's wrapper message).
func (g *protoGen) unwireList(goT string) {
	w := &g.conv
	name := listFuncName(goT)
	elem := goT[2:]
	mt := g.modelType(goT)
	fmt.Fprintf(w, "func unwireAdd%s(b []byte, num protowire.Number, typ protowire.Type, l *%s, depth int, bud *budget) (int, error) {\n", name, mt)
	switch {
	case g.isPacked(elem):
		conv := "uint32(v)"
		switch {
		case elem == "int64":
			conv = "int64(v)"
		case elem == "bool":
			conv = "v != 0"
		case g.isEnum(elem):
			conv = "model." + elem + "(int32(v)-1)"
		}
		fmt.Fprintf(w, "unwireRoomPacked(&%s, l, b, typ, bud)\n", g.slab(elem))
		fmt.Fprintf(w, "return unwirePacked(b, typ, bud, func(v uint64) {\n*l = append(*l, %s)\n})\n", conv)
	default:
		w.WriteString(unwireBytesInline + "if n == 0 || err != nil {\nreturn 0, err\n}\n")
		fmt.Fprintf(w, "unwireRoom(&%s, l, b, num, bud)\n", g.slab(elem))
		switch {
		case strings.HasPrefix(elem, "[]"):
			fmt.Fprintf(w, "*l = append(*l, nil)\nif err := unwireWrap%s(v, &(*l)[len(*l)-1], depth+1, bud); err != nil {\nreturn 0, err\n}\n", listFuncName(elem))
		case elem == "Octets":
			w.WriteString("if err := unwireSpend(bud); err != nil {\nreturn 0, err\n}\n*l = append(*l, model.Octets(v))\n")
		case elem == "string":
			w.WriteString("if err := unwireSpend(bud); err != nil {\nreturn 0, err\n}\nif err := unwireUTF8(v); err != nil {\nreturn 0, err\n}\n*l = append(*l, unwireString(v))\n")
		default:
			zero := "model." + elem + "{}"
			if elem == "ObjectIdentifier" {
				zero = "nil"
			}
			call := "unwire" + elem + "(v, &(*l)[len(*l)-1], depth+1, bud)"
			if g.f.byName[elem] != nil {
				call = "unwire" + elem + "(v, &(*l)[len(*l)-1], depth+1, bud, false)"
			}
			fmt.Fprintf(w, "*l = append(*l, %s)\nif err := %s; err != nil {\nreturn 0, err\n}\n", zero, call)
		}
		w.WriteString("return n, nil\n")
	}
	w.WriteString("}\n\n")
	// The wrapper's loop is written out, as a message's is: unwireFields's
	// call of a closure per item cost more than the item's own read.
	fmt.Fprintf(w, `func unwireWrap%s(b []byte, l *%s, depth int, bud *budget) error {
if *l == nil {
*l = %s{}
}
if err := unwireEnter(depth, bud); err != nil {
return err
}
`+unwireLoopHead+`if num == 1 {
n, err := unwireAdd%s(b, num, typ, l, depth, bud)
if err != nil {
return wireFail("items", err)
}
if n > 0 {
b = b[n:]
continue
}
}
`+unwireLoopTail+`return nil
}

`, name, mt, mt, name)
}
