package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// otpConfig is one configuration of OTP's megaco_codec_meas.
type otpConfig struct {
	Name   string // the escript's name for it
	Label  string // OTP's table's name for it
	Family string
}

// otpConfigs are every configuration megaco_codec_meas measures, in its
// table's order.
var otpConfigs = []otpConfig{
	{"pretty", "pretty", "pretty"},
	{"pretty_flex", "pretty [flex]", "pretty"},
	{"compact", "compact", "compact"},
	{"compact_flex", "compact [flex]", "compact"},
	{"per", "per bin", "per"},
	{"per_native", "per bin [native]", "per"},
	{"ber", "ber bin", "ber"},
	{"ber_native", "ber bin [native]", "ber"},
	{"erl_dist", "erl_dist", "erl_dist"},
	{"erl_dist_mc", "erl_dist [megaco_compressed]", "erl_dist"},
	{"erl_dist_compressed", "erl_dist [compressed]", "erl_dist"},
	{"erl_dist_mc_compressed", "erl_dist [megaco_compressed,compressed]", "erl_dist"},
}

func isOTPFamily(f string) bool {
	for _, o := range otpConfigs {
		if o.Family == f {
			return true
		}
	}
	return false
}

// matches reports whether our configuration c does what OTP's o does, so
// that their times can be divided: the same codec, native or not, OTP's
// profile, new buffers and messages (no reuse). The native codecs' rows
// are compared with erl_dist's: "native" with the uncompressed ones, its
// compressed variants (native-zstd, native-s2) with the compressed ones.
func (o otpConfig) matches(c Config) bool {
	if c.Reuse || c.Profile != "otp" || family(c.Codec) != o.Family {
		return false
	}
	switch o.Family {
	case "ber", "per":
		return c.Native == strings.HasSuffix(o.Name, "_native")
	case "erl_dist":
		return (c.Codec != "native") == strings.HasSuffix(o.Name, "_compressed")
	}
	return true
}

// OTPInfo describes the Erlang/OTP that was measured.
type OTPInfo struct {
	Release    string `json:"release"`
	Megaco     string `json:"megaco"`
	Erts       string `json:"erts"`
	Schedulers int    `json:"schedulers"`
	Flex       string `json:"flex_scanner"`
	Script     string `json:"script"`
}

// otpSample is one message's measurement by OTP.
type otpSample struct {
	version, size int
	enc, dec      sample
}

// otpClient talks to codec_bench.escript --serve.
type otpClient struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	stderr *headBuffer
	info   OTPInfo
	done   chan struct{}
}

// findScript looks for tools/otp/codec_bench.escript in the directories
// above the working directory and above the corpus.
func findScript(corpusDir string) (string, error) {
	const rel = "tools/otp/codec_bench.escript"
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if abs, err := filepath.Abs(corpusDir); err == nil {
		starts = append(starts, abs)
	}
	for _, d := range starts {
		for {
			p := filepath.Join(d, rel)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
			up := filepath.Dir(d)
			if up == d {
				break
			}
			d = up
		}
	}
	return "", fmt.Errorf("%s not found above the working directory or the corpus (give --otp-script)", rel)
}

// startOTP starts the escript on the corpus and reads its greeting.
func startOTP(ctx context.Context, escript, script, corpusDir string) (*otpClient, error) {
	path, err := exec.LookPath(escript)
	if err != nil {
		return nil, fmt.Errorf("%s not found on PATH (install Erlang/OTP with megaco)", escript)
	}
	cmd := exec.CommandContext(ctx, path, script, "--serve", corpusDir)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &otpClient{cmd: cmd, in: in, lines: make(chan string, 256), stderr: &headBuffer{max: 4096}, done: make(chan struct{})}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
		cmd.Wait() // after the last read, as os/exec wants
		close(c.done)
	}()
	line, err := c.next(2 * time.Minute)
	if err != nil {
		c.close()
		return nil, err
	}
	f := strings.Split(line, "\t")
	if len(f) == 2 && f[0] == "error" {
		c.close()
		return nil, errors.New(f[1])
	}
	if len(f) < 7 || f[0] != "hello" {
		c.close()
		return nil, fmt.Errorf("unexpected greeting from %s: %q", script, line)
	}
	c.info = OTPInfo{Release: f[1], Megaco: f[2], Erts: f[3], Flex: f[6], Script: script}
	c.info.Schedulers, _ = strconv.Atoi(f[5])
	return c, nil
}

// next returns the escript's next line.
func (c *otpClient) next(timeout time.Duration) (string, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case l, ok := <-c.lines:
		if !ok {
			<-c.done
			msg := strings.TrimSpace(c.stderr.String())
			if msg == "" {
				msg = "no output"
			}
			if i := strings.IndexByte(msg, '\n'); i > 0 {
				msg = msg[:i]
			}
			return "", fmt.Errorf("escript ended: %s", msg)
		}
		return l, nil
	case <-t.C:
		return "", errors.New("escript did not answer in time")
	}
}

func (c *otpClient) send(cmd string) error {
	_, err := io.WriteString(c.in, cmd+"\n")
	return err
}

// configs asks which configurations can run; the value is "" for those
// that can, else why not.
func (c *otpClient) configs() (map[string]string, error) {
	if err := c.send("configs"); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for {
		l, err := c.next(time.Minute)
		if err != nil {
			return nil, err
		}
		f := strings.Split(l, "\t")
		switch {
		case f[0] == "end":
			return out, nil
		case f[0] == "config" && len(f) >= 3 && f[2] == "ok":
			out[f[1]] = ""
		case f[0] == "config" && len(f) >= 4:
			out[f[1]] = f[3]
		default:
			return nil, fmt.Errorf("escript: unexpected %q", l)
		}
	}
}

// measure runs one round of an OTP configuration over the corpus.
func (c *otpClient) measure(name string, budget time.Duration, msgs int) (map[string]otpSample, map[string]string, error) {
	if err := c.send(fmt.Sprintf("measure %s %.9f", name, budget.Seconds())); err != nil {
		return nil, nil, err
	}
	timeout := 2*time.Minute + time.Duration(msgs)*budget*6
	res := map[string]otpSample{}
	skips := map[string]string{}
	for {
		l, err := c.next(timeout)
		if err != nil {
			return nil, nil, err
		}
		f := strings.Split(l, "\t")
		switch f[0] {
		case "end":
			return res, skips, nil
		case "skip":
			if len(f) >= 3 {
				skips[f[1]] = f[2]
			}
		case "m":
			if len(f) != 8 {
				return nil, nil, fmt.Errorf("escript: bad line %q", l)
			}
			var v [6]int64
			for i := range v {
				if v[i], err = strconv.ParseInt(f[i+2], 10, 64); err != nil {
					return nil, nil, fmt.Errorf("escript: bad line %q", l)
				}
			}
			res[f[1]] = otpSample{
				version: int(v[0]), size: int(v[1]),
				enc: sample{ns: v[2], n: v[3]},
				dec: sample{ns: v[4], n: v[5]},
			}
		default:
			return nil, nil, fmt.Errorf("escript: unexpected %q", l)
		}
	}
}

func (c *otpClient) close() {
	c.send("quit")
	c.in.Close()
	kill := time.After(5 * time.Second)
	for {
		select {
		case _, ok := <-c.lines:
			if !ok {
				<-c.done
				return
			}
		case <-kill:
			c.cmd.Process.Kill()
			kill = nil
		}
	}
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *headBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - len(t.b); room > 0 {
		t.b = append(t.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (t *headBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
