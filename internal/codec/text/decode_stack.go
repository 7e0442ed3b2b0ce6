package text

import (
	"megaco/internal/codec/slab"
	"megaco/internal/model"
)

// What the grammar actions hand each other: the codes rules pass in $$,
// the stacks where a rule leaves what it built for the rule that uses it,
// and the slabs the model's memory comes from.

// Codes the rules pass in $$.
const (
	replyError  = 1 // the reply holds an errorDescriptor
	replyImmAck = 2 // ImmAckRequired
	replyShift  = 2 // the number of action replies or items, shifted

	prefixOptional = 1 // "O-"
	prefixWildcard = 2 // "W-"

	directionExternal = 8 // OnewayExternal
	directionBoth     = 9 // OnewayBoth

	auditValue = 1
	auditCap   = 2

	serviceChangeReplyNone  = 0
	serviceChangeReplyError = 1
	serviceChangeReplyParms = 2
)

// Bits of AuditDescriptor.auditToken (and of emptyDescriptors).
const (
	auditMux            = 0
	auditModem          = 1
	auditMedia          = 2
	auditEvents         = 3
	auditSignals        = 4
	auditDigitMap       = 5
	auditStatistics     = 6
	auditObservedEvents = 7
	auditPackages       = 8
	auditEventBuffer    = 9
)

// How parmValue relates its values to the name; decValueCode packs it with
// the number of values.
const (
	valueSingle  = iota // "=" VALUE
	valueGreater        // ">"
	valueSmaller        // "<"
	valueUnequal        // "#"
	valueRange          // "[a:b]"
	valueAnd            // "[a,b]"
	valueOr             // "{a,b}"
)

func decValueCode(n, relation int) int { return n<<3 | relation }

// A decParam is one item of a descriptor whose items differ in kind (the
// parameters of a signal, the items of a LocalControl...). What it carries
// besides tok and u is on the stack its kind names.
type decParam struct {
	kind decParamKind
	tok  span
	u    uint32
}

type decParamKind uint8

const (
	pNone decParamKind = iota

	// Context properties: actionRequest, actionReply.
	pTopology     // u topology requests on topo
	pPriority     // tok: the priority
	pEmergency    // u: 1 Emergency, 0 EmergencyOff
	pIEPS         // tok: ON or OFF
	pContextProps // u properties on props
	pContextList  // u context IDs on ctxIDs
	pContextAudit // *ContextAttrAuditRequest on objs
	pCommand      // a CommandRequest on cmdReqs, or a CommandReply on cmdReps

	// ContextAudit.
	pAuditTopology
	pAuditEmergency
	pAuditPriority
	pAuditIEPS
	pAuditName       // tok: a property to audit (also LocalControl, TerminationState)
	pSelectEmergency // u
	pSelectLogic     // u: the SelectLogic kind
	pProperty        // a PropertyParm on props

	// Media, streams.
	pLocal            // *LocalRemoteDescriptor or *IndAudLocalRemoteDescriptor on objs
	pRemote           // the same
	pLocalControl     // *LocalControlDescriptor or *IndAudLocalControlDescriptor on objs
	pStatistics       // u statistics on stats
	pIndAudStatistics // *IndAudStatisticsDescriptor on objs
	pStreamDescriptor // a StreamDescriptor on streams, or an IndAudStreamDescriptor on iaStreams
	pTerminationState // *TerminationStateDescriptor or *IndAudTerminationStateDescriptor on objs
	pMode             // u: StreamMode
	pReserveValue     // u: 1 ON
	pReserveGroup     // u: 1 ON
	pServiceState     // u: ServiceState
	pBuffer           // u: EventBufferControl
	pAuditMode
	pAuditReserveValue
	pAuditReserveGroup
	pAuditServiceState
	pAuditBuffer

	// Events and signals.
	pStream           // tok: StreamID
	pEventParameter   // an EventParameter on evPars
	pKeepActive       //
	pEventDM          // *EventDM on objs
	pEmbed            // *RegulatedEmbeddedDescriptor on objs
	pNotifyBehaviour  // *NotifyBehaviour on objs
	pResetEvents      //
	pSignalType       // u: SignalType
	pDuration         // tok
	pNotifyCompletion // u: the bits
	pDirection        // u: SignalDirection
	pRequestID        // tok
	pIntersigDelay    // tok
	pSigParameter     // a SigParameter on sigPars
	pTimer            // tok: "T:1"

	// Audit items (auditDescriptor, serviceChangeParm).
	pAuditToken // u: the bit
	pIndAud     // an IndAuditParameter on indAuds

	// ServiceChange.
	pMethod     // u: ServiceChangeMethod
	pReason     // a value on octs
	pDelay      // tok
	pAddress    // *MId on objs
	pProfile    // tok
	pTimeStamp  // tok
	pMgcID      // *MId on objs
	pVersion    // tok
	pIncomplete //
	pExtension  // nothing: extension parameters are not kept
)

