package proxy

import (
	"os"
	"runtime"
)

// sizeProcs sets how many threads run the proxy's Go code at once
// (GOMAXPROCS) from the configuration and the CPUs the process may use,
// unless the GOMAXPROCS environment variable chose, and returns it.
//
// The runtime starts with the CPUs the process may use: its CPU affinity
// and its cgroup's CPU quota. A proxy whose sides are both UDP does its
// work in two read loops that hand nothing to each other and one core
// carries far more than a gateway's traffic, so it takes one: beside its
// peers on shared cores, a second processor only spins looking for work
// and wakes threads, which halved the proxy's capacity in measurements
// (median 2,300 against 4,000 calls/s). A TCP side has a goroutine per
// connection, which may use every CPU allowed.
func sizeProcs(cfg Config) int {
	if os.Getenv("GOMAXPROCS") != "" {
		return runtime.GOMAXPROCS(0)
	}
	n := procsFor(cfg, runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(n)
	return n
}

// procsFor is the proxy's parallelism given the CPUs it may use.
func procsFor(cfg Config, cpus int) int {
	if cfg.MGC.Listen.Network == "udp" && cfg.MG.Listen.Network == "udp" {
		return 1
	}
	return max(cpus, 1)
}
