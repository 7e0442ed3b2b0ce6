// Package stats computes Megaco service response times from the messages
// of a capture, as Wireshark's MEGACO service response time statistics do:
// a request is matched to its reply by the pair of peers and the
// transaction ID, and the time between them is counted under the
// request's command type. It also counts what a debugging engineer looks
// for next: requests never answered, pendings, response acknowledgements,
// replies without a request and error descriptors by code.
package stats

import (
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"megaco/internal/codec/scan"
)

// Commands are the command types, in the order they are reported; a
// transaction's type is the first command of its first action.
var Commands = []string{"add", "modify", "subtract", "move", "auditValue", "auditCapabilities", "notify", "serviceChange"}

// commandNames are the names of scan.CommandKind's values, in Commands'
// terms.
var commandNames = [...]string{
	scan.Add: "add", scan.Modify: "modify", scan.Subtract: "subtract", scan.Move: "move",
	scan.AuditValue: "auditValue", scan.AuditCapability: "auditCapabilities",
	scan.Notify: "notify", scan.ServiceChange: "serviceChange",
}

func commandName(k scan.CommandKind) string {
	if int(k) < len(commandNames) && commandNames[k] != "" {
		return commandNames[k]
	}
	return "other"
}

// MaxOpen bounds the requests waiting for a reply; past it new requests
// are counted in NotTracked and not matched.
const MaxOpen = 1 << 20

// Stats accumulates. The zero value is not ready: use New.
type Stats struct {
	open        map[key]request
	times       map[string][]time.Duration
	perCmd      map[string][]time.Duration // ByCommand's samples
	Requests    int                        // transaction requests seen (retransmissions once)
	Retransmits int                        // a request seen again before its reply
	Replies     int
	Unmatched   int // replies to no request seen (or answered already)
	Pendings    int
	Acks        int // transactions acknowledged by TransactionResponseAck
	NotTracked  int
	Errors      map[uint32]int // error descriptors by error code
}

// key is a transaction: the requester, the responder and its ID.
type key struct {
	from, to netip.AddrPort
	tid      uint32
}

type request struct {
	at   time.Time
	cmd  string
	cmds []string // every command of the request, for ByCommand
	pend int
}

// New returns empty statistics.
func New() *Stats {
	return &Stats{open: map[key]request{}, times: map[string][]time.Duration{}, perCmd: map[string][]time.Duration{}, Errors: map[uint32]int{}}
}

// Add counts the transactions of one message sent from src to dst at t,
// as sum reports them (a scan of the message, or scan.FromModel of its
// decode).
func (s *Stats) Add(t time.Time, src, dst netip.AddrPort, sum *scan.Summary) {
	act, cmd := 0, 0 // the actions and commands of transaction i start here
	for i := range sum.Transactions {
		tr := &sum.Transactions[i]
		a0, c0 := act, cmd
		for act < len(sum.Actions) && sum.Actions[act].Tx == i {
			act++
		}
		for cmd < len(sum.Commands) && sum.Commands[cmd].Action < act {
			cmd++
		}
		switch tr.Kind {
		case scan.Request:
			s.request(t, key{src, dst, tr.ID}, sum, a0, sum.Commands[c0:cmd])
		case scan.Pending:
			s.Pendings++
			k := key{dst, src, tr.ID}
			if r, ok := s.open[k]; ok {
				r.pend++
				s.open[k] = r
			}
		case scan.Reply:
			s.reply(t, key{dst, src, tr.ID})
		case scan.ResponseAck:
			s.Acks++
			if tr.LastID > tr.ID {
				s.Acks += int(tr.LastID - tr.ID)
			}
		}
	}
	for i := range sum.Errors {
		if e := &sum.Errors[i]; counted(sum, e) {
			s.Errors[uint32(e.Code)]++
		}
	}
}

// request opens transaction k; first is the index of its first action and
// cmds are its commands.
func (s *Stats) request(t time.Time, k key, sum *scan.Summary, first int, cmds []scan.Command) {
	if _, ok := s.open[k]; ok {
		s.Retransmits++ // the response time runs from the first copy
		return
	}
	s.Requests++
	if len(s.open) >= MaxOpen {
		s.NotTracked++
		return
	}
	r := request{at: t, cmd: "other"}
	for _, c := range cmds {
		r.cmds = append(r.cmds, commandName(c.Kind))
	}
	if len(cmds) > 0 && cmds[0].Action == first {
		r.cmd = r.cmds[0]
	}
	s.open[k] = r
}

