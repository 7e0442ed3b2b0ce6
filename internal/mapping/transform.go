// Package mapping converts a Megaco/H.248 message model between its two
// forms, as Erlang/OTP megaco's binary transformer does with its records:
//
//   - binary form: what BER and PER carry. A PkgdName is 4 octets, a Name 2,
//     a TerminationID is {wildcard octets, id octets}, Local/Remote content
//     is PropertyGroups named by Annex C tags, values are per profile.
//   - text form: what the text codec produces and consumes, holding the text
//     in the same fields: a TerminationID has no wildcard octets and its id
//     is the name as written ("11111111/00000000/00000000", "$", "root"), a
//     PkgdName holds "al/on", a Name "ds" or "nt", a DigitMapName
//     "dialplan00", a value its text ("40"), and each Local/Remote line is a
//     PropertyParm named by its SDP letter ("v") or property name.
//
// Everything else (context IDs, enumerations, MIds, numbers) is the same in
// both forms. The fields are found by the generated model.Walker, so no list
// of model types is kept here; docs/text-binary-mapping.md (sections 1 to 6 and
// 9) gives the rules.
package mapping

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"megaco/internal/mapping/pkgs"
	"megaco/internal/mapping/sdp"
	"megaco/internal/mapping/termid"
	"megaco/internal/model"
	"megaco/internal/quote"
)

// Config is the provisioning the mapping needs. The zero value (or a nil
// *Config) is Erlang/OTP megaco 4.4.2's behaviour, which produced the
// golden corpus.
type Config struct {
	// Profile says how values are carried in binary: pkgs.OTP (the zero
	// value) sends the text characters, pkgs.RFC double-wraps them with
	// their package type (RFC 3525 Annex A.2).
	Profile pkgs.Profile
	// Registry maps package, item and parameter names. Nil: the embedded
	// defaults (every name OTP's resolvers know).
	Registry *pkgs.Registry
	// Layout is the termination ID level layout. Nil: [8,8,8].
	Layout termid.Layout
	// DigitMapNames provisions digit map names and their 2-octet binary
	// names. They are tried first, in both directions (text names ignore
	// case; of several names for one ID, ToText gives the least); other
	// names follow OTP's convention "dialplanXY" = X-'0', Y-'0' (section 5.6).
	DigitMapNames map[string]uint16
	// PackMTP carries MTP addresses as RFC 3525 wants them: the 4 to 8 hex
	// digits of the text as 2 to 4 octets. False (OTP): the hex characters
	// themselves are the octets, and both forms hold the same thing.
	PackMTP bool
	// TermIDNames provisions textual termination IDs that the layout cannot
	// express (RFC 3525's "A4444"): name -> the ID in layout text form
	// ("00000001/00000000/00000001"). Names match without regard to case;
	// ToText gives the name back for the binary ID it maps to. Build it
	// with NewTermIDNames, which checks it.
	TermIDNames *TermIDNames
}

// Error kinds, for errors.Is. Every error of ToBinary and ToText is an
// *Error that matches one of them, and also the cause it wraps
// (pkgs.ErrUnknown, termid.ErrSyntax, pkgs.ErrNoType, ErrVersion...).
var (
	// ErrNoBinary: the text form has something the binary form cannot
	// carry with this configuration (an unknown name, a termination ID that
	// does not fit the layout, a value without a type in the rfc profile...).
	ErrNoBinary = errors.New("no binary form")
	// ErrNoText: the binary form has something the text form cannot hold
	// (an unknown ID, a property group the text could not delimit...).
	ErrNoText = errors.New("no text form")
	// ErrConfig: the configuration or the version is not usable.
	ErrConfig = errors.New("bad mapping configuration")
)

// ErrVersion is the cause of an ErrConfig for a protocol version other
// than 1, 2 or 3.
var ErrVersion = errors.New("protocol version not supported")

// Error is a field of the message that could not be mapped. The codec
// pipeline (internal/codec) hands it on as the codecs' one error type,
// codec "mapping"; its text reads alike.
type Error struct {
	Path  string // the field in the model ("mess.messageBody..."); "" for the whole message
	Msg   string // what was wrong
	Kind  error  // ErrNoBinary, ErrNoText or ErrConfig
	Cause error  // what the registry or a parser said, if anything
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "mapping: " + e.Msg
	}
	return "mapping: " + e.Path + ": " + e.Msg
}

