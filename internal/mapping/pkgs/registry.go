// Package pkgs is the package registry for the Megaco/H.248 binary encoding:
// it maps the text names of packages, properties, events, signals,
// statistics and event/signal parameters to the IDs the ASN.1 form carries,
// and back.
//
// It exists because the text encoding names things ("al/on", "nt/jit",
// "dd/ce{ds=...}") while the binary encoding sends numbers: a PkgdName is 4
// octets (16-bit package ID, 16-bit item ID), a parameter name or a
// PackagesItem package name is a 2-octet Name. Nothing in either grammar
// links the two; the link is the package definitions (RFC 3525 Annex E and
// later), which this registry holds.
//
// The defaults are embedded from packages.tsv: every name Erlang/OTP megaco
// 4.4.2's v1/v2/v3 resolvers know, with the versions that know it. Private
// packages can be added at run time (Registry.Add, Registry.Load) on top of
// those. Lookups use maps built once; they do not allocate, and are safe to
// run concurrently with each other and with Add.
//
// Matching of text names ignores ASCII letter case (Annex B tokens are
// case-insensitive; OTP's own resolvers match case-sensitively after its text
// decoder lowercased the name, which is why OTP cannot transcode names like
// "root/maxNumberOfContexts"). Decoding returns the spelling of the table.
//
// Wildcards (docs/text-binary-mapping.md section 2.1): "pkg/*" is item 0xFFFF,
// "*/*" is 0xFFFFFFFF, and a parameter named "*" is 0xFFFF. CHOOSE ("$") is
// not allowed in names. Unlike OTP, the wildcard IDs also decode.
//
// Package ID 0x0000 holds the native Annex C property tags; their text names
// have no "pkg/" prefix ("IPv4", or the SDP letters "v", "o", ...).
//
// Values (section 3) are handled in value.go: see Profile.
package pkgs

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"sync/atomic"

	"megaco/internal/quote"
)

// Version is the protocol version of the message (1, 2 or 3). The name
// tables differ per version (OTP's v1 resolver lacks the dd digit events,
// root 0007-0008 appear in v2, some names only in v3).
type Version uint8

// versions is a bit set of versions: bit v-1 for version v.
type versions uint8

const allVersions versions = 1<<1 | 1<<0 | 1<<2

func (vs versions) has(v Version) bool { return v >= 1 && v <= 3 && vs&(1<<(v-1)) != 0 }

// String gives "version 2" or "versions 2, 3", for messages.
func (vs versions) String() string {
	var parts []string
	for v := Version(1); v <= 3; v++ {
		if vs.has(v) {
			parts = append(parts, fmt.Sprint(v))
		}
	}
	if len(parts) == 1 {
		return "version " + parts[0]
	}
	return "versions " + strings.Join(parts, ", ")
}

func maskOf(vs []Version) (versions, error) {
	if len(vs) == 0 {
		return allVersions, nil
	}
	var m versions
	for _, v := range vs {
		if v < 1 || v > 3 {
			return 0, fmt.Errorf("pkgs: version %d, want 1, 2 or 3", v)
		}
		m |= 1 << (v - 1)
	}
	return m, nil
}

// Kind is the kind of a package item, which decides which resolver table a
// name is looked up in (docs/text-binary-mapping.md section 2.1: properties,
// events, signals and statistics each have their own item IDs).
type Kind uint8

const (
	Property Kind = iota
	Event
	Signal
	Statistic
	numKinds
)

// kindNames are the kinds' names, by value.
var kindNames = [numKinds]string{"property", "event", "signal", "statistic"}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// PkgdName is the binary PkgdName: package ID then item ID, both big-endian.
type PkgdName [4]byte

// NewPkgdName builds a PkgdName from its two IDs.
func NewPkgdName(pkg, item uint16) PkgdName {
	return PkgdName{byte(pkg >> 8), byte(pkg), byte(item >> 8), byte(item)}
}

