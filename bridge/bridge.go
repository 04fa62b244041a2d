// Package bridge connects one Code Mode run to the tool registry: every SDK call the program
// makes becomes a sub-call through the registry's staged pipeline, tagged with the outer call's
// token as its parent and numbered "<outer>:code:<n>" in submission order. The bridge emits a
// code-dispatch-start event when a sub-call starts and a code-dispatch event when it settles,
// and, when the run ends, drains: queued calls are abandoned, in-flight ones are cancelled and
// awaited, so no sub-call outlives its run.
//
// # Bodies that ignore cancellation
//
// Draining waits for an in-flight body only for a grace period (Options.DrainGrace, 1s by
// default). A body still running then — one that ignores its context, blocked in a system call
// or simply buggy — is detached, so that no tool can keep a run alive past its budgets: Close
// emits a settle event for every started call that has not had one (an error saying the call
// was detached), emits nothing after that, and returns. The detached body's goroutine still
// belongs to the Bridge (Wait waits for it): when the body returns, its call goes through the
// rest of the registry pipeline (post-execute and observers see its real outcome, ABORTED
// for a late success since the run's context is cancelled), but its result reaches neither the
// program, nor the outer invocation, nor the events, nor the dispatch-log listeners.
//
// The bridge knows the runtime only through the jsruntime seam (it hands the runtime a
// jsruntime.Namespace) and knows nothing about goja or esbuild.
//
// # Scheduling
//
// Submissions enter a pending queue in program call order. Everything that is ordered is done
// by the holder of the driver role, which at most one goroutine of the Bridge holds at a time: it
// classifies the head of the queue when it can start (registry Classify, so the tool, not the
// program, owns the safety claim), emits its start event and runs its pre-dispatch stages
// (pre-execute, approval, guards), then has its body run; and it commits finished calls
// (post-execute, context forwarding, the program's promise, the settle event) strictly in
// submission order. Hence starts happen in submission order and pre-dispatch stages never
// overlap; only bodies overlap, up to Options.MaxParallel at a time and only when every running
// call is concurrency-safe. An exclusive call starts when the pool has drained and every earlier
// call has committed, and no later call starts until it has committed.
//
// The role is a flag, not a goroutine, so that a sub-call crosses as few goroutines as possible:
// a submission with no driver active starts one; a driver whose started body is the only thing
// that could run (an exclusive call, or nothing else pending) releases the role and runs that
// body itself; a goroutine whose body finished takes the role when it is free, and commits. A
// sequential awaited sub-call thus goes from the runtime's loop to one goroutine and back. A
// runtime whose calling goroutine may block (jsruntime.Function.Inline: a process pool's
// frame reader) saves that hand-off too: a call submitted through the inline form with
// nothing else queued or in flight takes the role on the caller's goroutine, which then starts,
// runs and commits it; that goroutine counts as the Bridge's while it does, so Close awaits or
// detaches its body like any other.
package bridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// Executor runs the stages of tool calls; *registry.Registry implements it.
type Executor interface {
	// Prepare runs a call's pre-dispatch stages.
	Prepare(ctx context.Context, call registry.Call) *registry.Prepared
	// Classify classifies a call as Parallel or Exclusive and returns the call to prepare,
	// which may carry what classifying learned (see registry.Registry.Classify).
	Classify(call registry.Call) (registry.Mode, registry.Call)
}

// The event types.
const (
	EventStart  = "code-dispatch-start"
	EventSettle = "code-dispatch"
)

// DefaultMaxParallel is the number of concurrency-safe sub-calls that may run at once when
// Options.MaxParallel is zero.
const DefaultMaxParallel = 10

// DefaultDrainGrace is how long Close waits for running bodies when Options.DrainGrace is zero:
// long enough for a body that honours cancellation to report it (a command-backed tool kills
// its process group at once), short enough that a run ends promptly after its budget.
const DefaultDrainGrace = time.Second

