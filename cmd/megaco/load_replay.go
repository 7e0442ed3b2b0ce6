package main

import (
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
	mgc   string
}

func (r *replayArgs) define(fs *flagSet) {
	fs.Var(textOf(&r.pcap, "file"), "pcap", "", "replay this capture's Megaco messages (pcap or pcapng; - for stdin) instead of the call flow, at the capture's timing, or at -r calls per -rp when -r is given: through the service one call per message, through the proxy (--transport udp|tcp) one call per transaction")
	fs.Var(listOf(&r.ports, "port", checkPort), "pcap-port", "", "with --pcap: also look for Megaco on this UDP/TCP port (repeatable)")
	fs.Var(textOf(&r.mgc, "addr"), "pcap-mgc", "", "with --pcap through the proxy: the MGC's IP address (or address:port) in the capture; what it sends goes from the MGC side, the rest from the MG side (default: told by the commands each address sends)")
}

// load reads the capture into cfg.Replay when --pcap is given; -r given
// on the command line paces the replay instead of the capture's timing.
func (r *replayArgs) load(fs *flagSet, cfg *load.Config, stdin io.Reader, stderr io.Writer) error {
	if r.pcap == "" {
		if len(r.ports) > 0 || r.mgc != "" {
			fmt.Fprintln(stderr, "load: --pcap-port and --pcap-mgc need --pcap")
			return errUsage
		}
		return nil
	}
	if cfg.FindMax != nil {
		fmt.Fprintln(stderr, "load: --pcap replays the capture once: no --find-max")
		return errUsage
	}
	if r.mgc != "" && cfg.Wire == nil {
		fmt.Fprintln(stderr, "load: --pcap-mgc is for a replay through the proxy (--transport udp|tcp): through the service a message's codec tells its side")
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
	var rp *load.Replay
	var err error
	if cfg.Wire != nil {
		rp, err = load.ReadWireReplay(in, ports, cfg.Codecs, r.mgc)
	} else {
		rp, err = load.ReadReplay(in, ports, cfg.Codecs)
	}
	if err != nil {
		return fmt.Errorf("load: %s: %w", r.pcap, err)
	}
	rp.Paced = fs.given("r")
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
