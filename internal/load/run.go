// Package load replays the RFC 3525 call flow (Appendix I A.1, 28
// messages) through the codec service at a chosen call rate, the way a
// Megaco sidecar would use it, and measures it, in the manner of SIPp:
// calls per second with a ramp, a limit on concurrent calls, a call hold
// time, live and periodic statistics, and a search for the highest rate the
// service sustains.
//
// A call sends each message of the flow, in order, to the service for
// transcoding: the MGC's messages from the MGC's codec to the gateways',
// the gateways' the other way. Each output is checked against the same
// message encoded by this process with the codec library, and decoded.
// Every call has its own transaction, context and termination IDs.
package load

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	pb "megaco/api/megaco/v1"
	"megaco/internal/protoconv"
)

// Config is a run's configuration.
type Config struct {
	// Targets are the services' gRPC addresses; calls go to them in turn.
	Targets []string
	// Mode is "unary" (one Transcode call per message) or "stream"
	// (messages multiplexed over Streams TranscodeStream calls per target).
	Mode    string
	Streams int
	// TLS, if set, secures the connections (tlsconfig.Client builds it).
	TLS    *tls.Config
	Codecs Codecs
	// Ramp is the call rate.
	Ramp Ramp
	// Limit bounds the calls in progress (SIPp's -l); 0: 3 x the rate x
	// (hold + 1 s), at least 100.
	Limit int
	// Hold is how long a call stays answered before the hang-up (-d).
	Hold time.Duration
	// MaxCalls stops the run after that many calls (-m); 0: no bound.
	MaxCalls int64
	// Failover sends a message that failed on transport (its target
	// stopped or unreachable) to the next target, and the call stays
	// there, as a client balancing over several instances would; without
	// it the call fails, which shows a target that is down.
	Failover bool
	// Duration stops the run after that long; 0: no bound.
	Duration time.Duration
	// Timeout bounds each message.
	Timeout time.Duration
	// DecodeOutput decodes every output besides comparing its bytes.
	DecodeOutput bool
	// Live, if set, gets a line every second.
	Live io.Writer
	// Log gets notes and warnings (nil: Live).
	Log io.Writer
	// Stat, if set, gets the CSV every StatPeriod (whole seconds, at least 1).
	Stat       io.Writer
	StatPeriod time.Duration
	// FindMax, if set, replaces the ramp by a search for the highest rate
	// that meets its bounds.
	FindMax *FindMax
	// Metrics, if set, is where the generator's Prometheus metrics are
	// registered.
	Metrics Registerer
	// MaxFailed is the largest failed-call ratio (failed / (ok + failed))
	// that Result.Failed accepts.
	MaxFailed float64
	// WatchPID, if set, is a process (the proxy under test) whose CPU
	// time, context switches and system calls the summary reports per
	// message (ProcCost).
	WatchPID int
	// Wire, if set, plays both peers over UDP or TCP through a megaco
	// proxy instead of calling the service (Targets, Mode, TLS and
	// Failover are then unused).
	Wire *Wire
	// Replay, if set, sends a capture's messages instead of the call flow:
	// through the service as ReadReplay reads them, through the proxy
	// (Wire) as ReadWireReplay does.
	Replay *Replay
}

// FindMax is the search for the highest sustained rate: the rate starts at
// Ramp.Rate and doubles each Interval (or grows by Ramp.Step when set)
// while the level passes: no failed call, p99 of the response time within
// P99, at least 95 % of the target rate achieved; after the first level
// that fails, the rate is bisected between the best passed level and the
// failed one until they are within 5 %. A level that fails is run a second
// time, and counts as failed only if it fails again; but p99 over the
// bound across at least MinCalls calls, and in at least 3 and most of the
// window's seconds, fails it at once (a stall of a busy machine spoils a
// second or two, not most of them). With Ramp.Step
// the rate grows by Step instead, and the search ends at the first failed
// level. Ramp.Max bounds it. The first second of each level is not
// measured, nor a second in which the machine held the generator back
// (its scheduling lag p99 over 20 ms: calls started late, the service on
// a busy machine is not what it measures); the level runs on to make up
// for such seconds, up to 3 times Interval (failed calls count wherever
// they fall, and end the stretching; and when more than a second's calls
// are in progress at once, the service is behind and no second is left
// out). After a failed try the search waits for its calls to end.
type FindMax struct {
	P99      time.Duration
	Interval time.Duration
	// MinCalls is how many calls a level's p99 must be taken over to fail
	// it without a second try (0: 500); Interval must give it at least 3
	// measured seconds (4 s) too.
	MinCalls int
}

