package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTerminalFile reports whether f answers the terminal's own request
// (TCGETS), which /dev/null, another character device, does not.
func isTerminalFile(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
