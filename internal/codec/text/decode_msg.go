package text

import (
	"bytes"
	"net/netip"
	"strconv"

	"megaco/internal/model"
)

// The builder's actions for the frame of a message: the header,
// transactions, actions and contexts, commands, and the mId addresses.

func (d *decoder) authenticationHeader(spi, sn, ad span) {
	h := decOne(&d.sl.AuthenticationHeader)
	h.SecParmIndex = d.hex(spi, 8, 8, "security parameter index")
	h.SeqNum = d.hex(sn, 8, 8, "sequence number")
	h.Ad = d.hex(ad, 24, 64, "authentication data")
	d.msg.AuthHeader = h
}

func (d *decoder) message() {
	d.msg.Mess.Version = uint32(d.version)
	d.msg.Mess.MId = *decPop[model.MId](d)
}

func (d *decoder) messageError() {
	d.msg.Mess.MessageBody = model.MessageMessageBody{
		Kind:         model.MessageMessageBody_MessageError,
		MessageError: decPop[model.ErrorDescriptor](d),
	}
}

func (d *decoder) transactions(n int) {
	d.msg.Mess.MessageBody = model.MessageMessageBody{
		Kind:         model.MessageMessageBody_Transactions,
		Transactions: decTake(&d.trans, &d.sl.Transaction, n),
	}
}

func (d *decoder) transactionRequest(id span, n int) {
	r := decOne(&d.sl.TransactionRequest)
	r.TransactionId = d.num32(id, "transaction ID")
	r.Actions = decTake(&d.actReqs, &d.sl.ActionRequest, n)
	decPush(d, &d.trans, model.Transaction{Kind: model.Transaction_TransactionRequest, TransactionRequest: r})
}

// segmented reads TransactionID [SLASH segmentNumber [SLASH
// SegmentationCompleteToken]].
func (d *decoder) segmented(s span) (id uint32, seg model.Opt[uint32], end bool) {
	idp, rest, ok := d.split(s, '/')
	id = d.num32(idp, "transaction ID")
	if !ok {
		return id, seg, false
	}
	d.need(3, rest, "a segment number")
	segp, tail, ok := d.split(rest, '/')
	seg = model.Some(d.num16(segp, "segment number"))
	if ok {
		if !d.is(tail, "end") && !d.is(tail, "&") {
			d.failAt(tail, "expected END after the segment number, found "+d.quote(tail))
		}
		end = true
	}
	return id, seg, end
}

func (d *decoder) transactionReply(id span, code int) {
	r := decOne(&d.sl.TransactionReply)
	r.TransactionId, r.SegmentNumber, r.SegmentationComplete = d.segmented(id)
	r.ImmAckRequired = code&replyImmAck != 0
	if code&replyError != 0 {
		r.TransactionResult = model.TransactionReplyTransactionResult{
			Kind:             model.TransactionReplyTransactionResult_TransactionError,
			TransactionError: decPop[model.ErrorDescriptor](d),
		}
	} else {
		r.TransactionResult = model.TransactionReplyTransactionResult{
			Kind:          model.TransactionReplyTransactionResult_ActionReplies,
			ActionReplies: decTake(&d.actReps, &d.sl.ActionReply, code>>replyShift),
		}
	}
	decPush(d, &d.trans, model.Transaction{Kind: model.Transaction_TransactionReply, TransactionReply: r})
}

func (d *decoder) transactionPending(id span) {
	p := decOne(&d.sl.TransactionPending)
	p.TransactionId = d.num32(id, "transaction ID")
	decPush(d, &d.trans, model.Transaction{Kind: model.Transaction_TransactionPending, TransactionPending: p})
}

func (d *decoder) transactionResponseAck(n int) {
	decPush(d, &d.trans, model.Transaction{
		Kind:                   model.Transaction_TransactionResponseAck,
		TransactionResponseAck: decTake(&d.acks, &d.sl.TransactionAck, n),
	})
}

func (d *decoder) transactionAck(s span) {
	first, last, ok := d.split(s, '-')
	a := model.TransactionAck{FirstAck: d.num32(first, "transaction ID")}
	if ok {
		a.LastAck = model.Some(d.num32(last, "transaction ID"))
	}
	decPush(d, &d.acks, a)
}

