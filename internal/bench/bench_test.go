package bench

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"megaco/internal/bench/benchtest"
	"megaco/internal/codec"
)

// tinyRun is a run with a budget far too small to time anything: the
// tests check the shape of the results, never the times.
func tinyRun(t *testing.T, o Options) *Report {
	t.Helper()
	if o.Corpus == "" {
		o.Corpus = benchtest.Corpus(t)
	}
	o.PerOp = 200 * time.Microsecond
	if o.Rounds == 0 {
		o.Rounds = 1
	}
	r, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// meanFileSize is the mean size of the corpus files for a codec, or -1.
func meanFileSize(t *testing.T, c *Corpus, name string) float64 {
	var sum float64
	for i := range c.Msgs {
		b := c.Msgs[i].File(name)
		if b == nil {
			return -1
		}
		sum += float64(len(b))
	}
	return sum / float64(len(c.Msgs))
}

func TestLoadCorpus(t *testing.T) {
	c, err := LoadCorpus(benchtest.Corpus(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Msgs) != len(benchtest.Msgs) {
		t.Fatalf("%d messages, want %d", len(c.Msgs), len(benchtest.Msgs))
	}
	for i, m := range c.Msgs {
		if m.Name != benchtest.Msgs[i] {
			t.Errorf("message %d is %s, want %s", i, m.Name, benchtest.Msgs[i])
		}
		for _, suffix := range []string{"ber", "per", "pretty.txt", "compact.txt"} {
			if len(m.Files[suffix]) == 0 {
				t.Errorf("%s: no %s file", m.Name, suffix)
			}
		}
		if m.Version < 1 || m.Version > 3 {
			t.Errorf("%s: version %d", m.Name, m.Version)
		}
	}
	if _, err := LoadCorpus(t.TempDir()); err == nil {
		t.Error("an empty directory loaded as a corpus")
	}
}

func TestRunShape(t *testing.T) {
	dir := benchtest.Corpus(t)
	r := tinyRun(t, Options{Corpus: dir})
	c, _ := LoadCorpus(dir)
	if r.Messages != len(benchtest.Msgs) || r.OTP != nil {
		t.Errorf("messages %d, OTP %v", r.Messages, r.OTP)
	}
	byCodec := map[string][]Row{}
	for _, row := range r.Rows {
		if row.Impl != "megaco" {
			t.Errorf("%s: impl %q without --otp", row.Config, row.Impl)
		}
		byCodec[row.Codec] = append(byCodec[row.Codec], row)
		if row.Messages < 1 || row.Messages > len(benchtest.Msgs) {
			t.Errorf("%s: %d messages", row.Config, row.Messages)
		}
		if row.Size <= 0 || row.EncodeUS <= 0 || row.DecodeUS <= 0 {
			t.Errorf("%s: size %v, encode %v, decode %v", row.Config, row.Size, row.EncodeUS, row.DecodeUS)
		}
		if d := row.TotalUS - row.EncodeUS - row.DecodeUS; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: total %v is not encode %v + decode %v", row.Config, row.TotalUS, row.EncodeUS, row.DecodeUS)
		}
		if row.EncodeAllocs == nil || row.DecodeAllocs == nil {
			t.Errorf("%s: no allocation counts", row.Config)
		}
		// Sizes: the codec's encoding of each message is the corpus file
		// (OTP's encoder output), so the mean is the files' mean.
		if want := meanFileSize(t, c, row.Codec); want >= 0 && row.Profile == "otp" && row.Messages == len(benchtest.Msgs) {
			if row.Size != want {
				t.Errorf("%s: mean size %v, corpus files' %v", row.Config, row.Size, want)
			}
		}
	}
	for _, name := range codec.Names() {
		rows := byCodec[name]
		if len(rows) == 0 {
			t.Errorf("codec %s: no row (notes: %q)", name, r.Notes)
			continue
		}
		if asn1Codecs[name] {
			var native, mapped, reuse bool
			for _, row := range rows {
				native = native || row.Native
				mapped = mapped || row.Mapped
				reuse = reuse || row.Reuse
			}
			if !native || !mapped || !reuse {
				t.Errorf("codec %s: native %v, mapped %v, reuse %v rows; want all", name, native, mapped, reuse)
			}
		}
	}
	for _, name := range []string{"ber", "per"} {
		if meanFileSize(t, c, name) < 0 || len(byCodec[name]) == 0 {
			t.Errorf("no %s rows to check sizes with", name)
		}
	}
}

// Every codec with a scanner (rewriter) gets two scan rows, everything
// and the transactions only, (a rewrite row), on the messages of its own
// encoding, compared with its full decode (decode -> change -> encode):
// generic over the codec table.
func TestScanRows(t *testing.T) {
	r := tinyRun(t, Options{})
	rows := map[string]ScanRow{}
	for _, s := range r.Scans {
		rows[s.Config] = s
		if s.Messages != len(benchtest.Msgs) || s.US <= 0 || s.BaselineUS <= 0 || s.Versus == "" {
			t.Errorf("%s: %+v", s.Config, s)
		}
		if d := s.Speedup - s.BaselineUS/s.US; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: speedup %v is not %v / %v", s.Config, s.Speedup, s.BaselineUS, s.US)
		}
	}
	n := 0
	for _, d := range codec.All() {
		full, scanned := rows[d.Name+" scan"]
		shallow, shallowScanned := rows[d.Name+" scan [transactions]"]
		_, rewritten := rows[d.Name+" rewrite"]
		if scanned != (d.Scan != nil) || shallowScanned != scanned || rewritten != (d.Rewrite != nil) {
			t.Errorf("%s: scan rows %v %v, rewrite row %v; scanner %v, rewriter %v", d.Name, scanned, shallowScanned, rewritten, d.Scan != nil, d.Rewrite != nil)
		}
		if scanned && (full.Depth != "everything" || shallow.Depth != "transactions" || shallow.Op != "scan") {
			t.Errorf("%s: scan rows' depths %q and %q (op %q)", d.Name, full.Depth, shallow.Depth, shallow.Op)
		}
		if d.Scan != nil {
			n++
		}
	}
	if n == 0 || len(rows) != len(r.Scans) {
		t.Errorf("%d scanners, scan rows %v", n, r.Scans)
	}
	for _, name := range []string{"ber scan", "ber scan [transactions]"} {
		if s := rows[name]; s.Allocs != 0 {
			t.Errorf("%s: %v allocations per message, want 0", name, s.Allocs)
		}
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Scans {
		if !strings.Contains(text.String(), s.Config+" ") {
			t.Errorf("no %s line in\n%s", s.Config, text.String())
		}
	}
}

func TestFormats(t *testing.T) {
	r := tinyRun(t, Options{Codecs: []string{"ber"}, CPUs: 2, CPUTime: 20 * time.Millisecond})
	if len(r.Throughput) != len(r.Rows) {
		t.Errorf("%d throughput rows for %d rows", len(r.Throughput), len(r.Rows))
	}
	for _, tp := range r.Throughput {
		if len(tp.PerSec) != 2 || tp.PerSec[0] <= 0 || tp.Scaling <= 0 {
			t.Errorf("throughput %+v", tp)
		}
	}

	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	checkText(t, text.String(), r)

	var cb bytes.Buffer
	if err := r.WriteCSV(&cb); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cb).ReadAll()
	if err != nil {
		t.Fatalf("CSV: %v\n%s", err, cb.String())
	}
	if want := 1 + len(r.Rows) + len(r.Scans) + 2*len(r.Throughput); len(recs) != want {
		t.Errorf("%d CSV records, want %d", len(recs), want)
	}
	if strings.Join(recs[0], ",") != strings.Join(CSVHeader, ",") {
		t.Errorf("CSV header %q", recs[0])
	}

	var jb bytes.Buffer
	if err := r.WriteJSON(&jb); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(jb.Bytes(), &back); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if len(back.Rows) != len(r.Rows) || back.Rows[0].Config != r.Rows[0].Config || back.PerOp != r.PerOp {
		t.Errorf("JSON round trip: %+v", back)
	}
}