// ParsePkgdName checks that b is 4 octets and returns it as a PkgdName.
func ParsePkgdName(b []byte) (PkgdName, error) {
	if len(b) != 4 {
		return PkgdName{}, fmt.Errorf("pkgs: PkgdName has %d octets, want 4", len(b))
	}
	return PkgdName(b), nil
}

// Package returns the package ID.
func (n PkgdName) Package() uint16 { return uint16(n[0])<<8 | uint16(n[1]) }

// Item returns the item ID.
func (n PkgdName) Item() uint16 { return uint16(n[2])<<8 | uint16(n[3]) }

func (n PkgdName) String() string { return fmt.Sprintf("%04X%04X", n.Package(), n.Item()) }

// Name is the binary 2-octet Name used for parameter names and for
// PackagesItem.packageName.
type Name [2]byte

// NewName builds a Name from an ID.
func NewName(id uint16) Name { return Name{byte(id >> 8), byte(id)} }

// ParseName checks that b is 2 octets and returns it as a Name.
func ParseName(b []byte) (Name, error) {
	if len(b) != 2 {
		return Name{}, fmt.Errorf("pkgs: Name has %d octets, want 2", len(b))
	}
	return Name(b), nil
}

// ID returns the 16-bit value.
func (n Name) ID() uint16 { return uint16(n[0])<<8 | uint16(n[1]) }

func (n Name) String() string { return fmt.Sprintf("%04X", n.ID()) }

// WildText is the text wildcard for an item ("al/*"), both parts of a
// PkgdName ("*/*") and a parameter name ("*").
const WildText = "*"

const (
	wildID     = 0xFFFF // the binary form of WildText in an item or parameter ID
	allAllText = "*/*"  // text of PkgdName FFFFFFFF
)

// ErrUnknown is matched (errors.Is) by every error about a name or ID the
// registry does not have for the requested version and kind.
var ErrUnknown = errors.New("unknown name")

// UnknownError reports a name or ID that cannot be mapped.
type UnknownError struct {
	Version Version
	// What is the kind of thing: "package", "event", "signal parameter", ...
	What string
	// Name is the text name, or the ID in hex when decoding. A name
	// looked up is copied here: the registry keeps no string passed to
	// it, which may then be a view of bytes its caller reuses.
	Name string
	// Note adds what the registry does know, e.g. that the name is an event
	// and not a property, or which versions define it. May be empty.
	Note string
}

func (e *UnknownError) Error() string {
	s := fmt.Sprintf("megaco v%d: unknown %s %s", e.Version, e.What, quote.Clip(e.Name))
	if e.Note != "" {
		s += " (" + e.Note + ")"
	}
	return s
}

// Is makes errors.Is(err, ErrUnknown) true.
func (e *UnknownError) Is(target error) bool { return target == ErrUnknown }

// Registry maps names to IDs for the three protocol versions. The zero value
// holds the embedded defaults, like New.
type Registry struct {
	mu sync.Mutex             // serialises writers
	t  atomic.Pointer[tables] // published tables; never changed once stored
}

// tables is one immutable snapshot of the registry. Writers copy it, change
// the copy, and publish the copy (copy-on-write), so readers need no lock.
type tables struct {
	byName map[string]*pkgEntry // key: lowercase package name
	byID   map[uint16]*pkgEntry
}

type pkgEntry struct {
	name     string // "" for the native Annex C package 0x0000
	id       uint16
	vs       versions
	wildText string                          // "pkg/*"
	items    [numKinds]map[string]*itemEntry // key: lowercase item name
	itemIDs  [numKinds]map[uint16]*itemEntry
}

type itemEntry struct {
	name     string
	id       uint16
	full     string // "pkg/item", or "item" in the native package
	vs       versions
	typ      valueType
	params   map[string]*paramEntry // key: lowercase parameter name
	paramIDs map[uint16]*paramEntry
}

type paramEntry struct {
	name string
	id   uint16
	vs   versions
	typ  valueType
}

