package text

import (
	"bytes"

	"megaco/internal/model"
)

// The rules Annex B states in its comments rather than in productions
// ("at-most-once", "REQUIRED", "but not both", reserved values), checked
// once a list is complete. Every rule is in docs/text-conformance.md with
// its source and its test. Each error names the rule and the place of the
// offending item; the checks allocate nothing unless they fail.

// decOnceName names, by kind, the list items Annex B allows at most once
// in their list (an empty name: any number). The lists differ (a
// LocalControl, a signal's parameters, a ServiceChange descriptor...), but
// no list holds two kinds that share a name.
var decOnceName = [...]string{
	pTopology: "Topology", pPriority: "Priority", pEmergency: "Emergency",
	pIEPS: "IEPSCall", pContextProps: "ContextAttr with properties",
	pContextList: "ContextAttr with a ContextList", pContextAudit: "ContextAudit",

	pAuditTopology: "Topology", pAuditEmergency: "Emergency",
	pAuditPriority: "Priority", pAuditIEPS: "IEPSCall",
	pSelectEmergency: "EmergencyValue", pSelectLogic: "ANDLgc/ORLgc",

	pLocal: "Local", pRemote: "Remote", pLocalControl: "LocalControl",
	pStatistics: "Statistics", pIndAudStatistics: "Statistics",
	pTerminationState: "TerminationState",
	pMode:             "Mode", pReserveValue: "ReservedValue", pReserveGroup: "ReservedGroup",
	pServiceState: "ServiceStates", pBuffer: "Buffer",
	pAuditMode: "Mode (audited)", pAuditReserveValue: "ReservedValue (audited)",
	pAuditReserveGroup: "ReservedGroup (audited)", pAuditServiceState: "ServiceStates (audited)",
	pAuditBuffer: "Buffer (audited)",

	pStream: "Stream", pKeepActive: "KeepActive", pEventDM: "DigitMap",
	pEmbed: "Embed", pNotifyBehaviour: "a notify behaviour",
	pResetEvents: "ResetEventsDescriptor",
	pSignalType:  "SignalType", pDuration: "Duration",
	pNotifyCompletion: "NotifyCompletion", pDirection: "SPADirection",
	pRequestID: "SPARequestID", pIntersigDelay: "Intersignal",

	pMethod: "Method", pReason: "Reason", pDelay: "Delay",
	pAddress: "ServiceChangeAddress", pProfile: "Profile",
	pTimeStamp: "a time stamp", pMgcID: "MgcIdToTry", pVersion: "Version",
	pIncomplete: "ServiceChangeInc",
	pExtension:  "", // the last kind: the array has room for all
}

// once checks Annex B's "at-most-once" over the items ps of one list: a
// kind decOnceName names may not come twice. where names the list ("in
// LocalControl"); at places an error whose item has no place of its own.
func (d *decoder) once(ps []decParam, at span, where string) {
	if len(ps) > 1 { // most lists have one item: no call for them
		d.onceIn(ps, at, where)
	}
}

func (d *decoder) onceIn(ps []decParam, at span, where string) {
	var seen uint64
	for _, p := range ps {
		if decOnceMask&(1<<p.kind) == 0 {
			continue
		}
		bit := uint64(1) << p.kind
		if seen&bit != 0 {
			d.failAt(decPlace(p.tok, at), decOnceName[p.kind]+" given twice in "+where)
			return
		}
		seen |= bit
	}
}

// decOnceMask has the bits of the kinds decOnceName names.
var decOnceMask = func() (m uint64) {
	for k, name := range decOnceName {
		if name != "" {
			m |= 1 << k
		}
	}
	return m
}()

// decPlace is s, or at if s has no place.
func decPlace(s, at span) span {
	if s.end > s.pos {
		return s
	}
	return at
}

// namesOnce checks "every ...Name at most once" over the items of kind k
// among ps, whose tok is the name: names are case-insensitive (Annex B.1).
func (d *decoder) namesOnce(ps []decParam, k decParamKind, what, where string) {
	if len(ps) > 1 {
		d.namesOnceIn(ps, k, what, where)
	}
}

func (d *decoder) namesOnceIn(ps []decParam, k decParamKind, what, where string) {
	for i, p := range ps {
		if p.kind != k || p.tok.end <= p.tok.pos {
			continue
		}
		for _, q := range ps[:i] {
			if q.kind == k && bytes.EqualFold(d.bytes(q.tok), d.bytes(p.tok)) {
				d.failAt(p.tok, what+" "+d.quote(p.tok)+" given twice in "+where)
				return
			}
		}
	}
}

// statsOnce checks "at-most-once per item" of a Statistics descriptor.
func (d *decoder) statsOnce(ps []model.StatisticsParameter, at span) {
	for i := 1; i < len(ps); i++ {
		for j := range ps[:i] {
			if bytes.EqualFold(ps[i].StatName, ps[j].StatName) {
				d.failAt(at, "statistic "+`"`+string(ps[i].StatName)+`"`+" given twice in Statistics")
				return
			}
		}
	}
}

