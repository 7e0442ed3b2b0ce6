package text

import (
	"megaco/internal/codec/codecerr"
	"megaco/internal/model"
)

// This file writes audit descriptors: the audit tokens (a BIT STRING in
// the model, so written in bit order) and, from v2 on, the individual
// audit descriptors (IndAud*).

// encAuditWords are the audit tokens by bit of AuditDescriptor.auditToken.
var encAuditWords = [...]word{wMux, wModem, wMedia, wEvents, wSignals, wDigitMap, wStats, wObservedEvents, wPackages, wEventBuffer}

func encAuditBits(a *model.AuditDescriptor) (uint64, error) {
	if !a.AuditToken.Present {
		return 0, nil
	}
	bits := a.AuditToken.Value.Bits
	if bits>>len(encAuditWords) != 0 {
		return 0, codecerr.At(encErrNoTextf("unknown audit token bits %s", a.AuditToken.Value), "auditToken")
	}
	return bits, nil
}

// auditDescriptor writes Audit { tokens, descriptors }, or "Audit { }"
// when it asks for nothing.
func (e *textEncoder) auditDescriptor(a *model.AuditDescriptor, ind int) error {
	if a == nil {
		return encErrNoText("missing descriptor")
	}
	bits, err := encAuditBits(a)
	if err != nil {
		return err
	}
	props := a.AuditPropertyToken
	if len(props) > 0 && e.v < 2 {
		return e.onlyIn("auditPropertyToken", "an individual audit descriptor", 2)
	}
	e.w(wAudit)
	if bits == 0 && len(props) == 0 {
		e.openInline()
		e.closeInline()
		return nil
	}
	e.open(ind)
	n := 0
	for i, w := range encAuditWords {
		if bits&(1<<i) != 0 {
			if n > 0 {
				e.sep(ind + 1)
			}
			e.w(w)
			n++
		}
	}
	if n > 0 && len(props) > 0 {
		e.sep(ind) // sic: OTP puts the descriptors after tokens one level less deep
	}
	for i := range props {
		if i > 0 {
			e.sep(ind + 1)
		}
		if err := e.indAuditParameter(&props[i], ind+1); err != nil {
			return codecerr.At(codecerr.AtIndex(err, i), "auditPropertyToken")
		}
	}
	e.close(ind)
	return nil
}

// auditItems writes the tokens and descriptors of a (ServiceChange)
// audit descriptor as items of the list l.
func (e *textEncoder) auditItems(l *itemList, a *model.AuditDescriptor, ind int) error {
	bits, err := encAuditBits(a)
	if err != nil {
		return err
	}
	for i, w := range encAuditWords {
		if bits&(1<<i) != 0 {
			e.item(l, ind)
			e.w(w)
		}
	}
	if err := encItems(e, l, ind, "auditPropertyToken", a.AuditPropertyToken, e.indAuditParameter); err != nil {
		return err
	}
	return nil
}

// emptyDescriptors writes the bare descriptor names of an audit reply
// ("Media, DigitMap"). OTP v1 and v2 indent the names after the first
// one level deeper than v3. v3's auditReturnItem has no Events, Signals
// or EventBuffer.
func (e *textEncoder) emptyDescriptors(a *model.AuditDescriptor, ind int) error {
	bits, err := encAuditBits(a)
	if err != nil {
		return err
	}
	if len(a.AuditPropertyToken) > 0 {
		return codecerr.At(encErrNoText("individual audit descriptors in an audit reply's empty descriptors have no text form"), "auditPropertyToken")
	}
	if e.v >= 3 && bits&(1<<3|1<<4|1<<9) != 0 {
		return codecerr.At(encErrVersion("Events, Signals and EventBuffer are not bare audit return items in the version 3 text grammar"), "auditToken")
	}
	in := ind
	if e.v < 3 {
		in = ind + 1
	}
	n := 0
	for i, w := range encAuditWords {
		if bits&(1<<i) != 0 {
			if n > 0 {
				e.sep(in)
			}
			e.w(w)
			n++
		}
	}
	return nil
}

