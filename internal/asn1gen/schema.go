package asn1gen

import (
	"fmt"
	"sort"
	"strings"
)

// TagSpec is one tag as it appears on the wire.
type TagSpec struct {
	Class       TagClass
	Number      int
	Constructed bool
}

// Bytes returns the BER identifier octets of the tag.
func (t TagSpec) Bytes() []byte {
	first := byte(t.Class) << 6
	if t.Constructed {
		first |= 0x20
	}
	if t.Number < 31 {
		return []byte{first | byte(t.Number)}
	}
	out := []byte{first | 0x1f}
	var rev []byte
	for n := t.Number; ; n >>= 7 {
		rev = append(rev, byte(n&0x7f))
		if n < 0x80 {
			break
		}
	}
	for i := len(rev) - 1; i >= 0; i-- {
		b := rev[i]
		if i > 0 {
			b |= 0x80
		}
		out = append(out, b)
	}
	return out
}

// Key packs class and number the way the BER runtime reports a tag
// (constructed bit left out).
func (t TagSpec) Key() uint32 { return uint32(t.Class)<<30 | uint32(t.Number) }

func (t TagSpec) String() string {
	cls := [...]string{"UNIVERSAL ", "APPLICATION ", "", "PRIVATE "}[t.Class]
	return fmt.Sprintf("[%s%d]", cls, t.Number)
}

var universalTags = map[Kind]int{
	KindSequence: 16, KindSequenceOf: 16, KindSet: 17, KindSetOf: 17,
	KindInteger: 2, KindEnumerated: 10, KindBoolean: 1, KindNull: 5,
	KindBitString: 3, KindOctetString: 4, KindIA5String: 22,
	KindVisibleString: 26, KindPrintableString: 19, KindUTF8String: 12,
	KindObjectIdentifier: 6,
}

// Version is one module of the schema family.
type Version struct {
	N      int // protocol version
	Module *Module
}

// Resolve follows untagged and tagged references to the built-in type
// that defines t's contents.
func (v *Version) Resolve(t *Type) (*Type, error) {
	for seen := 0; t.Kind == KindRef; seen++ {
		a := v.Module.Lookup(t.Ref)
		if a == nil {
			return nil, fmt.Errorf("%s:%d:%d: undefined type %s", v.Module.Name, t.Line, t.Col, t.Ref)
		}
		if seen > 100 {
			return nil, fmt.Errorf("%s: reference loop at %s", v.Module.Name, t.Ref)
		}
		t = a.Type
	}
	return t, nil
}

// Tags returns the tags that prefix an encoding of t, outermost first.
// The last one carries the contents; the others are explicit wrappers.
// An untagged CHOICE has none: each alternative brings its own.
func (v *Version) Tags(t *Type) ([]TagSpec, error) {
	var inner []TagSpec
	if t.Kind == KindRef {
		a := v.Module.Lookup(t.Ref)
		if a == nil {
			return nil, fmt.Errorf("%s:%d:%d: undefined type %s", v.Module.Name, t.Line, t.Col, t.Ref)
		}
		var err error
		if inner, err = v.Tags(a.Type); err != nil {
			return nil, err
		}
	} else if t.Tag != nil || t.Kind != KindChoice {
		if t.Kind != KindChoice {
			inner = []TagSpec{{Class: ClassUniversal, Number: universalTags[t.Kind], Constructed: constructedKind(t.Kind)}}
		}
	}
	if t.Tag == nil {
		return inner, nil
	}
	tag := TagSpec{Class: t.Tag.Class, Number: t.Tag.Number}
	if t.Tag.Explicit || len(inner) == 0 {
		tag.Constructed = true
		return append([]TagSpec{tag}, inner...), nil
	}
	tag.Constructed = inner[0].Constructed
	return append([]TagSpec{tag}, inner[1:]...), nil
}

func constructedKind(k Kind) bool {
	switch k {
	case KindSequence, KindSequenceOf, KindSet, KindSetOf:
		return true
	}
	return false
}

