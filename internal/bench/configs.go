package bench

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"megaco/internal/codec"
	"megaco/internal/codec/ber"
	"megaco/internal/mapping"
	"megaco/internal/mapping/pkgs"
	"megaco/internal/model"
)

// asn1Codecs are H.248's binary encodings (Annex A BER, and the PER that
// OTP also offers). Their model is the binary form, so like OTP's they are
// measured both on the binary form alone (OTP's "[native]" rows) and with
// the conversion from and to the text form (mapping.ToBinary/ToText, OTP's
// plain "ber bin"/"per bin" rows). Which codecs run is the registry's
// business (codec.Names); this only says which of them get both rows.
var asn1Codecs = map[string]bool{"ber": true, "per": true}

// Config is one codec configuration: one row of the table.
type Config struct {
	Label   string        // "ber bin [native]", as OTP's table names them
	Codec   string        // the registered codec
	Profile codec.Profile // for codec.Lookup and, if Mapped, the mapping
	// Native: an ASN.1 codec on the binary form only.
	Native bool
	// Mapped: an ASN.1 codec with the text form as the encoder's input and
	// the decoder's output (mapping.ToBinary before encoding, ToText after
	// decoding), as OTP's non-native binary codecs do.
	Mapped bool
	// Reuse: encoding appends to a reused buffer and decoding reuses
	// memory (codec.Reusing: BER's and PER's pooled decoders), the way the
	// service transcodes. Without it every encode makes a new buffer and
	// every decode a new message, as OTP's do.
	Reuse bool
}

// family groups configurations with the OTP configurations they are
// compared with: ber, per, pretty, compact, erl_dist (native codecs).
func family(codecName string) string {
	if strings.HasPrefix(codecName, "native") {
		return "erl_dist"
	}
	return codecName
}

// familyRank orders the table as OTP's does.
func familyRank(f string) int {
	switch f {
	case "pretty":
		return 0
	case "compact":
		return 1
	case "per":
		return 2
	case "ber":
		return 3
	case "erl_dist":
		return 4
	}
	return 5
}

func sortFamilies(fs []string) {
	sort.Slice(fs, func(i, j int) bool {
		ri, rj := familyRank(fs[i]), familyRank(fs[j])
		if ri != rj {
			return ri < rj
		}
		return fs[i] < fs[j]
	})
}

func label(cfg Config) string {
	base := cfg.Codec
	if asn1Codecs[cfg.Codec] {
		base += " bin"
	}
	var opts []string
	if cfg.Profile == codec.ProfileRFC {
		opts = append(opts, "rfc")
	}
	if cfg.Native {
		opts = append(opts, "native")
	}
	if cfg.Reuse {
		opts = append(opts, "reuse")
	}
	if len(opts) == 0 {
		return base
	}
	return base + " [" + strings.Join(opts, ",") + "]"
}

// configsFor lists the candidate configurations of a registered codec;
// rfc-profile ones are dropped later if they measure nothing different.
// The [reuse] variants are for the otp profile only (the profile does not
// change what reuse saves).
func configsFor(name string, reuse bool) []Config {
	var out []Config
	add := func(c Config) {
		c.Label = label(c)
		out = append(out, c)
		if reuse && c.Profile == codec.ProfileOTP {
			c.Reuse = true
			c.Label = label(c)
			out = append(out, c)
		}
	}
	for _, p := range []codec.Profile{codec.ProfileOTP, codec.ProfileRFC} {
		if asn1Codecs[name] {
			add(Config{Codec: name, Profile: p, Mapped: true})
		} else {
			add(Config{Codec: name, Profile: p})
		}
	}
	if asn1Codecs[name] {
		add(Config{Codec: name, Profile: codec.ProfileOTP, Native: true})
	}
	return out
}

// decodeFunc decodes one message; the message is valid until release.
type decodeFunc func([]byte) (m *model.MegacoMessage, release func(), err error)

func noRelease() {}