// modemTypesOnce checks "at-most-once" of the modem types of a Modem
// descriptor.
func (d *decoder) modemTypesOnce(ts []model.ModemType, at span) {
	var seen uint64
	for _, t := range ts {
		bit := uint64(1) << (uint(t) & 63)
		if seen&bit != 0 {
			d.failAt(at, "modem type given twice in Modem")
			return
		}
		seen |= bit
	}
}

// decAmmNames names the descriptors of an Add, Move or Modify.
var decAmmNames = [...]string{
	model.AmmDescriptor_MediaDescriptor:       "Media",
	model.AmmDescriptor_ModemDescriptor:       "Modem",
	model.AmmDescriptor_MuxDescriptor:         "Mux",
	model.AmmDescriptor_EventsDescriptor:      "Events",
	model.AmmDescriptor_EventBufferDescriptor: "EventBuffer",
	model.AmmDescriptor_SignalsDescriptor:     "Signals",
	model.AmmDescriptor_DigitMapDescriptor:    "DigitMap",
	model.AmmDescriptor_AuditDescriptor:       "Audit",
	model.AmmDescriptor_StatisticsDescriptor:  "Statistics",
}

// ammOnce checks "at-most-once" of the descriptors (ammParameter) of an
// Add, Move or Modify.
func (d *decoder) ammOnce(ds []model.AmmDescriptor, at span) {
	if len(ds) > 1 {
		d.ammOnceIn(ds, at)
	}
}

func (d *decoder) ammOnceIn(ds []model.AmmDescriptor, at span) {
	var seen uint64
	for _, a := range ds {
		bit := uint64(1) << (uint(a.Kind) & 63)
		if seen&bit != 0 {
			name := "a descriptor"
			if int(a.Kind) < len(decAmmNames) && decAmmNames[a.Kind] != "" {
				name = decAmmNames[a.Kind]
			}
			d.failAt(at, name+" given twice in "+d.quote(at))
			return
		}
		seen |= bit
	}
}

// decAuditNames names the bits of AuditDescriptor.auditToken.
var decAuditNames = [...]string{
	auditMux: "Mux", auditModem: "Modem", auditMedia: "Media",
	auditEvents: "Events", auditSignals: "Signals", auditDigitMap: "DigitMap",
	auditStatistics: "Statistics", auditObservedEvents: "ObservedEvents",
	auditPackages: "Packages", auditEventBuffer: "EventBuffer",
}

// auditTokensOnce checks "at-most-once" of the audit tokens (auditItem)
// of an Audit descriptor or a ServiceChange descriptor.
func (d *decoder) auditTokensOnce(ps []decParam, at span, where string) {
	if len(ps) > 1 {
		d.auditTokensOnceIn(ps, at, where)
	}
}

func (d *decoder) auditTokensOnceIn(ps []decParam, at span, where string) {
	var seen uint64
	for _, p := range ps {
		if p.kind != pAuditToken {
			continue
		}
		bit := uint64(1) << (p.u & 63)
		if seen&bit != 0 {
			name := "an audit token"
			if int(p.u) < len(decAuditNames) {
				name = decAuditNames[p.u]
			}
			d.failAt(decPlace(p.tok, at), name+" given twice in "+where)
			return
		}
		seen |= bit
	}
}

// eventActionsRules checks the rules of a requested event's parameters
// beyond at-most-once: an embedded Signals descriptor and KeepActive not
// both (embedWithSig, embedSig).
func (d *decoder) eventActionsRules(ps []decParam, acts *decEventActions, at span) {
	if acts.keepActive && acts.embed != nil && acts.embed.SignalsDescriptor != nil {
		d.keepActiveWithSignals(ps, at)
	}
}

func (d *decoder) keepActiveWithSignals(ps []decParam, at span) {
	for _, p := range ps {
		if p.kind == pEmbed {
			at = decPlace(p.tok, at)
		}
	}
	d.failAt(at, "KeepActive and an Embed with Signals both given for one event")
}

// reasonCode checks serviceChangeReason: "a decimal reason code,
// optionally followed by a single space character and a textual
// description" (Annex B; the quotes are left out: see the docs).
func (d *decoder) reasonCode(s span) {
	w := d.bytes(s)
	if len(w) >= 2 && w[0] == '"' {
		s = span{s.pos + 1, s.end - 1}
		w = d.bytes(s)
	}
	i := 0
	for i < len(w) && w[i] >= '0' && w[i] <= '9' {
		i++
	}
	if i == 0 || i < len(w) && w[i] != ' ' {
		d.failAt(s, "ServiceChange Reason "+d.quote(s)+" does not start with a decimal reason code")
	}
}