func (d *decoder) segmentReply(kw, s span) {
	d.need(3, kw, "Segment")
	r := decOne(&d.sl.SegmentReply)
	var seg model.Opt[uint32]
	r.TransactionId, seg, r.SegmentationComplete = d.segmented(s)
	if !seg.Present && d.err == nil {
		d.failAt(s, "expected a segment number after the transaction ID, found "+d.quote(s))
	}
	r.SegmentNumber = seg.Value
	decPush(d, &d.trans, model.Transaction{Kind: model.Transaction_SegmentReply, SegmentReply: r})
}

// ---------------------------------------------------------------------
// Actions, contexts.

func (d *decoder) actionRequest(ctx span, n int) {
	ps, objs := d.items(n)
	a := model.ActionRequest{ContextId: d.contextIDValue(ctx)}
	d.once(ps, ctx, "a context")
	nCmd, oi := 0, 0
	for _, p := range ps {
		switch p.kind {
		case pCommand:
			nCmd++
		case pContextAudit:
			a.ContextAttrAuditReq = decObjAt[model.ContextAttrAuditRequest](d, objs, &oi)
		}
	}
	a.ContextRequest = d.contextProperties(ps)
	a.CommandRequests = decTake(&d.cmdReqs, &d.sl.CommandRequest, nCmd)
	d.drop(ps, objs)
	decPush(d, &d.actReqs, a)
}

// contextProperties builds the ContextRequest of the context properties
// among ps, taking their topology requests, properties and context IDs
// from their stacks; nil if there are none.
func (d *decoder) contextProperties(ps []decParam) *model.ContextRequest {
	var nTopo, nProps, nIDs int
	any := false
	for _, p := range ps {
		switch p.kind {
		case pTopology:
			nTopo += int(p.u)
		case pContextProps:
			nProps += int(p.u)
			d.need(3, p.tok, "ContextAttr")
		case pContextList:
			nIDs += int(p.u)
			d.need(3, p.tok, "ContextAttr")
		case pPriority, pEmergency, pIEPS:
		default:
			continue
		}
		any = true
	}
	if !any {
		return nil
	}
	c := decOne(&d.sl.ContextRequest)
	for _, p := range ps {
		switch p.kind {
		case pPriority:
			c.Priority = model.Some(d.num(p.tok, 15, "priority"))
		case pEmergency:
			c.Emergency = model.Some(p.u == 1)
		case pIEPS:
			c.Iepscallind = model.Some(d.onOff(p.tok))
		}
	}
	if nIDs > 0 {
		c.ContextList = decTake(&d.ctxIDs, &d.sl.Uint32, nIDs)
	}
	if nProps > 0 {
		c.ContextProp = decTake(&d.props, &d.sl.PropertyParm, nProps)
	}
	if nTopo > 0 {
		c.TopologyReq = decTake(&d.topo, &d.sl.TopologyRequest, nTopo)
	}
	return c
}

func (d *decoder) commandRequest(prefix int) {
	if n := len(d.cmdReqs); n > 0 {
		c := &d.cmdReqs[n-1]
		c.Optional = prefix&prefixOptional != 0
		c.WildcardReturn = prefix&prefixWildcard != 0
	}
	d.param(pCommand, span{}, 0)
}

func (d *decoder) contextID(s span) {
	decPush(d, &d.ctxIDs, d.contextIDValue(s))
}

func (d *decoder) contextAudit(kw span, n int) {
	ps, objs := d.items(n)
	a := decOne(&d.sl.ContextAttrAuditRequest)
	d.once(ps, kw, "ContextAudit")
	for _, p := range ps {
		if p.kind == pProperty || p.kind == pAuditName {
			d.need(3, kw, "a property in ContextAudit")
			// As in LocalControl: "nt/jit, nt/jit=40" is one item.
			a.ContextPropAud = d.indAudProperties(ps)
			break
		}
	}
	for _, p := range ps {
		switch p.kind {
		case pAuditTopology:
			a.Topology = true
		case pAuditEmergency:
			a.Emergency = true
		case pAuditPriority:
			a.Priority = true
		case pAuditIEPS:
			d.need(3, p.tok, "IEPSCall")
			a.Iepscallind = true
		case pPriority:
			d.need(3, p.tok, "a Priority value in ContextAudit")
			a.Selectpriority = model.Some(d.num(p.tok, 15, "priority"))
		case pSelectEmergency:
			a.Selectemergency = model.Some(p.u == 1)
		case pIEPS:
			a.Selectiepscallind = model.Some(d.onOff(p.tok))
		case pSelectLogic:
			d.need(3, p.tok, "ANDLgc/ORLgc")
			a.SelectLogic = decOne(&d.sl.SelectLogic)
			a.SelectLogic.Kind = model.SelectLogicKind(p.u)
		}
	}
	d.drop(ps, objs)
	d.pushObj(a)
	d.param(pContextAudit, kw, 0)
}

