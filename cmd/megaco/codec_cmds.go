package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"megaco/internal/codec"
	"megaco/internal/codec/limits"
	"megaco/internal/mapping"
	"megaco/internal/mapping/pkgs"
	"megaco/internal/mapping/termid"
	"megaco/internal/protoconv"
)

var errUsage = errors.New("usage")

// errHelp: -h was given and the usage printed; the command succeeds.
var errHelp = errors.New("help")

const transcodeUsage = `usage: megaco transcode [flags] [FILE|-]

Reads one message in one encoding and writes it in another to standard
output (or to the file -o names); the input codec is detected unless
--from names it. A binary encoding is not written to a terminal unless
--force is given. Codecs: %s.

Examples:
  megaco transcode --to compact corpus/otp-time-test/msg03.ber
  megaco transcode --to per -o msg03.per corpus/otp-time-test/msg03.ber

flags:
`

const decodeUsage = `usage: megaco decode [flags] [FILE|-]

Reads one message and prints it as JSON, the document the service's Decode
returns (gRPC and /v1/decode), in text form (names as written) or binary
form (IDs as the binary encodings carry them, each with its text form
beside it); by default in the input codec's form. Codecs: %s.

Example:
  megaco decode --form text corpus/otp-time-test/msg03.per

flags:
`

// codecFlags are the flags transcode and decode share.
type codecFlags struct {
	fs       *flag.FlagSet
	from     string
	version  int
	profile  string
	maxSize  int
	layout   string
	names    string
	packages string
}

// parseInterleaved parses flags that may stand before and after the
// arguments, and returns the arguments; after -h it returns errHelp.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, errUsage
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

func newCodecFlags(name, usage string, stderr io.Writer) *codecFlags {
	f := &codecFlags{fs: newFlags(name, fmt.Sprintf(usage, strings.Join(codec.Names(), ", ")), stderr)}
	f.fs.StringVar(&f.from, "from", "auto", "input codec, or auto to detect it")
	f.fs.IntVar(&f.version, "version", 0, "protocol version 1, 2 or 3 (default: read from the message)")
	f.fs.StringVar(&f.profile, "profile", "otp", "text<->binary mapping profile: otp or rfc")
	f.fs.IntVar(&f.maxSize, "max-size", limits.Default.MaxSize, "largest input accepted, in bytes")
	f.fs.StringVar(&f.layout, "termid-layout", "8,8,8", "termination ID level layout (bits per level) for text<->binary")
	f.fs.StringVar(&f.names, "names", "", "names file: provisioned termination ID and digit map names for text<->binary")
	f.fs.StringVar(&f.packages, "packages", "", "private packages for text<->binary: rows in the format of packages.tsv, added to the embedded ones")
	return f
}

// parse accepts flags before and after the file argument.
func (f *codecFlags) parse(args []string) (file string, err error) {
	rest, err := parseInterleaved(f.fs, args)
	if err != nil {
		return "", err
	}
	switch len(rest) {
	case 0:
		return "-", nil
	case 1:
		return rest[0], nil
	}
	fmt.Fprintf(f.fs.Output(), "%s: at most one input file, got %d\n", f.fs.Name(), len(rest))
	return "", errUsage
}

func (f *codecFlags) options() (codec.Options, error) {
	p, err := codec.ParseProfile(f.profile)
	if err != nil {
		return codec.Options{}, err
	}
	layout, err := termid.ParseLayout(f.layout)
	if err != nil {
		return codec.Options{}, err
	}
	names, err := readNames(f.names, layout)
	if err != nil {
		return codec.Options{}, err
	}
	reg, err := readPackages(f.packages)
	if err != nil {
		return codec.Options{}, err
	}
	lim := limits.Default
	lim.MaxSize = f.maxSize
	return codec.Options{Version: f.version, Profile: p, Limits: lim, Layout: layout, Names: names, Registry: reg}, nil
}

// readNames reads a names file (mapping.ReadNames); "" is none.
func readNames(path string, layout termid.Layout) (*mapping.Names, error) {
	return readConfigFile(path, "names file", func(r io.Reader) (*mapping.Names, error) {
		return mapping.ReadNames(r, layout)
	})
}

// readPackages returns the embedded package registry plus the packages in
// file (packages.tsv format); "" is the embedded registry alone (nil).
func readPackages(path string) (*pkgs.Registry, error) {
	return readConfigFile(path, "packages file", func(r io.Reader) (*pkgs.Registry, error) {
		reg := pkgs.New()
		return reg, reg.Load(r)
	})
}

