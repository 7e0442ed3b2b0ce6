package native

import "testing"

// TestScanListLayout checks that the list fields the scanner reads
// without the generated wrapped... flags are laid out as it reads them:
// wrapped (a wrapper message holding the items in its field 1: wrapper)
// or repeated (one item per field).
func TestScanListLayout(t *testing.T) {
	for _, l := range []struct {
		name          string
		wrapped, want bool
	}{
		{"Message.messageBody.transactions", wrappedMessageMessageBodyTransactions, true},
		{"Transaction.transactionResponseAck", wrappedTransactionTransactionResponseAck, true},
		{"TransactionReply.transactionResult.actionReplies", wrappedTransactionReplyTransactionResultActionReplies, true},
		{"TransactionRequest.actions", wrappedTransactionRequestActions, false},
		{"ActionRequest.commandRequests", wrappedActionRequestCommandRequests, false},
		{"ActionReply.commandReply", wrappedActionReplyCommandReply, false},
	} {
		if l.wrapped != l.want {
			t.Errorf("%s: wrapped %v, the scanner reads it as wrapped %v", l.name, l.wrapped, l.want)
		}
	}
}