func (f FindMax) minCalls() int {
	if f.MinCalls <= 0 {
		return 500
	}
	return f.MinCalls
}

// Result is what a run did.
type Result struct {
	Config  Config
	Flow    *Flow
	Final   *Snapshot // from the start to the end
	Elapsed time.Duration
	Sending time.Duration // until the last call was started
	Notes   []string
	Errors  map[Cause][]string // the first few errors of each cause
	Stopped string             // why the run ended
	// CPU is the CPU time this process used during the run (0 where it
	// cannot be read): the generator's own cost.
	CPU     time.Duration
	FindMax *FindMaxResult
	// Warnings counts the seconds behind the rate in which the generator
	// measurably lacked CPU (it used the cores it has, or its goroutines
	// waited to run and its CPU time cannot be read); OtherLoad those in
	// which it waited for a CPU with cores to spare: the machine's other
	// processes took them.
	Warnings, OtherLoad int
	// Late and Unmatched (wire mode) count the messages received for a
	// transaction already given up, and those for none (a duplicate, or
	// one that does not decode).
	Late, Unmatched int64
	// Proc is the watched process's cost (Config.WatchPID), nil without.
	Proc *ProcCost
}

// FailedRatio is failed / (ok + failed) calls.
func (r *Result) FailedRatio() float64 {
	f := r.Final.FailedCalls()
	if f == 0 {
		return 0
	}
	return float64(f) / float64(f+r.Final.OK)
}

// Failed reports whether the failed-call ratio exceeds Config.MaxFailed;
// with FindMax, whether no level passed (the search overloads the service
// on purpose: its failed calls are expected).
func (r *Result) Failed() bool {
	if r.FindMax != nil {
		return r.FindMax.Best == nil
	}
	return r.FailedRatio() > r.Config.MaxFailed
}

// AchievedCPS is the rate calls were started at.
func (r *Result) AchievedCPS() float64 { return rate(r.Final.Started, r.Sending) }

type engine struct {
	cfg      Config
	flow     *Flow
	base     *Builder
	builders freeList[Builder]
	msgs     freeList[CallMsgs]
	targets  []transport
	wire     *wire
	replay   *Replay
	reqOpts  *pb.Options
	enums    [2]pb.Codec // by Side
	st       *stats
	start    time.Time
	log      io.Writer

	errMu  sync.Mutex
	errors map[Cause][]string

	fmRate atomic.Uint64 // find-max: the current target (calls per period), float64 bits
	dueNow atomic.Int64
}

// DefaultCodecs are compact text from the MGC and BER from the gateways.
var DefaultCodecs = Codecs{MGC: "compact", MG: "ber"}

// Run runs the load until the call or time bound, or until ctx is done
// (the calls in progress are then aborted, and the result tells what ran).
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	e, res, err := newEngine(cfg)
	if err != nil {
		return nil, err
	}
	// The streams live until every call has ended, whatever ctx does.
	connCtx, connCancel := context.WithCancel(context.Background())
	defer connCancel()
	defer e.closeTargets()
	if cfg.Wire != nil {
		if e.wire, err = openWire(e); err != nil {
			return nil, fmt.Errorf("wire: %w", err)
		}
		defer e.wire.close()
	} else if err := e.openTargets(connCtx); err != nil {
		return nil, err
	}
	if cfg.Metrics != nil {
		if err := e.registerMetrics(cfg.Metrics); err != nil {
			return nil, err
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintln(e.log, "note:", n)
	}
	var watch *procWatch
	if cfg.WatchPID > 0 {
		if watch, err = watchProc(cfg.WatchPID); err != nil {
			return nil, err
		}
	}
	if e.replay != nil {
		e.runReplay(ctx, res)
	} else {
		e.run(ctx, res)
	}
	if watch != nil {
		if res.Proc, err = watch.stop(); err != nil {
			fmt.Fprintln(e.log, "warning:", err)
		}
	}
	return res, nil
}

