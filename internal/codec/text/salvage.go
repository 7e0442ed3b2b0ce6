package text

import (
	"bytes"

	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// Salvage fills s (after resetting it) with what can be read of a message
// that does not decode, so that a relay can still answer its requests:
// the version of "MEGACO/v" or "!/v" and, outside braces, quoted strings
// and comments, each transaction keyword that an "=" or "{" follows
// (Transaction, Reply, Pending, TransactionResponseAck, MessageSegment)
// as a Transaction of its kind, a request's with its ID, and a top-level
// Error as the message's Error. Unlike Scan it checks nothing and never
// fails: it reads up to the end of data, a body not closed, or max
// entries. Words, keywords and bodies are read as the scanners read them
// (flatWord, flatLookup, skim).
func Salvage(data []byte, s *scan.Summary, max int) {
	s.Reset()
	i := salvageHeader(data, s)
	if i < 0 {
		return
	}
	for i < len(data) && len(s.Transactions)+len(s.Errors) < max {
		i = skimBlanks(data, i) // and comments
		if i >= len(data) {
			return
		}
		switch c := data[i]; {
		case c == '{':
			// A body, stepped over as the scanners step over one
			// (quoted strings, SDP and digit maps included); one not
			// closed leaves nothing readable after it.
			if i = flatSkip(data, i+1, 1, limits.Default.MaxDepth, flStop); i < 0 {
				return
			}
			i++
		case c == '"':
			k := bytes.IndexByte(data[i+1:], '"')
			if k < 0 {
				return
			}
			i += k + 2
		case flatClass[c]&flWord != 0:
			i = salvageWord(data, i, s)
		default:
			i++
		}
	}
}

// salvageHeader reads the version after "MEGACO/" or "!/" (blanks before
// them allowed) into s, capped at 99, and returns the offset after it; -1
// if there is none.
func salvageHeader(data []byte, s *scan.Summary) int {
	i := flatBlanks(data, 0)
	switch {
	case len(data)-i > 7 && isMegaco(data[i:]) && data[i+6] == '/':
		i += 7
	case len(data)-i > 2 && data[i] == '!' && data[i+1] == '/':
		i += 2
	default:
		return -1
	}
	v, j := decimal(data, i)
	if j == i || j-i > 10 {
		return -1
	}
	s.Version = int(min(v, 99))
	return j
}

// salvageWord reads the word at i and what follows it, adding a
// transaction or the message's error to s when the word is a keyword that
// names one, and returns where reading goes on.
func salvageWord(data []byte, i int, s *scan.Summary) int {
	e := flatWord(data, i)
	k := flatBlanks(data, e)
	if k >= len(data) || data[k] != '=' && data[k] != '{' {
		return e
	}
	kind := scan.TxKind(0)
	switch flatLookup(data, i, e) {
	case transToken:
		// A number at the very end may have been cut: no ID.
		if id, _, end := flatNumber(data, k+1, 0xFFFFFFFF); data[k] == '=' && end > 0 && end < len(data) {
			s.Transactions = append(s.Transactions, scan.Transaction{Kind: scan.Request, ID: uint32(id), LastID: uint32(id)})
			return end
		}
	case replyToken:
		kind = scan.Reply
	case pendingToken:
		kind = scan.Pending
	case responseAckToken:
		kind = scan.ResponseAck
	case messageSegmentToken:
		kind = scan.SegmentReply
	case errorToken:
		s.Errors = append(s.Errors, scan.Error{Tx: -1, Command: -1})
	}
	if kind != 0 {
		s.Transactions = append(s.Transactions, scan.Transaction{Kind: kind})
	}
	return e
}
