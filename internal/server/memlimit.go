package server

import (
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// MemoryLimitShare is the part of a container's memory limit the Go
// runtime aims to stay under when GOMEMLIMIT is not set: the rest is for
// what the runtime does not count (stacks of exiting goroutines, the
// binary, kernel buffers).
const MemoryLimitShare = 0.9

// setMemoryLimit sets the runtime's soft memory limit so that a high
// GCPercent cannot grow the heap into an OOM kill: limit if positive,
// else MemoryLimitShare of the cgroup's memory limit, if there is one.
// GOMEMLIMIT, when set, rules. It returns the limit in force (0: none),
// where it comes from, for the log, and what restores the limit before.
func setMemoryLimit(limit int64) (int64, string, func()) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return readMemoryLimit(), "GOMEMLIMIT", func() {}
	}
	source := "flag"
	if limit <= 0 {
		cg, ok := cgroupMemoryLimit()
		if !ok {
			return 0, "none", func() {}
		}
		limit, source = int64(float64(cg)*MemoryLimitShare), "cgroup"
	}
	old := debug.SetMemoryLimit(limit)
	return limit, source, func() { debug.SetMemoryLimit(old) }
}

func readMemoryLimit() int64 {
	l := debug.SetMemoryLimit(-1) // a negative value reads it
	if l == math.MaxInt64 {
		return 0
	}
	return l
}

// cgroupMemoryLimit reads the memory limit of the process's cgroup (v2,
// then v1); "max" or v1's huge value mean none.
func cgroupMemoryLimit() (int64, bool) {
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		return parseCgroupLimit(string(b))
	}
	return 0, false
}

func parseCgroupLimit(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	n, err := strconv.ParseInt(s, 10, 64)
	// v1 says "no limit" with the largest page-aligned int64.
	if err != nil || n <= 0 || n >= math.MaxInt64/2 {
		return 0, false
	}
	return n, true
}