// reusable reports whether a codec can decode into reused memory.
func reusable(c codec.Codec) bool {
	_, ok := c.(codec.Reusing)
	return ok
}

// item is one message prepared for one configuration.
type item struct {
	msg     *Message
	version int
	enc     []byte               // the decoder's input: the codec's encoding
	form    *model.MegacoMessage // the encoder's input unless Mapped
	failed  bool
	// accumulated over rounds
	size       int
	enc1, dec1 timing
	encA, decA sample // allocations
}

// prepared is a configuration with its messages.
type prepared struct {
	cfg   Config
	c     codec.Codec
	mcfg  *mapping.Config
	items []*item
	skips []skip  // messages left out, and why
	run   *runner // the measuring goroutine's
}

// skip is a message a configuration could not handle.
type skip struct{ msg, err string }

func lookupOptions(p codec.Profile) codec.Options {
	return codec.Options{Profile: p} // zero limits: the defaults
}

// prepare makes each message's input for cfg: the codec's own encoding of
// the message (decode input) and what decoding it gives (encode input),
// the way OTP's megaco_codec_meas decodes and re-encodes each message
// before timing. A message the configuration cannot handle is left out
// with a note.
func prepare(cfg Config, corpus *Corpus) (*prepared, error) {
	c, err := codec.Lookup(cfg.Codec, lookupOptions(cfg.Profile))
	if err != nil {
		return nil, err
	}
	vp, err := pkgs.ParseProfile(string(cfg.Profile))
	if err != nil {
		return nil, err
	}
	p := &prepared{cfg: cfg, c: c, mcfg: &mapping.Config{Profile: vp}}
	for i := range corpus.Msgs {
		m := &corpus.Msgs[i]
		it, err := p.prepareOne(m)
		if err != nil {
			p.skips = append(p.skips, skip{m.Name, err.Error()})
			continue
		}
		p.items = append(p.items, it)
	}
	if len(p.items) == 0 {
		return nil, fmt.Errorf("no message could be prepared (%s: %s)", p.skips[0].msg, p.skips[0].err)
	}
	return p, nil
}

func (p *prepared) prepareOne(m *Message) (*item, error) {
	it := &item{msg: m, version: m.Version}
	if p.cfg.Mapped {
		t, err := textForm(m)
		if err != nil {
			return nil, err
		}
		if err := mapping.ToBinary(t, m.Version, p.mcfg); err != nil {
			return nil, err
		}
		if it.enc, err = p.c.Append(nil, t); err != nil {
			return nil, err
		}
		d, err := p.c.Decode(it.enc)
		if err != nil {
			return nil, err
		}
		if err := mapping.ToText(d, m.Version, p.mcfg); err != nil {
			return nil, err
		}
		it.size = len(it.enc)
		return it, nil
	}
	var msg *model.MegacoMessage
	var err error
	if src := m.File(p.cfg.Codec); src != nil {
		msg, err = p.c.Decode(src)
	} else {
		msg, err = p.fromCanonical(m)
	}
	if err != nil {
		return nil, err
	}
	if it.enc, err = p.c.Append(nil, msg); err != nil {
		return nil, err
	}
	if it.form, err = p.c.Decode(it.enc); err != nil {
		return nil, err
	}
	it.size = len(it.enc)
	return it, nil
}

// fromCanonical makes the message for a codec the corpus has no file for
// (native ones): the BER file's message, in the codec's form, encoded and
// decoded again.
func (p *prepared) fromCanonical(m *Message) (*model.MegacoMessage, error) {
	var msg *model.MegacoMessage
	var err error
	if codec.FormOf(p.cfg.Codec) == codec.Text {
		msg, err = textForm(m)
	} else {
		msg, err = ber.Decode(m.Files["ber"], ber.Options{})
	}
	if err != nil {
		return nil, err
	}
	enc, err := p.c.Append(nil, msg)
	if err != nil {
		return nil, err
	}
	return p.c.Decode(enc)
}

