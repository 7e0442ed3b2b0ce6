package load

import (
	"math"
	"math/bits"
	"sync/atomic"
	"time"
)

// Hist is a log-linear latency histogram in the manner of HdrHistogram:
// exact below 128 ns, then 64 buckets per power of two, so a recorded
// value is known to within 1/64 (1.6 %) of itself, from 1 ns to about 18
// minutes (longer values count as the largest). Recording is lock-free and
// safe from any number of goroutines; a Snapshot is a plain copy that can
// be subtracted from a later one to get the values of a period.
type Hist struct {
	counts [histBuckets]atomic.Uint64
	sum    atomic.Int64 // ns
	max    atomic.Int64 // ns
}

const (
	histExact   = 128 // values below are their own bucket
	histSub     = 64  // buckets per power of two above
	histMaxBits = 40  // 2^40 ns ≈ 18.3 minutes
	histBuckets = histExact + (histMaxBits-7)*histSub
)

func histIndex(v int64) int {
	if v < histExact {
		if v < 0 {
			return 0
		}
		return int(v)
	}
	n := bits.Len64(uint64(v))
	if n > histMaxBits {
		return histBuckets - 1
	}
	shift := n - 7 // >= 1
	top := int(v >> shift)
	return histExact + (shift-1)*histSub + top - histSub
}

// histRange is the lowest and highest value of bucket i.
func histRange(i int) (lo, hi int64) {
	if i < histExact {
		return int64(i), int64(i)
	}
	shift := (i-histExact)/histSub + 1
	top := int64((i-histExact)%histSub + histSub)
	return top << shift, (top+1)<<shift - 1
}

// Record adds one duration.
func (h *Hist) Record(d time.Duration) {
	v := int64(d)
	h.counts[histIndex(v)].Add(1)
	h.sum.Add(v)
	for {
		m := h.max.Load()
		if v <= m || h.max.CompareAndSwap(m, v) {
			return
		}
	}
}

// Snapshot copies the histogram.
func (h *Hist) Snapshot() *HistSnap {
	s := &HistSnap{Sum: h.sum.Load(), Max: h.max.Load()}
	for i := range h.counts {
		c := h.counts[i].Load()
		s.Counts[i] = c
		s.Count += c
	}
	return s
}

// HistSnap is a copy of a Hist, or the difference of two copies.
type HistSnap struct {
	Counts [histBuckets]uint64
	Count  uint64
	Sum    int64 // ns
	// Max is the largest value recorded; in a difference, the highest
	// value of the highest bucket that gained a count (the exact maximum
	// of a period is not kept).
	Max int64
}

// Sub returns s - prev: the values recorded between the two snapshots.
func (s *HistSnap) Sub(prev *HistSnap) *HistSnap {
	if prev == nil {
		c := *s
		return &c
	}
	d := &HistSnap{Sum: s.Sum - prev.Sum}
	top := -1
	for i := range s.Counts {
		c := s.Counts[i] - prev.Counts[i]
		d.Counts[i] = c
		d.Count += c
		if c > 0 {
			top = i
		}
	}
	if top >= 0 {
		_, hi := histRange(top)
		d.Max = min(hi, s.Max)
	}
	return d
}

// Add adds o's counts into s.
func (s *HistSnap) Add(o *HistSnap) {
	for i := range s.Counts {
		s.Counts[i] += o.Counts[i]
	}
	s.Count += o.Count
	s.Sum += o.Sum
	s.Max = max(s.Max, o.Max)
}

// Quantile returns the value at quantile q (0..1): the middle of the
// bucket holding the ceil(q*count)-th value, and never more than Max. Zero
// when empty.
func (s *HistSnap) Quantile(q float64) time.Duration {
	if s == nil || s.Count == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(s.Count)))
	rank = max(rank, 1)
	var seen uint64
	for i, c := range s.Counts {
		seen += c
		if seen >= rank {
			lo, hi := histRange(i)
			v := lo + (hi-lo)/2
			if s.Max > 0 && v > s.Max {
				v = s.Max
			}
			return time.Duration(v)
		}
	}
	return time.Duration(s.Max)
}

// Mean is the mean value, zero when empty.
func (s *HistSnap) Mean() time.Duration {
	if s == nil || s.Count == 0 {
		return 0
	}
	return time.Duration(s.Sum / int64(s.Count))
}

// CountAtOrBelow counts the values of at most v (bucket resolution: a
// bucket counts when its highest value is at most v).
func (s *HistSnap) CountAtOrBelow(v time.Duration) uint64 {
	var n uint64
	for i, c := range s.Counts {
		if _, hi := histRange(i); hi > int64(v) {
			break
		}
		n += c
	}
	return n
}
