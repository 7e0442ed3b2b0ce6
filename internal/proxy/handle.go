package proxy

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"megaco/internal/codec"
	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
	"megaco/internal/model"
	"megaco/internal/monotime"
)

// worker is the memory one read loop reuses from message to message.
type worker struct {
	out, part, errOut []byte
	infos             []txInfo
	dests             []dest
	drop              []bool
	sub               []model.Transaction
	answered          []*tcpConn   // requesters whose replies route sends: owed no more once sent
	sum               scan.Summary // relaying: what a scan read
	salvaged          scan.Summary // what survives of a message that did not decode
	note              string       // for the capture: what identity rewriting changed
	// batch is set while the read loop has more messages in hand before
	// it waits (a UDP read's batch, TCP packets one read brought): the
	// transports may keep what is sent until the loop's p.flush, to
	// write it with fewer system calls.
	batch bool
	// kept marks the sides whose transport kept something for flush; tx
	// is each side's transport's own state for this worker (made by it).
	kept [2]bool
	tx   [2]any
	// opts are the proxy's, with an observer that counts into the
	// worker's shard of the metrics (set on the worker's first message).
	opts  codec.Options
	shard int
	ready bool
}

// prepare readies a worker for its first message: its shard, taken in
// turn, so that read loops running at once rarely share one.
func (p *Proxy) prepare(w *worker) {
	w.ready = true
	w.shard = int(p.workers.Add(1))
	w.opts = p.opts
	if p.codecMet != nil {
		w.opts.Observer = &codecObserver{m: p.codecMet, shard: w.shard}
	}
}

// handle carries one message that arrived on side s from src to the
// other side: decode (into the other side's form), encode in the other
// side's codec (or keep the bytes when both speak one codec), route.
func (p *Proxy) handle(w *worker, s side, src dest, data []byte) {
	if !w.ready {
		p.prepare(w)
	}
	in, out := p.sides[s], p.sides[s.other()]
	if src.conn == nil && src.addr != in.peer && !p.admit(s, src.addr) {
		return // accepted TCP connections were admitted at accept
	}
	p.captureIn(s, src, data)
	w.note = ""
	relay := in.cfg.Codec == out.cfg.Codec
	scanned := false
	if relay {
		var listed bool
		if listed, scanned = p.scanRelay(w, s, data); listed {
			if payload, ok := p.relayPayload(w, s, data); ok {
				p.noteIdentity(w, s, false)
				p.carry(w, s, src, nil, data, payload)
				return
			}
		}
	}
	m, release, _, err := codec.DecodeTransient(data, in.cfg.Codec, out.form, w.opts)
	if err != nil {
		p.rejectUndecoded(w, s, src, data, err)
		return
	}
	defer release()
	in.learnMID(&m.Mess.MId)
	if scanned {
		in.rememberMID(&w.sum.MID) // the next messages with it need no decoding
	} else if relay {
		in.forgetMID() // the mId just learnt may differ from the one scanned before
	}
	payload := data
	deep := p.identityOn() && p.presentModel(s, m)
	if relay && !deep && p.identityOn() {
		payload, err = p.presentBytes(w, s, data, scanned)
		deep = err != nil // a codec without a rewriter: encode
	}
	if !relay || deep {
		payload, err = codec.Encode(w.out[:0], out.enc, out.cfg.Codec, m, w.opts)
		if err != nil {
			p.reject(w, s, src, len(data), inspect(m, w.infos[:0]), int(m.Mess.Version), reasonTranscode, err)
			return
		}
		w.out = payload
	}
	w.infos = inspect(m, w.infos[:0])
	p.noteIdentity(w, s, deep)
	p.carry(w, s, src, m, data, payload)
}

// carry routes and sends a message whose transactions w.infos lists; m
// is nil when it was scanned, not decoded.
func (p *Proxy) carry(w *worker, s side, src dest, m *model.MegacoMessage, data, payload []byte) {
	if len(w.infos) == 0 { // an empty list of transactions: nothing to carry
		p.met.messages[s][kindError][dropped].Inc()
		return
	}
	p.watchMGC(w, s)
	p.route(w, s, src, m, payload)
	if len(w.answered) > 0 {
		settleAnswered(w)
	}
	if p.log.Enabled(context.Background(), slog.LevelDebug) {
		in, out := p.sides[s], p.sides[s.other()]
		p.log.Debug("message", "direction", directions[s], "from", src.String(), "to", w.dests[0].String(),
			"codec_in", in.cfg.Codec, "bytes_in", len(data), "codec_out", out.cfg.Codec, "bytes_out", len(payload),
			"transactions", len(w.infos), "first_kind", kindNames[w.infos[0].kind], "first_id", w.infos[0].tid)
	}
}

