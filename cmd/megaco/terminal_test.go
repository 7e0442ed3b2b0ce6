package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal and returns its terminal end (the
// test is skipped where there is none to open).
func openTerminal(t *testing.T) *os.File {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptm.Close() })
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pseudo-terminal number: %v", err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { pts.Close() })
	return pts
}

// TestTranscodeBinaryToTerminal: as curl does, transcode does not write a
// binary encoding to a terminal unless -o or --force is given; text goes
// to a terminal, and binary to /dev/null (a character device, not a
// terminal), a pipe or a file as before.
func TestTranscodeBinaryToTerminal(t *testing.T) {
	tty := openTerminal(t)
	in := filepath.Join(corpus, "msg03.compact.txt")
	want, err := os.ReadFile(filepath.Join(corpus, "msg03.ber"))
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	if code := run([]string{"transcode", "--to", "ber", in}, nil, tty, &errb); code == 0 || !strings.Contains(errb.String(), "not writing ber, a binary encoding, to a terminal: give -o FILE") {
		t.Errorf("binary to a terminal: exit %d, stderr %q", code, errb.String())
	}
	for _, args := range [][]string{{"--to", "compact", in}, {"--to", "per", "--force", in}} {
		errb.Reset()
		if code := run(append([]string{"transcode"}, args...), nil, tty, &errb); code != 0 {
			t.Errorf("%v to a terminal: exit %d, stderr %q", args, code, errb.String())
		}
	}
	out := filepath.Join(t.TempDir(), "out.ber")
	errb.Reset()
	if code := run([]string{"transcode", "--to", "ber", "-o", out, in}, nil, tty, &errb); code != 0 {
		t.Errorf("-o: exit %d, stderr %q", code, errb.String())
	}
	if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, want) {
		t.Errorf("-o wrote %d bytes (%v), want the corpus's %d", len(got), err, len(want))
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if code := run([]string{"transcode", "--to", "ber", in}, nil, null, &errb); code != 0 {
		t.Errorf("binary to /dev/null: exit %d, stderr %q", code, errb.String())
	}
}