func (d *decoder) contextListInAudit(kw span, n int) {
	decTake(&d.ctxIDs, &d.sl.Uint32, n)
	d.noModelField(kw, "a ContextList in ContextAudit")
}

func (d *decoder) topologyTriple(from, to span, dir int) {
	t := model.TopologyRequest{
		TerminationFrom: model.TerminationID{Id: d.octets(from)},
		TerminationTo:   model.TerminationID{Id: d.octets(to)},
	}
	switch dir {
	case directionExternal:
		t.TopologyDirection = model.TopologyRequestTopologyDirection_Oneway
		t.TopologyDirectionExtension = model.Some(model.TopologyRequestTopologyDirectionExtension_Onewayexternal)
	case directionBoth:
		t.TopologyDirection = model.TopologyRequestTopologyDirection_Oneway
		t.TopologyDirectionExtension = model.Some(model.TopologyRequestTopologyDirectionExtension_Onewayboth)
	default:
		t.TopologyDirection = model.TopologyRequestTopologyDirection(dir)
	}
	decPush(d, &d.topo, t)
}

func (d *decoder) topologyStream(s span) {
	d.need(2, s, "a stream in a Topology descriptor")
	if n := len(d.topo); n > 0 {
		d.topo[n-1].StreamID = model.Some(d.num16(s, "stream ID"))
	}
}

func (d *decoder) topologyExtension(dir int) {
	if n := len(d.topo); n > 0 {
		t := &d.topo[n-1]
		if dir == directionExternal {
			t.TopologyDirectionExtension = model.Some(model.TopologyRequestTopologyDirectionExtension_Onewayexternal)
		} else {
			t.TopologyDirectionExtension = model.Some(model.TopologyRequestTopologyDirectionExtension_Onewayboth)
		}
	}
}

func (d *decoder) actionReply(ctx span, code int) {
	a := model.ActionReply{ContextId: d.contextIDValue(ctx)}
	if code&replyError != 0 {
		a.ErrorDescriptor = decPop[model.ErrorDescriptor](d)
	}
	ps, objs := d.items(code >> replyShift)
	d.once(ps, ctx, "a context")
	nCmd := 0
	for _, p := range ps {
		if p.kind == pCommand {
			nCmd++
		}
	}
	a.ContextReply = d.contextProperties(ps)
	a.CommandReply = decTake(&d.cmdReps, &d.sl.CommandReply, nCmd)
	d.drop(ps, objs)
	decPush(d, &d.actReps, a)
}

// ---------------------------------------------------------------------
// Commands.

func (d *decoder) terminationID(s span) {
	if s.end-s.pos > 64 {
		// Annex B pathNAME: "Total length of pathNAME must not exceed 64
		// chars."
		d.failAt(s, "termination ID of "+strconv.Itoa(int(s.end-s.pos))+" characters (at most 64)")
	}
	decPush(d, &d.tids, model.TerminationID{Id: d.octets(s)})
}

// termIDs takes the IDs of a termIDList ($$ of termIDList).
func (d *decoder) termIDs(code int) []model.TerminationID {
	return decTake(&d.tids, &d.sl.TerminationID, code>>1)
}

func (d *decoder) ammRequest(kw span, cmd, ids, n int) {
	r := decOne(&d.sl.AmmRequest)
	r.Descriptors = decTake(&d.amms, &d.sl.AmmDescriptor, n)
	d.ammOnce(r.Descriptors, kw)
	r.TerminationID = d.termIDs(ids)
	c := model.Command{Kind: model.CommandKind(cmd)}
	switch c.Kind {
	case model.Command_AddReq:
		c.AddReq = r
	case model.Command_MoveReq:
		c.MoveReq = r
	default:
		c.ModReq = r
	}
	decPush(d, &d.cmdReqs, model.CommandRequest{Command: c})
}

