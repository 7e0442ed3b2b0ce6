package text

import (
	"bytes"

	"megaco/internal/codec/slab"
	"megaco/internal/model"
)

// The builder's actions for descriptors: media, streams, SDP, events,
// signals, digit maps, ServiceChange parameters, statistics.

func (d *decoder) mediaDescriptor(kw span, n int) {
	ps, objs := d.items(n)
	m := decOne(&d.sl.MediaDescriptor)
	var one *model.StreamParms
	nStreams, nStats, oi := 0, 0, 0
	for _, p := range ps {
		switch p.kind {
		case pStreamDescriptor:
			nStreams++
		case pStatistics:
			nStats += int(p.u)
		}
	}
	stats := decTake(&d.stats, &d.sl.StatisticsParameter, nStats)
	for _, p := range ps {
		switch p.kind {
		case pTerminationState:
			m.TermStateDescr = decObjAt[model.TerminationStateDescriptor](d, objs, &oi)
		case pLocal, pRemote, pLocalControl, pStatistics:
			if one == nil {
				one = decOne(&d.sl.StreamParms)
			}
			d.streamParm(one, p, objs, &oi, &stats)
		}
	}
	if one != nil && nStreams > 0 {
		d.failAt(kw, "a Media descriptor with both Stream descriptors and stream parameters outside them")
	}
	d.once(ps, kw, "Media")
	switch {
	case nStreams > 0:
		m.Streams = decOne(&d.sl.MediaDescriptorStreams)
		m.Streams.Kind = model.MediaDescriptorStreams_MultiStream
		m.Streams.MultiStream = decTake(&d.streams, &d.sl.StreamDescriptor, nStreams)
	case one != nil:
		m.Streams = decOne(&d.sl.MediaDescriptorStreams)
		m.Streams.Kind = model.MediaDescriptorStreams_OneStream
		m.Streams.OneStream = one
	}
	d.drop(ps, objs)
	d.pushObj(m)
}

// streamParm sets one streamParm item in sp.
func (d *decoder) streamParm(sp *model.StreamParms, p decParam, objs []any, oi *int, stats *[]model.StatisticsParameter) {
	switch p.kind {
	case pLocal:
		sp.LocalDescriptor = decObjAt[model.LocalRemoteDescriptor](d, objs, oi)
	case pRemote:
		sp.RemoteDescriptor = decObjAt[model.LocalRemoteDescriptor](d, objs, oi)
	case pLocalControl:
		sp.LocalControlDescriptor = decObjAt[model.LocalControlDescriptor](d, objs, oi)
	case pStatistics:
		n := min(int(p.u), len(*stats))
		sp.StatisticsDescriptor = (*stats)[:n:n]
		*stats = (*stats)[n:]
	}
}

func (d *decoder) streamDescriptor(id span, n int) {
	ps, objs := d.items(n)
	s := model.StreamDescriptor{StreamID: d.num16(id, "stream ID")}
	nStats, oi := 0, 0
	for _, p := range ps {
		if p.kind == pStatistics {
			nStats += int(p.u)
		}
	}
	stats := decTake(&d.stats, &d.sl.StatisticsParameter, nStats)
	for _, p := range ps {
		d.streamParm(&s.StreamParms, p, objs, &oi, &stats)
	}
	d.once(ps, id, "Stream")
	d.drop(ps, objs)
	decPush(d, &d.streams, s)
}

func (d *decoder) localControl(kw span, n int) {
	ps, objs := d.items(n)
	d.once(ps, kw, "LocalControl")
	c := decOne(&d.sl.LocalControlDescriptor)
	nProps := 0
	for _, p := range ps {
		switch p.kind {
		case pMode:
			c.StreamMode = model.Some(model.StreamMode(p.u))
		case pReserveValue:
			c.ReserveValue = model.Some(p.u == 1)
		case pReserveGroup:
			c.ReserveGroup = model.Some(p.u == 1)
		case pProperty:
			nProps++
		}
	}
	c.PropertyParms = decTake(&d.props, &d.sl.PropertyParm, nProps)
	d.drop(ps, objs)
	d.pushObj(c)
}

