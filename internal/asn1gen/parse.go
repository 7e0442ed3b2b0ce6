// Package asn1gen reads the ASN.1 modules of H.248.1 (v1, v2, v3) and
// generates the Go message model and its codecs from them, so that the
// schema has one source of truth: the modules in api/asn1.
//
// The parser understands the subset of X.680 that protocol modules like
// these use: type assignments with SEQUENCE, SET, CHOICE, SEQUENCE OF,
// SET OF, INTEGER (ranges and named numbers), ENUMERATED, BOOLEAN, NULL,
// BIT STRING (named bits), OCTET STRING and the restricted character
// strings, size and permitted-alphabet constraints, OPTIONAL and DEFAULT,
// extension markers and additions (including [[ ]] groups), and tags
// ([n], [APPLICATION n], IMPLICIT, EXPLICIT) under any module tagging
// default. Anything else is reported with its line and column, never
// skipped.
package asn1gen

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the built-in type a Type stands for.
type Kind int

const (
	KindRef Kind = iota // a reference to another assignment
	KindSequence
	KindSet
	KindChoice
	KindSequenceOf
	KindSetOf
	KindInteger
	KindEnumerated
	KindBoolean
	KindNull
	KindBitString
	KindOctetString
	KindIA5String
	KindVisibleString
	KindPrintableString
	KindUTF8String
	KindObjectIdentifier
)

var kindNames = [...]string{"reference", "SEQUENCE", "SET", "CHOICE", "SEQUENCE OF", "SET OF",
	"INTEGER", "ENUMERATED", "BOOLEAN", "NULL", "BIT STRING", "OCTET STRING",
	"IA5String", "VisibleString", "PrintableString", "UTF8String", "OBJECT IDENTIFIER"}

func (k Kind) String() string { return kindNames[k] }

// IsString reports whether k is one of the restricted character strings.
func (k Kind) IsString() bool { return k >= KindIA5String && k <= KindUTF8String }

// TagClass is the class of a BER tag.
type TagClass int

const (
	ClassUniversal TagClass = iota
	ClassApplication
	ClassContext
	ClassPrivate
)

// Tag is a tag written in the module ([n] and friends).
type Tag struct {
	Class    TagClass
	Number   int
	Explicit bool   // after applying the module default and the CHOICE rule
	Mode     string // "", "IMPLICIT" or "EXPLICIT" as written
}

// Range is a value or size constraint lb..ub. A nil Range is unconstrained.
type Range struct {
	Lower, Upper       int64
	HasLower, HasUpper bool
	Extensible         bool
}

// Fixed reports whether the range admits a single value.
func (r *Range) Fixed() bool {
	return r != nil && r.HasLower && r.HasUpper && r.Lower == r.Upper
}

// NamedNumber is a named INTEGER value, an ENUMERATED item or a named bit.
type NamedNumber struct {
	Name  string
	Value int64
	Ext   bool // ENUMERATED item after the extension marker
}

// Type is one ASN.1 type expression.
type Type struct {
	Kind Kind
	Ref  string // KindRef
	Tag  *Tag   // nil when untagged

	Components []*Component // SEQUENCE, SET, CHOICE
	Extensible bool         // has an extension marker
	Elem       *Type        // SEQUENCE OF, SET OF

	Value    *Range // INTEGER value constraint
	Size     *Range // size constraint (strings, BIT STRING, SEQUENCE OF)
	Alphabet string // permitted alphabet (FROM "..."), expanded
	Named    []NamedNumber

	Line, Col int
}

// Component is a field of a SEQUENCE or SET, or an alternative of a CHOICE.
type Component struct {
	Name     string
	Type     *Type
	Optional bool
	Default  string // the DEFAULT value as written, "" for none
	Ext      bool   // an extension addition
	Group    int    // extension addition group number (0 = not in a group)
}

// Assignment is "Name ::= Type".
type Assignment struct {
	Name string
	Type *Type
}