func (d *decoder) ammDescriptor(kind model.AmmDescriptorKind, n int) {
	a := model.AmmDescriptor{Kind: kind}
	switch kind {
	case model.AmmDescriptor_MediaDescriptor:
		a.MediaDescriptor = decPop[model.MediaDescriptor](d)
	case model.AmmDescriptor_ModemDescriptor:
		a.ModemDescriptor = decPop[model.ModemDescriptor](d)
	case model.AmmDescriptor_MuxDescriptor:
		a.MuxDescriptor = decPop[model.MuxDescriptor](d)
	case model.AmmDescriptor_EventsDescriptor:
		a.EventsDescriptor = decPop[model.EventsDescriptor](d)
	case model.AmmDescriptor_EventBufferDescriptor:
		a.EventBufferDescriptor = decTake(&d.evSpecs, &d.sl.EventSpec, n)
	case model.AmmDescriptor_SignalsDescriptor:
		a.SignalsDescriptor = decTake(&d.sigReqs, &d.sl.SignalRequest, n)
	case model.AmmDescriptor_DigitMapDescriptor:
		a.DigitMapDescriptor = decPop[model.DigitMapDescriptor](d)
	case model.AmmDescriptor_AuditDescriptor:
		a.AuditDescriptor = decPop[model.AuditDescriptor](d)
	case model.AmmDescriptor_StatisticsDescriptor:
		a.StatisticsDescriptor = decTake(&d.stats, &d.sl.StatisticsParameter, n)
	}
	decPush(d, &d.amms, a)
}

func (d *decoder) ammsReply(kind, ids, n int) {
	r := decOne(&d.sl.AmmsReply)
	if n >= 0 {
		r.TerminationAudit = d.terminationAudit(n)
	}
	r.TerminationID = d.termIDs(ids)
	c := model.CommandReply{Kind: model.CommandReplyKind(kind)}
	switch c.Kind {
	case model.CommandReply_AddReply:
		c.AddReply = r
	case model.CommandReply_MoveReply:
		c.MoveReply = r
	case model.CommandReply_ModReply:
		c.ModReply = r
	default:
		c.SubtractReply = r
	}
	decPush(d, &d.cmdReps, c)
}

// terminationAudit takes n audit return parameters; the bare descriptor
// names among them make one emptyDescriptors, where the first stood.
func (d *decoder) terminationAudit(n int) []model.AuditReturnParameter {
	out := decTake(&d.arps, &d.sl.AuditReturnParameter, n)
	var first *model.AuditDescriptor
	k := 0
	for _, a := range out {
		if a.Kind == model.AuditReturnParameter_EmptyDescriptors {
			if first != nil {
				first.AuditToken.Value.Bits |= a.EmptyDescriptors.AuditToken.Value.Bits
				continue
			}
			first = a.EmptyDescriptors
		}
		out[k] = a
		k++
	}
	if first != nil {
		first.AuditToken.Value.Len = first.AuditToken.Value.MinLen()
	}
	clear(out[k:])
	return out[:k:k]
}

func (d *decoder) subtractRequest(ids int, withAudit bool) {
	r := decOne(&d.sl.SubtractRequest)
	if withAudit {
		r.AuditDescriptor = decPop[model.AuditDescriptor](d)
	}
	r.TerminationID = d.termIDs(ids)
	decPush(d, &d.cmdReqs, model.CommandRequest{Command: model.Command{Kind: model.Command_SubtractReq, SubtractReq: r}})
}

func (d *decoder) auditRequest(kind, ids int) {
	r := decOne(&d.sl.AuditRequest)
	r.AuditDescriptor = *decPop[model.AuditDescriptor](d)
	if t := r.AuditDescriptor.AuditToken; kind == auditCap && t.Present && t.Value.Bits&(1<<auditDigitMap|1<<auditPackages) != 0 {
		d.failAt(d.cur().s, "DigitMap or Packages audited in an AuditCapability command (Annex B auditItem: not allowed)")
	}
	list := d.termIDs(ids)
	if len(list) > 0 {
		r.TerminationID = list[0]
	}
	if ids&1 != 0 {
		r.TerminationIDList = list
	}
	c := model.Command{Kind: model.Command_AuditValueRequest, AuditValueRequest: r}
	if kind == auditCap {
		c = model.Command{Kind: model.Command_AuditCapRequest, AuditCapRequest: r}
	}
	decPush(d, &d.cmdReqs, model.CommandRequest{Command: c})
}

