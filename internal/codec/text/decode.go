package text

import (
	"strconv"
	"sync"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/model"
)

// Decode decodes one text message, pretty or compact, of protocol version
// 1, 2 or 3 into the text form of the model (see package mapping). The
// message is the caller's to keep: it keeps references into a private
// copy of data, never into data itself. Its errors name the codec "text"
// (Codec.Decode names the style).
//
// The message's values and its copy of data come from a pooled decoder's
// memory, handed out for good (slab.Model.Keep): chunks are shared by the
// messages decoded one after the other, as the native codec's Decode
// does, so that a decode makes a few allocations rather than a set of
// slabs of its own. A message held keeps alive the chunks it shares with
// its neighbours (each a few KiB, bar a list or copy bigger than that).
func Decode(data []byte, opts Options) (*model.MegacoMessage, error) {
	return decode(data, "text", opts)
}

func decode(data []byte, name string, opts Options) (*model.MegacoMessage, error) {
	k := keepers.Get().(*keeper)
	d := &k.d
	d.resetStacks() // never the slabs: what they handed out is kept
	// The copy of data goes where the last one ended, or in a new chunk:
	// one of keptSrcChunk, or if data is bigger, append makes one once
	// the size is checked.
	if cap(k.free) < len(data) {
		k.free = nil
		if len(data) <= keptSrcChunk {
			k.free = make([]byte, 0, keptSrcChunk)
		}
	}
	d.src = k.free
	m, err := d.decode(data, name, opts, new(model.MegacoMessage))
	k.free = d.src[len(d.src):]
	d.src, d.msg, d.sc = nil, nil, scanner{}
	keepers.Put(k)
	return m, err
}

// keeper is a decoder of Decode, whose messages are kept: its slabs hand
// out values for good, and free is what is left of the chunk the last
// message's copy of data went in.
type keeper struct {
	d    decoder
	free []byte
}

var keepers = sync.Pool{New: func() any {
	k := new(keeper)
	k.d.sl.keep()
	return k
}}

// keptSrcChunk is the size of the chunks Decode shares between the copies
// of its messages' data.
const keptSrcChunk = 4 << 10

// A Decoder decodes messages one after the other, reusing its memory: the
// message Decode returns is valid until the next call of Decode. A Decoder
// is not safe for concurrent use. Its errors name the codec "text", as
// Decode's do.
type Decoder struct {
	Options Options
	name    string // the codec in errors, if not "text": Codec.DecodeReused's style
	d       decoder
	msg     model.MegacoMessage
}

// Decode decodes data; see the type's documentation for the lifetime of
// the result.
func (dec *Decoder) Decode(data []byte) (*model.MegacoMessage, error) {
	dec.d.reset()
	dec.msg = model.MegacoMessage{}
	name := dec.name
	if name == "" {
		name = "text"
	}
	return dec.d.decode(data, name, dec.Options, &dec.msg)
}

// decoder is the parser's lexer and the builder of the model: the grammar
// actions call its methods (through bld). Its parts, by file: the entry
// points and the lexer here; the stacks and slabs (decode_stack.go); the
// reading of tokens (decode_value.go); the actions for the message frame
// (decode_msg.go), the descriptors (decode_desc.go) and the audits
// (decode_audit.go); errors (decode_errors.go) and goyacc's tables for
// what a syntax error expected (decode_tables.go).
type decoder struct {
	sc      scanner
	src     []byte // the private copy of the message
	msg     *model.MegacoMessage
	version int // protocol version of the result
	forced  bool
	name    string // the codec in errors: the style, or "text"
	lim     limits.Limits
	// maxDigits is Options.MaxNumberLength or its default.
	maxDigits int
	elems     int

	// How many tokens the parser took (the last one: cur).
	ntok int

	// The first error: a syntax error (errSyntax) is described once the
	// parse stops, anything else at once.
	err       *codecerr.Error
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

// cur is the token being looked at: the last one Lex handed out.
func (d *decoder) cur() lexToken {
	return lexToken{d.sc.lastKind(0), d.parser.lval.tok}
}

// reset readies a used decoder for the next message, keeping its memory.
func (d *decoder) reset() {
	d.sl.reset()
	d.resetStacks()
}

// resetStacks empties the builder's stacks, keeping their memory.
func (d *decoder) resetStacks() {
	d.params, d.objs, d.octs, d.tids = d.params[:0], d.objs[:0], d.octs[:0], d.tids[:0]
	d.props, d.evPars, d.sigPars, d.sigs = d.props[:0], d.evPars[:0], d.sigPars[:0], d.sigs[:0]
	d.sigReqs, d.reqEvs, d.secEvs, d.obsEvs = d.sigReqs[:0], d.reqEvs[:0], d.secEvs[:0], d.obsEvs[:0]
	d.evSpecs, d.streams, d.iaStreams, d.stats = d.evSpecs[:0], d.streams[:0], d.iaStreams[:0], d.stats[:0]
	d.pkgItems, d.indAuds, d.topo, d.acks = d.pkgItems[:0], d.indAuds[:0], d.topo[:0], d.acks[:0]
	d.amms, d.arps, d.cmdReqs, d.cmdReps = d.amms[:0], d.arps[:0], d.cmdReqs[:0], d.cmdReps[:0]
	d.actReqs, d.actReps, d.trans, d.ctxIDs, d.modems = d.actReqs[:0], d.actReps[:0], d.trans[:0], d.ctxIDs[:0], d.modems[:0]
}

func (d *decoder) decode(data []byte, name string, opts Options, m *model.MegacoMessage) (*model.MegacoMessage, error) {
	d.name, d.lim, d.maxDigits = name, opts.Limits.OrDefault(), opts.MaxNumberLength
	if d.maxDigits <= 0 {
		d.maxDigits = DefaultMaxNumberLength
	}
	d.msg, d.err, d.errSyntax, d.elems, d.ntok = m, nil, false, 0, 0
	d.parser.lval = yySymType{}
	d.version, d.forced = opts.Version, opts.Version != 0
	if err := d.lim.CheckSize(d.name, codecerr.AtLine(1, 1, 0), len(data)); err != nil {
		return nil, err
	}
	if d.forced && !limits.ValidVersion(d.version) {
		return nil, d.errorAt(codecerr.Unsupported, 0,
			"protocol version "+strconv.Itoa(d.version)+" forced, want 1, 2 or 3")
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

// Lex hands the parser the next token, as goyacc's internal token number:
// the yyLexer interface needs it, but the parser's loop calls yylexTok
// (scan.go).
func (d *decoder) Lex(lval *yySymType) int {
	return yylexTok(d, lval)
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
	if !limits.ValidVersion(n) {
		d.fail(codecerr.Unsupported, s, "protocol version "+string(v)+" is not 1, 2 or 3")
		return
	}
	if !d.forced {
		d.version = n
	}
}

// count notes one more element and checks the limit.
func (d *decoder) count() {
	if d.elems++; d.elems > d.lim.MaxElements {
		d.tooMany()
	}
}

func (d *decoder) tooMany() {
	d.fail(codecerr.TooLarge, d.cur().s, "more than "+strconv.Itoa(d.lim.MaxElements)+" elements in the message")
}