// Module is a parsed ASN.1 module.
type Module struct {
	Name        string
	Tagging     string // "AUTOMATIC", "IMPLICIT" or "EXPLICIT"
	ExtImplied  bool   // EXTENSIBILITY IMPLIED
	Assignments []*Assignment
	byName      map[string]*Assignment
}

// Lookup returns the assignment of name, or nil.
func (m *Module) Lookup(name string) *Assignment { return m.byName[name] }

// Parse parses one module. file is used in error messages.
func Parse(file string, src []byte) (*Module, error) {
	p := &parser{file: file, lx: lexer{src: src, line: 1, col: 1}}
	p.advance()
	m, err := p.module()
	if err != nil {
		return nil, err
	}
	return m, nil
}

type token struct {
	kind      byte // 'i' identifier, 'n' number, 's' string, 'p' punctuation, 0 EOF
	text      string
	line, col int
}

type lexer struct {
	src       []byte
	pos       int
	line, col int
}

func (l *lexer) peekByte(off int) byte {
	if l.pos+off < len(l.src) {
		return l.src[l.pos+off]
	}
	return 0
}

func (l *lexer) step(n int) {
	for i := 0; i < n && l.pos < len(l.src); i++ {
		if l.src[l.pos] == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
		l.pos++
	}
}

func isIdent(c byte) bool {
	return c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (l *lexer) next() (token, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f':
			l.step(1)
		case c == '-' && l.peekByte(1) == '-':
			// A comment runs to the next "--" or the end of the line.
			l.step(2)
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				if l.src[l.pos] == '-' && l.peekByte(1) == '-' {
					l.step(2)
					break
				}
				l.step(1)
			}
		case c == '/' && l.peekByte(1) == '*':
			l.step(2)
			for l.pos < len(l.src) && !(l.src[l.pos] == '*' && l.peekByte(1) == '/') {
				l.step(1)
			}
			l.step(2)
		default:
			return l.token()
		}
	}
	return token{line: l.line, col: l.col}, nil
}

func (l *lexer) token() (token, error) {
	t := token{line: l.line, col: l.col}
	c := l.src[l.pos]
	start := l.pos
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		for l.pos < len(l.src) && isIdent(l.src[l.pos]) {
			// A hyphen may not end an identifier nor be doubled (that starts a comment).
			if l.src[l.pos] == '-' && (!isIdent(l.peekByte(1)) || l.peekByte(1) == '-') {
				break
			}
			l.step(1)
		}
		t.kind, t.text = 'i', string(l.src[start:l.pos])
	case c >= '0' && c <= '9' || c == '-' && l.peekByte(1) >= '0' && l.peekByte(1) <= '9':
		l.step(1)
		for l.pos < len(l.src) && l.src[l.pos] >= '0' && l.src[l.pos] <= '9' {
			l.step(1)
		}
		t.kind, t.text = 'n', string(l.src[start:l.pos])
	case c == '"':
		l.step(1)
		for l.pos < len(l.src) && l.src[l.pos] != '"' {
			l.step(1)
		}
		if l.pos >= len(l.src) {
			return t, fmt.Errorf("%d:%d: unterminated string", t.line, t.col)
		}
		l.step(1)
		t.kind, t.text = 's', string(l.src[start+1:l.pos-1])
	default:
		for _, p := range []string{"::=", "...", "..", "[[", "]]"} {
			if strings.HasPrefix(string(l.src[l.pos:min(len(l.src), l.pos+3)]), p) {
				l.step(len(p))
				t.kind, t.text = 'p', p
				return t, nil
			}
		}
		if strings.IndexByte("{}()[],|^!", c) < 0 {
			return t, fmt.Errorf("%d:%d: unexpected character %q", t.line, t.col, c)
		}
		l.step(1)
		t.kind, t.text = 'p', string(c)
	}
	return t, nil
}

type parser struct {
	file string
	lx   lexer
	tok  token
	err  error
}

