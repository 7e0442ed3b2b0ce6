package proxy

import (
	"bytes"
	"strings"

	"megaco/internal/codec"
	"megaco/internal/codec/per"
	"megaco/internal/errclass"
	"megaco/internal/model"
)

// Error codes and texts of H.248.8 (the list RFC 3525 section 7.3 refers
// to; the same numbers as Erlang/OTP's megaco.hrl).
const (
	codeBadTransaction = 403 // Syntax error in transaction request
	codeVersion        = 406
	codeTermID         = 430
	codePackage        = 440
	codeValue          = 449
	codeInternal       = 500
)

var codeTexts = map[uint32]string{
	codeBadTransaction: "Syntax error in transaction request",
	codeVersion:        "Version not supported",
	codeTermID:         "Unknown TerminationID",
	codePackage:        "Unsupported or unknown package",
	codeValue:          "Unsupported or unknown parameter or property value",
	codeInternal:       "Internal gateway error",
}

// errorCode is the error descriptor's code for a request the proxy could
// not decode or transcode: the code that names the cause when there is
// one (RFC 3525 section 8.2.2 for syntax errors), else a syntax error
// in the transaction.
func errorCode(err error) uint32 { return errclass.MegacoCode(err) }

// errorText is the code's text with the proxy's diagnosis appended
// (section 7.3 encourages it), kept to characters every encoding's
// quoted string can carry, and cut to maxDiagnosis at a word's end,
// marked "...".
func errorText(code uint32, err error) string {
	msg := err.Error()
	d := make([]byte, 0, min(len(msg), maxDiagnosis+1))
	for _, c := range []byte(msg) {
		if len(d) > maxDiagnosis {
			break
		}
		switch {
		case c == '"':
			c = '\''
		case c < 0x20 || c >= 0x7f:
			c = ' '
		}
		d = append(d, c)
	}
	if len(d) > maxDiagnosis {
		d = cutWords(d, maxDiagnosis-len(ellipsis))
		d = append(d, ellipsis...)
	}
	return codeTexts[code] + " (proxy: " + string(d) + ")"
}

const ellipsis = "..."

// cutWords cuts d to at most n bytes at the end of a word: before the
// last space that leaves a word whole, or, when one word fills the half
// or more of n, within it (there is no end to cut at).
func cutWords(d []byte, n int) []byte {
	if len(d) <= n {
		return d
	}
	if d[n] == ' ' { // the word before the cut ends there
		return bytes.TrimRight(d[:n], " ")
	}
	if i := bytes.LastIndexByte(d[:n], ' '); i >= n/2 {
		return bytes.TrimRight(d[:i], " ")
	}
	return d[:n]
}

// errorReply is the answer to requests the proxy cannot forward: a
// TransactionReply with an error descriptor for each request ID.
func errorReply(version int, mid model.MId, reqs []uint32, code uint32, text string) *model.MegacoMessage {
	m := &model.MegacoMessage{Mess: model.Message{Version: uint32(version), MId: mid}}
	ed := &model.ErrorDescriptor{ErrorCode: code, ErrorText: model.Some(text)}
	ts := make([]model.Transaction, len(reqs))
	for i, tid := range reqs {
		ts[i] = model.Transaction{Kind: model.Transaction_TransactionReply, TransactionReply: &model.TransactionReply{
			TransactionId:     tid,
			TransactionResult: model.TransactionReplyTransactionResult{Kind: model.TransactionReplyTransactionResult_TransactionError, TransactionError: ed},
		}}
	}
	m.Mess.MessageBody = model.MessageMessageBody{Kind: model.MessageMessageBody_Transactions, Transactions: ts}
	return m
}

// salvage is what can be read of a message the decoder refused: its version
// (0 when unknown), the IDs of its requests and whether it holds anything
// else (replies, pendings, acks), which the proxy drops.
type salvage struct {
	version int
	reqs    []uint32
	others  [numKinds]int
}

// scanMessage reads the version and transaction IDs of a message that
// does not decode, for the error reply: text and BER have a structure
// that survives a later error; other encodings give at most a version.
func scanMessage(data []byte, codecName string) salvage {
	switch codec.FormOf(codecName) {
	case codec.Text:
		return scanText(data)
	}
	switch codecName {
	case "ber":
		return scanBER(data)
	case "per":
		v, _ := per.PeekVersion(data)
		return salvage{version: v}
	}
	return salvage{}
}

