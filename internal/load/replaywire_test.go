package load

import (
	"bytes"
	"context"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"megaco/internal/capture/pcapng"
	"megaco/internal/codec"
	"megaco/internal/model"
	"megaco/internal/testbin"
)

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// TestMain removes the binary megacoBinary built, if it did.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// megacoBinary builds cmd/megaco once for this test binary, on first use.
func megacoBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "loadtest"); binErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "megaco"), "megaco/cmd/megaco").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatalf("go build: %v", binErr)
	}
	return filepath.Join(binDir, "megaco")
}

// startProxy runs the real megaco proxy between cfg's two sides and
// points cfg's targets at it.
func startProxy(t *testing.T, cfg *Config) {
	t.Helper()
	network := cfg.Wire.Network
	addrs := testbin.FreeAddrs(t, network, 2)
	cfg.Wire.MGCTarget, cfg.Wire.MGTarget = addrs[0], addrs[1]
	u := func(a string) string { return network + "://" + a }
	testbin.Start(t, megacoBinary(t), []string{"proxy",
		"--mgc-listen", u(cfg.Wire.MGCTarget), "--mgc", u(cfg.Wire.MGCListen), "--mgc-codec", cfg.Codecs.MGC,
		"--mg-listen", u(cfg.Wire.MGTarget), "--mg", u(cfg.Wire.MGListen), "--mg-codec", cfg.Codecs.MG,
		"--http-addr", testbin.FreeAddr(t, "tcp"),
		// The replay checks each message byte for byte: mIds unchanged.
		"--identity=off"}, regexp.MustCompile(`proxy listening()`))
}

// TestReplayThroughProxy replays captures of the RFC 3525 call flow
// through a real megaco proxy over UDP and TCP: the whole flow as BER
// (each request answered with its captured reply), and its requests
// alone as compact text (each answered with a plain reply; the sides
// told by the commands). Every transaction completes, each message
// arrives as this library transcodes it, and the counts per type add up.
func TestReplayThroughProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the megaco binary")
	}
	a1 := globSorted(t, "flow/a1-*.ber")
	var requests []string
	for _, f := range compactCopies(t, a1) {
		if !strings.Contains(f, "-reply-") {
			requests = append(requests, f)
		}
	}
	// The MGC answers mg1's ServiceChange with a pending first, and mg1
	// acknowledges the reply (compact text in a BER capture: each sent in
	// its side's codec).
	dir := t.TempDir()
	pend, ack := filepath.Join(dir, "a1-01b-mgc-to-mg1-pending.txt"), filepath.Join(dir, "a1-02b-mg1-to-mgc-ack.txt")
	if err := os.WriteFile(pend, []byte("!/1 [123.123.123.4]:55555\nPN=9998{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ack, []byte("!/1 [124.124.124.222]:55555\nK{9998}"), 0o644); err != nil {
		t.Fatal(err)
	}
	flow := append([]string{a1[0], pend, a1[1], ack}, a1[2:]...)
	for _, network := range []string{"udp", "tcp"} {
		for _, tc := range []struct {
			name    string
			files   []string
			replies int // captured
			acks    int // and pendings: one each or none
		}{{"flow-ber", flow, 14, 1}, {"requests-text", requests, 0, 0}} {
			t.Run(network+"-"+tc.name, func(t *testing.T) {
				pcap := writeCapture(t, tc.files, func(f string) bool { return strings.Contains(f, "-mgc-to-") })
				rp, err := ReadWireReplay(bytes.NewReader(pcap), nil, DefaultCodecs, "")
				if err != nil {
					t.Fatal(err)
				}
				checkWireReplay(t, rp, tc.replies, tc.acks)
				cfg := wireConfig(t, network, 0, 0)
				cfg.Replay = rp
				startProxy(t, &cfg)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				res, sum := runLoad(t, ctx, cfg)
				n, msgs := int64(len(rp.Msgs)), int64(2*14+2*tc.acks)
				if f := res.Final; f.Started != n || f.OK != n || f.FailedCalls() != 0 || f.Msgs != msgs || res.Unmatched != 0 {
					t.Fatalf("want %d calls, all ok, %d messages:\n%s", n, msgs, sum)
				}
				var perType uint64
				for _, h := range res.Final.Types {
					perType += h.Count
				}
				if perType != uint64(msgs) {
					t.Errorf("per-type counts add up to %d, want %d", perType, msgs)
				}
				if !strings.Contains(sum, fmt.Sprintf("capture replay, 14 transactions and %d acknowledgement(s)", tc.acks)) || !strings.Contains(sum, network+" through a proxy") {
					t.Errorf("summary header:\n%s", sum)
				}
			})
		}
	}
}

