// Package scan is what a proxy, a load balancer or a metrics pipeline
// reads of an encoded Megaco message without decoding it: the version,
// the mId, each transaction's kind and ID, the context IDs, the command
// kinds, the termination IDs and the error codes, with where each ID
// sits in the encoded bytes. Everything else is skipped.
//
// Each codec package has a scanner that fills a Summary (ber.Scan,
// per.Scan, text.Scan, native.Scan); codec.Scan finds it by codec name.
// A Summary is reused from message to message: Reset keeps the capacity
// of its lists, so a scanner allocates nothing once they have grown to
// the size of the messages seen. The values that are bytes (the mId, a
// termination ID) alias the scanned input and are valid as long as it is.
//
// A scanner checks the structure it walks (lengths, nesting, the
// grammar's brackets) within the codec's limits and fails with a
// *codecerr.Error as the decoder would, but it is not a validator: a
// message that scans may still fail to decode.
//
// A caller that needs less says so before scanning (Summary.Want, a
// Depth): a proxy routing replies reads the transactions only, a load
// balancer the context IDs too, and the scanner skips what lies below.
//
// The positions (Span) are what Rewrite changes: IDs in place, lengths
// and spacing adjusted around them.
package scan

import "megaco/internal/model"

// TxKind is the kind of a transaction.
type TxKind uint8

const (
	Request      TxKind = iota + 1 // TransactionRequest
	Pending                        // TransactionPending
	Reply                          // TransactionReply
	ResponseAck                    // one range of a TransactionResponseAck
	SegmentReply                   // SegmentReply (v3)
)

var txKindNames = [...]string{"", "request", "pending", "reply", "ack", "segment_reply"}

func (k TxKind) String() string { return nameOf(txKindNames[:], k) }

// nameOf is the name of kind k, one of the 1-based kinds names lists
// (names[0] is for no kind): "unknown" for 0 and past the end.
func nameOf[K ~uint8](names []string, k K) string {
	if int(k) < len(names) && k != 0 {
		return names[k]
	}
	return "unknown"
}

// CommandKind is the kind of a command, request or reply (the order of
// the Command and CommandReply CHOICEs, as model.CommandKind).
type CommandKind uint8

const (
	Add CommandKind = iota + 1
	Move
	Modify
	Subtract
	AuditCapability
	AuditValue
	Notify
	ServiceChange
)

var commandNames = [...]string{"", "add", "move", "modify", "subtract", "audit_capability", "audit_value", "notify", "service_change"}

func (k CommandKind) String() string { return nameOf(commandNames[:], k) }

// MIDKind is the alternative of the mId (as model.MIdKind).
type MIDKind uint8

const (
	IP4Address MIDKind = iota + 1
	IP6Address
	DomainName
	DeviceName
	MTPAddress
)

// Span is where a value's encoding sits in the scanned bytes: text, the
// characters of the value as written; BER, the contents octets; PER, the
// value's octets (octet-aligned where the schema makes them so); native,
// the field's value bytes. Len 0 with Off 0 means no position (absent).
type Span struct {
	Off, Len int
}

// End is the offset just past the span.
func (s Span) End() int { return s.Off + s.Len }

// MID is the message's mId.
type MID struct {
	Kind MIDKind
	// Value: text, the mId as written without the port ("[124.124.124.222]",
	// "<mg1.example.net>", "mg/1"); binary, the address octets, the domain
	// or device name's characters, or the MTP address octets.
	Value []byte
	Port  int  // -1 when absent
	Span  Span // the whole mId's encoding
}

// Transaction is one transaction of the message, in order (a
// TransactionResponseAck is one entry per acknowledged range).
type Transaction struct {
	Kind TxKind
	ID   uint32 // a ResponseAck: firstAck
	// LastID: a ResponseAck, the range's lastAck (= ID when absent).
	LastID uint32
	IDSpan Span
	// Segment: a v3 segmented reply's or SegmentReply's segment number,
	// 0 when absent; Complete: segmentationComplete is set.
	Segment  uint16
	Complete bool
	// ImmAckRequired (a request's or reply's, text "ImmAckRequired" / BER
	// the NULL) is set.
	ImmAckRequired bool
}

// Final reports whether a reply ends its transaction: unsegmented, or its
// last segment.
func (t *Transaction) Final() bool { return t.Kind == Reply && (t.Segment == 0 || t.Complete) }

// Action is one action (request) or action reply, in order.
type Action struct {
	Tx        int // index in Summary.Transactions
	ContextID uint32
	Span      Span
}

// Command is one command request or command reply, in order.
type Command struct {
	Action   int // index in Summary.Actions
	Kind     CommandKind
	Reply    bool
	Optional bool // a request marked optional ("O-")
	Wildcard bool // a request with wildcard reply ("W-")
}

// Termination is one termination ID of a command (its terminationID or
// terminationIDList; none for a command that has none, such as a reply
// with no termination).
type Termination struct {
	Command int // index in Summary.Commands
	// ID: text, the ID as written ("A4444", "11111111/00000000/$");
	// binary, the id octets.
	ID []byte
	// Wildcarded: text, it contains '*' or '$'; binary, its wildcard list
	// is not empty.
	Wildcarded bool
	Span       Span
}

