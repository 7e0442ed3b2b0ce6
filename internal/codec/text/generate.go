package text

// grammar_gen.go is goyacc's output for grammar.y, goyacc's version pinned
// so that the file regenerates byte for byte (-v "" writes no y.output).
//
// The second step (internal/yypatch) edits goyacc's output where goyacc
// has no option for it; yypatch fails if what it edits is not there
// exactly as it expects:
//
//   - The initial parser stack goes from 16 entries to 256. A Megaco
//     message nests deeper than 16 (most of the corpus needs 23 to 30
//     entries): with 16 every parse would allocate a bigger stack, and a
//     reused Decoder could not run without allocating.
//     TestParserStackSize fails if the generated constant is not 256.
//   - yyDebug becomes a constant 0, so that the compiler leaves the
//     tracing out.
//   - goyacc's parser loop gives way to a leaner one (yypatch's
//     lean_driver.go) that runs the same automaton on tables yypatch
//     derives from goyacc's and appends to the file (lr.go): a state's
//     action, the lookahead's action and the state after a reduction take
//     one look-up each, where goyacc's loop goes through yyPact, yyAct,
//     yyChk, yyDef and yyExca, and yyR1, yyR2 and yyPgo. It takes each
//     token, as goyacc's internal token number, where goyacc's loop reads
//     one, so that actions and syntax errors see the same
//     parse. goyacc's tables stay the source (and what a syntax error's
//     "expected ..." is computed from, decode_tables.go); TestLeanTables
//     checks the derived tables against them for every state and token.
//     The lean loop has no error recovery: yypatch refuses a grammar with
//     error productions (this one has none: a syntax error ends the
//     parse). A shift into a state that reduces without a token is one
//     action, so that the loop does not visit that state.
//   - Parse asserts its lexer's type (*decoder) once and runs the loop
//     with it (yypatch -lexer): the loop reaches the lexer and the actions
//     the builder without a type assertion each time.
//   - The loop takes its tokens from the decoder's batch of tokens read
//     ahead (yypatch -tokens; decoder.lexFill, decode.go) with a few
//     loads, and calls the scanner only when the batch is used up.
//
// The lean loop took the decode's instructions from 21,159 to 18,841 per
// compact corpus message (callgrind); TestParserDriverPatched fails if
// it is missing.
//
//go:generate go run golang.org/x/tools/cmd/goyacc@v0.45.0 -v "" -o grammar_gen.go -p yy grammar.y
//go:generate go run ./internal/yypatch -lexer *decoder -tokens grammar_gen.go
