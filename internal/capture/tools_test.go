package capture_test

// Helpers that drive Wireshark's own tools: text2pcap makes captures from
// hex dumps, tshark reads them. The tests that use them skip when the
// tools are missing (Debian: apt-get install tshark wireshark-common).

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"megaco/internal/capture"
	"megaco/internal/capture/stats"
	"megaco/internal/codec"
)

func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not found: install Debian's tshark and wireshark-common to run this test", name)
	}
	return p
}

// packet is one packet of a text2pcap input: its time, its direction
// (true: from the first address given to text2pcap) and its bytes.
type packet struct {
	at      time.Time
	forward bool
	data    []byte
}

// text2pcap writes the packets as a hex dump with a direction and a time
// before each, and has text2pcap make a capture of them with args.
func text2pcap(t *testing.T, name string, pkts []packet, args ...string) string {
	t.Helper()
	bin := needTool(t, "text2pcap")
	dir := t.TempDir()
	var in bytes.Buffer
	for _, p := range pkts {
		d := "O"
		if p.forward {
			d = "I"
		}
		fmt.Fprintf(&in, "%s %s\n", d, p.at.UTC().Format("2006-01-02 15:04:05.000000"))
		for off := 0; off < len(p.data); off += 16 {
			fmt.Fprintf(&in, "%06x", off)
			for _, b := range p.data[off:min(off+16, len(p.data))] {
				fmt.Fprintf(&in, " %02x", b)
			}
			in.WriteByte('\n')
		}
	}
	src := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(src, in.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	cmd := exec.Command(bin, append([]string{"-q", "-D", "-t", "%Y-%m-%d %H:%M:%S.%f"}, append(args, src, out)...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("text2pcap %v: %v\n%s", args, err, b)
	}
	return out
}

// tsharkPrefs are the preferences every tshark run gets: context tracking,
// which the MEGACO response time statistics need, and TCP reassembly of
// segments that arrive out of order.
var tsharkPrefs = []string{"-o", "megaco.ctx_info:TRUE", "-o", "h248.ctx_info:TRUE", "-o", "tcp.reassemble_out_of_order:TRUE"}

func tshark(t *testing.T, file string, args ...string) string {
	t.Helper()
	bin := needTool(t, "tshark")
	cmd := exec.Command(bin, append(append([]string{"-n", "-r", file}, tsharkPrefs...), args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

// tsharkCount counts the occurrences of field (one per message: megaco.version
// for text, h248.version for binary) in the packets tshark reads.
func tsharkCount(t *testing.T, file, field string, extra ...string) int {
	out := tshark(t, file, append(extra, "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=,", "-e", field)...)
	n := 0
	for line := range strings.Lines(out) {
		if line = strings.TrimSpace(line); line != "" {
			n += strings.Count(line, ",") + 1
		}
	}
	return n
}

// rtdRow is one row of tshark's "-z megaco,rtd" table.
type rtdRow struct {
	count          int
	min, max, mean float64 // ms
}

var rtdLine = regexp.MustCompile(`^(\w+)\s*\|\s*(\d+)\s*\|\s*([\d.]+) msec\s*\|\s*([\d.]+) msec\s*\|\s*([\d.]+) msec`)

// tsharkRTD reads tshark's MEGACO response time table, by tshark's type
// names (ADD, MDFY, ...), and its open (unanswered) request count.
func tsharkRTD(t *testing.T, file string, extra ...string) (map[string]rtdRow, int) {
	out := tshark(t, file, append(extra, "-q", "-z", "megaco,rtd")...)
	rows := map[string]rtdRow{}
	open := -1
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "Open requests: "); ok {
			open, _ = strconv.Atoi(strings.TrimSpace(v))
		}
		m := rtdLine.FindStringSubmatch(line)
		if m == nil || m[1] == "ALL" {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		f := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
		rows[m[1]] = rtdRow{count: n, min: f(m[3]), max: f(m[4]), mean: f(m[5])}
	}
	if open < 0 {
		t.Fatalf("no MEGACO RTD table in tshark's output:\n%s", out)
	}
	return rows, open
}

// tsharkType is tshark's name for each of our command types.
var tsharkType = map[string]string{
	"add": "ADD", "modify": "MDFY", "subtract": "SUBT", "move": "MOVE",
	"auditValue": "AUDVAL", "auditCapabilities": "AUDCAP", "notify": "NTFY", "serviceChange": "SVCC",
}

// readAll reads every message of a capture, failing on any problem.
func readAll(t *testing.T, file string, opts capture.Options) []capture.Message {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	msgs, problems := readWithProblems(t, f, opts)
	for _, p := range problems {
		t.Errorf("%s: %v", filepath.Base(file), p)
	}
	return msgs
}

// readWithProblems reads every message of a capture, and the problems
// reported.
func readWithProblems(t *testing.T, in io.Reader, opts capture.Options) ([]capture.Message, []error) {
	t.Helper()
	r, err := capture.NewReader(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []capture.Message
	var problems []error
	for {
		m, err := r.Next()
		if err == io.EOF {
			return msgs, problems
		}
		var fe *capture.FrameError
		if errors.As(err, &fe) {
			problems = append(problems, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
}

// statsOf computes the statistics of the messages as megaco pcap --stats
// does (a scan, or a decode where the codec has no scanner).
func statsOf(t *testing.T, msgs []capture.Message, opts codec.Options) *stats.Stats {
	t.Helper()
	st := stats.New()
	z := stats.Summarizer{From: "auto", Opts: opts}
	for _, m := range msgs {
		sum, _, err := z.Summarize(m.Data)
		if err != nil {
			t.Fatalf("frame %d: %v", m.Frame, err)
		}
		st.Add(m.Time, m.Src, m.Dst, sum)
	}
	return st
}

// compareRTD checks our response times against tshark's, to tshark's
// precision (hundredths of a millisecond).
func compareRTD(t *testing.T, st *stats.Stats, rows map[string]rtdRow, open int) {
	t.Helper()
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	seen := 0
	for _, r := range st.ByCommand() {
		name, ok := tsharkType[r.Command]
		want, found := rows[name]
		if ok && !found && r.Command == "auditValue" {
			// tshark 4.0 does not count AuditValue in its table.
			t.Logf("auditValue: %d answered; tshark does not count them", r.Count)
			continue
		}
		if !ok || !found {
			t.Errorf("%s (%s): tshark has no row; its rows: %v", r.Command, name, rows)
			continue
		}
		seen++
		near := func(a, b float64) bool { return a-b < 0.006 && b-a < 0.006 }
		if r.Count != want.count || !near(ms(r.Min), want.min) || !near(ms(r.Max), want.max) || !near(ms(r.Mean), want.mean) {
			t.Errorf("%s: ours count %d min %.3f max %.3f mean %.3f ms; tshark %+v", r.Command, r.Count, ms(r.Min), ms(r.Max), ms(r.Mean), want)
		}
	}
	if seen != len(rows) {
		t.Errorf("tshark has %d command types, we have %d: %v", len(rows), seen, rows)
	}
	if t.Failed() {
		t.Logf("ours per transaction: %+v", st.Table())
	}
	if st.Unanswered() != open {
		t.Errorf("unanswered: ours %d, tshark's open requests %d", st.Unanswered(), open)
	}
}

// flow is the RFC 3525 Appendix A call flow (corpus/appendix-a/corrected):
// each message's bytes, whether the MGC sends it, and a time. Reply delays
// differ from message to message so that min, max and mean differ.
func flow(t testing.TB) (msgs [][]byte, fromMGC []bool, times []time.Time) {
	t.Helper()
	files, _ := filepath.Glob("../../corpus/appendix-a/corrected/a1-*.txt")
	if len(files) != 28 {
		t.Fatalf("%d call flow files", len(files))
	}
	base := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	at := base
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, b)
		fromMGC = append(fromMGC, strings.Contains(filepath.Base(f), "-mgc-to-"))
		// 1.25 ms to 9.5 ms between messages, microsecond steps.
		at = at.Add(time.Duration(1250+(i*i*317)%8250) * time.Microsecond)
		times = append(times, at)
	}
	return msgs, fromMGC, times
}

// agree checks that tshark reads as many Megaco text messages as we did
// and the same response times.
func agree(t *testing.T, file string, got []capture.Message) {
	t.Helper()
	agreeCount(t, file, "megaco.version", len(got))
	rows, open := tsharkRTD(t, file)
	compareRTD(t, statsOf(t, got, codec.Options{}), rows, open)
}

// agreeCount checks that tshark reads n messages (field: megaco.version for
// text, h248.version for binary).
func agreeCount(t *testing.T, file, field string, n int) {
	t.Helper()
	if got := tsharkCount(t, file, field); got != n {
		t.Errorf("tshark reads %d messages (%s), we read %d", got, field, n)
	}
}
