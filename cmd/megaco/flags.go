package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// A command's flags are defined once each, in one line: a typed value
// bound to the field it fills (whose value then is the default), the
// flag's name, its environment variable ("" for none) and its help.
//
//	fs.Var(sizeOf(&cfg.MaxMessageSize, 1), "max-message-size", "MEGACO_MAX_MESSAGE_SIZE", "largest message decoded")
//
// -h shows every flag with its type, default and variable; the command
// line overrides the environment, which overrides the default. A value
// refused, on the command line or in the environment, is one line naming
// the flag or the variable, and exit status 2.

// flagSet is a command's flags. The flag package parses the command
// line; it is not reachable from outside, so that every flag is defined
// through Var.
type flagSet struct {
	set    *flag.FlagSet
	name   string
	usage  string
	stderr io.Writer
	defs   []*flagDef
	bad    error // the first value Set refused on the command line
}

// typedValue is a flag value that names its type for -h ("duration",
// "size"...; "" for a switch).
type typedValue interface {
	flag.Value
	Type() string
}

// flagDef is one flag: its value wrapped so that a refused value is
// reported with the flag's name.
type flagDef struct {
	name, env, help string
	def             string // the value's text when defined
	v               typedValue
	fs              *flagSet
}

func (d *flagDef) String() string {
	if d == nil || d.v == nil {
		return ""
	}
	return d.v.String()
}

func (d *flagDef) Set(s string) error {
	err := d.v.Set(s)
	if err != nil && d.fs.bad == nil {
		d.fs.bad = fmt.Errorf("%s %q: %w", dashed(d.name), s, err)
	}
	return err
}

// IsBoolFlag lets a switch stand alone (--find-max).
func (d *flagDef) IsBoolFlag() bool {
	b, ok := d.v.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// newFlags is a subcommand's flag set: its messages go to stderr, and -h
// prints usage followed by the flags.
func newFlags(name, usage string, stderr io.Writer) *flagSet {
	fs := &flagSet{set: flag.NewFlagSet(name, flag.ContinueOnError), name: name, usage: usage, stderr: stderr}
	fs.set.Usage = func() {} // parse says what is wrong, in one line
	return fs
}

// Name is the command's name.
func (fs *flagSet) Name() string { return fs.name }

// Output is where the command's usage errors go.
func (fs *flagSet) Output() io.Writer { return fs.stderr }

// Var defines a flag; v's value now is its default.
func (fs *flagSet) Var(v typedValue, name, env, help string) {
	d := &flagDef{name: name, env: env, help: help, def: v.String(), v: v, fs: fs}
	fs.defs = append(fs.defs, d)
	fs.set.Var(d, name, help)
}

// parse parses args, which must all be flags. help is true after -h:
// the usage was printed, and the command succeeds without doing anything.
// A bad flag or an argument is errUsage, said on the flag set's output.
func (fs *flagSet) parse(args []string) (help bool, err error) {
	rest, err := fs.parseInterleaved(args)
	if err == errHelp {
		return true, nil
	}
	if err == nil && len(rest) > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), rest[0])
		return false, errUsage
	}
	return false, err
}

// parseInterleaved parses flags that may stand before and after the
// arguments, then the environment of the flags not given, and returns
// the arguments; after -h it returns errHelp.
func (fs *flagSet) parseInterleaved(args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.parseSome(args); err != nil {
			return nil, err
		}
		args = fs.set.Args()
		if len(args) == 0 {
			break
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
	if err := fs.fromEnv(); err != nil {
		fmt.Fprintf(fs.Output(), "%s: %v\n", fs.Name(), err)
		return nil, errUsage
	}
	return rest, nil
}

// parseSome runs the flag package up to the first argument, with its
// messages replaced by one line.
func (fs *flagSet) parseSome(args []string) error {
	out := fs.stderr
	var msg bytes.Buffer
	fs.set.SetOutput(&msg)
	err := fs.set.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fs.printUsage(out)
		return errHelp
	case fs.bad != nil:
		fmt.Fprintf(out, "%s: %v\n", fs.Name(), fs.bad)
	default: // not a flag of this command, or a flag without its value
		say := strings.TrimSpace(msg.String())
		if name, ok := strings.CutPrefix(say, "flag provided but not defined: -"); ok {
			say = "unknown flag " + dashed(name)
		}
		fmt.Fprintf(out, "%s: %s (megaco %s -h lists the flags)\n", fs.Name(), say, fs.Name())
	}
	return errUsage
}