func (p *parser) advance() {
	if p.err != nil {
		return
	}
	t, err := p.lx.next()
	if err != nil {
		p.err = fmt.Errorf("%s:%w", p.file, err)
		p.tok = token{}
		return
	}
	p.tok = t
}

func (p *parser) errorf(format string, args ...any) error {
	if p.err != nil {
		return p.err
	}
	found := p.tok.text
	if p.tok.kind == 0 {
		found = "end of file"
	}
	return fmt.Errorf("%s:%d:%d: %s, found %q", p.file, p.tok.line, p.tok.col, fmt.Sprintf(format, args...), found)
}

func (p *parser) is(text string) bool { return p.tok.kind != 's' && p.tok.text == text }

func (p *parser) accept(text string) bool {
	if p.is(text) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) expect(text string) error {
	if !p.accept(text) {
		return p.errorf("expected %q", text)
	}
	return p.err
}

func (p *parser) ident() (string, error) {
	if p.tok.kind != 'i' {
		return "", p.errorf("expected an identifier")
	}
	s := p.tok.text
	p.advance()
	return s, p.err
}

func (p *parser) number() (int64, error) {
	if p.tok.kind != 'n' {
		return 0, p.errorf("expected a number")
	}
	v, err := strconv.ParseInt(p.tok.text, 10, 64)
	if err != nil {
		return 0, p.errorf("number out of range")
	}
	p.advance()
	return v, p.err
}

func (p *parser) module() (*Module, error) {
	m := &Module{Tagging: "EXPLICIT", byName: map[string]*Assignment{}}
	var err error
	if m.Name, err = p.ident(); err != nil {
		return nil, err
	}
	if p.accept("{") { // object identifier: skipped, it does not affect encodings
		for depth := 1; depth > 0; p.advance() {
			switch {
			case p.tok.kind == 0:
				return nil, p.errorf("unterminated module identifier")
			case p.is("{"):
				depth++
			case p.is("}"):
				depth--
			}
		}
	}
	if err := p.expect("DEFINITIONS"); err != nil {
		return nil, err
	}
	for !p.is("::=") {
		switch {
		case p.accept("AUTOMATIC"), p.is("IMPLICIT"), p.is("EXPLICIT"):
			if p.tok.text == "TAGS" || p.tok.text == "AUTOMATIC" {
				m.Tagging = "AUTOMATIC"
			} else {
				m.Tagging = p.tok.text
				p.advance()
			}
			if err := p.expect("TAGS"); err != nil {
				return nil, err
			}
		case p.accept("EXTENSIBILITY"):
			if err := p.expect("IMPLIED"); err != nil {
				return nil, err
			}
			m.ExtImplied = true
		default:
			return nil, p.errorf("expected tagging default or \"::=\"")
		}
	}
	p.advance()
	if err := p.expect("BEGIN"); err != nil {
		return nil, err
	}
	if p.is("IMPORTS") || p.is("EXPORTS") {
		return nil, p.errorf("IMPORTS/EXPORTS are not supported")
	}
	for !p.is("END") {
		if p.tok.kind == 0 {
			return nil, p.errorf("expected END")
		}
		name, err := p.ident()
		if err != nil {
			return nil, err
		}
		if name[0] < 'A' || name[0] > 'Z' {
			return nil, p.errorf("value assignments are not supported (%s)", name)
		}
		if err := p.expect("::="); err != nil {
			return nil, err
		}
		t, err := p.typ()
		if err != nil {
			return nil, err
		}
		if m.byName[name] != nil {
			return nil, fmt.Errorf("%s: %s is assigned twice", p.file, name)
		}
		a := &Assignment{Name: name, Type: t}
		m.Assignments = append(m.Assignments, a)
		m.byName[name] = a
	}
	return m, p.err
}

