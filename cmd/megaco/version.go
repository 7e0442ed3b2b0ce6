package main

import (
	"fmt"
	"io"

	"megaco/internal/buildinfo"
)

// versionCmd prints what the binary was built from (`megaco version`,
// `megaco --version`): one line, or every field with -v.
func versionCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", "usage: megaco version [-v]\n\nPrints the module version, VCS revision and Go version of this build.\n\nflags:\n", stderr)
	var verbose bool
	fs.Var(boolOf(&verbose), "v", "", "print each field on its own line")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	i := buildinfo.Read()
	if !verbose {
		_, err := fmt.Fprintln(stdout, i.String())
		return err
	}
	rev := i.Revision
	if rev == "" {
		rev = "unknown"
	}
	_, err := fmt.Fprintf(stdout, "version:  %s\nrevision: %s\ntime:     %s\nmodified: %t\ngo:       %s\nplatform: %s\n",
		i.Version, rev, i.Time, i.Modified, i.GoVersion, i.Platform)
	return err
}
