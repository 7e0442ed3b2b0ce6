package main

// leanDriver replaces goyaccDriver. It runs the same LR automaton on the
// tables yypatch derives from goyacc's (lr.go): one look-up gives a
// state's action (yyLRStates), one more the action for the lookahead
// (yyLRActions), one the state after a reduction (yyLRGotos), where
// goyacc's loop reads yyPact, yyAct, yyChk, yyDef, yyExca, yyR1, yyR2 and
// yyPgo. It reads a token exactly where goyacc's does (a state that acts
// without one does not read it), so that the scanner, the actions and a
// syntax error see what they saw before.
//
// A shift to a state that reduces without reading a token is one action,
// the shift and that reduction (lr.go), so that the loop does not look
// that state up; so is a goto to such a state.
//
// What it leaves out: error recovery (lr.go refuses a grammar that shifts
// goyacc's error token, so that goyacc's recovery would only pop the
// whole stack: the driver returns at once), yyDebug's tracing, and
// yyrcvr.char while parsing (Lookahead reports -1; nothing calls it).
// $$ (yyVAL) is a pointer to $1's place on the stack, where the value
// of the reduction goes, rather than a copy that is stored there after
// the action: yacc's default $$ = $1 costs nothing, and the new state goes
// there before the action runs, so that nothing but the stack's top
// waits across the action's calls. An action must then not read $1 after
// it has set $$ (checkActions, main.go, refuses one that does).
const leanDriver = `func (yyrcvr *yyParserImpl) Parse(yylex yyLexer) int {
	var yyDollar []yySymType
	_ = yyDollar // silence set and not used
	yyS := yyrcvr.stack[:]
	yyS[0].yys = 0
	yyp := 0
	yystate := 0
	yytoken := -1 // the lookahead, goyacc's internal number; -1: none
	yyrcvr.char = -1 // and so it stays: the loop keeps its lookahead in yytoken

	for {
		yyst := yyLRStates[yystate]
		yya := int(int16(yyst))
		if yyst>>16 != yyLRNoToken {
			if yytoken < 0 {
				yytoken = yylexTok(yylex, &yyrcvr.lval)
			}
			if e := yyLRActions[int(yyst>>16)+yytoken]; int(e>>16) == yystate {
				yya = int(int16(e))
			}
		}
		if yya > 0 { // shift, to state yya
			yyp++
			if yyp >= len(yyS) {
				nyys := make([]yySymType, len(yyS)*2)
				copy(nyys, yyS)
				yyS = nyys
			}
			yyS[yyp] = yyrcvr.lval
			yyS[yyp].yys = yya
			yytoken = -1
			if yya < len(yyLRStates) {
				yystate = yya
				continue
			}
			// a state that reduces at once, without a token: reduce by
			// production yya-len(yyLRStates)
			yya = len(yyLRStates) - yya
		} else if yya == 0 {
			yylex.Error(yyErrorMessage(yystate, yytoken))
			return 1
		}
	yyreduce:
		yyn := -yya // reduce by production yyn, or accept
		if yyn >= len(yyLRProds) {
			return 0
		}
		yyr := yyLRProds[yyn]
		yypt := yyp
		yyp -= int(yyr.n)
		if yyp+1 >= len(yyS) {
			nyys := make([]yySymType, len(yyS)*2)
			copy(nyys, yyS)
			yyS = nyys
		}
		yyVAL := &yyS[yyp+1]
		yyVAL.yys = int(yyr.def)
		if e := yyLRGotos[int(yyr.base)+yyS[yyp].yys]; int(e>>16) == int(yyr.lhs) {
			yyVAL.yys = int(uint16(e))
		}
		switch yyn {
`

// With -lexer, Parse asserts its lexer's concrete type once and hands it
// to parse, the loop, so that the loop calls the lexer and the actions
// their builder (bld) through the concrete type: no type assertion per
// token and per action, and one register for the lexer rather than an
// interface's two. It took the text decode's instructions down 1.6%.
const (
	parseHead         = "func (yyrcvr *yyParserImpl) Parse(yylex yyLexer) int {\n"
	concreteParseHead = "func (yyrcvr *yyParserImpl) Parse(yylex yyLexer) int {\n\treturn yyrcvr.parse(yylex.(%s))\n}\n\n" +
		"// parse is Parse with the lexer's concrete type (yypatch -lexer).\n" +
		"func (yyrcvr *yyParserImpl) parse(yylex %s) int {\n"
)

// The end of Parse: goyacc's, and the lean driver's (the push of the
// reduction's value, and the end of its loop).
const (
	goyaccDriverEnd = "\t}\n\tgoto yystack /* stack new state and value */\n}\n"
	leanDriverEnd   = "\t\t}\n\t\tyyp++\n\t\tif yystate = yyS[yyp].yys; yystate >= len(yyLRStates) {\n\t\t\t// a goto to a state that reduces without a token: reduce\n\t\t\t// by production yystate-len(yyLRStates)\n\t\t\tyya = len(yyLRStates) - yystate\n\t\t\tgoto yyreduce\n\t\t}\n\t}\n}\n"
)

// With -tokens, the loop takes its tokens from the lexer's buffer, where
// the lexer (the text decoder) reads them ahead a batch at a time: token
// lexAt is the next one (its span in lexSpans, its internal number in
// lexToks), lexN the end of the batch, and lexFill reads the next batch.
// A token then costs the loop a few loads rather than a call, around
// which every value the loop keeps in a register is spilled and reloaded.
const (
	lexCall         = "\t\t\tif yytoken < 0 {\n\t\t\t\tyytoken = yylexTok(yylex, &yyrcvr.lval)\n\t\t\t}\n"
	bufferedLexCall = "\t\t\tif yytoken < 0 {\n\t\t\t\tif yylex.lexAt >= yylex.lexN {\n\t\t\t\t\tyylex.lexFill()\n\t\t\t\t}\n" +
		"\t\t\t\tyyi := yylex.lexAt\n\t\t\t\tyylex.lexAt = yyi + 1\n" +
		"\t\t\t\tyyrcvr.lval.tok = yylex.lexSpans[yyi]\n\t\t\t\tyytoken = int(yylex.lexToks[yyi])\n\t\t\t}\n"
)
