package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	pb "megaco/api/megaco/v1"
	"megaco/internal/capture"
	"megaco/internal/capture/stats"
	"megaco/internal/codec"
	"megaco/internal/model"
	"megaco/internal/protoconv"
)

const pcapUsage = `usage: megaco pcap [flags] FILE|-

Reads the Megaco messages of a packet capture (pcap or pcapng; Ethernet,
VLAN, Linux cooked capture, raw IP; IPv4 and IPv6): UDP datagrams and
TPKT-framed TCP streams on ports 2944 and 2945 and any given with --port
(the ports that carried other data are named at the end, with the --port
flags that would read them).
For each message it prints the frame number, time, source -> destination,
transport and detected codec, then the message (--output; json prints one
object per message with those as fields and, as "decode", the document
megaco decode prints), or writes it to a file in any
codec (--write-dir, --write-codec). With --stats it prints
the service response times by command type instead. A packet or message
that cannot be read is reported on stderr with its frame number and
skipped.

Codecs: ` + "%s" + `

Examples:
  megaco pcap --output compact capture.pcapng
  megaco pcap --stats --port 3000 capture.pcap
  megaco pcap --write-dir out --write-codec ber capture.pcap
  tcpdump -U -w - port 2944 | megaco pcap --output compact -

flags:
`

type pcapArgs struct {
	ports      []string
	output     string
	form       string
	writeDir   string
	writeCodec string
	stats      bool
}

func pcapCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f := newCodecFlags("pcap", pcapUsage, stderr)
	a := pcapArgs{output: "pretty"}
	f.fs.Var(listOf(&a.ports, "port", checkPort), "port", "", "also look for Megaco on this UDP/TCP port (repeatable)")
	f.fs.Var(choiceOf(&a.output, "pretty", "compact", "json"), "output", "", "how to print each message")
	f.fs.Var(choiceOf(&a.form, "text", "binary"), "form", "", "with --output json: the message in text or binary form (default: the input codec's)")
	f.fs.Var(textOf(&a.writeDir, "dir"), "write-dir", "", "write each message to a file in this directory instead of printing it")
	f.fs.Var(codecOf(&a.writeCodec), "write-codec", "", "with --write-dir: the codec to write (default: the message's own)")
	f.fs.Var(boolOf(&a.stats), "stats", "", "print response time statistics instead of the messages")
	rest, err := f.fs.parseInterleaved(args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		fmt.Fprintf(f.fs.Output(), "pcap: want one capture file, got %d\n", len(rest))
		return errUsage
	}
	file := rest[0]
	opts, err := f.options()
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(stdout, 64<<10)
	p, err := newPcapPrinter(a, f.from, opts, bw)
	if err != nil {
		return err
	}
	in := stdin
	if file != "-" {
		fh, err := os.Open(file)
		if err != nil {
			return err
		}
		defer fh.Close()
		in = fh
	} else {
		// A capture being written (tcpdump -U -w -): each message as it comes.
		p.flush = bw.Flush
	}
	r, err := capture.NewReader(in, capture.Options{Ports: p.ports})
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	err = p.run(r, stderr)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

type pcapPrinter struct {
	a      pcapArgs
	from   string
	opts   codec.Options
	out    io.Writer
	ports  []uint16
	form   codec.Form
	enc    codec.Codec // the --output or --write-codec text/binary codec
	st     *stats.Stats
	sum    stats.Summarizer
	frame  int // the last message's frame, to number the messages of one frame
	inSame int
	flush  func() error // after each message, when reading a stream
}

func newPcapPrinter(a pcapArgs, from string, opts codec.Options, out io.Writer) (*pcapPrinter, error) {
	p := &pcapPrinter{a: a, from: from, opts: opts, out: out, ports: append([]uint16(nil), capture.DefaultPorts...)}
	for _, s := range a.ports {
		n, err := strconv.ParseUint(s, 10, 16)
		if err != nil || n == 0 {
			return nil, fmt.Errorf("--port %q: want a port number 1-65535", s)
		}
		p.ports = append(p.ports, uint16(n))
	}
	if from != "auto" {
		if _, err := codec.Lookup(from, opts); err != nil {
			return nil, err
		}
	}
	var err error
	if p.form, err = codec.ParseForm(a.form, codec.InputForm); err != nil {
		return nil, err
	}
	switch {
	case a.writeDir != "":
		if a.writeCodec != "" {
			if p.enc, err = codec.Lookup(a.writeCodec, opts); err != nil {
				return nil, err
			}
		}
		if err := os.MkdirAll(a.writeDir, 0o755); err != nil {
			return nil, err
		}
	case a.writeCodec != "":
		return nil, errors.New("--write-codec needs --write-dir")
	case a.output == "pretty" || a.output == "compact":
		p.enc, _ = codec.Lookup(a.output, opts)
	case a.output != "json":
		return nil, fmt.Errorf("--output %q: want pretty, compact or json", a.output)
	}
	if a.stats {
		p.st = stats.New()
		p.sum = stats.Summarizer{From: from, Opts: opts}
	}
	return p, nil
}

func (p *pcapPrinter) run(r *capture.Reader, stderr io.Writer) error {
	var msgs, problems int
	for {
		m, err := r.Next()
		if err == io.EOF {
			break
		}
		var fe *capture.FrameError
		if errors.As(err, &fe) {
			fmt.Fprintln(stderr, err)
			problems++
			continue
		}
		if err != nil {
			return err
		}
		if err := p.message(m); err != nil {
			var w *writeError
			if errors.As(err, &w) {
				return err
			}
			fmt.Fprintf(stderr, "frame %d: %s -> %s %s: %v\n", m.Frame, m.Src, m.Dst, m.Transport, err)
			problems++
			continue
		}
		msgs++
		if p.flush != nil {
			if err := p.flush(); err != nil {
				return err
			}
		}
	}
	if p.st != nil {
		if err := p.st.Write(p.out); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "%d frames, %d Megaco messages, %d problems\n", r.Frames(), msgs, problems)
	unreadNote(stderr, r.Unread(), p.ports)
	return nil
}