func (p *parser) typ() (*Type, error) {
	line, col := p.tok.line, p.tok.col
	var tag *Tag
	if p.accept("[") {
		tag = &Tag{Class: ClassContext}
		switch {
		case p.accept("APPLICATION"):
			tag.Class = ClassApplication
		case p.accept("PRIVATE"):
			tag.Class = ClassPrivate
		case p.accept("UNIVERSAL"):
			tag.Class = ClassUniversal
		}
		n, err := p.number()
		if err != nil {
			return nil, err
		}
		tag.Number = int(n)
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		if p.is("IMPLICIT") || p.is("EXPLICIT") {
			tag.Mode = p.tok.text
			p.advance()
		}
	}
	t, err := p.builtin()
	if err != nil {
		return nil, err
	}
	t.Tag, t.Line, t.Col = tag, line, col
	if err := p.constraints(t); err != nil {
		return nil, err
	}
	return t, nil
}

func (p *parser) builtin() (*Type, error) {
	if pt, ok := plainTypes[p.tok.text]; ok && p.tok.kind != 's' {
		p.advance()
		if pt.then != "" {
			if err := p.expect(pt.then); err != nil {
				return nil, err
			}
		}
		return &Type{Kind: pt.kind}, nil
	}
	switch {
	case p.accept("SEQUENCE"), p.is("SET"):
		kind := KindSequence
		if p.accept("SET") {
			kind = KindSet
		}
		if p.is("SIZE") || p.is("(") {
			t := &Type{Kind: KindSequenceOf}
			if kind == KindSet {
				t.Kind = KindSetOf
			}
			if err := p.constraints(t); err != nil {
				return nil, err
			}
			if err := p.expect("OF"); err != nil {
				return nil, err
			}
			elem, err := p.typ()
			t.Elem = elem
			return t, err
		}
		if p.accept("OF") {
			elem, err := p.typ()
			if kind == KindSet {
				return &Type{Kind: KindSetOf, Elem: elem}, err
			}
			return &Type{Kind: KindSequenceOf, Elem: elem}, err
		}
		return p.components(kind)
	case p.accept("CHOICE"):
		return p.components(KindChoice)
	case p.accept("INTEGER"):
		return p.namedType(KindInteger)
	case p.accept("ENUMERATED"):
		t := &Type{Kind: KindEnumerated}
		named, ext, err := p.namedNumbers(true)
		t.Named, t.Extensible = named, ext
		return t, err
	case p.accept("BIT"):
		if err := p.expect("STRING"); err != nil {
			return nil, err
		}
		return p.namedType(KindBitString)
	case p.tok.kind == 'i' && p.tok.text[0] >= 'A' && p.tok.text[0] <= 'Z':
		name := p.tok.text
		if unsupportedTypes[name] {
			return nil, p.errorf("unsupported built-in type %s", name)
		}
		p.advance()
		return &Type{Kind: KindRef, Ref: name}, p.err
	}
	return nil, p.errorf("expected a type")
}

// plainTypes are the built-in types with nothing after their name, by
// the name's first word, with the second word that must follow it in a
// two-word name.
var plainTypes = map[string]struct {
	then string
	kind Kind
}{
	"BOOLEAN": {"", KindBoolean}, "NULL": {"", KindNull}, "OCTET": {"STRING", KindOctetString},
	"OBJECT": {"IDENTIFIER", KindObjectIdentifier}, "IA5String": {"", KindIA5String},
	"VisibleString": {"", KindVisibleString}, "PrintableString": {"", KindPrintableString},
	"UTF8String": {"", KindUTF8String},
}

// unsupportedTypes are X.680 built-in types the H.248 modules do not use.
var unsupportedTypes = map[string]bool{
	"REAL": true, "ANY": true, "EXTERNAL": true, "EMBEDDED": true, "CHARACTER": true,
	"INSTANCE": true, "RELATIVE-OID": true, "GeneralizedTime": true, "UTCTime": true,
	"NumericString": true, "TeletexString": true, "T61String": true, "VideotexString": true,
	"GraphicString": true, "GeneralString": true, "UniversalString": true, "BMPString": true,
	"ObjectDescriptor": true, "DATE": true, "TIME": true,
}

