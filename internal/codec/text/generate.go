package text

// grammar_gen.go is goyacc's output for grammar.y, goyacc's version pinned
// so that the file regenerates byte for byte (-v "" writes no y.output).
//
// The second step (internal/yystack) raises goyacc's initial parser stack
// from 16 entries to 256. goyacc has no option for it, and a Megaco
// message nests deeper than 16 (most of the corpus needs 23 to 30
// entries): with 16 every parse would allocate a bigger stack, and a
// reused Decoder could not run without allocating. yystack fails if
// goyacc's line is not there to rewrite, and TestParserStackSize fails if
// the generated constant is not 256.
//
//go:generate go run golang.org/x/tools/cmd/goyacc@v0.45.0 -v "" -o grammar_gen.go -p yy grammar.y
//go:generate go run ./internal/yystack grammar_gen.go