// newEngine prepares the flow's messages for cfg's codecs; the result
// gets the notes of the preparation.
func newEngine(cfg Config) (*engine, *Result, error) {
	flow, err := LoadFlow()
	if err != nil {
		return nil, nil, err
	}
	b, err := NewBuilder(flow, cfg.Codecs)
	if err != nil {
		return nil, nil, err
	}
	res := &Result{Config: cfg, Flow: flow, Errors: map[Cause][]string{}}
	if res.Notes, err = b.Prepare(); err != nil {
		return nil, nil, err
	}
	e := &engine{cfg: cfg, flow: flow, base: b, st: newStats(len(flow.Types)), errors: res.Errors, log: cfg.Log}
	if rp := cfg.Replay; rp != nil { // the capture's message types, no call flow
		e.replay, e.flow, res.Flow, res.Notes = rp, &Flow{Types: rp.Types}, &Flow{Types: rp.Types}, rp.Notes
		e.st = newStats(len(rp.Types))
	}
	if e.log == nil {
		e.log = cfg.Live
	}
	if e.log == nil {
		e.log = io.Discard
	}
	e.builders.New = b.clone
	e.msgs.New = func() *CallMsgs { return new(CallMsgs) }
	e.reqOpts = &pb.Options{Profile: pb.Profile_PROFILE_OTP, TerminationIdLayout: Layout}
	for i, n := range []string{cfg.Codecs.MGC, cfg.Codecs.MG} {
		e.enums[i] = protoconv.CodecEnum(n)
	}
	return e, res, nil
}

// openTargets connects to every target; the streams of stream mode live
// as long as ctx.
func (e *engine) openTargets(ctx context.Context) error {
	for _, t := range e.cfg.Targets {
		var tr transport
		var err error
		if e.cfg.Mode == "stream" {
			tr, err = newStreams(ctx, t, e.cfg.Streams, e.cfg.TLS)
		} else {
			tr, err = newUnary(t, e.cfg.TLS)
		}
		if err != nil {
			return fmt.Errorf("target %s: %w", t, err)
		}
		e.targets = append(e.targets, tr)
	}
	return nil
}

// closeTargets closes the targets opened, the last first.
func (e *engine) closeTargets() {
	for i := len(e.targets) - 1; i >= 0; i-- {
		e.targets[i].close()
	}
}