// ContextSource is the Source of the context message through which an image-bearing sub-call
// result reaches the model.
const ContextSource = "plugin:tools-code-mode"

// Event is one dispatch event: the start (Type EventStart) or the settlement (Type
// EventSettle, with IsError and Content) of one sub-call.
type Event struct {
	Type         string
	RootCallID   string
	ParentCallID string
	SubCallID    string
	Name         string
	Arguments    jsonv.Value
	IsError      bool               // EventSettle only
	Content      []registry.Content // EventSettle only: the sub-call's final model-facing content
}

// Value returns the event as a JSON object with the fields in the documented order.
func (e Event) Value() jsonv.Value {
	ms := []jsonv.Member{
		{Key: "type", Value: jsonv.StringValue(e.Type)},
		{Key: "rootCallId", Value: jsonv.StringValue(e.RootCallID)},
		{Key: "parentCallId", Value: jsonv.StringValue(e.ParentCallID)},
		{Key: "subCallId", Value: jsonv.StringValue(e.SubCallID)},
		{Key: "name", Value: jsonv.StringValue(e.Name)},
		{Key: "arguments", Value: e.Arguments},
	}
	if e.Type == EventSettle {
		ms = append(ms,
			jsonv.Member{Key: "isError", Value: jsonv.BoolValue(e.IsError)},
			jsonv.Member{Key: "content", Value: registry.ContentValue(e.Content)})
	}
	return jsonv.ObjectValue(ms...)
}

// LogEntry is what a dispatch-log listener sees of one settled sub-call.
type LogEntry struct {
	// CallID and RootCallID identify the outer call.
	CallID     string
	RootCallID string
	// SubCallID, Name and Arguments identify the sub-call.
	SubCallID string
	Name      string
	Arguments jsonv.Value
	// IsError and Content are the sub-call's final outcome as the settle event carries it.
	IsError bool
	Content []registry.Content
}

// LogFunc is one listener of the dispatch-log waterfall, which shapes the content the settle
// event of a sub-call carries (and nothing else: the program already has its value). next
// returns the content as the rest of the waterfall leaves it; a listener returns next() to pass,
// or replacement content. A nil return counts as next(). A panicking listener is contained: the
// event carries the original content and the bridge logs a warning.
//
// ctx is the outer call's context.
type LogFunc func(ctx context.Context, entry LogEntry, next func() []registry.Content) []registry.Content

// Options configure one Bridge.
type Options struct {
	// Executor runs the sub-calls (required).
	Executor Executor
	// CallID and RootCallID identify the outer call; Token is its execution token, passed as
	// every sub-call's Parent.
	CallID     string
	RootCallID string
	Token      registry.Token
	// Scope is the outer call's scope (its agent); sub-calls run in it.
	Scope *registry.Scope
	// Tools are the names bound into the program's tools namespace, in order.
	Tools []string
	// Events, if set, receives every dispatch event. Calls never overlap. Start events arrive
	// in submission order, settle events in commit (which is submission) order, each after its
	// call's start. Events must not block for long: it delays later sub-calls.
	Events func(Event)
	// MaxParallel is how many concurrency-safe sub-calls may run their bodies at once. Zero
	// means DefaultMaxParallel; 1 makes the run fully serial; negative is invalid.
	MaxParallel int
	// Outer is the outer call's invocation, through which sub-call results reach the model:
	// image-bearing successes and nested additional contexts are deferred on it, and a
	// successful sub-call that concludes the turn concludes it. Nil forwards nothing.
	Outer *registry.Invocation
	// LogListeners are the dispatch-log waterfall, first listener outermost. It runs after the
	// program's promise has settled, never delaying the program.
	LogListeners []LogFunc
	// Logger receives the warnings of failing log listeners and of detached bodies; nil means
	// slog.Default().
	Logger *slog.Logger
	// DrainGrace is how long Close waits, after cancelling them, for the sub-calls still in
	// flight (their bodies and the pipeline stages around them) before it detaches them (see
	// the package documentation). Zero means DefaultDrainGrace; negative means waiting for
	// them without limit.
	DrainGrace time.Duration
}

