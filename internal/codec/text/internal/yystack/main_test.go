package main

import "testing"

func TestPatch(t *testing.T) {
	out, err := patch([]byte("package p\n\nconst yyInitialStackSize = 16\n\nvar x = 1\n"))
	if err != nil || string(out) != "package p\n\nconst yyInitialStackSize = 256\n\nvar x = 1\n" {
		t.Errorf("patch: %q, %v", out, err)
	}
	for _, src := range []string{
		"package p\n\nconst yyInitialStackSize = 32\n",                                // a new default
		"package p\n\nconst (\n\tyyInitialStackSize = 16\n)\n",                        // a new layout
		"package p\n\nconst yyInitialStackSize = 16\nconst yyInitialStackSize = 16\n", // twice
		"package p\n\nconst yyInitialStackSize = 256\n",                               // patched already
	} {
		if _, err := patch([]byte(src)); err == nil {
			t.Errorf("patch(%q): no error", src)
		}
	}
}