// load returns the current tables; a zero Registry has the defaults.
func (r *Registry) load() *tables {
	if t := r.t.Load(); t != nil {
		return t
	}
	return defaults()
}

// New returns a registry holding the embedded defaults (packages.tsv).
// Registries returned by New share the defaults until one of them is
// extended, so New is cheap.
func New() *Registry {
	r := &Registry{}
	r.t.Store(defaults())
	return r
}

// NewEmpty returns a registry with no packages.
func NewEmpty() *Registry {
	r := &Registry{}
	r.t.Store(&tables{byName: map[string]*pkgEntry{}, byID: map[uint16]*pkgEntry{}})
	return r
}

// Def is one definition to add: a package item, or (Param != "") a parameter
// of an event or signal. It is one row of packages.tsv.
type Def struct {
	Package   string // text name; "" for the native Annex C package 0x0000
	PackageID uint16
	Kind      Kind // of the item; Event or Signal for a parameter
	Item      string
	ItemID    uint16
	Param     string // "" unless this defines a parameter of Item
	ParamID   uint16
	// Type and Values use the syntax of the type and values_and_notes
	// columns of packages.tsv (e.g. "integer 0..99", "enumeration" with
	// "on=0x01 off=0x00"). They only matter for the rfc value profile; empty
	// means the type is not known.
	Type   string
	Values string
	// Versions lists the protocol versions that know the name; nil means
	// all of them.
	Versions []Version
}

// Add adds definitions on top of what r has. Either all are added or, on
// error, none. A definition conflicts, and is an error, when the name or ID
// it defines is already taken in its scope (package names and IDs; item
// names and IDs per package and kind; parameter names and IDs per item).
// A parameter needs its item to be defined first (in r or earlier in defs).
// Add may run while other goroutines look names up.
func (r *Registry) Add(defs ...Def) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.load().clone()
	for i := range defs {
		if err := t.add(&defs[i]); err != nil {
			return err
		}
	}
	r.t.Store(t)
	return nil
}

// clone copies every map and entry, so the copy can be changed freely.
func (t *tables) clone() *tables {
	c := &tables{byName: make(map[string]*pkgEntry, len(t.byName)), byID: make(map[uint16]*pkgEntry, len(t.byID))}
	for _, p := range t.byID {
		np := *p
		for k := range numKinds {
			np.items[k] = make(map[string]*itemEntry, len(p.items[k]))
			np.itemIDs[k] = make(map[uint16]*itemEntry, len(p.itemIDs[k]))
			for _, it := range p.itemIDs[k] {
				nit := *it
				nit.params = maps.Clone(it.params) // paramEntry values are never changed
				nit.paramIDs = maps.Clone(it.paramIDs)
				np.items[k][strings.ToLower(nit.name)] = &nit
				np.itemIDs[k][nit.id] = &nit
			}
		}
		c.byName[strings.ToLower(np.name)] = &np
		c.byID[np.id] = &np
	}
	return c
}

func badDef(d *Def, format string, args ...any) error {
	what := fmt.Sprintf("%s %s/%s", d.Kind, d.Package, d.Item)
	if d.Param != "" {
		what += " parameter " + d.Param
	}
	return fmt.Errorf("pkgs: cannot add %s: %s", what, fmt.Sprintf(format, args...))
}

// validName reports whether s can be a text name: non-empty SafeChars
// without "/" and not the wildcard.
func validName(s string) bool {
	if s == "" || s == WildText {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '/' || c == '=' || c == '{' || c == '}' || c == ',' {
			return false
		}
	}
	return true
}

