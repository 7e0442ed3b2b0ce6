package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"megaco/internal/bench/benchtest"
	"megaco/internal/codec"
)

// benchCLI runs `megaco bench` on the tiny corpus with a budget far too
// small to time anything: only the output's shape is checked.
func benchCLI(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	all := append([]string{"bench", "--corpus", dir, "--time", "200us", "--rounds", "1", "-q"}, args...)
	code := run(all, nil, &out, &errb)
	return code, out.String(), errb.String()
}

// meanSize is the mean size of the corpus files <msg>.<suffix>.
func meanSize(t *testing.T, dir, suffix string) float64 {
	files, _ := filepath.Glob(filepath.Join(dir, "*."+suffix))
	if len(files) == 0 {
		return -1
	}
	var sum float64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		sum += float64(st.Size())
	}
	return sum / float64(len(files))
}

func TestBenchCSV(t *testing.T) {
	dir := benchtest.Corpus(t)
	code, out, stderr := benchCLI(t, dir, "--csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("CSV: %v\n%s", err, out)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, h := range []string{"impl", "config", "codec", "messages", "size_bytes", "encode_us", "decode_us", "total_us", "encode_allocs", "decode_allocs"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("no %s column in %q", h, recs[0])
		}
	}
	seen := map[string]bool{}
	scans := 0
	for _, r := range recs[1:] {
		if k := r[col["kind"]]; k == "scan" || k == "rewrite" {
			scans++
			if v, err := strconv.ParseFloat(r[col["speedup"]], 64); err != nil || v <= 0 {
				t.Errorf("%s: speedup %q", r[col["config"]], r[col["speedup"]])
			}
			continue
		}
		if r[col["impl"]] != "megaco" {
			t.Errorf("impl %q without --otp", r[col["impl"]])
		}
		name := r[col["codec"]]
		seen[name] = true
		size, err := strconv.ParseFloat(r[col["size_bytes"]], 64)
		if err != nil {
			t.Errorf("%s: size %q", r[col["config"]], r[col["size_bytes"]])
		}
		for _, c := range []string{"encode_us", "decode_us", "total_us"} {
			if v, err := strconv.ParseFloat(r[col[c]], 64); err != nil || v <= 0 {
				t.Errorf("%s: %s %q", r[col["config"]], c, r[col[c]])
			}
		}
		// ber, per (and the text codecs once registered): each message's
		// encoding is OTP's corpus file, byte for byte.
		for _, suffix := range []string{name, name + ".txt"} {
			if want := meanSize(t, dir, suffix); want > 0 && !strings.Contains(r[col["config"]], "rfc") && math.Abs(size-want) > 1e-3 {
				t.Errorf("%s: mean size %v, corpus *.%s %v", r[col["config"]], size, suffix, want)
			}
		}
	}
	for _, n := range codec.Names() {
		if !seen[n] {
			t.Errorf("no row for registered codec %s", n)
		}
	}
	if scans == 0 {
		t.Error("no scan rows")
	}
}

func TestBenchJSON(t *testing.T) {
	code, out, stderr := benchCLI(t, benchtest.Corpus(t), "--json", "--codecs", "per")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Messages int
		Rows     []struct {
			Config, Codec string
			Size          float64
		}
		Elapsed string
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out)
	}
	if r.Messages != 3 || len(r.Rows) == 0 || r.Elapsed == "" {
		t.Errorf("report %+v", r)
	}
	for _, row := range r.Rows {
		if row.Codec != "per" {
			t.Errorf("row %s of codec %s with --codecs per", row.Config, row.Codec)
		}
	}
}

func TestBenchText(t *testing.T) {
	code, out, stderr := benchCLI(t, benchtest.Corpus(t), "--codecs", "ber", "--cpus", "2", "--cpu-time", "10ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Codec and config", "Size", "Encode", "Decode", "Total", "ber bin [native]", "ber bin", "ber scan", "ber rewrite", "Throughput", "2 goroutines", "scaling", "The run took"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// otpRow matches a table row of OTP's: "ber bin  OTP  3  269 ...".
var otpRow = regexp.MustCompile(`\sOTP\s+\d+\s+\d`)

// TestBenchNoEscript: --otp without escript on PATH still measures ours
// and says why OTP's rows are missing.
func TestBenchNoEscript(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, out, stderr := benchCLI(t, benchtest.Corpus(t), "--codecs", "ber", "--otp")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "escript not found") || !strings.Contains(out, "ber bin [native]") || otpRow.MatchString(out) {
		t.Errorf("output:\n%s", out)
	}
	code, _, stderr = benchCLI(t, benchtest.Corpus(t), "--codecs", "ber", "--otp", "--csv")
	if code != 0 || !strings.Contains(stderr, "escript not found") {
		t.Errorf("--csv: exit %d, stderr %q", code, stderr)
	}
}

func TestBenchUsage(t *testing.T) {
	dir := benchtest.Corpus(t)
	for _, args := range [][]string{{"--csv", "--json"}, {"--codecs", "nosuch"}, {"--cpus", "-1"}, {"extra"}, {"--nosuchflag"}} {
		if code, _, _ := benchCLI(t, dir, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if code, _, _ := benchCLI(t, filepath.Join(dir, "missing")); code != 1 {
		t.Errorf("missing corpus: exit %d, want 1", code)
	}
}