// applyTagging gives every component its automatic tag (X.680 25.3: when
// no component of a SEQUENCE, SET or CHOICE is tagged, they are numbered
// from 0 in order, root first), and decides for every written tag whether
// it is explicit (module default, the keyword, and the rule that a CHOICE
// can only be tagged explicitly).
func (v *Version) applyTagging() error {
	var walk func(t *Type) error
	walk = func(t *Type) error {
		switch t.Kind {
		case KindSequence, KindSet, KindChoice:
			auto := v.Module.Tagging == "AUTOMATIC"
			for _, c := range t.Components {
				if c.Type.Tag != nil {
					auto = false
				}
			}
			if auto {
				for i, c := range t.Components {
					c.Type.Tag = &Tag{Class: ClassContext, Number: i}
				}
			}
			for _, c := range t.Components {
				if err := walk(c.Type); err != nil {
					return err
				}
			}
		case KindSequenceOf, KindSetOf:
			if err := walk(t.Elem); err != nil {
				return err
			}
		}
		if t.Tag != nil {
			untagged := *t
			untagged.Tag = nil
			isChoice := false
			if r, err := v.Resolve(&untagged); err == nil {
				isChoice = r.Kind == KindChoice && (t.Kind == KindChoice || v.untaggedRef(t))
			}
			switch t.Tag.Mode {
			case "EXPLICIT":
				t.Tag.Explicit = true
			case "IMPLICIT":
				if isChoice {
					return fmt.Errorf("%s:%d:%d: a CHOICE cannot be tagged IMPLICIT", v.Module.Name, t.Line, t.Col)
				}
			default:
				t.Tag.Explicit = v.Module.Tagging == "EXPLICIT" || isChoice
			}
		}
		return nil
	}
	for _, a := range v.Module.Assignments {
		if err := walk(a.Type); err != nil {
			return err
		}
	}
	return nil
}

// untaggedRef reports whether t refers, through references that carry
// no tag of their own, to its target.
func (v *Version) untaggedRef(t *Type) bool {
	for t.Kind == KindRef {
		a := v.Module.Lookup(t.Ref)
		if a == nil {
			return false
		}
		t = a.Type
		if t.Tag != nil {
			return false
		}
	}
	return true
}

// Rep is how a value is held in a Go field.
type Rep int

const (
	RepValue   Rep = iota // the Go type itself
	RepPointer            // *T, nil when absent (SEQUENCE, SET, CHOICE)
	RepOpt                // model.Opt[T] (scalars)
	RepNil                // slices and []byte, nil when absent
	RepFlag               // NULL OPTIONAL: a bool
)

// GoType is the schema family's union view of one named Go type: a
// SEQUENCE, SET, CHOICE or ENUMERATED of one or more versions.
type GoType struct {
	Name   string
	Kind   Kind
	Defs   map[int]*Type // version -> definition
	Fields []*Field      // SEQUENCE/SET fields or CHOICE alternatives, union of all versions
	Enum   []NamedNumber // ENUMERATED: union of items
	Doc    string
}

// Versions lists the versions that define g, ascending.
func (g *GoType) Versions() []int {
	var vs []int
	for v := range g.Defs {
		vs = append(vs, v)
	}
	sort.Ints(vs)
	return vs
}

// Field is one field of a GoType.
type Field struct {
	Name   string // ASN.1 identifier
	GoName string
	GoType string // element type without the Rep wrapper ("uint32", "TerminationID", "[]byte", "[]Transaction")
	Rep    Rep
	In     map[int]*Component // version -> component
}

// Family is the parsed and resolved v1, v2, v3 schema.
type Family struct {
	Versions []*Version
	Types    []*GoType
	byName   map[string]*GoType
	// named gives the Go type name of each inline SEQUENCE/SET/CHOICE/
	// ENUMERATED type node, and of each assignment that defines one.
	named map[*Type]string
	// enumChecks holds the value sets of the enumerations the BER codec
	// checks (EmitBER collects them, EmitEnumChecks writes their
	// functions), one function per distinct set.
	enumChecks map[string][]int64
}

// Type returns the Go type called name, or nil.
func (f *Family) Type(name string) *GoType { return f.byName[name] }

