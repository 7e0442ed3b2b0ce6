package proxy

import (
	"bytes"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"megaco/internal/capture/pcapng"
	"megaco/internal/codec"
	"megaco/internal/codec/scan"
	"megaco/internal/model"
)

// presenting is setup's tweak that has the proxy present itself.
func presenting(more func(*Config)) func(*Config) {
	return func(c *Config) {
		c.IdentityOff = false
		if more != nil {
			more(c)
		}
	}
}

// decodeMsg decodes b (codec name) into the text form.
func decodeMsg(t *testing.T, b []byte, name string) *model.MegacoMessage {
	t.Helper()
	m, _, err := codec.DecodeAs(b, name, codec.Text, codec.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// compactText encodes m in compact text: two messages compare by it.
func compactText(t *testing.T, m *model.MegacoMessage) string {
	t.Helper()
	enc, err := codec.Lookup("compact", codec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := codec.Encode(nil, enc, "compact", m, codec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// listenPort is the port the proxy listens on for side mgc (true) or mg.
func (r *rig) listenPort(mgc bool) uint32 {
	return uint32(netip.MustParseAddrPort(r.p.ListenAddr(mgc).String()).Port())
}

// proxyMID is the mId of the proxy's side: [127.0.0.1]:port.
func proxyMID(port uint32) model.MId {
	return model.MId{Kind: model.MId_Ip4Address, Ip4Address: &model.IP4Address{Address: []byte{127, 0, 0, 1}, PortNumber: model.Some(port)}}
}

// scParm is the first ServiceChange request's or reply's address fields.
func scFields(m *model.MegacoMessage) (addr **model.ServiceChangeAddress, mgcID **model.MId) {
	for _, tx := range m.Mess.MessageBody.Transactions {
		if r := tx.TransactionRequest; r != nil {
			for _, a := range r.Actions {
				for _, c := range a.CommandRequests {
					if p := c.Command.ServiceChangeReq; p != nil {
						return &p.ServiceChangeParms.ServiceChangeAddress, &p.ServiceChangeParms.ServiceChangeMgcId
					}
				}
			}
		}
		if r := tx.TransactionReply; r != nil {
			for _, a := range r.TransactionResult.ActionReplies {
				for _, c := range a.CommandReply {
					if p := c.ServiceChangeReply; p != nil && p.ServiceChangeResult.ServiceChangeResParms != nil {
						return &p.ServiceChangeResult.ServiceChangeResParms.ServiceChangeAddress, &p.ServiceChangeResult.ServiceChangeResParms.ServiceChangeMgcId
					}
				}
			}
		}
	}
	return nil, nil
}

// wantPresented is corpus file name (in codec) as the proxy should send
// it on: with mId mid and, if it has one, the ServiceChangeAddress port.
func wantPresented(t *testing.T, name, codecName string, mid model.MId, port uint32) string {
	t.Helper()
	m := decodeMsg(t, corpusFile(t, name), codecName)
	m.Mess.MId = mid
	if a, _ := scFields(m); a != nil && *a != nil {
		*a = &model.ServiceChangeAddress{Kind: model.ServiceChangeAddress_PortNumber, PortNumber: port}
	}
	return compactText(t, m)
}

// TestIdentityTranscode: a transcoding proxy presents itself. The MG's
// ServiceChange reaches the MGC with the mId and ServiceChangeAddress
// port of the proxy's MGC side, the MGC's reply reaches the MG with those
// of its MG side; every other message carries the proxy's mId too, and
// nothing else changes.
func TestIdentityTranscode(t *testing.T) {
	for _, nets := range [][2]string{{"udp", "udp"}, {"tcp", "tcp"}} {
		t.Run(nets[0], func(t *testing.T) {
			r := setup(t, "compact", nets[0], "ber", nets[1], presenting(nil))
			toMGC, toMG := proxyMID(r.listenPort(true)), proxyMID(r.listenPort(false))
			steps := []struct {
				from, to   *peer
				send, want string // corpus files; want in compact text
				mid        model.MId
				port       uint32
				codec      string // of what the receiver gets
			}{
				{r.mg, r.mgc, "msg04.ber", "msg04.compact.txt", toMGC, r.listenPort(true), "compact"},
				{r.mgc, r.mg, "msg05.compact.txt", "msg05.compact.txt", toMG, r.listenPort(false), "ber"},
				{r.mgc, r.mg, "msg01a.compact.txt", "msg01a.compact.txt", toMG, 0, "ber"},
				{r.mg, r.mgc, "msg06a.ber", "msg06a.compact.txt", toMGC, 0, "compact"},
			}
			for _, s := range steps {
				s.from.send(corpusFile(t, s.send))
				got := compactText(t, decodeMsg(t, s.to.recv(), s.codec))
				if want := wantPresented(t, s.want, "compact", s.mid, s.port); got != want {
					t.Errorf("%s:\ngot  %q\nwant %q", s.send, got, want)
				}
			}
		})
	}
}

// TestIdentityRelay: relaying one codec, the mId is rewritten in the
// bytes, which are otherwise as sent (text: everything after the header
// line, a comment kept); a ServiceChange is decoded to rewrite its
// address and encoded anew.
func TestIdentityRelay(t *testing.T) {
	r := setup(t, "compact", "udp", "compact", "udp", presenting(nil))
	req := corpusFile(t, "msg01a.pretty.txt")
	r.mgc.send(req)
	got := r.mg.recv()
	_, body, _ := bytes.Cut(req, []byte("\n"))
	head, gotBody, _ := bytes.Cut(got, []byte("\n"))
	if want := "[127.0.0.1]:" + itoa(r.listenPort(false)); !bytes.Contains(head, []byte(want)) || !bytes.Equal(gotBody, body) {
		t.Errorf("relayed request: want the header to name %s and the rest unchanged:\ngot  %q\nsent %q", want, got, req)
	}
	for i := range 2 { // the second time from the learnt mId: scanned, not decoded
		r.mg.send(corpusFile(t, "msg06a.compact.txt"))
		got := compactText(t, decodeMsg(t, r.mgc.recv(), "compact"))
		if want := wantPresented(t, "msg06a.compact.txt", "compact", proxyMID(r.listenPort(true)), 0); got != want {
			t.Errorf("reply %d:\ngot  %q\nwant %q", i, got, want)
		}
	}
	r.mg.send(corpusFile(t, "msg04.compact.txt"))
	got = []byte(compactText(t, decodeMsg(t, r.mgc.recv(), "compact")))
	if want := wantPresented(t, "msg04.compact.txt", "compact", proxyMID(r.listenPort(true)), r.listenPort(true)); string(got) != want {
		t.Errorf("relayed ServiceChange:\ngot  %q\nwant %q", got, want)
	}

	b := setup(t, "ber", "udp", "ber", "udp", presenting(nil))
	for _, f := range []string{"msg04", "msg06a"} {
		b.mg.send(corpusFile(t, f+".ber"))
		port := uint32(0)
		if f == "msg04" {
			port = b.listenPort(true)
		}
		got := compactText(t, decodeMsg(t, b.mgc.recv(), "ber"))
		if want := wantPresented(t, f+".ber", "ber", proxyMID(b.listenPort(true)), port); got != want {
			t.Errorf("BER %s:\ngot  %q\nwant %q", f, got, want)
		}
	}
}

func itoa(n uint32) string { return strconv.FormatUint(uint64(n), 10) }

// TestIdentityMGMID: --mg-mid is the MG's mId toward the MGC, whatever
// the MG sends; the ServiceChangeAddress still names the proxy's port.
func TestIdentityMGMID(t *testing.T) {
	mid, err := ParseMID("<mg1.example.net>:2944")
	if err != nil {
		t.Fatal(err)
	}
	r := setup(t, "compact", "udp", "ber", "udp", presenting(func(c *Config) { c.MGMID = mid }))
	r.mg.send(corpusFile(t, "msg04.ber"))
	got := compactText(t, decodeMsg(t, r.mgc.recv(), "compact"))
	if want := wantPresented(t, "msg04.compact.txt", "compact", *mid, r.listenPort(true)); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if !strings.HasPrefix(got, "!/1 <mg1.example.net>:2944") {
		t.Errorf("mId: %q", got)
	}
}

// TestIdentityErrors: the proxy's own error replies carry the identity
// the side is shown elsewhere, with the same codes as without it.
func TestIdentityErrors(t *testing.T) {
	r := setup(t, "compact", "udp", "ber", "udp", presenting(nil))
	r.mgc.send([]byte("!/1 [1.2.3.4]:5\nT=77{C=-{MF=11111111/00000000/00000000{M{ST=1{O{MO=bogus}}}}}}"))
	reply := r.mgc.recv()
	ids, code := replyError(t, reply, "compact")
	if code != 403 || !slicesEqual(ids, []uint32{77}) {
		t.Errorf("answered %v with %d, want [77] with 403", ids, code)
	}
	if want := "!/1 [127.0.0.1]:" + itoa(r.listenPort(true)); !strings.HasPrefix(string(reply), want) {
		t.Errorf("error reply %q: want it from %s", reply, want)
	}
}

func TestParseMID(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"[192.0.2.7]:2944", "[192.0.2.7]:2944"},
		{"[192.0.2.7]", "[192.0.2.7]"},
		{"[2001:db8::1]:2945", "[2001:db8::1]:2945"},
		{"<mg1.example.net>:2944", "<mg1.example.net>:2944"},
		{"gw/1", "gw/1"},
		{"[192.0.2.7]:99999", ""},
		{"[not-an-ip]:1", ""},
		{"gw/1:2944", ""},
		{"1gw", ""},
		{"<>", ""},
		{"", ""},
	} {
		m, err := ParseMID(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("%q: no error", c.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		msg := &model.MegacoMessage{Mess: model.Message{Version: 1, MId: *m,
			MessageBody: model.MessageMessageBody{Kind: model.MessageMessageBody_Transactions,
				Transactions: []model.Transaction{{Kind: model.Transaction_TransactionPending, TransactionPending: &model.TransactionPending{TransactionId: 1}}}}}}
		got := compactText(t, msg)
		if head, _, _ := strings.Cut(got, "\n"); !strings.EqualFold(head, "!/1 "+c.want) {
			t.Errorf("%q: encoded as %q", c.in, head)
		}
	}
}

// TestSplice: splicing the proxy's mId into a scanned message gives what
// the codec's rewriter gives (BER: byte for byte; text: the same
// message), for every corpus message of each codec and mIds of each kind
// and of other lengths than the original's.
func TestSplice(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "corpus", "otp-time-test", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("corpus: %v", err)
	}
	mids := []string{"[10.0.0.1]:2944", "[2001:db8::7]:2945", "<a.very.long.domain.name.example.net>:2944", "gw/1"}
	for _, name := range []string{"ber", "compact", "pretty"} {
		p, err := New(Config{MGC: SideConfig{Codec: name, Listen: Addr{"udp", "127.0.0.1:0"}, Peer: Addr{"udp", "127.0.0.1:9"}},
			MG: SideConfig{Codec: name, Listen: Addr{"udp", "127.0.0.1:0"}, Peer: Addr{"udp", "127.0.0.1:9"}}})
		if err != nil {
			t.Fatal(err)
		}
		s := p.sides[mgcSide]
		n := 0
		for _, f := range files {
			data, _ := os.ReadFile(f)
			var sum scan.Summary
			sum.Want = scan.Commands
			if codec.Scan(name, data, &sum, p.opts.Limits) != nil {
				continue
			}
			for _, ms := range mids {
				mid, err := ParseMID(ms)
				if err != nil {
					t.Fatal(err)
				}
				enc := s.encodeMID(mid)
				got, ok := codec.SpliceMID(name)(nil, data, sum.MID.Span, enc)
				if !ok {
					t.Errorf("%s %s: not spliced", name, f)
					continue
				}
				want, err := codec.Rewrite(name, nil, data, &scan.Changes{MID: mid}, p.opts.Limits)
				if err != nil {
					t.Fatalf("%s %s: %v", name, f, err)
				}
				if name == "ber" && !bytes.Equal(got, want) {
					t.Errorf("%s with %s:\ngot  % x\nwant % x", f, ms, got, want)
				}
				if g, w := compactText(t, decodeMsg(t, got, name)), compactText(t, decodeMsg(t, want, name)); g != w {
					t.Errorf("%s with %s:\ngot  %q\nwant %q", f, ms, g, w)
				}
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no corpus message scanned", name)
		}
	}
}

// TestCaptureIdentity: with --capture, the message in is recorded as it
// came (the MG's own mId) and the message out as it went (the proxy's),
// with a note on the latter naming both.
func TestCaptureIdentity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "proxy.pcapng")
	w, err := pcapng.Create(path, pcapng.Options{MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	rec := pcapng.NewRecorder(w, pcapng.RecorderOptions{})
	r := setup(t, "compact", "udp", "ber", "udp", presenting(func(c *Config) { c.Capture = rec }))
	r.mg.send(corpusFile(t, "msg04.ber"))
	sent := r.mgc.recv()
	r.wantCount(t, "mg_to_mgc", "request", "forwarded", 1)
	r.p.Close()
	if err := rec.Close(); err != nil { // closes w too
		t.Fatal(err)
	}
	got := readCapture(t, path, r)
	if len(got) != 2 || !bytes.Equal(got[0].Data, corpusFile(t, "msg04.ber")) || !bytes.Equal(got[1].Data, sent) {
		t.Fatalf("want the MG's message as it came and the MGC's as it went; got %d messages", len(got))
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	note := "megaco proxy identity: mId [124.124.124.222] sent as [127.0.0.1]:" + itoa(r.listenPort(true)) + "; ServiceChange addresses rewritten"
	if !bytes.Contains(file, []byte(note)) {
		t.Errorf("the capture has no note %q", note)
	}
}
