package ber

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
	"megaco/internal/model"
)

// testChanges are the changes the property tests apply: IDs moved by
// one, to the bounds, to values of other lengths (so that every enclosing
// length changes, some into the long form), and a new mId of each kind.
func testChanges() map[string]*scan.Changes {
	port := model.Opt[uint32]{Present: true, Value: 2944}
	mids := map[string]*model.MId{
		"ip4":    {Kind: model.MId_Ip4Address, Ip4Address: &model.IP4Address{Address: []byte{10, 0, 0, 1}, PortNumber: port}},
		"ip6":    {Kind: model.MId_Ip6Address, Ip6Address: &model.IP6Address{Address: bytes.Repeat([]byte{0xfe}, 16)}},
		"domain": {Kind: model.MId_DomainName, DomainName: &model.DomainName{Name: strings.Repeat("mgc.example.net.", 10), PortNumber: port}},
		"device": {Kind: model.MId_DeviceName, DeviceName: strings.Repeat("d", 64)},
		"mtp":    {Kind: model.MId_MtpAddress, MtpAddress: []byte{1, 2, 3}},
	}
	ids := map[string]func(uint32) uint32{
		"+1":    func(x uint32) uint32 { return x + 1 },
		"zero":  func(uint32) uint32 { return 0 },
		"max":   func(uint32) uint32 { return 1<<32 - 1 },
		"^0x80": func(x uint32) uint32 { return x ^ 0x80 },
		"mul":   func(x uint32) uint32 { return x * 1000003 },
	}
	out := map[string]*scan.Changes{"none": {}}
	for n, f := range ids {
		out["tx"+n] = &scan.Changes{TransactionIDs: f}
		out["ctx"+n] = &scan.Changes{ContextIDs: f}
	}
	for n, m := range mids {
		out["mid-"+n] = &scan.Changes{MID: m}
	}
	out["all"] = &scan.Changes{TransactionIDs: ids["mul"], ContextIDs: ids["^0x80"], MID: mids["domain"]}
	for _, c := range corpus.ChangeCases() {
		out["shared "+c.Name] = &c.Changes
	}
	return out
}