// Unwrap lets errors.Is and errors.As see both the kind and the cause.
func (e *Error) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Cause}
}

func mapErr(path string, kind, cause error, msg string) *Error {
	return &Error{Path: path, Msg: msg, Kind: kind, Cause: cause}
}

var (
	defaultRegistry = pkgs.New()
	defaultLayout   = termid.Default()
)

// ToBinary converts m, in text form, to binary form in place, for protocol
// version 1, 2 or 3. On error, m is partly converted.
func ToBinary(m *model.MegacoMessage, version int, c *Config) error {
	return run(m, version, c, true)
}

// ToText converts m, in binary form, to text form in place. On error, m is
// partly converted.
func ToText(m *model.MegacoMessage, version int, c *Config) error {
	return run(m, version, c, false)
}

func run(m *model.MegacoMessage, version int, c *Config, toBinary bool) error {
	// Transformers are pooled for their scratch buffers and the walker's
	// stacks; the arena and the wildcard lists, which the converted
	// message points into, are not.
	t := transformers.Get().(*transformer)
	defer transformers.Put(t)
	t.arena, t.wilds = nil, nil
	return t.run(m, version, c, toBinary)
}

// A Converter converts messages in place with memory reused from one
// conversion to the next: what a conversion writes into a message is valid
// until the Converter's next conversion. A transcoding (decode, convert,
// encode, drop) then allocates nothing for the conversion. A message that
// points into a Converter's memory (converted by it before) must not be
// converted by it again: convert back with another Converter. The zero
// value is ready for use; a Converter is not safe for concurrent use.
type Converter struct{ t transformer }

// ToBinary is the package's ToBinary into the Converter's memory.
func (c *Converter) ToBinary(m *model.MegacoMessage, version int, cfg *Config) error {
	c.t.arena = c.t.arena[:0]
	return c.t.run(m, version, cfg, true)
}

// ToText is the package's ToText into the Converter's memory.
func (c *Converter) ToText(m *model.MegacoMessage, version int, cfg *Config) error {
	c.t.arena = c.t.arena[:0]
	return c.t.run(m, version, cfg, false)
}

func (t *transformer) run(m *model.MegacoMessage, version int, c *Config, toBinary bool) error {
	if c == nil {
		c = &noConfig
	}
	*t = transformer{c: c, reg: c.Registry, layout: c.Layout, toBin: toBinary, v: pkgs.Version(version),
		w: t.w, arena: t.arena, wilds: t.wilds[:0], tmp: t.tmp[:0], tmp2: t.tmp2[:0], tmp3: t.tmp3[:0]}
	if version < 1 || version > 3 {
		return mapErr("", ErrConfig, ErrVersion, fmt.Sprintf("protocol version %d, want 1, 2 or 3", version))
	}
	if c.Profile != pkgs.OTP && c.Profile != pkgs.RFC {
		return mapErr("", ErrConfig, nil, fmt.Sprintf("unknown value profile %s", c.Profile))
	}
	if t.reg == nil {
		t.reg = defaultRegistry
	}
	if t.layout == nil {
		t.layout = defaultLayout
	} else if err := t.layout.Validate(); err != nil {
		return mapErr("", ErrConfig, err, err.Error())
	}
	if m == nil {
		return mapErr("", ErrConfig, nil, "nil message")
	}
	t.w.V = t
	return t.w.Walk(m)
}

// view is a string over b's bytes for a lookup that does not keep it
// (no copy): the registry's lookups copy a name into their errors (see
// pkgs.UnknownError), and callers that may keep a string use a copy.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

var transformers = sync.Pool{New: func() any { return new(transformer) }}

// transformer is the visitor that converts one message.
type transformer struct {
	c      *Config
	reg    *pkgs.Registry
	layout termid.Layout
	v      pkgs.Version
	toBin  bool
	w      model.Walker
	arena  []byte         // results are carved from here, to allocate less
	wilds  []model.Octets // the wildcard lists of termination IDs, carved likewise
	tmp    []byte         // scratch
	tmp2   []byte         // scratch
	tmp3   []byte         // scratch
}

