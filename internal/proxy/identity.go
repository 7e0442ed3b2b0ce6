package proxy

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"megaco/internal/codec"
	"megaco/internal/codec/scan"
	"megaco/internal/model"
)

// Identity: the proxy presents itself to each side as the other side's
// peer (on by default; Config.IdentityOff turns it off). A controller
// addresses a gateway by what the gateway declared in its ServiceChange,
// the mId's address with the port of its ServiceChangeAddress when there
// is one (RFC 3525 7.2.8: "to be used for subsequent communications"),
// and many check that the mId's IP is the packet's source IP; gateways
// check their controller likewise. Through a proxy those fields name the
// peer behind it, so each is rewritten in every message to name the
// proxy's own address on the side the message goes to:
//
//   - every message's mId;
//   - a ServiceChange's (request's or reply's) ServiceChangeAddress;
//   - from the MGC, the ServiceChangeMgcId of a ServiceChange (MgcIdToTry,
//     RFC 3525 7.2.8) or of its reply (7.2.8, "ServiceChangeMgcId" in a
//     reply): the proxy follows the MGC named (mgcset.go) and tells the MG
//     to go on talking to the proxy.
//
// The mId is rewritten in the encoded bytes when both sides speak one
// codec (the codec's Rewriter, no decoding); the ServiceChange fields,
// rare, in the decoded message, which is then encoded anew.

// presence is how the proxy presents itself to one side's peer.
type presence struct {
	mid model.MId // the mId messages to this side carry
	// addr is the proxy's address on this side (its IP is not valid when
	// no address could be found: a wildcard with no route to the peer).
	addr    netip.AddrPort
	port    *model.ServiceChangeAddress // ServiceChangeAddress: the port alone
	address *model.ServiceChangeAddress // ServiceChangeAddress: the address and port
	changes scan.Changes                // the byte rewrite: the mId
	// midEnc is mid as this side's codec writes it where a scan's mId
	// span lies (text: the mId as written; BER: the contents of the mId
	// element), for splicing; nil when the codec is neither text nor BER.
	midEnc []byte
}

// proxyDeviceName is the mId the proxy presents when it knows no address
// of its own on a side (and --mg-mid does not say).
const proxyDeviceName = "megacoProxy"

// identityOn reports whether the proxy presents itself (identity rewriting).
func (p *Proxy) identityOn() bool { return !p.cfg.IdentityOff }

// present computes how the proxy presents itself to side s's peer: the
// address it listens on, or, when that is a wildcard, the address the
// system sends from toward the peer (the one the peer sees as the
// source); the port it listens on; toward the MGC, Config.MGMID if set.
func (s *sideState) present() {
	ap := addrPort(s.listenAddr())
	ip := ap.Addr()
	if !ip.IsValid() || ip.IsUnspecified() {
		ip = routeSource(s.peerAddress())
	}
	pr := &presence{addr: netip.AddrPortFrom(ip, ap.Port())}
	port := model.Some(uint32(ap.Port()))
	pr.port = &model.ServiceChangeAddress{Kind: model.ServiceChangeAddress_PortNumber, PortNumber: uint32(ap.Port())}
	pr.address = pr.port
	switch {
	case ip.Is4():
		b := ip.As4()
		a := &model.IP4Address{Address: b[:], PortNumber: port}
		pr.mid = model.MId{Kind: model.MId_Ip4Address, Ip4Address: a}
		pr.address = &model.ServiceChangeAddress{Kind: model.ServiceChangeAddress_Ip4Address, Ip4Address: a}
	case ip.Is6():
		b := ip.As16()
		a := &model.IP6Address{Address: b[:], PortNumber: port}
		pr.mid = model.MId{Kind: model.MId_Ip6Address, Ip6Address: a}
		pr.address = &model.ServiceChangeAddress{Kind: model.ServiceChangeAddress_Ip6Address, Ip6Address: a}
	default:
		pr.mid = model.MId{Kind: model.MId_DeviceName, DeviceName: proxyDeviceName}
	}
	if s.id == mgcSide && s.p.cfg.MGMID != nil {
		pr.mid = *s.p.cfg.MGMID
	}
	pr.changes.MID = &pr.mid
	pr.midEnc = s.encodeMID(&pr.mid)
	s.self.Store(pr)
}

