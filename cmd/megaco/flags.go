package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// newFlags is a subcommand's flag set: errors to stderr, and for -h the
// usage text followed by the flags.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, which must all be flags. help is true after -h:
// the usage was printed, and the command succeeds without doing anything.
// A bad flag or an argument is errUsage, said on the flag set's output.
func parseFlags(fs *flag.FlagSet, args []string) (help bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, nil
		}
		return false, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return false, errUsage
	}
	return false, nil
}
