package codec

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"megaco/internal/codec/ber"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/native"
	"megaco/internal/codec/per"
	"megaco/internal/codec/text"
	"megaco/internal/model"
)

// Codec decodes and encodes whole Megaco messages.
type Codec interface {
	// Decode decodes one message into memory of its own.
	Decode(data []byte) (*model.MegacoMessage, error)
	// Append appends the encoding of m to b. On error it returns b with
	// its length as given (bytes past it, up to its capacity, may have
	// been written) and a *codecerr.Error.
	Append(b []byte, m *model.MegacoMessage) ([]byte, error)
}

// Reusing is implemented by codecs that can decode into memory reused from
// call to call; the message is valid until release is called.
type Reusing interface {
	DecodeReused(data []byte) (m *model.MegacoMessage, release func(), err error)
}

// Descriptor is everything the rest of the program knows about a codec.
type Descriptor struct {
	Name string // as flags, URLs and metric labels spell it
	Form Form   // the form of the model it decodes to and encodes from
	// API is the name of its value in the API's Codec enum
	// (api/megaco/v1/codec.proto).
	API string
	// New makes the codec for a protocol version (0: the message's own)
	// and limits.
	New func(version int, lim limits.Limits) Codec
	// Detect reports whether data looks like this codec's encoding; nil
	// for a codec that is never detected. Detection tries the table in
	// order, so a cheap, certain test comes before a costly or vague one.
	Detect func(data []byte) bool
	// Scan reads what package scan reports without decoding (scan.go);
	// nil where not done yet, and Scan says so.
	Scan Scanner
	// Rewrite copies a message with IDs changed (scan.Changes); nil
	// where not done yet, and Rewrite says so.
	Rewrite Rewriter
	// NewRewriter, where not nil, makes a Rewrite with memory of its own
	// (text: templates of the messages it has seen), much quicker on
	// messages it sees again, and safe for concurrent use; see
	// NewRewriter.
	NewRewriter func() Rewriter
	// SpliceMID copies a message with the mId a Scan found replaced
	// (MIDSplicer); nil where the codec has none.
	SpliceMID MIDSplicer
	// Salvage reads what survives of a message that does not decode
	// (Salvager); nil where nothing does.
	Salvage Salvager
}

// table lists every codec. Its order is the order of detection.
var table = []Descriptor{
	{Name: "pretty", Form: Text, API: "CODEC_PRETTY", New: textCodec(text.Pretty),
		Detect: func(d []byte) bool { return textHeader(d) == "pretty" }, Scan: text.Pretty.Scan, Rewrite: text.Pretty.Rewrite,
		NewRewriter: textRewriter(text.Pretty), SpliceMID: text.SpliceMID, Salvage: text.Salvage},
	{Name: "compact", Form: Text, API: "CODEC_COMPACT", New: textCodec(text.Compact),
		Detect: func(d []byte) bool { return textHeader(d) == "compact" }, Scan: text.Compact.Scan, Rewrite: text.Compact.Rewrite,
		NewRewriter: textRewriter(text.Compact), SpliceMID: text.SpliceMID, Salvage: text.Salvage},
	{Name: "native-zstd", Form: Binary, API: "CODEC_NATIVE_ZSTD", New: nativeCodec(native.Zstd),
		Detect: func(d []byte) bool { return bytes.HasPrefix(d, zstdMagic) },
		Scan:   native.Zstd.Scan, Rewrite: native.Zstd.Rewrite},
	// A MegacoMessage in BER is a SEQUENCE, first octet 0x30. No PER
	// message can start so (its first bits would say version 96 or more),
	// nor can text, native or zstd; a truncated or damaged BER message
	// still goes to the BER decoder, which says precisely what is wrong.
	{Name: "ber", Form: Binary, API: "CODEC_BER", New: berCodec,
		Detect: func(d []byte) bool { return len(d) > 0 && d[0] == 0x30 }, Scan: ber.Scan, Rewrite: ber.Rewrite,
		SpliceMID: ber.SpliceMID, Salvage: ber.Salvage},
	// Native and S2 have no signature: they are recognised by decoding.
	{Name: "native", Form: Binary, API: "CODEC_NATIVE", New: nativeCodec(native.None),
		Detect: decodes(nativeCodec(native.None)),
		Scan:   native.None.Scan, Rewrite: native.None.Rewrite},
	{Name: "native-s2", Form: Binary, API: "CODEC_NATIVE_S2", New: nativeCodec(native.S2),
		Detect: decodes(nativeCodec(native.S2)),
		Scan:   native.S2.Scan, Rewrite: native.S2.Rewrite},
	// PER has no signature at all: last, and only when its header reads
	// as a known version.
	{Name: "per", Form: Binary, API: "CODEC_PER", New: perCodec,
		Detect: func(d []byte) bool { v, err := per.PeekVersion(d); return err == nil && limits.ValidVersion(v) },
		Scan:   per.Scan, Rewrite: per.Rewrite, Salvage: per.Salvage},
}

var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

func textRewriter(st text.Style) func() Rewriter {
	return func() Rewriter { return text.NewRewriter(st).Rewrite }
}