// NewFamily resolves the modules (ordered by protocol version) into one
// union model.
func NewFamily(versions ...*Version) (*Family, error) {
	f := &Family{Versions: versions, byName: map[string]*GoType{}, named: map[*Type]string{}, enumChecks: map[string][]int64{}}
	for _, v := range versions {
		if err := v.applyTagging(); err != nil {
			return nil, err
		}
	}
	for _, v := range versions {
		for _, a := range v.Module.Assignments {
			if err := f.collect(v, goName(a.Name), a.Type); err != nil {
				return nil, err
			}
		}
	}
	for _, g := range f.Types {
		if err := f.unionFields(g); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// collect registers the named Go types that t defines, including those
// nested in its components.
func (f *Family) collect(v *Version, name string, t *Type) error {
	switch t.Kind {
	case KindSequence, KindSet, KindChoice, KindEnumerated:
		f.named[t] = name
		g := f.byName[name]
		if g == nil {
			g = &GoType{Name: name, Kind: t.Kind, Defs: map[int]*Type{}}
			f.byName[name] = g
			f.Types = append(f.Types, g)
		}
		if g.Kind != t.Kind {
			return fmt.Errorf("%s: %s is a %s in one version and a %s in another", v.Module.Name, name, g.Kind, t.Kind)
		}
		g.Defs[v.N] = t
		for _, c := range t.Components {
			if err := f.collect(v, name+goName(c.Name), c.Type); err != nil {
				return err
			}
		}
	case KindSequenceOf, KindSetOf:
		return f.collect(v, name+"Item", t.Elem)
	}
	return nil
}

func goName(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if r == '-' || r == '_' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}

// GoTypeOf returns the Go type (without optional wrapping) for t in
// version v.
func (f *Family) GoTypeOf(v *Version, t *Type) (string, error) {
	if n, ok := f.named[t]; ok {
		return n, nil
	}
	if t.Kind == KindRef {
		a := v.Module.Lookup(t.Ref)
		if a == nil {
			return "", fmt.Errorf("%s:%d:%d: undefined type %s", v.Module.Name, t.Line, t.Col, t.Ref)
		}
		return f.GoTypeOf(v, a.Type)
	}
	switch t.Kind {
	case KindSequenceOf, KindSetOf:
		e, err := f.GoTypeOf(v, t.Elem)
		return "[]" + e, err
	case KindInteger:
		if t.Value != nil && t.Value.HasLower && t.Value.Lower >= 0 && t.Value.HasUpper && t.Value.Upper <= 0xFFFFFFFF && !t.Value.Extensible {
			return "uint32", nil
		}
		return "int64", nil
	case KindBoolean:
		return "bool", nil
	case KindNull:
		return "struct{}", nil
	case KindBitString:
		return "BitString", nil
	case KindOctetString:
		return "Octets", nil
	case KindObjectIdentifier:
		return "ObjectIdentifier", nil
	}
	if t.Kind.IsString() {
		return "string", nil
	}
	return "", fmt.Errorf("%s:%d:%d: no Go type for %s", v.Module.Name, t.Line, t.Col, t.Kind)
}

func (f *Family) version(n int) *Version {
	for _, v := range f.Versions {
		if v.N == n {
			return v
		}
	}
	return nil
}

// unionFields merges the components of every version of g. Field order
// follows the newest version, with fields that only older versions have
// after them.
func (f *Family) unionFields(g *GoType) error {
	vs := g.Versions()
	if g.Kind == KindEnumerated {
		seen := map[string]int64{}
		for i := len(vs) - 1; i >= 0; i-- {
			for _, nn := range g.Defs[vs[i]].Named {
				if old, ok := seen[nn.Name]; ok {
					if old != nn.Value {
						return fmt.Errorf("%s.%s is %d in one version and %d in another", g.Name, nn.Name, old, nn.Value)
					}
					continue
				}
				seen[nn.Name] = nn.Value
				g.Enum = append(g.Enum, nn)
			}
		}
		return nil
	}
	// A component renamed only in letter case between versions (OTP v1's
	// ServiceChangeResParm.timeStamp is v2's timestamp) is one field, named
	// as the newest version names it.
	byName := map[string]*Field{}
	for i := len(vs) - 1; i >= 0; i-- {
		v := f.version(vs[i])
		for _, c := range g.Defs[v.N].Components {
			gt, err := f.GoTypeOf(v, c.Type)
			if err != nil {
				return err
			}
			fl := byName[strings.ToLower(c.Name)]
			if fl == nil {
				fl = &Field{Name: c.Name, GoName: goName(c.Name), GoType: gt, In: map[int]*Component{}}
				byName[strings.ToLower(c.Name)] = fl
				g.Fields = append(g.Fields, fl)
			} else if fl.GoType != gt {
				return fmt.Errorf("%s.%s is %s in v%d and %s in a later version", g.Name, c.Name, gt, v.N, fl.GoType)
			}
			fl.In[v.N] = c
		}
	}
	for _, fl := range g.Fields {
		optional := len(fl.In) < len(vs)
		for _, c := range fl.In {
			if c.Optional || c.Default != "" {
				optional = true
			}
		}
		fl.Rep = f.rep(fl.GoType, optional, g.Kind == KindChoice)
	}
	return nil
}

func (f *Family) rep(goType string, optional, alternative bool) Rep {
	g := f.byName[goType]
	structured := g != nil && g.Kind != KindEnumerated
	switch {
	case goType == "struct{}":
		return RepFlag
	case strings.HasPrefix(goType, "[]") || goType == "Octets":
		if optional {
			return RepNil
		}
		return RepValue
	case structured && (optional || alternative):
		return RepPointer
	case alternative:
		return RepValue
	case optional:
		return RepOpt
	}
	return RepValue
}
