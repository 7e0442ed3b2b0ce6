package codec

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/native"
	"megaco/internal/codec/per"
	"megaco/internal/codec/text"
	"megaco/internal/mapping"
	"megaco/internal/mapping/pkgs"
	"megaco/internal/model"
)

// Form is how a decoded message holds names, termination IDs and values:
// as the text encoding writes them, or as the binary encodings carry them.
type Form int

const (
	Binary Form = iota
	Text
)

func (f Form) String() string {
	if f == Text {
		return "text"
	}
	return "binary"
}

// textCodecs are the codecs whose messages are in text form.
var textCodecs = map[string]bool{"pretty": true, "compact": true}

// FormOf is the form of the messages a codec decodes to and encodes from.
func FormOf(name string) Form {
	if textCodecs[strings.ToLower(name)] {
		return Text
	}
	return Binary
}

// Convert brings m (in form from) into form to, in place.
func Convert(m *model.MegacoMessage, from, to Form, opts Options) error {
	if from == to {
		return nil
	}
	cfg := mappingConfig(opts)
	if to == Binary {
		return mapping.ToBinary(m, version(m, opts), &cfg)
	}
	return mapping.ToText(m, version(m, opts), &cfg)
}

func mappingConfig(opts Options) mapping.Config {
	cfg := mapping.Config{Layout: opts.Layout, Registry: opts.Registry}
	if opts.Names != nil {
		cfg.TermIDNames, cfg.DigitMapNames = opts.Names.TermIDs, opts.Names.DigitMaps
	}
	if opts.Profile == ProfileRFC {
		cfg.Profile = pkgs.RFC
	}
	return cfg
}

// version is the protocol version to convert m for: as forced, or m's own.
func version(m *model.MegacoMessage, opts Options) int {
	if opts.Version != 0 {
		return opts.Version
	}
	return int(m.Mess.Version)
}

// transient holds, for a message decoded by DecodeTransient, the memory
// the message points into until release: the decoder's (decRelease) and
// the converter's.
type transient struct {
	conv       mapping.Converter
	cfg        mapping.Config
	decRelease func()
	release    func() // made once: releasing allocates nothing
}

var transients sync.Pool

func init() {
	transients.New = func() any {
		t := new(transient)
		t.release = func() {
			t.decRelease()
			t.decRelease, t.cfg = nil, mapping.Config{}
			transients.Put(t)
		}
		return t
	}
}

// convert is Convert into the transient's memory.
func (t *transient) convert(m *model.MegacoMessage, from, to Form, opts Options) error {
	if from == to {
		return nil
	}
	t.cfg = mappingConfig(opts)
	if to == Binary {
		return t.conv.ToBinary(m, version(m, opts), &t.cfg)
	}
	return t.conv.ToText(m, version(m, opts), &t.cfg)
}

// Reusing is implemented by codecs that can decode into memory reused from
// call to call; the message is valid until release is called.
type Reusing interface {
	DecodeReused(data []byte) (m *model.MegacoMessage, release func(), err error)
}

// Result describes a transcoding.
type Result struct {
	From    string // the input codec, as given or detected
	Version int
}

// Transcode decodes data with codec from ("" or "auto": detect it) and
// appends its encoding with codec to to out, converting between text and
// binary form when the two codecs differ.
func Transcode(out, data []byte, from, to string, opts Options) ([]byte, Result, error) {
	var res Result
	enc, err := Lookup(to, opts)
	if err != nil {
		return out, res, err
	}
	m, release, from, err := DecodeTransient(data, from, FormOf(to), opts)
	res.From = from
	if err != nil {
		return out, res, err
	}
	defer release()
	res.Version = int(m.Mess.Version)
	out, err = enc.Append(out, m)
	return out, res, err
}

// DecodeTransient is DecodeAs for a message that is only needed until
// release is called (to be encoded again): it reuses decoder memory.
func DecodeTransient(data []byte, from string, want Form, opts Options) (*model.MegacoMessage, func(), string, error) {
	return decodeAs(data, from, want, opts, true)
}

// DecodeAs decodes data with codec from ("" or "auto": detect it) and
// returns the message in form want, with the codec used.
func DecodeAs(data []byte, from string, want Form, opts Options) (*model.MegacoMessage, string, error) {
	m, _, from, err := decodeAs(data, from, want, opts, false)
	return m, from, err
}

func nop() {}

