package text

import (
	"megaco/internal/codec/slab"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"megaco/internal/model"
)

// DecodeOptions tune a decode.
type DecodeOptions struct {
	// Version forces the protocol version (1, 2 or 3) of the result and of
	// the version checks. Zero takes it from the MEGACO/N header.
	Version int
	// Style names the encoding in error messages: "pretty", "compact", or
	// "" for "text". The decoder reads both styles whatever it says.
	Style string
	// Limits bound the work and memory of a decode; a zero field takes its
	// default from DefaultDecodeLimits.
	Limits DecodeLimits
}

// DecodeLimits bound a decode, whatever the input.
type DecodeLimits struct {
	MaxSize         int // bytes in a message
	MaxDepth        int // open braces and brackets at any point
	MaxElements     int // list items, descriptors and parameters in a message
	MaxNumberLength int // digits in a number (a longer one is an error, even with leading zeros)
}

// DefaultDecodeLimits fit real Megaco traffic with a wide margin.
var DefaultDecodeLimits = DecodeLimits{
	MaxSize:         1 << 20,
	MaxDepth:        64,
	MaxElements:     131072,
	MaxNumberLength: 20,
}

// DecodeError is a message that could not be decoded: its place, and what
// was wrong there. Error() reads like
//
//	compact: 3:17: expected '=' after ServiceChange, found ','
type DecodeError struct {
	Style  string // "pretty", "compact" or "text"
	Line   int    // 1-based
	Column int    // 1-based, in bytes
	Offset int    // in bytes from the start of the message
	// For a syntax error: the token found and what would have been
	// accepted instead, as the message shows them. Empty otherwise.
	Found    string
	Expected []string
	// Msg is the message after the place.
	Msg string
}

func (e *DecodeError) Error() string {
	return e.Style + ": " + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Column) + ": " + e.Msg
}

// Decode decodes one text message, pretty or compact, of protocol version
// 1, 2 or 3 into the text form of the model (see package mapping). The
// message keeps references into a private copy of data, never into data
// itself.
func Decode(data []byte, opts DecodeOptions) (*model.MegacoMessage, error) {
	// The parser and the stacks come from a pool; the message's memory
	// (its copy of data, the slabs) is its own.
	d := decoderPool.Get().(*decoder)
	d.reset()
	d.sl, d.src = decSlabs{}, nil
	m, err := d.decode(data, opts, new(model.MegacoMessage))
	d.sl, d.src, d.msg, d.sc = decSlabs{}, nil, nil, scanner{}
	decoderPool.Put(d)
	return m, err
}

var decoderPool = sync.Pool{New: func() any { return new(decoder) }}

// A Decoder decodes messages one after the other, reusing its memory: the
// message Decode returns is valid until the next call of Decode. A Decoder
// is not safe for concurrent use.
type Decoder struct {
	Options DecodeOptions
	d       decoder
	msg     model.MegacoMessage
}

// Decode decodes data; see the type's documentation for the lifetime of
// the result.
func (dec *Decoder) Decode(data []byte) (*model.MegacoMessage, error) {
	dec.d.reset()
	dec.msg = model.MegacoMessage{}
	return dec.d.decode(data, dec.Options, &dec.msg)
}

// decoder is the parser's lexer and the builder of the model: the grammar
// actions call its methods (through bld).
type decoder struct {
	sc      scanner
	src     []byte // the private copy of the message
	msg     *model.MegacoMessage
	version int // protocol version of the result
	forced  bool
	style   string
	lim     DecodeLimits
	elems   int

	// The token being looked at, and how many the parser took.
	cur  lexToken
	ntok int

	// The first error: a syntax error (errSyntax) is described once the
	// parse stops, anything else at once.
	err       *DecodeError
	errSyntax bool

	parser yyParserImpl

	// Stacks: what rules built and their parents have not taken yet.
	params    []decParam
	objs      []any
	octs      []model.Octets
	tids      []model.TerminationID
	props     []model.PropertyParm
	evPars    []model.EventParameter
	sigPars   []model.SigParameter
	sigs      []model.Signal
	sigReqs   []model.SignalRequest
	reqEvs    []model.RequestedEvent
	secEvs    []model.SecondRequestedEvent
	obsEvs    []model.ObservedEvent
	evSpecs   []model.EventSpec
	streams   []model.StreamDescriptor
	iaStreams []model.IndAudStreamDescriptor
	stats     []model.StatisticsParameter
	pkgItems  []model.PackagesItem
	indAuds   []model.IndAuditParameter
	topo      []model.TopologyRequest
	acks      []model.TransactionAck
	amms      []model.AmmDescriptor
	arps      []model.AuditReturnParameter
	cmdReqs   []model.CommandRequest
	cmdReps   []model.CommandReply
	actReqs   []model.ActionRequest
	actReps   []model.ActionReply
	trans     []model.Transaction
	ctxIDs    []uint32
	modems    []model.ModemType

	sl decSlabs
}

type lexToken struct {
	kind int
	s    span
}

// reset readies a used decoder for the next message, keeping its memory.
func (d *decoder) reset() {
	d.sl.reset()
	d.params, d.objs, d.octs, d.tids = d.params[:0], d.objs[:0], d.octs[:0], d.tids[:0]
	d.props, d.evPars, d.sigPars, d.sigs = d.props[:0], d.evPars[:0], d.sigPars[:0], d.sigs[:0]
	d.sigReqs, d.reqEvs, d.secEvs, d.obsEvs = d.sigReqs[:0], d.reqEvs[:0], d.secEvs[:0], d.obsEvs[:0]
	d.evSpecs, d.streams, d.iaStreams, d.stats = d.evSpecs[:0], d.streams[:0], d.iaStreams[:0], d.stats[:0]
	d.pkgItems, d.indAuds, d.topo, d.acks = d.pkgItems[:0], d.indAuds[:0], d.topo[:0], d.acks[:0]
	d.amms, d.arps, d.cmdReqs, d.cmdReps = d.amms[:0], d.arps[:0], d.cmdReqs[:0], d.cmdReps[:0]
	d.actReqs, d.actReps, d.trans, d.ctxIDs, d.modems = d.actReqs[:0], d.actReps[:0], d.trans[:0], d.ctxIDs[:0], d.modems[:0]
}

