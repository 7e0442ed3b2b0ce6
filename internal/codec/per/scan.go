package per

import (
	"errors"
	"math"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/per/x691"
	"megaco/internal/codec/scan"
)

// Scan fills s from a PER-encoded message without decoding it (see
// package scan), down to s.Want. PER has no lengths to skip by: the walk
// follows the schema of the message's version (scan_gen.go, generated
// from the same modules as the codec), advancing over every value without
// storing it, whatever the depth wanted; a list of actions or commands is
// a count of elements, each walked. Only the extension additions, which
// are open types, are skipped by their length when nothing the summary
// reports can be inside.
//
// The spans are in octets: an ID's (a transaction's, an acknowledged
// range's first, a context's) covers its value octets, which follow a
// 2-bit length and padding; an error code's its two octets; a termination
// ID's its id octets; the mId's the octets its bits touch. Values alias
// data, except inside an open type of 16K octets or more, which is
// reassembled (never in a message of the transports' sizes).
func Scan(data []byte, s *scan.Summary, lim limits.Limits) error {
	var d scanner
	return d.run(data, s, lim)
}

// scanner is the walker plus what the generated walk reports to
// (its hooks) and the context the hooks need.
type scanner struct {
	walker
	s     *scan.Summary
	cmd   int        // the current reported command's index in s.Commands, else -1
	level scan.Depth // the list the walk is in: Transactions, Actions or Commands
	// acts, cmds and all: s.Want reaches Actions, Commands, Everything.
	acts, cmds, all bool
	inMID           bool // in the message's mId (not a service change's)
	terms           bool // in a command's own termination IDs
	// replace: in an audit's v3 terminationIDList, whose first ID takes
	// the place of the audit's terminationID (as in scan.FromModel).
	replace      bool
	midAt, midTo int  // bit offsets of the mId and of what follows it
	open         int  // open types entered and not left
	reassembled  bool // an open type entered was fragmented
	// sites, when not nil, collects the IDs for Rewrite.
	sites *[]site
	// txLeft and actLeft count the transactions of the message and the
	// actions of the current transaction not yet entered; extAfter is set
	// when the current transaction has extension additions after its
	// actions (a v3 reply's segment number). They tell done when nothing
	// after the walk's position is reported at s.Want.
	txLeft, actLeft int
	extAfter        bool
}

// errStop ends a walk that has read all that s.Want asks for (see done).
var errStop = errors.New("per: scan stopped early")

// done reports whether the walk, at the place of a stop hook for depth,
// may stop: s.Want is depth and the walk is in the message's last
// transaction (and for Actions its last action), with nothing reported
// after it. Below s.Want a BER scan hops over a transaction's actions or
// an action's commands unchecked; a PER walk has no length to hop by, but
// can leave everything after that place unread, and does: the rest is
// not checked, as a relay would not check it.
func (d *scanner) done(depth scan.Depth) bool {
	return d.s.Want == depth && d.txLeft == 0 && !d.extAfter && (depth == scan.Transactions || d.actLeft == 0)
}

// txCount and actCount note a list's element count. A count of 16K or
// more comes in fragments, which the hook sees only the first of: such a
// list never lets the walk stop early.
func (d *scanner) txCount(n int)  { d.txLeft = fragmented(n) }
func (d *scanner) actCount(n int) { d.actLeft = fragmented(n) }

func fragmented(n int) int {
	if n >= 1<<14 {
		return math.MaxInt
	}
	return n
}

func (d *scanner) run(data []byte, s *scan.Summary, lim limits.Limits) error {
	lim = lim.OrDefault()
	s.Reset()
	if err := lim.CheckSize("per", codecerr.AtBit(0), len(data)); err != nil {
		return err
	}
	d.start(data, lim)
	d.s, d.cmd, d.level = s, -1, scan.Transactions
	d.acts, d.cmds, d.all = s.Want.Reaches(scan.Actions), s.Want.Reaches(scan.Commands), s.Want.Reaches(scan.Everything)
	v, err := d.version()
	if err != nil {
		return err
	}
	s.Version = v
	switch err := scanMessage(d, v); err {
	case nil:
		return d.End()
	case errStop:
		return nil
	default:
		return err
	}
}

// openType enters the open type that follows (an extension addition that
// may hold what the summary reports); closeOpenType leaves it.
func (d *scanner) openType() (x691.Reader, error) {
	sub, err := d.OpenType()
	if err != nil {
		return d.Reader, err
	}
	if d.BitOffset()-sub.BitOffset() != sub.Remaining() {
		d.reassembled = true // fragmented: sub reads a copy
	}
	outer := d.Reader
	d.Reader = sub
	d.open++
	return outer, nil
}

func (d *scanner) closeOpenType(outer x691.Reader) {
	d.Reader = outer
	d.open--
}

func (d *scanner) skipOpenTypes(n int) error {
	for ; n > 0; n-- {
		if err := d.SkipOpenType(); err != nil {
			return err
		}
	}
	return nil
}

// octetsBefore is the span of the n octets that end at the current
// (octet-aligned) position.
func (d *scanner) octetsBefore(n int) scan.Span {
	end := d.BitOffset() >> 3
	return scan.Span{Off: end - n, Len: n}
}