// alloc returns n fresh bytes.
func (t *transformer) alloc(n int) []byte {
	if len(t.arena)+n > cap(t.arena) {
		// A new block: what was carved from the old one stays valid. A
		// Converter keeps the last, largest block for the next message.
		t.arena = make([]byte, 0, max(2048, n, 2*cap(t.arena)))
	}
	i := len(t.arena)
	t.arena = t.arena[:i+n]
	return t.arena[i : i+n : i+n]
}

func (t *transformer) octets(b []byte) model.Octets {
	o := t.alloc(len(b))
	copy(o, b)
	return o
}

func (t *transformer) text(s string) model.Octets {
	o := t.alloc(len(s))
	copy(o, s)
	return o
}

// direction returns the kind for a failure in the current direction.
func (t *transformer) direction() error {
	if t.toBin {
		return ErrNoBinary
	}
	return ErrNoText
}

// fail builds an error at the field being visited; suffix extends its path.
func (t *transformer) fail(suffix string, cause error, format string, args ...any) error {
	return mapErr(t.w.Path()+suffix, t.direction(), cause, fmt.Sprintf(format, args...))
}

// failName reports a name or ID that cannot be mapped, saying plainly when
// the registry does not know it.
func (t *transformer) failName(suffix string, err error) error {
	var ue *pkgs.UnknownError
	if errors.As(err, &ue) {
		what := ue.What
		if !t.toBin && !strings.HasSuffix(what, " ID") {
			what += " ID"
		}
		msg := fmt.Sprintf("unknown %s %s in version %d", what, quote.Clip(ue.Name), ue.Version)
		if ue.Note != "" {
			msg += " (" + ue.Note + ")"
		}
		return t.fail(suffix, err, "%s", msg)
	}
	return t.fail(suffix, err, "%s", strings.TrimPrefix(err.Error(), "pkgs: "))
}

// itemKind tells, from its schema site, what a PkgdName names: the type it
// is declared with (EventName, SignalName), else its field name (statName,
// signalName, eventName), else the type that holds it (PropertyParm,
// RequestedEvent, IndAudSignal...).
func itemKind(s *model.WalkSite) (pkgs.Kind, bool) {
	switch s.Type {
	case "EventName":
		return pkgs.Event, true
	case "SignalName":
		return pkgs.Signal, true
	}
	for _, name := range []string{s.Field, s.Parent} {
		l := strings.ToLower(name)
		switch {
		case strings.Contains(l, "stat"):
			return pkgs.Statistic, true
		case strings.Contains(l, "signal"):
			return pkgs.Signal, true
		case strings.Contains(l, "event"):
			return pkgs.Event, true
		case strings.Contains(l, "property"):
			return pkgs.Property, true
		}
	}
	return 0, false
}

// isPackageName tells a Name site that names a package (PackagesItem,
// IndAudPackagesDescriptor) from one that names a parameter.
func isPackageName(s *model.WalkSite) bool {
	return strings.Contains(strings.ToLower(s.Field), "package")
}

// siteKinds is itemKind and isPackageName of every walk site, computed
// once: the walker hands out pointers into model.WalkSites.
var siteKinds = func() (out [len(model.WalkSites)]struct {
	kind      pkgs.Kind
	ok, isPkg bool
}) {
	for i := range model.WalkSites {
		s := &model.WalkSites[i]
		out[i].kind, out[i].ok = itemKind(s)
		out[i].isPkg = isPackageName(s)
	}
	return out
}()

func (t *transformer) kindOf(s *model.WalkSite) (pkgs.Kind, error) {
	sk := &siteKinds[s.Index]
	k, ok := sk.kind, sk.ok
	if !ok {
		return 0, t.fail("", nil, "internal: cannot tell what %s.%s names", s.Parent, s.Field)
	}
	return k, nil
}

