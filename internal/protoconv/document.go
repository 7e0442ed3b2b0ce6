package protoconv

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"

	pb "megaco/api/megaco/v1"
	"megaco/internal/codec"
	"megaco/internal/model"
)

// The decode document is the one readable JSON shape of a decoded message,
// for gRPC (DecodeResponse.document), HTTP (/v1/decode) and megaco decode.
// It is written from the API mirror, so it has its field names and
// nesting, with readable values where protobuf's JSON mapping would give
// base64:
//
//   - every OCTET STRING is its text when it is UTF-8 without control
//     characters (and does not start with "0x"), else "0x" and hex; in text
//     form that makes every name, termination ID, digit map name and value
//     readable, since the model holds them as written;
//   - IP4Address and IP6Address addresses are dotted and RFC 5952 text;
//   - the context IDs 0, 0xFFFFFFFE and 0xFFFFFFFF are "-", "$" and "*" in
//     text form (and always present: the null context is 0), and get a
//     contextIdText beside the number in binary form;
//   - in binary form, the fields the model.Walker visits (its sites: package
//     and item names, parameter and package names, digit map names,
//     termination IDs, values, Local/Remote property groups) are shown as
//     the binary carries them, IDs as "0x" and hex, followed by their text
//     form (what the mapping gives, with the registry, layout and names in
//     use) in a field of the same JSON name plus "Text". A field the mapping
//     cannot convert (an ID the registry does not know) has no Text field.
//
// Reversible: every field of the mirror is in the document, octets in a
// form that gives them back (text as its UTF-8 bytes, "0x..." as hex), and
// FromDocument reads it back into the message (dropping the Text fields,
// turning "-", "$", "*" and the addresses back into their numbers and
// octets). A generic JSON reader cannot: telling text from "0x" hex needs
// the rule above, and which fields are addresses or context IDs the schema.

// Document renders m, which is in form (codec.Text or codec.Binary), as the
// decode document. opts gives the mapping (registry, layout, names,
// profile) used to name binary IDs; opts.Version 0 is m's version.
func Document(m *model.MegacoMessage, form codec.Form, opts codec.Options) (*structpb.Struct, error) {
	d := &document{text: form == codec.Text}
	mirror := ToProto(m)
	if !d.text {
		if err := d.nameSites(m, opts); err != nil {
			return nil, err
		}
		mirror = ToProto(d.marked)
	}
	return d.message(mirror.ProtoReflect()), nil
}

// document is one rendering. In binary form, the walker sites of a copy of
// the message (marked) hold markers: a nonce (so that no input can forge
// one) and the index of the site's entry in sites.
type document struct {
	text   bool
	failed bool // the conversion to text form failed part way
	nonce  [8]byte
	marked *model.MegacoMessage
	sites  []site
}

// site is an octet string the walker visited, in binary form.
type site struct {
	octets model.Octets
	id     bool   // an ID: shown as hex whatever its octets
	text   string // its text form
	named  bool   // text is set
}

const markerLen = 8 + 4

// nameSites copies m twice: one copy converted to text form gives the
// names, the other has its sites replaced by markers. Both are walked in
// the same order, so the n-th visit of one is the n-th of the other.
func (d *document) nameSites(m *model.MegacoMessage, opts codec.Options) error {
	if _, err := rand.Read(d.nonce[:]); err != nil {
		return err
	}
	text := FromProto(ToProto(m))
	// A conversion error leaves the rest of the copy in binary form: those
	// sites get no names (names are compared with the binary below).
	d.failed = codec.Convert(text, codec.Binary, codec.Text, opts) != nil
	var tc collector
	w := model.Walker{V: &tc}
	if err := w.Walk(text); err != nil {
		return err
	}
	d.marked = FromProto(ToProto(m))
	mk := marker{d: d, texts: tc.visits}
	w = model.Walker{V: &mk}
	return w.Walk(d.marked)
}

// visit is what a site holds: one octet string per element (an ID, a
// termination ID's id, a value's strings, a property group's names and
// values in order).
type visit struct {
	site   int
	octets []model.Octets
}

// collector lists the visits of the text copy.
type collector struct{ visits []visit }

func (c *collector) add(w *model.Walker, o ...model.Octets) error {
	c.visits = append(c.visits, visit{site: w.Site().Index, octets: o})
	return nil
}

