package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"megaco/internal/bench"
)

const benchUsage = `usage: megaco bench [flags]

Times every codec configuration over a corpus the way Erlang/OTP's megaco
measures its own (megaco_codec_meas): mean encoded size, mean over the
messages of the per-message mean encode and decode time, and allocations
per operation. --otp also runs OTP's codecs (escript) on the same corpus,
alternating rounds with ours, and prints OTP's rows and OTP/megaco ratios.

flags:
`

func benchCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", benchUsage, stderr)
	var o bench.Options
	var asCSV, asJSON, quiet bool
	o.Corpus, o.PerOp, o.Rounds, o.Escript, o.CPUTime = "corpus/otp-time-test", 10*time.Millisecond, 4, "escript", time.Second
	fs.Var(textOf(&o.Corpus, "dir"), "corpus", "", "corpus directory (<msg>.ber and the other encodings)")
	fs.Var(listOf(&o.Codecs, "codec", nil), "codecs", "", "codecs (default: every registered codec and, with --otp, every OTP configuration; erl_dist: OTP only)")
	fs.Var(durationOf(&o.PerOp, 1), "time", "", "timed work per message and operation, split over the rounds (OTP's tool uses 1s)")
	fs.Var(countOf(&o.Rounds, 1, 1<<20), "rounds", "", "rounds per codec; with --otp, ours and OTP's alternate")
	fs.Var(boolOf(&o.Fastest), "fastest", "", "per message, the fastest round's mean instead of the mean over all rounds (for a busy machine)")
	fs.Var(boolOf(&asCSV), "csv", "", "write CSV")
	fs.Var(boolOf(&asJSON), "json", "", "write JSON")
	fs.Var(boolOf(&o.OTP), "otp", "", "also measure Erlang/OTP's megaco codecs (needs escript and megaco)")
	fs.Var(textOf(&o.Escript, "command"), "escript", "", "the escript command")
	fs.Var(textOf(&o.OTPScript, "file"), "otp-script", "", "OTP's side (default: tools/otp/codec_bench.escript above the working directory or the corpus)")
	fs.Var(countOf(&o.CPUs, 0, 1<<16), "cpus", "", "also measure throughput (mstone-style) with 1..N goroutines")
	fs.Var(durationOf(&o.CPUTime, 1), "cpu-time", "", "with --cpus: time per codec configuration and goroutine count")
	fs.Var(boolOf(&quiet), "q", "", "no progress lines on stderr")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if asCSV && asJSON {
		fmt.Fprintln(stderr, "bench: --csv and --json exclude each other")
		return errUsage
	}
	if o.CPUs < 0 || o.Rounds < 1 || o.PerOp <= 0 {
		fmt.Fprintln(stderr, "bench: --cpus must be >= 0, --rounds >= 1, --time > 0")
		return errUsage
	}
	if !quiet {
		o.Progress = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	r, err := bench.Run(ctx, o)
	if errors.Is(err, bench.ErrUsage) {
		fmt.Fprintln(stderr, err)
		return errUsage
	}
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	switch {
	case asCSV:
		err = r.WriteCSV(stdout)
	case asJSON:
		err = r.WriteJSON(stdout)
	default:
		return r.WriteText(stdout)
	}
	if err == nil {
		for _, n := range r.Notes {
			fmt.Fprintf(stderr, "bench: note: %s\n", n)
		}
		fmt.Fprintf(stderr, "bench: the run took %v\n", time.Duration(r.Elapsed).Round(100*time.Millisecond))
	}
	return err
}
