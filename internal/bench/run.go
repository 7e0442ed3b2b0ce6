// Package bench measures the codecs the way Erlang/OTP's megaco measures
// its own (megaco_codec_meas, the "Performance comparison" table of the
// megaco documentation): for every codec configuration, the mean encoded
// size of the corpus messages and the mean over messages of the
// per-message mean encode and decode times, plus allocations per
// operation. Optionally it runs OTP's codecs on the same corpus in the same
// run (tools/otp/codec_bench.escript), alternating rounds of ours and
// theirs per codec, and measures throughput over 1..N goroutines the way
// OTP's mstone tools do.
package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"megaco/internal/codec"
)

// Options configure a run.
type Options struct {
	// Corpus is the directory of messages (default corpus/otp-time-test).
	Corpus string
	// Codecs restricts the run to these codecs: registered codec names and
	// OTP-only families ("erl_dist"). Empty: every registered codec and,
	// with OTP, every OTP configuration.
	Codecs []string
	// PerOp is the timed work per message and operation, split over
	// Rounds (default 10ms in 2 rounds). OTP's own tool uses 1s.
	PerOp  time.Duration
	Rounds int
	// Fastest takes, per message and operation, the mean of the fastest
	// round instead of the mean over all rounds (OTP's way): other load on
	// a shared machine only ever adds time.
	Fastest bool
	// OTP also measures Erlang/OTP's codecs through Escript (default
	// "escript") running OTPScript (default: tools/otp/codec_bench.escript
	// found above the working directory or the corpus).
	OTP       bool
	Escript   string
	OTPScript string
	// CPUs > 0 measures throughput with 1..CPUs goroutines, each decoding
	// and re-encoding the corpus for CPUTime (default 1s) per codec
	// configuration and goroutine count.
	CPUs    int
	CPUTime time.Duration
	// Progress, if set, receives a line per measurement step.
	Progress io.Writer
}

// Row is one configuration's result.
type Row struct {
	Impl     string `json:"impl"`   // "megaco" or "otp"
	Config   string `json:"config"` // "ber bin [native]"
	Codec    string `json:"codec"`  // registered codec, or OTP's configuration name
	Family   string `json:"family"` // ber, per, pretty, compact, erl_dist...
	Profile  string `json:"profile,omitempty"`
	Native   bool   `json:"native,omitempty"`
	Mapped   bool   `json:"mapped,omitempty"`
	Reuse    bool   `json:"reuse,omitempty"`
	Messages int    `json:"messages"`
	// Size is the mean encoded size in bytes; the times are the means over
	// messages of the per-message mean, in microseconds.
	Size     float64 `json:"size"`
	EncodeUS float64 `json:"encode_us"`
	DecodeUS float64 `json:"decode_us"`
	TotalUS  float64 `json:"total_us"`
	// Allocations per operation, the mean over messages (ours only).
	EncodeAllocs *float64 `json:"encode_allocs,omitempty"`
	DecodeAllocs *float64 `json:"decode_allocs,omitempty"`
	// OTP rows: the megaco rows doing the same (usually one; erl_dist's
	// compressed rows match every compressed native codec) and OTP's time
	// divided by ours.
	Versus []Ratio `json:"versus,omitempty"`
}

// Ratio is OTP's time divided by ours: above 1, ours is faster.
type Ratio struct {
	Config string  `json:"config"` // the megaco row
	Encode float64 `json:"encode"`
	Decode float64 `json:"decode"`
	Total  float64 `json:"total"`
}

// Throughput is one configuration's messages per second (a message is a
// decode and an encode) for 1..N goroutines.
type Throughput struct {
	Config  string    `json:"config"`
	Codec   string    `json:"codec"`
	PerSec  []float64 `json:"msgs_per_sec"` // [i]: i+1 goroutines
	Scaling float64   `json:"scaling"`      // PerSec[N-1] / PerSec[0]
}

