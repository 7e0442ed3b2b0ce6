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

	// The scanner's tokens, read ahead a batch at a time (lexFill): the
	// parser takes token lexAt next, up to lexN; lexTaken is how many it
	// took from the batches before. A token is its span and goyacc's
	// internal number for its kind (lrInternal; lrExternal maps it back).
	lexSpans [lexBatch]span
	lexToks  [lexBatch]uint8
	lexAt    int
	lexN     int
	lexTaken int

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

// cur is the token being looked at: the last one the parser took.
func (d *decoder) cur() lexToken {
	return lexToken{lrExternal[d.lexToks[max(d.lexAt-1, 0)]], d.parser.lval.tok}
}

// ntok is how many tokens the parser took (the last one: cur).
func (d *decoder) ntok() int { return d.lexTaken + d.lexAt }

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
	d.msg, d.err, d.errSyntax, d.elems = m, nil, false, 0
	d.lexAt, d.lexN, d.lexTaken = 0, 0, 0
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

// The parser's loop takes its tokens from lexSpans and lexToks itself
// (yypatch -tokens), without a call: a call per token cost the loop its
// registers (spilled around it), and the scanner its state, read from and
// written back to the decoder per token. lexFill reads the next batch
// when the loop has taken them all. With the common tokens read in
// lexFill's loop, this took a reused decode from 16,223 to 15,783
// instructions per compact corpus message, and 18,429 to 18,084 per
// pretty one (callgrind, BenchmarkDecode*Reuse).

// lexBatch is how many tokens lexFill reads at most.
const lexBatch = 64

// Lex hands the parser the next token, as goyacc's internal token number:
// the yyLexer interface needs it, but the parser's loop reads the batch
// itself.
func (d *decoder) Lex(lval *yySymType) int {
	if d.lexAt >= d.lexN {
		d.lexFill()
	}
	lval.tok = d.lexSpans[d.lexAt]
	d.lexAt++
	return int(d.lexToks[d.lexAt-1])
}

// lexFill reads the next batch of tokens. What the parse sees stays as if
// the parser read each token as it took it: a batch ends at the end of
// the message and at a lexical error (the scanner then has nothing more);
// a fail (decode_errors.go) drops the tokens not yet taken; and a version
// header, whose check (header) may fail, is read only as the first token
// of a batch, when the parser wants it.
//
// The tokens most of a message is made of (words, most punctuation, in
// plain mode, after blanks if any) are read here, in the loop; the others
// by the scanner's token, from where the loop has got to.
func (d *decoder) lexFill() {
	sc := &d.sc
	src := sc.src
	d.lexTaken += d.lexN
	n := 0
	for n < lexBatch {
		var (
			k int
			s span
		)
		i := sc.pos
		if sc.mode != lexPlain || i >= len(src) {
			k, s = sc.token()
			goto got
		}
		if c, cl := src[i], charClass[src[i]]; true { // (a block: no goto got jumps over c and cl)
			if cl&chSkip != 0 {
				// blanks here; a comment, and the end, by token
				if c != ';' {
					for i++; i < len(src); i++ {
						if c, cl = src[i], charClass[src[i]]; cl&chBlank == 0 {
							break
						}
					}
				}
				if i >= len(src) || c == ';' {
					sc.pos = i
					k, s = sc.token()
					goto got
				}
			}
			if cl&chDigit != 0 {
				// A number or an ID: a plain SafeChars token unless a
				// parenthesis follows it (word), and no keyword, so no
				// call of word (15,517 to 15,317 instructions per compact
				// corpus message, 17,516 to 17,320 per pretty one).
				j := i + 1
				for j < len(src) && charClass[src[j]]&chWord != 0 {
					j++
				}
				if j == len(src) || charClass[src[j]]&chParen == 0 {
					sc.pos = j
					k, s = safeChars, span{int32(i), int32(j)}
					goto got
				}
			}
			if cl&chToken != 0 {
				k, s = sc.word(i, cl, false)
				goto got
			}
			k, s = int(c), span{int32(i), int32(i + 1)}
			switch lexPunct[c] {
			case lexPunctPlain:
			case lexPunctClose:
				sc.depth--
			case lexPunctOpen:
				if sc.depth >= sc.maxDepth {
					sc.pos = i
					k, s = sc.token() // too deep
					goto got
				}
				sc.depth++
				sc.afterOpenBrace()
			case lexPunctEqual:
				if lk := uint16(sc.last); lk == mgcIdToken || lk == serviceChangeAddressToken {
					sc.mode = lexMID
				}
			default:
				sc.pos = i
				k, s = sc.token()
				goto got
			}
			sc.pos = i + 1
		}
	got:
		if k == versionHeader {
			if n > 0 {
				sc.unread(s)
				break
			}
			d.header(s) // after an error (fail), lexError
		}
		sc.last = sc.last<<16 | uint64(uint16(k))
		d.lexSpans[n], d.lexToks[n] = s, uint8(lrInternal(k))
		n++
		if k == 0 || sc.mode == lexEndOfTokens {
			break
		}
	}
	d.lexAt, d.lexN = 0, n
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