func (t *tables) add(d *Def) error {
	vs, err := maskOf(d.Versions)
	if err != nil {
		return badDef(d, "%v", err)
	}
	if d.Kind >= numKinds {
		return badDef(d, "bad kind")
	}
	if d.Package == "" && d.PackageID != 0 || d.Package != "" && (d.PackageID == 0 || !validName(d.Package)) {
		return badDef(d, "package %q with ID %04X: the name must be a plain name, and only the native package 0000 has no name", d.Package, d.PackageID)
	}
	if d.PackageID == wildID || d.ItemID == wildID || d.Param != "" && d.ParamID == wildID {
		return badDef(d, "ID FFFF is the wildcard")
	}
	if !validName(d.Item) || d.Param != "" && !validName(d.Param) {
		return badDef(d, "names must be non-empty, without blanks, '/', '=', braces or ','")
	}
	typ, err := parseValueType(d.Type, d.Values)
	if err != nil {
		return badDef(d, "%v", err)
	}

	key := strings.ToLower(d.Package)
	p, q := t.byName[key], t.byID[d.PackageID]
	if p != q {
		if p != nil {
			return badDef(d, "package %s already has ID %04X", p.name, p.id)
		}
		return badDef(d, "package ID %04X already belongs to package %q", q.id, q.name)
	}
	if p == nil {
		p = &pkgEntry{name: d.Package, id: d.PackageID, wildText: d.Package + "/*"}
		for k := range numKinds {
			p.items[k] = map[string]*itemEntry{}
			p.itemIDs[k] = map[uint16]*itemEntry{}
		}
		t.byName[key] = p
		t.byID[p.id] = p
	}
	p.vs |= vs

	ikey := strings.ToLower(d.Item)
	it := p.items[d.Kind][ikey]
	if d.Param == "" {
		if it != nil {
			return badDef(d, "already defined with ID %04X", it.id)
		}
		if o := p.itemIDs[d.Kind][d.ItemID]; o != nil {
			return badDef(d, "ID %04X already belongs to %s %s", d.ItemID, d.Kind, o.full)
		}
		full := d.Item
		if d.Package != "" {
			full = d.Package + "/" + d.Item
		}
		it = &itemEntry{name: d.Item, id: d.ItemID, full: full, vs: vs, typ: typ}
		p.items[d.Kind][ikey] = it
		p.itemIDs[d.Kind][it.id] = it
		return nil
	}

	if d.Kind != Event && d.Kind != Signal {
		return badDef(d, "only events and signals have parameters")
	}
	if it == nil || it.id != d.ItemID {
		return badDef(d, "%s %s/%s with ID %04X is not defined", d.Kind, d.Package, d.Item, d.ItemID)
	}
	pkey := strings.ToLower(d.Param)
	if o := it.params[pkey]; o != nil {
		return badDef(d, "already defined with ID %04X", o.id)
	}
	if o := it.paramIDs[d.ParamID]; o != nil {
		return badDef(d, "ID %04X already belongs to parameter %s", d.ParamID, o.name)
	}
	if it.params == nil {
		it.params = map[string]*paramEntry{}
		it.paramIDs = map[uint16]*paramEntry{}
	}
	pe := &paramEntry{name: d.Param, id: d.ParamID, vs: vs, typ: typ}
	it.params[pkey] = pe
	it.paramIDs[pe.id] = pe
	return nil
}

// lookup finds s in m, ignoring ASCII case (keys are lowercase). It does not
// allocate: the lowercase copy lives on the stack, and the compiler does not
// copy a []byte converted to string only to index a map.
func lookup[V any](m map[string]V, s string) (V, bool) {
	if v, ok := m[s]; ok {
		return v, true
	}
	var buf [64]byte
	if len(s) > len(buf) {
		v, ok := m[strings.ToLower(s)]
		return v, ok
	}
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
			upper = true
		}
		buf[i] = c
	}
	if !upper {
		var zero V
		return zero, false
	}
	v, ok := m[string(buf[:len(s)])]
	return v, ok
}

func checkVersion(v Version) error {
	if v < 1 || v > 3 {
		return fmt.Errorf("pkgs: protocol version %d, want 1, 2 or 3", v)
	}
	return nil
}

func (t *tables) pkg(v Version, name string) (*pkgEntry, error) {
	if p, ok := lookup(t.byName, name); ok && name != "" {
		if p.vs.has(v) {
			return p, nil
		}
		return nil, &UnknownError{Version: v, What: "package", Name: strings.Clone(name), Note: "defined in " + p.vs.String()}
	}
	return nil, &UnknownError{Version: v, What: "package", Name: strings.Clone(name)}
}