// Bridge is the dispatch bridge of one run. Create it with New, hand Namespace to the runtime,
// and call Close when the run has ended.
type Bridge struct {
	opts     Options
	outer    context.Context // the outer call's context
	ctx      context.Context // the run's context: cancelled when the run is over
	cancel   context.CancelCauseFunc
	idPrefix string // "<CallID>:code:"

	mu              sync.Mutex
	pending         []*entry // submitted, not started, in submission order
	commits         []*entry // started, not committed, in submission order
	running         int      // bodies in flight
	finished        int      // bodies finished so far
	exclusiveActive bool     // an exclusive call has started and not committed
	driving         bool     // a goroutine holds the driver role
	closing         bool
	counter         int

	// live counts every goroutine the Bridge starts, workers and log tasks, and the callers
	// of inline bindings while they drive (guarded by mu); gone is closed when it drops to
	// zero once Close has been called.
	live       int
	gone       chan struct{}
	goneClosed bool
	detached   atomic.Bool // Close stopped waiting for the calls in flight

	emitMu     sync.Mutex      // serializes Events
	open       []Event         // start events without their settle event yet, in order (emitMu)
	eventsOver bool            // Close detached the calls in flight: emit nothing more (emitMu)
	lastLog    chan struct{}   // closed when the latest log task has emitted (driver-owned)
	logs       []chan struct{} // log tasks that may still be pending, oldest first (driver-owned)
	jobs       chan *entry     // unbuffered: hands a job to a parked worker
	quit       chan struct{}   // closed by Close: parked workers exit
}

// entry is one submitted sub-call.
type entry struct {
	call      registry.Call
	settle    func(jsonv.Value, error)
	exclusive bool
	prep      *registry.Prepared
	settled   bool // guarded by Bridge.mu: prep has its result
	// stalled (guarded by Bridge.mu) marks a head classified exclusive while earlier calls had
	// not committed, when Bridge.finished was stalledAt: it is not classified again until a
	// body finishes or every earlier call has committed.
	stalled   bool
	stalledAt int
}

// ErrRunSettled is the cancellation cause of a run that ended by itself; its text appears in
// "run_code run is over (run_code settled); …" rejections.
var ErrRunSettled = errors.New("run_code settled")

// New starts the bridge of one run. ctx is the outer call's context: cancelling it cancels
// every in-flight sub-call with the same cause. New fails only for invalid options.
func New(ctx context.Context, opts Options) (*Bridge, error) {
	switch {
	case opts.Executor == nil:
		return nil, errors.New("bridge: Options.Executor is required")
	case opts.MaxParallel < 0:
		return nil, fmt.Errorf("bridge: Options.MaxParallel must be positive, got %d", opts.MaxParallel)
	case opts.MaxParallel == 0:
		opts.MaxParallel = DefaultMaxParallel
	}
	if opts.RootCallID == "" {
		opts.RootCallID = opts.CallID
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	if opts.DrainGrace == 0 {
		opts.DrainGrace = DefaultDrainGrace
	}
	return &Bridge{opts: opts, outer: ctx, ctx: runCtx, cancel: cancel, idPrefix: opts.CallID + ":code:",
		jobs: make(chan *entry), quit: make(chan struct{}), gone: make(chan struct{})}, nil
}

// Namespace returns the tools namespace for the runtime: one function per bound tool, and the
// ToolCallError class with its toolName member.
func (b *Bridge) Namespace() jsruntime.Namespace {
	fns := make([]jsruntime.Function, len(b.opts.Tools))
	for i, name := range b.opts.Tools {
		fns[i] = jsruntime.Function{Name: name, Call: b.binding(name, false), Inline: b.binding(name, true)}
	}
	return jsruntime.Namespace{
		Global:     "tools",
		Functions:  fns,
		ErrorClass: &jsruntime.ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"},
	}
}

// binding returns the host function of the tool name. The inline form (jsruntime's
// Function.Inline: the caller's goroutine may block) takes the driver role itself when nothing
// else is queued or in flight, and so starts, runs and commits the call on the caller's
// goroutine; that goroutine counts as one of the Bridge's own (live) meanwhile, so Close
// awaits or detaches it like any body. With other calls queued or in flight it does what the
// plain form does, so that the caller can go on submitting calls that overlap.
func (b *Bridge) binding(name string, inline bool) jsruntime.HostFunc {
	return func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
		if b.submit(name, args, settle, inline) {
			defer b.exited()
			b.do(nil)
		}
	}
}

