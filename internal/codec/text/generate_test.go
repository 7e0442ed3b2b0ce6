package text

import "testing"

// TestParserStackSize: go generate raised goyacc's initial parser stack
// to 256 entries (generate.go), so that a parse allocates nothing; a
// grammar_gen.go regenerated without that step fails here.
func TestParserStackSize(t *testing.T) {
	var p yyParserImpl
	if yyInitialStackSize != 256 || len(p.stack) != 256 {
		t.Fatalf("goyacc's initial stack has %d entries (constant %d), want 256: run go generate ./internal/codec/text", len(p.stack), yyInitialStackSize)
	}
}
