package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Columns of the text table, after the configuration's name.
var textColumns = []string{"Impl", "Msgs", "Size", "Encode", "Decode", "Total", "enc", "dec", "enc", "dec", "total"}

// WriteText writes the report as a table laid out like OTP's megaco
// "Performance comparison" table (codec and config, size, encode, decode,
// total), with allocations per operation and OTP's times divided by ours.
func (r *Report) WriteText(w io.Writer) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "megaco bench: %s, %d messages, %v per message and operation in %d rounds (%s)\n",
		r.Corpus, r.Messages, time.Duration(r.PerOp), r.Rounds, r.Statistic)
	fmt.Fprintf(b, "megaco: %s %s, GOMAXPROCS %d, %d CPUs", r.GoVersion, r.Platform, r.GOMAXPROCS, r.NumCPU)
	if r.LoadAvg != "" {
		fmt.Fprintf(b, "; load average %s", r.LoadAvg)
	}
	b.WriteString("\n")
	if r.OTP != nil {
		fmt.Fprintf(b, "OTP:    Erlang/OTP %s (erts %s), megaco %s, %d schedulers, flex scanner %s\n",
			r.OTP.Release, r.OTP.Erts, r.OTP.Megaco, r.OTP.Schedulers, r.OTP.Flex)
	}
	b.WriteString("\n")

	nameW := len("Codec and config")
	for _, row := range r.Rows {
		nameW = max(nameW, len(row.Config))
	}
	line := func(name, impl, vs string, cells ...string) {
		s := fmt.Sprintf("%-*s  %-6s %4s %5s %8s %8s %8s  %7s %7s  %6s %6s %6s  %s", nameW, name, impl,
			cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], cells[7], cells[8], cells[9], vs)
		b.WriteString(strings.TrimRight(s, " ") + "\n")
	}
	fmt.Fprintf(b, "%-*s  %-6s %4s %5s %26s  %15s  %20s\n", nameW, "", "", "", "", "µs, mean per message", "allocs per op", "OTP time / megaco's")
	line("Codec and config", textColumns[0], "", textColumns[1:]...)
	line(strings.Repeat("-", nameW), "------", "", "----", "-----", "--------", "--------", "--------", "-------", "-------", "------", "------", "------")
	prevFamily := ""
	for i, row := range r.Rows {
		if i > 0 && row.Family != prevFamily {
			b.WriteString("\n")
		}
		prevFamily = row.Family
		impl := row.Impl
		if impl == "otp" {
			impl = "OTP"
		}
		cells := []string{
			strconv.Itoa(row.Messages), fmt.Sprintf("%.0f", row.Size), us(row.EncodeUS), us(row.DecodeUS), us(row.TotalUS),
			allocs(row.EncodeAllocs), allocs(row.DecodeAllocs), "", "", "",
		}
		if row.Impl != "otp" {
			line(row.Config, impl, "", cells...)
			continue
		}
		if len(row.Versus) == 0 {
			cells[7], cells[8], cells[9] = "-", "-", "-"
			line(row.Config, impl, "", cells...)
			continue
		}
		for i, v := range row.Versus {
			cells[7], cells[8], cells[9] = times(v.Encode), times(v.Decode), times(v.Total)
			vs := ""
			if v.Config != row.Config {
				vs = "vs " + v.Config
			}
			if i == 0 {
				line(row.Config, impl, vs, cells...)
			} else {
				line("", "", vs, "", "", "", "", "", "", "", cells[7], cells[8], cells[9])
			}
		}
	}
	if r.Statistic == "mean" {
		b.WriteString("\nSize: mean encoded bytes. Encode, decode: mean over the messages of each message's mean time.\n")
	} else {
		b.WriteString("\nSize: mean encoded bytes. Encode, decode: mean over the messages of each message's fastest round's mean time.\n")
	}
	b.WriteString("[native]: binary form only; ber/per bin without it include the text<->binary name mapping, as OTP's do.\n")
	b.WriteString("[reuse]: reused output buffer and decoder (without: a new buffer and message per operation, as OTP).\n")
	if r.OTP != nil {
		b.WriteString("OTP rows are compared with the megaco row of the same codec and configuration (otp profile, no reuse).\n")
	}
	writeBest(b, r.Best, nameW)
	writeScans(b, r.Scans, nameW)

	if len(r.Throughput) > 0 {
		fmt.Fprintf(b, "\nThroughput (mstone-style): messages decoded and re-encoded per second, 1..%d goroutines, %v each\n\n",
			r.CPUs, time.Duration(r.CPUTime))
		fmt.Fprintf(b, "%-*s", nameW, "Codec and config")
		for g := 1; g <= r.CPUs; g++ {
			fmt.Fprintf(b, "  %11s", fmt.Sprintf("%d goroutine%s", g, plural(g)))
		}
		fmt.Fprintf(b, "  %8s\n", "scaling")
		for _, t := range r.Throughput {
			fmt.Fprintf(b, "%-*s", nameW, t.Config)
			for _, v := range t.PerSec {
				fmt.Fprintf(b, "  %11.0f", v)
			}
			fmt.Fprintf(b, "  %7.2fx\n", t.Scaling)
		}
	}
	if len(r.Notes) > 0 {
		b.WriteString("\nNotes:\n")
		for _, n := range r.Notes {
			fmt.Fprintf(b, "  %s\n", n)
		}
	}
	fmt.Fprintf(b, "\nThe run took %v.\n", time.Duration(r.Elapsed).Round(100*time.Millisecond))
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func us(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func allocs(v *float64) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf("%.1f", *v)
}

