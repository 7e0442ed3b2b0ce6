package proxy

import (
	"bytes"

	"megaco/internal/codec/scan"
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

// maxSalvaged bounds the transactions taken from one broken message.
const maxSalvaged = 64

// scanKinds maps the transaction kinds a scan or a salvage reads to the
// proxy's: a segment reply, which is never answered, counts with the acks.
var scanKinds = [...]kind{scan.Request: kindRequest, scan.Pending: kindPending, scan.Reply: kindReply,
	scan.ResponseAck: kindAck, scan.SegmentReply: kindAck}