func (c *collector) VisitTerminationID(w *model.Walker, x *model.TerminationID) error {
	return c.add(w, x.Id)
}
func (c *collector) VisitPkgdName(w *model.Walker, x *model.Octets) error     { return c.add(w, *x) }
func (c *collector) VisitName(w *model.Walker, x *model.Octets) error         { return c.add(w, *x) }
func (c *collector) VisitDigitMapName(w *model.Walker, x *model.Octets) error { return c.add(w, *x) }
func (c *collector) VisitValue(w *model.Walker, x *[]model.Octets) error      { return c.add(w, *x...) }
func (c *collector) VisitMtpAddress(w *model.Walker, x *model.Octets) error   { return c.add(w, *x) }
func (c *collector) VisitPropertyGroups(w *model.Walker, x *[][]model.PropertyParm) error {
	var o []model.Octets
	for _, g := range *x {
		for _, p := range g {
			o = append(o, p.Name)
			o = append(o, p.Value...)
		}
	}
	return c.add(w, o...)
}

// marker replaces the sites of the marked copy, pairing each with the
// text copy's visit of the same position.
type marker struct {
	d     *document
	texts []visit
	n     int // visits so far
	elem  int // octet strings of the current visit so far
	cur   *visit
}

// begin starts a visit of n octet strings.
func (k *marker) begin(w *model.Walker, n int) {
	k.cur, k.elem = nil, 0
	if k.n < len(k.texts) && k.texts[k.n].site == w.Site().Index && len(k.texts[k.n].octets) == n {
		k.cur = &k.texts[k.n]
	}
	k.n++
}

// mark records o as a site and replaces it with its marker.
func (k *marker) mark(o *model.Octets, id bool) {
	s := site{octets: *o, id: id}
	if k.cur != nil && k.elem < len(k.cur.octets) {
		t := k.cur.octets[k.elem]
		// Unconverted (the mapping failed before it): no name. A value
		// cannot be told from its unconverted form: none after a failure.
		if (id && string(t) != string(*o)) || (!id && !k.d.failed) {
			s.text, s.named = string(t), true
		}
	}
	k.elem++
	m := make(model.Octets, markerLen)
	copy(m, k.d.nonce[:])
	binary.BigEndian.PutUint32(m[8:], uint32(len(k.d.sites)))
	k.d.sites = append(k.d.sites, s)
	*o = m
}

func (k *marker) VisitTerminationID(w *model.Walker, x *model.TerminationID) error {
	k.begin(w, 1)
	k.mark(&x.Id, true)
	return nil
}

func (k *marker) visitID(w *model.Walker, x *model.Octets) error {
	k.begin(w, 1)
	k.mark(x, true)
	return nil
}

func (k *marker) VisitPkgdName(w *model.Walker, x *model.Octets) error     { return k.visitID(w, x) }
func (k *marker) VisitName(w *model.Walker, x *model.Octets) error         { return k.visitID(w, x) }
func (k *marker) VisitDigitMapName(w *model.Walker, x *model.Octets) error { return k.visitID(w, x) }

// VisitMtpAddress leaves the address alone: its octets are shown as they
// are (hex digits as text in the otp profile, packed octets in rfc).
func (k *marker) VisitMtpAddress(w *model.Walker, x *model.Octets) error {
	k.begin(w, 1)
	return nil
}

func (k *marker) VisitValue(w *model.Walker, x *[]model.Octets) error {
	k.begin(w, len(*x))
	for i := range *x {
		k.mark(&(*x)[i], false)
	}
	return nil
}

func (k *marker) VisitPropertyGroups(w *model.Walker, x *[][]model.PropertyParm) error {
	n := 0
	for _, g := range *x {
		for _, p := range g {
			n += 1 + len(p.Value)
		}
	}
	k.begin(w, n)
	for _, g := range *x {
		for i := range g {
			k.mark(&g[i].Name, true)
			for j := range g[i].Value {
				k.mark(&g[i].Value[j], false)
			}
		}
	}
	return nil
}

// siteOf returns the site a marker stands for.
func (d *document) siteOf(b []byte) (*site, bool) {
	if d.text || len(b) != markerLen || string(b[:8]) != string(d.nonce[:]) {
		return nil, false
	}
	i := binary.BigEndian.Uint32(b[8:])
	if int(i) >= len(d.sites) {
		return nil, false
	}
	return &d.sites[i], true
}

// Special context IDs (RFC 3525 Annex B: "-", "$", "*").
var contextText = map[uint64]string{0: "-", 0xFFFFFFFE: "$", 0xFFFFFFFF: "*"}