// scanText reads "MEGACO/v" or "!/v" and then, outside braces and quoted
// strings, the transactions' tokens: Transaction (T) = ID for requests,
// and Reply (P), Pending (PN), TransactionResponseAck (K), MessageSegment
// (SM) or Error (ER) for the rest.
func scanText(data []byte) salvage {
	var s salvage
	i := skipSpace(data, 0)
	switch {
	case hasPrefixFold(data[i:], "MEGACO/"):
		i += 7
	case hasPrefixFold(data[i:], "!/"):
		i += 2
	default:
		return s
	}
	v, j := digits(data, i)
	if j == i {
		return s
	}
	s.version, i = int(min(v, 99)), j
	depth := 0
	for i < len(data) && len(s.reqs) < maxScanned {
		c := data[i]
		switch {
		case c == '"':
			k := bytes.IndexByte(data[i+1:], '"')
			if k < 0 {
				return s
			}
			i += k + 2
		case c == ';':
			k := bytes.IndexAny(data[i:], "\r\n")
			if k < 0 {
				return s
			}
			i += k
		case c == '{':
			depth++
			i++
		case c == '}':
			depth--
			i++
		case depth == 0 && isAlpha(c) && (i == 0 || !isWordByte(data[i-1])):
			j := i
			for j < len(data) && isWordByte(data[j]) {
				j++
			}
			word := strings.ToLower(string(data[i:j]))
			i = j
			k := skipSpace(data, i)
			if k >= len(data) || data[k] != '=' && data[k] != '{' {
				continue
			}
			switch word {
			case "transaction", "t":
				if data[k] != '=' {
					continue
				}
				k = skipSpace(data, k+1)
				if tid, end := digits(data, k); end > k && tid <= 1<<32-1 {
					s.reqs = append(s.reqs, uint32(tid))
					i = end
				}
			case "reply", "p":
				s.others[kindReply]++
			case "pending", "pn":
				s.others[kindPending]++
			case "transactionresponseack", "k", "messagesegment", "sm":
				s.others[kindAck]++
			case "error", "er":
				s.others[kindError]++
			}
		default:
			i++
		}
	}
	return s
}

// maxScanned bounds the IDs taken from one broken message.
const maxScanned = 64

func skipSpace(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n') {
		i++
	}
	return i
}

func digits(d []byte, i int) (uint64, int) {
	var v uint64
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		if v < 1<<40 {
			v = v*10 + uint64(d[i]-'0')
		}
		i++
	}
	return v, i
}

func hasPrefixFold(d []byte, p string) bool {
	return len(d) >= len(p) && strings.EqualFold(string(d[:len(p)]), p)
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isWordByte(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' || c == '_' }

// scanBER walks the TLVs of MegacoMessage (H.248.1 Annex A, automatic
// tags) as far as they hold: mess [1] { version [0], mId [1],
// messageBody [2] { transactions [1] { transactionRequest [0]
// { transactionId [0] }, others [1..4] } } }. Lengths that run past the
// data are cut to it, so a truncated message still gives its first IDs.
func scanBER(data []byte) salvage {
	var s salvage
	tag, msg, _ := tlv(data)
	if tag != 0x30 {
		return s
	}
	mess := find(msg, 0xa1)
	if v, ok := berUint(find(mess, 0x80)); ok {
		s.version = int(min(v, 99))
	}
	body := find(mess, 0xa2)
	trs := find(body, 0xa1)
	for len(trs) > 0 && len(s.reqs) < maxScanned {
		tag, content, rest := tlv(trs)
		if tag == 0 {
			break
		}
		if tag == 0xa0 {
			if tid, ok := berUint(find(content, 0x80)); ok && tid <= 1<<32-1 {
				s.reqs = append(s.reqs, uint32(tid))
			}
		} else {
			s.others[berKinds[tag&0x1f]]++
		}
		trs = rest
	}
	return s
}

// berKinds maps the Transaction alternatives' tag numbers to kinds:
// request, pending, reply, responseAck, segmentReply (an unknown one
// counts as a reply: it is dropped, not answered).
var berKinds = [32]kind{0: kindRequest, 1: kindPending, 5: kindReply, 6: kindReply, 7: kindReply, 8: kindReply, 9: kindReply, 10: kindReply, 11: kindReply, 12: kindReply, 13: kindReply, 14: kindReply, 15: kindReply, 16: kindReply, 17: kindReply, 18: kindReply, 19: kindReply, 20: kindReply, 21: kindReply, 22: kindReply, 23: kindReply, 24: kindReply, 25: kindReply, 26: kindReply, 27: kindReply, 28: kindReply, 29: kindReply, 30: kindReply, 31: kindReply, 2: kindReply, 3: kindAck, 4: kindAck}

// tlv splits one TLV with a one-octet tag and a definite length off b;
// tag 0 when there is none.
func tlv(b []byte) (tag byte, content, rest []byte) {
	if len(b) < 2 {
		return 0, nil, nil
	}
	tag, n, i := b[0], int(b[1]), 2
	if n&0x80 != 0 {
		k := n & 0x7f
		if k == 0 || k > 3 || len(b) < 2+k {
			return 0, nil, nil
		}
		n = 0
		for _, c := range b[2 : 2+k] {
			n = n<<8 | int(c)
		}
		i += k
	}
	end := min(i+n, len(b))
	return tag, b[i:end], b[end:]
}

// find returns the content of the first TLV in b with the tag.
func find(b []byte, want byte) []byte {
	for len(b) > 0 {
		tag, content, rest := tlv(b)
		if tag == 0 {
			return nil
		}
		if tag == want {
			return content
		}
		b = rest
	}
	return nil
}

func berUint(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 5 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v, true
}
