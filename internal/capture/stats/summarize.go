package stats

import (
	"strings"

	"megaco/internal/codec"
	"megaco/internal/codec/scan"
	"megaco/internal/model"
)

// Summarizer reads what Stats counts of each message: with the codec's
// scanner, which decodes nothing, or by a full decode (scan.FromModel)
// where the codec has no scanner yet or a version is forced (a scanner
// reads the version from the message). Reuse one: its Summary is reused
// from message to message.
type Summarizer struct {
	From string // the codec name, or "auto" or "" to detect it
	Opts codec.Options
	sum  scan.Summary
}

// Summarize returns the summary of data, valid until the next call, and
// the name of the codec that read it.
func (z *Summarizer) Summarize(data []byte) (*scan.Summary, string, error) {
	name := z.From
	if name == "" || strings.EqualFold(name, "auto") {
		var err error
		if name, err = codec.Detect(data); err != nil {
			return nil, "", err
		}
	}
	if d, ok := codec.Describe(name); ok && d.Scan != nil && z.Opts.Version == 0 {
		err := codec.Scan(d.Name, data, &z.sum, z.Opts.Limits)
		return &z.sum, d.Name, err
	}
	m, name, err := codec.DecodeAs(data, name, codec.InputForm, z.Opts)
	if err != nil {
		return nil, name, err
	}
	return z.FromModel(m, name), name, nil
}

// FromModel returns the summary of m, decoded by codec name in its own
// form (for a caller that has decoded anyway), valid until the next call.
func (z *Summarizer) FromModel(m *model.MegacoMessage, name string) *scan.Summary {
	scan.FromModel(m, codec.FormOf(name) == codec.Text, &z.sum)
	return &z.sum
}
