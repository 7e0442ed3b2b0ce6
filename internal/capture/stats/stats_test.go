package stats_test

import (
	"bytes"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"megaco/internal/capture/stats"
	"megaco/internal/codec"
	"megaco/internal/model"
)

var (
	mgc  = netip.MustParseAddrPort("10.0.0.1:2944")
	mg   = netip.MustParseAddrPort("10.0.0.2:2944")
	mg2  = netip.MustParseAddrPort("10.0.0.3:2944")
	base = time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
)

func add(t *testing.T, st *stats.Stats, ms float64, src, dst netip.AddrPort, body string) {
	t.Helper()
	z := stats.Summarizer{From: "compact"}
	sum, _, err := z.Summarize([]byte("!/1 [10.0.0.9]:2944\n" + body))
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	st.Add(base.Add(time.Duration(ms*float64(time.Millisecond))), src, dst, sum)
}

func TestStats(t *testing.T) {
	st := stats.New()
	add(t, st, 0, mgc, mg, `T=1{C=${A=a1{M{ST=1{O{MO=SR}}}},A=a2}}`)
	add(t, st, 2, mg, mgc, `PN=1{}`)
	add(t, st, 10, mg, mgc, `P=1{C=5{A=a1,A=a2}}`)
	add(t, st, 0, mgc, mg, `T=2{C=-{MF=a1{M{ST=1{O{MO=SR}}}}}}`)
	add(t, st, 5, mgc, mg, `T=2{C=-{MF=a1{M{ST=1{O{MO=SR}}}}}}`) // retransmitted
	add(t, st, 20, mg, mgc, `P=2{C=-{MF=a1}}`)
	add(t, st, 21, mgc, mg, `K{2}`)
	add(t, st, 30, mg, mgc, `T=3{C=-{N=a1{OE=1{al/of}}}}`) // never answered
	add(t, st, 31, mg, mgc, `P=99{C=-{MF=a1}}`)            // no request
	add(t, st, 40, mg, mgc, `T=4{C=-{SC=ROOT{SV{MT=RS,RE="901"}}}}`)
	add(t, st, 43, mgc, mg, `P=4{ER=501{"not implemented"}}`)
	add(t, st, 50, mgc, mg2, `T=4{C=-{MF=a1}}`) // same ID, other peers
	add(t, st, 51, mg2, mgc, `P=4{C=-{MF=a1,ER=410{}}}`)
	add(t, st, 52, mgc, mg2, `K{5-7,9}`)
	add(t, st, 60, mgc, mg, `ER=400{"syntax"}`)

	got := map[string]stats.SRT{}
	for _, r := range st.Table() {
		got[r.Command] = r
	}
	want := map[string]time.Duration{"add": 10 * time.Millisecond, "modify": time.Millisecond, "serviceChange": 3 * time.Millisecond}
	if len(got) != 3 || got["modify"].Count != 2 {
		t.Errorf("table %+v", got)
	}
	for c, d := range want {
		if got[c].Min != d {
			t.Errorf("%s: %+v, want %s", c, got[c], d)
		}
	}
	if byCmd := st.ByCommand(); byCmd[0].Command != "add" || byCmd[0].Count != 2 {
		t.Errorf("by command: %+v (two adds in transaction 1)", byCmd)
	}
	if st.Requests != 5 || st.Retransmits != 1 || st.Replies != 5 || st.Unmatched != 1 || st.Pendings != 1 || st.Acks != 5 || st.Unanswered() != 1 {
		t.Errorf("counts %+v, unanswered %d", *st, st.Unanswered())
	}
	if fmt.Sprint(st.Errors) != "map[400:1 410:1 501:1]" {
		t.Errorf("errors %v", st.Errors)
	}
	var out bytes.Buffer
	if err := st.Write(&out); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"modify      2", "unanswered 1", "error descriptors by code: 400:1 410:1 501:1"} {
		if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), strings.Join(strings.Fields(s), " ")) {
			t.Errorf("output lacks %q:\n%s", s, out.String())
		}
	}
}

// TestPercentiles: nearest rank over 1..100 ms.
func TestPercentiles(t *testing.T) {
	st := stats.New()
	for i := 1; i <= 100; i++ {
		ms := float64(i * 1000)
		add(t, st, ms, mgc, mg, fmt.Sprintf(`T=%d{C=-{N=a1{OE=1{al/of}}}}`, i))
		add(t, st, ms+float64(101-i), mg, mgc, fmt.Sprintf(`P=%d{C=-{N=a1}}`, i))
	}
	r := st.Table()[0]
	ms := time.Millisecond
	if r.Count != 100 || r.Min != ms || r.Max != 100*ms || r.P50 != 50*ms || r.P99 != 99*ms || r.Mean != 50500*time.Microsecond {
		t.Errorf("%+v", r)
	}
}

// TestErrorsCounted: a reply's error descriptors count where they are its
// outcome (notify, service change, an audit reply that is an error), not
// among a termination's audit results, nor in a notify request; scanned
// and decoded alike.
func TestErrorsCounted(t *testing.T) {
	bodies := []string{
		`P=5{C=-{N=a1{ER=402{}}}}`,              // counted
		`P=6{C=-{SC=ROOT{ER=403{}}}}`,           // counted
		`P=7{C=1{AV=C{ER=404{}}}}`,              // counted: the audit reply is an error
		`P=8{C=-{MF=a1{ER=405{}}}}`,             // the termination's audit
		`P=9{C=-{AV=a1{ER=406{}}}}`,             // the termination's audit result
		`T=10{C=-{N=a1{OE=1{al/of},ER=407{}}}}`, // a request
	}
	for _, decode := range []bool{false, true} {
		st := stats.New()
		z := stats.Summarizer{From: "compact"}
		for _, b := range bodies {
			data := []byte("!/3 [10.0.0.9]:2944\n" + b)
			sum, _, err := z.Summarize(data)
			if decode {
				var m *model.MegacoMessage
				m, _, err = codec.DecodeAs(data, "compact", codec.InputForm, codec.Options{})
				if err == nil {
					sum = z.FromModel(m, "compact")
				}
			}
			if err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			st.Add(base, mg, mgc, sum)
		}
		if got := fmt.Sprint(st.Errors); got != "map[402:1 403:1 404:1]" {
			t.Errorf("decode %v: errors %s", decode, got)
		}
	}
}
