package pcapng

import (
	"errors"
	"fmt"
	"net/netip"
	"sync"
	"time"
)

// Frame is one message a Recorder records.
type Frame struct {
	TCP      bool // a TCP stream's next bytes, else a UDP datagram
	Src, Dst netip.AddrPort
	// Head and Data are the bytes, written one after the other (Head: a
	// TPKT header, so that the message need not be copied to frame it).
	Head, Data []byte
	// Comment, if not empty, is written with the packet (pcapng
	// opt_comment; Wireshark shows it as the packet's comment): a note on
	// the message, such as what it was before the sender rewrote it.
	Comment string
}

// Ticket is a frame's place in a Recorder; 0 is no place (the frame was
// dropped).
type Ticket uint64

// Recorder writes frames to a Writer in the order and at the times they
// crossed their sockets, from a goroutine of its own, so that the caller
// pays for a copy and a lock, not for building and writing a packet.
//
// Several goroutines send and receive at once, and one's frame may reach
// the Recorder after a frame that crossed a socket after it (a reply read
// before the goroutine that sent the request got to record it). So a
// frame is stamped and placed when it is handed over, under one lock,
// which makes file order and time order one: a received frame is handed
// over after its read returns, a frame to send before its write starts
// (Reserve), and marked sent or not once the write returns (Done). The
// writer goroutine writes frames in place order, waiting for the first
// one still being sent; one that was not sent is left out.
type Recorder struct {
	w     *Writer
	onErr func(error)

	mu       sync.Mutex
	wake     sync.Cond // the first queued frame is ready, or closing
	q        []queued  // frames from ticket base on
	base     Ticket
	bytes    int // bytes held in q
	maxBytes int
	closing  bool
	dropped  int64 // frames left out for want of queue room
	done     chan struct{}
	notes    map[flowKey]string // Note's, for the next frame sent on a flow
}

type queued struct {
	f     Frame // Head is nil: Data holds the bytes, copied
	t     time.Time
	state uint8
}

const (
	pending uint8 = iota
	sent
	unsent
)

// RecorderOptions tune a Recorder. The zero value is usable.
type RecorderOptions struct {
	// MaxQueued bounds the bytes of frames waiting to be written (0: 32
	// MiB); past it frames are dropped and counted, never waited for.
	MaxQueued int
	// OnError is told of a write that failed (and of frames dropped),
	// at most once a minute; nil: not told.
	OnError func(error)
}

// NewRecorder starts a Recorder writing to w. Close stops it and closes w.
func NewRecorder(w *Writer, opts RecorderOptions) *Recorder {
	r := &Recorder{w: w, onErr: opts.OnError, base: 1, maxBytes: opts.MaxQueued, done: make(chan struct{})}
	if r.maxBytes <= 0 {
		r.maxBytes = 32 << 20
	}
	r.wake.L = &r.mu
	go r.run()
	return r
}

// Record records a frame received, now.
func (r *Recorder) Record(f Frame) { r.add(&f, sent) }

// Reserve places a frame about to be sent, now; Done must follow with
// whether it was.
func (r *Recorder) Reserve(f Frame) Ticket { return r.add(&f, pending) }

// Note has the next frame reserved from src to dst carry text as its
// comment, unless it brings its own (opt_comment: Wireshark shows it as
// the frame's comment), as a proxy notes what it changed in a message it
// relays. A newer note for the flow replaces one not yet used; at most
// maxNotes wait.
func (r *Recorder) Note(src, dst netip.AddrPort, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.notes == nil {
		r.notes = make(map[flowKey]string)
	}
	if _, ok := r.notes[flowKey{src, dst}]; !ok && len(r.notes) >= maxNotes {
		return
	}
	r.notes[flowKey{src, dst}] = text
}

// maxNotes bounds the notes waiting for their frame.
const maxNotes = 1024

