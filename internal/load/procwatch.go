package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ProcCost is what another process (the proxy under test, given by
// --watch-pid) spent while the run lasted, read from /proc/PID and, when
// perf can attach to it, perf stat.
type ProcCost struct {
	PID int
	// CPU is the process's user and system time (stat utime + stime, in
	// clock ticks of 10 ms).
	CPU time.Duration
	// Voluntary and Involuntary are its threads' context switches (each
	// thread's status voluntary_ctxt_switches and
	// nonvoluntary_ctxt_switches, summed).
	Voluntary, Involuntary int64
	// Syscalls counts every system call its threads entered
	// (raw_syscalls:sys_enter through perf stat); -1 when perf could not
	// count them. ReadWrite is what /proc/PID/io gives instead: the
	// read-like and write-like calls only (syscr + syscw), which counts
	// recvmmsg and sendmmsg but not epoll_wait, futex or nanosleep.
	Syscalls, ReadWrite int64
	// PerfErr says why perf did not count, when it did not.
	PerfErr string
	// Load is the machine's load average (1, 5 and 15 minutes) at the end.
	Load [3]float64
}

// procSample is a process's cumulative counters at one instant.
type procSample struct {
	cpu        time.Duration
	vol, invol int64
	rw         int64
}

// userHZ is the unit of stat's times: USER_HZ, 100 on every Linux ABI.
const userHZ = 100

// readProc samples /proc/PID.
func readProc(pid int) (procSample, error) {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	var s procSample
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return s, err
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields after its closing parenthesis are counted from there.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return s, errors.New("unreadable " + filepath.Join(dir, "stat"))
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 { // state is field 3, utime 14, stime 15
		return s, errors.New("short " + filepath.Join(dir, "stat"))
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return s, err
	}
	s.cpu = time.Duration(ut+st) * time.Second / userHZ
	tasks, _ := filepath.Glob(filepath.Join(dir, "task", "*", "status"))
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended meanwhile
		}
		s.vol += statusField(b, "voluntary_ctxt_switches:")
		s.invol += statusField(b, "nonvoluntary_ctxt_switches:")
	}
	if b, err := os.ReadFile(filepath.Join(dir, "io")); err == nil {
		s.rw = statusField(b, "syscr:") + statusField(b, "syscw:")
	}
	return s, nil
}

// statusField is the number after name at the start of a line of b.
func statusField(b []byte, name string) int64 {
	for line := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(line, []byte(name)); ok {
			n, _ := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			return n
		}
	}
	return 0
}

// procWatch measures a process from start to stop.
type procWatch struct {
	pid   int
	first procSample
	perf  perfStat
	err   string // why perf did not count, if it did not
}

// watchProc takes the first sample of pid and starts perf stat on it.
func watchProc(pid int) (*procWatch, error) {
	s, err := readProc(pid)
	if err != nil {
		return nil, fmt.Errorf("--watch-pid %d: %w", pid, err)
	}
	w := &procWatch{pid: pid, first: s}
	w.err = w.perf.start(pid)
	return w, nil
}

// stop takes the last sample and ends perf.
func (w *procWatch) stop() (*ProcCost, error) {
	last, err := readProc(w.pid)
	syscalls, why := w.perf.stop()
	if why != "" {
		w.err = why
	}
	if err != nil {
		return nil, fmt.Errorf("--watch-pid %d: %w", w.pid, err)
	}
	c := &ProcCost{PID: w.pid, CPU: last.cpu - w.first.cpu, Voluntary: last.vol - w.first.vol,
		Involuntary: last.invol - w.first.invol, ReadWrite: last.rw - w.first.rw, Syscalls: syscalls, PerfErr: w.err}
	c.Load = loadAverage()
	return c, nil
}

// loadAverage is /proc/loadavg's three averages (zeros where unreadable).
func loadAverage() [3]float64 {
	var l [3]float64
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return l
	}
	f := strings.Fields(string(b))
	for i := 0; i < 3 && i < len(f); i++ {
		l[i], _ = strconv.ParseFloat(f[i], 64)
	}
	return l
}

// write reports the cost per message.
func (c *ProcCost) write(w io.Writer, msgs int64) {
	per := func(n int64) string {
		if msgs == 0 {
			return "-"
		}
		return strconv.FormatFloat(float64(n)/float64(msgs), 'f', 2, 64)
	}
	us := "-"
	if msgs > 0 {
		us = strconv.FormatFloat(float64(c.CPU.Microseconds())/float64(msgs), 'f', 1, 64)
	}
	fmt.Fprintf(w, "watched process %d: CPU %.2f s, %s CPU-µs per message; context switches per message %s (voluntary %d, involuntary %d)",
		c.PID, c.CPU.Seconds(), us, per(c.Voluntary+c.Involuntary), c.Voluntary, c.Involuntary)
	if c.Syscalls >= 0 {
		fmt.Fprintf(w, "; system calls per message %s (perf)", per(c.Syscalls))
	}
	fmt.Fprintf(w, "; read/write-like system calls per message %s (/proc io)", per(c.ReadWrite))
	fmt.Fprintf(w, "; load average %.2f %.2f %.2f\n", c.Load[0], c.Load[1], c.Load[2])
	if c.Syscalls < 0 && c.PerfErr != "" {
		fmt.Fprintf(w, "note: all system calls not counted: %s\n", c.PerfErr)
	}
}
