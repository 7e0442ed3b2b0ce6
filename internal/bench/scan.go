package bench

import (
	"time"

	"megaco/internal/codec"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/model"
)

// ScanRow is a codec's scanner against its full decode, or its rewriter
// against decode -> change -> encode, on the same messages in the same
// rounds (issue 18: at least 10x and 5x faster).
type ScanRow struct {
	Config string `json:"config"` // "ber scan", "ber scan [transactions]", "ber rewrite"
	Codec  string `json:"codec"`
	Family string `json:"family"`
	Op     string `json:"op"` // "scan" or "rewrite"
	// Depth is a scan's scan.Depth ("everything", or "transactions": what
	// a proxy routing replies reads).
	Depth    string `json:"depth,omitempty"`
	Versus   string `json:"versus"`   // what it is compared with
	Messages int    `json:"messages"` // that both handled
	// The times are the means over messages of the per-message mean, in
	// microseconds; allocations per operation, the mean over messages.
	US             float64 `json:"us"`
	BaselineUS     float64 `json:"baseline_us"`
	Allocs         float64 `json:"allocs"`
	BaselineAllocs float64 `json:"baseline_allocs"`
	Speedup        float64 `json:"speedup"` // BaselineUS / US
}

// scanBench measures the scanner (and rewriter) of a codec on the
// encodings of one of its configurations (the binary or text form without
// mapping, reused memory where the codec has it), whose decoder is the
// baseline.
type scanBench struct {
	d     *codec.Descriptor
	p     *prepared
	dec   decodeFunc
	items []*scanItem
	sum   scan.Summary
	// shallow is the summary of the scan at the shallowest useful depth.
	shallow scan.Summary
	buf     []byte
	ch      scan.Changes
	// rewrite is the codec's rewriter, with memory of its own where the
	// codec keeps some (codec.NewRewriter): a load generator's.
	rewrite codec.Rewriter
	skips   []skip
}

// scanItem is one message's timings: [scanOp..recodeOp].
type scanItem struct {
	it     *item
	t      [nOps]timing
	a      [nOps]sample
	failed bool
}

const (
	scanOp    = iota
	shallowOp // the scan at shallowDepth
	decodeOp
	rewriteOp
	recodeOp
	nOps
)

// shallowDepth is the depth of the second scan row: what a proxy routing
// replies needs. A scanner that does not honour it (it may read more)
// measures as the full scan.
const shallowDepth = scan.Transactions

// newScanBench returns the scan measurement of a codec from its prepared
// configurations, nil when it has no scanner or no configuration to take
// the encodings from.
func newScanBench(name string, ps []*prepared) *scanBench {
	d, ok := codec.Describe(name)
	if !ok || d.Scan == nil {
		return nil
	}
	var base *prepared
	for _, p := range ps {
		if !p.cfg.Mapped && p.cfg.Profile == codec.ProfileOTP && (base == nil || p.cfg.Reuse) {
			base = p
		}
	}
	if base == nil {
		return nil
	}
	sb := &scanBench{d: d, p: base, dec: base.newRunner().dec, shallow: scan.Summary{Want: shallowDepth}}
	// A load generator's changes: new transaction and context IDs.
	sb.ch = scan.Changes{
		TransactionIDs: func(x uint32) uint32 { return x + 1000 },
		ContextIDs:     func(x uint32) uint32 { return x + 1000 },
	}
	for _, it := range base.items {
		sb.items = append(sb.items, &scanItem{it: it})
	}
	return sb
}

// ops are the operations measured on a message, by index; a nil op is
// not measured (the codec has no rewriter).
func (sb *scanBench) ops(it *item) [nOps]*op {
	var ops [nOps]*op
	lim := limits.Limits{}
	ops[scanOp] = &op{run: func(int) error { return sb.d.Scan(it.enc, &sb.sum, lim) }}
	ops[shallowOp] = &op{run: func(int) error { return sb.d.Scan(it.enc, &sb.shallow, lim) }}
	ops[decodeOp] = &op{run: func(int) error {
		_, release, err := sb.dec(it.enc)
		release()
		return err
	}}
	if sb.d.Rewrite == nil {
		return ops
	}
	if sb.rewrite == nil {
		sb.rewrite, _ = codec.NewRewriter(sb.d.Name) // a known name
	}
	ops[rewriteOp] = &op{run: func(int) (err error) {
		sb.buf, err = sb.rewrite(sb.buf[:0], it.enc, &sb.ch, lim)
		return err
	}}
	ops[recodeOp] = &op{run: func(int) error {
		m, release, err := sb.dec(it.enc)
		if err != nil {
			return err
		}
		defer release()
		return sb.recode(m)
	}}
	return ops
}

func (sb *scanBench) recode(m *model.MegacoMessage) (err error) {
	scan.Apply(m, &sb.ch)
	sb.buf, err = sb.p.c.Append(sb.buf[:0], m)
	return err
}

// measureRound measures each message's operations once more, in turn.
func (sb *scanBench) measureRound(budget time.Duration) {
	for _, si := range sb.items {
		if si.failed {
			continue
		}
		if err := si.measure(sb.ops(si.it), budget); err != nil {
			si.failed = true
			sb.skips = append(sb.skips, skip{si.it.msg.Name, err.Error()})
		}
	}
}

func (si *scanItem) measure(ops [nOps]*op, budget time.Duration) error {
	for i, o := range ops {
		if o == nil {
			continue
		}
		if si.a[i].n == 0 {
			a, err := o.allocs()
			if err != nil {
				return err
			}
			si.a[i] = a
		}
		s, err := o.measure(budget)
		if err != nil {
			return err
		}
		si.t[i].add(s)
	}
	return nil
}

// rows are the scan rows (everything, and shallowDepth) and, with a
// rewriter, the rewrite row.
func (sb *scanBench) rows(fastest bool) []ScanRow {
	label := sb.p.cfg.Label
	full := sb.row("scan", scanOp, decodeOp, label+" decode", fastest)
	full.Depth = scan.Everything.String()
	shallow := sb.row("scan", shallowOp, decodeOp, label+" decode", fastest)
	shallow.Config += " [" + shallowDepth.String() + "]"
	shallow.Depth = shallowDepth.String()
	out := []ScanRow{full, shallow}
	if sb.d.Rewrite != nil {
		out = append(out, sb.row("rewrite", rewriteOp, recodeOp, label+" decode -> change -> encode", fastest))
	}
	return out
}

func (sb *scanBench) row(name string, i, base int, versus string, fastest bool) ScanRow {
	r := ScanRow{Config: sb.d.Name + " " + name, Codec: sb.d.Name, Family: family(sb.d.Name), Op: name, Versus: versus}
	for _, si := range sb.items {
		if si.failed || si.t[i].sum.n == 0 || si.t[base].sum.n == 0 {
			continue
		}
		r.Messages++
		r.US += si.t[i].us(fastest)
		r.BaselineUS += si.t[base].us(fastest)
		r.Allocs += float64(si.a[i].allocs) / float64(si.a[i].n)
		r.BaselineAllocs += float64(si.a[base].allocs) / float64(si.a[base].n)
	}
	if n := float64(r.Messages); n > 0 {
		r.US, r.BaselineUS, r.Allocs, r.BaselineAllocs = r.US/n, r.BaselineUS/n, r.Allocs/n, r.BaselineAllocs/n
		r.Speedup = ratio(r.BaselineUS, r.US)
	}
	return r
}