// checkText checks the table: a header with every column, and one line
// per row starting with its configuration, with the row's values.
func checkText(t *testing.T, text string, r *Report) {
	t.Helper()
	lines := strings.Split(text, "\n")
	var header string
	for _, l := range lines {
		if strings.HasPrefix(l, "Codec and config") {
			header = l
			break
		}
	}
	for _, col := range []string{"Impl", "Msgs", "Size", "Encode", "Decode", "Total"} {
		if !strings.Contains(header, col) {
			t.Errorf("header %q has no %s column", header, col)
		}
	}
	for _, row := range r.Rows {
		found := false
		for _, l := range lines {
			rest, ok := strings.CutPrefix(l, row.Config+" ")
			if !ok {
				continue
			}
			f := strings.Fields(rest)
			if len(f) >= 6 && strings.EqualFold(f[0], row.Impl) &&
				f[1] == strconv.Itoa(row.Messages) && f[2] == fmt.Sprintf("%.0f", row.Size) {
				found = true
			}
		}
		if !found {
			t.Errorf("no table line for %s", row.Config)
		}
	}
	if !strings.Contains(text, "The run took") {
		t.Error("no run time")
	}
}

func TestOTPMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	r := tinyRun(t, Options{Codecs: []string{"ber"}, OTP: true})
	if r.OTP != nil {
		t.Fatal("OTP measured without escript")
	}
	if len(r.Rows) == 0 {
		t.Fatal("no megaco rows")
	}
	for _, row := range r.Rows {
		if row.Impl != "megaco" {
			t.Errorf("row %s of %s", row.Config, row.Impl)
		}
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "escript not found") {
		t.Errorf("notes do not say escript is missing: %q", r.Notes)
	}
}