// binaryItem returns the binary PkgdName of an enclosing item whose name
// has been converted already (so it is in the target form).
func (t *transformer) binaryItem(it model.WalkItem) (pkgs.PkgdName, pkgs.Kind, error) {
	k, err := t.kindOf(it.Site)
	if err != nil {
		return pkgs.PkgdName{}, 0, err
	}
	if t.toBin {
		n, err := pkgs.ParsePkgdName(*it.Name)
		return n, k, err
	}
	n, err := t.reg.EncodePkgdName(t.v, k, view(*it.Name))
	return n, k, err
}

// parentItem finds the nearest enclosing item named by a PkgdName, below
// the top skip items.
func (t *transformer) parentItem(skip int) (model.WalkItem, bool) {
	items := t.w.Items()
	for i := len(items) - 1 - skip; i >= 0; i-- {
		if items[i].Site.Target == model.WalkPkgdName {
			return items[i], true
		}
	}
	return model.WalkItem{}, false
}

// VisitTerminationID maps a termination ID through the layout (section 1).
func (t *transformer) VisitTerminationID(w *model.Walker, x *model.TerminationID) error {
	if t.toBin {
		if len(x.Wildcard) != 0 {
			return t.fail("", nil, "termination ID is not in text form: it has %d wildcard octets", len(x.Wildcard))
		}
		text := view(x.Id) // errors below copy it
		if alias, ok := t.c.TermIDNames.appendBinary(t.tmp3[:0], text); ok {
			t.tmp3 = alias
			text = view(alias)
		}
		wild, id, err := t.layout.AppendBinary(t.tmp[:0], t.tmp2[:0], text)
		if err != nil {
			return t.fail("", err, "termination ID %s is not a provisioned name and has no binary form with layout [%s]: %s", quote.Clip(text), t.layout, termidDetail(err))
		}
		t.tmp, t.tmp2 = wild, id
		if len(wild) == 0 {
			x.Wildcard = []model.Octets{}
		} else {
			ws, n := t.octets(wild), len(t.wilds)
			for i := range ws {
				t.wilds = append(t.wilds, ws[i:i+1:i+1])
			}
			x.Wildcard = t.wilds[n:len(t.wilds):len(t.wilds)]
		}
		x.Id = t.octets(id)
		return nil
	}
	wild := t.tmp[:0]
	for i, f := range x.Wildcard {
		if len(f) != 1 {
			return t.fail(fmt.Sprintf(".wildcard[%d]", i), nil, "a WildcardField has %d octets, want 1", len(f))
		}
		wild = append(wild, f[0])
	}
	t.tmp = wild
	out, err := t.layout.AppendText(t.tmp2[:0], wild, x.Id)
	t.tmp2 = out
	if err != nil {
		return t.fail("", err, "termination ID {wildcard %X, id %X} has no text form with layout [%s]: %s", wild, []byte(x.Id), t.layout, termidDetail(err))
	}
	if name, ok := t.c.TermIDNames.appendName(out); ok {
		out = name
	}
	x.Id = t.octets(out)
	x.Wildcard = nil
	return nil
}

func termidDetail(err error) string {
	var te *termid.Error
	if errors.As(err, &te) {
		if te.Level > 0 {
			return fmt.Sprintf("level %d %s", te.Level, te.Detail)
		}
		return te.Detail
	}
	return err.Error()
}

// VisitPkgdName maps the name of a property, event, signal or statistic
// (section 2).
func (t *transformer) VisitPkgdName(w *model.Walker, x *model.Octets) error {
	k, err := t.kindOf(w.Site())
	if err != nil {
		return err
	}
	if t.toBin {
		n, err := t.reg.EncodePkgdName(t.v, k, view(*x))
		if err != nil {
			return t.failName("", err)
		}
		*x = t.octets(n[:])
		return nil
	}
	n, err := pkgs.ParsePkgdName(*x)
	if err != nil {
		return t.fail("", err, "%s name %X is not a PkgdName: %d octets, want 4", k, []byte(*x), len(*x))
	}
	s, err := t.reg.DecodePkgdName(t.v, k, n)
	if err != nil {
		return t.failName("", err)
	}
	*x = t.text(s)
	return nil
}