// Error is one error descriptor.
type Error struct {
	Tx      int // index in Summary.Transactions, -1 for the message's own error
	Command int // index in Summary.Commands, -1 when not inside a command (a transaction's or action reply's)
	Code    uint16
	Span    Span // the error code's encoding
}

// Depth is how far down the message a scan reads: each depth names the
// deepest list of Summary it fills. Version and MID are read at every
// depth. The zero value is Everything, so a Summary nobody set a depth on
// is filled completely.
//
// Errors are reported down to the depth of the structure holding them:
// the message's error and a reply's transactionError with Transactions,
// an action reply's error with Actions, and the errors inside commands
// only with Everything.
//
// A scanner may fill more than was asked (one that ignores Want is
// correct, only slower), never less: a caller reads the lists its depth
// names and ignores the rest.
type Depth uint8

const (
	// Everything is every list, down to Terminations and the errors
	// inside commands.
	Everything Depth = iota
	// Transactions is Transactions (kind, IDs, segment, ImmAckRequired),
	// with the message's and the replies' transaction errors: what a
	// proxy needs to route and acknowledge. Actions are skipped whole.
	Transactions
	// Actions adds Actions (the context IDs: what a load balancer
	// needs) and the action replies' errors. Commands are skipped whole.
	Actions
	// Commands adds Commands (kinds and flags); what is inside a command
	// (termination IDs, its errors) is skipped.
	Commands
)

var depthNames = [...]string{"everything", "transactions", "actions", "commands"}

func (d Depth) String() string {
	if int(d) < len(depthNames) {
		return depthNames[d]
	}
	return "unknown"
}

// Reaches reports whether a scan at depth d fills what depth level
// names (a value past Commands is read as Everything).
func (d Depth) Reaches(level Depth) bool { return d.rank() >= level.rank() }

// rank orders the depths from the shallowest; Everything, the zero value,
// is the deepest.
func (d Depth) rank() int {
	if d == Everything || d > Commands {
		return int(Commands) + 1
	}
	return int(d)
}

// Summary is what a scan reports. Reuse one: Reset keeps its lists'
// capacity, and Want.
type Summary struct {
	// Want is the caller's request, set before scanning: how deep to read
	// (see Depth). Scanners and Reset leave it as it is.
	Want Depth

	Version      int
	MID          MID
	Transactions []Transaction
	Actions      []Action
	Commands     []Command
	Terminations []Termination
	// Errors lists every error descriptor, in order: the message's,
	// a reply's transactionError, an action reply's, and inside commands
	// (a notify request's or reply's, a service change result, an audit
	// reply's error, and an error among a termination's audit results).
	Errors []Error

	// Scratch is memory a scanner may keep from scan to scan: one of a
	// compressed encoding decompresses into it, and its byte values and
	// spans are then in Scratch rather than in the scanned input.
	Scratch []byte

	text bool // FromModel: the model is in text form
}

// Reset empties s for the next scan, keeping its memory and Want.
//
// Field by field, because a scan of a message's header costs little more
// than this: assigning a whole new Summary zeroes and rewrites all of it,
// with a write barrier check per pointer, where re-slicing a field in
// place needs none. TestResetClearsAll fails when a field is missed.
func (s *Summary) Reset() {
	s.Version, s.MID, s.text = 0, MID{}, false
	s.Transactions = s.Transactions[:0]
	s.Actions = s.Actions[:0]
	s.Commands = s.Commands[:0]
	s.Terminations = s.Terminations[:0]
	s.Errors = s.Errors[:0]
	s.Scratch = s.Scratch[:0]
}

// MessageError is the message-level error descriptor's code, if the body
// is an error rather than transactions.
func (s *Summary) MessageError() (code uint16, ok bool) {
	for _, e := range s.Errors {
		if e.Tx < 0 {
			return e.Code, true
		}
	}
	return 0, false
}

// Changes are what Rewrite changes in a message: each map entry replaces
// an ID by another wherever it occurs in its role. A nil or empty field
// changes nothing.
type Changes struct {
	// TransactionIDs: old transaction ID -> new (requests, pendings,
	// replies, segment replies, and both ends of acknowledged ranges).
	TransactionIDs func(old uint32) uint32
	// ContextIDs: old context ID -> new (not the special IDs 0 "-",
	// 0xFFFFFFFE "$" and 0xFFFFFFFF "*", which are never passed).
	ContextIDs func(old uint32) uint32
	// MID, when non-nil, replaces the mId, written as the codec's
	// encoder writes an mId.
	MID *model.MId
	// TerminationIDs: old termination ID -> new, for every termination
	// a Summary reports (Termination.ID: the id octets in binary form,
	// the name as written in text form; wildcarded ones too, so return
	// old to keep one). The result is read before the next call and not
	// kept. A binary rewriter patches a new ID of the old one's length in
	// place, which is what a load generator's per-call IDs need; one of
	// another length goes the long way (decode -> Apply -> encode):
	// correct, not faster. Text holds no lengths: a text rewriter writes
	// any new name where the old one stood.
	TerminationIDs func(old []byte) []byte
}
