// Package hist is a sharded Prometheus histogram vector for per-message
// paths (see Vec): the codec series of the service and the proxy, and the
// proxy's transaction durations.
package hist

import (
	"math"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// Vec is a histogram vector, classic buckets and native ones, for the
// per-message path. The client library's histogram costs several atomic
// operations and a sync.Map look-up per observation, about 6 % of the
// proxy's CPU when it counted every decode and encode; here each read
// loop (worker) counts into its own shard under an uncontended lock, and
// a scrape adds the shards up. What a scrape reads is the client's
// histogram: the same classic buckets, and native buckets of the schema
// the bucket factor picks, made coarser while there are more than
// maxBuckets of them. Unlike the client's, it never resets.
type Vec struct {
	desc       *prometheus.Desc
	bounds     []float64 // classic buckets' upper bounds
	schema     int32
	maxBuckets int
	// eager: series with no observation are scraped too (their label
	// values were made up front); otherwise a series appears with its
	// first observation, as the client's vectors do.
	eager  bool
	mu     sync.Mutex // guards series, not their counts
	series []*Series
}

// histShards is how many shards each series has: read loops take them in
// turn, so a few busy loops rarely share one.
const histShards = 8

// Series is one series: its label values and a shard per worker group.
type Series struct {
	labels  []string
	created time.Time
	shards  [histShards]histCounts
}

// histCounts is one shard of a series' counts, padded so that two
// shards written by two cores do not share a cache line.
type histCounts struct {
	mu      sync.Mutex
	count   uint64
	sum     float64
	classic []uint64 // per classic bucket, not cumulative; the last is +Inf
	lo      int      // the native key of native[0]
	native  []uint64 // dense counts of native keys lo, lo+1, ...
	zero    uint64   // observations at or below zero
	_       [64]byte
}

// NewVec makes a Vec of the client library's options: its name,
// help, classic buckets, and native bucket factor and bucket bound (it
// never resets, whatever the options' reset duration). Eager: see
// Vec.
func NewVec(o prometheus.HistogramOpts, labels []string, eager bool) *Vec {
	return &Vec{
		desc:       prometheus.NewDesc(o.Name, o.Help, labels, nil),
		bounds:     o.Buckets,
		schema:     schemaFor(o.NativeHistogramBucketFactor),
		maxBuckets: int(o.NativeHistogramMaxBucketNumber),
		eager:      eager,
	}
}

// schemaFor is the finest native schema whose buckets grow by at most
// factor each (as the client library picks it).
func schemaFor(factor float64) int32 {
	return int32(min(8, max(-4, -math.Floor(math.Log2(math.Log2(factor))))))
}

// with returns the series of these label values, made on first use
// (resolve series once, outside the per-message path).
func (v *Vec) With(labels ...string) *Series {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, s := range v.series {
		if slices.Equal(s.labels, labels) {
			return s
		}
	}
	s := &Series{labels: slices.Clone(labels), created: time.Now()}
	for i := range s.shards {
		s.shards[i].classic = make([]uint64, len(v.bounds)+1)
	}
	v.series = append(v.series, s)
	return s
}

// observe counts x in the series' shard (any int; taken modulo the
// shards).
func (v *Vec) Observe(s *Series, shard int, x float64) {
	if math.IsNaN(x) {
		return
	}
	b := search(v.bounds, x)
	key, native := nativeKey(x, v.schema)
	c := &s.shards[uint(shard)%histShards]
	c.mu.Lock()
	c.count++
	c.sum += x
	c.classic[b]++
	if native {
		c.add(key)
	} else {
		c.zero++
	}
	c.mu.Unlock()
}

// nativeKey is the native bucket of x at schema (> 0), as the client
// library computes it; native is false for the zero bucket.
func nativeKey(x float64, schema int32) (key int, native bool) {
	if x <= prometheus.DefNativeHistogramZeroThreshold {
		return 0, false
	}
	var frac float64
	var exp int
	if b := math.Float64bits(x); b>>52 != 0 && b>>52 != 0x7ff {
		// A positive normal number: math.Frexp without its call and its
		// cases (the mantissa scaled to [0.5, 1), its exponent to match).
		exp = int(b>>52) - 1022
		frac = math.Float64frombits(b&(1<<52-1) | 1022<<52)
	} else {
		frac, exp = math.Frexp(min(x, math.MaxFloat64))
	}
	bounds := nativeBounds[schema]
	key = search(bounds, frac) + (exp-1)*len(bounds)
	if math.IsInf(x, 1) {
		key++
	}
	return key, true
}

// search is sort.SearchFloat64s without its closure call per step (it
// runs twice per observation): the index of the first bound >= x.
func search(bounds []float64, x float64) int {
	lo, hi := 0, len(bounds)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bounds[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// nativeBounds holds, per positive schema, the bucket bounds within
// [0.5, 1): 2^(i/2^schema - 1).
var nativeBounds = func() [9][]float64 {
	var out [9][]float64
	for s := 1; s <= 8; s++ {
		n := 1 << s
		for i := range n {
			out[s] = append(out[s], math.Exp2(float64(i)/float64(n)-1))
		}
	}
	return out
}()

// add counts one observation in native bucket key, growing the dense
// window to reach it.
func (c *histCounts) add(key int) {
	switch {
	case len(c.native) == 0:
		c.lo = key
		c.native = append(c.native, 0)
	case key < c.lo:
		grow := c.lo - key
		c.native = append(make([]uint64, grow, grow+len(c.native)), c.native...)
		c.lo = key
	case key >= c.lo+len(c.native):
		c.native = append(c.native, make([]uint64, key-c.lo-len(c.native)+1)...)
	}
	c.native[key-c.lo]++
}

// Describe implements prometheus.Collector.
func (v *Vec) Describe(ch chan<- *prometheus.Desc) { ch <- v.desc }

// Collect implements prometheus.Collector: each series' shards added up.
func (v *Vec) Collect(ch chan<- prometheus.Metric) {
	v.mu.Lock()
	series := slices.Clone(v.series)
	v.mu.Unlock()
	for _, s := range series {
		if m := v.merge(s); m.count > 0 || v.eager {
			ch <- &histMetric{v: v, s: s, snap: m}
		}
	}
}

// histSnap is a series' counts at a scrape.
type histSnap struct {
	count   uint64
	sum     float64
	classic []uint64
	native  map[int]int64
	zero    uint64
	schema  int32
}

func (v *Vec) merge(s *Series) histSnap {
	m := histSnap{classic: make([]uint64, len(v.bounds)+1), native: map[int]int64{}, schema: v.schema}
	for i := range s.shards {
		c := &s.shards[i]
		c.mu.Lock()
		m.count += c.count
		m.sum += c.sum
		for b, n := range c.classic {
			m.classic[b] += n
		}
		for k, n := range c.native {
			if n > 0 {
				m.native[c.lo+k] += int64(n)
			}
		}
		m.zero += c.zero
		c.mu.Unlock()
	}
	for len(m.native) > v.maxBuckets && m.schema > -4 {
		m.native, m.schema = widen(m.native), m.schema-1
	}
	return m
}

// widen merges pairs of native buckets: the same counts at the next
// coarser schema (bucket k holds (2^((k-1)/2^s), 2^(k/2^s)], so keys 2j-1
// and 2j become j).
func widen(b map[int]int64) map[int]int64 {
	out := make(map[int]int64, len(b)/2+1)
	for k, n := range b {
		out[int(math.Ceil(float64(k)/2))] += n
	}
	return out
}

// histMetric is a series as one scrape reads it.
type histMetric struct {
	v    *Vec
	s    *Series
	snap histSnap
}

func (m *histMetric) Desc() *prometheus.Desc { return m.v.desc }

// Write fills out as the client library's histogram writes one with
// classic and native buckets: the native part from a constant native
// histogram, the classic buckets cumulated here.
func (m *histMetric) Write(out *dto.Metric) error {
	n := m.snap
	native, err := prometheus.NewConstNativeHistogram(m.v.desc, n.count, n.sum, n.native, nil, n.zero,
		n.schema, prometheus.DefNativeHistogramZeroThreshold, m.s.created, m.s.labels...)
	if err != nil {
		return err
	}
	if err := native.Write(out); err != nil {
		return err
	}
	var cum uint64
	for i, bound := range m.v.bounds {
		cum += n.classic[i]
		out.Histogram.Bucket = append(out.Histogram.Bucket, &dto.Bucket{CumulativeCount: new(cum), UpperBound: new(bound)})
	}
	return nil
}
