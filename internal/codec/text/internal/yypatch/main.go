// Command yypatch makes three small edits to goyacc's output (see
// ../../generate.go for why each is needed): each replaces text that must
// be there exactly once, and if one is not, yypatch fails and leaves the
// file alone, so that a goyacc that writes its driver differently stops
// `go generate` instead of slipping through.
package main

import (
	"bytes"
	"fmt"
	"os"
)

// An edit replaces old, which must be there exactly n times, with new.
type edit struct {
	old, new string
	n        int
}

var edits = []edit{
	// The initial parser stack: 16 entries to 256.
	{"const yyInitialStackSize = 16\n", "const yyInitialStackSize = 256\n", 1},
	// yyDebug a constant: the compiler drops the tracing code from the
	// parser's loop, and with it the spills around its calls.
	{"var (\n\tyyDebug        = 0\n\tyyErrorVerbose = false\n)\n",
		"const yyDebug = 0\n\nvar (\n\tyyErrorVerbose = false\n)\n", 1},
	// The deferred function no longer sets the parser's local state and
	// token, which die with it anyway: captured by the closure, they lived
	// in memory, loaded and stored at every step of the parse.
	{"\tdefer func() {\n" +
		"\t\t// Make sure we report no lookahead when not parsing.\n" +
		"\t\tyystate = -1\n" +
		"\t\tyyrcvr.char = -1\n" +
		"\t\tyytoken = -1\n" +
		"\t}()\n",
		"\tdefer func() {\n" +
			"\t\t// Make sure we report no lookahead when not parsing.\n" +
			"\t\tyyrcvr.char = -1\n" +
			"\t}()\n", 1},
	// The parser's loop reads tokens through yylexTok (the package's own)
	// instead of yylex1: the lexer hands back goyacc's internal token
	// numbers already, so the loop needs no mapping, and a call on the
	// concrete lexer can be inlined.
	{"\t\tyyrcvr.char, yytoken = yylex1(yylex, &yyrcvr.lval)\n",
		"\t\tyyrcvr.char, yytoken = yylexTok(yylex, &yyrcvr.lval)\n", 2},
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: yypatch file.go")
		os.Exit(2)
	}
	if err := patchFile(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "yypatch:", err)
		os.Exit(1)
	}
}

func patchFile(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := patch(src)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}

// patch returns src with every edit made.
func patch(src []byte) ([]byte, error) {
	for _, e := range edits {
		if n := bytes.Count(src, []byte(e.old)); n != e.n {
			return nil, fmt.Errorf("%d times %q, want %d: goyacc's output has changed", n, e.old, e.n)
		}
		src = bytes.ReplaceAll(src, []byte(e.old), []byte(e.new))
	}
	return src, nil
}
