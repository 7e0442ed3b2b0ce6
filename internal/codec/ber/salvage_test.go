package ber

import (
	"slices"
	"testing"

	"megaco/internal/codec/scan"
)

// tlvOf is tag, a length of the given octet count (0: the short form)
// and contents.
func tlvOf(tag byte, lenOctets int, contents ...[]byte) []byte {
	c := slices.Concat(contents...)
	b := []byte{tag}
	switch lenOctets {
	case 0:
		b = append(b, byte(len(c)))
	case 2: // not minimal: the decoder refuses it, Salvage reads it
		b = append(b, 0x82, byte(len(c)>>8), byte(len(c)))
	}
	return append(b, c...)
}

// Salvage reads non-minimal lengths, takes an unknown Transaction
// alternative for a reply, skips a request whose ID is not an integer it
// can read, and stops at max.
func TestSalvageForms(t *testing.T) {
	req := func(id ...byte) []byte { return tlvOf(0xa0, 0, tlvOf(0x80, 0, id)) }
	trs := tlvOf(0xa1, 2, req(1, 0), tlvOf(0xa7, 0), req(), req(1, 2, 3, 4, 5, 6), tlvOf(0xa3, 0), req(7))
	msg := tlvOf(0x30, 2, tlvOf(0xa1, 0, tlvOf(0x80, 0, []byte{2}), tlvOf(0xa1, 0), tlvOf(0xa2, 2, trs)))
	var s scan.Summary
	Salvage(msg, &s, 64)
	var got []scan.Transaction
	for _, tr := range s.Transactions {
		got = append(got, scan.Transaction{Kind: tr.Kind, ID: tr.ID})
	}
	want := []scan.Transaction{{Kind: scan.Request, ID: 256}, {Kind: scan.Reply}, {Kind: scan.ResponseAck}, {Kind: scan.Request, ID: 7}}
	if s.Version != 2 || !slices.Equal(got, want) {
		t.Errorf("version %d, %+v; want 2, %+v", s.Version, got, want)
	}
	if Salvage(msg, &s, 2); len(s.Transactions) != 2 {
		t.Errorf("max 2: %d transactions", len(s.Transactions))
	}
	if Salvage(msg[1:], &s, 64); s.Version != 0 || len(s.Transactions) != 0 {
		t.Errorf("no SEQUENCE: %+v", s)
	}
}
