package proxy

import (
	"bytes"
	"testing"

	"megaco/internal/codec"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// modelScanner stands in for a codec's scanner: the summary of the
// decoded message (scan.FromModel), as a scanner would report it.
func modelScanner(name string, data []byte, s *scan.Summary, _ limits.Limits) error {
	m, release, _, err := codec.DecodeTransient(data, name, codec.InputForm, codec.Options{})
	if err != nil {
		return err
	}
	defer release()
	scan.FromModel(m, codec.FormOf(name) == codec.Text, s)
	s.MID.Value = bytes.Clone(s.MID.Value) // the decoding's memory goes back now
	return nil
}

// TestRelayScanned: relaying with a scanner, a message from a peer whose
// mId the proxy knows is routed from the scan, not decoded; a new mId, or
// a message split between two requesters, is decoded. Routing, segments,
// pendings, the table and the metrics come out as with decoding.
func TestRelayScanned(t *testing.T) {
	defer func(f func(string, []byte, *scan.Summary, limits.Limits) error) { scanner = f }(scanner)
	scanner = modelScanner
	r := setup(t, "compact", "udp", "compact", "udp", nil)
	other := newPeer(t, "udp")
	other.proxyAddr = r.mgc.proxyAddr
	const a, b, mg = "!/1 [123.123.123.4]:55555\n", "!/1 [123.123.123.5]:55555\n", "!/1 [124.124.124.222]:55555\n"
	relay := func(from, to *peer, msg string) {
		t.Helper()
		from.send([]byte(msg))
		expect(t, msg, to.recv(), []byte(msg))
	}
	relay(other, r.mg, b+"T=2{C=-{AV=root{AT{}}}}")             // decoded: B's mId is new
	relay(r.mgc, r.mg, a+"T=1{C=-{N=root{OE=1{al/of}}}}")       // decoded: A's is
	relay(r.mgc, r.mg, a+"T=3{C=-{MF=root}}")                   // scanned
	r.mg.send([]byte(mg + "P=1{C=-{N=root}}P=2{C=-{AV=root}}")) // decoded (the MG's mId), split
	expect(t, "A's part", r.mgc.recv(), []byte(mg+"P=1{C=-{N=root}}"))
	expect(t, "B's part", other.recv(), []byte(mg+"P=2{C=-{AV=root}}"))
	relay(r.mg, r.mgc, mg+"PN=3{}")                            // scanned, to A
	relay(r.mg, r.mgc, mg+"P=3{C=-{MF=root}}")                 // scanned
	relay(r.mgc, r.mg, a+"T=4{C=-{N=root{OE=1{al/of}}}}")      // scanned
	relay(other, r.mg, b+"T=5{C=-{N=root{OE=1{al/of}}}}")      // decoded: B after A
	r.mg.send([]byte(mg + "P=4{C=-{N=root}}P=5{C=-{N=root}}")) // scanned, then decoded to split
	expect(t, "A's part", r.mgc.recv(), []byte(mg+"P=4{C=-{N=root}}"))
	expect(t, "B's part", other.recv(), []byte(mg+"P=5{C=-{N=root}}"))

	r.wantCount(t, "mgc_to_mg", "request", "forwarded", 5)
	r.wantCount(t, "mg_to_mgc", "reply", "forwarded", 5)
	r.wantCount(t, "mg_to_mgc", "pending", "forwarded", 1)
	if n := counterValue(t, r.reg, "megaco_proxy_transactions_in_flight", map[string]string{"direction": "mgc_to_mg"}); n != 0 {
		t.Errorf("in flight at the end: %v", n)
	}
	for cmd, want := range map[string]float64{"modify": 1, "notify": 3, "auditValue": 1} {
		if n := counterValue(t, r.reg, "megaco_proxy_transaction_duration_seconds", map[string]string{"direction": "mgc_to_mg", "command": cmd}); n != want {
			t.Errorf("%s durations: %v, want %v", cmd, n, want)
		}
	}
	// 10 messages: 5 decoded (B, A, the MG, B again, the split).
	if n := counterValue(t, r.reg, "megaco_codec_duration_seconds", map[string]string{"codec": "compact", "op": "decode"}); n != 5 {
		t.Errorf("%v messages decoded, want 5", n)
	}
}
