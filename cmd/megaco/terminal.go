package main

import (
	"io"
	"os"
)

// isTerminal reports whether w is a terminal (isTerminalFile says how
// each system tells).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTerminalFile(f)
}
