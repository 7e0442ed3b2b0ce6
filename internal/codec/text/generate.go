package text

// grammar_gen.go is goyacc's output for grammar.y, goyacc's version pinned
// so that the file regenerates byte for byte (-v "" writes no y.output).
//
// The second step (internal/yypatch) makes four edits to goyacc's
// driver, none of which goyacc has an option for; yypatch fails if what it
// edits is not there exactly once:
//
//   - The initial parser stack goes from 16 entries to 256. A Megaco
//     message nests deeper than 16 (most of the corpus needs 23 to 30
//     entries): with 16 every parse would allocate a bigger stack, and a
//     reused Decoder could not run without allocating.
//     TestParserStackSize fails if the generated constant is not 256.
//   - yyDebug becomes a constant 0, so that the compiler leaves the
//     tracing out of the parser's loop.
//   - The function Parse defers no longer assigns its local state and
//     token: a closure that assigns them makes them live in memory, and
//     the loop loads and stores them at every step.
//   - The parser's loop reads tokens with yylexTok (decode.go), not
//     goyacc's yylex1: the lexer maps its kinds to goyacc's internal
//     token numbers with one table look-up, and one call less per token
//     (about 2% of a decode's instructions).
//
// The second and third take about 4% of the instructions of a compact decode
// (callgrind over the corpus); TestParserDriverPatched fails if they are
// missing.
//
//go:generate go run golang.org/x/tools/cmd/goyacc@v0.45.0 -v "" -o grammar_gen.go -p yy grammar.y
//go:generate go run ./internal/yypatch grammar_gen.go