// encodeMID is mid as the side's codec writes it in a message's mId span
// (see presence.midEnc): the span a scan finds in a message of one
// pending that carries it.
func (s *sideState) encodeMID(mid *model.MId) []byte {
	if s.form != codec.Text && s.cfg.Codec != "ber" {
		return nil
	}
	m := &model.MegacoMessage{Mess: model.Message{Version: 1, MId: *mid, MessageBody: model.MessageMessageBody{
		Kind: model.MessageMessageBody_Transactions, Transactions: []model.Transaction{
			{Kind: model.Transaction_TransactionPending, TransactionPending: &model.TransactionPending{TransactionId: 1}}}}}}
	b, err := codec.Encode(nil, s.enc, s.cfg.Codec, m, s.p.quiet)
	if err != nil {
		return nil
	}
	var sum scan.Summary
	sum.Want = scan.Transactions
	if codec.Scan(s.cfg.Codec, b, &sum, s.p.opts.Limits) != nil || sum.MID.Span.Len == 0 {
		return nil
	}
	return b[sum.MID.Span.Off:sum.MID.Span.End()]
}

// listenAddr is where the side listens.
func (s *sideState) listenAddr() net.Addr {
	return s.t.addr()
}

// routeSource is the address the system sends from to reach hostport (a
// UDP "connection" sends nothing: it only picks the route); invalid when
// there is none.
func routeSource(hostport string) netip.Addr {
	c, err := net.DialTimeout("udp", hostport, time.Second)
	if err != nil {
		return netip.Addr{}
	}
	defer c.Close()
	return addrPort(c.LocalAddr()).Addr()
}

// presentModel rewrites, in m going from side s to the other side, the
// fields that name a peer (see the package's Identity comment). It
// reports whether it changed more than the mId: a relayed message must
// then be encoded anew rather than have its mId rewritten in place.
func (p *Proxy) presentModel(s side, m *model.MegacoMessage) (deep bool) {
	pr := p.sides[s.other()].self.Load()
	m.Mess.MId = pr.mid
	body := &m.Mess.MessageBody
	if body.Kind != model.MessageMessageBody_Transactions {
		return false
	}
	for i := range body.Transactions {
		t := &body.Transactions[i]
		switch t.Kind {
		case model.Transaction_TransactionRequest:
			for a := range t.TransactionRequest.Actions {
				for c := range t.TransactionRequest.Actions[a].CommandRequests {
					cmd := &t.TransactionRequest.Actions[a].CommandRequests[c].Command
					if cmd.Kind == model.Command_ServiceChangeReq && cmd.ServiceChangeReq != nil {
						parm := &cmd.ServiceChangeReq.ServiceChangeParms
						parm.ServiceChangeAddress = pr.addressFor(parm.ServiceChangeAddress)
						parm.ServiceChangeMgcId = p.presentMgcID(s, pr, parm.ServiceChangeMgcId,
							parm.ServiceChangeMethod == model.ServiceChangeMethod_HandOff)
						deep = true
					}
				}
			}
		case model.Transaction_TransactionReply:
			r := &t.TransactionReply.TransactionResult
			if r.Kind != model.TransactionReplyTransactionResult_ActionReplies {
				continue
			}
			for a := range r.ActionReplies {
				for c := range r.ActionReplies[a].CommandReply {
					cr := &r.ActionReplies[a].CommandReply[c]
					if cr.Kind != model.CommandReply_ServiceChangeReply || cr.ServiceChangeReply == nil {
						continue
					}
					res := &cr.ServiceChangeReply.ServiceChangeResult
					if res.Kind != model.ServiceChangeResult_ServiceChangeResParms || res.ServiceChangeResParms == nil {
						continue
					}
					parm := res.ServiceChangeResParms
					parm.ServiceChangeAddress = pr.addressFor(parm.ServiceChangeAddress)
					parm.ServiceChangeMgcId = p.presentMgcID(s, pr, parm.ServiceChangeMgcId, true)
					deep = true
				}
			}
		}
	}
	return deep
}