// namedType returns a type of kind (INTEGER, BIT STRING) with the named
// numbers that may follow it.
func (p *parser) namedType(kind Kind) (*Type, error) {
	t := &Type{Kind: kind}
	if p.is("{") {
		named, _, err := p.namedNumbers(false)
		if err != nil {
			return nil, err
		}
		t.Named = named
	}
	return t, nil
}

// namedNumbers parses "{ a(1), b(2), ... }". For ENUMERATED, items without
// a number get the next free one (X.680 20.3), and "..." marks the rest as
// extension items.
func (p *parser) namedNumbers(enum bool) ([]NamedNumber, bool, error) {
	if err := p.expect("{"); err != nil {
		return nil, false, err
	}
	var out []NamedNumber
	ext := false
	used := map[int64]bool{}
	for {
		if p.accept("...") {
			if !enum || ext {
				return nil, false, p.errorf("unexpected extension marker")
			}
			ext = true
		} else {
			name, err := p.ident()
			if err != nil {
				return nil, false, err
			}
			nn := NamedNumber{Name: name, Value: -1, Ext: ext}
			if p.accept("(") {
				if nn.Value, err = p.number(); err != nil {
					return nil, false, err
				}
				if err := p.expect(")"); err != nil {
					return nil, false, err
				}
			} else if !enum {
				return nil, false, p.errorf("expected a number for %s", name)
			}
			if nn.Value >= 0 {
				used[nn.Value] = true
			}
			out = append(out, nn)
		}
		if p.accept("}") {
			break
		}
		if err := p.expect(","); err != nil {
			return nil, false, err
		}
	}
	// Number the items that were written without one.
	next := int64(0)
	for i := range out {
		if out[i].Value >= 0 {
			continue
		}
		for used[next] {
			next++
		}
		out[i].Value = next
		used[next] = true
	}
	return out, ext, nil
}

