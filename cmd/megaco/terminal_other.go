//go:build !linux

package main

import "os"

// isTerminalFile reports whether f is a character device: a terminal, or
// rarely another one (/dev/null).
func isTerminalFile(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