// addressFor is the ServiceChangeAddress to send in place of a: the
// proxy's port when a is a port, else its address and port; nil stays nil.
func (pr *presence) addressFor(a *model.ServiceChangeAddress) *model.ServiceChangeAddress {
	switch {
	case a == nil:
		return nil
	case a.Kind == model.ServiceChangeAddress_PortNumber:
		return pr.port
	}
	return pr.address
}

// presentMgcID handles a ServiceChangeMgcId in a message from side s:
// from the MGC it names the MGC the MG is to use; when follow is set
// (a handoff, or a reply naming another MGC) the proxy turns its MGC side
// to it; the MG is told the proxy's own mId, so that it stays with the
// proxy. From the MG it passes unchanged.
func (p *Proxy) presentMgcID(s side, pr *presence, id *model.MId, follow bool) *model.MId {
	if id == nil || s != mgcSide {
		return id
	}
	if follow && !p.followMGC(id) {
		return id // not followed: the MG is told where the MGC sends it
	}
	mid := pr.mid
	return &mid
}

// needsModel reports whether a scanned message carries fields identity
// rewriting changes in the decoded message: ServiceChange commands and
// replies.
func needsModel(sum *scan.Summary) bool {
	for i := range sum.Commands {
		if sum.Commands[i].Kind == scan.ServiceChange {
			return true
		}
	}
	return false
}

// presentBytes rewrites the mId of data, a message from side s in the
// codec both sides speak, into w.out. When w.sum is a scan of data
// (scanned), the proxy's mId is spliced where the scan found the
// message's (codec.SpliceMID: the rest of the bytes stay as they came);
// otherwise the codec's rewriter does it.
func (p *Proxy) presentBytes(w *worker, s side, data []byte, scanned bool) ([]byte, error) {
	pr := p.sides[s.other()].self.Load()
	if splice := p.sides[s].splice; scanned && pr.midEnc != nil && splice != nil {
		if b, ok := splice(w.out[:0], data, w.sum.MID.Span, pr.midEnc); ok {
			w.out = b
			return b, nil
		}
	}
	b, err := p.sides[s].rewrite(w.out[:0], data, &pr.changes, p.opts.Limits)
	if err == nil {
		w.out = b
	}
	return b, err
}

// peerAddress is the host:port of the side's peer: the MGC side's, the
// MGC in use.
func (s *sideState) peerAddress() string {
	if s.id == mgcSide {
		return s.p.mgcs.current().addr.Address
	}
	return s.cfg.Peer.Address
}

// peerUDP is the side's peer's UDP address: the MGC side's, the MGC in use.
func (s *sideState) peerUDP() netip.AddrPort {
	if s.id == mgcSide {
		return s.p.mgcs.current().udp
	}
	return s.peer
}

// relayPayload is what goes on for a scanned message relayed from side s:
// its bytes, with the mId rewritten when the proxy presents itself. ok is
// false when the message must be decoded after all (ServiceChange fields
// to rewrite, or a codec without a rewriter).
func (p *Proxy) relayPayload(w *worker, s side, data []byte) (payload []byte, ok bool) {
	if !p.identityOn() {
		return data, true
	}
	if needsModel(&w.sum) {
		return nil, false
	}
	b, err := p.presentBytes(w, s, data, true)
	return b, err == nil
}

