package asn1gen

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"
)

// EmitClone writes Clone for every SEQUENCE, SET and CHOICE of the model:
// a deep copy that shares no memory with the original. A message decoded
// with reused memory (a transient decoding) aliases the decoder's buffers
// in its strings and byte fields; what must outlive the decoding (a
// relay's kept mId, say) is cloned.
func (f *Family) EmitClone(pkg string) ([]byte, error) {
	var w bytes.Buffer
	w.WriteString(Header)
	// cloneEach, which the methods use for lists of values that hold
	// memory, is the model package's own (clone.go).
	fmt.Fprintf(&w, "package %s\n\nimport (\n\"slices\"\n\"strings\"\n)\n\n", pkg)
	for _, g := range f.Types {
		if g.Kind == KindEnumerated {
			continue
		}
		fmt.Fprintf(&w, "// Clone returns a deep copy of x (nil for nil).\nfunc (x *%s) Clone() *%s {\nif x == nil {\nreturn nil\n}\nc := x.clone()\nreturn &c\n}\n\n", g.Name, g.Name)
		fmt.Fprintf(&w, "func (x *%s) clone() %s {\nc := *x\n", g.Name, g.Name)
		for _, fl := range g.Fields {
			if s, err := f.cloneField(fl); err != nil {
				return nil, fmt.Errorf("%s.%s: %w", g.Name, fl.GoName, err)
			} else if s != "" {
				w.WriteString(s + "\n")
			}
		}
		w.WriteString("return c\n}\n\n")
	}
	return format.Source(w.Bytes())
}

// cloneField is the statement that gives c's field fl memory of its own,
// or "" when copying the struct copied it whole.
func (f *Family) cloneField(fl *Field) (string, error) {
	switch fl.Rep {
	case RepFlag:
		return "", nil
	case RepPointer:
		if !f.isStruct(fl.GoType) {
			return "", fmt.Errorf("pointer to %s, not a structured type", fl.GoType)
		}
		return fmt.Sprintf("c.%s = x.%s.Clone()", fl.GoName, fl.GoName), nil
	case RepOpt:
		e, err := f.cloneOf(fl.GoType, "&x."+fl.GoName+".Value")
		if e == "" || err != nil {
			return "", err
		}
		return fmt.Sprintf("c.%s.Value = %s", fl.GoName, e), err
	}
	e, err := f.cloneOf(fl.GoType, "&x."+fl.GoName)
	if e == "" || err != nil {
		return "", err
	}
	return fmt.Sprintf("c.%s = %s", fl.GoName, e), nil
}

// cloneOf is an expression for a copy of *p (p, a Go expression, points
// to a value of Go type t) that shares no memory with it, or "" when
// assigning the value copies it whole.
func (f *Family) cloneOf(t, p string) (string, error) {
	val := "*" + p
	if strings.HasPrefix(p, "&") {
		val = p[1:]
	}
	switch {
	case t == "string":
		return "strings.Clone(" + val + ")", nil
	case t == "Octets" || t == "ObjectIdentifier" || t == "[]byte":
		return "slices.Clone(" + val + ")", nil
	case strings.HasPrefix(t, "[]"):
		elem := t[2:]
		if f.isStruct(elem) {
			return fmt.Sprintf("cloneEach(%s, (*%s).clone)", val, elem), nil
		}
		inner, err := f.cloneOf(elem, "e")
		if err != nil || inner == "" {
			return "slices.Clone(" + val + ")", err
		}
		return fmt.Sprintf("cloneEach(%s, func(e *%s) %s { return %s })", val, elem, elem, inner), nil
	case f.isStruct(t):
		return val + ".clone()", nil
	case t == "struct{}" || t == "bool" || t == "BitString" || strings.HasPrefix(t, "uint") || strings.HasPrefix(t, "int") || f.isEnum(t):
		return "", nil
	}
	return "", fmt.Errorf("no clone for Go type %s", t)
}

func (f *Family) isStruct(t string) bool {
	g := f.Type(t)
	return g != nil && g.Kind != KindEnumerated
}

func (f *Family) isEnum(t string) bool {
	g := f.Type(t)
	return g != nil && g.Kind == KindEnumerated
}
