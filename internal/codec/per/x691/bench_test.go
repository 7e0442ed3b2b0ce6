package x691

import "testing"

func BenchmarkDecodeMsg03(b *testing.B) {
	b.SetBytes(int64(len(msg03)))
	b.ReportAllocs()
	for b.Loop() {
		d := NewReader(msg03)
		if err := walkMsg03Direct(&d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeMsg03(b *testing.B) {
	buf := make([]byte, 0, 128)
	b.SetBytes(int64(len(msg03)))
	b.ReportAllocs()
	for b.Loop() {
		var e Writer
		e.Reset(buf[:0])
		encodeMsg03Direct(&e)
		buf = e.Finish()
	}
}

func BenchmarkOpenType300(b *testing.B) {
	buf := make([]byte, 0, 512)
	payload := rep(0x5A, 300)
	b.ReportAllocs()
	for b.Loop() {
		var e Writer
		e.Reset(buf[:0])
		e.PutBool(true)
		m := e.BeginOpenType()
		e.putOctets(payload)
		if err := e.EndOpenType(m); err != nil {
			b.Fatal(err)
		}
		buf = e.Bytes()
	}
}
