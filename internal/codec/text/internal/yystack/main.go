// Command yystack raises the initial parser stack in goyacc's output from
// 16 entries to 256 (see ../../generate.go for why): it rewrites the one
// line
//
//	const yyInitialStackSize = 16
//
// of the file it is given, and fails, leaving the file alone, if that line
// is not there exactly once, so that a goyacc that writes it differently
// stops `go generate` instead of slipping through.
package main

import (
	"bytes"
	"fmt"
	"os"
)

const (
	goyaccLine = "const yyInitialStackSize = 16"
	ourLine    = "const yyInitialStackSize = 256"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: yystack file.go")
		os.Exit(2)
	}
	if err := patchFile(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "yystack:", err)
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

// patch returns src with goyacc's stack size line replaced.
func patch(src []byte) ([]byte, error) {
	lines := bytes.Split(src, []byte("\n"))
	at, n := 0, 0
	for i, l := range lines {
		if string(l) == goyaccLine {
			at, n = i, n+1
		}
	}
	if n != 1 {
		return nil, fmt.Errorf("%d lines %q, want 1: goyacc's output has changed", n, goyaccLine)
	}
	lines[at] = []byte(ourLine)
	return bytes.Join(lines, []byte("\n")), nil
}
