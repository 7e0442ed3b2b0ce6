// Package abuse holds the abuse test suite of `megaco serve`: tests that
// build the real binary, run it on loopback and act as hostile or
// careless clients (stream floods, clients that never read, slow and
// idle HTTP connections, floods of large requests, huge names echoed,
// SIGTERM with calls open), each asserting that the server's bounds hold
// (goroutines, heap, connections, time to reject) while a well-behaved
// client on the side still gets its answers. The package has no code of
// its own.
package abuse