func TestOTP(t *testing.T) {
	if _, err := exec.LookPath("escript"); err != nil {
		t.Skip("no escript")
	}
	if testing.Short() {
		t.Skip("starts Erlang")
	}
	dir := benchtest.Corpus(t)
	r := tinyRun(t, Options{Corpus: dir, OTP: true})
	if r.OTP == nil {
		if strings.Contains(strings.Join(r.Notes, "\n"), "OTP not measured") {
			t.Skipf("OTP unavailable: %q", r.Notes)
		}
		t.Fatalf("no OTP info: %q", r.Notes)
	}
	c, _ := LoadCorpus(dir)
	otp := map[string]Row{}
	for _, row := range r.Rows {
		if row.Impl == "otp" {
			otp[row.Codec] = row
		}
	}
	for _, oc := range otpConfigs {
		row, ok := otp[oc.Name]
		if !ok {
			if !strings.Contains(strings.Join(r.Notes, "\n"), "OTP "+oc.Label+" skipped") {
				t.Errorf("OTP %s: no row and no note", oc.Label)
			}
			continue
		}
		if row.Messages != len(benchtest.Msgs) || row.EncodeUS <= 0 || row.DecodeUS <= 0 {
			t.Errorf("OTP %s: %+v", oc.Label, row)
		}
		file := map[string]string{"ber": "ber", "per": "per", "pretty": "pretty", "compact": "compact"}[oc.Family]
		if want := meanFileSize(t, c, file); file != "" && oc.Name != "pretty_flex" && row.Size != want {
			// (pretty [flex]: after OTP's flex scanner, the SDP text of
			// some messages re-encodes with an extra blank line.)
			t.Errorf("OTP %s: mean size %v, corpus files' %v", oc.Label, row.Size, want)
		}
	}
	decodes := map[string]bool{}
	for _, b := range r.Best {
		if b.Op == "decode" && b.Ratio > 0 {
			decodes[b.Family] = true
		}
	}
	for _, f := range []string{"pretty", "compact", "ber", "per", "erl_dist"} {
		if !decodes[f] {
			t.Errorf("best against best: no decode line for %s in %+v", f, r.Best)
		}
	}
	for _, want := range []struct{ otp, ours string }{{"ber", "ber bin"}, {"ber_native", "ber bin [native]"}, {"per_native", "per bin [native]"}} {
		row := otp[want.otp]
		if len(row.Versus) != 1 || row.Versus[0].Config != want.ours || row.Versus[0].Total <= 0 {
			t.Errorf("OTP %s compared with %+v, want %s", want.otp, row.Versus, want.ours)
		}
	}
}

