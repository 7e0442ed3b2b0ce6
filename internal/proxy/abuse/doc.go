// Package abuse holds the abuse test suite of `megaco proxy`: tests that
// build the real binary, run it on loopback between a fake controller and
// a fake gateway, and act as hostile or careless peers (a UDP flood of
// requests and garbage, undecodable and oversized messages, silent TCP
// connections, broken TPKT headers, half messages, peers that stop
// reading, SIGTERM during a flood), each asserting that the proxy's
// bounds hold (routing table, connections, goroutines, heap, log volume,
// exit status) while a well-behaved MGC and MG pair on the side still
// gets every answer. The package has no code of its own; it mirrors
// internal/server/abuse, the suite of `megaco serve`.
package abuse
