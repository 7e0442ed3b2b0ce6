// Package codec is the seam between the message model and its encodings:
// every encoding is a Codec, found by name. Data flows one way, bytes →
// model → bytes, so transcoding is a Decode followed by an Append.
package codec

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"megaco/internal/mapping"
	"megaco/internal/mapping/pkgs"
	"megaco/internal/mapping/termid"

	"megaco/internal/codec/ber"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/native"
	"megaco/internal/codec/per"
	"megaco/internal/codec/slab"
	"megaco/internal/codec/text"
	"megaco/internal/model"
)

// Codec decodes and encodes whole Megaco messages.
type Codec interface {
	// Decode decodes one message.
	Decode(data []byte) (*model.MegacoMessage, error)
	// Append appends the encoding of m to b.
	Append(b []byte, m *model.MegacoMessage) ([]byte, error)
}

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

// Options apply to every codec.
type Options struct {
	Version int     // 0: from the message; 1..3 forces that schema
	Profile Profile // text <-> binary mapping; "" means ProfileOTP
	Limits  Limits
	// Layout is the termination ID level layout for text <-> binary
	// (nil: OTP's [8,8,8]).
	Layout termid.Layout
	// Names are provisioned termination ID and digit map names for text
	// <-> binary (nil: none); their termination IDs are for Layout.
	Names *mapping.Names
	// Registry maps package, item and parameter names for text <-> binary
	// (nil: the embedded one; pkgs.New plus Load adds private packages).
	Registry *pkgs.Registry
}

// Limits bound every decoder's work and memory, whatever the input.
type Limits = limits.Limits

// DefaultLimits fit real Megaco traffic with a wide margin.
var DefaultLimits = limits.Default

type factory func(Options) Codec

var available = map[string]factory{
	"ber": func(o Options) Codec { return ber.Codec{Options: ber.Options{Version: o.Version, Limits: o.Limits}} },
	"per": func(o Options) Codec {
		return per.Codec{Options: per.Options{Version: o.Version, Limits: o.Limits}}
	},
	"pretty":      textCodec(text.Pretty, "pretty"),
	"compact":     textCodec(text.Compact, "compact"),
	"native":      nativeCodec(native.None),
	"native-zstd": nativeCodec(native.Zstd),
	"native-s2":   nativeCodec(native.S2),
}

// textCodecImpl is the text encoding in one style; its decoder reads both.
type textCodecImpl struct {
	style text.Style
	dec   text.DecodeOptions
	enc   text.EncodeOptions
}

func (c textCodecImpl) Decode(data []byte) (*model.MegacoMessage, error) {
	return text.Decode(data, c.dec)
}

var textDecoders slab.Pool[text.Decoder]

// DecodeReused decodes into a pooled Decoder's memory (see Reusing).
func (c textCodecImpl) DecodeReused(data []byte) (*model.MegacoMessage, func(), error) {
	d, release := textDecoders.Get()
	d.Options = c.dec
	m, err := d.Decode(data)
	if err != nil {
		release()
		return nil, nop, err
	}
	return m, release, nil
}

func (c textCodecImpl) Append(b []byte, m *model.MegacoMessage) ([]byte, error) {
	return text.Append(b, m, c.style, c.enc)
}

func textCodec(style text.Style, name string) factory {
	return func(o Options) Codec {
		lim := text.DecodeLimits{MaxSize: o.Limits.MaxSize, MaxDepth: o.Limits.MaxDepth, MaxElements: o.Limits.MaxElements}
		return textCodecImpl{style: style,
			dec: text.DecodeOptions{Version: o.Version, Style: name, Limits: lim},
			enc: text.EncodeOptions{Version: o.Version}}
	}
}

func nativeCodec(c native.Compression) factory {
	return func(o Options) Codec {
		return native.Codec{Options: native.Options{Compression: c, Version: o.Version, MaxSize: o.Limits.MaxSize, MaxElements: o.Limits.MaxElements}}
	}
}

// Names lists the codecs that work now.
func Names() []string {
	var out []string
	for n := range available {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ErrUnknownCodec is Lookup's error for a name no codec has.
var ErrUnknownCodec = errors.New("unknown codec")

// Lookup returns the codec called name.
func Lookup(name string, opts Options) (Codec, error) {
	if opts.Version < 0 || opts.Version > 3 {
		return nil, fmt.Errorf("unsupported protocol version %d (want 1, 2 or 3)", opts.Version)
	}
	name = strings.ToLower(name) // no allocation when it already is
	key := lookupKey{name, opts.Version, opts.Limits}
	if c, ok := (*cached.Load())[key]; ok {
		return c, nil
	}
	f, ok := available[name]
	if !ok {
		return nil, fmt.Errorf("%w %q (available: %s)", ErrUnknownCodec, name, strings.Join(Names(), ", "))
	}
	c := f(opts)
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if old := *cached.Load(); len(old) < maxCached {
		m := make(map[lookupKey]Codec, len(old)+1)
		for k, v := range old {
			m[k] = v
		}
		m[key] = c
		cached.Store(&m)
	}
	return c, nil
}

// lookupKey is what a codec value depends on: Profile and Layout steer the
// text<->binary mapping, not the codecs.
type lookupKey struct {
	name    string
	version int
	limits  Limits
}

// cached holds the codecs Lookup made. Making one boxes a struct into the
// Codec interface: an allocation per call, two or three per transcoding on
// the service's hot path. The map is copy-on-write, so that a lookup is an
// atomic load and a map read; a process uses few keys (codecs times
// versions times the limits it is configured with), and past maxCached the
// cache stops growing.
var (
	cached  atomic.Pointer[map[lookupKey]Codec]
	cacheMu sync.Mutex
)

const maxCached = 256

func init() {
	cached.Store(&map[lookupKey]Codec{})
}
