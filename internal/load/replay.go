package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"sync"
	"time"

	pb "megaco/api/megaco/v1"
	"megaco/internal/capture"
	"megaco/internal/codec"
	"megaco/internal/model"
	"megaco/internal/protoconv"
)

// MaxReplayMessages and MaxReplayBytes (captured and expected bytes
// together) bound what a replay keeps in memory.
const (
	MaxReplayMessages = 1_000_000
	MaxReplayBytes    = 256 << 20
)

// Replay is a capture's Megaco messages, ready to go through the service:
// each is one call, sent at its offset from the capture's first message
// (or, with a rate, at the rate), transcoded from its detected codec to
// the other side's (text to Codecs.MG, binary to Codecs.MGC), and the
// output compared with this library's own transcoding.
type Replay struct {
	Msgs  []ReplayMsg
	Types []string // message types, in order of first appearance
	// Skipped are the captured messages left out, with why (a frame that
	// could not be read, a message that does not decode or transcode).
	Skipped []string
	// Paced: at Config.Ramp's rate instead of the capture's timing.
	Paced bool
	// Wire: prepared by ReadWireReplay for the wire mode: each message is
	// a captured request, with the reply its receiver answers with.
	Wire bool
	// Notes say how the capture was read (the wire mode's sides).
	Notes []string
}

// ReplayMsg is one captured message and what the service must make of it.
type ReplayMsg struct {
	Frame    int
	Offset   time.Duration // since the capture's first message
	Src, Dst string
	From, To string // codec names
	Type     int    // index in Replay.Types
	In, Want []byte
	// The wire mode's: the side that sends the request (From is its
	// codec, To the other side's), its transaction ID, and the reply as
	// the other side sends it and as the requester must receive it: the
	// one captured in frame ReplyFrame, or a plain reply (ReplyFrame 0).
	Side             Side
	TID              uint32
	Reply, ReplyWant []byte
	ReplyType        int
	ReplyFrame       int
	Ack              bool // an acknowledgement, sent on its own: no reply
	// The pending the other side answers with first, if captured: as it
	// sends it and as the requester must receive it.
	Pending, PendingWant []byte
	PendingType          int
	PendingFrame         int
	dst                  netip.AddrPort
}