// ParseMID reads an mId as Megaco text writes one (RFC 3525 B.2):
// [192.0.2.1] or [192.0.2.1]:2944 (IPv4), [2001:db8::1]:2944 (IPv6),
// <mg.example.net>:2944 (a domain name), or a device name such as
// gateway/1 (letters, digits and _ / $ @ . -, starting with a letter).
func ParseMID(s string) (*model.MId, error) {
	bad := func(why string) (*model.MId, error) {
		return nil, fmt.Errorf("mId %q: %s (want [IPv4]:port, [IPv6]:port, <domain>:port or a device name)", s, why)
	}
	rest, port, err := midPort(s)
	if err != nil {
		return bad(err.Error())
	}
	switch {
	case strings.HasPrefix(rest, "[") && strings.HasSuffix(rest, "]"):
		ip, err := netip.ParseAddr(rest[1 : len(rest)-1])
		if err != nil || ip.Zone() != "" {
			return bad("not an IP address")
		}
		if ip.Is4() {
			b := ip.As4()
			return &model.MId{Kind: model.MId_Ip4Address, Ip4Address: &model.IP4Address{Address: b[:], PortNumber: port}}, nil
		}
		b := ip.As16()
		return &model.MId{Kind: model.MId_Ip6Address, Ip6Address: &model.IP6Address{Address: b[:], PortNumber: port}}, nil
	case strings.HasPrefix(rest, "<") && strings.HasSuffix(rest, ">"):
		name := rest[1 : len(rest)-1]
		if name == "" || strings.ContainsAny(name, "<>[] \t\r\n") {
			return bad("not a domain name")
		}
		return &model.MId{Kind: model.MId_DomainName, DomainName: &model.DomainName{Name: name, PortNumber: port}}, nil
	case port.Present:
		return bad("a device name has no port")
	case !deviceName(rest):
		return bad("not a device name")
	}
	return &model.MId{Kind: model.MId_DeviceName, DeviceName: rest}, nil
}

// midPort splits ":port" off an mId written as [..]:port or <..>:port.
func midPort(s string) (string, model.Opt[uint32], error) {
	i := strings.LastIndexAny(s, "]>")
	if i < 0 || i == len(s)-1 {
		return s, model.Opt[uint32]{}, nil
	}
	ps, ok := strings.CutPrefix(s[i+1:], ":")
	n, err := strconv.ParseUint(ps, 10, 16)
	if !ok || err != nil {
		return "", model.Opt[uint32]{}, errors.New("bad port")
	}
	return s[:i+1], model.Some(uint32(n)), nil
}

// deviceName reports whether s is a pathNAME (RFC 3525 B.2): a letter,
// then letters, digits and _ / $ @ . - (at most 64 characters).
func deviceName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i, c := range []byte(s) {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || strings.IndexByte("_/$@.-", c) >= 0)) {
			return false
		}
	}
	return true
}

// noter is a Capturer that can note something on the next packet of a
// flow it records (pcapng.Writer: the frame's comment).
type noter interface {
	Note(src, dst netip.AddrPort, text string)
}

// noteIdentity, when the capture takes notes, says on the message going
// out what identity rewriting changed: the capture shows the message as
// it went on the wire, and the original as it came in (the packet
// before), and this note ties the two.
func (p *Proxy) noteIdentity(w *worker, s side, deep bool) {
	if !p.identityOn() {
		return
	}
	if _, ok := p.cfg.Capture.(noter); !ok {
		return
	}
	orig := "?"
	if m := p.sides[s].mid.Load(); m != nil {
		orig = midString(m)
	}
	w.note = "megaco proxy identity: mId " + orig + " sent as " + midString(&p.sides[s.other()].self.Load().mid)
	if deep {
		w.note += "; ServiceChange addresses rewritten"
	}
}

// noteOut passes a note to the capture for the packet b going to d.
func (s *sideState) noteOut(d dest, text string) {
	n, ok := s.p.cfg.Capture.(noter)
	if !ok {
		return
	}
	if d.conn != nil {
		n.Note(addrPort(d.conn.c.LocalAddr()), addrPort(d.conn.c.RemoteAddr()), text)
		return
	}
	n.Note(s.localUDP(), d.addr, text)
}
