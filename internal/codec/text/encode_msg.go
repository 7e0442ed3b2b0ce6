package text

import (
	"megaco/internal/codec/codecerr"
	"megaco/internal/model"
)

// This file writes the message, its transactions, actions and commands.
// The layout follows Erlang/OTP megaco 4.4's text encoders
// (megaco_{pretty,compact}_text_encoder_v1..v3) construct by construct,
// including their indentation habits; where OTP's output would not be
// text of the version's grammar, or OTP fails on a message, the grammar
// wins and the comment says so.

func (e *textEncoder) megacoMessage(m *model.MegacoMessage) error {
	if m.AuthHeader != nil {
		if err := e.authHeader(m.AuthHeader); err != nil {
			return codecerr.At(err, "authHeader")
		}
	}
	if err := e.message(&m.Mess); err != nil {
		return codecerr.At(err, "mess")
	}
	return nil
}

// authHeader writes "Authentication = 0xSPI:0xSEQ:0xDATA" and a line end.
// (OTP v2/v3 write octets below 0x10 as three digits; this writes two, as
// the grammar says.)
func (e *textEncoder) authHeader(a *model.AuthenticationHeader) error {
	e.w(wAuth)
	e.eq()
	if err := e.hexOctets(a.SecParmIndex, 4, 4); err != nil {
		return codecerr.At(err, "secParmIndex")
	}
	e.b = append(e.b, ':')
	if err := e.hexOctets(a.SeqNum, 4, 4); err != nil {
		return codecerr.At(err, "seqNum")
	}
	e.b = append(e.b, ':')
	if err := e.hexOctets(a.Ad, 12, 32); err != nil {
		return codecerr.At(err, "ad")
	}
	e.b = append(e.b, '\n')
	return nil
}

const encHexDigits = "0123456789ABCDEF"

func (e *textEncoder) hexOctets(o model.Octets, min, max int) error {
	if len(o) < min || len(o) > max {
		return encErrNoTextf("%d octets, want %d to %d", len(o), min, max)
	}
	e.b = append(e.b, "0x"...)
	for _, c := range o {
		e.b = append(e.b, encHexDigits[c>>4], encHexDigits[c&15])
	}
	return nil
}

func (e *textEncoder) message(m *model.Message) error {
	e.w(wMegacop)
	e.b = append(e.b, '/')
	e.uint(uint64(e.v))
	e.b = append(e.b, ' ')
	if err := e.mID(&m.MId); err != nil {
		return codecerr.At(err, "mId")
	}
	e.b = append(e.b, '\n')
	body := &m.MessageBody
	switch body.Kind {
	case model.MessageMessageBody_MessageError:
		if body.MessageError == nil {
			return codecerr.At(codecerr.At(encErrNoText("missing error descriptor"), "messageError"), "messageBody")
		}
		if err := e.errorDescriptor(body.MessageError); err != nil {
			return codecerr.At(codecerr.At(err, "messageError"), "messageBody")
		}
	case model.MessageMessageBody_Transactions:
		if len(body.Transactions) == 0 {
			return codecerr.At(codecerr.At(encErrNoText("a message needs at least one transaction"), "transactions"), "messageBody")
		}
		// Transactions follow each other without a separator, as OTP
		// writes them.
		for i := range body.Transactions {
			if err := e.transaction(&body.Transactions[i]); err != nil {
				return codecerr.At(codecerr.At(codecerr.AtIndex(err, i), "transactions"), "messageBody")
			}
		}
	default:
		return codecerr.At(encErrNoTextf("no alternative chosen (kind %d)", body.Kind), "messageBody")
	}
	return nil
}

// mID writes a MId: [a.b.c.d]:port, [IPv6]:port, <domain>:port, a device
// name or MTP{hex}.
func (e *textEncoder) mID(m *model.MId) error {
	switch m.Kind {
	case model.MId_Ip4Address:
		return codecerr.At(e.ip4(m.Ip4Address), "ip4Address")
	case model.MId_Ip6Address:
		return codecerr.At(e.ip6(m.Ip6Address), "ip6Address")
	case model.MId_DomainName:
		return codecerr.At(e.domainName(m.DomainName), "domainName")
	case model.MId_DeviceName:
		return codecerr.At(e.pathName(m.DeviceName, "device name"), "deviceName")
	case model.MId_MtpAddress:
		return codecerr.At(e.mtp(m.MtpAddress), "mtpAddress")
	}
	return encErrNoTextf("no alternative chosen (kind %d)", m.Kind)
}

func (e *textEncoder) port(p model.Opt[uint32]) error {
	if !p.Present {
		return nil
	}
	e.b = append(e.b, ':')
	return codecerr.At(e.uint16(p.Value), "portNumber")
}

func (e *textEncoder) ip4(a *model.IP4Address) error {
	if a == nil {
		return encErrNoText("missing address")
	}
	if len(a.Address) != 4 {
		return codecerr.At(encErrNoTextf("IPv4 address of %d octets", len(a.Address)), "address")
	}
	e.b = append(e.b, '[')
	for i, c := range a.Address {
		if i > 0 {
			e.b = append(e.b, '.')
		}
		e.uint(uint64(c))
	}
	e.b = append(e.b, ']')
	return e.port(a.PortNumber)
}