// Report is the result of a run.
type Report struct {
	Corpus     string       `json:"corpus"`
	Messages   int          `json:"messages"`
	PerOp      Duration     `json:"per_op"`
	Rounds     int          `json:"rounds"`
	Statistic  string       `json:"statistic"` // "mean" (OTP\'s) or "fastest round"
	LoadAvg    string       `json:"load_average,omitempty"`
	GoVersion  string       `json:"go_version"`
	Platform   string       `json:"platform"`
	GOMAXPROCS int          `json:"gomaxprocs"`
	NumCPU     int          `json:"num_cpu"`
	OTP        *OTPInfo     `json:"otp,omitempty"`
	Rows       []Row        `json:"rows"`
	Best       []Best       `json:"best,omitempty"`
	Scans      []ScanRow    `json:"scans,omitempty"`
	CPUs       int          `json:"cpus,omitempty"`
	CPUTime    Duration     `json:"cpu_time,omitempty"`
	Throughput []Throughput `json:"throughput,omitempty"`
	Notes      []string     `json:"notes,omitempty"`
	Elapsed    Duration     `json:"elapsed"`
}

// Duration prints as "1.5s" in JSON.
type Duration time.Duration

func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
}

// ErrUsage marks errors in the options.
var ErrUsage = errors.New("bench: bad options")

// group is one codec family: our configurations and OTP's.
type group struct {
	family string
	ours   []*prepared
	scans  []*scanBench // the codecs' scanners and rewriters
	otp    []otpConfig
	otpRes map[string]map[string]*otpAcc // config -> message -> accumulated
	otpErr map[string]string             // config -> why it was dropped
}

// Run measures: it prepares every configuration, runs the rounds family by
// family (ours and OTP's in turn), then the throughput.
func Run(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	m := &measurement{o: o, r: newReport(o), groups: map[string]*group{}, start: start}
	load0 := loadAverage()
	if m.corpus, err = LoadCorpus(o.Corpus); err != nil {
		return nil, err
	}
	m.r.Messages = len(m.corpus.Msgs)
	families, err := m.prepareOurs()
	if err != nil {
		return nil, err
	}
	if o.OTP {
		if c := m.prepareOTP(ctx, families); c != nil {
			defer c.close()
		}
	}
	m.order = m.families()
	if err := m.measureRounds(ctx); err != nil {
		return nil, err
	}
	if err := m.measureThroughput(ctx); err != nil {
		return nil, err
	}
	m.r.Elapsed = Duration(time.Since(start))
	if load1 := loadAverage(); load0 != "" && load1 != "" {
		m.r.LoadAvg = load0 + " at the start, " + load1 + " at the end"
	}
	return m.r, nil
}

// withDefaults fills in the zero options and checks the others.
func (o Options) withDefaults() (Options, error) {
	if o.Corpus == "" {
		o.Corpus = "corpus/otp-time-test"
	}
	if o.PerOp <= 0 {
		o.PerOp = 10 * time.Millisecond
	}
	if o.Rounds <= 0 {
		o.Rounds = 4
	}
	if o.Escript == "" {
		o.Escript = "escript"
	}
	if o.CPUTime <= 0 {
		o.CPUTime = time.Second
	}
	if o.CPUs < 0 {
		return o, fmt.Errorf("%w: --cpus %d", ErrUsage, o.CPUs)
	}
	return o, nil
}

// newReport is the report's header: the run's settings and the machine.
func newReport(o Options) *Report {
	r := &Report{
		Corpus: o.Corpus, PerOp: Duration(o.PerOp), Rounds: o.Rounds,
		GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH,
		GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU(), Statistic: "mean",
	}
	if o.Fastest {
		r.Statistic = "fastest round"
	}
	return r
}

// measurement is a run in progress: the report it fills and the codec
// families it measures.
type measurement struct {
	o      Options
	r      *Report
	start  time.Time
	corpus *Corpus
	groups map[string]*group
	order  []string   // the groups' families, in table order
	otp    *otpClient // nil: OTP is not, or no longer, measured
}