func (d *document) message(m protoreflect.Message) *structpb.Struct {
	out := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	md := m.Descriptor()
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		name := fd.JSONName()
		if fd.Name() == "context_id" && fd.Kind() == protoreflect.Uint32Kind {
			// Always present: 0 is the null context, not an absent one.
			id := m.Get(fd).Uint()
			t, special := contextText[id]
			switch {
			case special && d.text:
				out.Fields[name] = structpb.NewStringValue(t)
			case special:
				out.Fields[name+"Text"] = structpb.NewStringValue(t)
				fallthrough
			default:
				out.Fields[name] = structpb.NewNumberValue(float64(id))
			}
			continue
		}
		if !m.Has(fd) {
			continue
		}
		v := m.Get(fd)
		switch {
		case fd.IsList():
			d.list(out, md, fd, v.List())
		case fd.Kind() == protoreflect.BytesKind:
			d.bytes(out, md, fd, name, v.Bytes())
		default:
			out.Fields[name] = d.scalar(fd, v)
		}
	}
	return out
}

func (d *document) list(out *structpb.Struct, md protoreflect.MessageDescriptor, fd protoreflect.FieldDescriptor, l protoreflect.List) {
	vals := make([]*structpb.Value, l.Len())
	var texts []*structpb.Value
	for i := range vals {
		if fd.Kind() != protoreflect.BytesKind {
			vals[i] = d.scalar(fd, l.Get(i))
			continue
		}
		b := l.Get(i).Bytes()
		s, ok := d.siteOf(b)
		if !ok {
			// Wildcard octets are binary whatever they look like.
			vals[i] = structpb.NewStringValue(octets(b, md.FullName() == "megaco.v1.TerminationID"))
			continue
		}
		vals[i] = structpb.NewStringValue(octets(s.octets, s.id))
		if s.named && texts == nil {
			texts = make([]*structpb.Value, l.Len())
		}
		if texts != nil {
			texts[i] = structpb.NewStringValue(s.text)
		}
	}
	name := fd.JSONName()
	out.Fields[name] = structpb.NewListValue(&structpb.ListValue{Values: vals})
	if texts != nil && !sameStrings(vals, texts) {
		for i, t := range texts {
			if t == nil { // not converted
				texts[i] = structpb.NewNullValue()
			}
		}
		out.Fields[name+"Text"] = structpb.NewListValue(&structpb.ListValue{Values: texts})
	}
}

func sameStrings(a, b []*structpb.Value) bool {
	for i := range a {
		if b[i] == nil || a[i].GetStringValue() != b[i].GetStringValue() {
			return false
		}
	}
	return true
}

func (d *document) bytes(out *structpb.Struct, md protoreflect.MessageDescriptor, fd protoreflect.FieldDescriptor, name string, b []byte) {
	if s, ok := d.siteOf(b); ok {
		v := octets(s.octets, s.id)
		out.Fields[name] = structpb.NewStringValue(v)
		if s.named && s.text != v {
			out.Fields[name+"Text"] = structpb.NewStringValue(s.text)
		}
		return
	}
	if isAddress(md, fd) {
		if a, ok := netip.AddrFromSlice(b); ok {
			out.Fields[name] = structpb.NewStringValue(a.String())
		} else { // not an address: as octets, never text that could read as one
			out.Fields[name] = structpb.NewStringValue(octets(b, true))
		}
		return
	}
	out.Fields[name] = structpb.NewStringValue(octets(b, false))
}

func (d *document) scalar(fd protoreflect.FieldDescriptor, v protoreflect.Value) *structpb.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return structpb.NewBoolValue(v.Bool())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return structpb.NewNumberValue(float64(v.Int()))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return structpb.NewNumberValue(float64(v.Uint()))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		// As protobuf's JSON mapping: 64-bit integers are strings.
		return structpb.NewStringValue(strconv.FormatInt(v.Int(), 10))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return structpb.NewStringValue(strconv.FormatUint(v.Uint(), 10))
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return structpb.NewNumberValue(v.Float())
	case protoreflect.StringKind:
		return structpb.NewStringValue(v.String())
	case protoreflect.BytesKind:
		return structpb.NewStringValue(octets(v.Bytes(), false))
	case protoreflect.EnumKind:
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			return structpb.NewStringValue(string(ev.Name()))
		}
		return structpb.NewNumberValue(float64(v.Enum()))
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return structpb.NewStructValue(d.message(v.Message()))
	}
	panic(fmt.Sprintf("protoconv: field %s of kind %s", fd.FullName(), fd.Kind()))
}

