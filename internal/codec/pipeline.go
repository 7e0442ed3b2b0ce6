package codec

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/mapping"
	"megaco/internal/mapping/pkgs"
	"megaco/internal/mapping/termid"
	"megaco/internal/model"
	"megaco/internal/monotime"
)

// Profile says how names and values map between text and binary.
type Profile string

const (
	// ProfileOTP is byte-exact with Erlang/OTP megaco 4.4: property,
	// parameter and statistic values travel as their text characters.
	ProfileOTP Profile = "otp"
	// ProfileRFC follows RFC 3525 Annex A: values are typed and BER-encoded
	// per their package definition.
	ProfileRFC Profile = "rfc"
)

// ParseProfile checks a profile name.
func ParseProfile(s string) (Profile, error) {
	switch Profile(s) {
	case ProfileOTP, ProfileRFC:
		return Profile(s), nil
	}
	return "", fmt.Errorf("unknown profile %q (want otp or rfc)", s)
}

// Options apply to every codec and to the pipeline.
type Options struct {
	Version int     // 0: from the message; 1..3 forces that schema
	Profile Profile // text <-> binary mapping; "" means ProfileOTP
	Limits  limits.Limits
	// Layout is the termination ID level layout for text <-> binary
	// (nil: OTP's [8,8,8]).
	Layout termid.Layout
	// Names are provisioned termination ID and digit map names for text
	// <-> binary (nil: none); their termination IDs are for Layout.
	Names *mapping.Names
	// Registry maps package, item and parameter names for text <-> binary
	// (nil: the embedded one; pkgs.New plus Load adds private packages).
	Registry *pkgs.Registry
	// Observer, if set, is told of every decode and encode the pipeline
	// does (the service's metrics).
	Observer Observer
}

// Observer watches the pipeline's steps. Codec names are the table's.
type Observer interface {
	// Done: one decode (size: input bytes) or encode (output bytes) of a
	// message of the protocol version, which took took.
	Done(codec string, op codecerr.Op, version int, took time.Duration, size int)
	// Failed: a decode (with its conversion) or an encode failed; codec is
	// "" when the input's codec could not be detected.
	Failed(codec string, op codecerr.Op, err error)
}

// Form is how a decoded message holds names, termination IDs and values:
// as the text encoding writes them, or as the binary encodings carry them.
type Form int

const (
	Binary Form = iota
	Text
	// InputForm asks DecodeAs for the form the input's codec decodes to.
	InputForm Form = -1
)

func (f Form) String() string {
	if f == Text {
		return "text"
	}
	return "binary"
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

// Convert brings m (in form from) into form to, in place.
func Convert(m *model.MegacoMessage, from, to Form, opts Options) error {
	if from == to {
		return nil
	}
	cfg := mappingConfig(opts)
	if to == Binary {
		return mappingError(mapping.ToBinary(m, version(m, opts), &cfg))
	}
	return mappingError(mapping.ToText(m, version(m, opts), &cfg))
}

// mappingError hands a *mapping.Error on as the codecs' one error type
// (codec "mapping", op Map, with its path), so that callers of the
// pipeline read every error alike; errors.Is still sees the mapping's
// kind and cause.
func mappingError(err error) error {
	if err == nil {
		return nil // before me, which escapes: no allocation on success
	}
	var me *mapping.Error
	if !errors.As(err, &me) {
		return err
	}
	e := &codecerr.Error{Codec: "mapping", Op: codecerr.Map, Kind: codecerr.Mapping, Msg: me.Msg, Err: me}
	if me.Kind == mapping.ErrConfig {
		e.Kind = codecerr.Unsupported
	}
	if errors.Is(me, mapping.ErrVersion) {
		e.Err = fmt.Errorf("%w: %w", me, codecerr.ErrVersion)
	}
	if me.Path != "" {
		e.SetPath(me.Path)
	}
	return e
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

// version is the protocol version to convert or encode m for: as forced,
// or m's own.
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
		return mappingError(t.conv.ToBinary(m, version(m, opts), &t.cfg))
	}
	return mappingError(t.conv.ToText(m, version(m, opts), &t.cfg))
}

// Result describes a transcoding.
type Result struct {
	From    string // the input codec, as given or detected
	Version int
}