func (d *decoder) decode(data []byte, opts DecodeOptions, m *model.MegacoMessage) (*model.MegacoMessage, error) {
	d.lim = opts.Limits
	def := DefaultDecodeLimits
	if d.lim.MaxSize <= 0 {
		d.lim.MaxSize = def.MaxSize
	}
	if d.lim.MaxDepth <= 0 {
		d.lim.MaxDepth = def.MaxDepth
	}
	if d.lim.MaxElements <= 0 {
		d.lim.MaxElements = def.MaxElements
	}
	if d.lim.MaxNumberLength <= 0 {
		d.lim.MaxNumberLength = def.MaxNumberLength
	}
	d.style = opts.Style
	if d.style == "" {
		d.style = "text"
	}
	d.msg, d.err, d.errSyntax, d.elems, d.ntok = m, nil, false, 0, 0
	d.cur = lexToken{}
	d.version, d.forced = opts.Version, opts.Version != 0
	if len(data) > d.lim.MaxSize {
		return nil, &DecodeError{Style: d.style, Line: 1, Column: 1,
			Msg: "message of " + strconv.Itoa(len(data)) + " bytes exceeds the limit of " + strconv.Itoa(d.lim.MaxSize)}
	}
	if d.forced && (d.version < 1 || d.version > 3) {
		return nil, &DecodeError{Style: d.style, Line: 1, Column: 1,
			Msg: "protocol version " + strconv.Itoa(d.version) + " forced, want 1, 2 or 3"}
	}
	// The private copy lets the model share bytes and strings with it.
	d.src = append(d.src[:0], data...)
	d.sc = scanner{src: d.src, maxDepth: d.lim.MaxDepth}
	d.parser.Parse(d)
	if d.err != nil {
		if d.errSyntax {
			d.describeSyntaxError()
		}
		return nil, d.err
	}
	return m, nil
}

// bld gives the grammar actions the decoder.
func bld(l yyLexer) *decoder { return l.(*decoder) }

// Lex hands the parser the next token.
func (d *decoder) Lex(lval *yySymType) int {
	if d.err != nil {
		return 0 // stop: an error was found
	}
	k, s := d.sc.next()
	if k == VersionHeader {
		d.header(s)
	}
	d.cur = lexToken{k, s}
	d.ntok++
	lval.tok = s
	return k
}

// Error is the parser's report of a syntax error at the current token.
func (d *decoder) Error(string) {
	if d.err != nil {
		return
	}
	if d.cur.kind == LexError {
		d.failAt(d.sc.errAt, d.sc.errMsg)
		return
	}
	d.err = &DecodeError{Style: d.style}
	d.errSyntax = true
	d.place(d.err, d.cur.s.pos)
}

// header reads the version of a MEGACO/N header.
func (d *decoder) header(s span) {
	w := d.src[s.pos:s.end]
	v := w[lexIndexByte(w, '/')+1:]
	n := 0
	for _, c := range v {
		if n = n*10 + int(c-'0'); n > 99 {
			break
		}
	}
	if n < 1 || n > 3 {
		d.failAt(s, "protocol version "+string(v)+" is not 1, 2 or 3")
		return
	}
	if !d.forced {
		d.version = n
	}
}

// place sets the line and column of an offset.
func (d *decoder) place(e *DecodeError, off int32) {
	line, col := 1, 1
	src := d.src[:min(int(off), len(d.src))]
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			line, col = line+1, 1
			continue
		case '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				line, col = line+1, 1
				continue
			}
		}
		col++
	}
	e.Line, e.Column, e.Offset = line, col, int(off)
}

// failAt records an error at s, unless one was found before. The parse
// stops at the next token.
func (d *decoder) failAt(s span, msg string) {
	if d.err != nil {
		return
	}
	d.err = &DecodeError{Style: d.style, Msg: msg}
	d.place(d.err, s.pos)
}

// need checks that the message's version has a construct.
func (d *decoder) need(v int, at span, what string) {
	if d.version < v {
		d.failAt(at, what+" is not in version "+strconv.Itoa(d.version)+" (it needs version "+strconv.Itoa(v)+" or later)")
	}
}

// noModelField reports text the message model has no field for.
func (d *decoder) noModelField(at span, what string) {
	d.failAt(at, what+" has no field in the message model")
}

// noInequality reports a '<', '>' or '#' selection the model cannot hold.
func (d *decoder) noInequality(at span, what string) {
	d.failAt(at, what+" with '<', '>' or '#' has no field in the message model")
	d.param(pNone, at, 0)
}

// count notes one more element and checks the limit.
func (d *decoder) count() {
	if d.elems++; d.elems > d.lim.MaxElements {
		d.tooMany()
	}
}

func (d *decoder) tooMany() {
	d.failAt(d.cur.s, "more than "+strconv.Itoa(d.lim.MaxElements)+" elements in the message")
}

// ---------------------------------------------------------------------
// Building blocks: the stacks.

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
	d.failAt(d.cur.s, "internal error: the decoder lost track of a descriptor")
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
	d.failAt(d.cur.s, "internal error: the decoder lost track of a descriptor")
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
	out := sl.Raw(n)
	copy(out, s[len(s)-n:])
	*st = s[:len(s)-n]
	return out
}

// ---------------------------------------------------------------------
// Reading tokens.

func (d *decoder) octets(s span) model.Octets { return d.src[s.pos:s.end:s.end] }

func (d *decoder) str(s span) string {
	if s.end <= s.pos {
		return ""
	}
	return unsafe.String(&d.src[s.pos], int(s.end-s.pos))
}

func (d *decoder) bytes(s span) []byte { return d.src[s.pos:s.end] }

// num reads a decimal number of at most max.
func (d *decoder) num(s span, max uint64, what string) uint32 {
	w := d.bytes(s)
	if len(w) == 0 || !lexAllDigits(w) {
		d.failAt(s, what+" "+d.quote(s)+" is not a number")
		return 0
	}
	if len(w) > d.lim.MaxNumberLength {
		d.failAt(s, what+" has more than "+strconv.Itoa(d.lim.MaxNumberLength)+" digits")
		return 0
	}
	var n uint64
	for _, c := range w {
		if n = n*10 + uint64(c-'0'); n > max {
			d.failAt(s, what+" "+d.quote(s)+" is out of range 0.."+strconv.Itoa(int(max)))
			return 0
		}
	}
	return uint32(n)
}

