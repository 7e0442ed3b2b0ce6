//go:build linux

package proxy

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// rawIO reads and writes a TCP connection's socket with raw system calls
// through the runtime's poller (syscall.RawConn), where the net package
// makes blocking-call ones. The socket is non-blocking, so each call
// returns at once; as ordinary calls, a read or write that outlasted the
// runtime monitor's 20 µs tick (a loopback write wakes the reader and
// may be preempted) handed the loop's processor to another thread and
// kept the monitor polling at that period: futex wake-ups and nanosleeps
// counted as often as the reads and writes themselves (perf trace).
// Deadlines hold as in the net package: the poller's waits honour them.
type rawIO struct {
	c  net.Conn
	rc syscall.RawConn

	rbuf []byte // the read's buffer
	rn   int
	rerr syscall.Errno
	rfn  func(uintptr) bool
	// extend, when set, is asked when the read deadline passes: the new
	// deadline, or false to let the read fail. The owner sets the
	// deadline once per idle period instead of once per message (a
	// runtime timer moved each time), and a packet half read is never
	// cut by a deadline the connection's traffic had moved on.
	extend func() (time.Time, bool)
	wbuf   []byte // what is left to write
	werr   syscall.Errno
	wfn    func(uintptr) bool
	armed  bool // a write deadline is set (a write had to wait)
	// writeTimeout bounds a write that has to wait for the peer.
	writeTimeout time.Duration
}

// newRawIO is c's raw I/O, or nil when c has no socket to reach (then
// the net package's calls serve).
func newRawIO(c net.Conn, writeTimeout time.Duration) *rawIO {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawIO{c: c, rc: rc, writeTimeout: writeTimeout}
	r.rfn, r.wfn = r.read, r.write // method values made once: a closure per call would allocate
	return r
}

// Read reads what is there, waiting (up to the read deadline) when
// nothing is.
func (r *rawIO) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.rbuf, r.rn, r.rerr = p, 0, 0
	err := r.rc.Read(r.rfn)
	for err != nil && r.extend != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		d, ok := r.extend()
		if !ok {
			break
		}
		r.c.SetReadDeadline(d)
		err = r.rc.Read(r.rfn)
	}
	r.rbuf = nil
	switch {
	case err != nil:
		return 0, err
	case r.rerr != 0:
		return 0, &net.OpError{Op: "read", Net: "tcp", Err: r.rerr}
	case r.rn == 0:
		return 0, io.EOF
	}
	return r.rn, nil
}

func (r *rawIO) read(fd uintptr) bool {
	for {
		n, errno := rawSyscall(syscall.SYS_READ, fd, r.rbuf)
		switch errno {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		r.rn, r.rerr = n, errno
		return true
	}
}

// Write writes all of b. A write that must wait for the peer to read
// sets the write deadline then, so a write that goes through at once (the
// usual case) reads no clock and sets no timer.
func (r *rawIO) Write(b []byte) (int, error) {
	r.wbuf, r.werr = b, 0
	err := r.rc.Write(r.wfn)
	left := len(r.wbuf)
	r.wbuf = nil
	if r.armed {
		r.armed = false
		r.c.SetWriteDeadline(time.Time{})
	}
	if err == nil && r.werr != 0 {
		err = &net.OpError{Op: "write", Net: "tcp", Err: r.werr}
	}
	return len(b) - left, err
}

func (r *rawIO) write(fd uintptr) bool {
	for len(r.wbuf) > 0 {
		n, errno := rawSyscall(syscall.SYS_WRITE, fd, r.wbuf)
		switch errno {
		case 0:
			r.wbuf = r.wbuf[n:]
			continue
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			if !r.armed {
				r.armed = true
				r.c.SetWriteDeadline(time.Now().Add(r.writeTimeout))
			}
			return false
		}
		r.werr = errno
		return true
	}
	return true
}

// rawSyscall is read or write (trap) of b, not empty, on fd.
func rawSyscall(trap, fd uintptr, b []byte) (int, syscall.Errno) {
	n, _, errno := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	return int(n), errno
}
