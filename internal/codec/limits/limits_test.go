package limits

import (
	"testing"

	"megaco/internal/codec/codecerr"
)

func TestOrDefault(t *testing.T) {
	if got := (Limits{}).OrDefault(); got != Default {
		t.Errorf("zero limits: %+v", got)
	}
	if got := (Limits{MaxSize: 10}).OrDefault(); got.MaxSize != 10 || got.MaxDepth != Default.MaxDepth {
		t.Errorf("partial limits: %+v", got)
	}
}

func TestVersions(t *testing.T) {
	for v := -1; v <= 5; v++ {
		if ValidVersion(v) != (v >= 1 && v <= 3) {
			t.Errorf("ValidVersion(%d)", v)
		}
		err := CheckOption("ber", v)
		if (err == nil) != (v >= 0 && v <= 3) {
			t.Errorf("CheckOption(%d): %v", v, err)
		}
		if e, ok := codecerr.As(err); err != nil && (!ok || e.Kind != codecerr.Unsupported) {
			t.Errorf("CheckOption(%d): %#v", v, err)
		}
	}
}
