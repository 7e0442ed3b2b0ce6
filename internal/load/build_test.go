package load

import (
	"bytes"
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

func checkBuilds(t *testing.T, b *Builder, cs Codecs) {
	t.Helper()
	var got, want CallMsgs
	for _, n := range callNumbers {
		if err := b.Build(n, &got); err != nil {
			t.Fatalf("%v call %d: %v", cs, n, err)
		}
		if err := b.BuildDecoded(n, &want); err != nil {
			t.Fatalf("%v call %d the long way: %v", cs, n, err)
		}
		for i, st := range b.flow.Steps {
			if !bytes.Equal(got.In[i], want.In[i]) || !bytes.Equal(got.Want[i], want.Want[i]) {
				t.Fatalf("%v call %d %s: rewritten\n in %x\nout %x\nthe long way\n in %x\nout %x",
					cs, n, st.Name, got.In[i], got.Want[i], want.In[i], want.Want[i])
			}
		}
	}
}

// BenchmarkBuild makes one call's messages the long way (decoded) and
// by rewriting (rewrite), per codec pair: run both in one go for their
// ratio.
func BenchmarkBuild(b *testing.B) {
	f, err := LoadFlow()
	if err != nil {
		b.Fatal(err)
	}
	for _, cs := range []Codecs{DefaultCodecs, {MGC: "ber", MG: "ber"}, {MGC: "native", MG: "pretty"}} {
		bd, err := NewBuilder(f, cs)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := bd.Prepare(); err != nil {
			b.Fatal(err)
		}
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