func (e *textEncoder) indAuditParameter(p *model.IndAuditParameter, ind int) error {
	switch p.Kind {
	case model.IndAuditParameter_IndAudMediaDescriptor:
		return codecerr.At(e.indAudMedia(p.IndAudMediaDescriptor, ind), "indAudMediaDescriptor")
	case model.IndAuditParameter_IndAudEventsDescriptor:
		return codecerr.At(e.indAudEvents(p.IndAudEventsDescriptor, ind), "indAudEventsDescriptor")
	case model.IndAuditParameter_IndAudEventBufferDescriptor:
		d := p.IndAudEventBufferDescriptor
		if d == nil {
			return codecerr.At(encErrNoText("missing descriptor"), "indAudEventBufferDescriptor")
		}
		e.w(wEventBuffer)
		e.open(ind)
		if err := e.name(d.EventName, "event name"); err != nil {
			return codecerr.At(codecerr.At(err, "eventName"), "indAudEventBufferDescriptor")
		}
		if d.StreamID.Present {
			e.open(ind + 1)
			if err := e.stream(d.StreamID.Value); err != nil {
				return codecerr.At(codecerr.At(err, "streamID"), "indAudEventBufferDescriptor")
			}
			e.close(ind + 1)
		}
		e.close(ind)
		return nil
	case model.IndAuditParameter_IndAudSignalsDescriptor:
		return codecerr.At(e.indAudSignals(p.IndAudSignalsDescriptor, ind), "indAudSignalsDescriptor")
	case model.IndAuditParameter_IndAudDigitMapDescriptor:
		d := p.IndAudDigitMapDescriptor
		if d == nil || d.DigitMapName == nil {
			return codecerr.At(encErrNoText("an individual digit map audit needs a digit map name (audit all digit maps with the DigitMap audit token)"), "indAudDigitMapDescriptor")
		}
		e.w(wDigitMap)
		e.eq()
		return codecerr.At(codecerr.At(e.safeName(d.DigitMapName, "digit map name"), "digitMapName"), "indAudDigitMapDescriptor")
	case model.IndAuditParameter_IndAudStatisticsDescriptor:
		d := p.IndAudStatisticsDescriptor
		return codecerr.At(e.indAudStatistics(d, ind), "indAudStatisticsDescriptor")
	case model.IndAuditParameter_IndAudPackagesDescriptor:
		d := p.IndAudPackagesDescriptor
		if d == nil {
			return codecerr.At(encErrNoText("missing descriptor"), "indAudPackagesDescriptor")
		}
		e.w(wPackages)
		e.open(ind)
		if err := e.packagesItem(d.PackageName, d.PackageVersion); err != nil {
			return codecerr.At(err, "indAudPackagesDescriptor")
		}
		e.close(ind)
		return nil
	}
	return encErrNoTextf("no alternative chosen (kind %d)", p.Kind)
}

func (e *textEncoder) indAudStatistics(d *model.IndAudStatisticsDescriptor, ind int) error {
	if d == nil {
		return encErrNoText("missing descriptor")
	}
	e.w(wStats)
	e.open(ind)
	if err := e.name(d.StatName, "statistic name"); err != nil {
		return codecerr.At(err, "statName")
	}
	e.close(ind)
	return nil
}

// indAudMedia writes Media { TerminationState, streams } of an audit
// request. The indentation follows OTP exactly, odd as it is: stream
// parameters go two levels deeper than the Media brace.
func (e *textEncoder) indAudMedia(m *model.IndAudMediaDescriptor, ind int) error {
	if m == nil {
		return encErrNoText("missing descriptor")
	}
	if m.TermStateDescr == nil && m.Streams == nil {
		return encErrNoText("an empty individual media audit has no text form (audit the whole media descriptor with the Media audit token)")
	}
	if e.v < 3 && m.TermStateDescr != nil && m.Streams != nil {
		return encErrVersion(encSprintf("a media audit of both termination state and streams is not in the version %d text grammar (it needs version 3)", e.v))
	}
	e.w(wMedia)
	e.open(ind)
	if m.TermStateDescr != nil {
		if err := e.indAudTermState(m.TermStateDescr, ind+1); err != nil {
			return codecerr.At(err, "termStateDescr")
		}
		if m.Streams != nil {
			e.sep(ind)
		}
	}
	if s := m.Streams; s != nil {
		switch s.Kind {
		case model.IndAudMediaDescriptorStreams_OneStream:
			if s.OneStream == nil {
				return codecerr.At(codecerr.At(encErrNoText("missing stream parameters"), "oneStream"), "streams")
			}
			if err := e.indAudStreamParms(s.OneStream, ind+1); err != nil {
				return codecerr.At(codecerr.At(err, "oneStream"), "streams")
			}
		case model.IndAudMediaDescriptorStreams_MultiStream:
			if len(s.MultiStream) == 0 {
				return codecerr.At(codecerr.At(encErrNoText("an empty stream list has no text form"), "multiStream"), "streams")
			}
			if e.v < 3 && len(s.MultiStream) > 1 {
				return codecerr.At(codecerr.At(encErrVersion(encSprintf("a media audit of several streams is not in the version %d text grammar (it needs version 3)", e.v)), "multiStream"), "streams")
			}
			sdInd := ind + 1
			if e.v < 3 {
				sdInd++ // OTP v2 writes the stream one level deeper
			}
			for i := range s.MultiStream {
				if i > 0 {
					e.sep(ind + 1)
				}
				sd := &s.MultiStream[i]
				e.w(wStream)
				e.eq()
				if err := e.uint16(sd.StreamID); err != nil {
					return codecerr.At(codecerr.At(codecerr.AtIndex(codecerr.At(err, "streamID"), i), "multiStream"), "streams")
				}
				e.open(sdInd)
				if err := e.indAudStreamParms(&sd.StreamParms, sdInd+1); err != nil {
					return codecerr.At(codecerr.At(codecerr.AtIndex(codecerr.At(err, "streamParms"), i), "multiStream"), "streams")
				}
				e.close(sdInd)
			}
		default:
			return codecerr.At(encErrNoTextf("no alternative chosen (kind %d)", s.Kind), "streams")
		}
	}
	e.close(ind)
	return nil
}

