package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"10s": 10 * time.Second, "250ms": 250 * time.Millisecond, "1m30s": 90 * time.Second, "0": 0, " 2h ": 2 * time.Hour, "-1s": -time.Second,
	} {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
	// A bare number is refused with the units to write it with.
	for _, in := range []string{"10", "2", "1.5", "5000"} {
		_, err := parseDuration(in)
		if err == nil || !strings.Contains(err.Error(), in+"s") || !strings.Contains(err.Error(), in+"ms") {
			t.Errorf("%q: %v; want a refusal suggesting %ss", in, err, in)
		}
	}
	for _, in := range []string{"", "soon", "10 s", "1d"} {
		if d, err := parseDuration(in); err == nil {
			t.Errorf("%q: %v, want an error", in, d)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"65536": 65536, "64KiB": 64 << 10, "64 KiB": 64 << 10, "1MiB": 1 << 20, "1GiB": 1 << 30, "2TiB": 2 << 40,
		"1kB": 1000, "1KB": 1000, "1MB": 1e6, "1GB": 1e9, "1G": 1 << 30, "512K": 512 << 10, "100B": 100, "0": 0,
	} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "1.5MiB", "10XB", "KiB", "9999999999TiB", "64KiB2"} {
		if n, err := parseSize(in); err == nil {
			t.Errorf("%q: %d, want an error", in, n)
		}
	}
	// What -h shows reads back as the same size.
	for _, n := range []int64{0, 1, 1000, 1 << 10, 64 << 10, 1<<20 + 1, 100 << 20, 3 << 30, 5 << 40} {
		if got, err := parseSize(formatSize(n)); err != nil || got != n {
			t.Errorf("%d: formatted %q, read back %d, %v", n, formatSize(n), got, err)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Minute: "30m", time.Hour: "1h", 90 * time.Minute: "1h30m", 10 * time.Second: "10s", 0: "0s", 61 * time.Second: "1m1s",
	} {
		got := formatDuration(d)
		back, err := parseDuration(got)
		if got != want || err != nil || back != d {
			t.Errorf("%v: %q (read back %v, %v); want %q", d, got, back, err, want)
		}
	}
}

// TestFlagSetEnv: a flag's variable sets it when the command line does
// not; a bad value is reported naming the variable; bounds apply to both.
func TestFlagSetEnv(t *testing.T) {
	define := func() (*flagSet, *bytes.Buffer, *time.Duration, *int) {
		var out bytes.Buffer
		fs := newFlags("t", "usage\n", &out)
		d, n := 10*time.Second, 5
		fs.Var(durationOf(&d, time.Millisecond), "wait", "T_WAIT", "how long")
		fs.Var(countOf(&n, 1, 9), "count", "T_COUNT", "how many")
		return fs, &out, &d, &n
	}
	fs, _, d, n := define()
	if _, err := fs.parse(nil); err != nil || *d != 10*time.Second || *n != 5 {
		t.Fatalf("defaults: %v, %v, %v", err, *d, *n)
	}
	t.Setenv("T_WAIT", "2m")
	t.Setenv("T_COUNT", "7")
	fs, _, d, n = define()
	if _, err := fs.parse([]string{"--count", "3"}); err != nil || *d != 2*time.Minute || *n != 3 {
		t.Errorf("environment and command line: %v, %v, %v; want 2m from T_WAIT, 3 from --count", err, *d, *n)
	}
	for env, want := range map[string]string{"10": `t: T_WAIT="10" (--wait): a duration needs a unit, such as 10s or 10ms`, "0": `t: T_WAIT="0" (--wait): want 1ms or more`} {
		t.Setenv("T_WAIT", env)
		fs, out, _, _ := define()
		if _, err := fs.parse(nil); err != errUsage || out.String() != want+"\n" {
			t.Errorf("T_WAIT=%s: %v, %q; want errUsage and %q", env, err, out.String(), want)
		}
		// The command line overrides a bad variable without reading it.
		fs, out, d, _ = define()
		if _, err := fs.parse([]string{"--wait=1s"}); err != nil || *d != time.Second {
			t.Errorf("T_WAIT=%s --wait=1s: %v, %v %s", env, err, *d, out)
		}
	}
	t.Setenv("T_WAIT", "")
	for args, want := range map[string]string{"--count 10": `t: --count "10": want 1 to 9`, "--wait 1": `t: --wait "1": a duration needs a unit, such as 1s or 1ms`,
		"--nope": "t: unknown flag --nope", "x": `t: unexpected argument "x"`} {
		fs, out, _, _ := define()
		if _, err := fs.parse(strings.Fields(args)); err != errUsage || !strings.HasPrefix(out.String(), want) || strings.Count(out.String(), "\n") != 1 {
			t.Errorf("%s: %v, %q; want one line %q", args, err, out.String(), want)
		}
	}
}

// helpLine is a flag's line in -h: name, type, help, then the default and
// the variable.
var helpLine = regexp.MustCompile(`^  (-{1,2})([a-z0-9-]+)(?: (\S+))?(?:\s+|\n\s+)(\S.*?)(?: \((?:default (.+?))?(?:, )?(?:env (MEGACO_[A-Z0-9_]+))?\))?$`)

// TestHelpFlags: -h of every command lists each of its flags once, with a
// type for each that takes a value (never "string" or "value"), and
// serve's and proxy's each with its variable. The default shown is a
// value the flag takes.
func TestHelpFlags(t *testing.T) {
	for _, cmd := range []string{"serve", "proxy", "load", "bench", "pcap", "transcode", "decode", "version"} {
		code, stdout, stderr := runCLI(t, nil, cmd, "-h")
		if code != 0 || len(stdout) != 0 {
			t.Fatalf("%s -h: exit %d, %d bytes on stdout", cmd, code, len(stdout))
		}
		_, list, ok := strings.Cut(stderr, "\nflags:\n")
		if !ok {
			t.Fatalf("%s -h: no flags: %s", cmd, stderr)
		}
		list, note, _ := strings.Cut(list, "\n\n") // then how durations and sizes are written
		if strings.Contains(list, " duration ") != strings.Contains(note, "A duration has a unit") {
			t.Errorf("%s -h: durations and the note %q", cmd, note)
		}
		lines := regexp.MustCompile(`\n  -`).Split("\n"+strings.TrimSuffix(list, "\n"), -1)[1:]
		seen := map[string]bool{}
		for _, l := range lines {
			m := helpLine.FindStringSubmatch("  -" + l)
			if m == nil {
				t.Errorf("%s -h: line %q", cmd, l)
				continue
			}
			name, typ, def, env := m[2], m[3], m[5], m[6]
			if seen[name] || (m[1] == "-") != (len(name) == 1 || name == "rp") {
				t.Errorf("%s -h: %s%s twice or with the wrong dashes", cmd, m[1], name)
			}
			seen[name] = true
			if typ == "string" || typ == "value" {
				t.Errorf("%s -h: --%s has type %q", cmd, name, typ)
			}
			if (cmd == "serve" || cmd == "proxy") != (env != "") {
				t.Errorf("%s -h: --%s: env %q", cmd, name, env)
			}
			if def != "" && typ != "" {
				if code, _, stderr := runCLI(t, nil, cmd, "--"+name, def, "-h"); code != 0 {
					t.Errorf("%s --%s %s (the default shown): exit %d: %.200s", cmd, name, def, code, stderr)
				}
			}
		}
		if len(seen) == 0 || len(seen) != len(lines) {
			t.Errorf("%s -h: %d flags in %d lines", cmd, len(seen), len(lines))
		}
	}
	_, _, stderr := runCLI(t, nil, "serve", "-h")
	if want := "\n  --max-message-size size "; !strings.Contains(stderr, want) ||
		!strings.Contains(stderr, " largest message accepted (default 64KiB, env MEGACO_MAX_MESSAGE_SIZE)\n") {
		t.Errorf("serve -h: no line %q ... (default 64KiB, env MEGACO_MAX_MESSAGE_SIZE)", want)
	}
}

// TestOneSyntax: sizes take units and durations need them, in every
// command; the environment is read with the same parsers.
func TestOneSyntax(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--max-message-size", "64KiB"}, {"serve", "--memory-limit", "1GiB"}, {"serve", "--memory-limit", "auto"},
		{"serve", "--max-in-flight-bytes", "1GB"}, {"proxy", "--max-message-size", "64KiB"}, {"proxy", "--capture-max-bytes", "10MB"},
		{"decode", "--max-size", "2MiB"}, {"load", "--timeout", "2s"}, {"bench", "--time", "20ms"},
	} {
		if code, _, stderr := runCLI(t, nil, append(args, "-h")...); code != 0 {
			t.Errorf("%v: exit %d %s", args, code, stderr)
		}
	}
	for _, args := range [][]string{
		{"serve", "--drain-timeout", "10"}, {"proxy", "--remember", "10"}, {"load", "--timeout", "10"},
		{"load", "-d", "10"}, {"bench", "--time", "10"}, {"serve", "--grpc-keepalive-time", "10"},
	} {
		code, _, stderr := runCLI(t, nil, args...)
		want := args[0] + ": " + args[1] + ` "10": a duration needs a unit, such as 10s or 10ms` + "\n"
		if code != 2 || stderr != want {
			t.Errorf("%v: exit %d, %q; want 2, %q", args, code, stderr, want)
		}
	}
	// serve stops at the TLS files, after its flags and environment.
	t.Setenv("MEGACO_MAX_MESSAGE_SIZE", "64KiB")
	if code, _, stderr := runCLI(t, nil, "serve", "--tls-cert", "x.pem"); code != 1 || !strings.Contains(stderr, "tls:") {
		t.Errorf("MEGACO_MAX_MESSAGE_SIZE=64KiB: exit %d %s", code, stderr)
	}
	t.Setenv("MEGACO_MAX_MESSAGE_SIZE", "64k")
	code, _, stderr := runCLI(t, nil, "serve", "--tls-cert", "x.pem")
	if want := `serve: MEGACO_MAX_MESSAGE_SIZE="64k" (--max-message-size): want a size`; code != 2 || !strings.HasPrefix(stderr, want) {
		t.Errorf("MEGACO_MAX_MESSAGE_SIZE=64k: exit %d %q; want 2, %q", code, stderr, want)
	}
	// The proxy's required addresses come from the environment too: it
	// goes on to read the names file.
	t.Setenv("MEGACO_MGC", "udp://127.0.0.1:1")
	t.Setenv("MEGACO_MG", "udp://127.0.0.1:2")
	t.Setenv("MEGACO_MAX_MESSAGE_SIZE", "")
	if code, _, stderr := runCLI(t, nil, "proxy", "--names", "/nonexistent"); code != 1 || !strings.Contains(stderr, "names file") {
		t.Errorf("MEGACO_MGC, MEGACO_MG: exit %d %s", code, stderr)
	}
}