// checkWireReplay: 14 transactions, each sent by the side that sent it
// in the capture (Notify and the first ServiceChange by the gateways),
// with replies captured or made here.
func checkWireReplay(t *testing.T, rp *Replay, captured, acks int) {
	t.Helper()
	if len(rp.Msgs) != 14+acks || len(rp.Skipped) != 0 || len(rp.Notes) != 0 {
		t.Fatalf("%d calls, skipped %q, notes %q", len(rp.Msgs), rp.Skipped, rp.Notes)
	}
	got := 0
	for _, m := range rp.Msgs {
		typ := rp.Types[m.Type]
		fromMG := strings.HasPrefix(m.Src, mgAddr.String())
		if (m.Side == MG) != fromMG {
			t.Errorf("frame %d (%s from %s) sent by the %s side", m.Frame, typ, m.Src, m.Side)
		}
		if m.Ack {
			if typ != "ResponseAck" || m.TID != 9998 || m.Reply != nil {
				t.Errorf("frame %d: an acknowledgement read as %s of %d", m.Frame, typ, m.TID)
			}
			acks--
			continue
		}
		if m.ReplyFrame != 0 {
			got++
		}
		if m.PendingFrame != 0 && (m.TID != 9998 || rp.Types[m.PendingType] != "Pending" || acks == 0) {
			t.Errorf("frame %d (%d): pending from frame %d", m.Frame, m.TID, m.PendingFrame)
		}
		if want := typ + "Reply"; rp.Types[m.ReplyType] != want {
			t.Errorf("frame %d (%s) answered with a %s", m.Frame, typ, rp.Types[m.ReplyType])
		}
	}
	if got != captured || acks != 0 {
		t.Errorf("%d captured replies used, want %d; %d acknowledgements missing", got, captured, acks)
	}
}

// TestReadWireReplaySides: --pcap-mgc decides the sides over what the
// messages say, a reply to no request and a retransmitted request are
// skipped with why, and a bad MGC address is refused.
func TestReadWireReplaySides(t *testing.T) {
	a1 := globSorted(t, "flow/a1-*.ber")
	pcap := writeCapture(t, a1[1:], func(f string) bool { return strings.Contains(f, "-mgc-to-") })
	rp, err := ReadWireReplay(bytes.NewReader(pcap), nil, DefaultCodecs, mgAddr.Addr().String()+":2945")
	if err != nil {
		t.Fatal(err)
	}
	if len(rp.Skipped) != 1 || !strings.Contains(rp.Skipped[0], "a reply (transaction 9998) to no captured request") {
		t.Errorf("skipped %q", rp.Skipped)
	}
	for _, m := range rp.Msgs {
		if want := sideIf(m.Src == mgAddr.String()); m.Side != want {
			t.Errorf("frame %d from %s sent by the %s side, want %s (--pcap-mgc)", m.Frame, m.Src, m.Side, want)
		}
	}
	// The capture's retransmission of a request is skipped: the
	// generator retransmits by itself.
	again := append([]string{a1[0], a1[0]}, a1[1:]...)
	rp, err = ReadWireReplay(bytes.NewReader(writeCapture(t, again, func(f string) bool { return strings.Contains(f, "-mgc-to-") })), nil, DefaultCodecs, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rp.Msgs) != 14 || len(rp.Skipped) != 1 || !strings.Contains(rp.Skipped[0], "frame 2: a retransmission of frame 1 (transaction 9998)") || rp.Msgs[0].ReplyFrame != 3 {
		t.Errorf("a retransmitted request: %d transactions, the first answered by frame %d, skipped %q", len(rp.Msgs), rp.Msgs[0].ReplyFrame, rp.Skipped)
	}
	if _, err := ReadWireReplay(bytes.NewReader(pcap), nil, DefaultCodecs, "mgc.example"); err == nil || !strings.Contains(err.Error(), "want an IP address") {
		t.Errorf("a host name as the MGC address: %v", err)
	}
}

