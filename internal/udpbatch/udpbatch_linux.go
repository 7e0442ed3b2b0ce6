package udpbatch

import (
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mmsghdr is struct mmsghdr: a msghdr and the byte count the call sets
// (Go pads it to the C layout).
type mmsghdr struct {
	hdr unix.Msghdr
	len uint32
}

// Reader reads datagrams in batches of up to its size.
type Reader struct {
	mmsg
	iovs  []unix.Iovec
	names []unix.RawSockaddrInet6 // large enough for either family
	bufs  [][]byte
	zones map[uint32]string
}

// mmsg is one recvmmsg or sendmmsg call on a socket's headers.
type mmsg struct {
	rc    syscall.RawConn
	trap  uintptr // SYS_RECVMMSG or SYS_SENDMMSG
	hdrs  []mmsghdr
	n     int // headers offered to the call
	fn    func(uintptr) bool
	done  int // the last call's outcome, set by fn
	errno syscall.Errno
	raw   bool
}

// Raw makes the calls raw system calls: the socket is non-blocking (the
// runtime's poller waits for it), so each call returns at once, and the
// scheduler's bookkeeping of a blocking call (handing the P to another
// thread when the call takes a while, as a sendmmsg of a batch on
// loopback does) is saved. The goroutine keeps its P meanwhile, so a
// loop that is never short of datagrams yields less to the others.
func (m *mmsg) Raw() { m.raw = true }

func newMmsg(c syscall.Conn, trap uintptr) (mmsg, error) {
	rc, err := c.SyscallConn()
	return mmsg{rc: rc, trap: trap}, err
}

// run makes the call on the first n headers, waiting while the socket
// would block.
func (m *mmsg) run(n int) (int, error) {
	if m.fn == nil {
		m.fn = m.call // a method value made once: a closure per call would allocate
	}
	m.n = n
	var err error
	if m.trap == unix.SYS_RECVMMSG {
		err = m.rc.Read(m.fn)
	} else {
		err = m.rc.Write(m.fn)
	}
	if err != nil {
		return 0, err
	}
	if m.errno != 0 {
		op := "sendmmsg"
		if m.trap == unix.SYS_RECVMMSG {
			op = "recvmmsg"
		}
		return 0, &net.OpError{Op: op, Net: "udp", Err: m.errno}
	}
	return m.done, nil
}

// call makes the system call, a raw one when m.raw is set.
func (m *mmsg) call(fd uintptr) bool {
	for {
		sys := unix.Syscall6
		if m.raw {
			sys = unix.RawSyscall6
		}
		done, _, errno := sys(m.trap, fd, uintptr(unsafe.Pointer(&m.hdrs[0])), uintptr(m.n), 0, 0, 0)
		switch errno {
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false // wait until the socket is ready
		}
		m.done, m.errno = int(done), errno
		return true
	}
}

// NewReader makes a reader of up to n datagrams per call, each of up to
// size bytes (a longer one is cut, as a plain read would).
func NewReader(c syscall.Conn, n, size int) (*Reader, error) {
	m, err := newMmsg(c, unix.SYS_RECVMMSG)
	if err != nil {
		return nil, err
	}
	n = max(n, 1)
	m.hdrs = make([]mmsghdr, n)
	r := &Reader{mmsg: m, iovs: make([]unix.Iovec, n),
		names: make([]unix.RawSockaddrInet6, n), bufs: make([][]byte, n), zones: map[uint32]string{}}
	for i := range n {
		r.bufs[i] = make([]byte, size)
		r.iovs[i].Base = &r.bufs[i][0]
		r.iovs[i].SetLen(size)
		h := &r.hdrs[i].hdr
		h.Name = (*byte)(unsafe.Pointer(&r.names[i]))
		h.Iov = &r.iovs[i]
		h.SetIovlen(1)
	}
	return r, nil
}

// Read waits for at least one datagram and takes as many as are queued,
// up to the reader's size; Datagram(i) gives each, valid until the next
// Read.
func (r *Reader) Read() (int, error) {
	for i := range r.hdrs {
		r.hdrs[i].hdr.Namelen = unix.SizeofSockaddrInet6
		r.hdrs[i].hdr.Flags = 0
	}
	return r.run(len(r.hdrs))
}

// Each reads batches and hands each to fn (its size; Datagram(i) gives
// each datagram until fn returns) until a read fails, and returns that
// error, or until fn returns false, and returns nil. It saves the read that would find the socket empty: after a
// batch shorter than the reader's size (the read emptied the socket's
// queue) it waits for the runtime's poller to report the socket readable
// instead of reading again and getting EAGAIN. The loop runs inside one
// wait of the poller's (syscall.RawConn.Read), so an edge that comes
// while fn runs is kept, not reset by the next wait: the poller watches
// the socket edge-triggered, and a datagram queued after the read that
// emptied it is an edge of its own, so none waits unread.
func (r *Reader) Each(fn func(k int) bool) error {
	var errno syscall.Errno
	err := r.rc.Read(func(fd uintptr) bool {
		for {
			for i := range r.hdrs {
				r.hdrs[i].hdr.Namelen = unix.SizeofSockaddrInet6
				r.hdrs[i].hdr.Flags = 0
			}
			sys := unix.Syscall6
			if r.raw {
				sys = unix.RawSyscall6
			}
			k, _, e := sys(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&r.hdrs[0])), uintptr(len(r.hdrs)), 0, 0, 0)
			switch e {
			case 0:
			case unix.EINTR:
				continue
			case unix.EAGAIN:
				return false
			default:
				errno = e
				return true
			}
			if !fn(int(k)) {
				return true
			}
			if int(k) < len(r.hdrs) {
				return false // drained: wait for the next edge
			}
		}
	})
	if err == nil && errno != 0 {
		err = &net.OpError{Op: "recvmmsg", Net: "udp", Err: errno}
	}
	return err
}

