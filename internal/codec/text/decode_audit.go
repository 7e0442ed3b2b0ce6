package text

import "megaco/internal/model"

// The builder's actions for the audit descriptors of versions 2 and 3
// (indAud...): what an AuditValue or AuditCapability asks about.

func (d *decoder) indAud(kind model.IndAuditParameterKind) {
	a := model.IndAuditParameter{Kind: kind}
	switch kind {
	case model.IndAuditParameter_IndAudMediaDescriptor:
		a.IndAudMediaDescriptor = decPop[model.IndAudMediaDescriptor](d)
	case model.IndAuditParameter_IndAudEventsDescriptor:
		a.IndAudEventsDescriptor = decPop[model.IndAudEventsDescriptor](d)
	case model.IndAuditParameter_IndAudEventBufferDescriptor:
		a.IndAudEventBufferDescriptor = decPop[model.IndAudEventBufferDescriptor](d)
	case model.IndAuditParameter_IndAudSignalsDescriptor:
		a.IndAudSignalsDescriptor = decPop[model.IndAudSignalsDescriptor](d)
	case model.IndAuditParameter_IndAudDigitMapDescriptor:
		a.IndAudDigitMapDescriptor = decPop[model.IndAudDigitMapDescriptor](d)
	case model.IndAuditParameter_IndAudStatisticsDescriptor:
		a.IndAudStatisticsDescriptor = decPop[model.IndAudStatisticsDescriptor](d)
	case model.IndAuditParameter_IndAudPackagesDescriptor:
		a.IndAudPackagesDescriptor = decPop[model.IndAudPackagesDescriptor](d)
	}
	decPush(d, &d.indAuds, a)
}

func (d *decoder) indAudMedia(kw span, n int) {
	ps, objs := d.items(n)
	m := decOne(&d.sl.IndAudMediaDescriptor)
	var one *model.IndAudStreamParms
	nStreams, oi := 0, 0
	for _, p := range ps {
		switch p.kind {
		case pStreamDescriptor:
			nStreams++
		case pTerminationState:
			m.TermStateDescr = decObjAt[model.IndAudTerminationStateDescriptor](d, objs, &oi)
		case pLocal, pRemote, pLocalControl, pIndAudStatistics:
			if one == nil {
				one = decOne(&d.sl.IndAudStreamParms)
			}
			d.indAudStreamParm(one, p, objs, &oi)
		}
	}
	if one != nil && nStreams > 0 {
		d.failAt(kw, "a Media descriptor with both Stream descriptors and stream parameters outside them")
	}
	switch {
	case nStreams > 0:
		m.Streams = decOne(&d.sl.IndAudMediaDescriptorStreams)
		m.Streams.Kind = model.IndAudMediaDescriptorStreams_MultiStream
		m.Streams.MultiStream = decTake(&d.iaStreams, &d.sl.IndAudStreamDescriptor, nStreams)
	case one != nil:
		m.Streams = decOne(&d.sl.IndAudMediaDescriptorStreams)
		m.Streams.Kind = model.IndAudMediaDescriptorStreams_OneStream
		m.Streams.OneStream = one
	}
	d.drop(ps, objs)
	d.pushObj(m)
}

func (d *decoder) indAudStreamParm(sp *model.IndAudStreamParms, p decParam, objs []any, oi *int) {
	switch p.kind {
	case pLocal:
		sp.LocalDescriptor = decObjAt[model.IndAudLocalRemoteDescriptor](d, objs, oi)
	case pRemote:
		sp.RemoteDescriptor = decObjAt[model.IndAudLocalRemoteDescriptor](d, objs, oi)
	case pLocalControl:
		sp.LocalControlDescriptor = decObjAt[model.IndAudLocalControlDescriptor](d, objs, oi)
	case pIndAudStatistics:
		sp.StatisticsDescriptor = decObjAt[model.IndAudStatisticsDescriptor](d, objs, oi)
	}
}

func (d *decoder) indAudStream(id span, n int) {
	ps, objs := d.items(n)
	s := model.IndAudStreamDescriptor{StreamID: d.num16(id, "stream ID")}
	oi := 0
	for _, p := range ps {
		d.indAudStreamParm(&s.StreamParms, p, objs, &oi)
	}
	d.drop(ps, objs)
	decPush(d, &d.iaStreams, s)
}

func (d *decoder) indAudLocalRemote(kw, s span, kind decParamKind) {
	d.need(3, kw, "a Local or Remote audit")
	l := decOne(&d.sl.IndAudLocalRemoteDescriptor)
	groups := d.sdp(s)
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	l.PropGrps = d.sl.IndAudPropertyParm.Zeroed(n)
	i := 0
	for _, g := range groups {
		for j := range g {
			l.PropGrps[i] = model.IndAudPropertyParm{Name: g[j].Name}
			if len(g[j].Value) == 1 && len(g[j].Value[0]) > 0 {
				l.PropGrps[i].PropertyParms = &g[j]
			}
			i++
		}
	}
	d.pushObj(l)
	d.param(kind, kw, 0)
}