func (p *parser) components(kind Kind) (*Type, error) {
	t := &Type{Kind: kind}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	markers, group := 0, 0
	for !p.is("}") {
		switch {
		case p.accept("..."):
			markers++
			t.Extensible = true
			if markers > 2 {
				return nil, p.errorf("more than two extension markers")
			}
			if p.accept("!") {
				return nil, p.errorf("exception specifications are not supported")
			}
		case p.accept("[["):
			if markers != 1 {
				return nil, p.errorf("extension addition group outside the extensions")
			}
			group++
			if p.tok.kind == 'n' && p.lx.peekByte(0) == ':' {
				return nil, p.errorf("version numbers on addition groups are not supported")
			}
			for !p.is("]]") {
				c, err := p.component(kind)
				if err != nil {
					return nil, err
				}
				c.Ext, c.Group = true, group
				t.Components = append(t.Components, c)
				if !p.accept(",") && !p.is("]]") {
					return nil, p.errorf("expected \",\" or \"]]\"")
				}
			}
			p.advance()
		default:
			c, err := p.component(kind)
			if err != nil {
				return nil, err
			}
			c.Ext = markers == 1
			if markers == 2 {
				// Components after the second marker belong to the root;
				// put them before the additions so that tag numbering
				// and encodings see the root first.
				i := 0
				for i < len(t.Components) && !t.Components[i].Ext {
					i++
				}
				t.Components = append(t.Components[:i], append([]*Component{c}, t.Components[i:]...)...)
			} else {
				t.Components = append(t.Components, c)
			}
		}
		if p.is("}") {
			break
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
	}
	p.advance()
	seen := map[string]bool{}
	for _, c := range t.Components {
		if seen[c.Name] {
			return nil, fmt.Errorf("%s:%d:%d: component %s appears twice", p.file, t.Line, t.Col, c.Name)
		}
		seen[c.Name] = true
	}
	return t, p.err
}

func (p *parser) component(kind Kind) (*Component, error) {
	name, err := p.ident()
	if err != nil {
		return nil, err
	}
	if name[0] < 'a' || name[0] > 'z' {
		return nil, p.errorf("COMPONENTS OF and unnamed components are not supported")
	}
	t, err := p.typ()
	if err != nil {
		return nil, err
	}
	c := &Component{Name: name, Type: t}
	if kind == KindChoice {
		return c, nil
	}
	switch {
	case p.accept("OPTIONAL"):
		c.Optional = true
	case p.accept("DEFAULT"):
		switch p.tok.kind {
		case 'i', 'n':
			c.Default = p.tok.text
			p.advance()
		default:
			return nil, p.errorf("expected a DEFAULT value")
		}
	}
	return c, p.err
}

// constraints parses any number of "( ... )" constraints after a type.
func (p *parser) constraints(t *Type) error {
	for p.is("(") {
		p.advance()
		if err := p.constraint(t); err != nil {
			return err
		}
		if err := p.expect(")"); err != nil {
			return err
		}
	}
	if p.is("SIZE") && (t.Kind == KindSequenceOf || t.Kind == KindSetOf) {
		// "SEQUENCE SIZE (1..4) OF X"
		p.advance()
		return p.size(t)
	}
	return p.err
}

// inParens parses "(" what ")".
func (p *parser) inParens(what func() error) error {
	if err := p.expect("("); err != nil {
		return err
	}
	if err := what(); err != nil {
		return err
	}
	return p.expect(")")
}

// size parses the "(range)" after SIZE into t.Size.
func (p *parser) size(t *Type) error {
	return p.inParens(func() (err error) {
		t.Size, err = p.rangeSpec()
		return err
	})
}

func (p *parser) constraint(t *Type) error {
	for {
		switch {
		case p.accept("SIZE"):
			if err := p.size(t); err != nil {
				return err
			}
		case p.accept("FROM"):
			err := p.inParens(func() (err error) {
				t.Alphabet, err = p.alphabet()
				return err
			})
			if err != nil {
				return err
			}
		default:
			r, err := p.rangeSpec()
			if err != nil {
				return err
			}
			t.Value = r
		}
		// "SIZE(..) ^ FROM(..)" or "SIZE (..) FROM (..)" may be combined.
		if !p.accept("^") && !p.is("SIZE") && !p.is("FROM") {
			return p.err
		}
	}
}

// alphabet parses "\"abc\" | \"0\"..\"9\"".
func (p *parser) alphabet() (string, error) {
	var b strings.Builder
	for {
		if p.tok.kind != 's' {
			return "", p.errorf("expected a quoted alphabet")
		}
		first := p.tok.text
		p.advance()
		if p.accept("..") {
			if p.tok.kind != 's' || len(first) != 1 || len(p.tok.text) != 1 {
				return "", p.errorf("expected a one-character range end")
			}
			for c := first[0]; c <= p.tok.text[0]; c++ {
				b.WriteByte(c)
			}
			p.advance()
		} else {
			b.WriteString(first)
		}
		if !p.accept("|") {
			return b.String(), p.err
		}
	}
}

func (p *parser) rangeSpec() (*Range, error) {
	r := &Range{}
	bound := func() (int64, bool, error) {
		if p.accept("MIN") || p.accept("MAX") {
			return 0, false, nil
		}
		v, err := p.number()
		return v, true, err
	}
	var err error
	if r.Lower, r.HasLower, err = bound(); err != nil {
		return nil, err
	}
	if p.accept("..") {
		if r.Upper, r.HasUpper, err = bound(); err != nil {
			return nil, err
		}
	} else {
		r.Upper, r.HasUpper = r.Lower, r.HasLower
	}
	if p.accept(",") {
		if err := p.expect("..."); err != nil {
			return nil, err
		}
		r.Extensible = true
	}
	return r, p.err
}