func (c *Config) check() error {
	if c.Wire != nil {
		if err := c.Wire.check(); err != nil {
			return err
		}
		c.Targets, c.Mode = nil, c.Wire.Network
	}
	switch {
	case c.Replay != nil && c.Replay.Wire != (c.Wire != nil):
		return errors.New("a capture replays through the proxy as read by ReadWireReplay, through the service as read by ReadReplay")
	case c.Replay != nil && len(c.Replay.Msgs) == 0:
		return errors.New("the capture has no message to replay")
	case c.Replay != nil && c.FindMax != nil:
		return errors.New("a capture replays once: no rate search")
	case c.Replay != nil && c.Replay.Paced && c.Ramp.Rate <= 0:
		return errors.New("a paced replay needs a rate above 0")
	case c.Wire == nil && len(c.Targets) == 0:
		return errors.New("no target")
	case c.Wire == nil && c.Mode != "unary" && c.Mode != "stream":
		return fmt.Errorf("mode %q: want unary or stream", c.Mode)
	case c.Ramp.Rate < 0 || math.IsNaN(c.Ramp.Rate) || math.IsInf(c.Ramp.Rate, 0):
		return fmt.Errorf("bad rate %v", c.Ramp.Rate)
	case c.Ramp.Period <= 0:
		return errors.New("the rate period must be positive")
	case c.Ramp.Step != 0 && c.Ramp.Interval <= 0 && c.FindMax == nil:
		return errors.New("a rate step needs a positive rate interval")
	case c.Timeout <= 0:
		return errors.New("the timeout must be positive")
	case c.Limit < 0 || c.MaxCalls < 0 || c.Duration < 0 || c.Hold < 0:
		return errors.New("negative limit, call count, duration or hold")
	}
	for _, n := range []string{c.Codecs.MGC, c.Codecs.MG} {
		if c.Wire == nil && protoconv.CodecEnum(n) == pb.Codec_CODEC_UNSPECIFIED {
			return fmt.Errorf("codec %q: the service has no such codec", n)
		}
	}
	if c.FindMax != nil {
		if c.FindMax.P99 <= 0 || c.FindMax.Interval < time.Second {
			return errors.New("find-max needs a positive p99 bound and an interval of at least 1s")
		}
		if c.Ramp.Rate <= 0 {
			return errors.New("find-max needs a starting rate above 0")
		}
	}
	if c.StatPeriod < time.Second {
		c.StatPeriod = time.Second
	}
	if c.Limit == 0 {
		top := c.Ramp.Rate
		if c.Ramp.Max > top {
			top = c.Ramp.Max
		}
		hold := c.Hold
		if c.Wire != nil { // a slow peer lengthens each call: 14 requests
			hold += 14 * c.Wire.AnswerDelay
		}
		c.Limit = max(100, int(3*c.Ramp.PerSecond(top)*(hold+time.Second).Seconds()))
		if c.FindMax != nil {
			c.Limit = max(c.Limit, 10000)
		}
	}
	return nil
}

// targetRate is the target in calls per period at elapsed time t.
func (e *engine) targetRate(t time.Duration) float64 {
	if e.cfg.FindMax != nil {
		return math.Float64frombits(e.fmRate.Load())
	}
	if e.replay != nil && !e.replay.Paced { // no rate: the capture's timing
		return 0
	}
	return e.cfg.Ramp.RateAt(t)
}

// run starts the calls at the target rate until a bound, the find-max
// search or ctx stops it, lets the calls in progress end, and fills res.
func (e *engine) run(ctx context.Context, res *Result) {
	cpu0 := processCPU()
	e.start = time.Now()
	if e.cfg.FindMax != nil {
		e.fmRate.Store(math.Float64bits(e.cfg.Ramp.Rate))
	}
	callCtx, abort := context.WithCancel(ctx)
	defer abort()
	rep := newReporter(e, res)
	stopSending, stopReporter := startReporter(rep)
	s := &sender{e: e, ctx: callCtx, pac: newPacer(e.cfg.Ramp.Period, e.targetRate(0)), ended: make(chan struct{}, 1)}
	res.Stopped = s.send(ctx, stopSending)
	res.Sending = max(time.Since(e.start), s.end)
	res.Stopped += s.drain(ctx)
	abort()
	s.calls.Wait()
	stopReporter()
	res.Elapsed = time.Since(e.start)
	if c := processCPU(); c > 0 {
		res.CPU = c - cpu0
	}
	res.Final = rep.final()
	if e.wire != nil {
		res.Late, res.Unmatched = e.wire.late.Load(), e.wire.unmatched.Load()
	}
	res.FindMax = rep.findMaxResult()
	res.Warnings, res.OtherLoad = rep.warnings, rep.otherLoad
}

// startReporter ticks the reporter every second in its own goroutine: a
// snapshot, the live line, the CSV, warnings and the find-max search. The
// channel gets why the search stops the run; stop ends the reporter.
func startReporter(rep *reporter) (stopSending <-chan string, stop func()) {
	why := make(chan string, 1)
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				if w := rep.tick(); w != "" {
					select {
					case why <- w:
					default:
					}
				}
			}
		}
	}()
	return why, func() { close(quit); <-done }
}