// indAudProperties builds the properties of an audited LocalControl or
// TerminationState: a name alone, or a name with a value to select on. As
// Erlang/OTP does, a name followed at once by a property with a value
// makes one item.
func (d *decoder) indAudProperties(ps []decParam) []model.IndAudPropertyParm {
	nProps, nNames := 0, 0
	for _, p := range ps {
		switch p.kind {
		case pProperty:
			nProps++
		case pAuditName:
			nNames++
		}
	}
	props := decTake(&d.props, &d.sl.PropertyParm, nProps)
	out := d.sl.IndAudPropertyParm.Zeroed(nProps + nNames)
	k, j := 0, 0
	for i, p := range ps {
		switch p.kind {
		case pAuditName:
			out[k] = model.IndAudPropertyParm{Name: d.octets(p.tok)}
			k++
		case pProperty:
			d.need(3, d.cur().s, "a property value in an audit")
			if i > 0 && ps[i-1].kind == pAuditName {
				out[k-1].PropertyParms = &props[j]
			} else {
				out[k] = model.IndAudPropertyParm{Name: props[j].Name, PropertyParms: &props[j]}
				k++
			}
			j++
		}
	}
	return out[:k:k]
}

func (d *decoder) indAudLocalControl(kw span, n int) {
	ps, objs := d.items(n)
	d.once(ps, kw, "LocalControl")
	c := decOne(&d.sl.IndAudLocalControlDescriptor)
	for _, p := range ps {
		switch p.kind {
		case pAuditMode:
			c.StreamMode = true
		case pMode:
			d.need(3, p.tok, "a Mode value in an audit")
			c.StreamModeSel = model.Some(model.StreamMode(p.u))
		case pAuditReserveValue:
			c.ReserveValue = true
		case pAuditReserveGroup:
			c.ReserveGroup = true
		}
	}
	if props := d.indAudProperties(ps); len(props) > 0 {
		c.PropertyParms = props
	}
	d.drop(ps, objs)
	d.pushObj(c)
}

func (d *decoder) indAudTerminationState(kw span, n int) {
	ps, objs := d.items(n)
	d.once(ps, kw, "TerminationState")
	t := decOne(&d.sl.IndAudTerminationStateDescriptor)
	for _, p := range ps {
		switch p.kind {
		case pAuditServiceState:
			t.ServiceState = true
		case pServiceState:
			d.need(3, p.tok, "a ServiceStates value in an audit")
			t.ServiceStateSel = model.Some(model.ServiceState(p.u))
		case pAuditBuffer:
			t.EventBufferControl = true
		}
	}
	t.PropertyParms = d.indAudProperties(ps)
	d.drop(ps, objs)
	d.pushObj(t)
}

func (d *decoder) indAudEventBuffer(name, stream span) {
	e := decOne(&d.sl.IndAudEventBufferDescriptor)
	e.EventName = d.octets(name)
	if stream.end > stream.pos {
		e.StreamID = model.Some(d.num16(stream, "stream ID"))
	}
	d.pushObj(e)
}

func (d *decoder) indAudEvents(id, name span) {
	e := decOne(&d.sl.IndAudEventsDescriptor)
	if id.end > id.pos {
		e.RequestID = model.Some(d.requestID(id))
	}
	e.PkgdName = d.octets(name)
	d.pushObj(e)
}

func (d *decoder) indAudSignal(name span, n int) {
	ps, objs := d.items(n)
	s := decOne(&d.sl.IndAudSignal)
	s.SignalName = d.octets(name)
	d.once(ps, name, "a signal")
	for _, p := range ps {
		switch p.kind {
		case pStream:
			s.StreamID = model.Some(d.num16(p.tok, "stream ID"))
		case pRequestID:
			d.need(3, p.tok, "SPARequestID")
			s.SignalRequestID = model.Some(d.requestID(p.tok))
		}
	}
	d.drop(ps, objs)
	d.pushObj(s)
}

func (d *decoder) indAudSignals() {
	s := decOne(&d.sl.IndAudSignalsDescriptor)
	s.Kind = model.IndAudSignalsDescriptor_Signal
	s.Signal = decPop[model.IndAudSignal](d)
	d.pushObj(s)
}

func (d *decoder) indAudSignalList(id span, withSignal bool) {
	l := decOne(&d.sl.IndAudSeqSigList)
	if withSignal {
		l.SignalList = decPop[model.IndAudSignal](d)
	}
	l.Id = d.num16(id, "signal list ID")
	s := decOne(&d.sl.IndAudSignalsDescriptor)
	s.Kind, s.SeqSigList = model.IndAudSignalsDescriptor_SeqSigList, l
	d.pushObj(s)
}

func (d *decoder) indAudDigitMap(name span) {
	m := decOne(&d.sl.IndAudDigitMapDescriptor)
	m.DigitMapName = d.octets(name)
	d.pushObj(m)
}

func (d *decoder) indAudStatistics(name span) {
	s := decOne(&d.sl.IndAudStatisticsDescriptor)
	s.StatName = d.octets(name)
	d.pushObj(s)
}

func (d *decoder) indAudPackages() {
	p := decOne(&d.sl.IndAudPackagesDescriptor)
	if n := len(d.pkgItems); n > 0 {
		it := d.pkgItems[n-1]
		d.pkgItems = d.pkgItems[:n-1]
		p.PackageName, p.PackageVersion = it.PackageName, it.PackageVersion
	}
	d.pushObj(p)
}