// VisitName maps a parameter name (looked up in the parameters of the
// enclosing event or signal) or a package name (section 2).
func (t *transformer) VisitName(w *model.Walker, x *model.Octets) error {
	if siteKinds[w.Site().Index].isPkg {
		return t.mapName(x, "package",
			func(s string) (pkgs.Name, error) { return t.reg.PackageID(t.v, s) },
			func(n pkgs.Name) (string, error) { return t.reg.PackageName(t.v, n) })
	}
	parent, ok := t.parentItem(0)
	if !ok {
		return t.fail("", nil, "internal: parameter %s.%s is in no event or signal", w.Site().Parent, w.Site().Field)
	}
	pn, k, err := t.binaryItem(parent)
	if err != nil {
		return t.failName("", err)
	}
	return t.mapName(x, "parameter",
		func(s string) (pkgs.Name, error) { return t.reg.EncodeParam(t.v, k, pn, s) },
		func(n pkgs.Name) (string, error) { return t.reg.DecodeParam(t.v, k, pn, n) })
}

// mapName maps a name between its text form and its two-octet binary
// Name: toBin looks the text up, toText the Name; what says what kind of
// name it is in an error.
func (t *transformer) mapName(x *model.Octets, what string, toBin func(string) (pkgs.Name, error), toText func(pkgs.Name) (string, error)) error {
	if t.toBin {
		n, err := toBin(view(*x))
		if err != nil {
			return t.failName("", err)
		}
		*x = t.octets(n[:])
		return nil
	}
	n, err := pkgs.ParseName(*x)
	if err != nil {
		return t.fail("", err, "%s name %X is not a Name: %d octets, want 2", what, []byte(*x), len(*x))
	}
	s, err := toText(n)
	if err != nil {
		return t.failName("", err)
	}
	*x = t.text(s)
	return nil
}

const dialplan = "dialplan"

