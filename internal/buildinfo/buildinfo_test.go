package buildinfo

import (
	"runtime"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	i := Read()
	if i.GoVersion != runtime.Version() {
		t.Errorf("GoVersion = %q, want %q", i.GoVersion, runtime.Version())
	}
	if i.Version == "" {
		t.Error("empty Version")
	}
	if s := i.String(); !strings.HasPrefix(s, "megaco ") || !strings.Contains(s, i.GoVersion) {
		t.Errorf("String() = %q", s)
	}
}

func TestShortRevision(t *testing.T) {
	for _, tc := range []struct {
		in   Info
		want string
	}{
		{Info{}, "unknown"},
		{Info{Revision: "abc"}, "abc"},
		{Info{Revision: "0123456789abcdef0123", Modified: true}, "0123456789ab+dirty"},
	} {
		if got := tc.in.ShortRevision(); got != tc.want {
			t.Errorf("%+v: ShortRevision() = %q, want %q", tc.in, got, tc.want)
		}
	}
}
