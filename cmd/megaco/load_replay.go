package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"megaco/internal/capture"
	"megaco/internal/load"
)

// replayArgs are megaco load's capture replay flags.
type replayArgs struct {
	pcap  string
	ports []string
}

func (r *replayArgs) define(fs *flag.FlagSet) {
	fs.StringVar(&r.pcap, "pcap", "", "replay this capture's Megaco messages (pcap or pcapng; - for stdin) through the service instead of the call flow: one call per message, at the capture's timing, or at -r calls per -rp when -r is given")
	fs.Var(&listFlag{vals: &r.ports}, "pcap-port", "with --pcap: also look for Megaco on this UDP/TCP port (repeatable)")
}

// load reads the capture into cfg.Replay when --pcap is given; -r given
// on the command line paces the replay instead of the capture's timing.
func (r *replayArgs) load(fs *flag.FlagSet, cfg *load.Config, stdin io.Reader, stderr io.Writer) error {
	if r.pcap == "" {
		if len(r.ports) > 0 {
			fmt.Fprintln(stderr, "load: --pcap-port needs --pcap")
			return errUsage
		}
		return nil
	}
	if cfg.Wire != nil || cfg.FindMax != nil {
		fmt.Fprintln(stderr, "load: --pcap replays through the service (--transport grpc), without --find-max")
		return errUsage
	}
	ports := append([]uint16(nil), capture.DefaultPorts...)
	for _, s := range r.ports {
		n, err := strconv.ParseUint(s, 10, 16)
		if err != nil || n == 0 {
			fmt.Fprintf(stderr, "load: --pcap-port %q: want a port number 1-65535\n", s)
			return errUsage
		}
		ports = append(ports, uint16(n))
	}
	in := stdin
	if r.pcap != "-" {
		f, err := os.Open(r.pcap)
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		defer f.Close()
		in = f
	}
	rp, err := load.ReadReplay(in, ports, cfg.Codecs)
	if err != nil {
		return fmt.Errorf("load: %s: %w", r.pcap, err)
	}
	fs.Visit(func(f *flag.Flag) { rp.Paced = rp.Paced || f.Name == "r" })
	for i, why := range rp.Skipped {
		if i == 5 {
			fmt.Fprintf(stderr, "load: note: %d more messages skipped\n", len(rp.Skipped)-i)
			break
		}
		fmt.Fprintf(stderr, "load: note: skipped %s\n", why)
	}
	cfg.Replay = rp
	return nil
}