// sender starts the calls when they are due (see send).
type sender struct {
	e                *engine
	ctx              context.Context // the calls'
	pac              *pacer
	started, skipped int64
	end              time.Duration // with -m: when the next call would have been due
	calls            sync.WaitGroup
	ended            chan struct{} // a call ended: -l may let another in
}

// send starts the calls as they fall due until the duration or -m is
// reached, the reporter says stop (find-max) or ctx is done, and returns
// why it stopped.
func (s *sender) send(ctx context.Context, stop <-chan string) string {
	cfg := s.e.cfg
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		el := time.Since(s.e.start)
		if cfg.Duration > 0 && el >= cfg.Duration {
			return fmt.Sprintf("duration %v reached", cfg.Duration)
		}
		blocked := s.startDue(el)
		// Skipped calls count towards -m: they were due, and a generator
		// that fell behind would otherwise never reach the bound.
		if cfg.MaxCalls > 0 && s.started+s.skipped >= cfg.MaxCalls {
			// The sending lasted until the next call would have been due.
			s.end = s.pac.When(s.started + s.skipped)
			if s.skipped > 0 {
				return fmt.Sprintf("%d calls started, %d skipped (-m)", s.started, s.skipped)
			}
			return fmt.Sprintf("%d calls started (-m)", s.started)
		}
		timer.Reset(s.wait(el, blocked))
		select {
		case <-ctx.Done():
			return "interrupted"
		case why := <-stop:
			return why
		case <-s.ended:
		case <-timer.C:
		}
	}
}

// startDue starts the calls due by el, as many as -l lets in, and reports
// whether -l held some back. No more than a second of calls waits: the
// rest is skipped, so a generator that fell behind catches up with the
// rate rather than with every call it missed.
func (s *sender) startDue(el time.Duration) (blocked bool) {
	e, cfg := s.e, s.e.cfg
	s.pac.SetRate(el, e.targetRate(el))
	due := s.pac.Due(el)
	if cfg.MaxCalls > 0 && due > cfg.MaxCalls {
		due = cfg.MaxCalls
	}
	e.dueNow.Store(due)
	for s.started+s.skipped < due {
		if e.st.active.Load() >= int64(cfg.Limit) {
			blocked = true
			e.st.limited.Add(1)
			break
		}
		lag := el - s.pac.When(s.started+s.skipped)
		e.st.lag.Record(max(lag, 0))
		s.start(uint64(s.started))
		s.started++
	}
	if backlog, most := due-s.started-s.skipped, max(int64(cfg.Ramp.PerSecond(s.pac.rate)), 1); backlog > most {
		s.skipped += backlog - most
		e.st.skipped.Store(s.skipped)
	}
	return blocked
}

// start runs call n in a goroutine of its own.
func (s *sender) start(n uint64) {
	s.e.st.callStarted()
	s.calls.Add(1)
	go func() {
		defer s.calls.Done()
		s.e.call(s.ctx, n)
		select {
		case s.ended <- struct{}{}:
		default:
		}
	}()
}

// wait is how long to sleep before looking again: until the next call is
// due, or 5 ms while -l holds calls back (a call that ends wakes the
// sender sooner), and at most 50 ms or until the end of the duration.
func (s *sender) wait(el time.Duration, blocked bool) time.Duration {
	wait := 50 * time.Millisecond
	if !blocked {
		wait = min(wait, s.pac.When(s.started+s.skipped)-el)
	} else {
		wait = 5 * time.Millisecond
	}
	if d := s.e.cfg.Duration; d > 0 {
		wait = min(wait, d-el)
	}
	return max(wait, 0)
}