// note adds a note to the report.
func (m *measurement) note(format string, args ...any) {
	m.r.Notes = append(m.r.Notes, fmt.Sprintf(format, args...))
}

// progress tells Options.Progress what is being measured.
func (m *measurement) progress(format string, args ...any) {
	if m.o.Progress != nil {
		fmt.Fprintf(m.o.Progress, "[%6.1fs] %s\n", time.Since(m.start).Seconds(), fmt.Sprintf(format, args...))
	}
}

// group returns family f's group, made on first use.
func (m *measurement) group(f string) *group {
	if m.groups[f] == nil {
		m.groups[f] = &group{family: f, otpRes: map[string]map[string]*otpAcc{}, otpErr: map[string]string{}}
	}
	return m.groups[f]
}

// families are the groups' families in the table's order.
func (m *measurement) families() []string {
	order := make([]string, 0, len(m.groups))
	for f := range m.groups {
		order = append(order, f)
	}
	sortFamilies(order)
	return order
}

// ours are our configurations, in the table's order.
func (m *measurement) ours() []*prepared {
	var all []*prepared
	for _, f := range m.order {
		all = append(all, m.groups[f].ours...)
	}
	return all
}

// prepareOurs prepares every configuration of the selected codecs and
// returns the families whose OTP configurations to run. A codec that
// cannot be prepared is left out with a note, not an error: the others
// are still worth measuring.
func (m *measurement) prepareOurs() ([]string, error) {
	codecs, families, err := selectCodecs(m.o.Codecs, m.o.OTP)
	if err != nil {
		return nil, err
	}
	for _, n := range m.o.Codecs {
		if n = strings.ToLower(strings.TrimSpace(n)); n != "" && !slices.Contains(codecs, n) {
			m.note("%s: no such codec registered here: OTP's rows only (with --otp)", n)
		}
	}
	for _, name := range codecs {
		ps, notes, err := prepareCodec(name, m.corpus)
		if err != nil {
			m.note("%s: %v", name, err)
			continue
		}
		m.r.Notes = append(m.r.Notes, notes...)
		g := m.group(family(name))
		g.ours = append(g.ours, ps...)
		if sb := newScanBench(name, ps); sb != nil {
			g.scans = append(g.scans, sb)
		}
	}
	return families, nil
}

// prepareOTP starts OTP's side and adds its configurations of families to
// the groups. It returns the client to close (nil when it did not start);
// why OTP is not measured goes to the notes: our rows are still wanted.
func (m *measurement) prepareOTP(ctx context.Context, families []string) *otpClient {
	c, err := openOTP(ctx, m.o, m.r)
	if err != nil {
		m.note("OTP not measured: %v; megaco rows only", err)
		return nil
	}
	avail, err := c.configs()
	if err != nil {
		m.note("OTP not measured: %v", err)
		return c
	}
	m.otp = c
	for _, oc := range otpConfigs {
		if !slices.Contains(families, oc.Family) {
			continue
		}
		if why, ok := avail[oc.Name]; !ok || why != "" {
			if !ok {
				why = "not offered by the escript"
			}
			m.note("OTP %s skipped: %s", oc.Label, why)
			continue
		}
		g := m.group(oc.Family)
		g.otp = append(g.otp, oc)
	}
	return c
}

