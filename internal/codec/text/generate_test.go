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

// TestParserDriverPatched: go generate made yyDebug a constant and took
// the assignments to locals out of Parse's deferred function
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
	deferred := "\tdefer func() {\n\t\t// Make sure we report no lookahead when not parsing.\n\t\tyyrcvr.char = -1\n\t}()\n"
	if !bytes.Contains(src, []byte(deferred)) {
		t.Error("Parse's deferred function is not the patched one: run go generate ./internal/codec/text")
	}
	if bytes.Contains(src, []byte("= yylex1(yylex")) || !bytes.Contains(src, []byte("= yylexTok(yylex")) {
		t.Error("Parse reads tokens with yylex1, not yylexTok: run go generate ./internal/codec/text")
	}
}
