package asn1gen

import (
	"bytes"
	"fmt"
	"go/format"
)

// EmitWireFields writes the field numbers of the API's proto messages as
// Go constants, for code that walks the wire form by hand (the native
// codec's scanner): num<Type><Field> is the field's number, and for a
// list field wrapped<Type><Field> tells whether it travels in a wrapper
// message (items = 1) rather than as a repeated field. They follow
// EmitProto's numbering, so that nobody keeps numbers by hand.
func (f *Family) EmitWireFields(pkg string) ([]byte, error) {
	g := &protoGen{f: f, wrappers: map[string]string{}}
	var w bytes.Buffer
	w.WriteString(Header)
	fmt.Fprintf(&w, "package %s\n\nimport \"google.golang.org/protobuf/encoding/protowire\"\n\n", pkg)
	for _, t := range f.Types {
		if t.Kind == KindEnumerated {
			continue
		}
		w.WriteString("const (\n")
		for i, fl := range t.Fields {
			fmt.Fprintf(&w, "num%s%s protowire.Number = %d\n", t.Name, fl.GoName, i+1)
			if sh := g.shape(fl, t.Kind == KindChoice); sh == shapeWrapped || sh == shapeRepeated {
				fmt.Fprintf(&w, "wrapped%s%s = %v\n", t.Name, fl.GoName, sh == shapeWrapped)
			}
		}
		w.WriteString(")\n\n")
	}
	out, err := format.Source(w.Bytes())
	if err != nil {
		return w.Bytes(), fmt.Errorf("generated wire field numbers do not parse: %w", err)
	}
	return out, nil
}