// PackageID maps a package name to its ID, as a Name (PackagesItem.packageName).
func (r *Registry) PackageID(v Version, name string) (Name, error) {
	if err := checkVersion(v); err != nil {
		return Name{}, err
	}
	p, err := r.load().pkg(v, name)
	if err != nil {
		return Name{}, err
	}
	return NewName(p.id), nil
}

// PackageName maps a package ID back to the package's name.
func (r *Registry) PackageName(v Version, id Name) (string, error) {
	if err := checkVersion(v); err != nil {
		return "", err
	}
	if p := r.load().byID[id.ID()]; p != nil && p.name != "" && p.vs.has(v) {
		return p.name, nil
	}
	return "", &UnknownError{Version: v, What: "package ID", Name: id.String()}
}

// splitPkgd splits "pkg/item". A name without "/" is in the native
// package (native is true).
func splitPkgd(text string) (pkg, item string, native bool) {
	if i := strings.IndexByte(text, '/'); i >= 0 {
		return text[:i], text[i+1:], false
	}
	return "", text, true
}

// item finds a non-wildcard item and its package.
func (t *tables) item(v Version, k Kind, text string) (*pkgEntry, *itemEntry, error) {
	pkgName, itemName, native := splitPkgd(text)
	var p *pkgEntry
	if native {
		p = t.byID[0]
	} else if q, err := t.pkg(v, pkgName); err == nil {
		p = q
	}
	if p != nil {
		if it, ok := lookup(p.items[k], itemName); ok && it.vs.has(v) {
			return p, it, nil
		}
	}
	return nil, nil, t.unknownItem(v, k, text)
}

// unknownItem builds the error for an item that is not found, saying what
// the name is if it exists as another kind or in other versions.
func (t *tables) unknownItem(v Version, k Kind, text string) error {
	e := &UnknownError{Version: v, What: k.String(), Name: strings.Clone(text)}
	pkgName, itemName, native := splitPkgd(text)
	p, ok := lookup(t.byName, pkgName)
	if !ok || pkgName == "" && !native {
		if !native {
			e.Note = "no package " + quote.Clip(pkgName)
		}
		return e
	}
	if !p.vs.has(v) {
		e.Note = "package " + pkgName + " is defined in " + p.vs.String()
		return e
	}
	if it, ok := lookup(p.items[k], itemName); ok {
		e.Note = "defined in " + it.vs.String()
		return e
	}
	var others []string
	for k2 := range numKinds {
		if it, ok := lookup(p.items[k2], itemName); ok && it.vs.has(v) {
			a := "a "
			if k2 == Event {
				a = "an "
			}
			others = append(others, a+k2.String())
		}
	}
	if len(others) > 0 {
		e.Note = "it is " + strings.Join(others, " and ")
	}
	return e
}

// EncodePkgdName maps a text name of kind k ("al/on", "al/*", "*/*", or a
// native Annex C name such as "IPv4") to its PkgdName.
func (r *Registry) EncodePkgdName(v Version, k Kind, text string) (PkgdName, error) {
	if err := checkVersion(v); err != nil {
		return PkgdName{}, err
	}
	if k >= numKinds {
		return PkgdName{}, fmt.Errorf("pkgs: bad kind %d", k)
	}
	t := r.load()
	pkgName, itemName, native := splitPkgd(text)
	if !native && itemName == WildText {
		if pkgName == WildText {
			return NewPkgdName(wildID, wildID), nil
		}
		p, err := t.pkg(v, pkgName)
		if err != nil {
			return PkgdName{}, &UnknownError{Version: v, What: k.String(), Name: strings.Clone(text), Note: "no package " + quote.Clip(pkgName)}
		}
		return NewPkgdName(p.id, wildID), nil
	}
	if !native && pkgName == WildText {
		return PkgdName{}, &UnknownError{Version: v, What: k.String(), Name: strings.Clone(text), Note: "a package wildcard needs the item wildcard: */*"}
	}
	p, it, err := t.item(v, k, text)
	if err != nil {
		return PkgdName{}, err
	}
	return NewPkgdName(p.id, it.id), nil
}