// Transcode decodes data with codec from ("" or "auto": detect it) and
// appends its encoding with codec to to out, converting between text and
// binary form when the two codecs differ. On error out comes back with its
// length as given.
func Transcode(out, data []byte, from, to string, opts Options) ([]byte, Result, error) {
	var res Result
	enc, err := lookup(to, opts)
	if err != nil {
		return out, res, err
	}
	m, release, from, err := decodeAs(data, from, enc.d.Form, opts, true)
	res.From = from
	if err != nil {
		return out, res, err
	}
	defer release()
	res.Version = int(m.Mess.Version)
	out, err = Encode(out, enc.c, enc.d.Name, m, opts)
	return out, res, err
}

// Encode appends m's encoding with enc (the codec called name, for the
// observer) to out.
func Encode(out []byte, enc Codec, name string, m *model.MegacoMessage, opts Options) ([]byte, error) {
	var start monotime.Instant
	if opts.Observer != nil {
		start = monotime.Now()
	}
	res, err := enc.Append(out, m)
	if opts.Observer != nil {
		if err != nil {
			opts.Observer.Failed(name, codecerr.Encode, err)
		} else {
			opts.Observer.Done(name, codecerr.Encode, version(m, opts), monotime.Now().Sub(start), len(res)-len(out))
		}
	}
	if err != nil {
		return out, err
	}
	return res, nil
}

// DecodeTransient is DecodeAs for a message that is only needed until
// release is called (to be encoded again): it reuses decoder memory.
func DecodeTransient(data []byte, from string, want Form, opts Options) (*model.MegacoMessage, func(), string, error) {
	return decodeAs(data, from, want, opts, true)
}

// DecodeAs decodes data with codec from ("" or "auto": detect it) and
// returns the message in form want (InputForm: as the codec decodes), with
// the name of the codec used.
func DecodeAs(data []byte, from string, want Form, opts Options) (*model.MegacoMessage, string, error) {
	m, _, from, err := decodeAs(data, from, want, opts, false)
	return m, from, err
}

func nop() {}

func decodeAs(data []byte, from string, want Form, opts Options, reuse bool) (*model.MegacoMessage, func(), string, error) {
	e, err := inputCodec(data, from, opts)
	if err != nil {
		return nil, nop, strings.ToLower(from), err
	}
	d := e.d
	if want == InputForm {
		want = d.Form
	}
	var start monotime.Instant
	if opts.Observer != nil {
		start = monotime.Now()
	}
	m, release, err := decodeWith(data, e, want, opts, reuse)
	if opts.Observer != nil {
		if err != nil {
			opts.Observer.Failed(d.Name, codecerr.Decode, err)
		} else {
			opts.Observer.Done(d.Name, codecerr.Decode, int(m.Mess.Version), monotime.Now().Sub(start), len(data))
		}
	}
	return m, release, d.Name, err
}

// inputCodec finds the codec from and its descriptor, detecting it when
// from is "" or "auto".
func inputCodec(data []byte, from string, opts Options) (entry, error) {
	if from == "" || strings.EqualFold(from, "auto") {
		name, err := Detect(data)
		if err != nil {
			if opts.Observer != nil {
				opts.Observer.Failed("", codecerr.Decode, err)
			}
			return entry{}, err
		}
		from = name
	}
	return lookup(from, opts)
}

// decodeWith decodes with e's codec and converts to form want, into reused
// memory when reuse is set and the codec can.
func decodeWith(data []byte, e entry, want Form, opts Options, reuse bool) (*model.MegacoMessage, func(), error) {
	d, dec := e.d, e.c
	r, ok := dec.(Reusing)
	if !reuse || !ok {
		m, err := dec.Decode(data)
		if err == nil {
			err = Convert(m, d.Form, want, opts)
		}
		if err != nil {
			return nil, nop, err
		}
		return m, nop, nil
	}
	t := transients.Get().(*transient)
	m, decRelease, err := r.DecodeReused(data)
	if err != nil {
		transients.Put(t)
		return nil, nop, err
	}
	t.decRelease = decRelease
	if err := t.convert(m, d.Form, want, opts); err != nil {
		t.release()
		return nil, nop, err
	}
	return m, t.release, nil
}
