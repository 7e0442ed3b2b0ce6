// Package cpubench holds the benchmark of `megaco serve`'s CPU per call:
// BenchmarkServerCPU builds the real binary, runs it as a child process
// on loopback and drives it with Go clients, one RPC kind after another
// in one run (an empty gRPC call, a unary Transcode, HTTP /v1/transcode
// with keep-alive clients, TranscodeStream one message at a time and in
// batches), reporting the server's CPU per call from /proc beside the
// client's own. The package has no code of its own.
package cpubench