func (s *Stats) reply(t time.Time, k key) {
	s.Replies++
	r, ok := s.open[k]
	if !ok {
		s.Unmatched++
		return
	}
	delete(s.open, k)
	d := t.Sub(r.at)
	s.times[r.cmd] = append(s.times[r.cmd], d)
	for _, c := range r.cmds {
		s.perCmd[c] = append(s.perCmd[c], d)
	}
}

// counted reports whether an error descriptor is one the statistics count:
// the message's own, and a reply's: its transaction's, each action's, and
// those of the command replies that carry one (notify, service change,
// and an audit reply that is an error, which names no termination). Those
// among a termination's audit results are the termination's state, not
// the reply's outcome, and a notify request's report what the MG saw.
func counted(sum *scan.Summary, e *scan.Error) bool {
	switch {
	case e.Tx < 0:
		return true
	case sum.Transactions[e.Tx].Kind != scan.Reply:
		return false
	case e.Command < 0:
		return true
	}
	switch sum.Commands[e.Command].Kind {
	case scan.Notify, scan.ServiceChange:
		return true
	case scan.AuditValue, scan.AuditCapability:
		return !slices.ContainsFunc(sum.Terminations, func(t scan.Termination) bool { return t.Command == e.Command })
	}
	return false
}

// Unanswered is the number of requests that have had no reply.
func (s *Stats) Unanswered() int { return len(s.open) }

// SRT is the response time summary of one command type.
type SRT struct {
	Command                  string
	Count                    int
	Min, Mean, P50, P99, Max time.Duration
}

// Table returns the response times by command type, in Commands order
// ("other" last, for a request without a command), leaving out types
// with no answered request.
func (s *Stats) Table() []SRT { return table(s.times) }

// ByCommand is Table counted as Wireshark's MEGACO RTD statistics count:
// a sample for every command of a request (two Adds in one transaction
// are two samples of its response time), not one per transaction.
func (s *Stats) ByCommand() []SRT { return table(s.perCmd) }

func table(times map[string][]time.Duration) []SRT {
	var out []SRT
	for _, c := range append(slices.Clone(Commands), "other") {
		d := slices.Clone(times[c])
		if len(d) == 0 {
			continue
		}
		slices.Sort(d)
		var sum time.Duration
		for _, x := range d {
			sum += x
		}
		out = append(out, SRT{Command: c, Count: len(d), Min: d[0], Max: d[len(d)-1],
			Mean: sum / time.Duration(len(d)), P50: rank(d, 50), P99: rank(d, 99)})
	}
	return out
}

// rank is the nearest-rank percentile p of sorted d.
func rank(d []time.Duration, p int) time.Duration {
	i := (p*len(d) + 99) / 100 // ceil(p/100 * n)
	return d[max(i, 1)-1]
}

// Write prints the statistics as a table in milliseconds, then the counts.
func (s *Stats) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "Megaco service response time (request to reply, ms)")
	fmt.Fprintln(tw, "command\tcount\tmin\tmean\tp50\tp99\tmax\t")
	for _, r := range s.Table() {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t\n", r.Command, r.Count, ms(r.Min), ms(r.Mean), ms(r.P50), ms(r.P99), ms(r.Max))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "requests %d, replies %d, unanswered %d, retransmitted requests %d, replies without a request %d, pendings %d, acknowledged %d",
		s.Requests, s.Replies, s.Unanswered(), s.Retransmits, s.Unmatched, s.Pendings, s.Acks)
	if s.NotTracked > 0 {
		fmt.Fprintf(w, ", not tracked (over %d open) %d", MaxOpen, s.NotTracked)
	}
	fmt.Fprintln(w)
	codes := make([]uint32, 0, len(s.Errors))
	for c := range s.Errors {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	var b strings.Builder
	for _, c := range codes {
		fmt.Fprintf(&b, " %d:%d", c, s.Errors[c])
	}
	if b.Len() == 0 {
		b.WriteString(" none")
	}
	_, err := fmt.Fprintf(w, "error descriptors by code:%s\n", b.String())
	return err
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)) }