func (d *decoder) auditReply(kind int, r *model.AuditReply) {
	c := model.CommandReply{Kind: model.CommandReply_AuditValueReply, AuditValueReply: r}
	if kind == auditCap {
		c = model.CommandReply{Kind: model.CommandReply_AuditCapReply, AuditCapReply: r}
	}
	decPush(d, &d.cmdReps, c)
}

func (d *decoder) contextAuditResult(kind, n int) {
	r := decOne(&d.sl.AuditReply)
	r.Kind = model.AuditReply_ContextAuditResult
	r.ContextAuditResult = decTake(&d.tids, &d.sl.TerminationID, n)
	d.auditReply(kind, r)
}

func (d *decoder) auditReplyError(kind int) {
	r := decOne(&d.sl.AuditReply)
	r.Kind = model.AuditReply_Error
	r.Error = decPop[model.ErrorDescriptor](d)
	d.auditReply(kind, r)
}

func (d *decoder) auditResult(kind, ids, n int) {
	r := decOne(&d.sl.AuditReply)
	params := d.terminationAudit(n)
	list := d.termIDs(ids)
	if ids&1 != 0 {
		r.Kind = model.AuditReply_AuditResultTermList
		r.AuditResultTermList = decOne(&d.sl.TermListAuditResult)
		r.AuditResultTermList.TerminationIDList = list
		r.AuditResultTermList.TerminationAuditResult = params
	} else {
		r.Kind = model.AuditReply_AuditResult
		r.AuditResult = decOne(&d.sl.AuditResult)
		if len(list) > 0 {
			r.AuditResult.TerminationID = list[0]
		}
		r.AuditResult.TerminationAuditResult = params
	}
	d.auditReply(kind, r)
}

func (d *decoder) auditReturn(kind model.AuditReturnParameterKind, n int) {
	a := model.AuditReturnParameter{Kind: kind}
	switch kind {
	case model.AuditReturnParameter_ErrorDescriptor:
		a.ErrorDescriptor = decPop[model.ErrorDescriptor](d)
	case model.AuditReturnParameter_MediaDescriptor:
		a.MediaDescriptor = decPop[model.MediaDescriptor](d)
	case model.AuditReturnParameter_ModemDescriptor:
		a.ModemDescriptor = decPop[model.ModemDescriptor](d)
	case model.AuditReturnParameter_MuxDescriptor:
		a.MuxDescriptor = decPop[model.MuxDescriptor](d)
	case model.AuditReturnParameter_EventsDescriptor:
		a.EventsDescriptor = decPop[model.EventsDescriptor](d)
	case model.AuditReturnParameter_EventBufferDescriptor:
		a.EventBufferDescriptor = decTake(&d.evSpecs, &d.sl.EventSpec, n)
	case model.AuditReturnParameter_SignalsDescriptor:
		a.SignalsDescriptor = decTake(&d.sigReqs, &d.sl.SignalRequest, n)
	case model.AuditReturnParameter_DigitMapDescriptor:
		a.DigitMapDescriptor = decPop[model.DigitMapDescriptor](d)
	case model.AuditReturnParameter_ObservedEventsDescriptor:
		a.ObservedEventsDescriptor = decPop[model.ObservedEventsDescriptor](d)
	case model.AuditReturnParameter_StatisticsDescriptor:
		a.StatisticsDescriptor = decTake(&d.stats, &d.sl.StatisticsParameter, n)
	case model.AuditReturnParameter_PackagesDescriptor:
		a.PackagesDescriptor = decTake(&d.pkgItems, &d.sl.PackagesItem, n)
	}
	decPush(d, &d.arps, a)
}

func (d *decoder) auditReturnItem(bit int) {
	e := decOne(&d.sl.AuditDescriptor)
	e.AuditToken = model.Some(model.BitString{Bits: 1 << bit})
	decPush(d, &d.arps, model.AuditReturnParameter{Kind: model.AuditReturnParameter_EmptyDescriptors, EmptyDescriptors: e})
}

