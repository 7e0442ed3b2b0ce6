package text

import (
	"strings"

	"megaco/internal/codec/codecerr"
	"megaco/internal/model"
)

// This file writes the descriptors of commands and replies.

func (e *textEncoder) ammDescriptor(d *model.AmmDescriptor, ind int) error {
	switch d.Kind {
	case model.AmmDescriptor_MediaDescriptor:
		return codecerr.At(e.mediaDescriptor(d.MediaDescriptor, ind), "mediaDescriptor")
	case model.AmmDescriptor_ModemDescriptor:
		return codecerr.At(e.modemDescriptor(d.ModemDescriptor, ind), "modemDescriptor")
	case model.AmmDescriptor_MuxDescriptor:
		return codecerr.At(e.muxDescriptor(d.MuxDescriptor, ind), "muxDescriptor")
	case model.AmmDescriptor_EventsDescriptor:
		return codecerr.At(e.eventsDescriptor(d.EventsDescriptor, ind), "eventsDescriptor")
	case model.AmmDescriptor_EventBufferDescriptor:
		return codecerr.At(e.eventBufferDescriptor(d.EventBufferDescriptor, ind), "eventBufferDescriptor")
	case model.AmmDescriptor_SignalsDescriptor:
		return codecerr.At(e.signalsDescriptor(d.SignalsDescriptor, ind), "signalsDescriptor")
	case model.AmmDescriptor_DigitMapDescriptor:
		return codecerr.At(e.digitMapDescriptor(d.DigitMapDescriptor, ind), "digitMapDescriptor")
	case model.AmmDescriptor_AuditDescriptor:
		return codecerr.At(e.auditDescriptor(d.AuditDescriptor, ind), "auditDescriptor")
	case model.AmmDescriptor_StatisticsDescriptor:
		if e.v < 3 {
			return e.onlyIn("statisticsDescriptor", "a statistics descriptor in a command", 3)
		}
		return codecerr.At(e.statisticsDescriptor(d.StatisticsDescriptor, ind), "statisticsDescriptor")
	}
	return encErrNoTextf("no alternative chosen (kind %d)", d.Kind)
}

func (e *textEncoder) auditReturnParameter(p *model.AuditReturnParameter, ind int) error {
	switch p.Kind {
	case model.AuditReturnParameter_ErrorDescriptor:
		return codecerr.At(e.errorDescriptor(p.ErrorDescriptor), "errorDescriptor")
	case model.AuditReturnParameter_MediaDescriptor:
		return codecerr.At(e.mediaDescriptor(p.MediaDescriptor, ind), "mediaDescriptor")
	case model.AuditReturnParameter_ModemDescriptor:
		return codecerr.At(e.modemDescriptor(p.ModemDescriptor, ind), "modemDescriptor")
	case model.AuditReturnParameter_MuxDescriptor:
		return codecerr.At(e.muxDescriptor(p.MuxDescriptor, ind), "muxDescriptor")
	case model.AuditReturnParameter_EventsDescriptor:
		return codecerr.At(e.eventsDescriptor(p.EventsDescriptor, ind), "eventsDescriptor")
	case model.AuditReturnParameter_EventBufferDescriptor:
		return codecerr.At(e.eventBufferDescriptor(p.EventBufferDescriptor, ind), "eventBufferDescriptor")
	case model.AuditReturnParameter_SignalsDescriptor:
		return codecerr.At(e.signalsDescriptor(p.SignalsDescriptor, ind), "signalsDescriptor")
	case model.AuditReturnParameter_DigitMapDescriptor:
		return codecerr.At(e.digitMapDescriptor(p.DigitMapDescriptor, ind), "digitMapDescriptor")
	case model.AuditReturnParameter_ObservedEventsDescriptor:
		return codecerr.At(e.observedEvents(p.ObservedEventsDescriptor, ind), "observedEventsDescriptor")
	case model.AuditReturnParameter_StatisticsDescriptor:
		return codecerr.At(e.statisticsDescriptor(p.StatisticsDescriptor, ind), "statisticsDescriptor")
	case model.AuditReturnParameter_PackagesDescriptor:
		return codecerr.At(e.packagesDescriptor(p.PackagesDescriptor, ind), "packagesDescriptor")
	case model.AuditReturnParameter_EmptyDescriptors:
		if p.EmptyDescriptors == nil {
			return nil
		}
		return codecerr.At(e.emptyDescriptors(p.EmptyDescriptors, ind), "emptyDescriptors")
	}
	return encErrNoTextf("no alternative chosen (kind %d)", p.Kind)
}

// mediaDescriptor writes Media { TerminationState, streams }.
func (e *textEncoder) mediaDescriptor(m *model.MediaDescriptor, ind int) error {
	if m == nil {
		return encErrNoText("missing descriptor")
	}
	e.w(wMedia)
	e.open(ind)
	body := len(e.b)
	var l itemList
	if m.TermStateDescr != nil {
		e.item(&l, ind+1)
		if err := e.terminationState(m.TermStateDescr, ind+1); err != nil {
			return codecerr.At(err, "termStateDescr")
		}
	}
	if s := m.Streams; s != nil {
		switch s.Kind {
		case model.MediaDescriptorStreams_OneStream:
			if s.OneStream != nil {
				if err := e.streamParms(&l, s.OneStream, ind+1); err != nil {
					return codecerr.At(codecerr.At(err, "oneStream"), "streams")
				}
			}
		case model.MediaDescriptorStreams_MultiStream:
			for i := range s.MultiStream {
				e.item(&l, ind+1)
				sd := &s.MultiStream[i]
				e.w(wStream)
				e.eq()
				if err := e.uint16(sd.StreamID); err != nil {
					return codecerr.At(codecerr.At(codecerr.AtIndex(codecerr.At(err, "streamID"), i), "multiStream"), "streams")
				}
				e.open(ind + 1)
				var sl itemList
				if err := e.streamParms(&sl, &sd.StreamParms, ind+2); err != nil {
					return codecerr.At(codecerr.At(codecerr.AtIndex(codecerr.At(err, "streamParms"), i), "multiStream"), "streams")
				}
				if sl.n == 0 {
					return codecerr.At(codecerr.At(codecerr.AtIndex(codecerr.At(encErrNoText("an empty stream has no text form"), "streamParms"), i), "multiStream"), "streams")
				}
				e.close(ind + 1)
			}
		default:
			return codecerr.At(encErrNoTextf("no alternative chosen (kind %d)", s.Kind), "streams")
		}
	}
	if len(e.b) == body {
		// OTP writes "Media { }", which neither the grammar nor OTP's
		// parsers take.
		return encErrNoText("an empty media descriptor has no text form (an audit reply names it with the Media audit token)")
	}
	e.close(ind)
	return nil
}