func (r *Recorder) add(f *Frame, state uint8) Ticket {
	n := len(f.Head) + len(f.Data)
	data := make([]byte, 0, n)
	data = append(append(data, f.Head...), f.Data...)
	r.mu.Lock()
	defer r.mu.Unlock()
	if state == pending && len(r.notes) > 0 {
		k := flowKey{f.Src, f.Dst}
		if note, ok := r.notes[k]; ok {
			delete(r.notes, k)
			if f.Comment == "" {
				f.Comment = note
			}
		}
	}
	if r.closing || r.bytes+n > r.maxBytes {
		r.dropped++
		return 0
	}
	q := queued{f: *f, t: time.Now(), state: state}
	q.f.Head, q.f.Data = nil, data
	r.q = append(r.q, q)
	r.bytes += n
	if len(r.q) == 1 && state != pending {
		r.wake.Signal()
	}
	return r.base + Ticket(len(r.q)-1)
}

// Done says whether the frame of ticket t was sent.
func (r *Recorder) Done(t Ticket, ok bool) {
	if t == 0 {
		return
	}
	state := unsent
	if ok {
		state = sent
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	i := int(t - r.base)
	if t < r.base || i >= len(r.q) {
		return // given up at Close
	}
	r.q[i].state = state
	if i == 0 {
		r.wake.Signal()
	}
}

// Dropped is the number of frames left out: for want of queue room, or of
// room in the file.
func (r *Recorder) Dropped() int64 {
	r.mu.Lock()
	n := r.dropped
	r.mu.Unlock()
	return n + r.w.Dropped()
}

// Close writes what is queued (a frame still being sent is left out),
// stops the writer and closes the Writer.
func (r *Recorder) Close() error {
	r.mu.Lock()
	if !r.closing {
		r.closing = true
		r.wake.Signal()
	}
	r.mu.Unlock()
	<-r.done
	return r.w.Close()
}

// run writes the frames as they become ready, in place order.
func (r *Recorder) run() {
	defer close(r.done)
	var batch []queued
	var report reporter
	for {
		r.mu.Lock()
		for !r.closing && (len(r.q) == 0 || r.q[0].state == pending) {
			r.wake.Wait()
		}
		n := 0
		for n < len(r.q) && r.q[n].state != pending {
			n++
		}
		last := r.closing && n == len(r.q)
		if r.closing && n < len(r.q) {
			// Still being sent as the Recorder closes: left out.
			for i := n; i < len(r.q); i++ {
				r.q[i].state = unsent
			}
			n, last = len(r.q), true
		}
		batch = append(batch[:0], r.q[:n]...)
		clear(r.q[:n])
		r.q = r.q[n:]
		r.base += Ticket(n)
		for _, q := range batch {
			r.bytes -= len(q.f.Data)
		}
		dropped := r.dropped
		r.mu.Unlock()
		report.err(r.onErr, r.write(batch), dropped)
		clear(batch)
		if last {
			return
		}
	}
}

// write writes a batch of frames and flushes once.
func (r *Recorder) write(batch []queued) error {
	w := r.w
	w.mu.Lock()
	defer w.mu.Unlock()
	var first error
	for _, q := range batch {
		if q.state != sent {
			continue
		}
		var err error
		if q.f.TCP {
			err = w.tcp(q.t, q.f.Src, q.f.Dst, q.f.Data, q.f.Comment)
		} else {
			err = w.udp(q.t, q.f.Src, q.f.Dst, q.f.Data, q.f.Comment)
		}
		if first == nil {
			first = err
		}
	}
	if err := w.ng.Flush(); first == nil {
		first = err
	}
	return first
}

// reporter tells of errors at most once a minute.
type reporter struct {
	last    time.Time
	dropped int64 // the queue's drops last told of
}

func (p *reporter) err(onErr func(error), err error, dropped int64) {
	if onErr == nil || err == nil && dropped == p.dropped || time.Since(p.last) < time.Minute {
		return
	}
	if dropped > p.dropped {
		err = errors.Join(err, fmt.Errorf("pcapng: %d frames dropped: the capture file is not written as fast as frames come", dropped-p.dropped))
	}
	p.last, p.dropped = time.Now(), dropped
	onErr(err)
}
