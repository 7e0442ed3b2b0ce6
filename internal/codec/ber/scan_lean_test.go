package ber

import (
	"reflect"
	"testing"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/corpus"
)

// FuzzScanLean: for any input both the lean and the general scanner
// accept, at the depth the input's length chooses, they report the same
// Summary. (FuzzScan compares Scan with the decoder only where the
// decoder accepts. The lean scanner may accept more than the general
// one: it does not read past the last component it wants.)
func FuzzScanLean(f *testing.F) {
	corpus.Seed(f, ".ber")
	f.Fuzz(func(t *testing.T, data []byte) {
		depth := depths[len(data)%len(depths)]
		lean, general := scan.Summary{Want: depth}, scan.Summary{Want: depth}
		if !leanOK(data, limits.Default) || !leanScan(data, &lean) {
			return
		}
		sc := scanner{reader: reader{data: data, lim: limits.Default}, s: &general}
		if sc.message() != nil {
			return
		}
		if !reflect.DeepEqual(lean, general) {
			t.Fatalf("lean %+v, general %+v", lean, general)
		}
	})
}