// settleAnswered counts the replies route sent to TCP requesters as
// delivered (a half-closed connection waits for them).
func settleAnswered(w *worker) {
	for _, c := range w.answered {
		c.settle(1)
	}
	clear(w.answered)
	w.answered = w.answered[:0]
}

// route finds each transaction's destination on the other side, keeps
// the table, and sends: the message whole when everything in it goes to
// one place, else a message per destination (re-encoded).
func (p *Proxy) route(w *worker, s side, src dest, m *model.MegacoMessage, payload []byte) {
	o := s.other()
	now := monotime.Now()
	n := len(w.infos)
	w.dests = slices.Grow(w.dests[:0], n)[:n]
	w.drop = slices.Grow(w.drop[:0], n)[:n]
	clear(w.dests)
	clear(w.drop)
	var pair *tcpConn
	if src.conn != nil {
		pair = src.conn.pair.Load()
	}
	var def dest
	var defErr error
	defDone := false
	defaultDest := func() (dest, error) {
		if !defDone {
			def, defErr = p.sides[o].t.defaultDest()
			defDone = true
		}
		return def, defErr
	}
	for i, t := range w.infos {
		var d dest
		switch t.kind {
		case kindRequest:
			ok, evicted := p.table.request(now, newKey(s, t.tid), src, t.command, !p.draining.Load())
			if evicted {
				p.met.errors[s][reasonLimit].Inc()
			}
			if !ok {
				w.drop[i] = true // draining: a new request is not taken
				continue
			}
		case kindReply, kindPending:
			req, took, cmd, first, found := p.table.reply(now, newKey(o, t.tid), t.kind == kindReply && t.final)
			if first {
				p.met.observeDuration(w.shard, o, cmd, took)
				if req.conn != nil {
					w.answered = append(w.answered, req.conn)
				}
			}
			if found && req.usable() {
				d = req
			}
		}
		if pair != nil {
			d = dest{conn: pair} // TCP pairs: everything goes to the pair
		}
		if d == (dest{}) {
			var err error
			if d, err = defaultDest(); err != nil {
				p.met.errors[o][reasonRoute].Inc()
				p.limiter.warn("no route", "direction", directions[s], "to", sideNames[o], "err", err)
				w.drop[i] = true
				if t.kind == kindRequest {
					p.table.cancel(newKey(s, t.tid))
				}
				continue
			}
		}
		w.dests[i] = d
	}
	if one, d := p.oneDest(w); one {
		p.sendCounted(w, s, d, payload, func(int) bool { return true })
		return
	}
	// Several destinations, or some transactions dropped: one message
	// per destination, in the order of the transactions.
	if m == nil { // scanned, not decoded: the parts need the message
		dm, release, _, err := codec.DecodeTransient(payload, p.sides[s].cfg.Codec, p.sides[o].form, w.opts)
		if err != nil {
			p.met.errors[o][reasonTranscode].Inc()
			p.limiter.warn("cannot decode a message to split it", "direction", directions[s], "err", err)
			for i := range n {
				p.met.messages[s][w.infos[i].kind][dropped].Inc()
			}
			return
		}
		defer release()
		m = dm
	}
	for i := range n {
		if w.drop[i] {
			p.met.messages[s][w.infos[i].kind][dropped].Inc()
			continue
		}
		d := w.dests[i]
		if i > 0 && p.seen(w, i, d) {
			continue
		}
		w.sub = w.sub[:0]
		for j := i; j < n; j++ {
			if !w.drop[j] && w.dests[j] == d {
				w.sub = append(w.sub, m.Mess.MessageBody.Transactions[j])
			}
		}
		part := *m
		part.Mess.MessageBody.Transactions = w.sub
		b, err := codec.Encode(w.part[:0], p.sides[o].enc, p.sides[o].cfg.Codec, &part, w.opts)
		if err != nil {
			p.met.errors[o][reasonTranscode].Inc()
			p.limiter.warn("cannot encode part of a message", "direction", directions[s], "err", err)
			for j := i; j < n; j++ {
				if !w.drop[j] && w.dests[j] == d {
					p.met.messages[s][w.infos[j].kind][dropped].Inc()
				}
			}
			continue
		}
		w.part = b
		p.sendCounted(w, s, d, b, func(j int) bool { return j >= i && !w.drop[j] && w.dests[j] == d })
	}
	clear(w.sub)
}