func (d *decoder) num32(s span, what string) uint32 { return d.num(s, 1<<32-1, what) }
func (d *decoder) num16(s span, what string) uint32 { return d.num(s, 1<<16-1, what) }

// quote shows a token in an error message, shortened if long.
func (d *decoder) quote(s span) string {
	w := d.bytes(s)
	if len(w) > 40 {
		return `"` + string(w[:37]) + `..."`
	}
	return `"` + string(w) + `"`
}

func (d *decoder) is(s span, lower string) bool { return lexEqualFold(d.bytes(s), lower) }

// contextID reads ContextID = (UINT32 / "*" / "-" / "$").
func (d *decoder) contextIDValue(s span) uint32 {
	switch string(d.bytes(s)) {
	case "-":
		return 0
	case "$":
		return 0xFFFFFFFE
	case "*":
		return 0xFFFFFFFF
	}
	return d.num32(s, "context ID")
}

// requestID reads RequestID = (UINT32 / "*").
func (d *decoder) requestID(s span) uint32 {
	if w := d.bytes(s); len(w) == 1 && w[0] == '*' {
		return 0xFFFFFFFF
	}
	return d.num32(s, "request ID")
}

// onOff reads "ON" / "OFF".
func (d *decoder) onOff(s span) bool {
	switch {
	case d.is(s, "on"):
		return true
	case d.is(s, "off"):
		return false
	}
	d.failAt(s, "expected ON or OFF, found "+d.quote(s))
	return false
}

func (d *decoder) onOffParam(kind decParamKind, s span) {
	var u uint32
	if d.onOff(s) {
		u = 1
	}
	d.param(kind, s, u)
}

// off reads the "OFF" of eventBufferControlValue.
func (d *decoder) off(s span) int {
	if !d.is(s, "off") {
		d.failAt(s, "expected OFF or LockStep, found "+d.quote(s))
	}
	return int(model.EventBufferControl_Off)
}

// split cuts s at the first c.
func (d *decoder) split(s span, c byte) (span, span, bool) {
	if i := lexIndexByte(d.bytes(s), c); i >= 0 {
		at := s.pos + int32(i)
		return span{s.pos, at}, span{at + 1, s.end}, true
	}
	return s, span{s.end, s.end}, false
}

// timeNotation reads TimeStamp = Date "T" Time, 8 digits each.
func (d *decoder) timeNotation(s span) *model.TimeNotation {
	w := d.bytes(s)
	if len(w) != 17 || w[8]|0x20 != 't' || !lexAllDigits(w[:8]) || !lexAllDigits(w[9:]) {
		d.failAt(s, "time stamp "+d.quote(s)+" is not yyyymmddThhmmssss")
	}
	t := d.sl.TimeNotation.One()
	if len(w) == 17 {
		t.Date, t.Time = d.str(span{s.pos, s.pos + 8}), d.str(span{s.pos + 9, s.end})
	}
	return t
}

// ---------------------------------------------------------------------
// Message, transactions.

func (d *decoder) authenticationHeader(spi, sn, ad span) {
	h := d.sl.AuthenticationHeader.One()
	h.SecParmIndex = d.hex(spi, 8, 8, "security parameter index")
	h.SeqNum = d.hex(sn, 8, 8, "sequence number")
	h.Ad = d.hex(ad, 24, 64, "authentication data")
	d.msg.AuthHeader = h
}

// hex reads "0x" and min..max hex digits as octets.
func (d *decoder) hex(s span, lo, hi int, what string) model.Octets {
	w := d.bytes(s)
	if len(w) < 2 || w[0] != '0' || w[1]|0x20 != 'x' || len(w)-2 < lo || len(w)-2 > hi || (len(w)-2)%2 != 0 {
		d.failAt(s, what+" "+d.quote(s)+" is not 0x and "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi)+" hex digits")
		return model.Octets{}
	}
	w = w[2:]
	out := d.sl.bytes.Zeroed(len(w) / 2)
	for i := range out {
		hi, ok1 := lexHexValue(w[2*i])
		lo, ok2 := lexHexValue(w[2*i+1])
		if !ok1 || !ok2 {
			d.failAt(s, what+" "+d.quote(s)+" is not 0x and hex digits")
		}
		out[i] = hi<<4 | lo
	}
	return out
}

func lexHexValue(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c|0x20 && c|0x20 <= 'f':
		return c | 0x20 - 'a' + 10, true
	}
	return 0, false
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
	r := d.sl.TransactionRequest.One()
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
	r := d.sl.TransactionReply.One()
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
	p := d.sl.TransactionPending.One()
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
	r := d.sl.SegmentReply.One()
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
	c := d.sl.ContextRequest.One()
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
	a := d.sl.ContextAttrAuditRequest.One()
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
			a.SelectLogic = d.sl.SelectLogic.One()
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
	decPush(d, &d.tids, model.TerminationID{Id: d.octets(s)})
}

// termIDs takes the IDs of a termIDList ($$ of termIDList).
func (d *decoder) termIDs(code int) []model.TerminationID {
	return decTake(&d.tids, &d.sl.TerminationID, code>>1)
}

func (d *decoder) ammRequest(cmd, ids, n int) {
	r := d.sl.AmmRequest.One()
	r.Descriptors = decTake(&d.amms, &d.sl.AmmDescriptor, n)
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
	r := d.sl.AmmsReply.One()
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
	r := d.sl.SubtractRequest.One()
	if withAudit {
		r.AuditDescriptor = decPop[model.AuditDescriptor](d)
	}
	r.TerminationID = d.termIDs(ids)
	decPush(d, &d.cmdReqs, model.CommandRequest{Command: model.Command{Kind: model.Command_SubtractReq, SubtractReq: r}})
}

func (d *decoder) auditRequest(kind, ids int) {
	r := d.sl.AuditRequest.One()
	r.AuditDescriptor = *decPop[model.AuditDescriptor](d)
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
	r := d.sl.AuditReply.One()
	r.Kind = model.AuditReply_ContextAuditResult
	r.ContextAuditResult = decTake(&d.tids, &d.sl.TerminationID, n)
	d.auditReply(kind, r)
}

func (d *decoder) auditReplyError(kind int) {
	r := d.sl.AuditReply.One()
	r.Kind = model.AuditReply_Error
	r.Error = decPop[model.ErrorDescriptor](d)
	d.auditReply(kind, r)
}

