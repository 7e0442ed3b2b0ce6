package load

import (
	"bytes"
	"sync"
	"testing"

	"megaco/internal/codec"
)

// callNumbers are calls at the edges of what varies: the termination
// IDs' two octets, and the transaction and context IDs' wrap near 2^32.
// Runs of calls with IDs of the same lengths come between, which a
// Builder makes by patching the last call's bytes.
var callNumbers = []uint64{0, 1, 255, 256, 300, 301, 302, 9000, 9001, 65535, 65536, 65536 + 257, 65536 + 258,
	1<<32/14 - 1, 1<<32/14 + 1, 1<<32 - 3, 1<<32 - 2, 1<<32 - 1, 1 << 32, 1<<32 + 1, 3<<32 + 12345, 3<<32 + 12346, 1<<64 - 1}

// Build (rewriting the prepared encodings) gives the long way's bytes
// (BuildDecoded) for every codec pair the generator takes and call
// numbers across every edge.
func TestBuildRewriteMatchesDecoded(t *testing.T) {
	f, err := LoadFlow()
	if err != nil {
		t.Fatal(err)
	}
	pairs, patched := 0, map[string]int{}
	for _, mgc := range codec.Names() {
		for _, mg := range codec.Names() {
			cs := Codecs{MGC: mgc, MG: mg}
			b, err := NewBuilder(f, cs)
			if err != nil {
				t.Logf("%v: not taken: %v", cs, err)
				continue
			}
			if _, err := b.Prepare(); err != nil {
				t.Logf("%v: not taken: %v", cs, err)
				continue
			}
			pairs++
			c := b.clone()
			checkBuilds(t, c, cs)
			for _, p := range c.patchers {
				patched[p[0].name] += p[0].patched
				patched[p[1].name] += p[1].patched
			}
		}
	}
	if pairs == 0 {
		t.Fatal("no codec pair prepares")
	}
	t.Logf("%d codec pairs; messages patched by codec: %v", pairs, patched)
	for _, name := range []string{"ber", "per", "native", "compact", "pretty"} {
		if patched[name] == 0 {
			t.Errorf("no %s message patched", name)
		}
	}
}