func packets(n int) string {
	if n == 1 {
		return "1 packet"
	}
	return strconv.Itoa(n) + " packets"
}

// unreadNote names the ports that carried data this run did not read,
// and the --port flags that would read them.
func unreadNote(w io.Writer, unread []capture.PortCount, read []uint16) {
	if len(unread) == 0 {
		return
	}
	const most = 5
	var seen, flags []string
	for i, u := range unread {
		if i == most {
			seen = append(seen, fmt.Sprintf("%d more ports", len(unread)-most))
			break
		}
		if u.Port == 0 {
			seen = append(seen, fmt.Sprintf("%s other ports (%s)", u.Transport, packets(u.Packets)))
			continue
		}
		seen = append(seen, fmt.Sprintf("%s %d (%s)", u.Transport, u.Port, packets(u.Packets)))
		if f := fmt.Sprintf("--port %d", u.Port); !slices.Contains(flags, f) {
			flags = append(flags, f)
		}
	}
	ports := make([]string, len(read))
	for i, p := range read {
		ports[i] = strconv.Itoa(int(p))
	}
	fmt.Fprintf(w, "not read: packets with data on ports other than %s: %s", strings.Join(ports, ", "), strings.Join(seen, ", "))
	if len(flags) > 0 {
		fmt.Fprintf(w, "; if they carry Megaco, add %s", strings.Join(flags, " "))
	}
	fmt.Fprintln(w)
}

// pcapJSON is a message as --output json prints it.
type pcapJSON struct {
	Frame     int       `json:"frame"`
	Time      time.Time `json:"time"`
	Src       string    `json:"src"`
	Dst       string    `json:"dst"`
	Transport string    `json:"transport"`
	Codec     string    `json:"codec"`
	// Decode is the DecodeResponse of megaco decode and the service's
	// Decode (codec, version, form and the readable document).
	Decode json.RawMessage `json:"decode"`
}

// writeError is a failure to write the output, which ends the run.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }

// message decodes one message and prints, writes or counts it.
func (p *pcapPrinter) message(c capture.Message) error {
	if c.Frame == p.frame {
		p.inSame++
	} else {
		p.frame, p.inSame = c.Frame, 0
	}
	if p.st != nil && p.a.writeDir == "" {
		// Only the statistics: a scan, not a decode.
		sum, _, err := p.sum.Summarize(c.Data)
		if err != nil {
			return err
		}
		p.st.Add(c.Time, c.Src, c.Dst, sum)
		return nil
	}
	m, name, err := codec.DecodeAs(c.Data, p.from, codec.InputForm, p.opts)
	if err != nil {
		return err
	}
	if p.st != nil {
		p.st.Add(c.Time, c.Src, c.Dst, p.sum.FromModel(m, name))
	}
	if p.a.writeDir != "" {
		return p.writeFile(c, m, name)
	}
	var head string
	var body []byte
	if p.enc == nil { // json: one object per message, what it travelled in too
		form := formOr(p.form, name)
		if err := codec.Convert(m, codec.FormOf(name), form, p.opts); err != nil {
			return err
		}
		resp, err := protoconv.NewDecodeResponse(m, name, form, pb.DecodeView_DECODE_VIEW_DOCUMENT, p.opts)
		if err != nil {
			return err
		}
		doc, err := protoconv.DecodeJSON(resp)
		if err != nil {
			return err
		}
		body, err = json.MarshalIndent(pcapJSON{c.Frame, c.Time.UTC(), c.Src.String(), c.Dst.String(), c.Transport, name, doc}, "", "  ")
		if err != nil {
			return err
		}
	} else {
		head = fmt.Sprintf("frame %d  %s  %s -> %s  %s  %s\n", c.Frame, c.Time.UTC().Format("2006-01-02T15:04:05.000000Z"), c.Src, c.Dst, c.Transport, name)
		if body, err = p.encode(m, name, p.a.output, p.enc); err != nil {
			return err
		}
	}
	if len(body) == 0 || body[len(body)-1] != '\n' {
		body = append(body, '\n')
	}
	if _, err := io.WriteString(p.out, head); err != nil {
		return &writeError{err}
	}
	if _, err := p.out.Write(body); err != nil {
		return &writeError{err}
	}
	return nil
}

func formOr(f codec.Form, name string) codec.Form {
	if f == codec.InputForm {
		return codec.FormOf(name)
	}
	return f
}

// encode converts m (decoded by codec from) to the form of codec to and
// encodes it.
func (p *pcapPrinter) encode(m *model.MegacoMessage, from, to string, enc codec.Codec) ([]byte, error) {
	if err := codec.Convert(m, codec.FormOf(from), codec.FormOf(to), p.opts); err != nil {
		return nil, err
	}
	return codec.Encode(nil, enc, to, m, p.opts)
}

// writeFile writes the message as FRAME-N.CODEC (N counts the messages of
// one frame from 0), in --write-codec or its own codec (its own bytes).
func (p *pcapPrinter) writeFile(c capture.Message, m *model.MegacoMessage, name string) error {
	data, to := c.Data, name
	if p.enc != nil {
		to = strings.ToLower(p.a.writeCodec)
		var err error
		if data, err = p.encode(m, name, to, p.enc); err != nil {
			return err
		}
	}
	path := filepath.Join(p.a.writeDir, fmt.Sprintf("%06d-%d.%s", c.Frame, p.inSame, to))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return &writeError{err}
	}
	return nil
}