// indAudStreamParms writes the audited LocalControl and Statistics of a
// stream; ind is the level of the line it starts on, and its items are
// written one level deeper (as OTP does).
func (e *textEncoder) indAudStreamParms(p *model.IndAudStreamParms, ind int) error {
	if p.LocalDescriptor != nil || p.RemoteDescriptor != nil {
		// OTP cannot write these (and would swap Local and Remote); the
		// grammar's indAudlocalDescriptor holds SDP text that the model's
		// property names do not give.
		field := "localDescriptor"
		if p.LocalDescriptor == nil {
			field = "remoteDescriptor"
		}
		return codecerr.At(encErrNoText("an individual Local or Remote audit has no defined text form"), field)
	}
	in := ind + 1
	var l itemList
	if c := p.LocalControlDescriptor; c != nil {
		e.item(&l, in)
		if err := e.indAudLocalControl(c, in); err != nil {
			return codecerr.At(err, "localControlDescriptor")
		}
	}
	if p.StatisticsDescriptor != nil {
		if e.v < 3 {
			return e.onlyIn("statisticsDescriptor", "a statistics audit in a stream", 3)
		}
		e.item(&l, in)
		if err := e.indAudStatistics(p.StatisticsDescriptor, in); err != nil {
			return codecerr.At(err, "statisticsDescriptor")
		}
	}
	if l.n == 0 {
		return encErrNoText("an empty stream audit has no text form")
	}
	return nil
}

// indAudLocalControl writes LocalControl { Mode, ReservedValue,
// ReservedGroup, properties } of an audit; in v3 a selected mode
// ("Mode = SendOnly") goes last, as OTP writes it.
func (e *textEncoder) indAudLocalControl(c *model.IndAudLocalControlDescriptor, ind int) error {
	if e.v < 3 && c.StreamModeSel.Present {
		return e.onlyIn("streamModeSel", "a stream mode selection", 3)
	}
	e.w(wLocalControl)
	e.open(ind)
	body := len(e.b)
	var l itemList
	e.keywordItem(&l, ind+1, c.StreamMode && !c.StreamModeSel.Present, wMode)
	e.keywordItem(&l, ind+1, c.ReserveValue, wReservedValue)
	e.keywordItem(&l, ind+1, c.ReserveGroup, wReservedGroup)
	if err := encItems(e, &l, ind+1, "propertyParms", c.PropertyParms, e.indAudPropertyParm); err != nil {
		return err
	}
	if c.StreamModeSel.Present {
		e.item(&l, ind+1)
		if err := e.streamMode(c.StreamModeSel.Value); err != nil {
			return codecerr.At(err, "streamModeSel")
		}
	}
	if len(e.b) == body {
		return encErrNoText("an empty LocalControl audit has no text form")
	}
	e.close(ind)
	return nil
}

// indAudPropertyParm writes an audited property name and, in v3, the
// property selecting on its value: "tdmc/gain, tdmc/gain=2".
func (e *textEncoder) indAudPropertyParm(p *model.IndAudPropertyParm, ind int) error {
	if err := e.name(p.Name, "property name"); err != nil {
		return codecerr.At(err, "name")
	}
	if p.PropertyParms != nil {
		if e.v < 3 {
			return e.onlyIn("propertyParms", "a property value selection", 3)
		}
		e.sep(ind)
		if err := e.propertyParm(p.PropertyParms, ind); err != nil {
			return codecerr.At(err, "propertyParms")
		}
	}
	return nil
}

