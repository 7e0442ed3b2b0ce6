// Package cpubench holds the benchmark of `megaco serve`'s CPU per call:
// BenchmarkServerCPU builds the real binary, runs it as a child process
// on loopback and drives it with Go clients, one RPC kind after another
// in one run (an empty gRPC call, a unary Transcode, HTTP /healthz and
// /v1/transcode with keep-alive clients, a server reflection stream's
// message, TranscodeStream one message at a time and in batches),
// reporting the server's CPU per call from /proc beside the client's own
// and the bytes the server allocated, and the codec work alone done in
// the benchmark's process. With -server-profile it also takes the
// server's CPU and allocation profiles. The package has no code of its
// own.
package cpubench
