package load

import (
	"megaco/internal/codec"
	"megaco/internal/codec/scan"
	"megaco/internal/mapping/termid"
)

// callIDs are the changes that turn the template's IDs into call n's,
// for codec.Rewrite: the same IDs the long way gives (varier), in either
// form. One per Builder: its functions keep the call number and write
// new termination IDs into its own memory.
type callIDs struct {
	flow   *Flow
	layout termid.Layout
	n      uint64
	terms  []byte // the template terminations' first levels
	// text[t]: the text form of template termination t ({t, 0, 0}).
	text [256][]byte
	bin  [3]byte
	buf  []byte
	ch   [2]scan.Changes // binary form, text form
}

func newCallIDs(f *Flow, l termid.Layout) *callIDs {
	c := &callIDs{flow: f, layout: l}
	for t := range templateTerms {
		c.terms = append(c.terms, t)
		// An ID the layout cannot write is no template termination in
		// text: it stays as it is.
		c.text[t], _ = l.AppendText(nil, nil, []byte{t, 0, 0})
	}
	c.ch[0] = scan.Changes{TransactionIDs: c.tx, ContextIDs: c.ctx, TerminationIDs: c.binTerm}
	c.ch[1] = scan.Changes{TransactionIDs: c.tx, ContextIDs: c.ctx, TerminationIDs: c.textTerm}
	return c
}

// changes are the call's changes for a codec of form f.
func (c *callIDs) changes(f codec.Form) *scan.Changes {
	if f == codec.Text {
		return &c.ch[1]
	}
	return &c.ch[0]
}

func (c *callIDs) tx(old uint32) uint32 {
	if k, ok := c.flow.tids[old]; ok {
		return CallTransactionID(k, uint32(len(c.flow.tids)), c.n)
	}
	return old
}

func (c *callIDs) ctx(old uint32) uint32 {
	if k, ok := c.flow.contexts[old]; ok {
		return CallContextID(k, uint32(len(c.flow.contexts)), c.n)
	}
	return old
}

// binTerm gives a template termination (id octets) the call's ID. It
// does not see a wildcard list: the flow has no wildcarded ID whose
// octets are a template termination's (the tests compare every step
// with the long way, which skips wildcarded ones).
func (c *callIDs) binTerm(old []byte) []byte {
	if !templateTerm(old) {
		return old
	}
	c.bin = callTerm(old[0], c.n)
	return c.bin[:]
}

// textTerm is binTerm for a termination's name in text form.
func (c *callIDs) textTerm(old []byte) []byte {
	for _, t := range c.terms {
		if string(old) != string(c.text[t]) {
			continue
		}
		c.bin = callTerm(t, c.n)
		var err error
		if c.buf, err = c.layout.AppendText(c.buf[:0], nil, c.bin[:]); err != nil {
			return old // as the long way, which would have failed already at the template
		}
		return c.buf
	}
	return old
}
