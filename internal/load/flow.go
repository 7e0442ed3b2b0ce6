package load

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"

	"megaco/internal/codec/ber"
	"megaco/internal/model"
)

// The call flow: RFC 3525 Appendix I A.1 (corpus/appendix-a/corrected),
// with the termination IDs in layout form, as BER templates (flow/README.md
// says how they were made).
//
//go:embed flow/a1-*.ber
var flowFS embed.FS

// Side is who sends a message.
type Side uint8

const (
	MGC Side = iota // the media gateway controller
	MG              // one of the two gateways
)

func (s Side) String() string {
	if s == MGC {
		return "mgc"
	}
	return "mg"
}

// Step is one message of the call flow.
type Step struct {
	Seq  int    // 1..28
	Name string // the template's file name without extension
	From Side
	// Type names the message for the latency report: the command of its
	// first action ("Notify"), with "Reply" appended for a reply.
	Type string
	// Gateway is 1 or 2: the gateway the message is from or to.
	Gateway int
	// Template is the BER encoding (binary form, version 1).
	Template []byte
}

// Flow is the call flow, in order, and what varies per call.
type Flow struct {
	Steps []Step
	// Types lists the message types in order of first appearance.
	Types []string
	// HoldAfter is the index of the step after which -d holds the call:
	// the last reply of the answer (both sides in SendReceive), before the
	// mid-call audit and the hang-up.
	HoldAfter int
	tids      map[uint32]uint32 // template transaction ID -> ordinal
	contexts  map[uint32]uint32 // template context ID -> ordinal
}

// Template termination IDs ([8,8,8] layout, first level): A4444, A4445,
// A5555, A5556. The two lower levels carry the call number.
var templateTerms = map[byte]string{1: "A4444", 2: "A4445", 3: "A5555", 4: "A5556"}

// LoadFlow reads the embedded call flow.
func LoadFlow() (*Flow, error) {
	entries, err := flowFS.ReadDir("flow")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".ber") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) != 28 {
		return nil, fmt.Errorf("call flow: %d templates, want 28", len(names))
	}
	f := &Flow{tids: map[uint32]uint32{}, contexts: map[uint32]uint32{}, HoldAfter: -1}
	seen := map[string]bool{}
	for i, n := range names {
		data, err := flowFS.ReadFile(path.Join("flow", n))
		if err != nil {
			return nil, err
		}
		m, err := ber.Decode(data, ber.Options{})
		if err != nil {
			return nil, fmt.Errorf("call flow %s: %w", n, err)
		}
		st := Step{Seq: i + 1, Name: strings.TrimSuffix(n, ".ber"), Template: data}
		// a1-NN-mg1-to-mgc-... / a1-NN-mgc-to-mg2-...
		parts := strings.SplitN(st.Name, "-", 6)
		if len(parts) < 5 {
			return nil, fmt.Errorf("call flow: bad template name %s", n)
		}
		switch {
		case parts[2] == "mgc":
			st.From, st.Gateway = MGC, int(parts[4][2]-'0')
		default:
			st.From, st.Gateway = MG, int(parts[2][2]-'0')
		}
		if st.Type, err = messageType(m); err != nil {
			return nil, fmt.Errorf("call flow %s: %w", n, err)
		}
		if !seen[st.Type] {
			seen[st.Type] = true
			f.Types = append(f.Types, st.Type)
		}
		for _, t := range m.Mess.MessageBody.Transactions {
			id := transactionID(&t)
			if _, ok := f.tids[id]; !ok {
				f.tids[id] = uint32(len(f.tids))
			}
			forEachContext(&t, func(c *uint32) {
				if specificContext(*c) {
					if _, ok := f.contexts[*c]; !ok {
						f.contexts[*c] = uint32(len(f.contexts))
					}
				}
			})
		}
		f.Steps = append(f.Steps, st)
	}
	// Hold after the reply that completes the answer: the last ModifyReply
	// from gateway 1 before the AuditValue (a1-22).
	for i, st := range f.Steps {
		if st.Type == "AuditValue" {
			f.HoldAfter = i - 1
			break
		}
	}
	if f.HoldAfter < 0 {
		f.HoldAfter = len(f.Steps) - 1
	}
	return f, nil
}

// messageType names a message by the command of its first action.
func messageType(m *model.MegacoMessage) (string, error) {
	ts := m.Mess.MessageBody.Transactions
	if len(ts) == 0 {
		return "", fmt.Errorf("no transaction")
	}
	switch t := ts[0]; t.Kind {
	case model.Transaction_TransactionRequest:
		if len(t.TransactionRequest.Actions) == 0 || len(t.TransactionRequest.Actions[0].CommandRequests) == 0 {
			return "", fmt.Errorf("request without a command")
		}
		return commandName(t.TransactionRequest.Actions[0].CommandRequests[0].Command.Kind), nil
	case model.Transaction_TransactionReply:
		r := t.TransactionReply.TransactionResult
		if len(r.ActionReplies) == 0 || len(r.ActionReplies[0].CommandReply) == 0 {
			return "", fmt.Errorf("reply without a command reply")
		}
		return commandName(r.ActionReplies[0].CommandReply[0].Kind) + "Reply", nil
	}
	return "", fmt.Errorf("transaction kind %d", ts[0].Kind)
}

// commandNames are the flow's names of the commands by kind. The model
// numbers a command's request and its reply alike (Add 1 ... ServiceChange
// 8; TestCommandNames checks it), so one table names both.
var commandNames = [...]string{
	model.Command_AddReq: "Add", model.Command_MoveReq: "Move", model.Command_ModReq: "Modify",
	model.Command_SubtractReq: "Subtract", model.Command_AuditCapRequest: "AuditCapability",
	model.Command_AuditValueRequest: "AuditValue", model.Command_NotifyReq: "Notify",
	model.Command_ServiceChangeReq: "ServiceChange",
}

// commandName names a command request's or reply's kind.
func commandName[K model.CommandKind | model.CommandReplyKind](k K) string {
	if int(k) < len(commandNames) && commandNames[k] != "" {
		return commandNames[k]
	}
	return fmt.Sprintf("Command%d", k)
}

// transactionID returns the transaction's ID (0 for an acknowledgement).
func transactionID(t *model.Transaction) uint32 {
	if p := tidRef(t); p != nil {
		return *p
	}
	return 0
}

func tidRef(t *model.Transaction) *uint32 {
	switch t.Kind {
	case model.Transaction_TransactionRequest:
		return &t.TransactionRequest.TransactionId
	case model.Transaction_TransactionReply:
		return &t.TransactionReply.TransactionId
	case model.Transaction_TransactionPending:
		return &t.TransactionPending.TransactionId
	}
	return nil
}

func forEachContext(t *model.Transaction, f func(*uint32)) {
	switch t.Kind {
	case model.Transaction_TransactionRequest:
		for i := range t.TransactionRequest.Actions {
			f(&t.TransactionRequest.Actions[i].ContextId)
		}
	case model.Transaction_TransactionReply:
		r := &t.TransactionReply.TransactionResult
		for i := range r.ActionReplies {
			f(&r.ActionReplies[i].ContextId)
		}
	}
}

// Context IDs 0 (null), 0xFFFFFFFE (CHOOSE, $) and 0xFFFFFFFF (ALL, *)
// are not one context.
func specificContext(c uint32) bool { return c != 0 && c < 0xFFFFFFFE }
