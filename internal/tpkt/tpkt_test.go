package tpkt

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

func TestRoundTrip(t *testing.T) {
	msgs := [][]byte{[]byte("!/1 [1.2.3.4]:5 T=1{C=-{N=a{}}}"), bytes.Repeat([]byte{0x30}, 1000), {1}}
	var stream []byte
	for _, m := range msgs {
		var err error
		if stream, err = AppendFrame(stream, m); err != nil {
			t.Fatal(err)
		}
	}
	// One byte per read: every packet split across reads; and the whole
	// stream at once: several packets in one read.
	for _, r := range []io.Reader{iotest.OneByteReader(bytes.NewReader(stream)), bytes.NewReader(stream)} {
		tr := NewReader(r)
		for i, m := range msgs {
			got, err := tr.Next()
			if err != nil || !bytes.Equal(got, m) {
				t.Fatalf("packet %d: %q, %v; want %q", i, got, err, m)
			}
		}
		if _, err := tr.Next(); err != io.EOF {
			t.Fatalf("after the last packet: %v, want EOF", err)
		}
	}
}

func TestBroken(t *testing.T) {
	for name, in := range map[string][]byte{
		"version":  {2, 0, 0, 8, 1, 2, 3, 4},
		"reserved": {3, 1, 0, 8, 1, 2, 3, 4},
		"empty":    {3, 0, 0, 4},
		"short":    {3, 0, 0, 2},
	} {
		if _, err := NewReader(bytes.NewReader(in)).Next(); !errors.Is(err, ErrHeader) {
			t.Errorf("%s: %v, want ErrHeader", name, err)
		}
	}
	if _, err := NewReader(bytes.NewReader([]byte{3, 0, 0, 9, 1})).Next(); err != io.ErrUnexpectedEOF {
		t.Errorf("truncated: %v", err)
	}
	if _, err := AppendFrame(nil, make([]byte, MaxPayload+1)); err != ErrTooLarge {
		t.Errorf("too large: %v", err)
	}
}

// FuzzReader: any stream gives packets, EOF or an error, never a panic
// or a payload longer than the header said.
func FuzzReader(f *testing.F) {
	f.Add([]byte{3, 0, 0, 6, 'a', 'b', 3, 0, 0, 5, 'c'})
	f.Add([]byte{3, 0, 255, 255})
	f.Add([]byte{4, 0, 0, 5, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		total := 0
		for {
			p, err := r.Next()
			if err != nil {
				break
			}
			total += len(p) + HeaderLen
			if len(p) == 0 || total > len(data) {
				t.Fatalf("payload of %d bytes, %d read of %d", len(p), total, len(data))
			}
		}
	})
}

func TestHasPacket(t *testing.T) {
	stream, _ := AppendFrame(nil, []byte("abc"))
	stream, _ = AppendFrame(stream, []byte("defgh"))
	// The reader gets the first packet and part of the second.
	pr, pw := io.Pipe()
	go func() { pw.Write(stream[:len(stream)-2]); pw.Write(stream[len(stream)-2:]); pw.Close() }()
	r := NewReader(pr)
	if r.HasPacket() {
		t.Fatal("a packet before anything was read")
	}
	if got, err := r.Next(); err != nil || string(got) != "abc" {
		t.Fatalf("%q, %v", got, err)
	}
	if r.HasPacket() {
		t.Fatal("the second packet counted whole while its last bytes are missing")
	}
	if got, err := r.Next(); err != nil || string(got) != "defgh" {
		t.Fatalf("%q, %v", got, err)
	}
	r = NewReader(bytes.NewReader(stream))
	r.Next()
	if !r.HasPacket() {
		t.Error("the second packet, buffered whole, not seen")
	}
}