// ip6 writes an IPv6 address as OTP does: upper-case groups without
// leading zeros, the first run of two or more zero groups as "::" (a lone
// zero group stays "0").
func (e *textEncoder) ip6(a *model.IP6Address) error {
	if a == nil {
		return encErrNoText("missing address")
	}
	if len(a.Address) != 16 {
		return codecerr.At(encErrNoTextf("IPv6 address of %d octets", len(a.Address)), "address")
	}
	var g [8]uint16
	for i := range g {
		g[i] = uint16(a.Address[2*i])<<8 | uint16(a.Address[2*i+1])
	}
	// The run OTP compresses: the first one of length >= 2.
	start, n := -1, 0
	for i := 0; i < 8; {
		if g[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && g[j] == 0 {
			j++
		}
		if j-i >= 2 {
			start, n = i, j-i
			break
		}
		i = j
	}
	e.b = append(e.b, '[')
	for i := 0; i < 8; i++ {
		if i == start {
			e.b = append(e.b, "::"...)
			i += n - 1
			continue
		}
		if i > 0 && i != start+n {
			e.b = append(e.b, ':')
		}
		e.hex16(g[i])
	}
	e.b = append(e.b, ']')
	return e.port(a.PortNumber)
}

func (e *textEncoder) hex16(v uint16) {
	started := false
	for s := 12; s >= 0; s -= 4 {
		d := (v >> s) & 15
		if d != 0 || started || s == 0 {
			e.b = append(e.b, encHexDigits[d])
			started = true
		}
	}
}

func (e *textEncoder) domainName(d *model.DomainName) error {
	if d == nil {
		return encErrNoText("missing domain name")
	}
	s := d.Name
	if len(s) == 0 || len(s) > 64 {
		return codecerr.At(encErrNoTextf("domain name of %d characters (1..64)", len(s)), "name")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if charClass[c]&chName == 0 && c != '-' && c != '.' || c == '_' {
			return codecerr.At(encErrNoTextf("domain name %q: character %q is not allowed", s, c), "name")
		}
	}
	e.b = append(e.b, '<')
	e.b = append(e.b, s...)
	e.b = append(e.b, '>')
	return e.port(d.PortNumber)
}

// pathName writes a deviceName (pathNAME).
func (e *textEncoder) pathName(s, what string) error {
	if len(s) == 0 || len(s) > 64 {
		return encErrNoTextf("%s of %d characters (1..64)", what, len(s))
	}
	for i := 0; i < len(s); i++ {
		if charClass[s[i]]&(chName|chPath) == 0 {
			return encErrNoTextf("%s %q: character %q is not allowed in a pathNAME", what, s, s[i])
		}
	}
	e.b = append(e.b, s...)
	return nil
}

// mtp writes MTP{hex}; the text form holds the hex digits (mapping.Config
// PackMTP converts packed octets).
func (e *textEncoder) mtp(o model.Octets) error {
	for _, c := range o {
		if charClass[c]&chHex == 0 {
			if encBinaryByte(c) {
				return encErrBinary(encSprintf("MTP address %X is in binary form; convert the message with mapping.ToText (PackMTP) before a text encode", []byte(o)))
			}
			return encErrNoTextf("MTP address %q: want hex digits", []byte(o))
		}
	}
	if len(o) < 4 || len(o) > 8 {
		return encErrNoTextf("MTP address %q: want 4 to 8 hex digits", []byte(o))
	}
	e.w(wMTP)
	e.openInline()
	e.b = append(e.b, o...)
	e.closeInline()
	return nil
}

func (e *textEncoder) transaction(t *model.Transaction) error {
	switch t.Kind {
	case model.Transaction_TransactionRequest:
		if t.TransactionRequest == nil {
			return codecerr.At(encErrNoText("missing transaction request"), "transactionRequest")
		}
		return codecerr.At(e.transactionRequest(t.TransactionRequest, 0), "transactionRequest")
	case model.Transaction_TransactionPending:
		if t.TransactionPending == nil {
			return codecerr.At(encErrNoText("missing transaction pending"), "transactionPending")
		}
		e.w(wPending)
		e.eq()
		e.uint(uint64(t.TransactionPending.TransactionId))
		e.open(0)
		e.close(0)
		return nil
	case model.Transaction_TransactionReply:
		if t.TransactionReply == nil {
			return codecerr.At(encErrNoText("missing transaction reply"), "transactionReply")
		}
		return codecerr.At(e.transactionReply(t.TransactionReply, 0), "transactionReply")
	case model.Transaction_TransactionResponseAck:
		return codecerr.At(e.responseAck(t.TransactionResponseAck, 0), "transactionResponseAck")
	case model.Transaction_SegmentReply:
		if e.v < 3 {
			return e.onlyIn("segmentReply", "a segment reply", 3)
		}
		s := t.SegmentReply
		if s == nil {
			return codecerr.At(encErrNoText("missing segment reply"), "segmentReply")
		}
		e.w(wMessageSegment)
		e.eq()
		e.uint(uint64(s.TransactionId))
		e.b = append(e.b, '/')
		if err := e.uint16(s.SegmentNumber); err != nil {
			return codecerr.At(codecerr.At(err, "segmentNumber"), "segmentReply")
		}
		if s.SegmentationComplete {
			e.b = append(e.b, '/')
			e.w(wSegmentationComplete)
		}
		return nil
	}
	return encErrNoTextf("no alternative chosen (kind %d)", t.Kind)
}

func (e *textEncoder) transactionRequest(r *model.TransactionRequest, ind int) error {
	if len(r.Actions) == 0 {
		return codecerr.At(encErrNoText("a transaction request needs at least one action"), "actions")
	}
	e.w(wTrans)
	e.eq()
	e.uint(uint64(r.TransactionId))
	e.open(ind)
	for i := range r.Actions {
		if i > 0 {
			e.sep(ind + 1)
		}
		if err := e.actionRequest(&r.Actions[i], ind+1); err != nil {
			return codecerr.At(codecerr.AtIndex(err, i), "actions")
		}
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) transactionReply(r *model.TransactionReply, ind int) error {
	e.w(wReply)
	e.eq()
	e.uint(uint64(r.TransactionId))
	if r.SegmentNumber.Present {
		if e.v < 3 {
			return e.onlyIn("segmentNumber", "a segment number", 3)
		}
		e.b = append(e.b, '/')
		if err := e.uint16(r.SegmentNumber.Value); err != nil {
			return codecerr.At(err, "segmentNumber")
		}
		if r.SegmentationComplete {
			e.b = append(e.b, '/')
			e.w(wSegmentationComplete)
		}
	} else if r.SegmentationComplete {
		if e.v < 3 {
			return e.onlyIn("segmentationComplete", "segmentation complete", 3)
		}
		return codecerr.At(encErrNoText("segmentation complete without a segment number has no text form"), "segmentationComplete")
	}
	e.open(ind)
	if r.ImmAckRequired {
		e.w(wImmAckRequired)
		e.sep(ind + 1)
	}
	res := &r.TransactionResult
	switch res.Kind {
	case model.TransactionReplyTransactionResult_TransactionError:
		if res.TransactionError == nil {
			return codecerr.At(codecerr.At(encErrNoText("missing error descriptor"), "transactionError"), "transactionResult")
		}
		if err := e.errorDescriptor(res.TransactionError); err != nil {
			return codecerr.At(codecerr.At(err, "transactionError"), "transactionResult")
		}
	case model.TransactionReplyTransactionResult_ActionReplies:
		if len(res.ActionReplies) == 0 {
			return codecerr.At(codecerr.At(encErrNoText("a transaction reply needs an error or at least one action reply"), "actionReplies"), "transactionResult")
		}
		for i := range res.ActionReplies {
			if i > 0 {
				e.sep(ind + 1)
			}
			if err := e.actionReply(&res.ActionReplies[i], ind+1); err != nil {
				return codecerr.At(codecerr.At(codecerr.AtIndex(err, i), "actionReplies"), "transactionResult")
			}
		}
	default:
		return codecerr.At(encErrNoTextf("no alternative chosen (kind %d)", res.Kind), "transactionResult")
	}
	e.close(ind)
	return nil
}

// responseAck writes TransactionResponseAck{a-b, c}. OTP v1 indents the
// acks after the first one level deeper than v2 and v3 do.
func (e *textEncoder) responseAck(acks []model.TransactionAck, ind int) error {
	if len(acks) == 0 {
		return encErrNoText("a transaction response ack needs at least one transaction")
	}
	e.w(wResponseAck)
	e.open(ind)
	for i := range acks {
		if i > 0 {
			if e.v == 1 {
				e.sep(ind + 1)
			} else {
				e.sep(ind)
			}
		}
		a := &acks[i]
		e.uint(uint64(a.FirstAck))
		if a.LastAck.Present {
			e.b = append(e.b, '-')
			e.uint(uint64(a.LastAck.Value))
		}
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) errorDescriptor(d *model.ErrorDescriptor) error {
	if d == nil {
		return encErrNoText("missing descriptor")
	}
	if d.ErrorCode > 9999 {
		return codecerr.At(encErrNoTextf("error code %d has more than 4 digits", d.ErrorCode), "errorCode")
	}
	e.w(wError)
	e.eq()
	e.uint(uint64(d.ErrorCode))
	e.openInline()
	if d.ErrorText.Present {
		if err := encAppendQuoted(e, d.ErrorText.Value, "error text"); err != nil {
			return codecerr.At(err, "errorText")
		}
	}
	e.closeInline()
	return nil
}

func (e *textEncoder) contextID(id uint32) {
	switch id {
	case 0:
		e.b = append(e.b, '-')
	case 0xFFFFFFFE:
		e.b = append(e.b, '$')
	case 0xFFFFFFFF:
		e.b = append(e.b, '*')
	default:
		e.uint(uint64(id))
	}
}

func (e *textEncoder) requestID(id uint32) {
	if id == 0xFFFFFFFF {
		e.b = append(e.b, '*')
		return
	}
	e.uint(uint64(id))
}

// actionRequest writes Context = id { properties, audit, commands }. (OTP
// v1 and v2 put the ContextAudit before the context properties; the
// grammar of every version wants it after them, as OTP v3 writes it.)
func (e *textEncoder) actionRequest(a *model.ActionRequest, ind int) error {
	e.w(wCtx)
	e.eq()
	e.contextID(a.ContextId)
	e.open(ind)
	body := len(e.b)
	var l itemList
	if a.ContextRequest != nil {
		if err := e.contextProperties(&l, a.ContextRequest, ind+1); err != nil {
			return codecerr.At(err, "contextRequest")
		}
	}
	if a.ContextAttrAuditReq != nil {
		if err := e.contextAudit(&l, a.ContextAttrAuditReq, ind+1); err != nil {
			return codecerr.At(err, "contextAttrAuditReq")
		}
	}
	if err := encItems(e, &l, ind+1, "commandRequests", a.CommandRequests, e.commandRequest); err != nil {
		return err
	}
	if len(e.b) == body {
		return encErrNoText("an action request needs a context property, a context audit or a command")
	}
	e.close(ind)
	return nil
}

// actionReply writes Context = id { properties, command replies, error }.
// With nothing inside it is bare "Context = id", which only the v3
// grammar allows.
func (e *textEncoder) actionReply(a *model.ActionReply, ind int) error {
	start := len(e.b)
	e.w(wCtx)
	e.eq()
	e.contextID(a.ContextId)
	open := len(e.b)
	e.open(ind)
	body := len(e.b)
	var l itemList
	if a.ContextReply != nil {
		if err := e.contextProperties(&l, a.ContextReply, ind+1); err != nil {
			return codecerr.At(err, "contextReply")
		}
	}
	if err := encItems(e, &l, ind+1, "commandReply", a.CommandReply, e.commandReply); err != nil {
		return err
	}
	if a.ErrorDescriptor != nil {
		e.item(&l, ind+1)
		if err := e.errorDescriptor(a.ErrorDescriptor); err != nil {
			return codecerr.At(err, "errorDescriptor")
		}
	}
	if len(e.b) == body {
		if e.v < 3 {
			e.b = e.b[:start]
			return encErrVersion(encSprintf("an empty action reply (bare Context = id) is not in the version %d text grammar (it needs version 3)", e.v))
		}
		e.b = e.b[:open]
		return nil
	}
	e.close(ind)
	return nil
}

// contextProperties writes the items of a ContextRequest (Priority,
// Emergency, Topology, IEPSCall, ContextAttr) into the list l.
func (e *textEncoder) contextProperties(l *itemList, c *model.ContextRequest, ind int) error {
	if c.Priority.Present {
		e.item(l, ind)
		e.w(wPriority)
		e.eq()
		if err := e.uint16(c.Priority.Value); err != nil {
			return codecerr.At(err, "priority")
		}
	}
	if c.Emergency.Present {
		switch {
		case c.Emergency.Value:
			e.item(l, ind)
			e.w(wEmergency)
		case e.v >= 3:
			e.item(l, ind)
			e.w(wEmergencyOff)
		case e.v == 2:
			// The v2 grammar has no EmergencyOff, but OTP's v2 writes
			// and reads it, spelt "EmergencyOffToken" and "EGO".
			e.item(l, ind)
			if e.pretty {
				e.str("EmergencyOffToken")
			} else {
				e.w(wEmergencyOff)
			}
		default:
			// OTP v1 drops it silently; its parser rejects both
			// spellings.
			return e.onlyIn("emergency", "EmergencyOff (emergency FALSE)", 2)
		}
	}
	if len(c.TopologyReq) > 0 {
		e.item(l, ind)
		if err := e.topology(c.TopologyReq, ind); err != nil {
			return codecerr.At(err, "topologyReq")
		}
	}
	if c.Iepscallind.Present {
		if e.v < 3 {
			return e.onlyIn("iepscallind", "IEPSCall", 3)
		}
		e.item(l, ind)
		e.onOff(wIEPS, c.Iepscallind.Value)
	}
	if len(c.ContextProp) > 0 {
		if e.v < 3 {
			return e.onlyIn("contextProp", "ContextAttr", 3)
		}
		e.item(l, ind)
		// OTP indents the properties after the first one level less.
		e.w(wContextAttr)
		e.open(ind)
		for i := range c.ContextProp {
			if i > 0 {
				e.sep(ind)
			}
			if err := e.propertyParm(&c.ContextProp[i], ind); err != nil {
				return codecerr.At(codecerr.AtIndex(err, i), "contextProp")
			}
		}
		e.close(ind)
	}
	if len(c.ContextList) > 0 {
		if e.v < 3 {
			return e.onlyIn("contextList", "ContextList", 3)
		}
		e.item(l, ind)
		e.w(wContextAttr)
		e.open(ind)
		e.w(wContextList)
		e.eq()
		e.open(ind + 1)
		for i, id := range c.ContextList {
			if i > 0 {
				e.sep(ind + 2)
			}
			e.contextID(id)
		}
		e.close(ind + 1)
		e.close(ind)
	}
	return nil
}

func (e *textEncoder) onOff(w word, on bool) {
	e.w(w)
	e.eq()
	if on {
		e.b = append(e.b, "ON"...)
	} else {
		e.b = append(e.b, "OFF"...)
	}
}

func (e *textEncoder) topology(ts []model.TopologyRequest, ind int) error {
	e.w(wTopology)
	e.open(ind)
	in := ind + 1 // where the parts of a triple after the first go
	if e.v < 3 {
		in++ // OTP v1 and v2 indent them one level deeper
	}
	for i := range ts {
		if i > 0 {
			e.sep(ind + 1)
		}
		t := &ts[i]
		if err := e.termID(&t.TerminationFrom); err != nil {
			return codecerr.AtIndex(codecerr.At(err, "terminationFrom"), i)
		}
		e.sep(in)
		if err := e.termID(&t.TerminationTo); err != nil {
			return codecerr.AtIndex(codecerr.At(err, "terminationTo"), i)
		}
		e.sep(in)
		switch t.TopologyDirection {
		case model.TopologyRequestTopologyDirection_Bothway:
			e.w(wBothway)
		case model.TopologyRequestTopologyDirection_Isolate:
			e.w(wIsolate)
		case model.TopologyRequestTopologyDirection_Oneway:
			e.w(wOneway)
		default:
			return codecerr.AtIndex(codecerr.At(encErrNoTextf("unknown topology direction %d", t.TopologyDirection), "topologyDirection"), i)
		}
		if t.StreamID.Present {
			if e.v < 2 {
				return codecerr.AtIndex(e.onlyIn("streamID", "a topology stream", 2), i)
			}
			e.sep(in)
			e.w(wStream)
			e.eq()
			if err := e.uint16(t.StreamID.Value); err != nil {
				return codecerr.AtIndex(codecerr.At(err, "streamID"), i)
			}
		}
		if t.TopologyDirectionExtension.Present {
			if e.v < 3 {
				return codecerr.AtIndex(e.onlyIn("topologyDirectionExtension", "a topology direction extension", 3), i)
			}
			// OTP writes the extension as one more item after the
			// direction: "Oneway, OnewayBoth".
			e.sep(in)
			switch t.TopologyDirectionExtension.Value {
			case model.TopologyRequestTopologyDirectionExtension_Onewayexternal:
				e.w(wOnewayExternal)
			case model.TopologyRequestTopologyDirectionExtension_Onewayboth:
				e.w(wOnewayBoth)
			default:
				return codecerr.AtIndex(codecerr.At(encErrNoTextf("unknown topology direction extension %d", t.TopologyDirectionExtension.Value), "topologyDirectionExtension"), i)
			}
		}
	}
	e.close(ind)
	return nil
}

// contextAudit writes ContextAudit { ... } into the list l, or nothing
// when it has no item (OTP writes nothing for an empty one too).
func (e *textEncoder) contextAudit(l *itemList, c *model.ContextAttrAuditRequest, ind int) error {
	if e.v < 3 {
		switch {
		case c.Iepscallind:
			return e.onlyIn("iepscallind", "IEPSCall in a context audit", 3)
		case len(c.ContextPropAud) > 0:
			return e.onlyIn("contextPropAud", "context property audit", 3)
		case c.Selectpriority.Present:
			return e.onlyIn("selectpriority", "priority selection", 3)
		case c.Selectemergency.Present:
			return e.onlyIn("selectemergency", "emergency selection", 3)
		case c.Selectiepscallind.Present:
			return e.onlyIn("selectiepscallind", "IEPSCall selection", 3)
		case c.SelectLogic != nil:
			return e.onlyIn("selectLogic", "audit selection logic", 3)
		}
	}
	e.item(l, ind)
	before := len(e.b)
	e.w(wContextAudit)
	e.open(ind)
	inner := len(e.b)
	var il itemList
	e.keywordItem(&il, ind+1, c.Topology, wTopology)
	e.keywordItem(&il, ind+1, c.Emergency, wEmergency)
	e.keywordItem(&il, ind+1, c.Priority, wPriority)
	e.keywordItem(&il, ind+1, c.Iepscallind, wIEPS)
	if err := encItems(e, &il, ind+1, "contextPropAud", c.ContextPropAud, e.indAudPropertyParm); err != nil {
		return err
	}
	if c.Selectpriority.Present {
		e.item(&il, ind+1)
		e.w(wPriority)
		e.eq()
		if err := e.uint16(c.Selectpriority.Value); err != nil {
			return codecerr.At(err, "selectpriority")
		}
	}
	if c.Selectemergency.Present {
		e.item(&il, ind+1)
		e.w(wEmergencyValue)
		e.eq()
		if c.Selectemergency.Value {
			e.w(wEmergency)
		} else {
			e.w(wEmergencyOff)
		}
	}
	if c.Selectiepscallind.Present {
		e.item(&il, ind+1)
		e.onOff(wIEPS, c.Selectiepscallind.Value)
	}
	if c.SelectLogic != nil {
		switch c.SelectLogic.Kind {
		case model.SelectLogic_AndAUDITSelect:
			// AND is the default: OTP writes nothing.
		case model.SelectLogic_OrAUDITSelect:
			e.item(&il, ind+1)
			e.w(wOrAUDITselect)
		default:
			return codecerr.At(encErrNoTextf("no alternative chosen (kind %d)", c.SelectLogic.Kind), "selectLogic")
		}
	}
	if len(e.b) == inner {
		e.b = e.b[:before]
		e.done(l, before)
		return nil
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) commandRequest(c *model.CommandRequest, ind int) error {
	if c.Optional {
		e.b = append(e.b, "O-"...)
	}
	if c.WildcardReturn {
		e.b = append(e.b, "W-"...)
	}
	cmd := &c.Command
	switch cmd.Kind {
	case model.Command_AddReq:
		return codecerr.At(codecerr.At(e.ammRequest(wAdd, cmd.AddReq, ind), "addReq"), "command")
	case model.Command_MoveReq:
		return codecerr.At(codecerr.At(e.ammRequest(wMove, cmd.MoveReq, ind), "moveReq"), "command")
	case model.Command_ModReq:
		return codecerr.At(codecerr.At(e.ammRequest(wModify, cmd.ModReq, ind), "modReq"), "command")
	case model.Command_SubtractReq:
		return codecerr.At(codecerr.At(e.subtractRequest(cmd.SubtractReq, ind), "subtractReq"), "command")
	case model.Command_AuditCapRequest:
		return codecerr.At(codecerr.At(e.auditRequest(wAuditCap, cmd.AuditCapRequest, ind), "auditCapRequest"), "command")
	case model.Command_AuditValueRequest:
		return codecerr.At(codecerr.At(e.auditRequest(wAuditValue, cmd.AuditValueRequest, ind), "auditValueRequest"), "command")
	case model.Command_NotifyReq:
		return codecerr.At(codecerr.At(e.notifyRequest(cmd.NotifyReq, ind), "notifyReq"), "command")
	case model.Command_ServiceChangeReq:
		return codecerr.At(codecerr.At(e.serviceChangeRequest(cmd.ServiceChangeReq, ind), "serviceChangeReq"), "command")
	}
	return codecerr.At(encErrNoTextf("no alternative chosen (kind %d)", cmd.Kind), "command")
}

// commandHead writes "Keyword = ids", the start of a command or reply.
func (e *textEncoder) commandHead(w word, ids []model.TerminationID, ind int) error {
	e.w(w)
	e.eq()
	return e.termIDList(ids, ind, "terminationID")
}

// termIDList writes one termination ID, or from v3 on several as
// [id, id] (termIDList). Before v3 a command names exactly one.
func (e *textEncoder) termIDList(ids []model.TerminationID, ind int, field string) error {
	switch {
	case len(ids) == 0:
		return codecerr.At(encErrNoText("no termination ID"), field)
	case len(ids) == 1:
		return codecerr.At(codecerr.AtIndex(e.termID(&ids[0]), 0), field)
	case e.v < 3:
		return codecerr.At(encErrVersion(encSprintf("a list of %d termination IDs is not in the version %d text grammar (it needs version 3)", len(ids), e.v)), field)
	}
	e.openSquare(ind)
	for i := range ids {
		if i > 0 {
			e.sep(ind + 1)
		}
		if err := e.termID(&ids[i]); err != nil {
			return codecerr.At(codecerr.AtIndex(err, i), field)
		}
	}
	e.closeSquare(ind)
	return nil
}

// terminationIDList writes { id, id } (Mux, ContextAudit results). OTP
// puts the IDs after the first one level less deep.
func (e *textEncoder) terminationIDList(ids []model.TerminationID, ind int) error {
	if len(ids) == 0 {
		return encErrNoText("an empty termination ID list has no text form")
	}
	e.open(ind)
	for i := range ids {
		if i > 0 {
			e.sep(ind)
		}
		if err := e.termID(&ids[i]); err != nil {
			return codecerr.AtIndex(err, i)
		}
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) ammRequest(w word, r *model.AmmRequest, ind int) error {
	if r == nil {
		return encErrNoText("missing request")
	}
	if err := e.commandHead(w, r.TerminationID, ind); err != nil {
		return err
	}
	if len(r.Descriptors) == 0 {
		return nil
	}
	e.open(ind)
	for i := range r.Descriptors {
		if i > 0 {
			e.sep(ind + 1)
		}
		if err := e.ammDescriptor(&r.Descriptors[i], ind+1); err != nil {
			return codecerr.At(codecerr.AtIndex(err, i), "descriptors")
		}
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) subtractRequest(r *model.SubtractRequest, ind int) error {
	if r == nil {
		return encErrNoText("missing request")
	}
	if err := e.commandHead(wSubtract, r.TerminationID, ind); err != nil {
		return err
	}
	if r.AuditDescriptor != nil {
		e.open(ind)
		if err := e.auditDescriptor(r.AuditDescriptor, ind+1); err != nil {
			return codecerr.At(err, "auditDescriptor")
		}
		e.close(ind)
	}
	return nil
}

// auditRequest writes AuditValue/AuditCapability = ids { Audit {...} }. In
// v3 a terminationIDList, when present, names the IDs; it starts with the
// terminationID (OTP refuses anything else).
func (e *textEncoder) auditRequest(w word, r *model.AuditRequest, ind int) error {
	if r == nil {
		return encErrNoText("missing request")
	}
	e.w(w)
	e.eq()
	if r.TerminationIDList != nil {
		if e.v < 3 {
			return e.onlyIn("terminationIDList", "a termination ID list", 3)
		}
		l := r.TerminationIDList
		if len(l) == 0 || string(l[0].Id) != string(r.TerminationID.Id) || len(l[0].Wildcard) != len(r.TerminationID.Wildcard) {
			return codecerr.At(encErrNoText("the terminationIDList must start with the terminationID"), "terminationIDList")
		}
		if err := e.termIDList(l, ind, "terminationIDList"); err != nil {
			return err
		}
	} else if err := e.termID(&r.TerminationID); err != nil {
		return codecerr.At(err, "terminationID")
	}
	e.open(ind)
	if err := e.auditDescriptor(&r.AuditDescriptor, ind+1); err != nil {
		return codecerr.At(err, "auditDescriptor")
	}
	e.close(ind)
	return nil
}

// notifyRequest writes Notify = ids { ObservedEvents..., Error }. (OTP v1
// and v2 drop the observed events when there is an error descriptor; the
// grammar of every version has both, as OTP v3 writes them, although
// OTP's parsers read only one of the two.)
func (e *textEncoder) notifyRequest(r *model.NotifyRequest, ind int) error {
	if r == nil {
		return encErrNoText("missing request")
	}
	if err := e.commandHead(wNotify, r.TerminationID, ind); err != nil {
		return err
	}
	e.open(ind)
	oed := &r.ObservedEventsDescriptor
	if r.ErrorDescriptor != nil && len(oed.ObservedEventLst) == 0 && oed.RequestId == 0 {
		// No observed events, only an error: "Notify = t { Error = ...
		// }", the one form with an error OTP's parsers read (and what
		// OTP v1 and v2 write whenever there is an error).
		if err := e.errorDescriptor(r.ErrorDescriptor); err != nil {
			return codecerr.At(err, "errorDescriptor")
		}
		e.close(ind)
		return nil
	}
	if err := e.observedEvents(oed, ind+1); err != nil {
		return codecerr.At(err, "observedEventsDescriptor")
	}
	if r.ErrorDescriptor != nil {
		e.b = append(e.b, ',')
		if e.pretty {
			e.b = append(e.b, ' ')
		}
		if err := e.errorDescriptor(r.ErrorDescriptor); err != nil {
			return codecerr.At(err, "errorDescriptor")
		}
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) serviceChangeRequest(r *model.ServiceChangeRequest, ind int) error {
	if r == nil {
		return encErrNoText("missing request")
	}
	if err := e.commandHead(wServiceChange, r.TerminationID, ind); err != nil {
		return err
	}
	e.open(ind)
	if err := e.serviceChangeParm(&r.ServiceChangeParms, ind+1); err != nil {
		return codecerr.At(err, "serviceChangeParms")
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) commandReply(c *model.CommandReply, ind int) error {
	switch c.Kind {
	case model.CommandReply_AddReply:
		return codecerr.At(e.ammsReply(wAdd, c.AddReply, ind), "addReply")
	case model.CommandReply_MoveReply:
		return codecerr.At(e.ammsReply(wMove, c.MoveReply, ind), "moveReply")
	case model.CommandReply_ModReply:
		return codecerr.At(e.ammsReply(wModify, c.ModReply, ind), "modReply")
	case model.CommandReply_SubtractReply:
		return codecerr.At(e.ammsReply(wSubtract, c.SubtractReply, ind), "subtractReply")
	case model.CommandReply_AuditCapReply:
		return codecerr.At(e.auditReply(wAuditCap, c.AuditCapReply, ind), "auditCapReply")
	case model.CommandReply_AuditValueReply:
		return codecerr.At(e.auditReply(wAuditValue, c.AuditValueReply, ind), "auditValueReply")
	case model.CommandReply_NotifyReply:
		r := c.NotifyReply
		if r == nil {
			return codecerr.At(encErrNoText("missing reply"), "notifyReply")
		}
		if err := e.commandHead(wNotify, r.TerminationID, ind); err != nil {
			return codecerr.At(err, "notifyReply")
		}
		if r.ErrorDescriptor != nil {
			e.open(ind)
			if err := e.errorDescriptor(r.ErrorDescriptor); err != nil {
				return codecerr.At(codecerr.At(err, "errorDescriptor"), "notifyReply")
			}
			e.close(ind)
		}
		return nil
	case model.CommandReply_ServiceChangeReply:
		return codecerr.At(e.serviceChangeReply(c.ServiceChangeReply, ind), "serviceChangeReply")
	}
	return encErrNoTextf("no alternative chosen (kind %d)", c.Kind)
}

func (e *textEncoder) ammsReply(w word, r *model.AmmsReply, ind int) error {
	if r == nil {
		return encErrNoText("missing reply")
	}
	if err := e.commandHead(w, r.TerminationID, ind); err != nil {
		return err
	}
	return codecerr.At(e.terminationAudit(r.TerminationAudit, ind), "terminationAudit")
}

// terminationAudit writes { auditReturnParameter, ... } when it has
// anything to say.
func (e *textEncoder) terminationAudit(ps []model.AuditReturnParameter, ind int) error {
	if len(ps) == 0 {
		return nil
	}
	start := len(e.b)
	e.open(ind)
	body := len(e.b)
	var l itemList
	for i := range ps {
		e.item(&l, ind+1)
		before := len(e.b)
		if err := e.auditReturnParameter(&ps[i], ind+1); err != nil {
			return codecerr.AtIndex(err, i)
		}
		e.done(&l, before)
	}
	if len(e.b) == body {
		e.b = e.b[:start]
		return nil
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) auditReply(w word, r *model.AuditReply, ind int) error {
	if r == nil {
		return encErrNoText("missing reply")
	}
	e.w(w)
	switch r.Kind {
	case model.AuditReply_ContextAuditResult:
		e.eq()
		e.w(wCtx)
		return codecerr.At(e.terminationIDList(r.ContextAuditResult, ind), "contextAuditResult")
	case model.AuditReply_Error:
		if r.Error == nil {
			return codecerr.At(encErrNoText("missing error descriptor"), "error")
		}
		e.eq()
		e.w(wCtx)
		e.open(ind)
		if err := e.errorDescriptor(r.Error); err != nil {
			return codecerr.At(err, "error")
		}
		e.close(ind)
		return nil
	case model.AuditReply_AuditResult:
		a := r.AuditResult
		if a == nil {
			return codecerr.At(encErrNoText("missing audit result"), "auditResult")
		}
		e.eq()
		if err := e.termID(&a.TerminationID); err != nil {
			return codecerr.At(codecerr.At(err, "terminationID"), "auditResult")
		}
		return codecerr.At(codecerr.At(e.terminationAudit(a.TerminationAuditResult, ind), "terminationAuditResult"), "auditResult")
	case model.AuditReply_AuditResultTermList:
		if e.v < 3 {
			return e.onlyIn("auditResultTermList", "an audit result for a termination ID list", 3)
		}
		a := r.AuditResultTermList
		if a == nil {
			return codecerr.At(encErrNoText("missing audit result"), "auditResultTermList")
		}
		e.eq()
		if err := e.termIDList(a.TerminationIDList, ind, "terminationIDList"); err != nil {
			return codecerr.At(err, "auditResultTermList")
		}
		return codecerr.At(codecerr.At(e.terminationAudit(a.TerminationAuditResult, ind), "terminationAuditResult"), "auditResultTermList")
	}
	return encErrNoTextf("no alternative chosen (kind %d)", r.Kind)
}

func (e *textEncoder) serviceChangeReply(r *model.ServiceChangeReply, ind int) error {
	if r == nil {
		return encErrNoText("missing reply")
	}
	if err := e.commandHead(wServiceChange, r.TerminationID, ind); err != nil {
		return err
	}
	res := &r.ServiceChangeResult
	switch res.Kind {
	case model.ServiceChangeResult_ErrorDescriptor:
		if res.ErrorDescriptor == nil {
			return codecerr.At(codecerr.At(encErrNoText("missing error descriptor"), "errorDescriptor"), "serviceChangeResult")
		}
		e.open(ind)
		if err := e.errorDescriptor(res.ErrorDescriptor); err != nil {
			return codecerr.At(codecerr.At(err, "errorDescriptor"), "serviceChangeResult")
		}
		e.close(ind)
	case model.ServiceChangeResult_ServiceChangeResParms:
		p := res.ServiceChangeResParms
		if p == nil {
			return nil
		}
		start := len(e.b)
		e.open(ind)
		e.w(wServices)
		e.open(ind + 1)
		body := len(e.b)
		if err := e.serviceChangeResParm(p, ind+2); err != nil {
			return codecerr.At(codecerr.At(err, "serviceChangeResParms"), "serviceChangeResult")
		}
		if len(e.b) == body { // nothing to say: no braces at all
			e.b = e.b[:start]
			return nil
		}
		e.close(ind + 1)
		e.close(ind)
	default:
		return codecerr.At(encErrNoTextf("no alternative chosen (kind %d)", res.Kind), "serviceChangeResult")
	}
	return nil
}