// submit queues a call of the tool name, or settles it at once when it cannot be made. It
// reports whether the caller (an inline one) took the driver role and must drive.
func (b *Bridge) submit(name string, args jsonv.Value, settle func(jsonv.Value, error), inline bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closing || b.ctx.Err() != nil {
		settle(jsonv.Value{}, b.overError("%s not dispatched", name))
		return false
	}
	if !args.IsDefined() {
		settle(jsonv.Value{}, errors.New("tool arguments must be lossless JSON (call the tool with an arguments object, e.g. `{}`)"))
		return false
	}
	b.counter++
	var id [64]byte // the id is built on the stack: one allocation, the string
	b.pending = append(b.pending, &entry{
		call: registry.Call{
			CallID:     string(strconv.AppendInt(append(id[:0], b.idPrefix...), int64(b.counter), 10)),
			RootCallID: b.opts.RootCallID,
			Name:       name,
			Arguments:  args,
			Scope:      b.opts.Scope,
			Parent:     b.opts.Token,
		},
		settle: settle,
	})
	if inline && !b.driving && len(b.commits) == 0 && len(b.pending) == 1 && b.canProgress() {
		b.driving = true
		b.live++
		return true
	}
	b.kick()
	return false
}

// kick starts a driver when none is active and there is something to drive. Callers hold mu.
func (b *Bridge) kick() {
	if !b.driving && b.canProgress() {
		b.driving = true
		b.hand(nil)
	}
}

// hand gives job (see work) to a parked worker, or to a new one when none is parked. Workers
// park rather than exit, so that each sub-call does not pay for a fresh goroutine growing its
// stack again (validating arguments alone needs more than a new goroutine has).
func (b *Bridge) hand(job *entry) {
	select {
	case b.jobs <- job:
	default:
		b.live++
		go b.work(job)
	}
}

// exited records that a goroutine the Bridge started has ended.
func (b *Bridge) exited() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.live--
	b.checkGone()
}

// checkGone closes gone when Close has been called and no goroutine of the Bridge is left.
// Callers hold mu. Once Close has been called only a live goroutine (or Close itself, before
// it checks) starts another, so zero stays zero.
func (b *Bridge) checkGone() {
	if b.closing && b.live == 0 && !b.goneClosed {
		b.goneClosed = true
		close(b.gone)
	}
}

// canProgress reports whether a driver would find something to do: a settled call to commit,
// or a pending head to abandon or to start. Callers hold mu.
func (b *Bridge) canProgress() bool {
	if len(b.commits) > 0 && b.commits[0].settled {
		return true
	}
	return len(b.pending) > 0 && (b.ctx.Err() != nil || !b.headBlocked())
}

// headBlocked reports whether the pending head cannot start before something changes: an
// exclusive call is active, the pool is full, or the head is stalled (see entry.stalled).
// Classifying a head that cannot start would be wasted work (it validates the arguments).
// Callers hold mu.
func (b *Bridge) headBlocked() bool {
	e := b.pending[0]
	return b.exclusiveActive || b.running >= b.opts.MaxParallel ||
		(e.stalled && e.stalledAt == b.finished && len(b.commits) > 0)
}