// drain lets the calls in progress end, within the longest a call can
// take, unless the run was interrupted (they are aborted then). It returns
// what to add to why the run stopped.
func (s *sender) drain(ctx context.Context) string {
	if ctx.Err() != nil {
		return ""
	}
	finished := make(chan struct{})
	go func() { s.calls.Wait(); close(finished) }()
	select {
	case <-finished:
		return ""
	case <-ctx.Done():
		return "; interrupted while the last calls ended"
	case <-time.After(s.e.longestCall()):
		return "; the last calls did not end in time"
	}
}

// longestCall is the longest a call can take: the hold and every message
// timing out, plus a second.
func (e *engine) longestCall() time.Duration {
	steps := 28
	if e.flow != nil {
		steps = len(e.flow.Steps)
	}
	return e.cfg.Hold + time.Duration(steps)*e.cfg.Timeout + time.Second
}

// call runs call number n: it builds the call's messages, exchanges them
// with the service and counts how the call ended.
func (e *engine) call(ctx context.Context, n uint64) {
	st := e.st
	defer st.active.Add(-1)
	b := e.builders.Get()
	cm := e.msgs.Get()
	defer e.builders.Put(b)
	defer e.msgs.Put(cm)
	if err := b.Build(n, cm); err != nil {
		st.failed[Mismatch].Add(1)
		e.noteError(Mismatch, "building the messages: "+err.Error())
		return
	}
	c := callRun{e: e, n: n, b: b, cm: cm}
	var cause Cause
	var held time.Duration
	start := time.Now()
	if e.wire != nil {
		cause, held = c.runWire(ctx)
	} else {
		c.target, c.req = int(n%uint64(len(e.targets))), &pb.TranscodeRequest{Options: e.reqOpts}
		cause, held = c.run(ctx)
	}
	st.callEnded(cause, time.Since(start)-held)
}

// callRun is a call in progress.
type callRun struct {
	e  *engine
	n  uint64
	b  *Builder
	cm *CallMsgs
	// target is the index of the call's target: a call sticks to one
	// instance while it answers, as a sidecar's peer would.
	target int
	req    *pb.TranscodeRequest // reused for each message
}

// run sends the call's messages in order, holding the call after the
// answer (Flow.HoldAfter), until one fails; it returns how the call ended
// and how long it held.
func (c *callRun) run(ctx context.Context) (cause Cause, held time.Duration) {
	e := c.e
	for i := range e.flow.Steps {
		if cause := c.message(ctx, i); cause != OK {
			return cause, held
		}
		if i == e.flow.HoldAfter && e.cfg.Hold > 0 {
			if !hold(ctx, e.cfg.Hold) {
				return Aborted, held
			}
			held = e.cfg.Hold
		}
	}
	return OK, held
}