// measureRounds measures family by family; in each round every
// configuration of ours, then OTP's, so that whatever else loads the
// machine weighs alike on both.
func (m *measurement) measureRounds(ctx context.Context) error {
	budget := m.o.PerOp / time.Duration(m.o.Rounds)
	for _, f := range m.order {
		g := m.groups[f]
		for round := 1; round <= m.o.Rounds; round++ {
			for _, p := range g.ours {
				if err := ctx.Err(); err != nil {
					return err
				}
				m.progress("megaco %s: round %d/%d", p.cfg.Label, round, m.o.Rounds)
				p.measureRound(budget)
			}
			for _, oc := range g.otp {
				m.measureOTPRound(g, oc, round, budget)
			}
			for _, sb := range g.scans {
				m.progress("megaco %s scan and rewrite: round %d/%d", sb.d.Name, round, m.o.Rounds)
				sb.measureRound(budget)
			}
		}
		m.r.Rows = append(m.r.Rows, g.rows(m.o.Fastest)...)
		for _, sb := range g.scans {
			m.r.Scans = append(m.r.Scans, sb.rows(m.o.Fastest)...)
			for _, sk := range sb.skips {
				m.note("%s scan or rewrite: %s left out: %s", sb.d.Name, sk.msg, sk.err)
			}
		}
	}
	m.r.Best = bestAgainstBest(m.r.Rows)
	m.r.Notes = append(m.r.Notes, skipNotes(m.ours(), len(m.corpus.Msgs))...)
	return nil
}

// measureOTPRound runs one round of an OTP configuration.
func (m *measurement) measureOTPRound(g *group, oc otpConfig, round int, budget time.Duration) {
	if _, dropped := g.otpErr[oc.Name]; dropped || m.otp == nil {
		return
	}
	m.progress("OTP %s: round %d/%d", oc.Label, round, m.o.Rounds)
	res, skips, err := m.otp.measure(oc.Name, budget, len(m.corpus.Msgs))
	if err != nil {
		// The conversation is lost (the escript ended, or did not answer
		// in time): no more OTP rounds.
		g.otpErr[oc.Name] = err.Error()
		m.note("OTP %s and after: not measured: %v", oc.Label, err)
		m.otp = nil
		return
	}
	g.addOTP(oc.Name, res)
	if round == 1 && len(skips) > 0 {
		names := sortedKeys(skips)
		m.note("OTP %s: %d of %d messages left out (%s); %s: %s",
			oc.Label, len(names), len(m.corpus.Msgs), nameList(names), names[0], skips[names[0]])
	}
}

// measureThroughput measures, with Options.CPUs, the messages per second
// of each of our configurations with 1..CPUs goroutines.
func (m *measurement) measureThroughput(ctx context.Context) error {
	if m.o.CPUs == 0 {
		return nil
	}
	m.r.CPUs, m.r.CPUTime = m.o.CPUs, Duration(m.o.CPUTime)
	for _, p := range m.ours() {
		m.progress("throughput %s: 1..%d goroutines", p.cfg.Label, m.o.CPUs)
		t, err := p.throughput(ctx, m.o.CPUs, m.o.CPUTime)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			m.note("throughput %s: %v", p.cfg.Label, err)
			continue
		}
		m.r.Throughput = append(m.r.Throughput, t)
	}
	return nil
}

// loadAverage is the 1, 5 and 15 minute load average (Linux), or "".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

func openOTP(ctx context.Context, o Options, r *Report) (*otpClient, error) {
	script := o.OTPScript
	if script == "" {
		var err error
		if script, err = findScript(o.Corpus); err != nil {
			return nil, err
		}
	}
	c, err := startOTP(ctx, o.Escript, script, o.Corpus)
	if err != nil {
		return nil, err
	}
	info := c.info
	r.OTP = &info
	return c, nil
}

