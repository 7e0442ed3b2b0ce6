package text

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"megaco/internal/codec/ber"
	"megaco/internal/codec/codecerr"
	"megaco/internal/mapping"
)

// FuzzDecode feeds the decoder anything. It must never panic or run away;
// an error must be a *codecerr.Error with a place; a reused Decoder must
// agree with Decode; and a message that has a binary form must keep it
// through BER: text -> model -> BER -> model -> text form -> BER gives the
// same bytes twice.
func FuzzDecode(f *testing.F) {
	for _, c := range loadCorpus(f) {
		f.Add(c.pretty)
		f.Add(c.compact)
	}
	paths, _ := filepath.Glob(filepath.Join(decAppendixDir, "a1-*.txt"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"",
		"!/3 [1.2.3.4]\nT=1{C=1{TP{a,b,OW,OWE,ST=2,c,d,IS},CA{ANDLgc,CT{x/y,x/z=3}},SC=root{SV{MT=FO,DL=100,MG=[1.2.3.4]:99,V=3,20040101T12000000,SIC,X-foo=bar,M,E,AD=<m.net>}}}}",
		"!/3 [1.2.3.4]\nT=1{C=1{AV=x{AT{M{ST=1{L{v=0\r\n},SA{nt/dur}},TS{SI=OS,BF,a/b,a/b=1}},SG{SL=2{c/d{ST=1,SPARQ=5}}},E=7{e/f},EB{g/h{ST=2}},DM=dp,PG{nt-1}}}}}",
		"Authentication = 0x01020304:0x0A0B0C0D:0x00112233445566778899AABB\nMEGACO/3 [2001:db8::1]:2944 Pending = 7 { }",
		"!/1 MTP{0A1B}\nK{1,3-4}",
		"!/3 [1.2.3.4]\nT=1{C=1{MF=x{DM={T:1,S:2,L:3,Z:4,(1x|2x)},SG{SL=3{a/b{SY=OO,DR=20,NC={IBS,IR}},c/d}}}}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data, Options{})
		var dec Decoder
		dec.Decode([]byte("!/1 [1.2.3.4]:55555\nT=1{C=-{N=a{OE=1{al/of}}}}")) // warm it with something else
		m2, err2 := dec.Decode(data)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("Decode: %v, Decoder: %v", err, err2)
		}
		if err != nil {
			var e *codecerr.Error
			if !errors.As(err, &e) || e.Pos.Unit != codecerr.LineCol || e.Pos.Line < 1 || e.Pos.Column < 1 || e.Pos.Offset < 0 || e.Pos.Offset > len(data) || e.Msg == "" {
				t.Fatalf("bad error %#v", err)
			}
			if err.Error() != err2.Error() {
				t.Fatalf("Decode: %v, Decoder: %v", err, err2)
			}
			return
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatal("Decode and Decoder differ")
		}
		v := int(m.Mess.Version)
		if mapping.ToBinary(m, v, nil) != nil {
			return // no binary form (names, IDs the mapping does not know)
		}
		b1, err := ber.Append(nil, m, ber.Options{})
		if err != nil {
			return // something BER cannot carry in this version
		}
		m3, err := ber.Decode(b1, ber.Options{})
		if err != nil {
			t.Fatalf("BER of a decoded text does not decode: %v", err)
		}
		if mapping.ToText(m3, v, nil) != nil || mapping.ToBinary(m3, v, nil) != nil {
			return
		}
		b2, err := ber.Append(nil, m3, ber.Options{})
		if err != nil || !bytes.Equal(b1, b2) {
			t.Fatalf("text -> BER not stable: %v\n%x\n%x", err, b1, b2)
		}
	})
}
