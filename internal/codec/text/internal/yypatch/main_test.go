package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"strings"
	"testing"
)

// goyacc writes these pieces of its output so (v0.45.0).
var goyaccOut = "package p\n\n" +
	"var (\n\tyyDebug        = 0\n\tyyErrorVerbose = false\n)\n\n" +
	"const yyInitialStackSize = 16\n\n" +
	goyaccDriver + "\tcase 1:\n\t\tyyVAL.n = 1\n" + goyaccDriverEnd

func TestApplyEdits(t *testing.T) {
	out, err := applyEdits([]byte(goyaccOut))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"const yyInitialStackSize = 256\n", "const yyDebug = 0\n", "yyLRStates[", leanDriverEnd} {
		if !strings.Contains(string(out), want) {
			t.Errorf("patched output lacks %q:\n%s", want, out)
		}
	}
	for _, gone := range []string{"= 16\n", "yyDebug        = 0", "yyPact[", "goto yystack"} {
		if strings.Contains(string(out), gone) {
			t.Errorf("patched output still has %q:\n%s", gone, out)
		}
	}
}

func TestApplyEditsRefusesChangedInput(t *testing.T) {
	for _, src := range []string{
		strings.Replace(goyaccOut, "= 16\n", "= 32\n", 1),                                   // a new default
		goyaccOut + "const yyInitialStackSize = 16\n",                                       // twice
		strings.Replace(goyaccOut, "\t\tyytoken = -1\n", "", 1),                             // a new driver
		strings.Replace(goyaccOut, "yyDebug        = 0", "yyDebug = 0", 1),                  // a new layout
		strings.Replace(goyaccOut, "goto yystack /* stack", "goto yystack2 /* stack", 1),    // a new end
		strings.Replace(strings.Replace(goyaccOut, "= 16\n", "= 256\n", 1), "var (", "", 1), // patched already
	} {
		if _, err := applyEdits([]byte(src)); err == nil {
			t.Errorf("applyEdits(%.200q): no error", src)
		}
	}
}

// TestTablesReproduce: the lean tables in the package's grammar_gen.go are
// what derive makes of the goyacc tables in it.
func TestTablesReproduce(t *testing.T) {
	src, err := os.ReadFile("../../grammar_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := readTables(src)
	if err != nil {
		t.Fatal(err)
	}
	l, err := derive(tab)
	if err != nil {
		t.Fatal(err)
	}
	want, err := format.Source(append([]byte("package p\n"), l.source()...))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(src, want[len("package p\n"):]) {
		t.Error("grammar_gen.go does not end with the tables derive makes: run go generate ./internal/codec/text")
	}
}

// TestDeriveRefusesErrorRecovery: a grammar whose state 0 shifts the
// error token (to state 1) needs goyacc's error recovery, which the lean
// driver does not have.
func TestDeriveRefusesErrorRecovery(t *testing.T) {
	tab := &tables{pact: []int{0, -1000}, act: []int{0, 0, 1}, chk: []int{-1, 2}, def: []int{0, 0},
		exca: []int{-1, 1, -2, 0}, pgo: []int{0}, r1: []int{0}, r2: []int{0},
		last: 3, flag: -1000, errCode: 2, ntok: 3}
	if _, err := derive(tab); err == nil || !strings.Contains(err.Error(), "error token") {
		t.Errorf("derive: %v, want an error about the error token", err)
	}
}

func TestReadTablesRefusesOtherSource(t *testing.T) {
	if _, err := readTables([]byte("package p\n\nvar yyPact = [...]int16{1, 2}\n")); err == nil {
		t.Error("readTables of a file without goyacc's tables: no error")
	}
}

func TestCheckActions(t *testing.T) {
	ok := leanDriver + "\t\tcase 1:\n\t\t\tyyVAL.n = yyDollar[1].n + 1\n\t\t\tf(yyDollar[2].n)\n" + leanDriverEnd
	if err := checkActions([]byte(ok)); err != nil {
		t.Errorf("$1 read where $$ is set: %v", err)
	}
	bad := leanDriver + "\t\tcase 1:\n\t\t\tyyVAL.n = 1\n\t\t\tf(yyDollar[1].n)\n" + leanDriverEnd
	if err := checkActions([]byte(bad)); err == nil {
		t.Error("$1 read after $$ is set: no error")
	}
}

// TestConcreteLexer: with -lexer, Parse asserts the lexer's type and
// runs the loop in parse, which takes that type.
func TestConcreteLexer(t *testing.T) {
	out, err := applyEdits([]byte(goyaccOut))
	if err != nil {
		t.Fatal(err)
	}
	if out, err = applyEdits(out, edit{parseHead, fmt.Sprintf(concreteParseHead, "*lexer", "*lexer"), 1}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\treturn yyrcvr.parse(yylex.(*lexer))\n", "func (yyrcvr *yyParserImpl) parse(yylex *lexer) int {\n\tvar yyDollar"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("patched output lacks %q", want)
		}
	}
}