func (d *decoder) auditResult(kind, ids, n int) {
	r := d.sl.AuditReply.One()
	params := d.terminationAudit(n)
	list := d.termIDs(ids)
	if ids&1 != 0 {
		r.Kind = model.AuditReply_AuditResultTermList
		r.AuditResultTermList = d.sl.TermListAuditResult.One()
		r.AuditResultTermList.TerminationIDList = list
		r.AuditResultTermList.TerminationAuditResult = params
	} else {
		r.Kind = model.AuditReply_AuditResult
		r.AuditResult = d.sl.AuditResult.One()
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
	e := d.sl.AuditDescriptor.One()
	e.AuditToken = model.Some(model.BitString{Bits: 1 << bit})
	decPush(d, &d.arps, model.AuditReturnParameter{Kind: model.AuditReturnParameter_EmptyDescriptors, EmptyDescriptors: e})
}

func (d *decoder) auditDescriptor(n int) {
	ps, objs := d.items(n)
	a := d.sl.AuditDescriptor.One()
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
	r := d.sl.NotifyRequest.One()
	if withError {
		r.ErrorDescriptor = decPop[model.ErrorDescriptor](d)
	}
	r.ObservedEventsDescriptor = *decPop[model.ObservedEventsDescriptor](d)
	r.TerminationID = d.termIDs(ids)
	decPush(d, &d.cmdReqs, model.CommandRequest{Command: model.Command{Kind: model.Command_NotifyReq, NotifyReq: r}})
}

func (d *decoder) notifyReply(ids int, withError bool) {
	r := d.sl.NotifyReply.One()
	if withError {
		r.ErrorDescriptor = decPop[model.ErrorDescriptor](d)
	}
	r.TerminationID = d.termIDs(ids)
	decPush(d, &d.cmdReps, model.CommandReply{Kind: model.CommandReply_NotifyReply, NotifyReply: r})
}

func (d *decoder) serviceChangeRequest(ids int) {
	r := d.sl.ServiceChangeRequest.One()
	r.ServiceChangeParms = *decPop[model.ServiceChangeParm](d)
	r.TerminationID = d.termIDs(ids)
	decPush(d, &d.cmdReqs, model.CommandRequest{Command: model.Command{Kind: model.Command_ServiceChangeReq, ServiceChangeReq: r}})
}

func (d *decoder) serviceChangeReply(ids, kind int) {
	r := d.sl.ServiceChangeReply.One()
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
			ServiceChangeResParms: d.sl.ServiceChangeResParm.One(),
		}
	}
	r.TerminationID = d.termIDs(ids)
	decPush(d, &d.cmdReps, model.CommandReply{Kind: model.CommandReply_ServiceChangeReply, ServiceChangeReply: r})
}