func (d *decoder) auditDescriptor(kw span, n int) {
	ps, objs := d.items(n)
	a := decOne(&d.sl.AuditDescriptor)
	d.auditTokensOnce(ps, kw, "Audit")
	d.auditItems(a, ps)
	d.drop(ps, objs)
	d.pushObj(a)
}

// auditItems fills a from the audit items among ps.
func (d *decoder) auditItems(a *model.AuditDescriptor, ps []decParam) {
	var bits uint64
	tokens, nInd := false, 0
	for _, p := range ps {
		switch p.kind {
		case pAuditToken:
			bits |= 1 << p.u
			tokens = true
		case pIndAud:
			d.need(2, p.tok, "a descriptor with a body in an audit")
			nInd++
		}
	}
	if tokens {
		b := model.BitString{Bits: bits}
		b.Len = b.MinLen()
		a.AuditToken = model.Some(b)
	}
	if nInd > 0 {
		a.AuditPropertyToken = decTake(&d.indAuds, &d.sl.IndAuditParameter, nInd)
	}
}

func (d *decoder) notifyRequest(ids int, withError bool) {
	r := decOne(&d.sl.NotifyRequest)
	if withError {
		r.ErrorDescriptor = decPop[model.ErrorDescriptor](d)
	}
	r.ObservedEventsDescriptor = *decPop[model.ObservedEventsDescriptor](d)
	r.TerminationID = d.termIDs(ids)
	decPush(d, &d.cmdReqs, model.CommandRequest{Command: model.Command{Kind: model.Command_NotifyReq, NotifyReq: r}})
}

func (d *decoder) notifyReply(ids int, withError bool) {
	r := decOne(&d.sl.NotifyReply)
	if withError {
		r.ErrorDescriptor = decPop[model.ErrorDescriptor](d)
	}
	r.TerminationID = d.termIDs(ids)
	decPush(d, &d.cmdReps, model.CommandReply{Kind: model.CommandReply_NotifyReply, NotifyReply: r})
}

func (d *decoder) serviceChangeRequest(ids int) {
	r := decOne(&d.sl.ServiceChangeRequest)
	r.ServiceChangeParms = *decPop[model.ServiceChangeParm](d)
	r.TerminationID = d.termIDs(ids)
	decPush(d, &d.cmdReqs, model.CommandRequest{Command: model.Command{Kind: model.Command_ServiceChangeReq, ServiceChangeReq: r}})
}

func (d *decoder) serviceChangeReply(ids, kind int) {
	r := decOne(&d.sl.ServiceChangeReply)
	switch kind {
	case serviceChangeReplyError:
		r.ServiceChangeResult = model.ServiceChangeResult{
			Kind:            model.ServiceChangeResult_ErrorDescriptor,
			ErrorDescriptor: decPop[model.ErrorDescriptor](d),
		}
	case serviceChangeReplyParms:
		r.ServiceChangeResult = model.ServiceChangeResult{
			Kind:                  model.ServiceChangeResult_ServiceChangeResParms,
			ServiceChangeResParms: decPop[model.ServiceChangeResParm](d),
		}
	default:
		r.ServiceChangeResult = model.ServiceChangeResult{
			Kind:                  model.ServiceChangeResult_ServiceChangeResParms,
			ServiceChangeResParms: decOne(&d.sl.ServiceChangeResParm),
		}
	}
	r.TerminationID = d.termIDs(ids)
	decPush(d, &d.cmdReps, model.CommandReply{Kind: model.CommandReply_ServiceChangeReply, ServiceChangeReply: r})
}

func (d *decoder) errorDescriptor(code, text span, hasText bool) {
	e := decOne(&d.sl.ErrorDescriptor)
	e.ErrorCode = d.num16(code, "error code")
	if hasText {
		e.ErrorText = model.Some(d.str(text))
	}
	d.pushObj(e)
}

// ---------------------------------------------------------------------
// Addresses.