// indAudTermState writes TerminationState { properties, Buffer,
// ServiceStates[ = state] } of an audit.
func (e *textEncoder) indAudTermState(t *model.IndAudTerminationStateDescriptor, ind int) error {
	if e.v < 3 && t.ServiceStateSel.Present {
		return e.onlyIn("serviceStateSel", "a service state selection", 3)
	}
	e.w(wTerminationState)
	e.open(ind)
	body := len(e.b)
	var l itemList
	if err := encItems(e, &l, ind+1, "propertyParms", t.PropertyParms, e.indAudPropertyParm); err != nil {
		return err
	}
	e.keywordItem(&l, ind+1, t.EventBufferControl, wBuffer)
	switch {
	case t.ServiceStateSel.Present:
		e.item(&l, ind+1)
		if err := e.serviceState(t.ServiceStateSel.Value); err != nil {
			return codecerr.At(err, "serviceStateSel")
		}
	case t.ServiceState:
		e.item(&l, ind+1)
		e.w(wServiceStates)
	}
	if len(e.b) == body {
		return encErrNoText("an empty TerminationState audit has no text form")
	}
	if e.v < 3 && l.n > 1 {
		return encErrVersion(encSprintf("a TerminationState audit of several items is not in the version %d text grammar (it needs version 3)", e.v))
	}
	e.close(ind)
	return nil
}

// indAudEvents writes Events[ = id] { name }.
func (e *textEncoder) indAudEvents(d *model.IndAudEventsDescriptor, ind int) error {
	if d == nil {
		return encErrNoText("missing descriptor")
	}
	if d.StreamID.Present {
		return codecerr.At(encErrNoText("an individual events audit has no stream in any text grammar"), "streamID")
	}
	e.w(wEvents)
	if d.RequestID.Present {
		e.eq()
		e.requestID(d.RequestID.Value)
	} else if e.v < 3 {
		return codecerr.At(encErrVersion(encSprintf("an events audit without a request ID is not in the version %d text grammar (it needs version 3)", e.v)), "requestID")
	}
	e.open(ind)
	if err := e.name(d.PkgdName, "event name"); err != nil {
		return codecerr.At(err, "pkgdName")
	}
	e.close(ind)
	return nil
}

// indAudSignals writes Signals { signal } or Signals { SignalList = id
// { signal } } of an audit; "Signals { }" when it names none.
func (e *textEncoder) indAudSignals(d *model.IndAudSignalsDescriptor, ind int) error {
	e.w(wSignals)
	e.open(ind)
	if d != nil {
		switch d.Kind {
		case model.IndAudSignalsDescriptor_Signal:
			if d.Signal == nil {
				return codecerr.At(encErrNoText("missing signal"), "signal")
			}
			if err := e.indAudSignal(d.Signal, ind+1); err != nil {
				return codecerr.At(err, "signal")
			}
		case model.IndAudSignalsDescriptor_SeqSigList:
			q := d.SeqSigList
			if q == nil {
				return codecerr.At(encErrNoText("missing signal itemList"), "seqSigList")
			}
			e.w(wSignalList)
			e.eq()
			if err := e.uint16(q.Id); err != nil {
				return codecerr.At(codecerr.At(err, "id"), "seqSigList")
			}
			if q.SignalList != nil {
				e.open(ind + 1)
				if err := e.indAudSignal(q.SignalList, ind+2); err != nil {
					return codecerr.At(codecerr.At(err, "signalList"), "seqSigList")
				}
				e.close(ind + 1)
			} else if e.v < 3 {
				return codecerr.At(codecerr.At(encErrVersion(encSprintf("a signal itemList audit without a signal is not in the version %d text grammar (it needs version 3)", e.v)), "signalList"), "seqSigList")
			}
		case 0:
		default:
			return encErrNoTextf("no alternative chosen (kind %d)", d.Kind)
		}
	} else if e.v < 3 {
		return encErrVersion(encSprintf("an empty signals audit is not in the version %d text grammar (it needs version 3)", e.v))
	}
	e.close(ind)
	return nil
}

// indAudSignal writes a signal name and, in v3, { Stream = n,
// SPARequestID = id }. (OTP writes the stream as a bare number, which the
// grammar does not have, and puts the second item one level less deep.)
func (e *textEncoder) indAudSignal(s *model.IndAudSignal, ind int) error {
	if err := e.name(s.SignalName, "signal name"); err != nil {
		return codecerr.At(err, "signalName")
	}
	if !s.StreamID.Present && !s.SignalRequestID.Present {
		return nil
	}
	if e.v < 3 {
		field := "streamID"
		if !s.StreamID.Present {
			field = "signalRequestID"
		}
		return e.onlyIn(field, "a stream or request ID in a signal audit", 3)
	}
	e.open(ind)
	if s.StreamID.Present {
		if err := e.stream(s.StreamID.Value); err != nil {
			return codecerr.At(err, "streamID")
		}
		if s.SignalRequestID.Present {
			e.sep(ind)
		}
	}
	if s.SignalRequestID.Present {
		e.w(wRequestID)
		e.eq()
		e.requestID(s.SignalRequestID.Value)
	}
	e.close(ind)
	return nil
}