// popFront removes the first entry of *q; an emptied queue keeps its backing array, so a
// sequence of one-at-a-time calls does not allocate a new one per call.
func popFront(q *[]*entry) *entry {
	e := (*q)[0]
	(*q)[0] = nil
	if len(*q) == 1 {
		*q = (*q)[:0]
	} else {
		*q = (*q)[1:]
	}
	return e
}

// overError is the rejection of a call made, queued or finished after the run was over.
func (b *Bridge) overError(format string, args ...any) error {
	reason := ErrRunSettled.Error()
	if cause := context.Cause(b.ctx); cause != nil {
		reason = cause.Error()
	}
	return fmt.Errorf("run_code run is over (%s); "+format, append([]any{reason}, args...)...)
}

// work is a worker: it does job, then parks until it is handed another one or Close.
func (b *Bridge) work(job *entry) {
	defer b.exited()
	for {
		b.do(job)
		select {
		case job = <-b.jobs:
		case <-b.quit:
			return
		}
	}
}

// do does one job. Given an entry, it runs that entry's body, then takes the driver role if it
// is free and there is something to do; given nil, the caller of hand gave it the role. It
// drives until the role is released, running the bodies the driver gives back to it.
func (b *Bridge) do(e *entry) {
	for {
		if e != nil {
			e.prep.Dispatch()
			if !b.bodyDone(e) {
				return
			}
		}
		if e = b.drive(); e == nil {
			return
		}
	}
}

// bodyDone records that e's body has finished and reports whether the caller took the driver
// role to commit it (or to do whatever else became possible).
func (b *Bridge) bodyDone(e *entry) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	e.settled = true
	b.running--
	b.finished++
	if b.driving || !b.canProgress() {
		return false // the active driver re-inspects before it releases the role
	}
	b.driving = true
	return true
}

// drive runs the driver role, which the caller holds: it commits settled calls and starts
// pending ones, in submission order, until nothing is left to do, and releases the role. When
// a body it starts is the only thing that could run, it releases the role at once and returns
// that entry for the caller to run: no goroutine is started for it, and no other has to be woken
// to commit it. Otherwise it returns nil.
func (b *Bridge) drive() *entry {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		if len(b.commits) > 0 && b.commits[0].settled {
			e := popFront(&b.commits)
			if e.exclusive {
				b.exclusiveActive = false
			}
			b.mu.Unlock()
			b.commit(e)
			b.mu.Lock()
			continue
		}
		if len(b.pending) == 0 {
			break
		}
		// Only the driver removes from pending, adds to commits and raises running or
		// exclusiveActive, so while it is unlocked the head stays put and capacity only grows.
		e := b.pending[0]
		if b.ctx.Err() != nil {
			popFront(&b.pending)
			b.mu.Unlock()
			e.settle(jsonv.Value{}, b.overError("%s tool call abandoned", e.call.Name))
			b.mu.Lock()
			continue
		}
		if b.headBlocked() {
			break
		}
		finished := b.finished
		b.mu.Unlock()
		mode, call := b.opts.Executor.Classify(e.call)
		b.mu.Lock()
		exclusive := mode != registry.Parallel
		if exclusive && len(b.commits) > 0 {
			// An exclusive call waits for every earlier call to commit, not only for the pool
			// to drain.
			e.stalled, e.stalledAt = true, finished
			continue
		}
		e.call, e.exclusive, e.stalled = call, exclusive, false
		b.exclusiveActive = exclusive
		popFront(&b.pending)
		b.commits = append(b.commits, e)
		b.mu.Unlock()
		b.start(e)
		b.mu.Lock()
		if !e.prep.NeedsDispatch() {
			e.settled = true
			continue
		}
		b.running++
		if !b.canProgress() {
			b.driving = false
			return e
		}
		b.hand(e)
	}
	b.driving = false
	return nil
}

