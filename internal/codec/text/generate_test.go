package text

import (
	"bytes"
	"os"
	"testing"
)

// TestParserStackSize: go generate raised goyacc's initial parser stack
// to 256 entries (generate.go), so that a parse allocates nothing; a
// grammar_gen.go regenerated without that step fails here.
func TestParserStackSize(t *testing.T) {
	var p yyParserImpl
	if yyInitialStackSize != 256 || len(p.stack) != 256 {
		t.Fatalf("goyacc's initial stack has %d entries (constant %d), want 256: run go generate ./internal/codec/text", len(p.stack), yyInitialStackSize)
	}
}

// TestParserDriverPatched: go generate made yyDebug a constant and put
// the lean driver, with its tables, in place of goyacc's parser loop
// (generate.go); a grammar_gen.go regenerated without that step fails
// here.
func TestParserDriverPatched(t *testing.T) {
	src, err := os.ReadFile("grammar_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte("\nconst yyDebug = 0\n")) {
		t.Error("yyDebug is not a constant: run go generate ./internal/codec/text")
	}
	parse := src[bytes.Index(src, []byte("func (yyrcvr *yyParserImpl) parse(yylex *decoder) int {")):]
	parse = parse[:bytes.Index(parse, []byte("\n}\n"))]
	for _, want := range []string{"yyLRStates[", "yyLRActions[", "yyLRGotos[", "yylex.lexFill()", "yya = len(yyLRStates) - yya"} {
		if !bytes.Contains(parse, []byte(want)) {
			t.Errorf("Parse does not use %s: run go generate ./internal/codec/text", want)
		}
	}
	for _, gone := range []string{"yyPact[", "yyExca[", "yylex1("} {
		if bytes.Contains(parse, []byte(gone)) {
			t.Errorf("Parse still uses %s: run go generate ./internal/codec/text", gone)
		}
	}
}
