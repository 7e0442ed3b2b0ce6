// Command yypatch edits goyacc's output (see ../../generate.go for why):
// each edit replaces text that must be there exactly as many times as it
// says, and if it is not, yypatch fails and leaves the file alone, so
// that a goyacc that writes its driver differently stops `go generate`
// instead of slipping through. The biggest edit puts a leaner parser loop
// in place of goyacc's, with tables it derives from goyacc's own.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
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
	// goyacc's parser loop gives way to the lean driver (lean_driver.go),
	// which runs on tables derived from goyacc's (lr.go).
	{goyaccDriver, leanDriver, 1},
	{goyaccDriverEnd, leanDriverEnd, 1},
}

func main() {
	lexer := flag.String("lexer", "", "the lexer's concrete `type`, if Parse is to assert it once (see concreteLexer)")
	tokens := flag.Bool("tokens", false, "with -lexer: the loop takes its tokens from the lexer's buffer (see bufferedLexCall)")
	flag.Parse()
	if flag.NArg() != 1 || *tokens && *lexer == "" {
		fmt.Fprintln(os.Stderr, "usage: yypatch [-lexer type [-tokens]] file.go")
		os.Exit(2)
	}
	if err := patchFile(flag.Arg(0), *lexer, *tokens); err != nil {
		fmt.Fprintln(os.Stderr, "yypatch:", err)
		os.Exit(1)
	}
}

func patchFile(path, lexer string, tokens bool) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := patch(src, lexer, tokens)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}

// patch returns src with every edit made (and the lexer's type made
// concrete, if lexer names it, and its tokens taken from its buffer, if
// tokens) and the lean driver's tables added, gofmt'ed.
func patch(src []byte, lexer string, tokens bool) ([]byte, error) {
	t, err := readTables(src)
	if err != nil {
		return nil, err
	}
	l, err := derive(t)
	if err != nil {
		return nil, err
	}
	if src, err = applyEdits(src); err != nil {
		return nil, err
	}
	if err := checkActions(src); err != nil {
		return nil, err
	}
	if lexer != "" {
		if src, err = applyEdits(src, edit{parseHead, fmt.Sprintf(concreteParseHead, lexer, lexer), 1}); err != nil {
			return nil, err
		}
	}
	if tokens {
		if src, err = applyEdits(src, edit{lexCall, bufferedLexCall, 1}); err != nil {
			return nil, err
		}
	}
	return format.Source(append(src, l.source()...))
}

// checkActions: in the lean driver $$ (yyVAL) is $1's place on the stack,
// not a copy of it, so an action must not read $1 after it has set $$.
// checkActions refuses an action with a line that reads $1 after a line
// that touches $$ (one line, one statement: Go reads the right side of
// an assignment before it assigns).
func checkActions(src []byte) error {
	body := src[bytes.Index(src, []byte(leanDriver))+len(leanDriver):]
	body = body[:bytes.Index(body, []byte(leanDriverEnd))]
	var action []byte // the case line of the action being read
	set := false      // it has touched $$
	for l := range bytes.Lines(body) {
		switch {
		case bytes.HasPrefix(bytes.TrimSpace(l), []byte("case ")):
			action, set = bytes.TrimSpace(l), false
		case set && bytes.Contains(l, []byte("yyDollar[1]")):
			return fmt.Errorf("action %s reads $1 after it sets $$ (the lean driver keeps them in one place)", action)
		case bytes.Contains(l, []byte("yyVAL")):
			set = true
		}
	}
	return nil
}

// applyEdits returns src with the edits made, by default every one of
// edits.
func applyEdits(src []byte, es ...edit) ([]byte, error) {
	if es == nil {
		es = edits
	}
	for _, e := range es {
		if n := bytes.Count(src, []byte(e.old)); n != e.n {
			return nil, fmt.Errorf("%d times %.80q, want %d: goyacc's output has changed", n, e.old, e.n)
		}
		src = bytes.ReplaceAll(src, []byte(e.old), []byte(e.new))
	}
	return src, nil
}
