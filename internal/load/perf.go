package load

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// perfStat is perf stat attached to the watched process, counting its
// system calls (procWatch's optional part: perf may be missing, or not
// allowed to attach).
type perfStat struct {
	cmd *exec.Cmd
	out bytes.Buffer // perf's CSV output
}

// start attaches perf stat to pid; it returns why not when it cannot.
func (p *perfStat) start(pid int) (why string) {
	path, err := exec.LookPath("perf")
	if err != nil {
		return "perf is not installed"
	}
	c := exec.Command(path, "stat", "-x", ",", "-e", "raw_syscalls:sys_enter", "-p", strconv.Itoa(pid))
	c.Stderr = &p.out
	if err := c.Start(); err != nil {
		return "perf: " + err.Error()
	}
	p.cmd = c
	return ""
}

// stop interrupts perf (it then prints its counts) and reads the count;
// -1 when there is none, with why when perf ran but gave none.
func (p *perfStat) stop() (n int64, why string) {
	if p.cmd == nil {
		return -1, ""
	}
	p.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
	n, err := perfCount(&p.out, "raw_syscalls:sys_enter")
	if err != nil {
		return -1, "perf: " + err.Error()
	}
	return n, ""
}

// perfCount reads event's count from perf stat's CSV output (-x ,):
// "count,unit,event,...".
func perfCount(r io.Reader, event string) (int64, error) {
	sc := bufio.NewScanner(r)
	var last string
	for sc.Scan() {
		line := sc.Text()
		f := strings.Split(line, ",")
		if len(f) >= 3 && f[2] == event {
			n, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s not counted (%s)", event, f[0])
			}
			return n, nil
		}
		if strings.TrimSpace(line) != "" {
			last = line
		}
	}
	if last == "" {
		last = "no output"
	}
	return 0, errors.New(last)
}