func (d *decoder) errorDescriptor(code, text span, hasText bool) {
	e := d.sl.ErrorDescriptor.One()
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
	m := d.sl.MId.One()
	m.Kind = kind
	var p model.Opt[uint32]
	switch kind {
	case model.MId_Ip4Address, model.MId_Ip6Address, model.MId_DomainName:
		w := d.bytes(s)
		closer := byte(']')
		if w[0] == '<' {
			closer = '>'
		}
		end := s.pos + int32(lexIndexByte(w, closer))
		if end+1 < s.end {
			p = model.Some(d.num16(span{end + 2, s.end}, "port number"))
		}
		s = span{s.pos + 1, end}
	}
	switch kind {
	case model.MId_Ip4Address:
		a := d.sl.IP4Address.One()
		a.Address, a.PortNumber = d.ip4(s), p
		m.Ip4Address = a
	case model.MId_Ip6Address:
		a := d.sl.IP6Address.One()
		a.Address, a.PortNumber = d.ip6(s), p
		m.Ip6Address = a
	case model.MId_DomainName:
		w := d.bytes(s)
		ok := len(w) > 0 && len(w) <= 64 && lexClass[w[0]]&lexAlnum != 0
		for _, c := range w {
			ok = ok && (lexClass[c]&lexAlnum != 0 || c == '-' || c == '.')
		}
		if !ok {
			d.failAt(s, "domain name "+d.quote(s)+" is not letters, digits, '-' and '.'")
		}
		a := d.sl.DomainName.One()
		a.Name, a.PortNumber = d.str(s), p
		m.DomainName = a
	case model.MId_MtpAddress:
		w := d.bytes(s)
		ok := len(w) >= 4 && len(w) <= 8
		for _, c := range w {
			ok = ok && lexClass[c]&lexHex != 0
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
	out := d.sl.bytes.Zeroed(4)
	w := d.bytes(s)
	part, n, digits := 0, 0, 0
	ok := true
	for _, c := range w {
		if c == '.' {
			if digits == 0 || part == 3 {
				ok = false
				break
			}
			out[part] = byte(n)
			part, n, digits = part+1, 0, 0
			continue
		}
		if n = n*10 + int(c-'0'); n > 255 || digits == 3 {
			ok = false
			break
		}
		digits++
	}
	if !ok || part != 3 || digits == 0 {
		d.failAt(s, "IPv4 address "+d.quote(s)+" is not four numbers 0..255 with dots")
		return out
	}
	out[3] = byte(n)
	return out
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

// ---------------------------------------------------------------------
// Descriptors.

func (d *decoder) mediaDescriptor(kw span, n int) {
	ps, objs := d.items(n)
	m := d.sl.MediaDescriptor.One()
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
				one = d.sl.StreamParms.One()
			}
			d.streamParm(one, p, objs, &oi, &stats)
		}
	}
	if one != nil && nStreams > 0 {
		d.failAt(kw, "a Media descriptor with both Stream descriptors and stream parameters outside them")
	}
	switch {
	case nStreams > 0:
		m.Streams = d.sl.MediaDescriptorStreams.One()
		m.Streams.Kind = model.MediaDescriptorStreams_MultiStream
		m.Streams.MultiStream = decTake(&d.streams, &d.sl.StreamDescriptor, nStreams)
	case one != nil:
		m.Streams = d.sl.MediaDescriptorStreams.One()
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
	d.drop(ps, objs)
	decPush(d, &d.streams, s)
}

func (d *decoder) localControl(n int) {
	ps, objs := d.items(n)
	c := d.sl.LocalControlDescriptor.One()
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

func (d *decoder) terminationState(n int) {
	ps, objs := d.items(n)
	t := d.sl.TerminationStateDescriptor.One()
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
	l := d.sl.LocalRemoteDescriptor.One()
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
	start, eq = i, -1
	for i < len(src) && src[i] != '\r' && src[i] != '\n' {
		if src[i] == '=' && eq < 0 {
			eq = i
		}
		i++
	}
	end = i
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

func (d *decoder) value(s span) {
	decPush(d, &d.octs, d.octets(s))
}

// values takes the values of a parmValue and gives their extraInfo: its
// kind and relation, or kind 0 for none.
func (d *decoder) values(code int) (vals []model.Octets, kind uint8, rel model.Relation, flag bool) {
	vals = decTake(&d.octs, &d.sl.Octets, code>>3)
	switch code & 7 {
	case valueGreater:
		return vals, 1, model.Relation_GreaterThan, false
	case valueSmaller:
		return vals, 1, model.Relation_SmallerThan, false
	case valueUnequal:
		return vals, 1, model.Relation_UnequalTo, false
	case valueRange:
		return vals, 2, 0, true
	case valueAnd:
		return vals, 3, 0, true
	case valueOr:
		return vals, 3, 0, false
	}
	return vals, 0, 0, false
}

func (d *decoder) propertyParm(name span, code int) {
	p := model.PropertyParm{Name: d.octets(name)}
	var kind uint8
	var rel model.Relation
	var flag bool
	p.Value, kind, rel, flag = d.values(code)
	if kind != 0 {
		x := d.sl.PropertyParmExtraInfo.One()
		*x = model.PropertyParmExtraInfo{Kind: model.PropertyParmExtraInfoKind(kind), Relation: rel}
		x.Range, x.Sublist = flag && kind == 2, flag && kind == 3
		p.ExtraInfo = x
	}
	decPush(d, &d.props, p)
}

func (d *decoder) eventParameter(name span, code int) {
	p := model.EventParameter{EventParameterName: d.octets(name)}
	var kind uint8
	var rel model.Relation
	var flag bool
	p.Value, kind, rel, flag = d.values(code)
	if kind != 0 {
		x := d.sl.EventParameterExtraInfo.One()
		*x = model.EventParameterExtraInfo{Kind: model.EventParameterExtraInfoKind(kind), Relation: rel}
		x.Range, x.Sublist = flag && kind == 2, flag && kind == 3
		p.ExtraInfo = x
	}
	decPush(d, &d.evPars, p)
}

func (d *decoder) sigParameter(name span, code int) {
	p := model.SigParameter{SigParameterName: d.octets(name)}
	var kind uint8
	var rel model.Relation
	var flag bool
	p.Value, kind, rel, flag = d.values(code)
	if kind != 0 {
		x := d.sl.SigParameterExtraInfo.One()
		*x = model.SigParameterExtraInfo{Kind: model.SigParameterExtraInfoKind(kind), Relation: rel}
		x.Range, x.Sublist = flag && kind == 2, flag && kind == 3
		p.ExtraInfo = x
	}
	decPush(d, &d.sigPars, p)
	d.param(pSigParameter, name, 0)
}

func (d *decoder) muxDescriptor(typ, n int) {
	m := d.sl.MuxDescriptor.One()
	m.MuxType = model.MuxType(typ)
	m.TermList = decTake(&d.tids, &d.sl.TerminationID, n)
	d.pushObj(m)
}

func (d *decoder) modemType(t int) { decPush(d, &d.modems, model.ModemType(t)) }

func (d *decoder) modemDescriptor(nTypes, nProps int) {
	m := d.sl.ModemDescriptor.One()
	m.Mpl = decTake(&d.props, &d.sl.PropertyParm, nProps)
	m.Mtl = decTake(&d.modems, &d.sl.ModemType, nTypes)
	d.pushObj(m)
}

func (d *decoder) eventSpec(name span, n int) {
	ps, objs := d.items(n)
	e := model.EventSpec{EventName: d.octets(name)}
	nPars := 0
	for _, p := range ps {
		switch p.kind {
		case pStream:
			e.StreamID = model.Some(d.num16(p.tok, "stream ID"))
		case pEventParameter:
			nPars++
		}
	}
	e.EventParList = decTake(&d.evPars, &d.sl.EventParameter, nPars)
	d.drop(ps, objs)
	decPush(d, &d.evSpecs, e)
}

func (d *decoder) eventsDescriptor(id span, hasID bool, n int) {
	e := d.sl.EventsDescriptor.One()
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

// eventParams reads the parameters of a (second) requested event: the
// stream, the actions, and the event parameters, taken from their stack.
func (d *decoder) eventParams(n int) (stream model.Opt[uint32], acts decEventActions, pars []model.EventParameter) {
	ps, objs := d.items(n)
	nPars, oi := 0, 0
	for _, p := range ps {
		switch p.kind {
		case pStream:
			stream = model.Some(d.num16(p.tok, "stream ID"))
		case pEventParameter:
			nPars++
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
	pars = decTake(&d.evPars, &d.sl.EventParameter, nPars)
	d.drop(ps, objs)
	return stream, acts, pars
}

func (d *decoder) requestedEvent(name span, n int) {
	e := model.RequestedEvent{PkgdName: d.octets(name)}
	var acts decEventActions
	e.StreamID, acts, e.EvParList = d.eventParams(n)
	if acts.any {
		a := d.sl.RequestedActions.One()
		if acts.keepActive {
			a.KeepActive = model.Some(true)
		}
		a.EventDM, a.NotifyBehaviour, a.ResetEventsDescriptor = acts.dm, acts.notify, acts.reset
		if acts.embed != nil {
			a.SecondEvent, a.SignalsDescriptor = acts.embed.SecondEvent, acts.embed.SignalsDescriptor
		}
		e.EventAction = a
	}
	decPush(d, &d.reqEvs, e)
}

func (d *decoder) secondRequestedEvent(name span, n int) {
	e := model.SecondRequestedEvent{PkgdName: d.octets(name)}
	var acts decEventActions
	e.StreamID, acts, e.EvParList = d.eventParams(n)
	if acts.any {
		a := d.sl.SecondRequestedActions.One()
		if acts.keepActive {
			a.KeepActive = model.Some(true)
		}
		a.EventDM, a.NotifyBehaviour, a.ResetEventsDescriptor = acts.dm, acts.notify, acts.reset
		if acts.embed != nil {
			a.SignalsDescriptor = acts.embed.SignalsDescriptor
		}
		e.EventAction = a
	}
	decPush(d, &d.secEvs, e)
}

func (d *decoder) notifyBehaviour(kw span, kind model.NotifyBehaviourKind, withEmbed bool) {
	d.need(3, kw, "a notify behaviour")
	b := d.sl.NotifyBehaviour.One()
	b.Kind = kind
	if kind == model.NotifyBehaviour_NotifyRegulated {
		if withEmbed {
			b.NotifyRegulated = decPop[model.RegulatedEmbeddedDescriptor](d)
		} else {
			b.NotifyRegulated = d.sl.RegulatedEmbeddedDescriptor.One()
		}
	}
	d.pushObj(b)
}

// embed gathers an Embed descriptor: nSig signal requests (none if
// negative) and, if withEvents, the embedded events.
func (d *decoder) embed(nSig int, withEvents bool) {
	e := d.sl.RegulatedEmbeddedDescriptor.One()
	if withEvents {
		e.SecondEvent = decPop[model.SecondEventsDescriptor](d)
	}
	if nSig >= 0 {
		e.SignalsDescriptor = decTake(&d.sigReqs, &d.sl.SignalRequest, nSig)
	}
	d.pushObj(e)
}

func (d *decoder) secondEvents(id span, hasID bool, n int) {
	e := d.sl.SecondEventsDescriptor.One()
	if hasID {
		e.RequestID = model.Some(d.requestID(id))
	}
	e.EventList = decTake(&d.secEvs, &d.sl.SecondRequestedEvent, n)
	d.pushObj(e)
}

func (d *decoder) eventDM(name span, withValue bool) {
	e := d.sl.EventDM.One()
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
	s := d.sl.Signal.One()
	if n := len(d.sigs); n > 0 {
		*s = d.sigs[n-1]
		d.sigs = d.sigs[:n-1]
	}
	decPush(d, &d.sigReqs, model.SignalRequest{Kind: model.SignalRequest_Signal, Signal: s})
}

func (d *decoder) signalList(id span, n int) {
	l := d.sl.SeqSigList.One()
	l.Id = d.num16(id, "signal list ID")
	l.SignalList = decTake(&d.sigs, &d.sl.Signal, n)
	decPush(d, &d.sigReqs, model.SignalRequest{Kind: model.SignalRequest_SeqSigList, SeqSigList: l})
}

func (d *decoder) observedEvents(id span, n int) {
	o := d.sl.ObservedEventsDescriptor.One()
	o.RequestId = d.requestID(id)
	o.ObservedEventLst = decTake(&d.obsEvs, &d.sl.ObservedEvent, n)
	d.pushObj(o)
}

func (d *decoder) observedEvent(ts, name span, n int) {
	ps, objs := d.items(n)
	e := model.ObservedEvent{EventName: d.octets(name)}
	if ts.end > ts.pos {
		e.TimeNotation = d.timeNotation(ts)
	}
	nPars := 0
	for _, p := range ps {
		switch p.kind {
		case pStream:
			e.StreamID = model.Some(d.num16(p.tok, "stream ID"))
		case pEventParameter:
			nPars++
		}
	}
	e.EventParList = decTake(&d.evPars, &d.sl.EventParameter, nPars)
	d.drop(ps, objs)
	decPush(d, &d.obsEvs, e)
}

func (d *decoder) digitMapDescriptor(name span, withValue bool) {
	m := d.sl.DigitMapDescriptor.One()
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
	v := d.sl.DigitMapValue.One()
	for _, p := range ps {
		w := d.bytes(p.tok)
		i := len(w)
		for i > 0 && lexClass[w[i-1]]&lexDigit != 0 {
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
	s := d.sl.serviceChangeParm.One()
	method, nReason, oi := false, 0, 0
	for _, p := range ps {
		switch p.kind {
		case pReason:
			nReason++
		case pAuditToken, pIndAud:
			if s.ServiceChangeInfo == nil {
				d.need(2, kw, "an audit item in a ServiceChange descriptor")
				s.ServiceChangeInfo = d.sl.AuditDescriptor.One()
			}
		}
	}
	s.ServiceChangeReason = decTake(&d.octs, &d.sl.Octets, nReason)
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
	d.drop(ps, objs)
	d.pushObj(s)
}

func (d *decoder) serviceChangeResParm(n int) {
	ps, objs := d.items(n)
	r := d.sl.ServiceChangeResParm.One()
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
	d.drop(ps, objs)
	d.pushObj(r)
}

// extension drops an extension parameter (X-... or X+...) of a
// ServiceChange descriptor: the model has no field for it.
func (d *decoder) extension(name span, code int) {
	if w := d.bytes(name); len(w) < 3 || w[0]|0x20 != 'x' || (w[1] != '-' && w[1] != '+') {
		d.failAt(name, "expected a ServiceChange parameter, found "+d.quote(name))
	}
	decTake(&d.octs, &d.sl.Octets, code>>3)
	d.param(pExtension, name, 0)
}

// serviceChangeAddress turns an mId into a ServiceChangeAddress; a device
// name of digits is a port number.
func (d *decoder) serviceChangeAddress(m *model.MId, at span) *model.ServiceChangeAddress {
	a := d.sl.ServiceChangeAddress.One()
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
	name, version, ok := d.split(s, '/')
	if !ok || name.end == name.pos || version.end == version.pos || !lexAllDigits(d.bytes(version)) {
		d.failAt(s, "profile "+d.quote(s)+" is not name/version")
	}
	p := d.sl.ServiceChangeProfile.One()
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

func (d *decoder) statistic(name span, n int) {
	s := model.StatisticsParameter{StatName: d.octets(name)}
	if n >= 0 {
		s.StatValue = decTake(&d.octs, &d.sl.Octets, n)
	}
	decPush(d, &d.stats, s)
}

// ---------------------------------------------------------------------
// Audit descriptors of v2 and v3 (IndAud...).

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
	m := d.sl.IndAudMediaDescriptor.One()
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
				one = d.sl.IndAudStreamParms.One()
			}
			d.indAudStreamParm(one, p, objs, &oi)
		}
	}
	if one != nil && nStreams > 0 {
		d.failAt(kw, "a Media descriptor with both Stream descriptors and stream parameters outside them")
	}
	switch {
	case nStreams > 0:
		m.Streams = d.sl.IndAudMediaDescriptorStreams.One()
		m.Streams.Kind = model.IndAudMediaDescriptorStreams_MultiStream
		m.Streams.MultiStream = decTake(&d.iaStreams, &d.sl.IndAudStreamDescriptor, nStreams)
	case one != nil:
		m.Streams = d.sl.IndAudMediaDescriptorStreams.One()
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
	l := d.sl.IndAudLocalRemoteDescriptor.One()
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
			d.need(3, d.cur.s, "a property value in an audit")
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

func (d *decoder) indAudLocalControl(n int) {
	ps, objs := d.items(n)
	c := d.sl.IndAudLocalControlDescriptor.One()
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

func (d *decoder) indAudTerminationState(n int) {
	ps, objs := d.items(n)
	t := d.sl.IndAudTerminationStateDescriptor.One()
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
	e := d.sl.IndAudEventBufferDescriptor.One()
	e.EventName = d.octets(name)
	if stream.end > stream.pos {
		e.StreamID = model.Some(d.num16(stream, "stream ID"))
	}
	d.pushObj(e)
}

func (d *decoder) indAudEvents(id, name span) {
	e := d.sl.IndAudEventsDescriptor.One()
	if id.end > id.pos {
		e.RequestID = model.Some(d.requestID(id))
	}
	e.PkgdName = d.octets(name)
	d.pushObj(e)
}

func (d *decoder) indAudSignal(name span, n int) {
	ps, objs := d.items(n)
	s := d.sl.IndAudSignal.One()
	s.SignalName = d.octets(name)
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
	s := d.sl.IndAudSignalsDescriptor.One()
	s.Kind = model.IndAudSignalsDescriptor_Signal
	s.Signal = decPop[model.IndAudSignal](d)
	d.pushObj(s)
}

func (d *decoder) indAudSignalList(id span, withSignal bool) {
	l := d.sl.IndAudSeqSigList.One()
	if withSignal {
		l.SignalList = decPop[model.IndAudSignal](d)
	}
	l.Id = d.num16(id, "signal list ID")
	s := d.sl.IndAudSignalsDescriptor.One()
	s.Kind, s.SeqSigList = model.IndAudSignalsDescriptor_SeqSigList, l
	d.pushObj(s)
}

func (d *decoder) indAudDigitMap(name span) {
	m := d.sl.IndAudDigitMapDescriptor.One()
	m.DigitMapName = d.octets(name)
	d.pushObj(m)
}

func (d *decoder) indAudStatistics(name span) {
	s := d.sl.IndAudStatisticsDescriptor.One()
	s.StatName = d.octets(name)
	d.pushObj(s)
}

func (d *decoder) indAudPackages() {
	p := d.sl.IndAudPackagesDescriptor.One()
	if n := len(d.pkgItems); n > 0 {
		it := d.pkgItems[n-1]
		d.pkgItems = d.pkgItems[:n-1]
		p.PackageName, p.PackageVersion = it.PackageName, it.PackageVersion
	}
	d.pushObj(p)
}

// ---------------------------------------------------------------------
// Syntax errors.

// describeSyntaxError fills in d.err for the token the parser could not
// take: what it found, what it could have taken, and after what. The
// parser's tables say what it could have taken; to ask them, the tokens up
// to the bad one are run through them again.
func (d *decoder) describeSyntaxError() {
	e := d.err
	e.Found = d.describe(d.cur)
	expected, prev := lrExpected(d.src, d.lim.MaxDepth, d.ntok-1)
	e.Expected = decDescribeExpected(expected)
	var b strings.Builder
	if len(e.Expected) > 0 {
		b.WriteString("expected ")
		for i, x := range e.Expected {
			switch {
			case i == 0:
			case i == len(e.Expected)-1:
				b.WriteString(" or ")
			default:
				b.WriteString(", ")
			}
			b.WriteString(x)
		}
	} else {
		b.WriteString("unexpected token")
	}
	if d.ntok > 1 {
		b.WriteString(" after ")
		b.WriteString(d.describe(prev))
	}
	b.WriteString(", found ")
	b.WriteString(e.Found)
	e.Msg = b.String()
}

// describe names a token in an error message.
func (d *decoder) describe(t lexToken) string {
	switch t.kind {
	case 0:
		return "end of message"
	case SafeChars, VersionHeader:
		return d.quote(t.s)
	case QuotedString:
		return "a quoted string"
	case OctetString:
		return "SDP"
	case DigitMapTimer:
		return "digit map timer " + d.quote(t.s)
	case DigitMapBody:
		return "a digit map"
	case IPv4Token, IPv6Token:
		return "address " + string(d.bytes(t.s))
	case DomainToken:
		return "domain name " + string(d.bytes(t.s))
	case OptionalPrefix:
		return "O-"
	case WildcardPrefix:
		return "W-"
	}
	if name, ok := lexLongNames[t.kind]; ok {
		return name
	}
	if t.kind == MTPToken {
		return "MTP"
	}
	if t.kind > 0 && t.kind < 128 {
		return lexQuoteByte(byte(t.kind))
	}
	return "token " + strconv.Itoa(t.kind)
}

// lexTokenGroups name sets of keywords that an error message lists as
// one item when all of them would do.
var lexTokenGroups = []struct {
	name string
	toks []int
}{
	{"a transaction", []int{TransToken, ReplyToken, PendingToken, ResponseAckToken, MessageSegmentToken}},
	{"a command", []int{AddToken, MoveToken, ModifyToken, SubtractToken, AuditValueToken, AuditCapToken, NotifyToken, ServiceChangeToken}},
	{"a context property", []int{TopologyToken, PriorityToken, EmergencyToken, EmergencyOffToken, IEPSToken, ContextAttrToken}},
	{"a descriptor", []int{MediaToken, ModemToken, MuxToken, EventsToken, SignalsToken, DigitMapToken, EventBufferToken, StatsToken}},
	{"a stream mode", []int{SendonlyToken, RecvonlyToken, SendrecvToken, InactiveToken, LoopbackToken}},
	{"a ServiceChange method", []int{FailoverToken, ForcedToken, GracefulToken, RestartToken, DisconnectedToken, HandOffToken}},
	{"a ServiceChange parameter", []int{MethodToken, ReasonToken, DelayToken, ServiceChangeAddressToken, ProfileToken, MgcIdToken, VersionToken}},
	{"a signal parameter", []int{StreamToken, SignalTypeToken, DurationToken, NotifyCompletionToken, KeepActiveToken}},
	{"a modem type", []int{V18Token, V22Token, V22bisToken, V32Token, V32bisToken, V34Token, V90Token, V91Token, SynchISDNToken}},
	{"a notification reason", []int{TimeOutToken, InterruptByEventToken, InterruptByNewSignalsDescrToken, OtherReasonToken}},
}

// decDescribeExpected names the tokens the parser could have taken. Where a
// name may stand, the keywords that would be read as one are not listed;
// a whole group of keywords is named once.
func decDescribeExpected(kinds []int) []string {
	set := map[int]bool{}
	for _, k := range kinds {
		set[k] = true
	}
	// Where a name may stand, the keywords come along (a hundred of
	// them): they go without saying.
	if set[SafeChars] {
		n := 0
		for k := range set {
			if lexLongNames[k] != "" {
				n++
			}
		}
		if n > 50 {
			for k := range lexLongNames {
				delete(set, k)
			}
		}
	}
	var out []string
	var keywords []string
	for _, g := range lexTokenGroups {
		all := true
		for _, t := range g.toks {
			all = all && set[t]
		}
		if all {
			keywords = append(keywords, g.name)
			for _, t := range g.toks {
				delete(set, t)
			}
		}
	}
	for _, k := range kinds {
		if !set[k] {
			continue
		}
		switch {
		case k == SafeChars:
			out = append(out, "a name or value")
		case k == 0:
			out = append(out, "end of message")
		case k > 0 && k < 128:
			out = append(out, lexQuoteByte(byte(k)))
		case k == QuotedString:
			out = append(out, "a quoted string")
		case k == OctetString:
			out = append(out, "SDP")
		case k == DigitMapTimer:
			out = append(out, "a digit map timer")
		case k == DigitMapBody:
			out = append(out, "a digit map")
		case k == VersionHeader:
			out = append(out, "MEGACO/version")
		case k == IPv4Token || k == IPv6Token:
			if !decContains(out, "an address") {
				out = append(out, "an address")
			}
		case k == DomainToken:
			out = append(out, "a domain name")
		case k == OptionalPrefix:
			out = append(out, "O-")
		case k == WildcardPrefix:
			out = append(out, "W-")
		case k == MTPToken:
			out = append(out, "MTP")
		default:
			if name, ok := lexLongNames[k]; ok {
				keywords = append(keywords, name)
			}
		}
	}
	out = append(keywords, out...)
	if len(out) > 8 {
		out = append(out[:7:7], "...")
	}
	return out
}

func decContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lrExpected runs the first n tokens of src through the parser's tables
// and returns the tokens (scanner kinds) the parser could take next, and
// the last of the n.
func lrExpected(src []byte, maxDepth, n int) ([]int, lexToken) {
	sc := scanner{src: src, maxDepth: maxDepth}
	stack := []int{0}
	var last lexToken
	for i := 0; i < n; i++ {
		k, s := sc.next()
		last = lexToken{k, s}
		var ok bool
		if stack, ok = lrShift(stack, lrToken(k)); !ok {
			return nil, last
		}
	}
	var out []int
	for t := 1; t <= len(yyToknames); t++ {
		if t == yyErrCode || yyToknames[t-1] == "$unk" {
			continue
		}
		if _, ok := lrShift(append([]int(nil), stack...), t); ok {
			out = append(out, lrExternal[t])
		}
	}
	return out, last
}

// lrShift does what the parser does with token t (its internal number)
// in the state on top of stack: reduce as the tables say until t is
// shifted (true) or found to be an error (false). At the end of the input
// (t the end marker) accepting counts as shifting.
func lrShift(stack []int, t int) ([]int, bool) {
	for steps := 0; steps < 100000; steps++ {
		s := stack[len(stack)-1]
		if n := int(yyPact[s]); n > yyFlag {
			if m := n + t; m >= 0 && m < yyLast {
				if a := int(yyAct[m]); int(yyChk[a]) == t {
					return append(stack, a), true
				}
			}
		}
		n := int(yyDef[s])
		if n == -2 {
			x := 0
			for !(int(yyExca[x]) == -1 && int(yyExca[x+1]) == s) {
				x += 2
			}
			for x += 2; ; x += 2 {
				if e := int(yyExca[x]); e < 0 || e == t {
					break
				}
			}
			if n = int(yyExca[x+1]); n < 0 {
				return stack, true // accept
			}
		}
		if n == 0 {
			return stack, false
		}
		stack = stack[:len(stack)-int(yyR2[n])]
		lhs := int(yyR1[n])
		g := int(yyPgo[lhs])
		next := int(yyAct[g])
		if j := g + stack[len(stack)-1] + 1; j < yyLast {
			if a := int(yyAct[j]); int(yyChk[a]) == -lhs {
				next = a
			}
		}
		stack = append(stack, next)
	}
	return stack, false
}

// lrToken maps a scanner kind to the parser's internal token number, as
// the generated yylex1 does.
func lrToken(k int) int {
	switch {
	case k <= 0:
		return int(yyTok1[0])
	case k < len(yyTok1):
		return int(yyTok1[k])
	case k >= yyPrivate && k < yyPrivate+len(yyTok2):
		return int(yyTok2[k-yyPrivate])
	}
	for i := 0; i+1 < len(yyTok3); i += 2 {
		if int(yyTok3[i]) == k {
			return int(yyTok3[i+1])
		}
	}
	return int(yyTok2[1])
}

// lrExternal maps the parser's internal token numbers back to scanner
// kinds.
var lrExternal = func() []int {
	out := make([]int, len(yyToknames)+1)
	for k := len(yyTok1) - 1; k >= 0; k-- {
		if t := int(yyTok1[k]); t > 0 && t < len(out) {
			out[t] = k
		}
	}
	out[int(yyTok1[0])] = 0
	for i := range yyTok2 {
		if t := int(yyTok2[i]); t > 0 && t < len(out) && i >= 2 {
			out[t] = yyPrivate + i
		}
	}
	return out
}()

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

// reset makes the memory of every slab available again.
func (s *decSlabs) reset() {
	s.Model.Reset()
	s.bytes.Reset()
	s.serviceChangeParm.Reset()
}
