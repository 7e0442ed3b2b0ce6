package main

import (
	"bufio"
	"bytes"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"megaco/internal/capture/pcapng"
	"megaco/internal/testbin"
)

// readmeCommand is a command of one of a page's sh examples, with the
// output the page shows under it (lines "# ..." at column 0 right
// after it), if any.
type readmeCommand struct {
	line  int
	cmd   string
	shown []string
}

// readmeExamples reads a page's ```sh blocks into commands (a line
// ending with \ or | goes on on the next), and the plain ``` blocks'
// "$ command" lines with the output under them.
func readmeExamples(t *testing.T, path string) [][]readmeCommand {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks [][]readmeCommand
	var cur []readmeCommand
	fence := "" // the open block's language ("-" for a plain block)
	cont, output := false, false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case fence == "" && strings.HasPrefix(line, "```"):
			fence, cur, cont, output = strings.TrimPrefix(line, "```"), nil, false, false
			if fence == "" {
				fence = "-"
			}
		case fence == "":
		case line == "```":
			if len(cur) > 0 {
				blocks = append(blocks, cur)
			}
			fence = ""
		case fence == "-":
			promptLine(&cur, n, line)
		case fence != "sh":
		case cont:
			cur[len(cur)-1].cmd += "\n" + line
			cont = continues(line)
		case strings.HasPrefix(line, "# ") && output:
			c := &cur[len(cur)-1]
			c.shown = append(c.shown, strings.TrimPrefix(line, "# "))
		case strings.TrimSpace(line) == "":
			output = false
		case strings.HasPrefix(strings.TrimSpace(line), "#"): // commentary
		default:
			cur = append(cur, readmeCommand{line: n, cmd: line})
			cont, output = continues(line), true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// promptLine reads a line of a plain block: "$ command" lines, each
// followed by its output (the lines up to the next "$ ").
func promptLine(cur *[]readmeCommand, n int, line string) {
	if cmd, ok := strings.CutPrefix(line, "$ "); ok {
		*cur = append(*cur, readmeCommand{line: n, cmd: cmd, shown: []string{}})
		return
	}
	if len(*cur) > 0 {
		c := &(*cur)[len(*cur)-1]
		c.shown = append(c.shown, line)
	}
}

// matches reports whether out is the output shown; a "..." line in it
// stands for the rest.
func matches(out string, shown []string) bool {
	for i, l := range shown {
		if l == "..." {
			return strings.HasPrefix(out, strings.Join(shown[:i], "\n")+"\n")
		}
	}
	return out == strings.Join(shown, "\n")
}

func continues(line string) bool {
	l := strings.TrimSpace(line)
	return strings.HasSuffix(l, `\`) || strings.HasSuffix(l, "|")
}

// notHere are the words of commands an example cannot run in the test:
// long-running services and peers (the e2e tests cover those), go
// commands that need the repository's module (the examples run in a
// directory of their own), and tools that need a host set up for them
// (containers, a cluster, a profiler).
var notHere = []string{
	"python3 ", "megaco serve", "megaco proxy", "megaco load", "make run",
	"podman ", "docker ", "kubectl ", "kustomize ", "helm ", "promtool ", "prometheus ",
	"npm ", "go tool pprof", "go test", "go run", "go build", "go install", "go generate",
	"git ", "escript ", "erl ", "tshark", "taskset ", "perf ", "valgrind ",
	"sudo ", "systemctl ", "cd ",
}

// blockKind tells how to run an example: offline, against the service
// (curl or grpcurl on localhost:8080 and :50051), or not here.
func blockKind(b []readmeCommand) string {
	kind := "offline"
	for _, c := range b {
		for _, w := range notHere {
			if strings.Contains(c.cmd, w) {
				return "skip: runs " + strings.TrimSpace(w)
			}
		}
		for _, w := range []string{"curl ", "grpcurl "} {
			if strings.Contains(c.cmd, w) {
				if _, err := exec.LookPath(strings.TrimSpace(w)); err != nil {
					return "skip: no " + w
				}
				kind = "service"
			}
		}
	}
	return kind
}

// TestReadmeExamples runs the sh examples of README.md and of every page
// under docs/ as a new user would, page by page and in order, with bash in
// a directory that has the repository's corpus, bin/megaco freshly built
// (and megaco on PATH), and the capture.pcap(ng) the pcap examples read;
// the curl and grpcurl ones against megaco serve on free loopback ports,
// substituted for :8080 and :50051 (skipped when the tool is missing).
// Where a page shows output, the command's (stdout and stderr) must be
// exactly that; elsewhere it must succeed. make targets and the commands
// of notHere are left out; a page without examples is fine.
func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the megaco binary")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := readmeDir(t)
	// The examples run with dir/bin first on PATH; grpcurl goes there too
	// when it is not installed, as the README says to install it.
	t.Setenv("PATH", filepath.Join(dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	if _, err := exec.LookPath("grpcurl"); err != nil {
		cmd := exec.Command("go", "install", grpcurlModule)
		cmd.Env = append(os.Environ(), "GOBIN="+filepath.Join(dir, "bin"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Logf("cannot install grpcurl from the module proxy (its examples are skipped): %v\n%s", err, out)
		}
	}
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{"../../README.md"}, pages...)
	var addrs *strings.Replacer
	ran := 0
	for _, page := range pages {
		name := strings.TrimPrefix(filepath.ToSlash(page), "../../")
		for _, b := range readmeExamples(t, page) {
			kind := blockKind(b)
			if strings.HasPrefix(kind, "skip") {
				t.Logf("%s:%d: %s", name, b[0].line, kind)
				continue
			}
			if kind == "service" && addrs == nil {
				addrs = startReadmeService(t, dir)
			}
			for _, c := range b {
				if runExample(t, bash, dir, name, c, kind, addrs) {
					ran++
				}
			}
		}
	}
	if ran < 15 {
		t.Errorf("only %d commands of README.md and docs/ run: the examples moved?", ran)
	}
}

// runExample runs one command of page name and checks its output, unless
// it is a make target, reads a live capture (tcpdump) or shows the output of the README's own capture; it
// reports whether it ran.
func runExample(t *testing.T, bash, dir, name string, c readmeCommand, kind string, addrs *strings.Replacer) bool {
	t.Helper()
	if strings.HasPrefix(c.cmd, "make ") || strings.Contains(c.cmd, "tcpdump") {
		return false
	}
	if len(c.shown) > 0 && strings.Contains(c.cmd, "capture.pcap") {
		t.Logf("%s:%d: %s: its output is of the page's capture, not this test's", name, c.line, c.cmd)
		return false
	}
	line := c.cmd
	if kind == "service" {
		line = addrs.Replace(line)
	}
	t.Logf("%s:%d: %s (shown %d lines)", name, c.line, line, len(c.shown))
	cmd := exec.Command(bash, "-o", "pipefail", "-c", line)
	cmd.Dir = dir
	cmd.Env = os.Environ() // PATH has dir/bin first
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	got := strings.TrimRight(out.String(), "\n")
	switch {
	case c.shown != nil && !matches(got, c.shown):
		t.Errorf("%s:%d: %s\ngives (%v):\n%s\nthe page shows:\n%s", name, c.line, c.cmd, err, got, strings.Join(c.shown, "\n"))
	case c.shown == nil && err != nil:
		t.Errorf("%s:%d: %s\nfails: %v\n%s", name, c.line, c.cmd, err, got)
	}
	return true
}

// startReadmeService runs bin/megaco serve on free loopback ports and
// returns what puts them in place of the pages' localhost:8080 and
// localhost:50051 (or 127.0.0.1:...).
func startReadmeService(t *testing.T, dir string) *strings.Replacer {
	t.Helper()
	a := testbin.FreeAddrs(t, "tcp", 2)
	testbin.Start(t, filepath.Join(dir, "bin", "megaco"), []string{"serve", "--grpc-addr", a[0], "--http-addr", a[1]}, regexp.MustCompile(`msg=serving()`))
	return strings.NewReplacer("localhost:8080", a[1], "localhost:50051", a[0],
		"127.0.0.1:8080", a[1], "127.0.0.1:50051", a[0])
}

// readmeDir is a directory set up for the examples: corpus/, bin/megaco
// and a capture of the call flow's first messages on port 2944, with
// two more on port 3000, as capture.pcapng and capture.pcap (both
// pcapng: the reader tells the format by its content).
func readmeDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	corpus, err := filepath.Abs("../../corpus")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(corpus, filepath.Join(dir, "corpus")); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin", "megaco")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	files, err := filepath.Glob("../../internal/load/flow/a1-0*.ber")
	if err != nil || len(files) == 0 {
		t.Fatalf("call flow messages: %v", err)
	}
	for _, name := range []string{"capture.pcapng", "capture.pcap"} {
		w, err := pcapng.Create(filepath.Join(dir, name), pcapng.Options{})
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
		for i, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			port := uint16(2944)
			if i >= len(files)-2 {
				port = 3000
			}
			mgc, mg := netip.AddrPortFrom(netip.MustParseAddr("10.0.0.1"), port), netip.AddrPortFrom(netip.MustParseAddr("10.0.0.2"), port)
			src, dst := mg, mgc
			if strings.Contains(f, "-mgc-to-") {
				src, dst = mgc, mg
			}
			if err := w.UDP(at.Add(time.Duration(i)*time.Millisecond), src, dst, data); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