func decodeAs(data []byte, from string, want Form, opts Options, reuse bool) (*model.MegacoMessage, func(), string, error) {
	if from == "" || from == "auto" {
		var err error
		if from, err = Detect(data); err != nil {
			return nil, nop, "", err
		}
	}
	dec, err := Lookup(from, opts)
	if err != nil {
		return nil, nop, from, err
	}
	r, ok := dec.(Reusing)
	if !reuse || !ok {
		m, err := dec.Decode(data)
		if err == nil {
			err = Convert(m, FormOf(from), want, opts)
		}
		if err != nil {
			return nil, nop, from, err
		}
		return m, nop, from, nil
	}
	t := transients.Get().(*transient)
	m, decRelease, err := r.DecodeReused(data)
	if err != nil {
		transients.Put(t)
		return nil, nop, from, err
	}
	t.decRelease = decRelease
	if err := t.convert(m, FormOf(from), want, opts); err != nil {
		t.release()
		return nil, nop, from, err
	}
	return m, t.release, from, nil
}

// ParseForm reads a form name: "text", "binary", or "" for def.
func ParseForm(s string, def Form) (Form, error) {
	switch s {
	case "":
		return def, nil
	case "text":
		return Text, nil
	case "binary":
		return Binary, nil
	}
	return def, fmt.Errorf("unknown form %q (want text or binary)", s)
}

// ErrUndetected is returned when no codec recognizes the input.
var ErrUndetected = errors.New("cannot tell the encoding of the input: not Megaco text, BER, PER or native")

// Detect tells the encoding of a message from its bytes:
//   - text starts (after white space and comments) with "MEGACO/" or "!/"
//     (pretty and compact are one grammar; reported as "compact" when the
//     header is the short form);
//   - a zstd frame starts with its magic number;
//   - BER starts with a SEQUENCE tag (0x30);
//   - native and S2 are recognized by decoding them;
//   - anything else is tried as PER, which has no signature at all.
func Detect(data []byte) (string, error) {
	t := bytes.TrimLeft(data, " \t\r\n")
	for len(t) > 0 && t[0] == ';' { // comments before the header
		if i := bytes.IndexAny(t, "\r\n"); i >= 0 {
			t = bytes.TrimLeft(t[i:], " \t\r\n")
		} else {
			t = nil
		}
	}
	switch {
	case len(t) >= 7 && bytes.EqualFold(t[:7], []byte("MEGACO/")):
		return "pretty", nil
	case len(t) >= 2 && t[0] == '!' && t[1] == '/':
		return "compact", nil
	case len(data) >= 4 && bytes.Equal(data[:4], []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return "native-zstd", nil
	}
	if looksBER(data) {
		return "ber", nil
	}
	if _, err := (native.Codec{}).Decode(data); err == nil {
		return "native", nil
	}
	if _, err := (native.Codec{Options: native.Options{Compression: native.S2}}).Decode(data); err == nil {
		return "native-s2", nil
	}
	if v, err := per.PeekVersion(data); err == nil && v >= 1 && v <= 3 {
		return "per", nil
	}
	return "", ErrUndetected
}

// looksBER: a MegacoMessage in BER is a SEQUENCE, first octet 0x30. No
// PER message can start so (its first bits would say version 96 or more),
// nor can text, native or zstd; a truncated or damaged BER message still
// goes to the BER decoder, which says precisely what is wrong.
func looksBER(data []byte) bool {
	return len(data) > 0 && data[0] == 0x30
}

// Location is what an error says about where the input was wrong.
type Location struct {
	Codec    string // "ber", "per", "text", "native", "mapping"
	Field    string // the field path, if known
	Position string // "offset 37", "bit 75", "3:17"
}

// Locate extracts the location from an error of any codec.
func Locate(err error) (Location, bool) {
	var ce *codecerr.Error
	if errors.As(err, &ce) && (ce.Codec == "ber" || ce.Codec == "per") {
		return Location{ce.Codec, ce.Path(), ce.Where()}, true
	}
	var me *mapping.Error
	if errors.As(err, &me) {
		return Location{"mapping", me.Path, ""}, true
	}
	var ne *native.Error
	if errors.As(err, &ne) {
		return Location{"native", "", ne.Op}, true
	}
	var td *text.DecodeError
	if errors.As(err, &td) {
		return Location{td.Style, "", fmt.Sprintf("%d:%d", td.Line, td.Column)}, true
	}
	var te *text.EncodeError
	if errors.As(err, &te) {
		return Location{"text", te.Path(), "encode"}, true
	}
	var le interface {
		Location() (codec, field, position string)
	}
	if errors.As(err, &le) {
		c, f, p := le.Location()
		return Location{c, f, p}, true
	}
	return Location{}, false
}

// Describe renders a location for logs.
func (l Location) String() string {
	return fmt.Sprintf("%s %s %s", l.Codec, l.Field, l.Position)
}