// ReadReplay reads a pcap or pcapng capture (Megaco on ports, nil: the
// default ports) and prepares its messages for codecs.
func ReadReplay(r io.Reader, ports []uint16, codecs Codecs) (*Replay, error) {
	rp := &Replay{}
	types := map[string]int{}
	var size int
	err := readCaptured(r, ports, rp, func(m capture.Message, offset time.Duration) error {
		rm, typ, err := prepareReplayMsg(m, codecs)
		if err != nil {
			rp.skip(fmt.Sprintf("frame %d: %v", m.Frame, err))
			return nil
		}
		rm.Type, rm.Offset = rp.typeIndex(types, typ), offset
		if size += len(rm.In) + len(rm.Want); size > MaxReplayBytes {
			return errReplayBytes
		}
		rp.Msgs = append(rp.Msgs, rm)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rp, rp.check()
}

var errReplayBytes = fmt.Errorf("the capture's messages take more than %d MiB", MaxReplayBytes>>20)

// readCaptured reads a capture's Megaco messages in order and hands each
// to add with its offset from the first; the frames that cannot be read
// are skipped (noted in rp).
func readCaptured(r io.Reader, ports []uint16, rp *Replay, add func(capture.Message, time.Duration) error) error {
	cr, err := capture.NewReader(r, capture.Options{Ports: ports})
	if err != nil {
		return err
	}
	var first time.Time
	for n := 0; ; n++ {
		m, err := cr.Next()
		if err == io.EOF {
			return nil
		}
		var fe *capture.FrameError
		if errors.As(err, &fe) {
			rp.skip(fmt.Sprintf("frame %d: %v", fe.Frame, fe.Err))
			continue
		}
		if err != nil {
			return err
		}
		if n == MaxReplayMessages {
			return fmt.Errorf("more than %d messages in the capture", MaxReplayMessages)
		}
		if first.IsZero() {
			first = m.Time
		}
		if err := add(m, max(m.Time.Sub(first), 0)); err != nil {
			return err
		}
	}
}

// typeIndex is type typ's index in rp.Types, added when new.
func (rp *Replay) typeIndex(types map[string]int, typ string) int {
	i, ok := types[typ]
	if !ok {
		i = len(rp.Types)
		types[typ] = i
		rp.Types = append(rp.Types, typ)
	}
	return i
}

func (rp *Replay) check() error {
	if len(rp.Msgs) == 0 {
		return fmt.Errorf("no Megaco message to replay in the capture (%d skipped)", len(rp.Skipped))
	}
	return nil
}

func (rp *Replay) skip(why string) {
	if len(rp.Skipped) < 1000 {
		rp.Skipped = append(rp.Skipped, why)
	}
}

// prepareReplayMsg detects m's codec, picks the other side's and
// transcodes m locally: the output the service must give.
func prepareReplayMsg(m capture.Message, codecs Codecs) (ReplayMsg, string, error) {
	from, err := codec.Detect(m.Data)
	if err != nil {
		return ReplayMsg{}, "", err
	}
	to := codecs.MGC
	if codec.FormOf(from) == codec.Text {
		to = codecs.MG
	}
	opts := Options()
	msg, _, err := codec.DecodeAs(m.Data, from, codec.FormOf(from), opts)
	if err != nil {
		return ReplayMsg{}, "", fmt.Errorf("%s: %w", from, err)
	}
	want, _, err := codec.Transcode(nil, m.Data, from, to, opts)
	if err != nil {
		return ReplayMsg{}, "", fmt.Errorf("%s -> %s with this library: %w", from, to, err)
	}
	in := bytes.Clone(m.Data)
	return ReplayMsg{Frame: m.Frame, Src: m.Src.String(), Dst: m.Dst.String(), From: from, To: to, In: in, Want: want}, replayType(msg), nil
}

// replayType names a message as the call flow's report does, with names
// for what the flow has not: a pending, an acknowledgement, an error.
func replayType(m *model.MegacoMessage) string {
	if t, err := messageType(m); err == nil {
		return t
	}
	body := m.Mess.MessageBody
	if len(body.Transactions) == 0 {
		return "Error"
	}
	switch body.Transactions[0].Kind {
	case model.Transaction_TransactionPending:
		return "Pending"
	case model.Transaction_TransactionResponseAck:
		return "ResponseAck"
	case model.Transaction_TransactionReply:
		return "OtherReply" // an error descriptor, or a segment reply
	}
	return "OtherRequest"
}

// runReplay sends each captured message as a call of its own, when due,
// with -l, -m, --duration and ctx bounding the run as for the call flow.
func (e *engine) runReplay(ctx context.Context, res *Result) {
	cpu0 := processCPU()
	e.start = time.Now()
	callCtx, abort := context.WithCancel(ctx)
	defer abort()
	rep := newReporter(e, res)
	_, stopReporter := startReporter(rep)
	var wg sync.WaitGroup
	res.Stopped = e.sendReplay(ctx, callCtx, &wg)
	res.Sending = time.Since(e.start)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		res.Stopped += "; interrupted while the last calls ended"
	case <-time.After(e.cfg.Timeout + time.Second):
		res.Stopped += "; the last calls did not end in time"
	}
	abort()
	wg.Wait()
	stopReporter()
	res.Elapsed = time.Since(e.start)
	if c := processCPU(); c > 0 {
		res.CPU = c - cpu0
	}
	res.Final = rep.final()
	res.Warnings, res.OtherLoad = rep.warnings, rep.otherLoad
	if e.wire != nil {
		res.Late, res.Unmatched = e.wire.late.Load(), e.wire.unmatched.Load()
	}
}

// when is the time call n is due.
func (e *engine) when(n int, pac *pacer) time.Duration {
	if e.replay.Paced {
		return pac.When(int64(n))
	}
	return e.replay.Msgs[n].Offset
}

func (e *engine) sendReplay(ctx, callCtx context.Context, wg *sync.WaitGroup) string {
	cfg, msgs := e.cfg, e.replay.Msgs
	pac := newPacer(cfg.Ramp.Period, cfg.Ramp.Rate)
	timer := time.NewTimer(0)
	defer timer.Stop()
	slots := make(chan struct{}, cfg.Limit)
	for n := range msgs {
		if cfg.MaxCalls > 0 && int64(n) >= cfg.MaxCalls {
			return fmt.Sprintf("%d calls started (-m)", n)
		}
		due := e.when(n, pac)
		if cfg.Duration > 0 && due >= cfg.Duration {
			return fmt.Sprintf("duration %v reached", cfg.Duration)
		}
		timer.Reset(max(due-time.Since(e.start), 0))
		select {
		case <-ctx.Done():
			return "interrupted"
		case <-timer.C:
		}
		select {
		case slots <- struct{}{}:
		default:
			e.st.limited.Add(1)
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return "interrupted"
			}
		}
		e.dueNow.Store(int64(n + 1))
		e.st.lag.Record(max(time.Since(e.start)-due, 0))
		e.st.callStarted()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			if e.wire != nil {
				e.replayWireCall(callCtx, n)
			} else {
				e.replayCall(callCtx, n)
			}
		}()
	}
	what := "messages"
	if e.replay.Wire {
		what = "transactions"
	}
	return fmt.Sprintf("the capture's %d %s sent", len(msgs), what)
}

// replayCall transcodes captured message n at the service and checks it.
func (e *engine) replayCall(ctx context.Context, n int) {
	st := e.st
	defer st.active.Add(-1)
	m := &e.replay.Msgs[n]
	req := &pb.TranscodeRequest{Options: e.reqOpts, Data: m.In, From: protoconv.CodecEnum(m.From), To: protoconv.CodecEnum(m.To)}
	t0 := time.Now()
	out, cause, err := e.targets[n%len(e.targets)].transcode(ctx, req, e.cfg.Timeout)
	lat := time.Since(t0)
	if cause == OK {
		err = e.checkReplay(m, out)
		if err != nil {
			cause = Mismatch
		}
	}
	if cause == Aborted {
		st.aborted.Add(1)
		return
	}
	st.msgs.Add(1)
	if cause == OK || cause == Mismatch || cause == Rejected {
		st.rt.Record(lat)
		st.types[m.Type].Record(lat)
	}
	if cause != OK {
		st.msgsFailed.Add(1)
		st.failed[cause].Add(1)
		e.noteError(cause, fmt.Sprintf("frame %d (%s -> %s, %s -> %s): %v", m.Frame, m.Src, m.Dst, m.From, m.To, err))
		return
	}
	st.ok.Add(1)
	st.callLen.Record(lat)
}

// checkReplay compares the service's output with the local transcoding
// and, with DecodeOutput, decodes it.
func (e *engine) checkReplay(m *ReplayMsg, out []byte) error {
	if !bytes.Equal(out, m.Want) {
		return fmt.Errorf("output differs from this library's %s transcoding (%d bytes, want %d)", m.To, len(out), len(m.Want))
	}
	if !e.cfg.DecodeOutput {
		return nil
	}
	if _, _, err := codec.DecodeAs(out, m.To, codec.FormOf(m.To), Options()); err != nil {
		return fmt.Errorf("output does not decode as %s: %w", m.To, err)
	}
	return nil
}
