// Command megaco encodes, decodes and transcodes Megaco/H.248.1 messages
// (protocol versions 1, 2 and 3).
//
//	megaco transcode --from ber --to ber [--version N] [--profile otp|rfc] [FILE|-]
//	megaco decode --from ber [--version N] [FILE|-]
//	megaco serve [--grpc-addr :50051] [--http-addr :8080] ...
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage: megaco <command> [flags] [FILE|-]

commands:
  serve      run the codec service (gRPC and HTTP)
  transcode  read a message in one encoding, write it in another (to stdout)
  decode     read a message and print it as JSON
  bench      time every codec over a corpus (--otp: Erlang/OTP's too)
  load       replay the RFC 3525 call flow or a capture through the service or the proxy (SIPp-style)
  proxy      carry live Megaco traffic between an MGC and an MG, transcoding (UDP/TCP)
  pcap       print the Megaco messages of a pcap/pcapng capture, or their response times (--stats)
  version    print the module version, VCS revision and Go version (also --version)

run 'megaco <command> -h' for the flags of a command
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "transcode":
		err = transcode(args[1:], stdin, stdout, stderr)
	case "decode":
		err = decode(args[1:], stdin, stdout, stderr)
	case "serve":
		err = serve(args[1:], stderr)
	case "bench":
		err = benchCmd(args[1:], stdout, stderr)
	case "load":
		err = loadCmd(args[1:], stdout, stderr)
	case "proxy":
		err = proxyCmd(args[1:], stderr)
	case "pcap":
		err = pcapCmd(args[1:], stdin, stdout, stderr)
	case "version", "--version":
		err = versionCmd(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "megaco: unknown command %q\n%s", args[0], usage)
		return 2
	}
	if err == errUsage {
		return 2
	}
	if err == errHelp {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}
