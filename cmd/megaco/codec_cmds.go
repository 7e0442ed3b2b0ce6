package main

import (
	"bytes"
	"errors"
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

// codecFlags are the flags transcode, decode and pcap share.
type codecFlags struct {
	fs   *flagSet
	from string
	opts codec.Options // Version and Limits; the rest from m
	m    *mappingArgs
}

func newCodecFlags(name, usage string, stderr io.Writer) *codecFlags {
	f := &codecFlags{fs: newFlags(name, fmt.Sprintf(usage, strings.Join(codec.Names(), ", ")), stderr),
		from: "auto", opts: codec.Options{Limits: limits.Default}, m: newMappingArgs()}
	f.fs.Var(codecOf(&f.from, "auto"), "from", "", "input codec, or auto to detect it")
	f.fs.Var(countOf(&f.opts.Version, 0, 3), "version", "", "protocol version 1, 2 or 3; 0: read it from the message")
	f.fs.Var(sizeOf(&f.opts.Limits.MaxSize, 1), "max-size", "", "largest input accepted")
	f.m.define(f.fs, false)
	return f
}

// parse accepts flags before and after the file argument.
func (f *codecFlags) parse(args []string) (file string, err error) {
	rest, err := f.fs.parseInterleaved(args)
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

// options are the codec options the flags give, with the names and
// packages files read.
func (f *codecFlags) options() (codec.Options, error) {
	o := f.opts
	var err error
	o.Profile, o.Layout, o.Names, o.Registry, err = f.m.read()
	return o, err
}

// codecOf is a flag naming a codec, or one of extra.
func codecOf(p *string, extra ...string) *choiceValue {
	v := choiceOf(p, append(codec.Names(), extra...)...)
	v.typ = "codec"
	return v
}

// mappingArgs are the text<->binary mapping's flags, which serve, proxy
// and the codec commands share.
type mappingArgs struct {
	profile         string
	layout          termid.Layout
	names, packages string
}

func newMappingArgs() *mappingArgs {
	return &mappingArgs{profile: string(codec.ProfileOTP), layout: termid.Default()}
}

// define defines the flags, with their MEGACO_* variables when env.
func (m *mappingArgs) define(fs *flagSet, env bool) {
	e := func(name string) string {
		if env {
			return name
		}
		return ""
	}
	fs.Var(choiceOf(&m.profile, string(codec.ProfileOTP), string(codec.ProfileRFC)), "profile", e("MEGACO_PROFILE"), "text<->binary mapping profile")
	fs.Var(parsedOf(&m.layout, "layout", termid.ParseLayout, termid.Layout.String), "termid-layout", e("MEGACO_TERMID_LAYOUT"), "termination ID level layout, bits per level")
	fs.Var(textOf(&m.names, "file"), "names", e("MEGACO_NAMES"), "names file: provisioned termination ID and digit map names")
	fs.Var(textOf(&m.packages, "file"), "packages", e("MEGACO_PACKAGES"), "private packages: rows in the format of packages.tsv, added to the embedded ones")
}

// read reads the names and packages files.
func (m *mappingArgs) read() (codec.Profile, termid.Layout, *mapping.Names, *pkgs.Registry, error) {
	names, err := readNames(m.names, m.layout)
	if err != nil {
		return "", nil, nil, nil, err
	}
	reg, err := readPackages(m.packages)
	return codec.Profile(m.profile), m.layout, names, reg, err
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
	data, err := readInput(file, stdin, opts.Limits.MaxSize)
	return opts, data, err
}

func transcode(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f := newCodecFlags("transcode", transcodeUsage, stderr)
	to, outFile, force := "ber", "", false
	f.fs.Var(codecOf(&to), "to", "", "output codec")
	f.fs.Var(textOf(&outFile, "file"), "o", "", "write the output to this file instead of standard output")
	f.fs.Var(boolOf(&force), "force", "", "write a binary encoding to standard output even when it is a terminal")
	opts, data, err := f.prepare(args, stdin, &to, &f.from)
	if err != nil {
		return err
	}
	if outFile == "" && !force && codec.FormOf(to) != codec.Text && isTerminal(stdout) {
		// As curl does: binary on a terminal is noise at best and
		// terminal control sequences at worst.
		return fmt.Errorf("not writing %s, a binary encoding, to a terminal: give -o FILE, redirect the output, or --force", to)
	}
	out, _, err := codec.Transcode(nil, data, f.from, to, opts)
	if err != nil {
		return err
	}
	if outFile != "" {
		return os.WriteFile(outFile, out, 0o644)
	}
	if isTerminal(stdout) && codec.FormOf(to) == codec.Text && !bytes.HasSuffix(out, []byte("\n")) {
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
	form, viewName := "", "document"
	f.fs.Var(choiceOf(&form, "text", "binary"), "form", "", "print the message in text or binary form (default: the input codec's)")
	f.fs.Var(choiceOf(&viewName, "document", "message", "both"), "view", "", "what to print: document (readable), message (the API's Message, as Encode takes it) or both")
	opts, data, err := f.prepare(args, stdin, &f.from)
	if err != nil {
		return err
	}
	want, err := codec.ParseForm(form, codec.InputForm)
	if err != nil {
		return err
	}
	view, err := protoconv.ParseDecodeView(viewName)
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