func (d *decoder) terminationState(kw span, n int) {
	ps, objs := d.items(n)
	d.once(ps, kw, "TerminationState")
	t := decOne(&d.sl.TerminationStateDescriptor)
	nProps := 0
	for _, p := range ps {
		switch p.kind {
		case pServiceState:
			t.ServiceState = model.Some(model.ServiceState(p.u))
		case pBuffer:
			t.EventBufferControl = model.Some(model.EventBufferControl(p.u))
		case pProperty:
			nProps++
		}
	}
	t.PropertyParms = decTake(&d.props, &d.sl.PropertyParm, nProps)
	d.drop(ps, objs)
	d.pushObj(t)
}

func (d *decoder) localRemote(kw, s span, kind decParamKind) {
	l := decOne(&d.sl.LocalRemoteDescriptor)
	l.PropGrps = d.sdp(s)
	d.pushObj(l)
	d.param(kind, kw, 0)
}

// sdp splits the octet string of a Local or Remote descriptor into
// property groups: one PropertyParm per line "name=value", named by what
// is before the first "=" and valued by the rest of the line, and a new
// group at each "v=" line. Blank lines and the blanks that start a line
// are left out; "\}" stands for "}".
func (d *decoder) sdp(s span) [][]model.PropertyParm {
	src := d.src[:s.end]
	nLines, nGroups := 0, 0
	for i := int(s.pos); i < len(src); {
		start, eq, end, next := sdpLine(src, i)
		i = next
		if start == end {
			continue
		}
		if eq < 0 {
			d.failAt(span{int32(start), int32(end)}, "SDP line "+d.quote(span{int32(start), int32(end)})+" has no '='")
			return [][]model.PropertyParm{}
		}
		if nLines == 0 || eq-start == 1 && src[start] == 'v' {
			nGroups++
		}
		nLines++
	}
	groups := d.sl.ListPropertyParm.Zeroed(nGroups)
	props := d.sl.PropertyParm.Zeroed(nLines)
	vals := d.sl.Octets.Zeroed(nLines)
	g, k, gstart := -1, 0, 0
	for i := int(s.pos); i < len(src) && k < nLines; {
		start, eq, end, next := sdpLine(src, i)
		i = next
		if start == end {
			continue
		}
		if k == 0 || eq-start == 1 && src[start] == 'v' {
			if g >= 0 {
				groups[g] = props[gstart:k:k]
			}
			g, gstart = g+1, k
		}
		vals[k] = d.unescape(span{int32(eq + 1), int32(end)})
		props[k] = model.PropertyParm{Name: d.octets(span{int32(start), int32(eq)}), Value: vals[k : k+1 : k+1]}
		k++
		d.count()
	}
	if g >= 0 && g < len(groups) {
		groups[g] = props[gstart:k:k]
	}
	return groups
}

// sdpLine finds the line that starts at i: its first byte after leading
// blanks, its first "=" (or -1), its end, and where the next one starts.
func sdpLine(src []byte, i int) (start, eq, end, next int) {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	// bytes.IndexByte runs many bytes a step: SDP lines are long.
	start, end = i, len(src)
	if n := bytes.IndexByte(src[i:], '\n'); n >= 0 {
		end = i + n
	}
	if n := bytes.IndexByte(src[i:end], '\r'); n >= 0 {
		end = i + n
	}
	eq = bytes.IndexByte(src[start:end], '=')
	if eq >= 0 {
		eq += start
	}
	i = end
	if i < len(src) && src[i] == '\r' {
		i++
	}
	if i < len(src) && src[i] == '\n' {
		i++
	}
	return start, eq, end, i
}

// unescape returns the bytes of s with "\}" read as "}".
func (d *decoder) unescape(s span) model.Octets {
	w := d.bytes(s)
	if bytes.IndexByte(w, '\\') < 0 { // most SDP has no escapes
		return d.octets(s)
	}
	n := 0
	for i := 0; i+1 < len(w); i++ {
		if w[i] == '\\' && w[i+1] == '}' {
			n++
		}
	}
	if n == 0 {
		return d.octets(s)
	}
	out := d.sl.bytes.Zeroed(len(w) - n)[:0]
	for i := 0; i < len(w); i++ {
		if w[i] == '\\' && i+1 < len(w) && w[i+1] == '}' {
			i++
		}
		out = append(out, w[i])
	}
	return out
}

// value takes a VALUE: a quoted string's bytes as they are, bare
// SafeChars in lower case, since "everything in the ABNF and text encoding
// is case insensitive" except quoted strings (Annex B.1; OTP lowercases
// them too). Copies only a value that has upper-case letters.
func (d *decoder) value(s span) {
	decPush(d, &d.octs, d.valueOctets(s))
}