// DecodePkgdName maps a PkgdName of kind k back to its text name.
func (r *Registry) DecodePkgdName(v Version, k Kind, n PkgdName) (string, error) {
	if err := checkVersion(v); err != nil {
		return "", err
	}
	it, p, err := r.load().itemByID(v, k, n)
	if err != nil {
		return "", err
	}
	if it == nil {
		if p == nil {
			return allAllText, nil
		}
		return p.wildText, nil
	}
	return it.full, nil
}

// itemByID finds an item by PkgdName. For "pkg/*" it returns (nil, p, nil);
// for "*/*" (nil, nil, nil).
func (t *tables) itemByID(v Version, k Kind, n PkgdName) (*itemEntry, *pkgEntry, error) {
	if k >= numKinds {
		return nil, nil, fmt.Errorf("pkgs: bad kind %d", k)
	}
	pid, iid := n.Package(), n.Item()
	if pid == wildID && iid == wildID {
		return nil, nil, nil
	}
	p := t.byID[pid]
	if p == nil || !p.vs.has(v) {
		return nil, nil, &UnknownError{Version: v, What: k.String(), Name: n.String(), Note: "no package with ID " + n.String()[:4]}
	}
	if iid == wildID && p.name != "" {
		return nil, p, nil
	}
	if it := p.itemIDs[k][iid]; it != nil && it.vs.has(v) {
		return it, p, nil
	}
	return nil, nil, &UnknownError{Version: v, What: k.String(), Name: n.String()}
}

// paramScope finds the event or signal whose parameters are looked up.
func (t *tables) paramScope(v Version, k Kind, parent PkgdName) (*itemEntry, error) {
	if k != Event && k != Signal {
		return nil, fmt.Errorf("pkgs: %s items have no parameters", k)
	}
	it, _, err := t.itemByID(v, k, parent)
	if err != nil {
		return nil, err
	}
	if it == nil {
		return nil, &UnknownError{Version: v, What: k.String(), Name: parent.String(), Note: "a wildcard has no parameters"}
	}
	return it, nil
}

// EncodeParam maps the name of a parameter of the event or signal parent
// (k is Event or Signal) to its 2-octet Name. "*" gives FFFF.
func (r *Registry) EncodeParam(v Version, k Kind, parent PkgdName, param string) (Name, error) {
	if err := checkVersion(v); err != nil {
		return Name{}, err
	}
	if param == WildText {
		return NewName(wildID), nil
	}
	it, err := r.load().paramScope(v, k, parent)
	if err != nil {
		return Name{}, err
	}
	if pe, ok := lookup(it.params, param); ok && pe.vs.has(v) {
		return NewName(pe.id), nil
	}
	e := &UnknownError{Version: v, What: k.String() + " parameter", Name: strings.Clone(param), Note: "of " + it.full}
	if pe, ok := lookup(it.params, param); ok {
		e.Note += ", defined in " + pe.vs.String()
	}
	return Name{}, e
}

// DecodeParam maps a parameter Name of the event or signal parent back to
// text. FFFF gives "*".
func (r *Registry) DecodeParam(v Version, k Kind, parent PkgdName, param Name) (string, error) {
	if err := checkVersion(v); err != nil {
		return "", err
	}
	if param.ID() == wildID {
		return WildText, nil
	}
	it, err := r.load().paramScope(v, k, parent)
	if err != nil {
		return "", err
	}
	if pe := it.paramIDs[param.ID()]; pe != nil && pe.vs.has(v) {
		return pe.name, nil
	}
	return "", &UnknownError{Version: v, What: k.String() + " parameter", Name: param.String(), Note: "of " + it.full}
}