// textForm is the message in text form: the golden BER decoded and
// converted with the OTP profile the corpus was made with.
func textForm(m *Message) (*model.MegacoMessage, error) {
	t, err := ber.Decode(m.Files["ber"], ber.Options{})
	if err != nil {
		return nil, err
	}
	if err := mapping.ToText(t, m.Version, nil); err != nil {
		return nil, err
	}
	return t, nil
}

// sameAs reports whether p measures the same thing as q (the same
// configuration in another profile): the same encodings and, unless
// mapped, the same decoded messages.
func (p *prepared) sameAs(q *prepared) bool {
	if len(p.items) != len(q.items) {
		return false
	}
	for i, a := range p.items {
		b := q.items[i]
		if a.msg != b.msg || !bytes.Equal(a.enc, b.enc) {
			return false
		}
		if !p.cfg.Mapped && !reflect.DeepEqual(a.form, b.form) {
			return false
		}
	}
	return true
}

// runner is the state of one goroutine running a configuration.
type runner struct {
	p    *prepared
	dec  decodeFunc
	buf  []byte
	pool []*model.MegacoMessage
	// [reuse] conversions write into reused memory, as the service's
	// transcodings do; one Converter per direction, since a round trip's
	// second conversion reads what the first wrote.
	toTextConv, toBinConv mapping.Converter
}

func (r *runner) toText(m *model.MegacoMessage, v int) error {
	if r.p.cfg.Reuse {
		return r.toTextConv.ToText(m, v, r.p.mcfg)
	}
	return mapping.ToText(m, v, r.p.mcfg)
}

func (r *runner) toBinary(m *model.MegacoMessage, v int) error {
	if r.p.cfg.Reuse {
		return r.toBinConv.ToBinary(m, v, r.p.mcfg)
	}
	return mapping.ToBinary(m, v, r.p.mcfg)
}

const poolSlots = 32

func (p *prepared) newRunner() *runner {
	r := &runner{p: p, dec: func(b []byte) (*model.MegacoMessage, func(), error) {
		m, err := p.c.Decode(b)
		return m, noRelease, err
	}}
	if rc, ok := p.c.(codec.Reusing); ok && p.cfg.Reuse {
		r.dec = rc.DecodeReused
	}
	if p.cfg.Mapped {
		r.pool = make([]*model.MegacoMessage, poolSlots)
	}
	return r
}

func (r *runner) appendOut(m *model.MegacoMessage) error {
	var err error
	if r.p.cfg.Reuse {
		r.buf, err = r.p.c.Append(r.buf[:0], m)
	} else {
		_, err = r.p.c.Append(nil, m)
	}
	return err
}

// encodeOp encodes the message; mapped, it converts a fresh text-form copy
// to binary form first (the copies are made untimed, a batch at a time).
func (r *runner) encodeOp(it *item) op {
	if !r.p.cfg.Mapped {
		return op{run: func(int) error { return r.appendOut(it.form) }}
	}
	return op{
		slots: len(r.pool),
		prepare: func(i int) error {
			var err error
			r.pool[i], err = textForm(it.msg)
			return err
		},
		run: func(i int) error {
			if err := r.toBinary(r.pool[i], it.version); err != nil {
				return err
			}
			return r.appendOut(r.pool[i])
		},
	}
}

// decodeOp decodes the message's encoding; mapped, to text form.
func (r *runner) decodeOp(it *item) op {
	return op{run: func(int) error {
		m, release, err := r.dec(it.enc)
		if err != nil {
			return err
		}
		if r.p.cfg.Mapped {
			err = r.toText(m, it.version)
		}
		release()
		return err
	}}
}

// roundTrip decodes the message and encodes the result: one message of
// the throughput measurement.
func (r *runner) roundTrip(it *item) error {
	m, release, err := r.dec(it.enc)
	if err != nil {
		return err
	}
	defer release()
	if r.p.cfg.Mapped {
		if err := r.toText(m, it.version); err != nil {
			return err
		}
		if err := r.toBinary(m, it.version); err != nil {
			return err
		}
	}
	return r.appendOut(m)
}