// start runs e's start stage in the driver: the start event and the pre-dispatch stages.
func (b *Bridge) start(e *entry) {
	c := e.call
	b.emit(Event{Type: EventStart, RootCallID: c.RootCallID, ParentCallID: b.opts.CallID, SubCallID: c.CallID, Name: c.Name, Arguments: c.Arguments})
	e.prep = b.opts.Executor.Prepare(b.ctx, c)
}

// commit runs e's commit stage in the driver: post-execute, forwarding through the outer
// invocation, the program's promise, and the settle event's log task.
func (b *Bridge) commit(e *entry) {
	res := e.prep.Finish()
	b.forward(res)
	switch {
	case b.ctx.Err() != nil:
		e.settle(jsonv.Value{}, b.overError("%s result discarded", e.call.Name))
	case res.IsError:
		msg := registry.TextOf(res.Content)
		if res.Err != nil {
			msg = res.Err.Message
		}
		e.settle(jsonv.Value{}, errors.New(msg))
	default:
		e.settle(res.Value, nil)
	}
	b.log(e, res)
}

// forward carries what the model should see of res through the outer invocation, unless the
// call was detached: the outer call has returned by then.
func (b *Bridge) forward(res registry.Result) {
	outer := b.opts.Outer
	if outer == nil || b.detached.Load() {
		return
	}
	if !res.IsError && hasImage(res.Content) {
		outer.DeferContext(registry.ContextMessage{Source: ContextSource, Content: res.Content})
	}
	for _, m := range res.AdditionalContexts {
		outer.DeferContext(m)
	}
	if !res.IsError && res.ConcludesTurn {
		outer.ConcludeTurn()
	}
}

func hasImage(blocks []registry.Content) bool {
	for _, c := range blocks {
		if c.Type == "image" {
			return true
		}
	}
	return false
}

// log emits e's settle event. Without listeners it emits at once, in the driver; otherwise it
// starts a log task that runs the waterfall and emits after every earlier task has emitted,
// and then, while more than MaxParallel tasks are pending, waits for the oldest.
func (b *Bridge) log(e *entry, res registry.Result) {
	if b.detached.Load() {
		return // Close has emitted its settle event
	}
	if len(b.opts.LogListeners) == 0 {
		if b.opts.Events != nil {
			b.emit(settleEvent(b.opts.CallID, e.call, res))
		}
		return
	}
	b.logTask(e.call, res)
}

func settleEvent(parent string, c registry.Call, res registry.Result) Event {
	return Event{Type: EventSettle, RootCallID: c.RootCallID, ParentCallID: parent, SubCallID: c.CallID, Name: c.Name, Arguments: c.Arguments, IsError: res.IsError, Content: res.Content}
}