// mID builds an mId from its token: for an address, "[...]" or "<...>"
// and perhaps ":port".
func (d *decoder) mID(kind model.MIdKind, s span) {
	m := decOne(&d.sl.MId)
	m.Kind = kind
	var p model.Opt[uint32]
	switch kind {
	case model.MId_Ip4Address, model.MId_Ip6Address, model.MId_DomainName:
		w := d.bytes(s)
		closer := byte(']')
		if w[0] == '<' {
			closer = '>'
		}
		// The scanner's token (address) has one closer, followed by at
		// most a ":port": looked for from the end, it is a few bytes
		// away. The scanner knows where an IPv4 address ends.
		end := d.sc.ip4At.end
		if kind != model.MId_Ip4Address || d.sc.ip4At.pos != s.pos+1 {
			end = s.pos + int32(bytes.LastIndexByte(w, closer))
		}
		if end+1 < s.end {
			p = model.Some(d.num16(span{end + 2, s.end}, "port number"))
		}
		s = span{s.pos + 1, end}
	}
	switch kind {
	case model.MId_Ip4Address:
		a := decOne(&d.sl.IP4Address)
		a.Address, a.PortNumber = d.ip4(s), p
		m.Ip4Address = a
	case model.MId_Ip6Address:
		a := decOne(&d.sl.IP6Address)
		a.Address, a.PortNumber = d.ip6(s), p
		m.Ip6Address = a
	case model.MId_DomainName:
		w := d.bytes(s)
		ok := len(w) > 0 && len(w) <= 64 && charClass[w[0]]&chAlnum != 0
		for _, c := range w {
			ok = ok && (charClass[c]&chAlnum != 0 || c == '-' || c == '.')
		}
		if !ok {
			d.failAt(s, "domain name "+d.quote(s)+" is not letters, digits, '-' and '.'")
		}
		a := decOne(&d.sl.DomainName)
		a.Name, a.PortNumber = d.str(s), p
		m.DomainName = a
	case model.MId_MtpAddress:
		w := d.bytes(s)
		ok := len(w) >= 4 && len(w) <= 8
		for _, c := range w {
			ok = ok && charClass[c]&chHex != 0
		}
		if !ok {
			d.failAt(s, "MTP address "+d.quote(s)+" is not 4 to 8 hex digits")
		}
		m.MtpAddress = d.octets(s)
	default:
		m.DeviceName = d.str(s)
	}
	d.pushObj(m)
}

func (d *decoder) ip4(s span) model.Octets {
	if s == d.sc.ip4At {
		// the scanner has read it (scanner.readIP4)
		out := d.sl.bytes.Raw(4)
		copy(out, d.sc.ip4[:])
		return out
	}
	out := d.sl.bytes.Zeroed(4)
	if !ip4Parts(d.bytes(s), out) {
		d.failAt(s, "IPv4 address "+d.quote(s)+" is not four numbers 0..255 with dots")
	}
	return out
}

// ip4Parts reads the four numbers of an IPv4 address, all of w, into out.
func ip4Parts(w []byte, out []byte) bool {
	n, ok := ip4Prefix(w, (*[4]byte)(out[:4]))
	return ok && n == len(w)
}

// ip4Prefix reads the four numbers of an IPv4 address at the start of w
// into out: each one to three digits and at most 255, with dots between
// them. Each number is read digit by digit without a loop, its end the
// first byte that is not a digit. It returns how many bytes it read.
func ip4Prefix(w []byte, out *[4]byte) (int, bool) {
	i := 0
	for part := range out {
		if part > 0 {
			if i >= len(w) || w[i] != '.' {
				return 0, false
			}
			i++
		}
		if i >= len(w) || w[i]-'0' > 9 {
			return 0, false
		}
		n := uint(w[i] - '0')
		if i++; i < len(w) && w[i]-'0' <= 9 {
			n = n*10 + uint(w[i]-'0')
			if i++; i < len(w) && w[i]-'0' <= 9 {
				n = n*10 + uint(w[i]-'0')
				i++
			}
		}
		if n > 255 {
			return 0, false
		}
		out[part] = byte(n)
	}
	return i, true
}

func (d *decoder) ip6(s span) model.Octets {
	out := d.sl.bytes.Zeroed(16)
	a, err := netip.ParseAddr(d.str(s))
	if err != nil || !a.Is6() || a.Zone() != "" {
		d.failAt(s, "IPv6 address "+d.quote(s)+" is not an IPv6 address")
		return out
	}
	b := a.As16()
	copy(out, b[:])
	return out
}