// Datagram is the i-th datagram of the last Read and its sender.
func (r *Reader) Datagram(i int) ([]byte, netip.AddrPort) {
	return r.bufs[i][:r.hdrs[i].len], r.addr(&r.names[i])
}

func (r *Reader) addr(sa *unix.RawSockaddrInet6) netip.AddrPort {
	port := binary.BigEndian.Uint16((*[2]byte)(unsafe.Pointer(&sa.Port))[:])
	switch sa.Family {
	case unix.AF_INET:
		sa4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(sa))
		return netip.AddrPortFrom(netip.AddrFrom4(sa4.Addr), port)
	case unix.AF_INET6:
		a := netip.AddrFrom16(sa.Addr).Unmap()
		if sa.Scope_id != 0 && a.Is6() {
			a = a.WithZone(zoneName(r.zones, sa.Scope_id, ifName))
		}
		return netip.AddrPortFrom(a, port)
	}
	return netip.AddrPort{}
}

func ifName(i int) string {
	if ifi, err := net.InterfaceByIndex(i); err == nil {
		return ifi.Name
	}
	return ""
}

// Writer sends datagrams in batches.
type Writer struct {
	mmsg
	inet6 bool // the socket is AF_INET6 (IPv4 peers as mapped addresses)
	iovs  []unix.Iovec
	names []unix.RawSockaddrInet6
	zones map[string]uint32
}

// NewWriter makes a writer for c's socket.
func NewWriter(c syscall.Conn) (*Writer, error) {
	m, err := newMmsg(c, unix.SYS_SENDMMSG)
	if err != nil {
		return nil, err
	}
	w := &Writer{mmsg: m, zones: map[string]uint32{}}
	var serr error
	if err := m.rc.Control(func(fd uintptr) {
		var sa unix.Sockaddr
		if sa, serr = unix.Getsockname(int(fd)); serr == nil {
			_, w.inet6 = sa.(*unix.SockaddrInet6)
		}
	}); err != nil {
		return nil, err
	}
	if serr != nil {
		return nil, serr
	}
	return w, nil
}

// Write sends ms in order, as many as one call takes; it returns how many
// were sent and, when that is not all, the error of the first one not
// sent (call again from there to go on past it).
func (w *Writer) Write(ms []Out) (int, error) {
	if len(ms) == 0 {
		return 0, nil
	}
	w.grow(len(ms))
	for i := range ms {
		if err := w.fill(i, &ms[i]); err != nil {
			if i == 0 {
				return 0, err
			}
			ms = ms[:i] // send those before; the next call reports it
			break
		}
	}
	return w.run(len(ms))
}

func (w *Writer) grow(n int) {
	if n <= len(w.hdrs) {
		return
	}
	w.hdrs = make([]mmsghdr, n)
	w.iovs = make([]unix.Iovec, n)
	w.names = make([]unix.RawSockaddrInet6, n)
	for i := range n {
		h := &w.hdrs[i].hdr
		h.Name = (*byte)(unsafe.Pointer(&w.names[i]))
		h.Iov = &w.iovs[i]
		h.SetIovlen(1)
	}
}

var errFamily = errors.New("udpbatch: an IPv6 destination on an IPv4 socket")

// fill sets header i for m: its payload and its destination in the
// socket's family.
func (w *Writer) fill(i int, m *Out) error {
	iov := &w.iovs[i]
	iov.Base = nil
	if len(m.B) > 0 {
		iov.Base = &m.B[0]
	}
	iov.SetLen(len(m.B))
	sa := &w.names[i]
	*sa = unix.RawSockaddrInet6{}
	a := m.To.Addr()
	binary.BigEndian.PutUint16((*[2]byte)(unsafe.Pointer(&sa.Port))[:], m.To.Port())
	if !w.inet6 {
		if !a.Is4() && !a.Is4In6() {
			return &net.OpError{Op: "sendmmsg", Net: "udp", Err: errFamily}
		}
		sa4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(sa))
		sa4.Family = unix.AF_INET
		sa4.Addr = a.Unmap().As4()
		w.hdrs[i].hdr.Namelen = unix.SizeofSockaddrInet4
		return nil
	}
	sa.Family = unix.AF_INET6
	sa.Addr = a.As16() // an IPv4 address becomes its mapped form
	if z := a.Zone(); z != "" {
		sa.Scope_id = w.scope(z)
	}
	w.hdrs[i].hdr.Namelen = unix.SizeofSockaddrInet6
	return nil
}

func (w *Writer) scope(zone string) uint32 {
	if id, ok := w.zones[zone]; ok {
		return id
	}
	var id uint32
	if n, err := strconv.ParseUint(zone, 10, 32); err == nil {
		id = uint32(n)
	} else if ifi, err := net.InterfaceByName(zone); err == nil {
		id = uint32(ifi.Index)
	}
	if len(w.zones) < 64 {
		w.zones[zone] = id
	}
	return id
}

// zoneName is the zone of an IPv6 scope ID: the interface's name when
// there is one, else the number (netip keeps either).
func zoneName(cache map[uint32]string, id uint32, name func(int) string) string {
	if z, ok := cache[id]; ok {
		return z
	}
	z := name(int(id))
	if z == "" {
		z = strconv.FormatUint(uint64(id), 10)
	}
	if len(cache) < 64 { // a few interfaces; bounded whatever peers send
		cache[id] = z
	}
	return z
}