// readConfigFile parses the file at path (nil result for ""), naming it
// as what in errors.
func readConfigFile[T any](path, what string, parse func(io.Reader) (*T, error)) (*T, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer f.Close()
	v, err := parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, path, err)
	}
	return v, nil
}

// readInput reads the whole input, refusing more than max bytes so that a
// huge or endless input cannot exhaust memory.
func readInput(file string, stdin io.Reader, max int) ([]byte, error) {
	r := stdin
	if file != "-" {
		fh, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		r = fh
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > max {
		return nil, fmt.Errorf("input of %s exceeds the limit of %d bytes (--max-size)", inputSize(r, len(data)), max)
	}
	return data, nil
}

// maxCount bounds the rest of an oversized input read to tell its size.
const maxCount = 64 << 20

// inputSize says the size of an input of which read bytes were read: a
// regular file's size, or else the bytes counted to its end (or to
// maxCount: an endless stream is not read for ever).
func inputSize(r io.Reader, read int) string {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return fmt.Sprintf("%d bytes", fi.Size())
		}
	}
	n, _ := io.Copy(io.Discard, io.LimitReader(r, maxCount))
	if n == maxCount {
		return fmt.Sprintf("more than %d bytes", int64(read)+n)
	}
	return fmt.Sprintf("%d bytes", int64(read)+n)
}

// prepare parses the flags, checks the codecs named (before reading a
// possibly large input) and reads the input.
func (f *codecFlags) prepare(args []string, stdin io.Reader, codecs ...*string) (codec.Options, []byte, error) {
	file, err := f.parse(args)
	if err != nil {
		return codec.Options{}, nil, err
	}
	opts, err := f.options()
	if err != nil {
		return opts, nil, err
	}
	for _, c := range codecs { // flag values: read after parsing
		if *c == "auto" {
			continue
		}
		if _, err := codec.Lookup(*c, opts); err != nil {
			return opts, nil, err
		}
	}
	data, err := readInput(file, stdin, f.maxSize)
	return opts, data, err
}

func transcode(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f := newCodecFlags("transcode", transcodeUsage, stderr)
	to := f.fs.String("to", "ber", "output codec")
	outFile := f.fs.String("o", "", "write the output to this file instead of standard output")
	force := f.fs.Bool("force", false, "write a binary encoding to standard output even when it is a terminal")
	opts, data, err := f.prepare(args, stdin, to, &f.from)
	if err != nil {
		return err
	}
	if *outFile == "" && !*force && codec.FormOf(*to) != codec.Text && isTerminal(stdout) {
		// As curl does: binary on a terminal is noise at best and
		// terminal control sequences at worst.
		return fmt.Errorf("not writing %s, a binary encoding, to a terminal: give -o FILE, redirect the output, or --force", *to)
	}
	out, _, err := codec.Transcode(nil, data, f.from, *to, opts)
	if err != nil {
		return err
	}
	if *outFile != "" {
		return os.WriteFile(*outFile, out, 0o644)
	}
	if isTerminal(stdout) && codec.FormOf(*to) == codec.Text && !bytes.HasSuffix(out, []byte("\n")) {
		// The encoding has no final newline; on a terminal the prompt
		// would follow the message on its last line. Files and pipes get
		// the encoding's bytes exactly.
		out = append(out, '\n')
	}
	_, err = stdout.Write(out)
	return err
}

func decode(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f := newCodecFlags("decode", decodeUsage, stderr)
	form := f.fs.String("form", "", "print the message in text or binary form (default: the input codec's)")
	viewName := f.fs.String("view", "document", "what to print: document (readable), message (the API's Message, as Encode takes it) or both")
	opts, data, err := f.prepare(args, stdin, &f.from)
	if err != nil {
		return err
	}
	want, err := codec.ParseForm(*form, codec.InputForm)
	if err != nil {
		return err
	}
	view, err := protoconv.ParseDecodeView(*viewName)
	if err != nil {
		return err
	}
	m, from, err := codec.DecodeAs(data, f.from, want, opts)
	if err != nil {
		return err
	}
	if want == codec.InputForm {
		want = codec.FormOf(from)
	}
	// The same document as the service's Decode (gRPC and HTTP).
	resp, err := protoconv.NewDecodeResponse(m, from, want, view, opts)
	if err != nil {
		return err
	}
	out, err := protoconv.DecodeJSON(resp)
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}