func (d *decoder) valueOctets(s span) model.Octets {
	w := d.bytes(s)
	if len(w) >= 2 && w[0] == '"' {
		return d.octets(span{s.pos + 1, s.end - 1})
	}
	for _, c := range w {
		if c-'A' < 26 {
			return d.lowerValue(w)
		}
	}
	return d.octets(s)
}

// lowerValue is a copy of w in lower case.
func (d *decoder) lowerValue(w []byte) model.Octets {
	out := d.sl.bytes.Zeroed(len(w))
	for i, c := range w {
		if c-'A' < 26 {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// extraInfo is the ASN.1 extraInfo of a PropertyParm, an EventParameter
// and a SigParameter: three model types of these fields, K their kind.
type extraInfo[K ~uint8] = struct {
	Kind     K
	Relation model.Relation
	Range    bool
	Sublist  bool
}

// decParmValue takes the values of a parmValue ($$ code) and makes their
// extraInfo from sl: its kind and relation, or nil for a plain "= value".
func decParmValue[X ~extraInfo[K], K ~uint8](d *decoder, sl *slab.Slab[X], code int) ([]model.Octets, *X) {
	vals := decTake(&d.octs, &d.sl.Octets, code>>3)
	var x extraInfo[K]
	switch code & 7 {
	case valueGreater:
		x = extraInfo[K]{Kind: 1, Relation: model.Relation_GreaterThan}
	case valueSmaller:
		x = extraInfo[K]{Kind: 1, Relation: model.Relation_SmallerThan}
	case valueUnequal:
		x = extraInfo[K]{Kind: 1, Relation: model.Relation_UnequalTo}
	case valueRange:
		x = extraInfo[K]{Kind: 2, Range: true}
	case valueAnd:
		x = extraInfo[K]{Kind: 3, Sublist: true}
	case valueOr:
		x = extraInfo[K]{Kind: 3}
	default:
		return vals, nil
	}
	p := sl.One()
	*p = X(x)
	return vals, p
}

func (d *decoder) propertyParm(name span, code int) {
	p := model.PropertyParm{Name: d.octets(name)}
	p.Value, p.ExtraInfo = decParmValue(d, &d.sl.PropertyParmExtraInfo, code)
	decPush(d, &d.props, p)
}

func (d *decoder) eventParameter(name span, code int) {
	p := model.EventParameter{EventParameterName: d.octets(name)}
	p.Value, p.ExtraInfo = decParmValue(d, &d.sl.EventParameterExtraInfo, code)
	decPush(d, &d.evPars, p)
}

func (d *decoder) sigParameter(name span, code int) {
	p := model.SigParameter{SigParameterName: d.octets(name)}
	p.Value, p.ExtraInfo = decParmValue(d, &d.sl.SigParameterExtraInfo, code)
	decPush(d, &d.sigPars, p)
	d.param(pSigParameter, name, 0)
}

func (d *decoder) muxDescriptor(typ, n int) {
	m := decOne(&d.sl.MuxDescriptor)
	m.MuxType = model.MuxType(typ)
	m.TermList = decTake(&d.tids, &d.sl.TerminationID, n)
	d.pushObj(m)
}

func (d *decoder) modemType(t int) { decPush(d, &d.modems, model.ModemType(t)) }

func (d *decoder) modemDescriptor(kw span, nTypes, nProps int) {
	m := decOne(&d.sl.ModemDescriptor)
	m.Mpl = decTake(&d.props, &d.sl.PropertyParm, nProps)
	m.Mtl = decTake(&d.modems, &d.sl.ModemType, nTypes)
	d.modemTypesOnce(m.Mtl, kw)
	d.pushObj(m)
}

func (d *decoder) eventSpec(name span, n int) {
	ps, objs := d.items(n)
	e := model.EventSpec{EventName: d.octets(name)}
	d.once(ps, name, "an EventBuffer event")
	d.namesOnce(ps, pEventParameter, "event parameter", "an EventBuffer event")
	e.StreamID, e.EventParList = d.eventParameters(ps)
	d.drop(ps, objs)
	decPush(d, &d.evSpecs, e)
}

// eventParameters reads the stream among the items ps of an event, and
// takes its event parameters from their stack.
func (d *decoder) eventParameters(ps []decParam) (stream model.Opt[uint32], pars []model.EventParameter) {
	n := 0
	for _, p := range ps {
		switch p.kind {
		case pStream:
			stream = model.Some(d.num16(p.tok, "stream ID"))
		case pEventParameter:
			n++
		}
	}
	return stream, decTake(&d.evPars, &d.sl.EventParameter, n)
}

func (d *decoder) eventsDescriptor(id span, hasID bool, n int) {
	e := decOne(&d.sl.EventsDescriptor)
	if hasID {
		e.RequestID = model.Some(d.requestID(id))
	}
	e.EventList = decTake(&d.reqEvs, &d.sl.RequestedEvent, n)
	d.pushObj(e)
}

// decEventActions gathers what the parameters of a requested event ask for.
type decEventActions struct {
	keepActive bool
	dm         *model.EventDM
	embed      *model.RegulatedEmbeddedDescriptor
	notify     *model.NotifyBehaviour
	reset      bool
	any        bool
}

// set fills in what a requested event's actions and a second requested
// event's have alike (the embedded second event is the first kind's
// alone).
func (acts *decEventActions) set(keep *model.Opt[bool], dm **model.EventDM, notify **model.NotifyBehaviour, reset *bool, signals *[]model.SignalRequest) {
	if acts.keepActive {
		*keep = model.Some(true)
	}
	*dm, *notify, *reset = acts.dm, acts.notify, acts.reset
	if acts.embed != nil {
		*signals = acts.embed.SignalsDescriptor
	}
}

// eventParams reads the parameters of a (second) requested event: the
// stream, the actions, and the event parameters, taken from their stack.
func (d *decoder) eventParams(name span, n int) (stream model.Opt[uint32], acts decEventActions, pars []model.EventParameter) {
	ps, objs := d.items(n)
	d.once(ps, name, "an event's parameters")
	d.namesOnce(ps, pEventParameter, "event parameter", "an event")
	stream, pars = d.eventParameters(ps)
	oi := 0
	for _, p := range ps {
		switch p.kind {
		case pKeepActive:
			acts.keepActive, acts.any = true, true
		case pEventDM:
			acts.dm, acts.any = decObjAt[model.EventDM](d, objs, &oi), true
		case pEmbed:
			acts.embed, acts.any = decObjAt[model.RegulatedEmbeddedDescriptor](d, objs, &oi), true
		case pNotifyBehaviour:
			acts.notify, acts.any = decObjAt[model.NotifyBehaviour](d, objs, &oi), true
		case pResetEvents:
			acts.reset, acts.any = true, true
		}
	}
	d.eventActionsRules(ps, &acts, name)
	d.drop(ps, objs)
	return stream, acts, pars
}

func (d *decoder) requestedEvent(name span, n int) {
	e := model.RequestedEvent{PkgdName: d.octets(name)}
	var acts decEventActions
	e.StreamID, acts, e.EvParList = d.eventParams(name, n)
	if acts.any {
		a := decOne(&d.sl.RequestedActions)
		acts.set(&a.KeepActive, &a.EventDM, &a.NotifyBehaviour, &a.ResetEventsDescriptor, &a.SignalsDescriptor)
		if acts.embed != nil {
			a.SecondEvent = acts.embed.SecondEvent
		}
		e.EventAction = a
	}
	decPush(d, &d.reqEvs, e)
}

func (d *decoder) secondRequestedEvent(name span, n int) {
	e := model.SecondRequestedEvent{PkgdName: d.octets(name)}
	var acts decEventActions
	e.StreamID, acts, e.EvParList = d.eventParams(name, n)
	if acts.any {
		a := decOne(&d.sl.SecondRequestedActions)
		acts.set(&a.KeepActive, &a.EventDM, &a.NotifyBehaviour, &a.ResetEventsDescriptor, &a.SignalsDescriptor)
		e.EventAction = a
	}
	decPush(d, &d.secEvs, e)
}

func (d *decoder) notifyBehaviour(kw span, kind model.NotifyBehaviourKind, withEmbed bool) {
	d.need(3, kw, "a notify behaviour")
	b := decOne(&d.sl.NotifyBehaviour)
	b.Kind = kind
	if kind == model.NotifyBehaviour_NotifyRegulated {
		if withEmbed {
			b.NotifyRegulated = decPop[model.RegulatedEmbeddedDescriptor](d)
		} else {
			b.NotifyRegulated = decOne(&d.sl.RegulatedEmbeddedDescriptor)
		}
	}
	d.pushObj(b)
}

// embed gathers an Embed descriptor: nSig signal requests (none if
// negative) and, if withEvents, the embedded events.
func (d *decoder) embed(nSig int, withEvents bool) {
	e := decOne(&d.sl.RegulatedEmbeddedDescriptor)
	if withEvents {
		e.SecondEvent = decPop[model.SecondEventsDescriptor](d)
	}
	if nSig >= 0 {
		e.SignalsDescriptor = decTake(&d.sigReqs, &d.sl.SignalRequest, nSig)
	}
	d.pushObj(e)
}

func (d *decoder) secondEvents(id span, hasID bool, n int) {
	e := decOne(&d.sl.SecondEventsDescriptor)
	if hasID {
		e.RequestID = model.Some(d.requestID(id))
	}
	e.EventList = decTake(&d.secEvs, &d.sl.SecondRequestedEvent, n)
	d.pushObj(e)
}

func (d *decoder) eventDM(name span, withValue bool) {
	e := decOne(&d.sl.EventDM)
	if withValue {
		e.Kind = model.EventDM_DigitMapValue
		e.DigitMapValue = decPop[model.DigitMapValue](d)
	} else {
		e.Kind = model.EventDM_DigitMapName
		e.DigitMapName = d.octets(name)
	}
	d.pushObj(e)
}

func (d *decoder) signal(name span, n int) {
	ps, objs := d.items(n)
	s := model.Signal{SignalName: d.octets(name)}
	d.once(ps, name, "a signal")
	d.namesOnce(ps, pSigParameter, "signal parameter", "a signal")
	nPars := 0
	for _, p := range ps {
		switch p.kind {
		case pStream:
			s.StreamID = model.Some(d.num16(p.tok, "stream ID"))
		case pSignalType:
			s.SigType = model.Some(model.SignalType(p.u))
		case pDuration:
			s.Duration = model.Some(d.num16(p.tok, "duration"))
		case pNotifyCompletion:
			b := model.BitString{Bits: uint64(p.u)}
			b.Len = b.MinLen()
			s.NotifyCompletion = model.Some(b)
		case pKeepActive:
			s.KeepActive = model.Some(true)
		case pDirection:
			s.Direction = model.Some(model.SignalDirection(p.u))
		case pRequestID:
			s.RequestID = model.Some(d.requestID(p.tok))
		case pIntersigDelay:
			s.IntersigDelay = model.Some(d.num16(p.tok, "intersignal delay"))
		case pSigParameter:
			nPars++
		}
	}
	s.SigParList = decTake(&d.sigPars, &d.sl.SigParameter, nPars)
	d.drop(ps, objs)
	decPush(d, &d.sigs, s)
}

// signalRequest makes the newest signal a signalParm.
func (d *decoder) signalRequest() {
	s := decOne(&d.sl.Signal)
	if n := len(d.sigs); n > 0 {
		*s = d.sigs[n-1]
		d.sigs = d.sigs[:n-1]
	}
	decPush(d, &d.sigReqs, model.SignalRequest{Kind: model.SignalRequest_Signal, Signal: s})
}

func (d *decoder) signalList(id span, n int) {
	l := decOne(&d.sl.SeqSigList)
	l.Id = d.num16(id, "signal list ID")
	l.SignalList = decTake(&d.sigs, &d.sl.Signal, n)
	decPush(d, &d.sigReqs, model.SignalRequest{Kind: model.SignalRequest_SeqSigList, SeqSigList: l})
}

func (d *decoder) observedEvents(id span, n int) {
	o := decOne(&d.sl.ObservedEventsDescriptor)
	o.RequestId = d.requestID(id)
	o.ObservedEventLst = decTake(&d.obsEvs, &d.sl.ObservedEvent, n)
	d.pushObj(o)
}

func (d *decoder) observedEvent(ts, name span, n int) {
	ps, objs := d.items(n)
	e := model.ObservedEvent{EventName: d.octets(name)}
	d.once(ps, name, "an observed event")
	d.namesOnce(ps, pEventParameter, "event parameter", "an observed event")
	if ts.end > ts.pos {
		e.TimeNotation = d.timeNotation(ts)
	}
	e.StreamID, e.EventParList = d.eventParameters(ps)
	d.drop(ps, objs)
	decPush(d, &d.obsEvs, e)
}

func (d *decoder) digitMapDescriptor(name span, withValue bool) {
	m := decOne(&d.sl.DigitMapDescriptor)
	if withValue {
		m.DigitMapValue = decPop[model.DigitMapValue](d)
	}
	if name.end > name.pos {
		m.DigitMapName = d.octets(name)
	}
	d.pushObj(m)
}

func (d *decoder) digitMapValue(nTimers int, body span) {
	ps, objs := d.items(nTimers)
	v := decOne(&d.sl.DigitMapValue)
	var seen uint32
	for _, p := range ps {
		w := d.bytes(p.tok)
		if bit := uint32(1) << (w[0] | 0x20 - 'a'); seen&bit != 0 {
			d.failAt(p.tok, "digit map timer "+d.quote(p.tok)+": its letter given twice in a digit map")
		} else {
			seen |= bit
		}
		i := len(w)
		for i > 0 && charClass[w[i-1]]&chDigit != 0 {
			i--
		}
		t := d.num(span{p.tok.pos + int32(i), p.tok.end}, 99, "digit map timer")
		switch w[0] | 0x20 {
		case 't':
			v.StartTimer = model.Some(t)
		case 's':
			v.ShortTimer = model.Some(t)
		case 'l':
			v.LongTimer = model.Some(t)
		case 'z':
			d.need(2, p.tok, "the digit map timer Z")
			v.DurationTimer = model.Some(t)
		}
	}
	d.drop(ps, objs)
	if body.end <= body.pos {
		d.failAt(body, "digit map is empty")
	}
	v.DigitMapBody = d.str(body)
	d.pushObj(v)
}

func (d *decoder) serviceChangeParm(kw span, n int) {
	ps, objs := d.items(n)
	s := decOne(&d.sl.serviceChangeParm)
	method, nReason, oi := false, 0, 0
	for _, p := range ps {
		switch p.kind {
		case pReason:
			nReason++
		case pAuditToken, pIndAud:
			if s.ServiceChangeInfo == nil {
				d.need(2, kw, "an audit item in a ServiceChange descriptor")
				s.ServiceChangeInfo = decOne(&d.sl.AuditDescriptor)
			}
		}
	}
	s.ServiceChangeReason = decTake(&d.octs, &d.sl.Octets, nReason)
	d.once(ps, kw, "Services")
	d.auditTokensOnce(ps, kw, "Services")
	for _, p := range ps {
		switch p.kind {
		case pMethod:
			s.ServiceChangeMethod, method = model.ServiceChangeMethod(p.u), true
		case pDelay:
			s.ServiceChangeDelay = model.Some(d.num32(p.tok, "delay"))
		case pAddress:
			s.ServiceChangeAddress = d.serviceChangeAddress(decObjAt[model.MId](d, objs, &oi), p.tok)
		case pProfile:
			s.ServiceChangeProfile = d.profile(p.tok)
		case pTimeStamp:
			s.TimeStamp = d.timeNotation(p.tok)
		case pMgcID:
			s.ServiceChangeMgcId = decObjAt[model.MId](d, objs, &oi)
		case pVersion:
			s.ServiceChangeVersion = model.Some(d.num(p.tok, 99, "version"))
		case pIncomplete:
			s.ServiceChangeIncompleteFlag = true
		}
	}
	if s.ServiceChangeInfo != nil {
		d.auditItems(s.ServiceChangeInfo, ps)
	}
	if !method {
		d.failAt(kw, "ServiceChange descriptor without a Method")
	}
	for _, p := range ps {
		if p.kind == pReason {
			d.reasonCode(p.tok)
		}
	}
	if nReason == 0 {
		// Annex B: REQUIRED; Annex A: serviceChangeReason is not
		// OPTIONAL, so there is nothing to put in the binary form.
		d.failAt(kw, "ServiceChange without a Reason")
	}
	if s.ServiceChangeAddress != nil && s.ServiceChangeMgcId != nil {
		d.failAt(kw, "ServiceChangeAddress and MgcIdToTry both given in Services")
	}
	d.drop(ps, objs)
	d.pushObj(s)
}

func (d *decoder) serviceChangeResParm(kw span, n int) {
	ps, objs := d.items(n)
	r := decOne(&d.sl.ServiceChangeResParm)
	d.once(ps, kw, "Services")
	oi := 0
	for _, p := range ps {
		switch p.kind {
		case pAddress:
			r.ServiceChangeAddress = d.serviceChangeAddress(decObjAt[model.MId](d, objs, &oi), p.tok)
		case pMgcID:
			r.ServiceChangeMgcId = decObjAt[model.MId](d, objs, &oi)
		case pProfile:
			r.ServiceChangeProfile = d.profile(p.tok)
		case pVersion:
			r.ServiceChangeVersion = model.Some(d.num(p.tok, 99, "version"))
		case pTimeStamp:
			r.Timestamp = d.timeNotation(p.tok)
		}
	}
	if r.ServiceChangeAddress != nil && r.ServiceChangeMgcId != nil {
		d.failAt(kw, "ServiceChangeAddress and MgcIdToTry both given in Services")
	}
	d.drop(ps, objs)
	d.pushObj(r)
}

// extension reads an extension parameter (X-... or X+...) of a
// ServiceChange descriptor: the model has no field for it, and leaving it
// out would drop it, so it is an error (Unsupported).
func (d *decoder) extension(name span, code int) {
	if w := d.bytes(name); len(w) < 3 || w[0]|0x20 != 'x' || (w[1] != '-' && w[1] != '+') {
		d.failAt(name, "expected a ServiceChange parameter, found "+d.quote(name))
	}
	d.noModelField(name, "an extension parameter in a ServiceChange descriptor")
	decTake(&d.octs, &d.sl.Octets, code>>3)
	d.param(pExtension, name, 0)
}

// serviceChangeAddress turns an mId into a ServiceChangeAddress; a device
// name of digits is a port number.
func (d *decoder) serviceChangeAddress(m *model.MId, at span) *model.ServiceChangeAddress {
	a := decOne(&d.sl.ServiceChangeAddress)
	switch m.Kind {
	case model.MId_Ip4Address:
		a.Kind, a.Ip4Address = model.ServiceChangeAddress_Ip4Address, m.Ip4Address
	case model.MId_Ip6Address:
		a.Kind, a.Ip6Address = model.ServiceChangeAddress_Ip6Address, m.Ip6Address
	case model.MId_DomainName:
		a.Kind, a.DomainName = model.ServiceChangeAddress_DomainName, m.DomainName
	case model.MId_MtpAddress:
		a.Kind, a.MtpAddress = model.ServiceChangeAddress_MtpAddress, m.MtpAddress
	default:
		if w := []byte(m.DeviceName); len(w) > 0 && lexAllDigits(w) {
			a.Kind = model.ServiceChangeAddress_PortNumber
			a.PortNumber = d.num16(at, "port number")
		} else {
			a.Kind, a.DeviceName = model.ServiceChangeAddress_DeviceName, m.DeviceName
		}
	}
	return a
}

// profile reads serviceChangeProfile = NAME SLASH Version.
func (d *decoder) profile(s span) *model.ServiceChangeProfile {
	if !encProfile(d.bytes(s)) {
		// serviceChangeProfile = ProfileToken EQUAL NAME SLASH Version
		d.failAt(s, "profile "+d.quote(s)+" is not name/version (NAME: a letter, then letters, digits, '_'; Version: 1 or 2 digits)")
	}
	p := decOne(&d.sl.ServiceChangeProfile)
	p.ProfileName = d.str(s)
	return p
}

func (d *decoder) packagesItem(s span) {
	name, version, ok := d.split(s, '-')
	if !ok || name.end == name.pos {
		d.failAt(s, "package "+d.quote(s)+" is not name-version")
	}
	decPush(d, &d.pkgItems, model.PackagesItem{PackageName: d.octets(name), PackageVersion: d.num(version, 99, "package version")})
}

// statisticsDone checks the n statistics of a Statistics descriptor.
func (d *decoder) statisticsDone(kw span, n int) {
	if n > 1 && n <= len(d.stats) {
		d.statsOnce(d.stats[len(d.stats)-n:], kw)
	}
}

func (d *decoder) statistic(name span, n int) {
	s := model.StatisticsParameter{StatName: d.octets(name)}
	if n >= 0 {
		s.StatValue = decTake(&d.octs, &d.sl.Octets, n)
	}
	decPush(d, &d.stats, s)
}