// VisitDigitMapName maps a digit map name: a provisioned one, or OTP's
// "dialplanXY" convention (section 5.6).
func (t *transformer) VisitDigitMapName(w *model.Walker, x *model.Octets) error {
	if t.toBin {
		s := view(*x) // errors below copy it
		for name, id := range t.c.DigitMapNames {
			if strings.EqualFold(name, s) {
				*x = t.octets([]byte{byte(id >> 8), byte(id)})
				return nil
			}
		}
		if len(s) <= len(dialplan) || len(s) > len(dialplan)+2 || !strings.EqualFold(s[:len(dialplan)], dialplan) {
			return t.fail("", nil, "digit map name %s has no binary form: it is not provisioned and not dialplanX or dialplanXY", quote.Clip(s))
		}
		var out [2]byte
		suffix := s[len(dialplan):]
		for i := range len(suffix) {
			c := suffix[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if !nameChar(c) {
				return t.fail("", nil, "digit map name %s has no binary form: %q after dialplan", quote.Clip(s), c)
			}
			out[2-len(suffix)+i] = c - '0'
		}
		*x = t.octets(out[:])
		return nil
	}
	if len(*x) != 2 {
		return t.fail("", nil, "digit map name %X is not a Name: %d octets, want 2", []byte(*x), len(*x))
	}
	id := uint16((*x)[0])<<8 | uint16((*x)[1])
	best, found := "", false
	for name, pid := range t.c.DigitMapNames {
		if pid == id && (!found || name < best) { // the same name every time
			best, found = name, true
		}
	}
	if found {
		*x = t.text(best)
		return nil
	}
	a, b := (*x)[0]+'0', (*x)[1]+'0'
	if (*x)[0] > 0xff-'0' || (*x)[1] > 0xff-'0' || !nameChar(a) || !nameChar(b) {
		return t.fail("", nil, "digit map name %04X has no text form: not provisioned, and dialplanXY gives no name", id)
	}
	o := t.alloc(len(dialplan) + 2)
	copy(o, dialplan)
	o[len(dialplan)], o[len(dialplan)+1] = a, b
	*x = o
	return nil
}

// nameChar reports whether c may end a digit map NAME as OTP's text decoder
// gives it (lower case).
func nameChar(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || c == '_'
}

// VisitValue maps the values of a property, parameter or statistic, or
// the ServiceChange reason (section 3). With the otp profile both forms hold
// the text characters, so nothing changes.
func (t *transformer) VisitValue(w *model.Walker, x *[]model.Octets) error {
	if t.c.Profile == pkgs.OTP {
		return nil
	}
	site := w.Site()
	items := w.Items()
	var own *model.WalkItem // the name of the item the value belongs to
	if n := len(items); n > 0 && items[n-1].Site.Parent == site.Parent {
		own = &items[n-1]
	}
	for i, val := range *x {
		suffix := fmt.Sprintf("[%d]", i)
		var err error
		var out []byte
		var s string
		switch {
		case own == nil:
			if t.toBin {
				out, err = pkgs.AppendStringValue(t.tmp[:0], t.c.Profile, string(val))
			} else {
				s, err = pkgs.DecodeStringValue(t.c.Profile, val)
			}
		case own.Site.Target == model.WalkPkgdName:
			name, k, e := t.binaryItem(*own)
			if e != nil {
				return t.failName(suffix, e)
			}
			if t.toBin {
				out, err = t.reg.AppendValue(t.tmp[:0], t.c.Profile, t.v, k, name, string(val))
			} else {
				s, err = t.reg.DecodeValue(t.c.Profile, t.v, k, name, val)
			}
		default: // a parameter
			parent, ok := t.parentItem(1)
			if !ok {
				return t.fail(suffix, nil, "internal: parameter value %s.%s is in no event or signal", site.Parent, site.Field)
			}
			pn, k, e := t.binaryItem(parent)
			if e != nil {
				return t.failName(suffix, e)
			}
			param, e := t.binaryParam(k, pn, *own)
			if e != nil {
				return t.failName(suffix, e)
			}
			if t.toBin {
				out, err = t.reg.AppendParamValue(t.tmp[:0], t.c.Profile, t.v, k, pn, param, string(val))
			} else {
				s, err = t.reg.DecodeParamValue(t.c.Profile, t.v, k, pn, param, val)
			}
		}
		if err != nil {
			return t.valueErr(suffix, val, err)
		}
		if t.toBin {
			t.tmp = out
			(*x)[i] = t.octets(out)
		} else {
			(*x)[i] = t.text(s)
		}
	}
	return nil
}

func (t *transformer) binaryParam(k pkgs.Kind, parent pkgs.PkgdName, it model.WalkItem) (pkgs.Name, error) {
	if t.toBin {
		return pkgs.ParseName(*it.Name)
	}
	return t.reg.EncodeParam(t.v, k, parent, view(*it.Name))
}

func (t *transformer) valueErr(suffix string, val []byte, err error) error {
	if errors.Is(err, pkgs.ErrUnknown) {
		return t.failName(suffix, err)
	}
	msg := strings.TrimPrefix(err.Error(), "pkgs: ")
	if t.toBin {
		return t.fail(suffix, err, "value %s has no binary form: %s", quote.Clip(string(val)), msg)
	}
	return t.fail(suffix, err, "value %X has no text form: %s", val, msg)
}

// VisitPropertyGroups maps Local/Remote content (section 4): each
// PropertyParm is an SDP line named by its letter, or a property.
func (t *transformer) VisitPropertyGroups(w *model.Walker, x *[][]model.PropertyParm) error {
	for g, group := range *x {
		if !t.toBin && len(group) == 0 {
			return t.fail(fmt.Sprintf("[%d]", g), nil, "an empty property group has no text form")
		}
		for i := range group {
			p := &group[i]
			if t.toBin {
				if err := t.sdpToBinary(g, i, p); err != nil {
					return err
				}
				continue
			}
			if err := t.sdpToText(g, i, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// groupAt is the path of property i of group g; built only for errors.
func groupAt(g, i int) string { return "[" + strconv.Itoa(g) + "][" + strconv.Itoa(i) + "]" }

func (t *transformer) sdpToBinary(g, i int, p *model.PropertyParm) error {
	name := string(p.Name)
	var pn pkgs.PkgdName
	if len(name) == 1 {
		tag, ok := sdp.Tag(name[0])
		if !ok {
			return t.fail(groupAt(g, i)+".name", sdp.ErrName, "SDP line %s has no binary form: not an SDP line type", quote.Clip(name+"="))
		}
		pn = pkgs.NewPkgdName(0, tag)
	} else {
		var err error
		if pn, err = t.reg.EncodePkgdName(t.v, pkgs.Property, name); err != nil {
			return t.failName(groupAt(g, i)+".name", err)
		}
	}
	p.Name = t.octets(pn[:])
	if t.c.Profile == pkgs.OTP {
		return nil
	}
	for j, val := range p.Value {
		out, err := t.reg.AppendValue(t.tmp[:0], t.c.Profile, t.v, pkgs.Property, pn, string(val))
		if err != nil {
			return t.valueErr(fmt.Sprintf("%s.value[%d]", groupAt(g, i), j), val, err)
		}
		t.tmp = out
		p.Value[j] = t.octets(out)
	}
	return nil
}

// noConfig is the defaults, for a nil Config: shared, never written.
var noConfig Config

func (t *transformer) sdpToText(g, i int, p *model.PropertyParm) error {
	pn, err := pkgs.ParsePkgdName(p.Name)
	if err != nil {
		return t.fail(groupAt(g, i)+".name", err, "property name %X is not a PkgdName: %d octets, want 4", []byte(p.Name), len(p.Name))
	}
	var name string
	if pn.Package() == 0 {
		name, _ = sdp.LetterName(pn.Item()) // no allocation
	}
	if name == "" {
		if name, err = t.reg.DecodePkgdName(t.v, pkgs.Property, pn); err != nil {
			return t.failName(groupAt(g, i)+".name", err)
		}
		if len(name) < 2 || strings.ContainsAny(name, "= \t\r\n") {
			return t.fail(groupAt(g, i)+".name", sdp.ErrNoText, "property %s (%s) cannot be a Local/Remote line name", pn, quote.Clip(name))
		}
	}
	switch {
	case g > 0 && i == 0 && name != "v":
		return t.fail(groupAt(g, i), sdp.ErrNoText, "property group %d has no text form: only the first group may start with something else than v= (here %s=)", g, name)
	case i > 0 && name == "v":
		return t.fail(groupAt(g, i), sdp.ErrNoText, "v= inside a property group has no text form: it would start a new group")
	case len(p.Value) != 1:
		return t.fail(groupAt(g, i)+".value", sdp.ErrNoText, "%s= with %d values has no text form: an SDP line has one", name, len(p.Value))
	case p.ExtraInfo != nil:
		return t.fail(groupAt(g, i)+".extraInfo", sdp.ErrNoText, "%s= with extraInfo has no text form", name)
	}
	val := []byte(p.Value[0])
	if t.c.Profile != pkgs.OTP {
		s, err := t.reg.DecodeValue(t.c.Profile, t.v, pkgs.Property, pn, val)
		if err != nil {
			return t.valueErr(groupAt(g, i)+".value[0]", val, err)
		}
		val = []byte(s)
	}
	if strings.ContainsAny(string(val), "\r\n") {
		return t.fail(groupAt(g, i)+".value[0]", sdp.ErrNoText, "%s= value %s has no text form: it contains a line end", quote.Clip(name), quote.Clip(string(val)))
	}
	p.Name = t.text(name)
	p.Value[0] = t.octets(val)
	return nil
}

// VisitMtpAddress maps an MTP address when Config.PackMTP is set
// (section 5.1): text "0A1B" (4 to 8 hex digits) <-> octets 0A 1B.
func (t *transformer) VisitMtpAddress(w *model.Walker, x *model.Octets) error {
	if !t.c.PackMTP {
		return nil
	}
	if t.toBin {
		s := string(*x)
		if len(s) < 4 || len(s) > 8 {
			return t.fail("", nil, "MTP address %s has no binary form: want 4 to 8 hex digits", quote.Clip(s))
		}
		if len(s)%2 == 1 {
			s = "0" + s
		}
		b, err := hex.DecodeString(s)
		if err != nil {
			return t.fail("", err, "MTP address %s has no binary form: not hex digits", quote.Clip(string(*x)))
		}
		*x = t.octets(b)
		return nil
	}
	if len(*x) < 2 || len(*x) > 4 {
		return t.fail("", nil, "MTP address %X has no text form: %d octets, want 2 to 4", []byte(*x), len(*x))
	}
	*x = t.text(strings.ToUpper(hex.EncodeToString(*x)))
	return nil
}