// decParamObj says which kinds carry an object on objs.
var decParamObj = [...]bool{
	pContextAudit: true, pLocal: true, pRemote: true, pLocalControl: true,
	pIndAudStatistics: true, pTerminationState: true, pEventDM: true,
	pEmbed: true, pNotifyBehaviour: true, pAddress: true, pMgcID: true,
	pExtension: false, // the last kind: the array has room for all
}

func (d *decoder) param(kind decParamKind, tok span, u uint32) {
	d.count()
	d.params = append(d.params, decParam{kind, tok, u})
}

// items returns the parameters of the last n items; the objects they
// carry are objs, in the same order; drop(n) removes both.
func (d *decoder) items(n int) (ps []decParam, objs []any) {
	n = min(max(n, 0), len(d.params))
	ps = d.params[len(d.params)-n:]
	k := 0
	for _, p := range ps {
		if decParamObj[p.kind] {
			k++
		}
	}
	k = min(k, len(d.objs))
	return ps, d.objs[len(d.objs)-k:]
}

func (d *decoder) drop(ps []decParam, objs []any) {
	d.params = d.params[:len(d.params)-len(ps)]
	clear(objs)
	d.objs = d.objs[:len(d.objs)-len(objs)]
}

func (d *decoder) pushObj(o any) {
	d.count()
	d.objs = append(d.objs, o)
}

// popObj takes the newest object, which must be a *T. (If it is not, the
// grammar and the builder disagree; the decode has failed already or is
// about to.)
func decPop[T any](d *decoder) *T {
	if n := len(d.objs); n > 0 {
		o := d.objs[n-1]
		d.objs[n-1] = nil
		d.objs = d.objs[:n-1]
		if p, ok := o.(*T); ok {
			return p
		}
	}
	d.failAt(d.cur().s, "internal error: the decoder lost track of a descriptor")
	return new(T)
}

// objAt returns objs[*i] as a *T and advances *i.
func decObjAt[T any](d *decoder, objs []any, i *int) *T {
	if *i < len(objs) {
		o := objs[*i]
		*i++
		if p, ok := o.(*T); ok {
			return p
		}
	}
	d.failAt(d.cur().s, "internal error: the decoder lost track of a descriptor")
	return new(T)
}

// push appends v to a stack, counting it.
func decPush[T any](d *decoder, st *[]T, v T) {
	d.count()
	*st = append(*st, v)
}

// take moves the newest n values of a stack, in order, into a slice from
// sl. n == 0 gives an empty (non-nil) slice.
func decTake[T any](st *[]T, sl *slab.Slab[T], n int) []T {
	s := *st
	n = min(max(n, 0), len(s))
	out := sl.Room(n) // inlined: most lists fit in the chunk
	if out == nil {
		out = sl.Raw(n)
	}
	if n == 1 {
		// Most lists have one item: an assignment, not the runtime's
		// general copy of values with pointers.
		out[0] = s[len(s)-1]
	} else {
		copy(out, s[len(s)-n:])
	}
	*st = s[:len(s)-n]
	return out
}

// ---------------------------------------------------------------------
// Memory.

// decSlabs is the memory a decoder hands out: slab.Model (generated from
// the schema, shared with the binary decoders) and the text decoder's own
// byte buffer.
type decSlabs struct {
	slab.Model
	bytes slab.Slab[byte]
	// ServiceChange parameters are built before their request is.
	serviceChangeParm slab.Slab[model.ServiceChangeParm]
}

// keep makes every slab hand out values for good (Decode's decoders).
func (s *decSlabs) keep() {
	s.Model.Keep()
	s.bytes.Keep()
	s.serviceChangeParm.Keep()
}

// reset makes the memory of every slab available again.
func (s *decSlabs) reset() {
	s.Model.Reset()
	s.bytes.Reset()
	s.serviceChangeParm.Reset()
}

// decOne returns a pointer to one zeroed value from sl, zeroed by an
// assignment rather than the runtime's clearing of memory with pointers.
func decOne[T any](sl *slab.Slab[T]) *T {
	r := sl.Room(1) // inlined: most values fit in the chunk
	if r == nil {
		r = sl.Raw(1)
	}
	p := &r[0]
	var zero T
	*p = zero
	return p
}