func berCodec(v int, lim limits.Limits) Codec {
	return ber.Codec{Options: ber.Options{Version: v, Limits: lim}}
}

func perCodec(v int, lim limits.Limits) Codec {
	return per.Codec{Options: per.Options{Version: v, Limits: lim}}
}

func textCodec(style text.Style) func(int, limits.Limits) Codec {
	return func(v int, lim limits.Limits) Codec {
		return text.Codec{Style: style, Options: text.Options{Version: v, Limits: lim}}
	}
}

func nativeCodec(c native.Compression) func(int, limits.Limits) Codec {
	return func(v int, lim limits.Limits) Codec {
		return native.Codec{Options: native.Options{Compression: c, Version: v, Limits: lim}}
	}
}

// decodes is a detector that decodes with the default limits.
func decodes(f func(int, limits.Limits) Codec) func([]byte) bool {
	c := f(0, limits.Limits{})
	return func(d []byte) bool { _, err := c.Decode(d); return err == nil }
}

// textHeader tells the text styles apart by the header: after white space
// and comments, "MEGACO/" (pretty) or "!/" (compact). Pretty and compact
// are one grammar; the header's form names the style.
func textHeader(data []byte) string {
	t := bytes.TrimLeft(data, " \t\r\n")
	for len(t) > 0 && t[0] == ';' {
		if i := bytes.IndexAny(t, "\r\n"); i >= 0 {
			t = bytes.TrimLeft(t[i:], " \t\r\n")
		} else {
			t = nil
		}
	}
	switch {
	case len(t) >= 7 && bytes.EqualFold(t[:7], []byte("MEGACO/")):
		return "pretty"
	case len(t) >= 2 && t[0] == '!' && t[1] == '/':
		return "compact"
	}
	return ""
}

// ErrUndetected is Detect's error when no codec recognizes the input.
var ErrUndetected = errors.New("cannot tell the encoding of the input: not Megaco text, BER, PER or native")

// Detect tells the encoding of a message from its bytes: the first codec
// of the table whose detector accepts them.
func Detect(data []byte) (string, error) {
	for i := range table {
		if d := &table[i]; d.Detect != nil && d.Detect(data) {
			return d.Name, nil
		}
	}
	return "", ErrUndetected
}

// All lists the codecs' descriptors, in the table's order.
func All() []Descriptor { return append([]Descriptor(nil), table...) }

// Describe returns the descriptor of the codec called name (any case).
func Describe(name string) (*Descriptor, bool) {
	for i := range table {
		if strings.EqualFold(table[i].Name, name) {
			return &table[i], true
		}
	}
	return nil, false
}

// Names lists the codecs' names, sorted.
func Names() []string {
	out := make([]string, len(table))
	for i, d := range table {
		out[i] = d.Name
	}
	slices.Sort(out)
	return out
}

// FormOf is the form of the messages a codec decodes to and encodes from
// (Binary for a name no codec has).
func FormOf(name string) Form {
	if d, ok := Describe(name); ok {
		return d.Form
	}
	return Binary
}

// ErrUnknownCodec is Lookup's error for a name no codec has.
var ErrUnknownCodec = errors.New("unknown codec")

// Lookup returns the codec called name (any case) for opts' version and
// limits.
func Lookup(name string, opts Options) (Codec, error) {
	e, err := lookup(name, opts)
	return e.c, err
}

// entry is a codec made for some options, with its descriptor: the
// pipeline needs both, and finds them with one cache read.
type entry struct {
	d *Descriptor
	c Codec
}

func lookup(name string, opts Options) (entry, error) {
	if opts.Version != 0 && !limits.ValidVersion(opts.Version) {
		return entry{}, fmt.Errorf("unsupported protocol version %d (want 1, 2 or 3)", opts.Version)
	}
	name = strings.ToLower(name) // no allocation when it already is
	key := lookupKey{name, opts.Version, opts.Limits}
	if e, ok := (*cached.Load())[key]; ok {
		return e, nil
	}
	d, ok := Describe(name)
	if !ok {
		return entry{}, fmt.Errorf("%w %q (available: %s)", ErrUnknownCodec, name, strings.Join(Names(), ", "))
	}
	e := entry{d, d.New(opts.Version, opts.Limits)}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if old := *cached.Load(); len(old) < maxCached {
		m := make(map[lookupKey]entry, len(old)+1)
		for k, v := range old {
			m[k] = v
		}
		m[key] = e
		cached.Store(&m)
	}
	return e, nil
}

// lookupKey is what a codec value depends on: Profile and Layout steer the
// text<->binary mapping, not the codecs.
type lookupKey struct {
	name    string
	version int
	limits  limits.Limits
}

// cached holds the codecs Lookup made. Making one boxes a struct into the
// Codec interface: an allocation per call, two or three per transcoding on
// the service's hot path. The map is copy-on-write, so that a lookup is an
// atomic load and a map read; a process uses few keys (codecs times
// versions times the limits it is configured with), and past maxCached the
// cache stops growing.
var (
	cached  atomic.Pointer[map[lookupKey]entry]
	cacheMu sync.Mutex
)

const maxCached = 256

func init() {
	cached.Store(&map[lookupKey]entry{})
}
