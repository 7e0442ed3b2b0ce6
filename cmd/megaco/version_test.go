package main

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var out, errb bytes.Buffer
		if code := run(args, nil, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		if s := out.String(); !strings.HasPrefix(s, "megaco ") || !strings.Contains(s, runtime.Version()) {
			t.Errorf("%v: %q", args, s)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"version", "-v"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "revision: ") {
		t.Errorf("version -v: exit %d: %q %s", code, out.String(), errb.String())
	}
	if code := run([]string{"version", "extra"}, nil, &out, &errb); code != 2 { // a usage error
		t.Errorf("version extra: exit %d, want 2", code)
	}
}
