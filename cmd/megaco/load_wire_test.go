package main

import (
	"bytes"
	"io"
	"megaco/internal/testbin"
	"strings"
	"testing"
)

// TestLoadWireFlags: the wire mode's flags are checked, and a run with no
// proxy behind --mgc-target ends (every call lost after its
// retransmissions) instead of hanging.
func TestLoadWireFlags(t *testing.T) {
	free := func() string { return testbin.FreeAddr(t, "udp") }
	for _, bad := range [][]string{
		{"--transport", "quic"}, {"--transport", "udp", "--retransmit-initial", "0"},
		{"--transport", "udp", "--retransmit-initial", "5s", "--retransmit-max", "1s"},
		{"--transport", "udp", "--mgc-target", "tcp://127.0.0.1:2944"}, {"--transport", "tcp", "--answer-delay", "-1"},
	} {
		var errb bytes.Buffer
		if code := run(append([]string{"load", "-m", "1", "-q"}, bad...), nil, io.Discard, &errb); code == 0 {
			t.Errorf("%v: exit 0", bad)
		}
	}
	var out, errb bytes.Buffer
	code := run([]string{"load", "--transport", "udp", "-m", "2", "-r", "20", "-q", "--timeout", "300ms", "--retransmit-initial", "50ms",
		"--mgc-target", "udp://" + free(), "--mg-target", free(), "--mgc-listen", free(), "--mg-listen", free()}, nil, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), "lost 2") || strings.Contains(out.String(), "retransmitted 0") {
		t.Errorf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
}
