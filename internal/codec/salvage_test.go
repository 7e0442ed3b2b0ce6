package codec

import (
	"fmt"
	"slices"
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
)

// salvaged lists what a Salvage or a Scan read: the version, then each
// transaction's kind with a request's ID (a ResponseAck once, however
// many ranges a Scan splits it into), then the message's own error.
func salvaged(s *scan.Summary) []string {
	l := []string{fmt.Sprint("v", s.Version)}
	for i, t := range s.Transactions {
		switch {
		case t.Kind == scan.Request:
			l = append(l, fmt.Sprint("T", t.ID))
		case t.Kind == scan.ResponseAck && i > 0 && s.Transactions[i-1].Kind == scan.ResponseAck && salvageAckRanges:
			continue
		default:
			l = append(l, t.Kind.String())
		}
	}
	if _, ok := s.MessageError(); ok {
		l = append(l, "error")
	}
	return l
}

// salvageAckRanges folds a ResponseAck's ranges into one entry (Scan
// lists one a range, Salvage one an acknowledgement).
const salvageAckRanges = true

// On a message that decodes, Salvage reads what Scan reads of it, for
// every codec with a Salvager and every corpus message; cut anywhere, it
// reads a prefix of that (version first) and never more.
func TestSalvageAgreesWithScan(t *testing.T) {
	for _, c := range []struct{ codec, ext string }{
		{"pretty", ".pretty.txt"}, {"compact", ".compact.txt"}, {"ber", ".ber"}, {"per", ".per"},
	} {
		files := corpus.Files(t, c.ext)
		var got, want scan.Summary
		for _, name := range corpus.Names(files) {
			data := files[name]
			want.Want = scan.Transactions
			if err := Scan(c.codec, data, &want, limits.Limits{}); err != nil {
				t.Fatalf("%s %s: %v", c.codec, name, err)
			}
			full := salvaged(&want)
			if c.codec == "per" {
				full = full[:1] // PER gives the version only
			}
			Salvage(c.codec, data, &got, 64)
			if s := salvaged(&got); !slices.Equal(s, full) {
				t.Errorf("%s %s: Salvage read %v, Scan %v", c.codec, name, s, full)
			}
			for _, n := range []int{len(data) / 3, len(data) / 2, len(data) - 1} {
				Salvage(c.codec, data[:n], &got, 64)
				if s := salvaged(&got); len(s) > 0 && !slices.Equal(s, full[:len(s)]) {
					t.Errorf("%s %s cut at %d: Salvage read %v, not a prefix of %v", c.codec, name, n, s, full)
				}
			}
		}
	}
}

// Salvage stops at max entries, and a codec without a Salvager (or an
// unknown name) leaves the summary empty.
func TestSalvageBounds(t *testing.T) {
	var s scan.Summary
	msg := []byte("!/1 [1.2.3.4] T=1{} T=2{} T=3{} P=4{} T=5{}")
	Salvage("compact", msg, &s, 3)
	if got := salvaged(&s); !slices.Equal(got, []string{"v1", "T1", "T2", "T3"}) {
		t.Errorf("max 3: %v", got)
	}
	if SpliceMID("xml") != nil {
		t.Error("SpliceMID(xml) is not nil")
	}
	for _, name := range []string{"native", "xml"} {
		s.Version = 9
		Salvage(name, msg, &s, 64)
		if s.Version != 0 || len(s.Transactions) != 0 {
			t.Errorf("%s: %+v", name, s)
		}
	}
}

// FuzzSalvage: whatever the bytes, every Salvager returns (no panic, no
// hang) with at most max entries and a version of at most 99.
func FuzzSalvage(f *testing.F) {
	for _, ext := range []string{".ber", ".per", ".compact.txt", ".pretty.txt"} {
		files := corpus.Files(f, ext)
		for i, name := range corpus.Names(files) {
			if i%11 == 0 {
				f.Add(files[name])
			}
		}
	}
	var s scan.Summary
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, d := range All() {
			if d.Salvage == nil {
				continue
			}
			d.Salvage(data, &s, 5)
			if n := len(s.Transactions) + len(s.Errors); n > 5 || s.Version < 0 || s.Version > 99 {
				t.Fatalf("%s: %d entries, version %d", d.Name, n, s.Version)
			}
		}
	})
}