func TestSelectCodecs(t *testing.T) {
	if _, _, err := selectCodecs([]string{"nosuch"}, false); !errors.Is(err, ErrUsage) {
		t.Errorf("unknown codec: %v", err)
	}
	codecs, families, err := selectCodecs([]string{"erl_dist", "ber"}, true)
	if err != nil || strings.Join(codecs, ",") != "ber" || strings.Join(families, ",") != "erl_dist,ber" {
		t.Errorf("got %q %q %v", codecs, families, err)
	}
	codecs, families, err = selectCodecs(nil, true)
	if err != nil || len(codecs) != len(codec.Names()) || len(families) < 5 {
		t.Errorf("all: got %q %q %v", codecs, families, err)
	}
}

func TestMatches(t *testing.T) {
	cfg := func(name string, native, reuse bool, p codec.Profile) Config {
		return Config{Codec: name, Native: native, Mapped: asn1Codecs[name] && !native, Reuse: reuse, Profile: p}
	}
	find := func(name string) otpConfig {
		for _, o := range otpConfigs {
			if o.Name == name {
				return o
			}
		}
		t.Fatalf("no OTP config %s", name)
		return otpConfig{}
	}
	cases := []struct {
		otp  string
		c    Config
		want bool
	}{
		{"ber", cfg("ber", false, false, codec.ProfileOTP), true},
		{"ber", cfg("ber", true, false, codec.ProfileOTP), false},
		{"ber", cfg("ber", false, true, codec.ProfileOTP), false},
		{"ber", cfg("ber", false, false, codec.ProfileRFC), false},
		{"ber_native", cfg("ber", true, false, codec.ProfileOTP), true},
		{"per_native", cfg("ber", true, false, codec.ProfileOTP), false},
		{"pretty_flex", cfg("pretty", false, false, codec.ProfileOTP), true},
		{"erl_dist", cfg("native", false, false, codec.ProfileOTP), true},
		{"erl_dist_mc", cfg("native", false, false, codec.ProfileOTP), true},
		{"erl_dist_compressed", cfg("native", false, false, codec.ProfileOTP), false},
		{"erl_dist_compressed", cfg("native-zstd", false, false, codec.ProfileOTP), true},
		{"erl_dist_mc", cfg("native-s2", false, false, codec.ProfileOTP), false},
	}
	for _, c := range cases {
		if got := find(c.otp).matches(c.c); got != c.want {
			t.Errorf("%s matches %+v: %v, want %v", c.otp, c.c, got, c.want)
		}
	}
}

// TestOTPWithoutMegaco: an escript without megaco (here a stand-in that
// answers as codec_bench.escript does then) leaves a note, not an error.
func TestOTPWithoutMegaco(t *testing.T) {
	bin := t.TempDir()
	fake := "#!/bin/sh\nprintf 'error\\tthe Erlang/OTP megaco application is not installed\\n'\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "escript"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	r := tinyRun(t, Options{Codecs: []string{"per"}, OTP: true})
	if r.OTP != nil || len(r.Rows) == 0 {
		t.Fatalf("OTP %v, %d rows", r.OTP, len(r.Rows))
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "megaco application is not installed") {
		t.Errorf("notes: %q", r.Notes)
	}
}

func TestFastest(t *testing.T) {
	r := tinyRun(t, Options{Codecs: []string{"per"}, Rounds: 3, Fastest: true})
	if r.Statistic != "fastest round" || r.Rounds != 3 || len(r.Rows) == 0 {
		t.Fatalf("statistic %q, rounds %d, %d rows", r.Statistic, r.Rounds, len(r.Rows))
	}
	for _, row := range r.Rows {
		if row.EncodeUS <= 0 || row.DecodeUS <= 0 {
			t.Errorf("%s: %+v", row.Config, row)
		}
	}
}

func TestTiming(t *testing.T) {
	var tm timing
	tm.add(sample{ns: 3000, n: 1})
	tm.add(sample{ns: 2000, n: 2})
	if got := tm.us(false); got != 5.0/3 {
		t.Errorf("mean %v µs, want %v", got, 5.0/3)
	}
	if got := tm.us(true); got != 1 {
		t.Errorf("fastest %v µs, want 1", got)
	}
}
