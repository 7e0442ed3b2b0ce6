package main

import (
	"strings"
	"testing"
)

// goyacc writes these pieces of its driver so (v0.45.0).
var goyaccOut = "package p\n\n" +
	"var (\n\tyyDebug        = 0\n\tyyErrorVerbose = false\n)\n\n" +
	"const yyInitialStackSize = 16\n\n" +
	"func f() {\n" + edits[2].old + edits[3].old + edits[3].old + "}\n"

func TestPatch(t *testing.T) {
	out, err := patch([]byte(goyaccOut))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"const yyInitialStackSize = 256\n", "const yyDebug = 0\n", "\t\tyyrcvr.char = -1\n\t}()\n", "yylexTok(yylex"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("patched output lacks %q:\n%s", want, out)
		}
	}
	for _, gone := range []string{"= 16\n", "yyDebug        = 0", "yystate = -1", "yytoken = -1", "yylex1(yylex"} {
		if strings.Contains(string(out), gone) {
			t.Errorf("patched output still has %q:\n%s", gone, out)
		}
	}
}

func TestPatchRefusesChangedInput(t *testing.T) {
	for _, src := range []string{
		strings.Replace(goyaccOut, "= 16\n", "= 32\n", 1),                                   // a new default
		goyaccOut + "const yyInitialStackSize = 16\n",                                       // twice
		strings.Replace(goyaccOut, "\t\tyytoken = -1\n", "", 1),                             // a new defer
		strings.Replace(goyaccOut, "yyDebug        = 0", "yyDebug = 0", 1),                  // a new layout
		strings.Replace(goyaccOut, "= yylex1(", "= yylex2(", 1),                             // one call less
		strings.Replace(strings.Replace(goyaccOut, "= 16\n", "= 256\n", 1), "var (", "", 1), // patched already
	} {
		if _, err := patch([]byte(src)); err == nil {
			t.Errorf("patch(%q): no error", src)
		}
	}
}