func times(v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1fx", v)
}

// CSVHeader is the first record of WriteCSV's output.
var CSVHeader = []string{
	"kind", "impl", "config", "codec", "family", "profile", "native", "mapped", "reuse",
	"messages", "size_bytes", "encode_us", "decode_us", "total_us", "encode_allocs", "decode_allocs",
	"versus", "ratio_encode", "ratio_decode", "ratio_total", "goroutines", "msgs_per_sec", "scaling",
	"op_us", "baseline_us", "op_allocs", "baseline_allocs", "speedup",
}

// writeScans writes the scan and rewrite rows under the table.
func writeScans(b *strings.Builder, rows []ScanRow, nameW int) {
	if len(rows) == 0 {
		return
	}
	for _, r := range rows {
		nameW = max(nameW, len(r.Config))
	}
	b.WriteString("\nWithout decoding: scan (everything; [transactions]: the header and transactions only) vs the same\ncodec's full decode, rewrite (new transaction and context IDs) vs decode -> change -> encode,\non the same messages in the same rounds\n\n")
	fmt.Fprintf(b, "%-*s  %4s %8s %9s %7s  %7s %7s  %s\n", nameW, "Codec and config", "Msgs", "µs", "vs µs", "faster", "allocs", "vs", "vs what")
	for _, r := range rows {
		fmt.Fprintf(b, "%-*s  %4d %8s %9s %7s  %7.1f %7.1f  %s\n", nameW, r.Config, r.Messages, us(r.US), us(r.BaselineUS),
			times(r.Speedup), r.Allocs, r.BaselineAllocs, r.Versus)
	}
}

// WriteCSV writes one record per row ("codec"), per scan row ("scan",
// "rewrite") and per throughput measurement ("throughput"), all with
// CSVHeader's fields.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(CSVHeader)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }
	opt := func(v float64) string {
		if v == 0 {
			return ""
		}
		return f(v)
	}
	for _, row := range r.Rows {
		ea, da := "", ""
		if row.EncodeAllocs != nil {
			ea, da = f(*row.EncodeAllocs), f(*row.DecodeAllocs)
		}
		rec := []string{
			"codec", row.Impl, row.Config, row.Codec, row.Family, row.Profile,
			strconv.FormatBool(row.Native), strconv.FormatBool(row.Mapped), strconv.FormatBool(row.Reuse),
			strconv.Itoa(row.Messages), f(row.Size), f(row.EncodeUS), f(row.DecodeUS), f(row.TotalUS), ea, da,
			"", "", "", "", "", "", "", "", "", "", "", "",
		}
		if len(row.Versus) == 0 {
			cw.Write(rec)
		}
		// One record per comparison.
		for _, v := range row.Versus {
			rec[16], rec[17], rec[18], rec[19] = v.Config, opt(v.Encode), opt(v.Decode), opt(v.Total)
			cw.Write(rec)
		}
	}
	for _, s := range r.Scans {
		cw.Write([]string{
			s.Op, "megaco", s.Config, s.Codec, s.Family, "", "", "", "",
			strconv.Itoa(s.Messages), "", "", "", "", "", "", s.Versus, "", "", "", "", "", "",
			f(s.US), f(s.BaselineUS), f(s.Allocs), f(s.BaselineAllocs), opt(s.Speedup),
		})
	}
	for _, t := range r.Throughput {
		for i, v := range t.PerSec {
			cw.Write([]string{
				"throughput", "megaco", t.Config, t.Codec, "", "", "", "", "",
				"", "", "", "", "", "", "", "", "", "", "",
				strconv.Itoa(i + 1), f(v), f(v / t.PerSec[0]), "", "", "", "", "",
			})
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