// selectCodecs resolves the --codecs list into registered codecs to run
// and the families whose OTP configurations to run.
func selectCodecs(list []string, withOTP bool) (codecs, families []string, err error) {
	registered := codec.Names()
	if len(list) == 0 {
		codecs = registered
		if withOTP {
			for _, oc := range otpConfigs {
				if !slices.Contains(families, oc.Family) {
					families = append(families, oc.Family)
				}
			}
		}
	} else {
		for _, n := range list {
			n = strings.ToLower(strings.TrimSpace(n))
			if n == "" {
				continue
			}
			switch {
			case slices.Contains(registered, n):
				if !slices.Contains(codecs, n) {
					codecs = append(codecs, n)
				}
			case isOTPFamily(family(n)):
				// An OTP codec we do not have (yet): OTP's rows only.
			default:
				return nil, nil, fmt.Errorf("%w: unknown codec %q (registered: %s; OTP only: erl_dist)", ErrUsage, n, strings.Join(registered, ", "))
			}
			if f := family(n); isOTPFamily(f) && !slices.Contains(families, f) {
				families = append(families, f)
			}
		}
	}
	slices.Sort(codecs)
	for _, c := range codecs {
		if f := family(c); !slices.Contains(families, f) {
			families = append(families, f)
		}
	}
	return codecs, families, nil
}

// prepareCodec prepares every configuration of a registered codec,
// dropping rfc-profile ones that measure the same as their otp twin.
func prepareCodec(name string, corpus *Corpus) ([]*prepared, []string, error) {
	c, err := codec.Lookup(name, lookupOptions(codec.ProfileOTP))
	if err != nil {
		return nil, nil, err
	}
	var out []*prepared
	var notes []string
	twin := map[string]*prepared{} // otp-profile configuration by shape
	shape := func(cfg Config) string {
		return fmt.Sprint(cfg.Native, cfg.Mapped, cfg.Reuse)
	}
	for _, cfg := range configsFor(name, reusable(c)) {
		p, err := prepare(cfg, corpus)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: not measured: %v", cfg.Label, err))
			continue
		}
		if cfg.Profile == codec.ProfileOTP {
			twin[shape(cfg)] = p
		} else if t := twin[shape(cfg)]; t != nil && p.sameAs(t) {
			continue // the profile changes nothing for this codec
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, notes, errors.New("no configuration could be prepared")
	}
	return out, notes, nil
}

// measureRound measures each message once more: decode, then encode of
// the message (OTP's order).
func (p *prepared) measureRound(budget time.Duration) {
	if p.run == nil {
		p.run = p.newRunner()
	}
	runtime.GC()
	for _, it := range p.items {
		if it.failed {
			continue
		}
		err := p.measureItem(it, budget)
		if err != nil {
			it.failed = true
			p.skips = append(p.skips, skip{it.msg.Name, err.Error()})
		}
	}
}

func (p *prepared) measureItem(it *item, budget time.Duration) error {
	d, e := p.run.decodeOp(it), p.run.encodeOp(it)
	if it.decA.n == 0 {
		a, err := d.allocs()
		if err != nil {
			return err
		}
		it.decA = a
		if a, err = e.allocs(); err != nil {
			return err
		}
		it.encA = a
	}
	s, err := d.measure(budget)
	if err != nil {
		return err
	}
	it.dec1.add(s)
	if s, err = e.measure(budget); err != nil {
		return err
	}
	it.enc1.add(s)
	return nil
}

// otpAcc accumulates OTP's rounds of one configuration on one message.
type otpAcc struct {
	size     int
	enc, dec timing
}

func (g *group) addOTP(name string, res map[string]otpSample) {
	acc := g.otpRes[name]
	if acc == nil {
		acc = map[string]*otpAcc{}
		g.otpRes[name] = acc
	}
	for msg, s := range res {
		a := acc[msg]
		if a == nil {
			a = &otpAcc{size: s.size}
			acc[msg] = a
		}
		a.enc.add(s.enc)
		a.dec.add(s.dec)
	}
}

// rows makes the group's rows: ours, then OTP's compared with ours.
func (g *group) rows(fastest bool) []Row {
	ours := g.ourRows(fastest)
	return append(ours, g.otpRows(ours, fastest)...)
}