// fromEnv sets the flags not on the command line from their environment
// variables; an empty variable is unset.
func (fs *flagSet) fromEnv() error {
	given := map[string]bool{}
	fs.set.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, d := range fs.defs {
		if d.env == "" || given[d.name] {
			continue
		}
		if s := os.Getenv(d.env); s != "" {
			if err := d.v.Set(s); err != nil {
				return fmt.Errorf("%s=%q (%s): %w", d.env, s, dashed(d.name), err)
			}
		}
	}
	return nil
}

// given reports whether the flag was on the command line or in its
// environment variable.
func (fs *flagSet) given(name string) bool {
	set := false
	fs.set.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	for _, d := range fs.defs {
		set = set || d.name == name && d.env != "" && os.Getenv(d.env) != ""
	}
	return set
}

// printUsage writes the usage text and a line per flag:
//
//	--max-message-size size   largest message decoded (default 64KiB, env MEGACO_MAX_MESSAGE_SIZE)
func (fs *flagSet) printUsage(w io.Writer) {
	fmt.Fprint(w, fs.usage)
	const maxCol = 36 // a longer name and type gets its help on the next line
	col := 0
	for _, d := range fs.defs {
		if n := utf8.RuneCountInString(d.synopsis()); n <= maxCol {
			col = max(col, n)
		}
	}
	for _, d := range fs.defs {
		syn := d.synopsis()
		if utf8.RuneCountInString(syn) > col {
			fmt.Fprintf(w, "  %s\n  %*s  %s\n", syn, col, "", d.explain())
			continue
		}
		fmt.Fprintf(w, "  %-*s  %s\n", col, syn, d.explain())
	}
	fmt.Fprint(w, fs.syntaxNote())
}

// syntaxNote says how durations and sizes are written, for a command
// that has them.
func (fs *flagSet) syntaxNote() string {
	var dur, size bool
	for _, d := range fs.defs {
		dur = dur || strings.Contains(d.v.Type(), "duration")
		size = size || strings.Contains(d.v.Type(), "size")
	}
	note := ""
	if dur {
		note += "\nA duration has a unit: 10s, 250ms, 1m30s (a bare number is refused, 0 excepted)."
	}
	if size {
		note += "\nA size is bytes, or has a unit: 64KiB, 1MiB, 1GiB (powers of 1024), 1kB, 1MB, 1GB (of 1000)."
	}
	if note == "" {
		return ""
	}
	return note + "\n"
}

// synopsis is "--name type".
func (d *flagDef) synopsis() string {
	if t := d.v.Type(); t != "" {
		return dashed(d.name) + " " + t
	}
	return dashed(d.name)
}

// explain is the help with the default and the variable.
func (d *flagDef) explain() string {
	var notes []string
	if d.def != "" && d.def != "false" && d.def != "0" && d.def != "0s" {
		notes = append(notes, "default "+d.def)
	}
	if d.env != "" {
		notes = append(notes, "env "+d.env)
	}
	if len(notes) == 0 {
		return d.help
	}
	return d.help + " (" + strings.Join(notes, ", ") + ")"
}

// dashed is how -h writes a flag: the one-letter options and SIPp's -rp
// with one dash, the others with two. The flag package takes either.
func dashed(name string) string {
	if len(name) == 1 || name == "rp" {
		return "-" + name
	}
	return "--" + name
}
