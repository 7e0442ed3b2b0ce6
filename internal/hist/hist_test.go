package hist

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"
)

// TestHistVecAsClient: a Vec scrapes as the client library's
// histogram with the same buckets and observations: count, sum, classic
// and native buckets alike, also once the native buckets outnumber the
// bound and are made coarser.
func TestHistVecAsClient(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n      int
		values func(r *rand.Rand) float64
	}{
		{"durations", 20000, func(r *rand.Rand) float64 { return math.Exp(r.NormFloat64()*2 - 10) }},
		{"wide", 20000, func(r *rand.Rand) float64 { return math.Exp(r.NormFloat64() * 20) }},
		{"zero and edges", 20000, func(r *rand.Rand) float64 {
			return []float64{0, 1e-6, 0.5, 1, 2, 0.004096, math.Inf(1)}[r.IntN(7)]
		}},
		{"empty", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bounds := prometheus.ExponentialBuckets(1e-6, 2, 13)
			opts := prometheus.HistogramOpts{
				Name: "h", Help: "h", Buckets: bounds,
				NativeHistogramBucketFactor: 1.1, NativeHistogramMaxBucketNumber: 160,
				NativeHistogramMinResetDuration: time.Hour,
			}
			mine := NewVec(opts, []string{"l"}, true)
			theirs := prometheus.NewHistogramVec(opts, []string{"l"})
			s := mine.With("x")
			r := rand.New(rand.NewPCG(1, 2))
			theirs.WithLabelValues("x")
			for i := range tc.n {
				v := tc.values(r)
				mine.Observe(s, i, v)
				theirs.WithLabelValues("x").Observe(v)
			}
			got, want := scrape(t, mine), scrape(t, theirs)
			// The shards' sums are added in another order: the last
			// bits of the sum may differ.
			if g, w := got.GetSampleSum(), want.GetSampleSum(); g != w && math.Abs(g-w) > 1e-9*math.Abs(w) {
				t.Errorf("sum %v, the client's %v", g, w)
			}
			got.SampleSum = want.SampleSum
			if !proto.Equal(got, want) {
				t.Errorf("Vec scraped\n%v\nthe client's histogram\n%v", got, want)
			}
		})
	}
}

// TestHistVecLazy: a series without observations is scraped only when
// the vector is eager.
func TestHistVecLazy(t *testing.T) {
	for _, eager := range []bool{false, true} {
		v := NewVec(testOpts, []string{"l"}, eager)
		v.With("x")
		reg := prometheus.NewRegistry()
		reg.MustRegister(v)
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		if got := len(mfs) == 1; got != eager {
			t.Errorf("eager %v: %d families scraped", eager, len(mfs))
		}
	}
}

// scrape gathers c's one histogram, without its creation time.
func scrape(t *testing.T, c prometheus.Collector) *dto.Histogram {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	if len(mfs) != 1 || len(mfs[0].Metric) != 1 {
		t.Fatalf("scraped %v", mfs)
	}
	h := mfs[0].Metric[0].Histogram
	h.CreatedTimestamp = nil
	return h
}

// TestHistVecConcurrent: read loops observing while a scrape runs lose
// nothing (run with -race to check the shards' locking).
func TestHistVecConcurrent(t *testing.T) {
	v := NewVec(testOpts, []string{"l"}, false)
	s := v.With("x")
	reg := prometheus.NewRegistry()
	reg.MustRegister(v)
	done := make(chan struct{})
	for g := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 1000 {
				v.Observe(s, g, float64(i%3))
			}
		}()
	}
	for range 4 {
		if _, err := reg.Gather(); err != nil {
			t.Error(err)
		}
		<-done
	}
	if h := scrape(t, v); h.GetSampleCount() != 4000 || h.GetSampleSum() != 4*999 {
		t.Errorf("count %d sum %v, want 4000 and %d", h.GetSampleCount(), h.GetSampleSum(), 4*999)
	}
}

// testOpts is a histogram with one classic bucket.
var testOpts = prometheus.HistogramOpts{
	Name: "h", Help: "h", Buckets: []float64{1},
	NativeHistogramBucketFactor: 1.1, NativeHistogramMaxBucketNumber: 160,
}