// oneDest reports whether every transaction goes, undropped, to one place.
func (p *Proxy) oneDest(w *worker) (bool, dest) {
	for i := range w.infos {
		if w.drop[i] || w.dests[i] != w.dests[0] {
			return false, dest{}
		}
	}
	return true, w.dests[0]
}

// seen reports whether a transaction before i already went to d.
func (p *Proxy) seen(w *worker, i int, d dest) bool {
	for j := range i {
		if !w.drop[j] && w.dests[j] == d {
			return true
		}
	}
	return false
}

// sendCounted sends b to d on the side opposite s and counts the
// transactions for which in(j) holds as forwarded, or dropped on error.
func (p *Proxy) sendCounted(w *worker, s side, d dest, b []byte, in func(int) bool) {
	o := s.other()
	if w.note != "" {
		p.sides[o].noteOut(d, w.note)
	}
	kept, err := p.sides[o].t.send(w, s, d, b, in)
	if kept {
		return // counted by the transport's flush
	}
	out := forwarded
	if err != nil {
		out = dropped
		p.met.errors[o][reasonIO].Inc()
		p.limiter.warn("send failed", "to", d.String(), "err", err)
	}
	for j, t := range w.infos {
		if in(j) {
			p.met.messages[s][t.kind][out].Inc()
			if err != nil && t.kind == kindRequest {
				p.table.cancel(newKey(s, t.tid))
			}
		}
	}
}

// rejectUndecoded handles a message that did not decode (or convert):
// its transactions are read from a decoding without conversion, or, when
// even that fails, by scanning what survives.
func (p *Proxy) rejectUndecoded(w *worker, s side, src dest, data []byte, err error) {
	r := reasonDecode
	if e, ok := codecerr.As(err); ok && e.Op == codecerr.Map {
		r = reasonTranscode
	}
	in := p.sides[s].cfg.Codec
	if m, release, _, err2 := codec.DecodeTransient(data, in, codec.InputForm, p.quiet); err2 == nil {
		w.infos = inspect(m, w.infos[:0])
		v := int(m.Mess.Version)
		release()
		p.reject(w, s, src, len(data), w.infos, v, r, err)
		return
	}
	sum := &w.salvaged
	codec.Salvage(in, data, sum, maxSalvaged)
	w.infos = w.infos[:0]
	for _, t := range sum.Transactions {
		w.infos = append(w.infos, txInfo{kind: scanKinds[t.Kind], tid: t.ID})
	}
	for range sum.Errors {
		w.infos = append(w.infos, txInfo{kind: kindError})
	}
	p.reject(w, s, src, len(data), w.infos, sum.Version, r, err)
}

// reject answers the requests among infos with an error descriptor in
// the sender's codec, and drops the rest: replies, pendings, acks, errors
// and what shows no request are never answered, so that no two parties
// (nor the proxy's two sides) can bounce errors between them. The answer
// is bounded in rate per source and in size by the inLen bytes that
// provoked it (security.go).
func (p *Proxy) reject(w *worker, s side, src dest, inLen int, infos []txInfo, version int, r reason, cause error) {
	p.met.errors[s][r].Inc()
	var reqs []uint32
	for _, t := range infos {
		if t.kind == kindRequest {
			reqs = append(reqs, t.tid)
			p.met.messages[s][kindRequest][rejected].Inc()
		} else {
			p.met.messages[s][t.kind][dropped].Inc()
		}
	}
	if len(infos) == 0 {
		p.met.messages[s][kindError][dropped].Inc() // nothing readable: a message dropped
	}
	in := p.sides[s]
	p.limiter.warn("message not forwarded", "direction", directions[s], "from", src.String(),
		"codec", in.cfg.Codec, "requests", len(reqs), "reason", reasons[r], "err", cause)
	if len(reqs) == 0 {
		return
	}
	if src.conn == nil && !p.errBudget.take(src.addr.Addr(), time.Now()) {
		// Over UDP, where a source can be forged (TCP answers go to a
		// peer that connected, and wait for it to read).
		p.drop(s, dropErrorRate, src.String())
		return
	}
	code := errorCode(cause)
	if version > limits.MaxVersion {
		code = codeVersion
	}
	b, err := p.errorAnswer(w, s, min(max(version, limits.MinVersion), limits.MaxVersion), reqs, code, cause, answerLimit(inLen))
	if err == nil {
		_, err = in.t.send(nil, s, src, b, nil)
	}
	if err != nil {
		p.met.errors[s][reasonIO].Inc()
		p.limiter.warn("cannot answer with an error", "to", src.String(), "err", err)
	}
}