// prepared is a prepared Builder of the call flow in codecs cs.
func prepared(t testing.TB, cs Codecs) *Builder {
	t.Helper()
	f, err := LoadFlow()
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBuilder(f, cs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Prepare(); err != nil {
		t.Fatal(err)
	}
	return b
}

// checkBuilds compares Build with BuildDecoded on calls ns (callNumbers
// if none).
func checkBuilds(t *testing.T, b *Builder, cs Codecs, ns ...uint64) {
	t.Helper()
	if len(ns) == 0 {
		ns = callNumbers
	}
	var got, want CallMsgs
	for _, n := range ns {
		if err := b.Build(n, &got); err != nil {
			t.Errorf("%v call %d: %v", cs, n, err)
			return
		}
		if err := b.BuildDecoded(n, &want); err != nil {
			t.Errorf("%v call %d the long way: %v", cs, n, err)
			return
		}
		for i, st := range b.flow.Steps {
			if !bytes.Equal(got.In[i], want.In[i]) || !bytes.Equal(got.Want[i], want.Want[i]) {
				t.Errorf("%v call %d %s: rewritten\n in %x\nout %x\nthe long way\n in %x\nout %x",
					cs, n, st.Name, got.In[i], got.Want[i], want.In[i], want.Want[i])
				return
			}
		}
	}
}

// BenchmarkBuild makes one call's messages the long way (decoded) and
// by rewriting (rewrite), per codec pair: run both in one go for their
// ratio.
func BenchmarkBuild(b *testing.B) {
	for _, cs := range []Codecs{DefaultCodecs, {MGC: "ber", MG: "ber"}, {MGC: "native", MG: "pretty"}} {
		bd := prepared(b, cs)
		for _, way := range []struct {
			name  string
			build func(uint64, *CallMsgs) error
		}{{"decoded", bd.BuildDecoded}, {"rewrite", bd.Build}} {
			b.Run(cs.MGC+"-"+cs.MG+"/"+way.name, func(b *testing.B) {
				var cm CallMsgs
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if err := way.build(uint64(i), &cm); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// A Builder cloned when another has made a call starts from what that
// call taught their patchers: its first call with IDs of the same lengths
// is patched on every side that patches, not rewritten, and gives the
// long way's bytes.
func TestCloneLearnsFromOthers(t *testing.T) {
	for _, cs := range []Codecs{DefaultCodecs, {MGC: "pretty", MG: "per"}, {MGC: "native", MG: "ber"}} {
		b := prepared(t, cs)
		checkBuilds(t, b.clone(), cs, 1000)
		c := b.clone()
		checkBuilds(t, c, cs, 1001)
		want, got := 0, 0
		for i, ps := range c.patchers {
			for k, p := range ps {
				if p.cur == nil || (k == 1 && c.sameBase[i]) {
					continue
				}
				want++
				got += p.patched
			}
		}
		if want == 0 || got != want {
			t.Errorf("%v: the second clone's first call patched %d sides of %d that patch", cs, got, want)
		}
	}
}

// Builders cloned and used at once, as a run's calls use them, each give
// the long way's bytes; their shared rewriters and patchers' shared
// parts are not written by two at once (run with -race: make test does),
// in text and binary codecs.
func TestClonesConcurrent(t *testing.T) {
	for _, cs := range []Codecs{{MGC: "pretty", MG: "compact"}, DefaultCodecs, {MGC: "native", MG: "ber"}} {
		b := prepared(t, cs)
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := b.clone()
				for n := range uint64(8) {
					checkBuilds(t, c, cs, 256+n*1000+uint64(w), 65536+n*4096+uint64(w))
				}
			}()
		}
		wg.Wait()
	}
}

// BenchmarkCloneFirstCall is what a call costs a run when every Builder
// is in use: a new one cloned from the prepared one, and its first call.
func BenchmarkCloneFirstCall(b *testing.B) {
	bd := prepared(b, DefaultCodecs)
	var cm CallMsgs
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := bd.clone().Build(uint64(1000+i), &cm); err != nil {
			b.Fatal(err)
		}
	}
}

// A step side keeps at most maxLessons lessons, starting over past that,
// and calls of many signatures (IDs of every length) still give the
// long way's bytes, those made from a lesson kept before a start over
// included.
func TestLessonsBounded(t *testing.T) {
	for _, cs := range []Codecs{DefaultCodecs, {MGC: "pretty", MG: "native"}} {
		b := prepared(t, cs)
		c := b.clone()
		var ns []uint64
		for k := range 64 {
			for j := 0; j < 32; j += 4 {
				ns = append(ns, 1<<k+1<<j, 3<<k/2+1<<j)
			}
		}
		sigs := map[*patcher]map[string]bool{}
		for range 2 {
			for _, n := range ns {
				checkBuilds(t, c, cs, n)
				for _, ps := range c.patchers {
					for _, p := range ps {
						if sigs[p] == nil {
							sigs[p] = map[string]bool{}
						}
						sigs[p][string(p.newSig)] = true
					}
				}
			}
		}
		most, seen := 0, 0
		for _, s := range sigs {
			seen = max(seen, len(s))
		}
		if seen <= maxLessons {
			t.Errorf("%v: %d signatures at most in a step side: the bound is not reached", cs, seen)
		}
		for _, ps := range c.patchers {
			for _, p := range ps {
				p.lessons.mu.Lock()
				most = max(most, len(p.lessons.bySig))
				p.lessons.mu.Unlock()
			}
		}
		if most > maxLessons {
			t.Errorf("%v: %d lessons kept, more than %d", cs, most, maxLessons)
		}
		t.Logf("%v: up to %d signatures and %d lessons in a step side", cs, seen, most)
	}
}