// streamParms writes the LocalControl, Local, Remote and (v3) Statistics
// of a stream into the list l.
func (e *textEncoder) streamParms(l *itemList, p *model.StreamParms, ind int) error {
	if p.LocalControlDescriptor != nil {
		e.item(l, ind)
		if err := e.localControl(p.LocalControlDescriptor, ind); err != nil {
			return codecerr.At(err, "localControlDescriptor")
		}
	}
	if p.LocalDescriptor != nil {
		e.item(l, ind)
		if err := e.localRemote(wLocal, p.LocalDescriptor, ind); err != nil {
			return codecerr.At(err, "localDescriptor")
		}
	}
	if p.RemoteDescriptor != nil {
		e.item(l, ind)
		if err := e.localRemote(wRemote, p.RemoteDescriptor, ind); err != nil {
			return codecerr.At(err, "remoteDescriptor")
		}
	}
	if p.StatisticsDescriptor != nil {
		if e.v < 3 {
			return e.onlyIn("statisticsDescriptor", "a statistics descriptor in a stream", 3)
		}
		e.item(l, ind)
		if err := e.statisticsDescriptor(p.StatisticsDescriptor, ind); err != nil {
			return codecerr.At(err, "statisticsDescriptor")
		}
	}
	return nil
}

// localControl writes LocalControl { Mode, ReservedGroup, ReservedValue,
// properties }, in OTP's order.
func (e *textEncoder) localControl(c *model.LocalControlDescriptor, ind int) error {
	if !c.StreamMode.Present && !c.ReserveValue.Present && !c.ReserveGroup.Present && len(c.PropertyParms) == 0 {
		return encErrNoText("an empty LocalControl descriptor has no text form")
	}
	e.w(wLocalControl)
	e.open(ind)
	var l itemList
	if c.StreamMode.Present {
		e.item(&l, ind+1)
		if err := e.streamMode(c.StreamMode.Value); err != nil {
			return codecerr.At(err, "streamMode")
		}
	}
	if c.ReserveGroup.Present {
		e.item(&l, ind+1)
		e.onOff(wReservedGroup, c.ReserveGroup.Value)
	}
	if c.ReserveValue.Present {
		e.item(&l, ind+1)
		e.onOff(wReservedValue, c.ReserveValue.Value)
	}
	if err := encItems(e, &l, ind+1, "propertyParms", c.PropertyParms, e.propertyParm); err != nil {
		return err
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) streamMode(m model.StreamMode) error {
	e.w(wMode)
	e.eq()
	switch m {
	case model.StreamMode_SendOnly:
		e.w(wSendonly)
	case model.StreamMode_RecvOnly:
		e.w(wRecvonly)
	case model.StreamMode_SendRecv:
		e.w(wSendrecv)
	case model.StreamMode_Inactive:
		e.w(wInactive)
	case model.StreamMode_LoopBack:
		e.w(wLoopback)
	default:
		return encErrNoTextf("unknown stream mode %d", m)
	}
	return nil
}

// localRemote writes Local { SDP } or Remote { SDP }: a line end, then
// each line as name=value CRLF; a property group after the first must
// start with v= (that is where the next one is seen to begin).
func (e *textEncoder) localRemote(w word, d *model.LocalRemoteDescriptor, ind int) error {
	e.w(w)
	e.openInline()
	if len(d.PropGrps) > 0 {
		e.b = append(e.b, '\n')
	}
	for g, group := range d.PropGrps {
		if g > 0 && (len(group) == 0 || string(group[0].Name) != "v") {
			return codecerr.At(codecerr.AtIndex(encErrNoText("a property group after the first must start with v="), g), "propGrps")
		}
		for i := range group {
			p := &group[i]
			if err := e.sdpLine(p); err != nil {
				return codecerr.At(codecerr.AtIndex(codecerr.AtIndex(err, i), g), "propGrps")
			}
		}
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) sdpLine(p *model.PropertyParm) error {
	if err := e.safeName(p.Name, "SDP line name"); err != nil {
		return codecerr.At(err, "name")
	}
	if len(p.Value) != 1 {
		return codecerr.At(encErrNoTextf("an SDP line has one value, not %d", len(p.Value)), "value")
	}
	if p.ExtraInfo != nil {
		return codecerr.At(encErrNoText("an SDP line has no relation, range or list"), "extraInfo")
	}
	e.b = append(e.b, '=')
	for _, c := range p.Value[0] {
		switch c {
		case '}':
			e.b = append(e.b, '\\', '}')
		case 0, '\r', '\n':
			return codecerr.At(encErrNoTextf("SDP value %q: character %q has no text form", []byte(p.Value[0]), c), "value")
		default:
			e.b = append(e.b, c)
		}
	}
	e.b = append(e.b, '\r', '\n')
	return nil
}

// terminationState writes TerminationState { properties, Buffer,
// ServiceStates }.
func (e *textEncoder) terminationState(t *model.TerminationStateDescriptor, ind int) error {
	if len(t.PropertyParms) == 0 && !t.EventBufferControl.Present && !t.ServiceState.Present {
		return encErrNoText("an empty termination state descriptor has no text form")
	}
	e.w(wTerminationState)
	e.open(ind)
	var l itemList
	if err := encItems(e, &l, ind+1, "propertyParms", t.PropertyParms, e.propertyParm); err != nil {
		return err
	}
	if t.EventBufferControl.Present {
		e.item(&l, ind+1)
		e.w(wBuffer)
		e.eq()
		switch t.EventBufferControl.Value {
		case model.EventBufferControl_Off:
			e.b = append(e.b, "OFF"...)
		case model.EventBufferControl_LockStep:
			e.w(wLockStep)
		default:
			return codecerr.At(encErrNoTextf("unknown event buffer control %d", t.EventBufferControl.Value), "eventBufferControl")
		}
	}
	if t.ServiceState.Present {
		e.item(&l, ind+1)
		if err := e.serviceState(t.ServiceState.Value); err != nil {
			return codecerr.At(err, "serviceState")
		}
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) serviceState(s model.ServiceState) error {
	e.w(wServiceStates)
	e.eq()
	switch s {
	case model.ServiceState_Test:
		e.w(wTest)
	case model.ServiceState_OutOfSvc:
		e.w(wOutOfSvc)
	case model.ServiceState_InSvc:
		e.w(wInSvc)
	default:
		return encErrNoTextf("unknown service state %d", s)
	}
	return nil
}

// propertyParm writes name=value (or its relation, range and list forms).
func (e *textEncoder) propertyParm(p *model.PropertyParm, ind int) error {
	if err := e.name(p.Name, "property name"); err != nil {
		return codecerr.At(err, "name")
	}
	var x *model.PropertyParmExtraInfo
	if p.ExtraInfo != nil {
		x = p.ExtraInfo
		if x.Kind < model.PropertyParmExtraInfo_Relation || x.Kind > model.PropertyParmExtraInfo_Sublist {
			return codecerr.At(encErrNoTextf("no alternative chosen (kind %d)", x.Kind), "extraInfo")
		}
		return e.parmValues(p.Value, uint8(x.Kind), x.Relation, x.Range, x.Sublist, ind)
	}
	return e.parmValues(p.Value, 0, 0, false, false, ind)
}

// parmValues writes a parmValue. kind is the extraInfo alternative
// (1 relation, 2 range, 3 sublist) or 0 when it is absent. Without
// extraInfo, several values are alternatives, as with sublist FALSE.
func (e *textEncoder) parmValues(vs []model.Octets, kind uint8, rel model.Relation, rng, sub bool, ind int) error {
	if len(vs) == 0 {
		return codecerr.At(encErrNoText("a parameter needs a value"), "value")
	}
	switch {
	case kind == 1: // relation
		if len(vs) != 1 {
			return codecerr.At(encErrNoTextf("a relation has one value, not %d", len(vs)), "value")
		}
		switch rel {
		case model.Relation_GreaterThan:
			e.b = append(e.b, '>')
		case model.Relation_SmallerThan:
			e.b = append(e.b, '<')
		case model.Relation_UnequalTo:
			e.b = append(e.b, '#')
		default:
			return codecerr.At(encErrNoTextf("unknown relation %d", rel), "extraInfo")
		}
		return codecerr.At(e.value(vs[0]), "value")
	case kind == 2 && rng: // range [lo:hi]
		if len(vs) != 2 {
			return codecerr.At(encErrNoTextf("a range has two values, not %d", len(vs)), "value")
		}
		switch {
		case !e.pretty:
			e.b = append(e.b, "=["...)
		case e.v >= 3:
			e.b = append(e.b, " =  [ "...)
		default:
			e.b = append(e.b, "=["...)
		}
		if err := e.value(vs[0]); err != nil {
			return codecerr.At(codecerr.AtIndex(err, 0), "value")
		}
		e.b = append(e.b, ':')
		if err := e.value(vs[1]); err != nil {
			return codecerr.At(codecerr.AtIndex(err, 1), "value")
		}
		if e.pretty && e.v >= 3 {
			e.b = append(e.b, " ] "...)
		} else {
			e.b = append(e.b, ']')
		}
		return nil
	case kind == 3 && sub: // AND list [a,b]
		if !e.pretty {
			e.b = append(e.b, "=["...)
		} else if e.v >= 3 {
			e.eq()
			e.openSquare(ind)
		} else {
			e.b = append(e.b, "=["...)
		}
		in := ind + 1
		if e.v < 3 {
			in = ind
		}
		for i, v := range vs {
			if i > 0 {
				e.sep(in)
			}
			if err := e.value(v); err != nil {
				return codecerr.At(codecerr.AtIndex(err, i), "value")
			}
		}
		if e.pretty && e.v >= 3 {
			e.closeSquare(ind)
		} else {
			e.b = append(e.b, ']')
		}
		return nil
	case len(vs) == 1 && kind != 3:
		// One value, or a range with range FALSE (not a range).
		if kind == 2 {
			return codecerr.At(encErrNoText("a range with range FALSE and one value has no text form"), "extraInfo")
		}
		e.b = append(e.b, '=')
		return codecerr.At(e.value(vs[0]), "value")
	case kind == 2:
		return codecerr.At(encErrNoTextf("%d values with range FALSE have no text form", len(vs)), "extraInfo")
	}
	// OR list {a,b}: sublist FALSE, or no extraInfo with several values.
	in := ind + 1
	switch {
	case !e.pretty:
		e.b = append(e.b, "={"...)
	case e.v >= 3:
		e.eq()
		e.open(ind)
	default:
		e.b = append(e.b, "= { "...)
		in = ind
	}
	for i, v := range vs {
		if i > 0 {
			e.sep(in)
		}
		if err := e.value(v); err != nil {
			return codecerr.At(codecerr.AtIndex(err, i), "value")
		}
	}
	switch {
	case !e.pretty:
		e.b = append(e.b, '}')
	case e.v >= 3:
		e.close(ind)
	default:
		e.b = append(e.b, " } "...)
	}
	return nil
}

func (e *textEncoder) muxDescriptor(m *model.MuxDescriptor, ind int) error {
	if m == nil {
		return encErrNoText("missing descriptor")
	}
	if m.NonStandardData != nil {
		return codecerr.At(encErrNoText("non-standard data has no text form"), "nonStandardData")
	}
	e.w(wMux)
	e.eq()
	switch m.MuxType {
	case model.MuxType_H221:
		e.w(wH221)
	case model.MuxType_H223:
		e.w(wH223)
	case model.MuxType_H226:
		e.w(wH226)
	case model.MuxType_V76:
		e.w(wV76)
	case model.MuxType_Nx64k:
		if e.v < 2 {
			return e.onlyIn("muxType", "mux type Nx64Kservice", 2)
		}
		e.w(wNx64k)
	default:
		return codecerr.At(encErrNoTextf("unknown mux type %d", m.MuxType), "muxType")
	}
	return codecerr.At(e.terminationIDList(m.TermList, ind), "termList")
}

// modemDescriptor writes Modem = type, or Modem[t1,t2]{properties}, as
// OTP v1 does (OTP v2 and v3 refuse modem descriptors as deprecated;
// their grammars still have them).
func (e *textEncoder) modemDescriptor(m *model.ModemDescriptor, ind int) error {
	if m == nil {
		return encErrNoText("missing descriptor")
	}
	if m.NonStandardData != nil {
		return codecerr.At(encErrNoText("non-standard data has no text form"), "nonStandardData")
	}
	if len(m.Mtl) == 0 {
		return codecerr.At(encErrNoText("a modem descriptor needs a modem type"), "mtl")
	}
	e.w(wModem)
	if len(m.Mtl) == 1 && len(m.Mpl) == 0 {
		e.eq()
		return codecerr.At(codecerr.AtIndex(e.modemType(m.Mtl[0]), 0), "mtl")
	}
	e.b = append(e.b, '[')
	for i, t := range m.Mtl {
		if i > 0 {
			e.sep(ind)
		}
		if err := e.modemType(t); err != nil {
			return codecerr.At(codecerr.AtIndex(err, i), "mtl")
		}
	}
	e.b = append(e.b, ']')
	if len(m.Mpl) > 0 {
		e.open(ind)
		for i := range m.Mpl {
			if i > 0 {
				e.sep(ind + 1)
			}
			if err := e.propertyParm(&m.Mpl[i], ind+1); err != nil {
				return codecerr.At(codecerr.AtIndex(err, i), "mpl")
			}
		}
		e.close(ind)
	}
	return nil
}

var encModemWords = [...]word{
	model.ModemType_V18: wV18, model.ModemType_V22: wV22, model.ModemType_V22bis: wV22bis,
	model.ModemType_V32: wV32, model.ModemType_V32bis: wV32bis, model.ModemType_V34: wV34,
	model.ModemType_V90: wV90, model.ModemType_V91: wV91, model.ModemType_SynchISDN: wSynchISDN,
}

func (e *textEncoder) modemType(t model.ModemType) error {
	if t < 0 || int(t) >= len(encModemWords) {
		return encErrNoTextf("unknown modem type %d", t)
	}
	e.w(encModemWords[t])
	return nil
}

// eventsDescriptor writes Events = id { events }, or bare Events when it
// has neither request ID nor events.
func (e *textEncoder) eventsDescriptor(d *model.EventsDescriptor, ind int) error {
	if d == nil {
		return encErrNoText("missing descriptor")
	}
	return eventsBlock(e, "an events descriptor", d.RequestID, d.EventList, ind, e.requestedEvent)
}

// eventsBlock writes Events = id { events } (each with event), or bare
// Events when there is neither request ID nor event: an events
// descriptor, or the one inside an Embed.
func eventsBlock[E any](e *textEncoder, what string, id model.Opt[uint32], events []E, ind int, event func(*E, int) error) error {
	if !id.Present && len(events) == 0 {
		e.w(wEvents)
		return nil
	}
	if !id.Present || len(events) == 0 {
		return encErrNoText(what + " has both a request ID and events, or neither")
	}
	e.w(wEvents)
	e.eq()
	e.requestID(id.Value)
	e.open(ind)
	for i := range events {
		if i > 0 {
			e.sep(ind + 1)
		}
		if err := event(&events[i], ind+1); err != nil {
			return codecerr.At(codecerr.AtIndex(err, i), "eventList")
		}
	}
	e.close(ind)
	return nil
}

// openOpt opens the optional brackets of an item; closeOpt closes them,
// or takes them back when nothing went inside.
func (e *textEncoder) openOpt(ind int) (start, body int) {
	start = len(e.b)
	e.open(ind)
	return start, len(e.b)
}

func (e *textEncoder) closeOpt(ind, start, body int) {
	if len(e.b) == body {
		e.b = e.b[:start]
		return
	}
	e.close(ind)
}

func (e *textEncoder) requestedEvent(r *model.RequestedEvent, ind int) error {
	var acts eventActions
	if a := r.EventAction; a != nil {
		acts = eventActions{a.KeepActive, a.EventDM, a.SecondEvent, a.SignalsDescriptor, a.NotifyBehaviour, a.ResetEventsDescriptor}
	}
	return e.event(r.PkgdName, r.StreamID, r.EvParList, &acts, ind)
}

func (e *textEncoder) secondRequestedEvent(r *model.SecondRequestedEvent, ind int) error {
	var acts eventActions
	if a := r.EventAction; a != nil {
		acts = eventActions{a.KeepActive, a.EventDM, nil, a.SignalsDescriptor, a.NotifyBehaviour, a.ResetEventsDescriptor}
	}
	return e.event(r.PkgdName, r.StreamID, r.EvParList, &acts, ind)
}

// eventActions are the fields RequestedActions and SecondRequestedActions
// share (an embedded event has no secondEvent of its own).
type eventActions struct {
	keepActive  model.Opt[bool]
	eventDM     *model.EventDM
	secondEvent *model.SecondEventsDescriptor
	signals     []model.SignalRequest
	notify      *model.NotifyBehaviour
	reset       bool
}

// event writes a requested event: its name and, in optional brackets, its
// stream, parameters and actions.
func (e *textEncoder) event(name model.Octets, stream model.Opt[uint32], pars []model.EventParameter, acts *eventActions, ind int) error {
	if err := e.name(name, "event name"); err != nil {
		return codecerr.At(err, "pkgdName")
	}
	start, body := e.openOpt(ind)
	var l itemList
	if stream.Present {
		e.item(&l, ind+1)
		if err := e.stream(stream.Value); err != nil {
			return codecerr.At(err, "streamID")
		}
	}
	if err := encItems(e, &l, ind+1, "evParList", pars, e.eventParameter); err != nil {
		return err
	}
	if err := e.requestedActions(&l, acts, ind+1); err != nil {
		return codecerr.At(err, "eventAction")
	}
	e.closeOpt(ind, start, body)
	return nil
}

// requestedActions writes KeepActive, DigitMap, Embed, the notify
// behaviour and ResetEventsDescriptor into l. For a second event
// (embedded) Embed holds only signals.
func (e *textEncoder) requestedActions(l *itemList, a *eventActions, ind int) error {
	e.keywordItem(l, ind, a.keepActive.Present && a.keepActive.Value, wKeepActive)
	if a.eventDM != nil {
		e.item(l, ind)
		if err := e.eventDM(a.eventDM, ind); err != nil {
			return codecerr.At(err, "eventDM")
		}
	}
	// OTP treats an empty signals list as absent.
	if len(a.signals) > 0 || a.secondEvent != nil {
		e.item(l, ind)
		e.w(wEmbed)
		e.open(ind)
		if len(a.signals) > 0 {
			if err := e.signalsDescriptor(a.signals, ind+1); err != nil {
				return codecerr.At(err, "signalsDescriptor")
			}
			if a.secondEvent != nil {
				e.sep(ind + 1)
			}
		}
		if a.secondEvent != nil {
			if err := e.embedFirst(a.secondEvent, ind+1); err != nil {
				return codecerr.At(err, "secondEvent")
			}
		}
		e.close(ind)
	}
	if a.notify != nil {
		if e.v < 3 {
			return e.onlyIn("notifyBehaviour", "a notify behaviour", 3)
		}
		e.item(l, ind)
		if err := e.notifyBehaviour(a.notify, ind); err != nil {
			return codecerr.At(err, "notifyBehaviour")
		}
	}
	if a.reset {
		if e.v < 3 {
			return e.onlyIn("resetEventsDescriptor", "ResetEventsDescriptor", 3)
		}
		e.item(l, ind)
		e.w(wResetEventsDescriptor)
	}
	return nil
}

// embedFirst writes the events of an Embed: Events = id { events }, or
// bare Events.
func (e *textEncoder) embedFirst(se *model.SecondEventsDescriptor, ind int) error {
	return eventsBlock(e, "an embedded events descriptor", se.RequestID, se.EventList, ind, e.secondRequestedEvent)
}

func (e *textEncoder) notifyBehaviour(nb *model.NotifyBehaviour, ind int) error {
	switch nb.Kind {
	case model.NotifyBehaviour_NotifyImmediate:
		e.w(wNotifyImmediate)
	case model.NotifyBehaviour_NeverNotify:
		e.w(wNeverNotify)
	case model.NotifyBehaviour_NotifyRegulated:
		e.w(wNotifyRegulated)
		// Here, unlike in an event's own actions, OTP writes a present
		// but empty signals list: RegulatedNotify { Embed { Signals } }.
		r := nb.NotifyRegulated
		if r == nil || (r.SecondEvent == nil && r.SignalsDescriptor == nil) {
			return nil
		}
		e.open(ind)
		e.w(wEmbed)
		e.open(ind + 1)
		if r.SignalsDescriptor != nil {
			if err := e.signalsDescriptor(r.SignalsDescriptor, ind+2); err != nil {
				return codecerr.At(codecerr.At(err, "signalsDescriptor"), "notifyRegulated")
			}
			if r.SecondEvent != nil {
				e.sep(ind + 2)
			}
		}
		if r.SecondEvent != nil {
			if err := e.embedFirst(r.SecondEvent, ind+2); err != nil {
				return codecerr.At(codecerr.At(err, "secondEvent"), "notifyRegulated")
			}
		}
		e.close(ind + 1)
		e.close(ind)
	default:
		return encErrNoTextf("no alternative chosen (kind %d)", nb.Kind)
	}
	return nil
}

// eventDM writes DigitMap = name or DigitMap = { value }. (OTP writes the
// second form without its EQUAL, which no grammar has.)
func (e *textEncoder) eventDM(dm *model.EventDM, ind int) error {
	switch dm.Kind {
	case model.EventDM_DigitMapName:
		e.w(wDigitMap)
		e.eq()
		return codecerr.At(e.safeName(dm.DigitMapName, "digit map name"), "digitMapName")
	case model.EventDM_DigitMapValue:
		if dm.DigitMapValue == nil {
			return codecerr.At(encErrNoText("missing digit map"), "digitMapValue")
		}
		e.w(wDigitMap)
		e.eq()
		e.open(ind)
		if err := e.digitMapValue(dm.DigitMapValue, ind+1); err != nil {
			return codecerr.At(err, "digitMapValue")
		}
		e.close(ind)
		return nil
	}
	return encErrNoTextf("no alternative chosen (kind %d)", dm.Kind)
}

func (e *textEncoder) stream(id uint32) error {
	e.w(wStream)
	e.eq()
	return e.uint16(id)
}

// eventParameter writes name=value; the dd/ce "ds" digit string is always
// quoted, as OTP does.
func (e *textEncoder) eventParameter(p *model.EventParameter, ind int) error {
	if err := e.name(p.EventParameterName, "event parameter name"); err != nil {
		return codecerr.At(err, "eventParameterName")
	}
	if p.ExtraInfo == nil && len(p.Value) == 1 && string(p.EventParameterName) == "ds" {
		e.b = append(e.b, '=')
		return codecerr.At(codecerr.AtIndex(e.quoted(p.Value[0], "digit string"), 0), "value")
	}
	if x := p.ExtraInfo; x != nil {
		if x.Kind < model.EventParameterExtraInfo_Relation || x.Kind > model.EventParameterExtraInfo_Sublist {
			return codecerr.At(encErrNoTextf("no alternative chosen (kind %d)", x.Kind), "extraInfo")
		}
		return e.parmValues(p.Value, uint8(x.Kind), x.Relation, x.Range, x.Sublist, ind)
	}
	return e.parmValues(p.Value, 0, 0, false, false, ind)
}

func (e *textEncoder) eventBufferDescriptor(specs []model.EventSpec, ind int) error {
	e.w(wEventBuffer)
	if len(specs) == 0 {
		return nil
	}
	e.open(ind)
	for i := range specs {
		if i > 0 {
			e.sep(ind + 1)
		}
		s := &specs[i]
		if err := e.name(s.EventName, "event name"); err != nil {
			return codecerr.AtIndex(codecerr.At(err, "eventName"), i)
		}
		start, body := e.openOpt(ind + 1)
		var l itemList
		if s.StreamID.Present {
			e.item(&l, ind+2)
			if err := e.stream(s.StreamID.Value); err != nil {
				return codecerr.AtIndex(codecerr.At(err, "streamID"), i)
			}
		}
		for j := range s.EventParList {
			e.item(&l, ind+2)
			if err := e.eventParameter(&s.EventParList[j], ind+2); err != nil {
				return codecerr.AtIndex(codecerr.At(codecerr.AtIndex(err, j), "eventParList"), i)
			}
		}
		e.closeOpt(ind+1, start, body)
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) signalsDescriptor(sigs []model.SignalRequest, ind int) error {
	e.w(wSignals)
	if len(sigs) == 0 {
		return nil
	}
	e.open(ind)
	for i := range sigs {
		if i > 0 {
			e.sep(ind + 1)
		}
		s := &sigs[i]
		switch s.Kind {
		case model.SignalRequest_Signal:
			if s.Signal == nil {
				return codecerr.AtIndex(codecerr.At(encErrNoText("missing signal"), "signal"), i)
			}
			if err := e.signal(s.Signal, ind+1); err != nil {
				return codecerr.AtIndex(codecerr.At(err, "signal"), i)
			}
		case model.SignalRequest_SeqSigList:
			q := s.SeqSigList
			if q == nil {
				return codecerr.AtIndex(codecerr.At(encErrNoText("missing signal itemList"), "seqSigList"), i)
			}
			if len(q.SignalList) == 0 {
				return codecerr.AtIndex(codecerr.At(codecerr.At(encErrNoText("a signal itemList needs at least one signal"), "signalList"), "seqSigList"), i)
			}
			e.w(wSignalList)
			e.eq()
			if err := e.uint16(q.Id); err != nil {
				return codecerr.AtIndex(codecerr.At(codecerr.At(err, "id"), "seqSigList"), i)
			}
			e.open(ind + 1)
			for j := range q.SignalList {
				if j > 0 {
					e.sep(ind + 2)
				}
				if err := e.signal(&q.SignalList[j], ind+2); err != nil {
					return codecerr.AtIndex(codecerr.At(codecerr.At(codecerr.AtIndex(err, j), "signalList"), "seqSigList"), i)
				}
			}
			e.close(ind + 1)
		default:
			return codecerr.AtIndex(encErrNoTextf("no alternative chosen (kind %d)", s.Kind), i)
		}
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) signal(s *model.Signal, ind int) error {
	if err := e.name(s.SignalName, "signal name"); err != nil {
		return codecerr.At(err, "signalName")
	}
	start, body := e.openOpt(ind)
	var l itemList
	in := ind + 1
	if s.StreamID.Present {
		e.item(&l, in)
		if err := e.stream(s.StreamID.Value); err != nil {
			return codecerr.At(err, "streamID")
		}
	}
	if s.SigType.Present {
		e.item(&l, in)
		e.w(wSignalType)
		e.eq()
		switch s.SigType.Value {
		case model.SignalType_Brief:
			e.w(wBrief)
		case model.SignalType_OnOff:
			e.w(wOnOff)
		case model.SignalType_TimeOut:
			e.w(wTimeOut)
		default:
			return codecerr.At(encErrNoTextf("unknown signal type %d", s.SigType.Value), "sigType")
		}
	}
	if s.Duration.Present {
		e.item(&l, in)
		e.w(wDuration)
		e.eq()
		if err := e.uint16(s.Duration.Value); err != nil {
			return codecerr.At(err, "duration")
		}
	}
	if s.NotifyCompletion.Present {
		e.item(&l, in)
		if err := e.notifyCompletion(s.NotifyCompletion.Value, in); err != nil {
			return codecerr.At(err, "notifyCompletion")
		}
	}
	e.keywordItem(&l, in, s.KeepActive.Present && s.KeepActive.Value, wKeepActive)
	for i := range s.SigParList {
		e.item(&l, in)
		p := &s.SigParList[i]
		if err := e.name(p.SigParameterName, "signal parameter name"); err != nil {
			return codecerr.At(codecerr.AtIndex(codecerr.At(err, "sigParameterName"), i), "sigParList")
		}
		var err error
		if x := p.ExtraInfo; x != nil {
			if x.Kind < model.SigParameterExtraInfo_Relation || x.Kind > model.SigParameterExtraInfo_Sublist {
				return codecerr.At(codecerr.AtIndex(codecerr.At(encErrNoTextf("no alternative chosen (kind %d)", x.Kind), "extraInfo"), i), "sigParList")
			}
			err = e.parmValues(p.Value, uint8(x.Kind), x.Relation, x.Range, x.Sublist, in)
		} else {
			err = e.parmValues(p.Value, 0, 0, false, false, in)
		}
		if err != nil {
			return codecerr.At(codecerr.AtIndex(err, i), "sigParList")
		}
	}
	if s.Direction.Present {
		if e.v < 3 {
			return e.onlyIn("direction", "a signal direction", 3)
		}
		e.item(&l, in)
		e.w(wDirection)
		e.eq()
		switch s.Direction.Value {
		case model.SignalDirection_Internal:
			e.w(wInternal)
		case model.SignalDirection_External:
			e.w(wExternal)
		case model.SignalDirection_Both:
			e.w(wBoth)
		default:
			return codecerr.At(encErrNoTextf("unknown signal direction %d", s.Direction.Value), "direction")
		}
	}
	if s.RequestID.Present {
		if e.v < 3 {
			return e.onlyIn("requestID", "a signal request ID", 3)
		}
		e.item(&l, in)
		e.w(wRequestID)
		e.eq()
		e.requestID(s.RequestID.Value)
	}
	if s.IntersigDelay.Present {
		if e.v < 3 {
			return e.onlyIn("intersigDelay", "an intersignal delay", 3)
		}
		e.item(&l, in)
		e.w(wIntsigDelay)
		e.eq()
		if err := e.uint16(s.IntersigDelay.Value); err != nil {
			return codecerr.At(err, "intersigDelay")
		}
	}
	e.closeOpt(ind, start, body)
	return nil
}

// notifyCompletion writes NotifyCompletion = { reasons } from the bits
// onTimeOut(0), onInterruptByEvent(1), onInterruptByNewSignalDescr(2),
// otherReason(3) and, in v3, onIteration(4).
func (e *textEncoder) notifyCompletion(bits model.BitString, ind int) error {
	if bits.Bits == 0 {
		return encErrNoText("a notify completion needs at least one reason")
	}
	if bits.Bits>>5 != 0 {
		return encErrNoTextf("unknown notify completion bits %s", bits)
	}
	if bits.Has(4) && e.v < 3 {
		return encErrVersion(encSprintf("notify completion on iteration is not in the version %d text grammar (it needs version 3)", e.v))
	}
	e.w(wNotifyCompletion)
	e.eq()
	e.open(ind)
	n := 0
	for i, w := range [...]word{wTimeOut, wInterruptByEvent, wInterruptByNewSignalsDescr, wOtherReason, wIteration} {
		if bits.Has(i) {
			if n > 0 {
				e.sep(ind + 1)
			}
			e.w(w)
			n++
		}
	}
	e.close(ind)
	return nil
}

// digitMapDescriptor writes DigitMap = name, DigitMap = { value } or
// DigitMap = name { value }. An empty value (no timers, no body) counts
// as absent, as OTP v1 and v2 do.
func (e *textEncoder) digitMapDescriptor(d *model.DigitMapDescriptor, ind int) error {
	if d == nil {
		return encErrNoText("missing descriptor")
	}
	v := d.DigitMapValue
	if v != nil && !v.StartTimer.Present && !v.ShortTimer.Present && !v.LongTimer.Present && !v.DurationTimer.Present && v.DigitMapBody == "" {
		v = nil
	}
	if d.DigitMapName == nil && v == nil {
		return encErrNoText("a digit map descriptor needs a name or a digit map")
	}
	e.w(wDigitMap)
	e.eq()
	if d.DigitMapName != nil {
		if err := e.safeName(d.DigitMapName, "digit map name"); err != nil {
			return codecerr.At(err, "digitMapName")
		}
	}
	if v != nil {
		e.open(ind)
		if err := e.digitMapValue(v, ind+1); err != nil {
			return codecerr.At(err, "digitMapValue")
		}
		e.close(ind)
	}
	return nil
}

// digitMapValue writes the timers (T:, S:, L:, and Z: from v2 on), each
// followed by a comma, then the digit map as it is.
func (e *textEncoder) digitMapValue(v *model.DigitMapValue, ind int) error {
	for _, t := range [...]struct {
		c     byte
		t     model.Opt[uint32]
		field string
	}{{'T', v.StartTimer, "startTimer"}, {'S', v.ShortTimer, "shortTimer"}, {'L', v.LongTimer, "longTimer"}, {'Z', v.DurationTimer, "durationTimer"}} {
		if !t.t.Present {
			continue
		}
		if t.c == 'Z' && e.v < 2 {
			return e.onlyIn("durationTimer", "the Z: digit map timer", 2)
		}
		e.b = append(e.b, t.c, ':')
		if err := e.digits(uint64(t.t.Value), 99); err != nil {
			return codecerr.At(err, t.field)
		}
		e.sep(ind)
	}
	// Blanks around the body are not part of it in text (the decoder
	// drops them, as LWSP): they are left out here too. What the decoder
	// would read as something else has no text form.
	body := strings.TrimFunc(v.DigitMapBody, func(r rune) bool { return r < 0x80 && charClass[r]&chBlank != 0 })
	if body == "" {
		return codecerr.At(encErrNoText("empty digit map"), "digitMapBody")
	}
	if body[0] == ';' {
		return codecerr.At(encErrNoTextf("digit map %q would read back as a comment", body), "digitMapBody")
	}
	if looksLikeTimer(body) {
		return codecerr.At(encErrNoTextf("digit map %q would read back as a timer", body), "digitMapBody")
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '{' || c == '}' || c == '"' || (encBinaryByte(c) && c != '\t' && c != '\r' && c != '\n') {
			return codecerr.At(encErrNoTextf("digit map %q: character %q has no text form", body, c), "digitMapBody")
		}
	}
	e.b = append(e.b, body...)
	return nil
}

// looksLikeTimer tells a digit map body that starts as a timer does
// ("T:", "s :"), which is how the decoder tells them apart.
func looksLikeTimer(body string) bool {
	switch body[0] | 0x20 {
	case 't', 's', 'l', 'z':
	default:
		return false
	}
	i := 1
	for i < len(body) && (body[i] == ' ' || body[i] == '\t') {
		i++
	}
	return i < len(body) && body[i] == ':'
}

func (e *textEncoder) observedEvents(d *model.ObservedEventsDescriptor, ind int) error {
	if d == nil {
		return encErrNoText("missing descriptor")
	}
	if len(d.ObservedEventLst) == 0 {
		return codecerr.At(encErrNoText("an observed events descriptor needs at least one event"), "observedEventLst")
	}
	e.w(wObservedEvents)
	e.eq()
	e.requestID(d.RequestId)
	e.open(ind)
	for i := range d.ObservedEventLst {
		if i > 0 {
			e.sep(ind + 1)
		}
		o := &d.ObservedEventLst[i]
		if o.TimeNotation != nil {
			if err := e.timeNotation(o.TimeNotation); err != nil {
				return codecerr.At(codecerr.AtIndex(codecerr.At(err, "timeNotation"), i), "observedEventLst")
			}
			e.b = append(e.b, ':')
		}
		if err := e.name(o.EventName, "event name"); err != nil {
			return codecerr.At(codecerr.AtIndex(codecerr.At(err, "eventName"), i), "observedEventLst")
		}
		start, body := e.openOpt(ind + 1)
		var l itemList
		if o.StreamID.Present {
			e.item(&l, ind+2)
			if err := e.stream(o.StreamID.Value); err != nil {
				return codecerr.At(codecerr.AtIndex(codecerr.At(err, "streamID"), i), "observedEventLst")
			}
		}
		for j := range o.EventParList {
			e.item(&l, ind+2)
			if err := e.eventParameter(&o.EventParList[j], ind+2); err != nil {
				return codecerr.At(codecerr.AtIndex(codecerr.At(codecerr.AtIndex(err, j), "eventParList"), i), "observedEventLst")
			}
		}
		e.closeOpt(ind+1, start, body)
	}
	e.close(ind)
	return nil
}

// timeNotation writes yyyymmddThhmmssss.
func (e *textEncoder) timeNotation(t *model.TimeNotation) error {
	for _, f := range [2]string{t.Date, t.Time} {
		if len(f) != 8 {
			return encErrNoTextf("time stamp part %q: want 8 digits", f)
		}
		for i := 0; i < 8; i++ {
			if f[i] < '0' || f[i] > '9' {
				return encErrNoTextf("time stamp part %q: want 8 digits", f)
			}
		}
	}
	e.b = append(e.b, t.Date...)
	e.b = append(e.b, 'T')
	e.b = append(e.b, t.Time...)
	return nil
}

// statisticsDescriptor writes Statistics { name = value, ... }, or bare
// Statistics when empty. Several values (v3) are written as a list.
func (e *textEncoder) statisticsDescriptor(ps []model.StatisticsParameter, ind int) error {
	e.w(wStats)
	if len(ps) == 0 {
		return nil
	}
	e.open(ind)
	for i := range ps {
		if i > 0 {
			e.sep(ind + 1)
		}
		p := &ps[i]
		if err := e.name(p.StatName, "statistic name"); err != nil {
			return codecerr.AtIndex(codecerr.At(err, "statName"), i)
		}
		switch len(p.StatValue) {
		case 0:
		case 1:
			e.eq()
			if err := e.value(p.StatValue[0]); err != nil {
				return codecerr.AtIndex(codecerr.At(codecerr.AtIndex(err, 0), "statValue"), i)
			}
		default:
			if e.v < 3 {
				return codecerr.AtIndex(e.onlyIn("statValue", "a statistic with several values", 3), i)
			}
			e.eq()
			e.openSquare(ind + 1)
			for j, v := range p.StatValue {
				if j > 0 {
					e.sep(ind + 2)
				}
				if err := e.value(v); err != nil {
					return codecerr.AtIndex(codecerr.At(codecerr.AtIndex(err, j), "statValue"), i)
				}
			}
			e.closeSquare(ind + 1)
		}
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) packagesDescriptor(ps []model.PackagesItem, ind int) error {
	if len(ps) == 0 {
		return encErrNoText("a packages descriptor needs at least one package")
	}
	e.w(wPackages)
	e.open(ind)
	for i := range ps {
		if i > 0 {
			e.sep(ind + 1)
		}
		if err := e.packagesItem(ps[i].PackageName, ps[i].PackageVersion); err != nil {
			return codecerr.AtIndex(err, i)
		}
	}
	e.close(ind)
	return nil
}

func (e *textEncoder) packagesItem(name model.Octets, version uint32) error {
	// No keyword check: "it-1" is one SafeChars word, never the keyword
	// IT (Iteration), so a package named like a keyword reads back.
	if err := e.safeName(name, "package name"); err != nil {
		return codecerr.At(err, "packageName")
	}
	e.b = append(e.b, '-')
	return codecerr.At(e.uint16(version), "packageVersion")
}

// serviceChangeParm writes Services { Method, ServiceChangeAddress,
// Version, Profile, Reason, Delay, MgcIdToTry, time stamp, audit items,
// ServiceChangeInc } in OTP's order.
func (e *textEncoder) serviceChangeParm(p *model.ServiceChangeParm, ind int) error {
	if p.NonStandardData != nil {
		return codecerr.At(encErrNoText("non-standard data has no text form"), "nonStandardData")
	}
	e.w(wServices)
	e.open(ind)
	in := ind + 1
	var l itemList
	e.item(&l, in)
	e.w(wMethod)
	e.eq()
	if int(p.ServiceChangeMethod) < 0 || int(p.ServiceChangeMethod) >= len(encMethodWords) {
		return codecerr.At(encErrNoTextf("unknown method %d", p.ServiceChangeMethod), "serviceChangeMethod")
	}
	e.w(encMethodWords[p.ServiceChangeMethod])
	if err := e.serviceChangeAVP(&l, in, p.ServiceChangeAddress, p.ServiceChangeVersion, p.ServiceChangeProfile); err != nil {
		return err
	}
	switch len(p.ServiceChangeReason) {
	case 0:
	case 1:
		e.item(&l, in)
		e.w(wReason)
		e.eq()
		if err := e.quoted(p.ServiceChangeReason[0], "reason"); err != nil {
			return codecerr.At(codecerr.AtIndex(err, 0), "serviceChangeReason")
		}
	default:
		return codecerr.At(encErrNoTextf("a reason has one value, not %d", len(p.ServiceChangeReason)), "serviceChangeReason")
	}
	if p.ServiceChangeDelay.Present {
		e.item(&l, in)
		e.w(wDelay)
		e.eq()
		e.uint(uint64(p.ServiceChangeDelay.Value))
	}
	if err := e.mgcIDAndTime(&l, in, p.ServiceChangeMgcId, p.TimeStamp, "timeStamp"); err != nil {
		return err
	}
	if a := p.ServiceChangeInfo; a != nil {
		// The grammar puts the audit items straight into the list.
		// (OTP cannot write them: it fails on any serviceChangeInfo.)
		if e.v < 2 {
			return e.onlyIn("serviceChangeInfo", "audit items in a ServiceChange", 2)
		}
		if err := e.auditItems(&l, a, in); err != nil {
			return codecerr.At(err, "serviceChangeInfo")
		}
	}
	if p.ServiceChangeIncompleteFlag {
		if e.v < 3 {
			return e.onlyIn("serviceChangeIncompleteFlag", "ServiceChangeInc", 3)
		}
		e.item(&l, in)
		e.w(wServiceChangeIncomplete)
	}
	e.close(ind)
	return nil
}

// serviceChangeAVP writes the address, version and profile items a
// ServiceChange request and reply share.
func (e *textEncoder) serviceChangeAVP(l *itemList, ind int, addr *model.ServiceChangeAddress, version model.Opt[uint32], profile *model.ServiceChangeProfile) error {
	if addr != nil {
		e.item(l, ind)
		if err := e.serviceChangeAddress(addr); err != nil {
			return codecerr.At(err, "serviceChangeAddress")
		}
	}
	if version.Present {
		e.item(l, ind)
		e.w(wVersion)
		e.eq()
		if err := e.digits(uint64(version.Value), 99); err != nil {
			return codecerr.At(err, "serviceChangeVersion")
		}
	}
	if profile != nil {
		e.item(l, ind)
		if err := e.profile(profile); err != nil {
			return codecerr.At(err, "serviceChangeProfile")
		}
	}
	return nil
}

// mgcIDAndTime writes the MgcIdToTry and time stamp items a ServiceChange
// request and reply share; stampField is the time stamp's field name.
func (e *textEncoder) mgcIDAndTime(l *itemList, ind int, mgc *model.MId, ts *model.TimeNotation, stampField string) error {
	if mgc != nil {
		e.item(l, ind)
		e.w(wMgcId)
		e.eq()
		if err := e.mID(mgc); err != nil {
			return codecerr.At(err, "serviceChangeMgcId")
		}
	}
	if ts != nil {
		e.item(l, ind)
		if err := e.timeNotation(ts); err != nil {
			return codecerr.At(err, stampField)
		}
	}
	return nil
}

var encMethodWords = [...]word{
	model.ServiceChangeMethod_Failover: wFailover, model.ServiceChangeMethod_Forced: wForced,
	model.ServiceChangeMethod_Graceful: wGraceful, model.ServiceChangeMethod_Restart: wRestart,
	model.ServiceChangeMethod_Disconnected: wDisconnected, model.ServiceChangeMethod_HandOff: wHandOff,
}

func (e *textEncoder) serviceChangeAddress(a *model.ServiceChangeAddress) error {
	e.w(wServiceChangeAddress)
	e.eq()
	switch a.Kind {
	case model.ServiceChangeAddress_PortNumber:
		return codecerr.At(e.uint16(a.PortNumber), "portNumber")
	case model.ServiceChangeAddress_Ip4Address:
		return codecerr.At(e.ip4(a.Ip4Address), "ip4Address")
	case model.ServiceChangeAddress_Ip6Address:
		return codecerr.At(e.ip6(a.Ip6Address), "ip6Address")
	case model.ServiceChangeAddress_DomainName:
		return codecerr.At(e.domainName(a.DomainName), "domainName")
	case model.ServiceChangeAddress_DeviceName:
		return codecerr.At(e.pathName(a.DeviceName, "device name"), "deviceName")
	case model.ServiceChangeAddress_MtpAddress:
		return codecerr.At(e.mtp(a.MtpAddress), "mtpAddress")
	}
	return encErrNoTextf("no alternative chosen (kind %d)", a.Kind)
}

// profile writes Profile = name/version; the text form holds both in
// profileName ("resgw/1").
func (e *textEncoder) profile(p *model.ServiceChangeProfile) error {
	s := p.ProfileName
	if len(s) == 0 || len(s) > 67 {
		return codecerr.At(encErrNoTextf("profile %q: 1 to 67 characters", s), "profileName")
	}
	for i := 0; i < len(s); i++ {
		if charClass[s[i]]&chSafe == 0 {
			return codecerr.At(encErrNoTextf("profile %q: character %q has no text form", s, s[i]), "profileName")
		}
	}
	// serviceChangeProfile = NAME SLASH Version, as the decoder reads it.
	if !encProfile(s) {
		return codecerr.At(encErrNoTextf("profile %q is not name/version", s), "profileName")
	}
	e.w(wProfile)
	e.eq()
	e.b = append(e.b, s...)
	return nil
}

// serviceChangeResParm writes the items of a ServiceChange reply's
// Services: address, version, profile, MgcIdToTry, time stamp.
func (e *textEncoder) serviceChangeResParm(p *model.ServiceChangeResParm, ind int) error {
	var l itemList
	if err := e.serviceChangeAVP(&l, ind, p.ServiceChangeAddress, p.ServiceChangeVersion, p.ServiceChangeProfile); err != nil {
		return err
	}
	return e.mgcIDAndTime(&l, ind, p.ServiceChangeMgcId, p.Timestamp, "timestamp")
}

// encProfile reports whether s is NAME SLASH Version: NAME = ALPHA
// *63(ALPHA / DIGIT / "_"), Version = 1*2(DIGIT).
func encProfile[S string | []byte](s S) bool {
	i := 0
	for i < len(s) && s[i] != '/' {
		if charClass[s[i]]&chName == 0 || i == 0 && charClass[s[i]]&chDigit != 0 || s[0] == '_' {
			return false
		}
		i++
	}
	v := len(s) - i - 1
	if i == 0 || i > 64 || v < 1 || v > 2 {
		return false
	}
	for _, c := range []byte(s[i+1:]) {
		if charClass[c]&chDigit == 0 {
			return false
		}
	}
	return true
}
