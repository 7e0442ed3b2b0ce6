package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestProxyFlags: the proxy's flags are checked before anything listens.
func TestProxyFlags(t *testing.T) {
	peers := []string{"--mgc", "udp://127.0.0.1:1", "--mg", "udp://127.0.0.1:2"}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-h"}, 0, "read once"},
		{nil, 1, "--mgc and --mg are required"},
		{[]string{"--mgc", "127.0.0.1:1", "--mg", "udp://127.0.0.1:2"}, 1, "want udp://host:port"},
		{append([]string{"--mgc-codec", "nope"}, peers...), 1, "unknown codec"},
		{append([]string{"--mgc-listen", "tcp://:0"}, peers...), 1, "one transport"},
		{append([]string{"--version", "4"}, peers...), 1, "unsupported protocol version"},
		{append([]string{"--remember", "soon"}, peers...), 1, "bad --remember"},
		{append([]string{"--log-level", "loud"}, peers...), 1, "bad log level"},
		{append([]string{"--names", "/nonexistent"}, peers...), 1, "names file"},
		{append([]string{"--mgc-allow", "10.0.0.0/8,host.example"}, peers...), 1, `--mgc-allow: allowlist entry "host.example"`},
		{append([]string{"--mg-allow", "10.0.0.0/40"}, peers...), 1, `--mg-allow: allowlist entry "10.0.0.0/40"`},
		{[]string{"extra"}, 2, "unexpected argument"},
	} {
		var out, errOut bytes.Buffer
		code := run(append([]string{"proxy"}, c.args...), nil, &out, &errOut)
		if code != c.code || !strings.Contains(out.String()+errOut.String(), c.want) {
			t.Errorf("%q: exit %d (want %d), output %q (want %q)", c.args, code, c.code, out.String()+errOut.String(), c.want)
		}
	}
}
