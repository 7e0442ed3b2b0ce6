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
		{[]string{"--mgc", "127.0.0.1:1", "--mg", "udp://127.0.0.1:2"}, 2, "want udp://host:port"},
		{append([]string{"--mgc-codec", "nope"}, peers...), 2, `--mgc-codec "nope": want ber, `},
		{append([]string{"--mgc-listen", "tcp://:0"}, peers...), 1, "one transport"},
		{append([]string{"--version", "4"}, peers...), 2, `--version "4": want 0 to 3`},
		{append([]string{"--remember", "soon"}, peers...), 2, `--remember "soon": want a duration`},
		{append([]string{"--log-level", "loud"}, peers...), 2, `--log-level "loud": want debug, info, warn or error`},
		{append([]string{"--names", "/nonexistent"}, peers...), 1, "names file"},
		{append([]string{"--mgc-allow", "10.0.0.0/8,host.example"}, peers...), 2, `allowlist entry "host.example": want a CIDR or an IP address`},
		{append([]string{"--mg-allow", "10.0.0.0/40"}, peers...), 2, `--mg-allow "10.0.0.0/40": allowlist entry`},
		{[]string{"extra"}, 2, "unexpected argument"},
		{append([]string{"--identity", "maybe"}, peers...), 2, `--identity "maybe": want rewrite or off`},
		{append([]string{"--mg-mid", "[1.2.3]:5"}, peers...), 1, "not an IP address"},
		{append([]string{"--identity", "off", "--mg-mid", "gw/1"}, peers...), 1, "--mg-mid needs --identity=rewrite"},
		{[]string{"--mgc", "udp://127.0.0.1:1,udp:/x", "--mg", "udp://127.0.0.1:2"}, 2, "want udp://host:port"},
		{[]string{"--mgc", "udp://127.0.0.1:1,tcp://127.0.0.1:3", "--mg", "udp://127.0.0.1:2"}, 1, "one transport"},
		{[]string{"--mgc", "udp://127.0.0.1:1", "--mg", "udp://127.0.0.1:2,udp://127.0.0.1:3"}, 2, `--mg "udp://127.0.0.1:2,udp://127.0.0.1:3": want udp://host:port`},
	} {
		var out, errOut bytes.Buffer
		code := run(append([]string{"proxy"}, c.args...), nil, &out, &errOut)
		if code != c.code || !strings.Contains(out.String()+errOut.String(), c.want) {
			t.Errorf("%q: exit %d (want %d), output %q (want %q)", c.args, code, c.code, out.String()+errOut.String(), c.want)
		}
	}
}