// recoded is the reference: decode -> change -> encode.
func recoded(t testing.TB, data []byte, ch *scan.Changes) ([]byte, error) {
	m, err := Decode(data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	scan.Apply(m, ch)
	return Append(nil, m, Options{})
}

// TestRewriteCorpus: for every corpus message and every test change,
// Rewrite gives decode -> change -> encode byte for byte, from OTP's
// definite form and from the indefinite form (which it re-encodes).
func TestRewriteCorpus(t *testing.T) {
	files := corpus.Files(t, ".ber")
	changes := testChanges()
	n := 0
	for _, name := range corpus.Names(files) {
		data := files[name]
		indef := toIndefinite(t, data)
		for cn, ch := range changes {
			want, werr := recoded(t, data, ch)
			for _, in := range [][]byte{data, indef} {
				got, err := Rewrite([]byte("prefix"), in, ch, limits.Limits{})
				if werr != nil {
					if err == nil {
						t.Fatalf("%s %s: rewrote what does not encode (%v)", name, cn, werr)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s %s: %v", name, cn, err)
				}
				if !bytes.HasPrefix(got, []byte("prefix")) || !bytes.Equal(got[6:], want) {
					t.Fatalf("%s %s:\n got %x\nwant %x", name, cn, got[6:], want)
				}
			}
			if !spliced(t, data, ch) {
				t.Fatalf("%s %s: OTP's encoding was re-encoded, not spliced", name, cn)
			}
			n++
		}
	}
	t.Logf("rewrite = decode -> change -> encode for %d corpus messages x %d changes (definite and indefinite input): %d cases", len(files), len(changes), n)
}

// spliced reports whether Rewrite takes the fast way for data: the
// copy with edits, no decode.
func spliced(t testing.TB, data []byte, ch *scan.Changes) bool {
	var rw rewriter
	if err := rw.scan(data, ch, limits.Default); err != nil {
		t.Fatal(err)
	}
	if err := rw.plan(ch); err != nil {
		return true // refused before any copy
	}
	_, _, ok := rw.emit(nil, data, 0, 0, len(data))
	return ok
}

// Rewriting OTP's encodings allocates nothing once warm.
func TestRewriteAllocates(t *testing.T) {
	msgs := corpus.List(t, ".ber")
	ch := testChanges()["all"]
	buf := make([]byte, 0, 4096)
	run := func() {
		for _, data := range msgs {
			var err error
			if buf, err = Rewrite(buf[:0], data, ch, limits.Limits{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	run()
	if n := testing.AllocsPerRun(10, run); n != 0 {
		t.Errorf("%v allocations per corpus rewrite, want 0", n)
	}
}

// A new mId the encoder refuses is an error, as encoding it would be.
func TestRewriteBadMID(t *testing.T) {
	data := corpus.Read(t, "msg03.ber")
	bad := &scan.Changes{MID: &model.MId{Kind: model.MId_Ip4Address, Ip4Address: &model.IP4Address{Address: []byte{1}}}}
	_, err := Rewrite(nil, data, bad, limits.Limits{})
	corpus.CodecError(t, err, "ber")
}

// PutUint writes the octets an INTEGER of that length has, and says
// when the value needs more.
func TestPutUint(t *testing.T) {
	for _, c := range []struct {
		v    uint32
		n    int
		want string
		ok   bool
	}{
		{5, 1, "05", true}, {0x1234, 2, "1234", true}, {0x1234, 3, "001234", true},
		{0x1234, 1, "34", false}, {1<<32 - 1, 4, "ffffffff", true},
	} {
		b := make([]byte, c.n)
		if ok := PutUint(b, c.v); ok != c.ok || hex.EncodeToString(b) != c.want {
			t.Errorf("PutUint(%d octets, %#x) = %x, %v; want %s, %v", c.n, c.v, b, ok, c.want, c.ok)
		}
	}
}

// sortEdits orders any input, whatever its runs: random runs of random
// lengths, against sort.
func TestSortEdits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var tmp []edit
	for range 2000 {
		var es []edit
		for range rnd.IntN(6) {
			off := rnd.IntN(50)
			for range rnd.IntN(20) {
				off += rnd.IntN(4)
				es = append(es, edit{span: scan.Span{Off: off}})
			}
		}
		want := make([]int, len(es))
		for i, e := range es {
			want[i] = e.span.Off
		}
		slices.Sort(want)
		tmp = sortEdits(es, tmp)
		for i, e := range es {
			if e.span.Off != want[i] {
				t.Fatalf("sorted %v, want %v", es, want)
			}
		}
	}
}

// appendID writes an ID as appendUint does.
func TestAppendID(t *testing.T) {
	for _, v := range []uint32{0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffffff, 0x7fffffff, 0x80000000, 1<<32 - 1} {
		got, want := appendID([]byte{9}, 0x80, v), appendUint([]byte{9}, "\x80", uint64(v))
		if !bytes.Equal(got, want) {
			t.Errorf("appendID(%#x) = % x, want % x", v, got, want)
		}
	}
}

// putLen writes what endLen writes, whatever room was held for the
// length.
func TestPutLen(t *testing.T) {
	for _, n := range []int{0, 5, 0x7f, 0x80, 0xff, 0x100, 0x1234, 0x10000} {
		body := bytes.Repeat([]byte{7}, n)
		want := endLen(append([]byte{0xa1, 0}, body...), 1)
		for k := 1; k <= 4; k++ {
			b := append(append([]byte{0xa1}, make([]byte, k)...), body...)
			if got := putLen(b, 1, k, n); !bytes.Equal(got, want) {
				t.Fatalf("length %d with %d octets held: % x..., want % x...", n, k, got[:min(8, len(got))], want[:min(8, len(want))])
			}
		}
	}
}

// Rewrite is safe for concurrent use: callers that find the rewriter at
// hand taken use the pool, and every result is the sequential one.
func TestRewriteConcurrent(t *testing.T) {
	msgs := corpus.List(t, ".ber")
	ch := testChanges()["all"]
	want := make([][]byte, len(msgs))
	for i, data := range msgs {
		var err error
		if want[i], err = Rewrite(nil, data, ch, limits.Limits{}); err != nil {
			t.Fatal(err)
		}
	}
	const workers = 4
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func() {
			var buf []byte
			for round := 0; round < 5; round++ {
				for i, data := range msgs {
					var err error
					if buf, err = Rewrite(buf[:0], data, ch, limits.Limits{}); err != nil {
						errs <- err
						return
					}
					if !bytes.Equal(buf, want[i]) {
						errs <- fmt.Errorf("message %d: concurrent rewrite % x, want % x", i, buf, want[i])
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