// TestValues: each type takes what it should, refuses the rest, and
// writes its value as it reads it.
func TestValues(t *testing.T) {
	var (
		s    string
		list = []string{"a:1"}
		on   bool
		f    float64
		mem  int64
		w    int32
	)
	for _, c := range []struct {
		v        typedValue
		ok, bad  []string
		last     string // String() after the ok values
		typeName string
	}{
		{choiceOf(&s, "text", "json"), []string{"text", "JSON"}, []string{"", "xml"}, "json", "text|json"},
		{listOf(&list, "host:port", checkHostPort), []string{"h:1, h:2", "h:3"}, []string{"h", "h:1,x"}, "h:1,h:2,h:3", "host:port,..."},
		{boolOf(&on), []string{"false", "true"}, []string{"yes please"}, "true", ""},
		{floatOf(&f, 0, 1), []string{"0", "0.5"}, []string{"1.5", "-0.1", "NaN", "half"}, "0.5", "number"},
		{sizeOf(&mem, 1).or("auto"), []string{"auto", "1GiB"}, []string{"0", "-1", "1.5GiB", "lots"}, "1GiB", "size|auto"},
		{sizeOf(&w, 64<<10), []string{"1MiB", "2147483647"}, []string{"1KiB", "2GiB"}, "2147483647", "size"},
		{addrOf(&s), []string{":8080", "[::1]:0", "127.0.0.1:65535"}, []string{"", "127.0.0.1", ":65536", ":http"}, "127.0.0.1:65535", "host:port"},
		{optionalAddrOf(&s), []string{":1", ""}, []string{"x"}, "", "host:port"},
	} {
		for _, in := range c.ok {
			if err := c.v.Set(in); err != nil {
				t.Errorf("%s %q: %v", c.v.Type(), in, err)
			}
		}
		before := c.v.String()
		for _, in := range c.bad {
			if err := c.v.Set(in); err == nil || c.v.String() != before {
				t.Errorf("%s %q: taken (now %q)", c.v.Type(), in, c.v.String())
			}
		}
		if c.v.String() != c.last || c.v.Type() != c.typeName {
			t.Errorf("%s: %q, want %q (type %q)", c.v.Type(), c.v.String(), c.last, c.typeName)
		}
	}
}
