package capture_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"megaco/internal/capture"
	"megaco/internal/codec"
	"megaco/internal/mapping"
	"megaco/internal/mapping/termid"
)

// names provisions the call flow's termination IDs for BER.
const names = `termination A4444 00000001/00000000/00000001
termination A4445 00000001/00000000/00000010
termination A5555 00000010/00000000/00000001
termination A5556 00000010/00000000/00000010
termination T2200 00000011/00000000/00000000
termination T2201 00000011/00000000/00000001
termination T2202 00000011/00000000/00000010
termination T2203 00000011/00000000/00000011
termination T2204 00000011/00000000/00000100
`

func flowOptions(t *testing.T) codec.Options {
	t.Helper()
	layout, _ := termid.ParseLayout("8,8,8")
	n, err := mapping.ReadNames(strings.NewReader(names), layout)
	if err != nil {
		t.Fatal(err)
	}
	return codec.Options{Layout: layout, Names: n}
}

func flowPackets(msgs [][]byte, fromMGC []bool, times []time.Time) []packet {
	pkts := make([]packet, len(msgs))
	for i := range msgs {
		pkts[i] = packet{at: times[i], forward: fromMGC[i], data: msgs[i]}
	}
	return pkts
}

// checkMessages checks that the capture's messages are the packets', in
// order, with their times and directions.
func checkMessages(t *testing.T, got []capture.Message, pkts []packet, mgc, mg string, transport string) {
	t.Helper()
	if len(got) != len(pkts) {
		t.Fatalf("%d messages, want %d", len(got), len(pkts))
	}
	for i, m := range got {
		src := mg
		if pkts[i].forward {
			src = mgc
		}
		if !bytes.Equal(m.Data, pkts[i].data) || !m.Time.Equal(pkts[i].at) || m.Src.Addr().String() != src || m.Transport != transport {
			t.Errorf("message %d (frame %d): %s from %s at %s, %d bytes; want %s at %s, %d bytes",
				i, m.Frame, m.Transport, m.Src, m.Time, len(m.Data), src, pkts[i].at, len(pkts[i].data))
		}
	}
}

// TestCallFlowOverUDP makes captures of the call flow with text2pcap in
// several file formats, link types and IP versions, and checks that we
// read every message tshark reads, and the same response times.
func TestCallFlowOverUDP(t *testing.T) {
	msgs, fromMGC, times := flow(t)
	pkts := flowPackets(msgs, fromMGC, times)
	cases := []struct {
		name   string
		args   []string
		mgc    string
		mg     string
		format string
	}{
		{"ethernet-ipv4.pcap", []string{"-F", "pcap", "-u", "2944,2944", "-4", "123.123.123.4,124.124.124.222"}, "123.123.123.4", "124.124.124.222", "pcap"},
		{"ethernet-ipv6.pcapng", []string{"-u", "2944,2944", "-6", "2001:db8::4,2001:db8::222"}, "2001:db8::4", "2001:db8::222", "pcapng"},
		{"raw-ipv4.pcap", []string{"-F", "pcap", "-l", "101", "-u", "2944,2944", "-4", "123.123.123.4,124.124.124.222"}, "123.123.123.4", "124.124.124.222", "pcap"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := text2pcap(t, c.name, pkts, c.args...)
			got := readAll(t, file, capture.Options{})
			checkMessages(t, got, pkts, c.mgc, c.mg, "udp")
			agree(t, file, got)
		})
	}
}

// TestCallFlowBER is the call flow in BER on port 2945: tshark's H.248
// dissector must see as many messages, and our response times must be
// the text capture's.
func TestCallFlowBER(t *testing.T) {
	ber, msgs, fromMGC, times, opts := berFlow(t)
	pkts := flowPackets(ber, fromMGC, times)
	file := text2pcap(t, "ber.pcapng", pkts, "-u", "2945,2945", "-4", "123.123.123.4,124.124.124.222")
	got := readAll(t, file, capture.Options{})
	checkMessages(t, got, pkts, "123.123.123.4", "124.124.124.222", "udp")
	agreeCount(t, file, "h248.version", len(got))
	textPkts := flowPackets(msgs, fromMGC, times)
	textFile := text2pcap(t, "text.pcapng", textPkts, "-u", "2944,2944", "-4", "123.123.123.4,124.124.124.222")
	rows, open := tsharkRTD(t, textFile)
	compareRTD(t, statsOf(t, got, opts), rows, open)
}

// TestCorpusOverUDP sends every message of corpus/otp-time-test, compact
// text on 2944 and BER on 2945, and compares the message counts with
// tshark's.
func TestCorpusOverUDP(t *testing.T) {
	for _, c := range []struct{ ext, port, field string }{
		{".compact.txt", "2944", "megaco.version"},
		{".pretty.txt", "2944", "megaco.version"},
		{".ber", "2945", "h248.version"},
	} {
		t.Run(c.ext, func(t *testing.T) {
			files, _ := filepath.Glob("../../corpus/otp-time-test/*" + c.ext)
			if len(files) != 149 {
				t.Fatalf("%d files", len(files))
			}
			at := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
			var pkts []packet
			for i, f := range files {
				b, _ := os.ReadFile(f)
				pkts = append(pkts, packet{at: at.Add(time.Duration(i) * time.Millisecond), forward: i%2 == 0, data: b})
			}
			file := text2pcap(t, "corpus.pcap", pkts, "-F", "pcap", "-u", c.port+","+c.port, "-4", "10.0.0.1,10.0.0.2")
			got := readAll(t, file, capture.Options{})
			checkMessages(t, got, pkts, "10.0.0.1", "10.0.0.2", "udp")
			agreeCount(t, file, c.field, len(got))
			for _, m := range got {
				if _, _, err := codec.DecodeAs(m.Data, "auto", codec.InputForm, codec.Options{}); err != nil {
					t.Errorf("frame %d: %v", m.Frame, err)
				}
			}
		})
	}
}

// berFlow is the call flow in BER with the text it comes from, leaving out
// messages 23 and 24 (AuditValue and its reply): the reply has no v1 BER
// form, its events descriptor lacking the requestID BER requires.
func berFlow(t *testing.T) (ber, text [][]byte, fromMGC []bool, times []time.Time, opts codec.Options) {
	t.Helper()
	msgs, dir, at := flow(t)
	opts = flowOptions(t)
	for i, m := range msgs {
		b, _, err := codec.Transcode(nil, m, "pretty", "ber", opts)
		if err != nil {
			// Leave out the pair: each request is followed by its reply.
			t.Logf("messages %d and %d left out: %v", i, i+1, err)
			ber, text, fromMGC, times = ber[:len(ber)-1], text[:len(text)-1], fromMGC[:len(fromMGC)-1], times[:len(times)-1]
			continue
		}
		ber, text, fromMGC, times = append(ber, b), append(text, m), append(fromMGC, dir[i]), append(times, at[i])
	}
	if len(ber) != 26 {
		t.Fatalf("%d messages in BER, want 26", len(ber))
	}
	return ber, text, fromMGC, times, opts
}