// logTask is log with listeners; apart so that the event escapes to the heap only here.
func (b *Bridge) logTask(c registry.Call, res registry.Result) {
	ev := settleEvent(b.opts.CallID, c, res)
	prev, done := b.lastLog, make(chan struct{})
	b.lastLog = done
	b.mu.Lock()
	b.live++
	b.mu.Unlock()
	go func() {
		defer b.exited()
		defer close(done)
		ev.Content = b.waterfall(LogEntry{
			CallID: b.opts.CallID, RootCallID: c.RootCallID, SubCallID: c.CallID, Name: c.Name,
			Arguments: c.Arguments, IsError: res.IsError, Content: append([]registry.Content(nil), res.Content...),
		})
		if prev != nil {
			<-prev
		}
		b.emit(ev)
	}()
	b.logs = append(b.logs, done)
	for len(b.logs) > 0 && isClosed(b.logs[0]) {
		b.logs = b.logs[1:]
	}
	for len(b.logs) > b.opts.MaxParallel {
		<-b.logs[0]
		b.logs = b.logs[1:]
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// waterfall runs the log listeners over entry and returns the content to log: the original
// content when a listener panics.
func (b *Bridge) waterfall(entry LogEntry) (content []registry.Content) {
	defer func() {
		if x := recover(); x != nil {
			b.opts.Logger.Warn(fmt.Sprintf("code-dispatch-log listener failed for %s: %v; logging the original settled content", entry.Name, x))
			content = entry.Content
		}
	}()
	ls := b.opts.LogListeners
	var next func(i int) []registry.Content
	next = func(i int) []registry.Content {
		if i == len(ls) {
			return append([]registry.Content(nil), entry.Content...)
		}
		var memo []registry.Content
		called := false
		rest := func() []registry.Content {
			if !called {
				memo, called = next(i+1), true
			}
			return append([]registry.Content(nil), memo...)
		}
		if out := ls[i](b.outer, entry, rest); out != nil {
			return out
		}
		return rest()
	}
	return next(0)
}

func (b *Bridge) emit(e Event) {
	if b.opts.Events == nil {
		return
	}
	b.emitMu.Lock()
	defer b.emitMu.Unlock()
	if b.eventsOver {
		return
	}
	// Settle events come in start order, so the settled call is the oldest open one.
	if e.Type == EventStart {
		b.open = append(b.open, e)
	} else if len(b.open) > 0 {
		b.open[0] = Event{}
		if len(b.open) == 1 {
			b.open = b.open[:0] // keep the backing array: sequential calls do not allocate
		} else {
			b.open = b.open[1:]
		}
	}
	b.opts.Events(e)
}

// Close ends the run: later calls are rejected as not dispatched, queued ones are abandoned,
// in-flight ones are cancelled (cause ErrRunSettled, or the outer cause when the outer context
// was cancelled first), awaited and committed in order, and every settle event has been
// emitted when Close returns. Close waits for the calls in flight at most Options.DrainGrace:
// it then detaches those still running (see the package documentation), emits the settle
// events they lack, and returns. Close is idempotent.
func (b *Bridge) Close() {
	b.cancel(ErrRunSettled)
	b.mu.Lock()
	if !b.closing {
		b.closing = true
		close(b.quit)
	}
	b.kick() // abandons what is queued; in-flight bodies commit as they finish
	b.checkGone()
	b.mu.Unlock()
	if b.detached.Load() {
		return
	}
	if b.opts.DrainGrace < 0 {
		<-b.gone
		return
	}
	grace := time.NewTimer(b.opts.DrainGrace)
	defer grace.Stop()
	select {
	case <-b.gone:
	case <-grace.C:
		b.detach()
	}
}

// detach gives up waiting for the calls still in flight when Close's grace period is over:
// it emits a settle event for each started call that has none yet, in order, and stops the
// events.
func (b *Bridge) detach() {
	if b.detached.Swap(true) {
		return
	}
	b.mu.Lock()
	running := b.running
	b.mu.Unlock()
	reason := ErrRunSettled.Error()
	if cause := context.Cause(b.ctx); cause != nil {
		reason = cause.Error()
	}
	b.emitMu.Lock()
	open := b.open
	b.open, b.eventsOver = nil, true
	for _, ev := range open {
		msg := fmt.Sprintf("run_code run is over (%s); %s did not stop within %v of the end of the run and was detached: its result will be discarded", reason, ev.Name, b.opts.DrainGrace)
		b.opts.Events(Event{Type: EventSettle, RootCallID: ev.RootCallID, ParentCallID: ev.ParentCallID, SubCallID: ev.SubCallID, Name: ev.Name, Arguments: ev.Arguments,
			IsError: true, Content: []registry.Content{registry.TextContent(msg)}})
	}
	b.emitMu.Unlock()
	b.opts.Logger.Warn(fmt.Sprintf("run_code %s: sub-calls still in flight (%d bodies running) did not stop within %v of the end of the run; detached: their goroutines end when they return", b.opts.CallID, running, b.opts.DrainGrace))
}

// Wait blocks until every goroutine the Bridge started has ended, including the bodies Close
// detached, and returns at once when there are none. It returns only after Close has been
// called. Tests and owners that must account for every goroutine use it.
func (b *Bridge) Wait() { <-b.gone }