// FuzzReadWireReplay: a capture made of random bytes, or a valid one
// with a message mangled, is read or refused with an error, never a panic
// or a hang; every transaction kept has both messages in both codecs (an
// acknowledgement, its own).
func FuzzReadWireReplay(f *testing.F) {
	files := globSorted(f, "flow/a1-0*.ber")
	f.Add(writeCapture(f, files, func(s string) bool { return strings.Contains(s, "-mgc-to-") }), uint16(0))
	f.Fuzz(func(t *testing.T, pcap []byte, flip uint16) {
		if len(pcap) > 0 {
			pcap[int(flip)%len(pcap)] ^= byte(flip >> 8)
		}
		rp, err := ReadWireReplay(bytes.NewReader(pcap), nil, DefaultCodecs, "")
		if err != nil {
			return
		}
		for _, m := range rp.Msgs {
			if len(m.In) == 0 || len(m.Want) == 0 || !m.Ack && (len(m.Reply) == 0 || len(m.ReplyWant) == 0) {
				t.Fatalf("frame %d: a transaction without all its messages", m.Frame)
			}
		}
	})
}

// TestReplaySameIDThroughProxy: two gateways of a capture use the same
// transaction ID at the same time; through one proxy (the generator's MG
// side is one socket) the second waits for the first to end instead of
// being taken for its retransmission: both complete, each checked.
func TestReplaySameIDThroughProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the megaco binary")
	}
	read := func(f string, from, to string) []byte {
		data, err := os.ReadFile("flow/" + f)
		if err != nil {
			t.Fatal(err)
		}
		return []byte(strings.ReplaceAll(string(data), from, to))
	}
	mg2 := netip.MustParseAddrPort("127.0.0.3:2945")
	var buf bytes.Buffer
	w, err := pcapng.NewWriter(&buf, pcapng.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, m := range []struct {
		ms       int
		src, dst netip.AddrPort
		data     []byte
	}{
		{0, mgAddr, mgcAddr, read("a1-05-mg1-to-mgc-notify-t10000.txt", "", "")},
		{0, mg2, mgcAddr, read("a1-17-mg2-to-mgc-notify-t50005.txt", "50005", "10000")},
		{1, mgcAddr, mgAddr, read("a1-06-mgc-to-mg1-notify-reply-t10000.txt", "", "")},
		{1, mgcAddr, mg2, read("a1-18-mgc-to-mg2-notify-reply-t50005.txt", "50005", "10000")},
	} {
		if err := w.UDP(at.Add(time.Duration(m.ms)*time.Millisecond), m.src, m.dst, m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rp, err := ReadWireReplay(bytes.NewReader(buf.Bytes()), nil, DefaultCodecs, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rp.Msgs) != 2 || rp.Msgs[0].ReplyFrame != 3 || rp.Msgs[1].ReplyFrame != 4 {
		t.Fatalf("%d transactions %+v, skipped %q", len(rp.Msgs), rp.Msgs, rp.Skipped)
	}
	cfg := wireConfig(t, "udp", 0, 0)
	cfg.Replay = rp
	startProxy(t, &cfg)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, sum := runLoad(t, ctx, cfg)
	if f := res.Final; f.OK != 2 || f.FailedCalls() != 0 || f.Msgs != 4 || res.Unmatched != 0 {
		t.Fatalf("want both transactions ok:\n%s", sum)
	}
}

// TestPlainReplyType: the type plainReply gives its reply is the type of
// the reply as it decodes.
func TestPlainReplyType(t *testing.T) {
	n := 0
	for _, f := range globSorted(t, "flow/a1-*.ber") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		req, _, err := codec.DecodeAs(b, "ber", codec.Binary, Options())
		if err != nil {
			t.Fatal(err)
		}
		if ts := req.Mess.MessageBody.Transactions; len(ts) == 0 || ts[0].Kind != model.Transaction_TransactionRequest {
			continue
		}
		data, typ, err := plainReply(req, req.Mess.MId)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		rep, _, err := codec.DecodeAs(data, "ber", codec.Binary, Options())
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if want := replayType(rep); typ != want {
			t.Errorf("%s: type %q, decoded %q", f, typ, want)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no request")
	}
}