// octets is an OCTET STRING in the document: its text when it reads as
// text, else "0x" and hex; always hex for an ID.
func octets(b []byte, id bool) string {
	if !id && readable(b) {
		return string(b)
	}
	return "0x" + hex.EncodeToString(b)
}

// readable: UTF-8 without control characters, not empty, and not
// starting with "0x" (which would read as hex).
func readable(b []byte) bool {
	if len(b) == 0 || (len(b) > 1 && b[0] == '0' && b[1] == 'x') || !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return false
		}
	}
	return true
}

// NewDecodeResponse is the one DecodeResponse of the gRPC Decode, the HTTP
// /v1/decode and megaco decode: m decoded from codec from, in form form,
// with the parts view asks for.
func NewDecodeResponse(m *model.MegacoMessage, from string, form codec.Form, view pb.DecodeView, opts codec.Options) (*pb.DecodeResponse, error) {
	resp := &pb.DecodeResponse{Codec: CodecEnum(from), Version: m.Mess.Version, Form: pb.Form_FORM_BINARY}
	if form == codec.Text {
		resp.Form = pb.Form_FORM_TEXT
	}
	if view == pb.DecodeView_DECODE_VIEW_MESSAGE || view == pb.DecodeView_DECODE_VIEW_BOTH {
		resp.Message = ToProto(m)
	}
	if view != pb.DecodeView_DECODE_VIEW_MESSAGE {
		doc, err := Document(m, form, opts)
		if err != nil {
			return nil, err
		}
		resp.Document = doc
	}
	return resp, nil
}

