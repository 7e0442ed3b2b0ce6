package ber

import (
	"reflect"
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
)

// FuzzScanLean: whatever the lean scanner accepts, the general scanner
// accepts too, with the same Summary, at the depth the input's length
// chooses. (FuzzScan compares Scan with the decoder only where the
// decoder accepts: this holds for any input.)
func FuzzScanLean(f *testing.F) {
	corpus.Seed(f, ".ber")
	f.Fuzz(func(t *testing.T, data []byte) {
		depth := depths[len(data)%len(depths)]
		lean, general := scan.Summary{Want: depth}, scan.Summary{Want: depth}
		if !leanOK(data, limits.Default) || !leanScan(data, &lean) {
			return
		}
		sc := scanner{reader: reader{data: data, lim: limits.Default}, s: &general}
		if err := sc.message(); err != nil {
			t.Fatalf("the lean scanner accepts what the general one refuses: %v", err)
		}
		if !reflect.DeepEqual(lean, general) {
			t.Fatalf("lean %+v, general %+v", lean, general)
		}
	})
}