// ourRows are the means over the messages each configuration measured.
func (g *group) ourRows(fastest bool) []Row {
	var out []Row
	for _, p := range g.ours {
		var n int
		var size, enc, dec, encA, decA float64
		for _, it := range p.items {
			if it.failed || it.enc1.sum.n == 0 || it.dec1.sum.n == 0 {
				continue
			}
			n++
			size += float64(it.size)
			enc += it.enc1.us(fastest)
			dec += it.dec1.us(fastest)
			encA += float64(it.encA.allocs) / float64(it.encA.n)
			decA += float64(it.decA.allocs) / float64(it.decA.n)
		}
		if n == 0 {
			continue
		}
		fn := float64(n)
		ea, da := encA/fn, decA/fn
		out = append(out, Row{
			Impl: "megaco", Config: p.cfg.Label, Codec: p.cfg.Codec, Family: g.family,
			Profile: string(p.cfg.Profile), Native: p.cfg.Native, Mapped: p.cfg.Mapped, Reuse: p.cfg.Reuse,
			Messages: n, Size: size / fn, EncodeUS: enc / fn, DecodeUS: dec / fn, TotalUS: (enc + dec) / fn,
			EncodeAllocs: &ea, DecodeAllocs: &da,
		})
	}
	return out
}

// otpRows are OTP's configurations' means, each with its time divided by
// that of the rows of ours that do the same.
func (g *group) otpRows(ours []Row, fastest bool) []Row {
	var out []Row
	for _, oc := range g.otp {
		acc := g.otpRes[oc.Name]
		if len(acc) == 0 {
			continue
		}
		var size, enc, dec float64
		for _, s := range acc {
			size += float64(s.size)
			enc += s.enc.us(fastest)
			dec += s.dec.us(fastest)
		}
		fn := float64(len(acc))
		row := Row{
			Impl: "otp", Config: oc.Label, Codec: oc.Name, Family: oc.Family, Profile: "otp",
			Native: strings.HasSuffix(oc.Name, "_native"), Mapped: oc.Family == "ber" || oc.Family == "per",
			Messages: len(acc), Size: size / fn, EncodeUS: enc / fn, DecodeUS: dec / fn, TotalUS: (enc + dec) / fn,
		}
		row.Mapped = row.Mapped && !row.Native
		for _, o := range ours {
			if p := g.byLabel(o.Config); p != nil && oc.matches(p.cfg) {
				row.Versus = append(row.Versus, Ratio{
					Config: o.Config,
					Encode: ratio(row.EncodeUS, o.EncodeUS),
					Decode: ratio(row.DecodeUS, o.DecodeUS),
					Total:  ratio(row.TotalUS, o.TotalUS),
				})
			}
		}
		out = append(out, row)
	}
	return out
}

func (g *group) byLabel(label string) *prepared {
	for _, p := range g.ours {
		if p.cfg.Label == label {
			return p
		}
	}
	return nil
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// skipNotes says which messages each configuration left out, once for
// configurations that left out the same ones.
func skipNotes(ps []*prepared, total int) []string {
	type entry struct {
		labels []string
		skips  []skip
	}
	var order []string
	byKey := map[string]*entry{}
	for _, p := range ps {
		if len(p.skips) == 0 {
			continue
		}
		names := make([]string, len(p.skips))
		for i, s := range p.skips {
			names[i] = s.msg
		}
		key := strings.Join(names, ",")
		e := byKey[key]
		if e == nil {
			e = &entry{skips: p.skips}
			byKey[key] = e
			order = append(order, key)
		}
		e.labels = append(e.labels, p.cfg.Label)
	}
	var out []string
	for _, k := range order {
		e := byKey[k]
		names := strings.Split(k, ",")
		out = append(out, fmt.Sprintf("%s: %d of %d messages left out (%s); %s: %s",
			strings.Join(e.labels, ", "), len(names), total, nameList(names), e.skips[0].msg, e.skips[0].err))
	}
	return out
}

// nameList is the first six names, and "..." when there are more: enough
// to find the messages in the corpus without flooding the notes.
func nameList(names []string) string {
	list := strings.Join(names[:min(len(names), 6)], " ")
	if len(names) > 6 {
		list += " ..."
	}
	return list
}
