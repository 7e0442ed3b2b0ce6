package load

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/netip"
	"time"

	"megaco/internal/capture"
	"megaco/internal/codec"
	"megaco/internal/model"
)

// ReadWireReplay reads a capture for a replay through the proxy (the wire
// mode): each captured request is a transaction, sent by the side that
// sent it in the capture, in that side's codec, and answered by the other
// side with the reply captured for it (the first from the request's
// destination with its transaction ID), or else with a plain reply made
// here (each command answered with its termination IDs). Replies are not
// sent on their own; a pending captured for a request is sent before its
// reply, once that has arrived; an acknowledgement
// (TransactionResponseAck) is sent on its own by its side and must reach
// the other; replies and pendings to no captured request and
// retransmitted requests are skipped with a note. mgc, when
// not empty, is the MGC's address in the capture (an IP address, or
// address:port): what it sends is the MGC side's; else each address's
// side is told by the commands it sends and answers (see vote).
func ReadWireReplay(r io.Reader, ports []uint16, codecs Codecs, mgc string) (*Replay, error) {
	named, err := namedSide(mgc)
	if err != nil {
		return nil, err
	}
	rp := &Replay{Wire: true}
	var caps []wireCaptured
	votes := map[netip.AddrPort]*[2]int{}
	var size int
	err = readCaptured(r, ports, rp, func(m capture.Message, offset time.Duration) error {
		c, err := readWireCaptured(m, offset, votes)
		if err != nil {
			rp.skip(fmt.Sprintf("frame %d: %v", m.Frame, err))
			return nil
		}
		if size += len(c.Data); size > MaxReplayBytes { // kept until paired
			return errReplayBytes
		}
		caps = append(caps, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	side := func(a netip.AddrPort) (Side, bool) {
		if named != nil {
			return named(a), true
		}
		return votedSide(votes[a])
	}
	p := wirePrep{rp: rp, codecs: codecs, types: map[string]int{}, open: map[wireKey]int{}, mids: map[netip.AddrPort]model.MId{}, side: side}
	for i := range caps {
		if err := p.add(&caps[i]); err != nil {
			return nil, err
		}
	}
	if err := p.plainReplies(); err != nil {
		return nil, err
	}
	if p.guessed > 0 {
		rp.Notes = append(rp.Notes, fmt.Sprintf("%d requests between addresses whose side none of their messages tells (ServiceChange only): sent by the MGC side when text, the MG side when binary (--pcap-mgc names the MGC)", p.guessed))
	}
	return rp, rp.check()
}

// namedSide tells an address's side by the MGC's address mgc (an IP
// address, or address:port); nil when mgc is empty.
func namedSide(mgc string) (func(netip.AddrPort) Side, error) {
	if mgc == "" {
		return nil, nil
	}
	if ap, err := netip.ParseAddrPort(mgc); err == nil {
		return func(a netip.AddrPort) Side { return sideIf(a == ap) }, nil
	}
	ip, err := netip.ParseAddr(mgc)
	if err != nil {
		return nil, fmt.Errorf("MGC address %q: want an IP address or address:port", mgc)
	}
	return func(a netip.AddrPort) Side { return sideIf(a.Addr() == ip) }, nil
}

func sideIf(mgc bool) Side {
	if mgc {
		return MGC
	}
	return MG
}

// wireCaptured is a captured message with what the wire replay needs of it.
type wireCaptured struct {
	capture.Message
	offset time.Duration
	from   string // detected codec
	kind   model.TransactionKind
	tid    uint32
	typ    string
	mid    model.MId
}

// readWireCaptured decodes m and counts its votes on its addresses' sides.
func readWireCaptured(m capture.Message, offset time.Duration, votes map[netip.AddrPort]*[2]int) (wireCaptured, error) {
	from, err := codec.Detect(m.Data)
	if err != nil {
		return wireCaptured{}, err
	}
	msg, _, err := codec.DecodeAs(m.Data, from, codec.Binary, Options())
	if err != nil {
		return wireCaptured{}, fmt.Errorf("%s: %w", from, err)
	}
	c := wireCaptured{Message: m, offset: offset, from: from, typ: replayType(msg), mid: msg.Mess.MId}
	c.Data = append([]byte(nil), m.Data...) // the reader reuses its buffer
	if ts := msg.Mess.MessageBody.Transactions; len(ts) > 0 {
		c.kind, c.tid = ts[0].Kind, transactionID(&ts[0])
		if ack := ts[0].TransactionResponseAck; c.kind == model.Transaction_TransactionResponseAck && len(ack) > 0 {
			c.tid = ack[0].FirstAck
		}
		for i := range ts {
			vote(votes, m.Src, m.Dst, &ts[i])
		}
	}
	return c, nil
}

// vote counts what transaction t says of its sender's side (RFC 3525
// 7.2: Add, Move, Modify, Subtract and the audits go from the MGC to a
// gateway, Notify from a gateway to the MGC; ServiceChange goes both
// ways and says nothing), and its receiver's, the other.
func vote(votes map[netip.AddrPort]*[2]int, src, dst netip.AddrPort, t *model.Transaction) {
	var kinds []model.CommandKind
	switch t.Kind {
	case model.Transaction_TransactionRequest:
		for _, a := range t.TransactionRequest.Actions {
			for _, c := range a.CommandRequests {
				kinds = append(kinds, c.Command.Kind)
			}
		}
	case model.Transaction_TransactionReply:
		for _, a := range t.TransactionReply.TransactionResult.ActionReplies {
			for _, c := range a.CommandReply {
				kinds = append(kinds, model.CommandKind(c.Kind)) // numbered alike (commandNames)
			}
		}
	}
	for _, k := range kinds {
		var s Side
		switch k {
		case model.Command_ServiceChangeReq:
			continue
		case model.Command_NotifyReq:
			s = MG
		default:
			s = MGC
		}
		if t.Kind == model.Transaction_TransactionReply { // a reply goes back
			s = 1 - s
		}
		for _, a := range [2]netip.AddrPort{src, dst} {
			if votes[a] == nil {
				votes[a] = new([2]int)
			}
			votes[a][s]++
			s = 1 - s
		}
	}
}

// votedSide is the side the votes of an address tell, if they do.
func votedSide(v *[2]int) (Side, bool) {
	switch {
	case v == nil || v[MGC] == v[MG]:
		return MGC, false
	case v[MGC] > v[MG]:
		return MGC, true
	}
	return MG, true
}

// wireKey is a transaction by its requester, its answerer and its ID.
type wireKey struct {
	from, to netip.AddrPort
	tid      uint32
}

// wirePrep turns captured messages into transactions, in order.
type wirePrep struct {
	rp      *Replay
	codecs  Codecs
	types   map[string]int
	open    map[wireKey]int // requests not yet answered, by index in rp.Msgs
	mids    map[netip.AddrPort]model.MId
	side    func(netip.AddrPort) (Side, bool)
	size    int
	guessed int
}

func (p *wirePrep) codec(s Side) string {
	if s == MGC {
		return p.codecs.MGC
	}
	return p.codecs.MG
}

func (p *wirePrep) add(c *wireCaptured) error {
	if _, ok := p.mids[c.Src]; !ok {
		p.mids[c.Src] = c.mid
	}
	switch c.kind {
	case model.Transaction_TransactionRequest:
		return p.request(c)
	case model.Transaction_TransactionReply:
		i, ok := p.open[wireKey{c.Dst, c.Src, c.tid}]
		if !ok {
			p.rp.skip(fmt.Sprintf("frame %d: a reply (transaction %d) to no captured request: the replay answers each request itself", c.Frame, c.tid))
			return nil
		}
		delete(p.open, wireKey{c.Dst, c.Src, c.tid})
		return p.reply(i, c.Data, c.from, c.typ, c.Frame)
	case model.Transaction_TransactionResponseAck:
		return p.message(c, true)
	case model.Transaction_TransactionPending:
		return p.pending(c)
	}
	p.rp.skip(fmt.Sprintf("frame %d: a %s is not replayed over the wire (the answering side replies at once)", c.Frame, c.typ))
	return nil
}

// request adds captured request c, sent by its address's side; the same
// request again before its reply is a retransmission, which the
// generator makes by itself over UDP when its own goes unanswered.
func (p *wirePrep) request(c *wireCaptured) error {
	if i, ok := p.open[wireKey{c.Src, c.Dst, c.tid}]; ok {
		p.rp.skip(fmt.Sprintf("frame %d: a retransmission of frame %d (transaction %d)", c.Frame, p.rp.Msgs[i].Frame, c.tid))
		return nil
	}
	return p.message(c, false)
}

// message adds c, a request or (ack) an acknowledgement sent on its own,
// sent by its address's side.
func (p *wirePrep) message(c *wireCaptured, ack bool) error {
	s, ok := p.side(c.Src)
	if !ok {
		if d, known := p.side(c.Dst); known {
			s = 1 - d
		} else {
			s = sideIf(codec.FormOf(c.from) == codec.Text)
			p.guessed++
		}
	}
	from, to := p.codec(s), p.codec(1-s)
	in, want, err := transcodeBoth(c.Data, c.from, from, to)
	if err != nil {
		p.rp.skip(fmt.Sprintf("frame %d: %v", c.Frame, err))
		return nil
	}
	rm := ReplayMsg{Frame: c.Frame, Offset: c.offset, Src: c.Src.String(), Dst: c.Dst.String(), From: from, To: to,
		Type: p.rp.typeIndex(p.types, c.typ), In: in, Want: want, Side: s, TID: c.tid, ReplyType: -1,
		Ack: ack, dst: c.Dst}
	if err := p.grow(len(in) + len(want)); err != nil {
		return err
	}
	if !ack {
		p.open[wireKey{c.Src, c.Dst, c.tid}] = len(p.rp.Msgs)
	}
	p.rp.Msgs = append(p.rp.Msgs, rm)
	return nil
}

// reply makes data (in codec from) the answer to request i.
func (p *wirePrep) reply(i int, data []byte, from, typ string, frame int) error {
	m := &p.rp.Msgs[i]
	in, want, err := transcodeBoth(data, from, m.To, m.From)
	if err != nil {
		return fmt.Errorf("frame %d, the reply to frame %d: %w", frame, m.Frame, err)
	}
	m.Reply, m.ReplyWant, m.ReplyType, m.ReplyFrame = in, want, p.rp.typeIndex(p.types, typ), frame
	return p.grow(len(in) + len(want))
}

// pending makes captured pending c the answering side's first answer to
// its request (the first pending of it; later ones are skipped).
func (p *wirePrep) pending(c *wireCaptured) error {
	i, ok := p.open[wireKey{c.Dst, c.Src, c.tid}]
	if !ok || p.rp.Msgs[i].PendingFrame != 0 {
		p.rp.skip(fmt.Sprintf("frame %d: a pending (transaction %d) to no captured request awaiting its first", c.Frame, c.tid))
		return nil
	}
	m := &p.rp.Msgs[i]
	in, want, err := transcodeBoth(c.Data, c.from, m.To, m.From)
	if err != nil {
		p.rp.skip(fmt.Sprintf("frame %d: %v", c.Frame, err))
		return nil
	}
	m.Pending, m.PendingWant, m.PendingType, m.PendingFrame = in, want, p.rp.typeIndex(p.types, c.typ), c.Frame
	return p.grow(len(in) + len(want))
}

// plainReplies answers the requests the capture has no reply for.
func (p *wirePrep) plainReplies() error {
	for i := range p.rp.Msgs {
		m := &p.rp.Msgs[i]
		if m.ReplyType >= 0 || m.Ack {
			continue
		}
		req, _, err := codec.DecodeAs(m.In, m.From, codec.Binary, Options())
		if err != nil {
			return fmt.Errorf("frame %d: %w", m.Frame, err)
		}
		mid, ok := p.mids[m.dst]
		if !ok {
			mid = req.Mess.MId
		}
		data, typ, err := plainReply(req, mid)
		if err == nil {
			err = p.reply(i, data, "ber", typ, 0)
		}
		if err != nil {
			return fmt.Errorf("frame %d: a plain reply: %w", m.Frame, err)
		}
	}
	return nil
}

func (p *wirePrep) grow(n int) error {
	if p.size += n; p.size > MaxReplayBytes {
		return errReplayBytes
	}
	return nil
}

// transcodeBoth encodes data (in codec orig) in the sender's codec, as it
// is sent, and that in the receiver's, as the proxy must deliver it.
func transcodeBoth(data []byte, orig, from, to string) (in, want []byte, err error) {
	opts := Options()
	if in, _, err = codec.Transcode(nil, data, orig, from, opts); err != nil {
		return nil, nil, fmt.Errorf("%s -> %s with this library: %w", orig, from, err)
	}
	if want, _, err = codec.Transcode(nil, in, from, to, opts); err != nil {
		return nil, nil, fmt.Errorf("%s -> %s with this library: %w", from, to, err)
	}
	return in, want, nil
}

// plainReply is a BER reply to req (binary form) from mid: each action
// answered in its context, each command with its termination IDs; typ is
// its type (replayType), read from the message built rather than from a
// decode of its encoding.
func plainReply(req *model.MegacoMessage, mid model.MId) (data []byte, typ string, err error) {
	tr := req.Mess.MessageBody.Transactions[0].TransactionRequest
	rep := model.TransactionReply{TransactionId: tr.TransactionId}
	rep.TransactionResult.Kind = model.TransactionReplyTransactionResult_ActionReplies
	for _, a := range tr.Actions {
		ar := model.ActionReply{ContextId: a.ContextId}
		for _, c := range a.CommandRequests {
			ar.CommandReply = append(ar.CommandReply, commandReply(&c.Command))
		}
		rep.TransactionResult.ActionReplies = append(rep.TransactionResult.ActionReplies, ar)
	}
	m := &model.MegacoMessage{Mess: model.Message{Version: req.Mess.Version, MId: mid}}
	m.Mess.MessageBody.Kind = model.MessageMessageBody_Transactions
	m.Mess.MessageBody.Transactions = []model.Transaction{{Kind: model.Transaction_TransactionReply, TransactionReply: &rep}}
	c, err := codec.Lookup("ber", Options())
	if err != nil {
		return nil, "", err
	}
	if data, err = codec.Encode(nil, c, "ber", m, Options()); err != nil {
		return nil, "", err
	}
	return data, replayType(m), nil
}

// commandReply answers command c with its termination IDs only.
func commandReply(c *model.Command) model.CommandReply {
	r := model.CommandReply{Kind: model.CommandReplyKind(c.Kind)}
	amms := func(ids []model.TerminationID) *model.AmmsReply { return &model.AmmsReply{TerminationID: ids} }
	audit := func(req *model.AuditRequest) *model.AuditReply {
		return &model.AuditReply{Kind: model.AuditReply_ContextAuditResult, ContextAuditResult: []model.TerminationID{req.TerminationID}}
	}
	switch c.Kind {
	case model.Command_AddReq:
		r.AddReply = amms(c.AddReq.TerminationID)
	case model.Command_MoveReq:
		r.MoveReply = amms(c.MoveReq.TerminationID)
	case model.Command_ModReq:
		r.ModReply = amms(c.ModReq.TerminationID)
	case model.Command_SubtractReq:
		r.SubtractReply = amms(c.SubtractReq.TerminationID)
	case model.Command_AuditCapRequest:
		r.AuditCapReply = audit(c.AuditCapRequest)
	case model.Command_AuditValueRequest:
		r.AuditValueReply = audit(c.AuditValueRequest)
	case model.Command_NotifyReq:
		r.NotifyReply = &model.NotifyReply{TerminationID: c.NotifyReq.TerminationID}
	case model.Command_ServiceChangeReq:
		r.ServiceChangeReply = &model.ServiceChangeReply{TerminationID: c.ServiceChangeReq.TerminationID,
			ServiceChangeResult: model.ServiceChangeResult{Kind: model.ServiceChangeResult_ServiceChangeResParms, ServiceChangeResParms: &model.ServiceChangeResParm{}}}
	}
	return r
}

// replayWireCall runs captured transaction n through the proxy.
func (e *engine) replayWireCall(ctx context.Context, n int) {
	st := e.st
	defer st.active.Add(-1)
	m := &e.replay.Msgs[n]
	start := time.Now()
	id := wireID(m.TID)
	if m.Ack {
		id |= ackBit
	}
	// Another call may have the ID in flight (the capture's gateways
	// number their transactions each on its own): this one waits.
	tx, ok := e.wire.claim(ctx, id)
	var cause Cause
	switch {
	case !ok:
		cause = Aborted
	case m.Ack:
		cause = e.wire.sendAck(ctx, m, tx, replayParty{e, m})
	default:
		cause = e.wire.exchange(ctx, wireTxn{from: m.Side, tid: m.TID, req: m.In, rep: m.Reply, pend: m.Pending, party: replayParty{e, m}, claimed: tx})
	}
	st.callEnded(cause, time.Since(start))
}

// sendAck sends captured acknowledgement m from its side, message 0 of
// party, and waits for it at the other (as tx, claimed). It is not retransmitted: RFC 3525
// D.1.4 repeats an acknowledgement only with the reply it acknowledges,
// which the replay answers at once.
func (w *wire) sendAck(ctx context.Context, m *ReplayMsg, tx *wireTx, p wireParty) (cause Cause) {
	defer func() { w.end(ackBit|wireID(m.TID), tx, cause) }()
	sent := time.Now()
	if err := w.sides[m.Side].send(m.In); err != nil {
		return p.fail(0, Transport, fmt.Errorf("send: %w", err))
	}
	timer := tx.startTimer(w.e.cfg.Timeout)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return Aborted
	case a := <-tx.inbox:
		if a.side == m.Side {
			return p.fail(0, Mismatch, fmt.Errorf("the %s side received its own acknowledgement", a.side))
		}
		return p.arrived(0, a, a.at.Sub(sent))
	case <-timer.C:
		return p.fail(0, Lost, fmt.Errorf("not received within %v (%s)", w.e.cfg.Timeout, w.network()))
	}
}

// replayParty checks and counts a replayed transaction's messages: 0 the
// request, 1 the reply.
type replayParty struct {
	e *engine
	m *ReplayMsg
}

func (r replayParty) arrived(i int, a arrival, lat time.Duration) Cause {
	st, m := r.e.st, r.m
	want, typ, codec := m.Want, m.Type, m.To
	switch i {
	case 1:
		want, typ, codec = m.ReplyWant, m.ReplyType, m.From
	case 2:
		want, typ, codec = m.PendingWant, m.PendingType, m.From
	}
	st.msgs.Add(1)
	st.rt.Record(lat)
	st.types[typ].Record(lat)
	if bytes.Equal(a.data, want) {
		return OK
	}
	st.msgsFailed.Add(1)
	r.note(i, Mismatch, fmt.Errorf("received %d bytes that differ from this library's %s encoding (%d bytes)", len(a.data), codec, len(want)))
	return Mismatch
}

func (r replayParty) fail(i int, cause Cause, err error) Cause {
	return r.e.st.unanswered(r.note, i, cause, err)
}

func (r replayParty) note(i int, cause Cause, err error) {
	m, what := r.m, fmt.Sprintf("frame %d, %s from the %s side (%s -> %s)", r.m.Frame, r.e.replay.Types[r.m.Type], r.m.Side, r.m.Src, r.m.Dst)
	switch i {
	case 1:
		from := fmt.Sprintf("frame %d", m.ReplyFrame)
		if m.ReplyFrame == 0 {
			from = "a plain reply"
		}
		what = fmt.Sprintf("frame %d's %s (%s) from the %s side", m.Frame, r.e.replay.Types[m.ReplyType], from, 1-m.Side)
	case 2:
		what = fmt.Sprintf("frame %d's pending (frame %d) from the %s side", m.Frame, m.PendingFrame, 1-m.Side)
	}
	r.e.noteError(cause, fmt.Sprintf("%s: %v", what, err))
}