// hold waits d, or until the run is aborted (false).
func hold(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// message sends message i, checks the answer and counts the message; it
// returns OK or the cause that ends the call.
func (c *callRun) message(ctx context.Context, i int) Cause {
	e, st := c.e, c.e.st
	step := &e.flow.Steps[i]
	c.req.Data, c.req.From, c.req.To = c.cm.In[i], e.enums[step.From], e.enums[1-step.From]
	t0 := time.Now()
	out, cause, err := c.send(ctx)
	lat := time.Since(t0)
	if cause == OK {
		if err = c.b.CheckOutput(i, out, c.cm.Want[i], e.cfg.DecodeOutput); err != nil {
			cause = Mismatch
		}
	}
	if cause == Aborted {
		return Aborted // the run was stopped: not the service's doing
	}
	st.msgs.Add(1)
	if cause == OK || cause == Mismatch || cause == Rejected { // answered: the time counts
		st.rt.Record(lat)
		st.types[e.typeIndex(step.Type)].Record(lat)
	}
	if cause != OK {
		st.msgsFailed.Add(1)
		e.noteError(cause, fmt.Sprintf("call %d, %s (%s -> %s): %v", c.n, step.Name, c.b.Src(i), c.b.Dst(i), err))
	}
	return cause
}

// send transcodes c.req at the call's target. A transcoding has no side
// effect, so with Failover, after a transport failure (the instance
// stopped, drained or is unreachable) it goes to each other target in
// turn, and the call moves there: with several instances, stopping one
// loses no call.
func (c *callRun) send(ctx context.Context) ([]byte, Cause, error) {
	e := c.e
	out, cause, err := e.targets[c.target].transcode(ctx, c.req, e.cfg.Timeout)
	for tries := 1; e.cfg.Failover && cause == Transport && tries < len(e.targets); tries++ {
		c.target = (c.target + 1) % len(e.targets)
		e.st.failovers.Add(1)
		out, cause, err = e.targets[c.target].transcode(ctx, c.req, e.cfg.Timeout)
	}
	return out, cause, err
}

func (e *engine) typeIndex(t string) int {
	for i, n := range e.flow.Types {
		if n == t {
			return i
		}
	}
	return 0
}

const keepErrors = 5

func (e *engine) noteError(c Cause, msg string) {
	e.errMu.Lock()
	defer e.errMu.Unlock()
	if len(e.errors[c]) < keepErrors {
		e.errors[c] = append(e.errors[c], msg)
	}
}

// WriteSummary writes the final report.
func (r *Result) WriteSummary(w io.Writer) {
	c := r.Final
	cfg := r.Config
	if rp := cfg.Replay; rp != nil {
		how := "at the capture's timing"
		if rp.Paced {
			how = fmt.Sprintf("at %g calls per %v", cfg.Ramp.Rate, cfg.Ramp.Period)
		}
		if wc := cfg.Wire; wc != nil {
			acks := 0
			for i := range rp.Msgs {
				if rp.Msgs[i].Ack {
					acks++
				}
			}
			fmt.Fprintf(w, "megaco load: capture replay, %d transactions and %d acknowledgement(s) (one call each: request and reply, or the acknowledgement; %s, %d messages skipped), %s through a proxy; MGC %s (from %s to %s) <-> gateways %s (from %s to %s)\n",
				len(rp.Msgs)-acks, acks, how, len(rp.Skipped), wc.Network, cfg.Codecs.MGC, wc.MGCListen, wc.MGCTarget, cfg.Codecs.MG, wc.MGListen, wc.MGTarget)
		} else {
			fmt.Fprintf(w, "megaco load: capture replay, %d messages (one call each, %s, %d skipped), %s, %d target(s) %s; text -> %s, binary -> %s\n",
				len(rp.Msgs), how, len(rp.Skipped), cfg.Mode, len(cfg.Targets), strings.Join(cfg.Targets, ","), cfg.Codecs.MG, cfg.Codecs.MGC)
		}
	} else if wc := cfg.Wire; wc != nil {
		fmt.Fprintf(w, "megaco load: %s through a proxy; MGC %s (from %s to %s) <-> gateways %s (from %s to %s); %d messages per call\n",
			wc.Network, cfg.Codecs.MGC, wc.MGCListen, wc.MGCTarget, cfg.Codecs.MG, wc.MGListen, wc.MGTarget, len(r.Flow.Steps))
	} else {
		fmt.Fprintf(w, "megaco load: %s, %d target(s) %s; MGC %s <-> gateways %s; %d messages per call\n",
			cfg.Mode, len(cfg.Targets), strings.Join(cfg.Targets, ","), cfg.Codecs.MGC, cfg.Codecs.MG, len(r.Flow.Steps))
	}
	fmt.Fprintf(w, "stopped: %s\n", r.Stopped)
	target := fmt.Sprintf("target %.1f cps at the end", c.Target)
	if cfg.Replay != nil && !cfg.Replay.Paced {
		target = "the capture's timing"
	}
	fmt.Fprintf(w, "elapsed %.2f s (sending %.2f s); %s; achieved %.2f cps (%d of %d calls due started",
		r.Elapsed.Seconds(), r.Sending.Seconds(), target, r.AchievedCPS(), c.Started, c.Due)
	if c.Due > 0 {
		fmt.Fprintf(w, ", %.1f %%", 100*float64(c.Started)/float64(c.Due))
	}
	fmt.Fprintln(w, ")")
	fmt.Fprintf(w, "calls: started %d, successful %d, failed %d (", c.Started, c.OK, c.FailedCalls())
	for i, cause := range FailureCauses {
		if i > 0 {
			fmt.Fprint(w, ", ")
		}
		fmt.Fprintf(w, "%s %d", cause, c.Failed[cause])
	}
	fmt.Fprintf(w, "), aborted %d, skipped %d; failed ratio %.4f (max %.4f)\n", c.Aborted, c.Skipped, r.FailedRatio(), cfg.MaxFailed)
	fmt.Fprintf(w, "concurrent calls: max %d (limit %d)\n", c.ActiveMax, cfg.Limit)
	fmt.Fprintf(w, "messages: %d (%.0f/s), failed %d", c.Msgs, rate(c.Msgs, r.Elapsed), c.MsgsFailed)
	if c.Failovers > 0 {
		fmt.Fprintf(w, ", sent again to another target %d", c.Failovers)
	}
	if cfg.Wire != nil {
		fmt.Fprintf(w, ", retransmitted %d, late %d, unmatched %d", c.Retransmits, r.Late, r.Unmatched)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "response time ms: p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  (mean %s)\n",
		ms(c.RT.Quantile(.5)), ms(c.RT.Quantile(.9)), ms(c.RT.Quantile(.99)), ms(c.RT.Quantile(.999)), ms(time.Duration(c.RT.Max)), ms(c.RT.Mean()))
	fmt.Fprintf(w, "call length ms (without -d): p50 %s  p99 %s  max %s\n", ms(c.CallLen.Quantile(.5)), ms(c.CallLen.Quantile(.99)), ms(time.Duration(c.CallLen.Max)))
	fmt.Fprintf(w, "scheduling lag ms: p50 %s  p99 %s  max %s\n", ms(c.Lag.Quantile(.5)), ms(c.Lag.Quantile(.99)), ms(time.Duration(c.Lag.Max)))
	fmt.Fprintf(w, "%-22s %9s %9s %9s %9s %9s\n", "message type (ms)", "count", "p50", "p90", "p99", "max")
	for i, t := range r.Flow.Types {
		h := c.Types[i]
		fmt.Fprintf(w, "%-22s %9d %9s %9s %9s %9s\n", t, h.Count, ms(h.Quantile(.5)), ms(h.Quantile(.9)), ms(h.Quantile(.99)), ms(time.Duration(h.Max)))
	}
	if r.CPU > 0 {
		fmt.Fprintf(w, "generator CPU: %.2f s (%.2f of its %d cores on average)\n", r.CPU.Seconds(), r.CPU.Seconds()/r.Elapsed.Seconds(), runtime.GOMAXPROCS(0))
	}
	if r.Proc != nil {
		r.Proc.write(w, c.Msgs)
	}
	if r.FindMax != nil {
		r.FindMax.write(w)
	}
	if r.Warnings > 0 {
		fmt.Fprintf(w, "warning: in %d second(s) the generator lacked the CPU to keep the target rate (see the warnings above)\n", r.Warnings)
	}
	if r.OtherLoad > 0 {
		fmt.Fprintf(w, "note: in %d second(s) behind the rate the generator had cores to spare but waited for a CPU: the machine's other load, not the generator, held it back\n", r.OtherLoad)
	}
	causes := make([]Cause, 0, len(r.Errors))
	for c := range r.Errors {
		causes = append(causes, c)
	}
	sort.Slice(causes, func(i, j int) bool { return causes[i] < causes[j] })
	if len(causes) > 0 {
		fmt.Fprintf(w, "errors (the first %d of each cause):\n", keepErrors)
	}
	for _, c := range causes {
		for _, m := range r.Errors[c] {
			fmt.Fprintf(w, "  %s: %s\n", c, m)
		}
	}
}