// id32Span is the span of the value octets of an INTEGER (0..4294967295)
// whose encoding started at bit at: a 2-bit length, the padding to the
// next octet, then the octets, which end at the current position.
func (d *scanner) id32Span(at int) scan.Span {
	off := (at + 2 + 7) >> 3
	return scan.Span{Off: off, Len: d.BitOffset()>>3 - off}
}

func (d *scanner) midBegin() { d.inMID, d.midAt, d.s.MID.Port = true, d.BitOffset(), -1 }

func (d *scanner) midEnd() {
	d.inMID, d.midTo = false, d.BitOffset()
	start := d.midAt >> 3
	d.s.MID.Span = scan.Span{Off: start, Len: (d.BitOffset()+7)>>3 - start}
}

func (d *scanner) midKind(k scan.MIDKind) {
	if d.inMID {
		d.s.MID.Kind = k
	}
}

func (d *scanner) midValue(b []byte) {
	if d.inMID {
		d.s.MID.Value = b
	}
}

func (d *scanner) midPort(x int64, _ int) {
	if d.inMID {
		d.s.MID.Port = int(x)
	}
}

func (d *scanner) tx(k scan.TxKind) {
	d.s.Transactions = append(d.s.Transactions, scan.Transaction{Kind: k})
	d.cmd, d.level = -1, scan.Transactions
}

func (d *scanner) lastTx() *scan.Transaction { return &d.s.Transactions[len(d.s.Transactions)-1] }

func (d *scanner) txID(x int64, at int) {
	t := d.lastTx()
	t.ID, t.LastID, t.IDSpan = uint32(x), uint32(x), d.id32Span(at)
	d.site(txSite, at, x)
}

func (d *scanner) lastID(x int64, at int) {
	d.lastTx().LastID = uint32(x)
	d.site(txSite, at, x)
}

func (d *scanner) immAck()   { d.lastTx().ImmAckRequired = true }
func (d *scanner) complete() { d.lastTx().Complete = true }

func (d *scanner) segment(x int64, _ int) { d.lastTx().Segment = uint16(x) }

// The hooks below report only down to s.Want; the walk goes on below it
// all the same: PER has no length to skip a list of actions or commands
// by, only a count of elements that must each be walked.

func (d *scanner) action(x int64, at int) {
	d.actLeft--
	if d.acts {
		d.s.Actions = append(d.s.Actions, scan.Action{Tx: len(d.s.Transactions) - 1, ContextID: uint32(x), Span: d.id32Span(at)})
	}
	d.cmd, d.level = -1, scan.Actions
	d.site(contextSite, at, x)
}

func (d *scanner) command(k scan.CommandKind, reply bool) {
	d.cmd, d.level = -1, scan.Commands
	if d.cmds {
		d.cmd = len(d.s.Commands)
		d.s.Commands = append(d.s.Commands, scan.Command{Action: len(d.s.Actions) - 1, Kind: k, Reply: reply})
	}
}

func (d *scanner) optional() {
	if d.cmd >= 0 {
		d.s.Commands[d.cmd].Optional = true
	}
}

func (d *scanner) wildcard() {
	if d.cmd >= 0 {
		d.s.Commands[d.cmd].Wildcard = true
	}
}

func (d *scanner) termBegin() {
	if !d.terms || !d.all {
		return
	}
	if n := len(d.s.Terminations); d.replace && n > 0 && d.s.Terminations[n-1].Command == d.cmd {
		d.s.Terminations = d.s.Terminations[:n-1]
	}
	d.replace = false
	d.s.Terminations = append(d.s.Terminations, scan.Termination{Command: d.cmd})
}

func (d *scanner) termWildcards(n int) {
	if d.terms && d.all {
		d.s.Terminations[len(d.s.Terminations)-1].Wildcarded = n > 0
	}
}

func (d *scanner) termID(b []byte) {
	if d.terms && d.all {
		t := &d.s.Terminations[len(d.s.Terminations)-1]
		t.ID, t.Span = b, d.octetsBefore(len(b))
	}
}

// errorCode reports an error descriptor's code if s.Want reaches the list
// it is in: a message's or a transaction's at every depth, an action
// reply's from Actions, one inside a command with Everything.
func (d *scanner) errorCode(x int64, _ int) {
	switch {
	case d.level == scan.Commands && !d.all, d.level == scan.Actions && !d.acts:
		return
	}
	d.s.Errors = append(d.s.Errors, scan.Error{Tx: len(d.s.Transactions) - 1, Command: d.cmd, Code: uint16(x), Span: d.octetsBefore(2)})
}

// siteKind tells the IDs Rewrite changes apart.
type siteKind uint8

const (
	txSite siteKind = iota + 1
	contextSite
)

// site is an INTEGER (0..4294967295) ID as Rewrite needs it: where its
// 2-bit length is, its value, and whether an open type's length covers it.
type site struct {
	kind  siteKind
	at    int // bit offset of the length
	value uint32
	open  bool
}

func (d *scanner) site(k siteKind, at int, x int64) {
	if d.sites != nil {
		*d.sites = append(*d.sites, site{kind: k, at: at, value: uint32(x), open: d.open > 0})
	}
}