// DecodeJSON is the JSON of a DecodeResponse as HTTP and the CLI print it:
// protobuf's JSON mapping (what grpcurl prints), indented by two spaces,
// keys in a fixed order, ending in a newline.
func DecodeJSON(resp *pb.DecodeResponse) ([]byte, error) {
	b, err := protojson.Marshal(resp)
	if err != nil {
		return nil, err
	}
	// protojson varies its white space on purpose; this output is stable.
	var compact, out bytes.Buffer
	if err := json.Compact(&compact, b); err != nil {
		return nil, err
	}
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// ParseDecodeView reads a view name: document (or ""), message or both.
func ParseDecodeView(s string) (pb.DecodeView, error) {
	switch s {
	case "", "document":
		return pb.DecodeView_DECODE_VIEW_DOCUMENT, nil
	case "message":
		return pb.DecodeView_DECODE_VIEW_MESSAGE, nil
	case "both":
		return pb.DecodeView_DECODE_VIEW_BOTH, nil
	}
	return 0, fmt.Errorf("unknown view %q (want document, message or both)", s)
}

// isAddress tells the address of an IP4Address or IP6Address.
func isAddress(md protoreflect.MessageDescriptor, fd protoreflect.FieldDescriptor) bool {
	n := md.FullName()
	return fd.Name() == "address" && (n == "megaco.v1.IP4Address" || n == "megaco.v1.IP6Address")
}

// FromDocument reads a decode document back into the API message: what
// Document wrote, so FromDocument(Document(m)) is ToProto(m). The Text
// fields are skipped (the ID beside each is the message's), "-", "$" and
// "*" are context IDs again, addresses their octets, and every other
// octet string is hex after "0x" or else the UTF-8 bytes of its text.
func FromDocument(doc *structpb.Struct) (*pb.MegacoMessage, error) {
	out := &pb.MegacoMessage{}
	if err := readMessage(out.ProtoReflect(), doc, ""); err != nil {
		return nil, err
	}
	return out, nil
}

func readMessage(m protoreflect.Message, s *structpb.Struct, path string) error {
	fields := m.Descriptor().Fields()
	for key, v := range s.GetFields() {
		fd := fields.ByJSONName(key)
		if fd == nil {
			if base := fields.ByJSONName(strings.TrimSuffix(key, "Text")); base != nil && strings.HasSuffix(key, "Text") &&
				(base.Kind() == protoreflect.BytesKind || base.Name() == "context_id") {
				continue
			}
			return fmt.Errorf("%s%s: no such field in %s", path, key, m.Descriptor().Name())
		}
		p := path + key
		if fd.IsList() {
			l, ok := v.GetKind().(*structpb.Value_ListValue)
			if !ok {
				return fmt.Errorf("%s: want a list", p)
			}
			list := m.Mutable(fd).List()
			for i, e := range l.ListValue.GetValues() {
				x, err := readValue(m, list, fd, e, fmt.Sprintf("%s[%d]", p, i))
				if err != nil {
					return err
				}
				list.Append(x)
			}
			continue
		}
		x, err := readValue(m, nil, fd, v, p)
		if err != nil {
			return err
		}
		m.Set(fd, x)
	}
	return nil
}

// readValue reads one value of field fd of m (an element of list when
// list is set).
func readValue(m protoreflect.Message, list protoreflect.List, fd protoreflect.FieldDescriptor, v *structpb.Value, path string) (protoreflect.Value, error) {
	bad := func(want string) (protoreflect.Value, error) {
		return protoreflect.Value{}, fmt.Errorf("%s: want %s", path, want)
	}
	str, isStr := v.GetKind().(*structpb.Value_StringValue)
	num, isNum := v.GetKind().(*structpb.Value_NumberValue)
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		st, ok := v.GetKind().(*structpb.Value_StructValue)
		if !ok {
			return bad("an object")
		}
		var x protoreflect.Value
		if list != nil {
			x = list.NewElement()
		} else {
			x = m.NewField(fd)
		}
		return x, readMessage(x.Message(), st.StructValue, path+".")
	case protoreflect.BytesKind:
		if !isStr {
			return bad("a string")
		}
		if isAddress(m.Descriptor(), fd) {
			if a, err := netip.ParseAddr(str.StringValue); err == nil {
				return protoreflect.ValueOfBytes(a.AsSlice()), nil
			}
		}
		if h, ok := strings.CutPrefix(str.StringValue, "0x"); ok {
			b, err := hex.DecodeString(h)
			if err != nil {
				return bad("hex after 0x")
			}
			return protoreflect.ValueOfBytes(b), nil
		}
		return protoreflect.ValueOfBytes([]byte(str.StringValue)), nil
	case protoreflect.StringKind:
		if !isStr {
			return bad("a string")
		}
		return protoreflect.ValueOfString(str.StringValue), nil
	case protoreflect.BoolKind:
		b, ok := v.GetKind().(*structpb.Value_BoolValue)
		if !ok {
			return bad("true or false")
		}
		return protoreflect.ValueOfBool(b.BoolValue), nil
	case protoreflect.EnumKind:
		if isStr {
			if ev := fd.Enum().Values().ByName(protoreflect.Name(str.StringValue)); ev != nil {
				return protoreflect.ValueOfEnum(ev.Number()), nil
			}
		} else if isNum && num.NumberValue == float64(int32(num.NumberValue)) {
			return protoreflect.ValueOfEnum(protoreflect.EnumNumber(num.NumberValue)), nil
		}
		return bad("a name of " + string(fd.Enum().Name()))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		if fd.Name() == "context_id" && isStr {
			for id, t := range contextText {
				if t == str.StringValue {
					return protoreflect.ValueOfUint32(uint32(id)), nil
				}
			}
		}
		if !isNum || num.NumberValue < 0 || num.NumberValue > 0xFFFFFFFF || num.NumberValue != float64(uint32(num.NumberValue)) {
			return bad("an unsigned 32-bit integer")
		}
		return protoreflect.ValueOfUint32(uint32(num.NumberValue)), nil
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		if !isNum || num.NumberValue != float64(int32(num.NumberValue)) {
			return bad("a 32-bit integer")
		}
		return protoreflect.ValueOfInt32(int32(num.NumberValue)), nil
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		n, err := strconv.ParseUint(v.GetStringValue(), 10, 64)
		if !isStr || err != nil {
			return bad("an unsigned 64-bit integer as a string")
		}
		return protoreflect.ValueOfUint64(n), nil
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		n, err := strconv.ParseInt(v.GetStringValue(), 10, 64)
		if !isStr || err != nil {
			return bad("a 64-bit integer as a string")
		}
		return protoreflect.ValueOfInt64(n), nil
	case protoreflect.FloatKind:
		if !isNum {
			return bad("a number")
		}
		return protoreflect.ValueOfFloat32(float32(num.NumberValue)), nil
	case protoreflect.DoubleKind:
		if !isNum {
			return bad("a number")
		}
		return protoreflect.ValueOfFloat64(num.NumberValue), nil
	}
	return bad("a value of a known kind")
}
