package main

import (
	"flag"
	"fmt"
	"io"

	"megaco/internal/buildinfo"
)

// versionCmd prints what the binary was built from (`megaco version`,
// `megaco --version`): one line, or every field with -v.
func versionCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	verbose := fs.Bool("v", false, "print each field on its own line")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("version: unexpected argument %q", fs.Arg(0))
	}
	i := buildinfo.Read()
	if !*verbose {
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
