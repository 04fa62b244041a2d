// Package dispatch is the dispatch bridge of one Code Mode run, behind package bridge's events
// and Executor seam. It connects the run to the tool registry: every SDK call the program
// makes becomes a sub-call through the registry's staged pipeline, tagged with the outer call's
// token as its parent and numbered "<outer>:code:<n>" in submission order. The bridge emits a
// code-dispatch-start event when a sub-call starts and a code-dispatch event when it settles,
// and, when the run ends, drains: queued calls are abandoned, in-flight ones are cancelled and
// awaited, so no sub-call outlives its run.
//
//	b, err := dispatch.New(ctx, dispatch.Options{Executor: reg, CallID: "call-7", Tools: []string{"echo"}})
//	res, err := rt.Run(ctx, jsruntime.Request{Program: src, Bindings: []jsruntime.Namespace{b.Namespace()}})
//	b.Close()
//
// codemode builds one [Bridge] per run; hosts see only package bridge: the events
// ([bridge.Event]) and the [bridge.Executor] seam.
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
// runtime whose calling goroutine may block (jsruntime.Namespace.InlineDispatch: a process
// pool's frame reader) saves that hand-off too: a call submitted through the inline form with
// nothing else queued or in flight takes the role on the caller's goroutine, which then starts,
// runs and commits it; that goroutine counts as the Bridge's while it does, so Close awaits or
// detaches its body like any other.
package dispatch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/internal/membudget"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
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

// Options configure one Bridge.
type Options struct {
	// Executor runs the sub-calls (required).
	Executor bridge.Executor
	// CallID and RootCallID identify the outer call; Token is its execution token, passed as
	// every sub-call's Parent.
	CallID     string
	RootCallID string
	Token      registry.Token
	// Scope is the outer call's scope (its agent); sub-calls run in it.
	Scope *registry.Scope
	// Tools are the names bound into the program's tools namespace, in order.
	Tools []string
	// Members, if set, is Tools prepared for the runtime (ToolMembers(Tools)), which a caller
	// that binds the same tools in many runs builds once: then a run's bindings cost the same
	// whatever the number of tools. Nil prepares Tools for this run. New refuses Members of
	// another length than Tools.
	Members *jsruntime.Members
	// Namespaces, when set, holds the registry namespace of each of Tools ("" for a top-level
	// tool): a tool in namespace "memory" is bound as tools.memory.<member>
	// (registry.Schema.Member), and its calls still name it by its registry name.
	Namespaces []string
	// Events, if set, receives every dispatch event. Calls never overlap. Start events arrive
	// in submission order, settle events in commit (which is submission) order, each after its
	// call's start. Events must not block for long: it delays later sub-calls.
	Events func(bridge.Event)
	// MaxParallel is how many concurrency-safe sub-calls may run their bodies at once. Zero
	// means DefaultMaxParallel; 1 makes the run fully serial; negative is invalid.
	MaxParallel int
	// Outer is the outer call's invocation, through which sub-call results reach the model:
	// image-bearing successes and nested additional contexts are deferred on it, and a
	// successful sub-call that concludes the turn concludes it. Nil forwards nothing.
	Outer *registry.Invocation
	// LogListeners are the dispatch-log waterfall, first listener outermost. It runs after the
	// program's promise has settled, never delaying the program.
	LogListeners []bridge.LogFunc
	// Logger receives the warnings of failing log listeners and of detached bodies; nil means
	// slog.Default().
	Logger *slog.Logger
	// DrainGrace is how long Close waits, after cancelling them, for the sub-calls still in
	// flight (their bodies and the pipeline stages around them) before it detaches them (see
	// the package documentation). Zero means DefaultDrainGrace; negative means waiting for
	// them without limit.
	DrainGrace time.Duration
	// Memory, if set, is the run's memory budget for sub-call data: each started sub-call
	// gets an account of it, carried by the context its pipeline and body run with (see
	// membudget.Reserve), and closed once the call has committed (its result handed to the
	// runtime, or its failure). Calls commit in submission order, so an account is the oldest
	// open one while its call is the next to commit. Nil budgets nothing.
	Memory *membudget.Budget
	// Tracer, if set, opens a span per sub-call, a child of the span in the context New is
	// given (see docs/tracing.md). Nil traces nothing.
	Tracer trace.Tracer
}

// Bridge is the dispatch bridge of one run. Create it with New, hand Namespace to the runtime,
// and call Close when the run has ended.
type Bridge struct {
	opts     Options
	timed    bool            // events or spans are wanted: take the times they carry
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

	// unseen are the failures of calls whose outcome the program never saw (guarded by mu).
	unseen []Unseen

	emitMu     sync.Mutex      // serializes Events
	open       []bridge.Event  // start events without their settle event yet, in order (emitMu)
	eventsOver bool            // Close detached the calls in flight: emit nothing more (emitMu)
	lastLog    chan struct{}   // closed when the latest log task has emitted (driver-owned)
	logs       []chan struct{} // log tasks that may still be pending, oldest first (driver-owned)
	jobs       chan *entry     // unbuffered: hands a job to a parked worker
	quit       chan struct{}   // closed by Close: parked workers exit
}

// entry is one submitted sub-call.
type entry struct {
	call      registry.Call
	namespace string // the tool's registry namespace (Options.Namespaces), for the events
	settle    func(jsonv.Value, error)
	// run is the context the runtime passed with the call: done once the run has ended, when
	// the program can no longer see the call's outcome.
	run       context.Context
	seq       int // submission order, from 1
	exclusive bool
	prep      *registry.Prepared
	account   *membudget.Account // of Options.Memory, from start to commit (nil without one)
	settled   bool               // guarded by Bridge.mu: prep has its result
	// stalled (guarded by Bridge.mu) marks a head classified exclusive while earlier calls had
	// not committed, when Bridge.finished was stalledAt: it is not classified again until a
	// body finishes or every earlier call has committed.
	stalled   bool
	stalledAt int
	// The call's times (see [bridge.Event]), taken only when Options.Events or Options.Tracer is set:
	// submitted by the binding, started by the driver, ready once its body (or its
	// pre-dispatch stages, when they settled it) finished.
	submitted, started, ready time.Time
	span                      trace.Span // of the sub-call, from its start to its commit (nil without Options.Tracer)
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
		return nil, fmt.Errorf("bridge: Options.MaxParallel must be positive, or 0 for DefaultMaxParallel; got %d", opts.MaxParallel)
	case opts.MaxParallel == 0:
		opts.MaxParallel = DefaultMaxParallel
	}
	if opts.Members != nil && opts.Members.Len() != len(opts.Tools) {
		return nil, fmt.Errorf("bridge: Options.Members has %d members for %d Options.Tools", opts.Members.Len(), len(opts.Tools))
	}
	if opts.RootCallID == "" {
		opts.RootCallID = opts.CallID
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	runCtx, cancel := context.WithCancelCause(quietSpan(ctx, opts.Tracer))
	if opts.DrainGrace == 0 {
		opts.DrainGrace = DefaultDrainGrace
	}
	return &Bridge{opts: opts, timed: opts.Events != nil || opts.Tracer != nil, outer: ctx, ctx: runCtx, cancel: cancel, idPrefix: opts.CallID + ":code:",
		jobs: make(chan *entry), quit: make(chan struct{}), gone: make(chan struct{})}, nil
}

// ToolMembers prepares tools (registry names, in order) as the members of the tools namespace
// (see Options.Members). namespaces, when not nil, holds each tool's registry namespace as
// Options.Namespaces does: a namespaced tool becomes a member of its group. It fails when a name
// is listed twice.
func ToolMembers(tools, namespaces []string) (*jsruntime.Members, error) {
	ms := make([]jsruntime.Member, len(tools))
	for i, name := range tools {
		ms[i] = toolMember(i, name, namespaces)
	}
	return jsruntime.NewMembers(ms)
}

// toolMember is where tool i, registered as name, sits in the tools namespace: its group (its
// registry namespace, from namespaces when not nil) and its name there.
func toolMember(i int, name string, namespaces []string) jsruntime.Member {
	if i < len(namespaces) && namespaces[i] != "" {
		s := registry.Schema{Name: name, Namespace: namespaces[i]}
		return jsruntime.Member{Name: s.Member(), Group: s.Namespace}
	}
	return jsruntime.Member{Name: name}
}

// Namespace returns the tools namespace for the runtime: one function per bound tool, the
// ToolCallError class with its toolName member, and "tool" as what a member is called (a call
// of a missing one fails with "tools.x is not a tool (did you mean y?)"). With Options.Members
// it costs the same whatever the number of tools.
//
// Its inline form (jsruntime.Namespace.InlineDispatch: the caller's goroutine may block) takes
// the driver role itself when nothing else is queued or in flight, and so starts, runs and
// commits the call on the caller's goroutine; that goroutine counts as one of the Bridge's own
// (live) meanwhile, so Close awaits or detaches it like any body. With other calls queued or in
// flight it does what the plain form does, so that the caller can go on submitting calls that
// overlap.
func (b *Bridge) Namespace() jsruntime.Namespace {
	ns := jsruntime.Namespace{Global: "tools", ErrorClass: &jsruntime.ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"}, MemberNoun: "tool"}
	if b.opts.Members != nil {
		ns.Members, ns.Dispatch, ns.InlineDispatch = b.opts.Members, b.dispatch, b.dispatchInline
		return ns
	}
	ns.Functions = make([]jsruntime.Function, len(b.opts.Tools))
	for i, name := range b.opts.Tools {
		m := toolMember(i, name, b.opts.Namespaces)
		ns.Functions[i] = jsruntime.Function{
			Name:  m.Name,
			Group: m.Group,
			Call: func(run context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
				b.dispatch(run, i, args, settle)
			},
			Inline: func(run context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
				b.dispatchInline(run, i, args, settle)
			},
		}
	}
	return ns
}

// namespaceOf is the registry namespace of tool i of Options.Tools ("" without Namespaces).
func (b *Bridge) namespaceOf(i int) string {
	if i < len(b.opts.Namespaces) {
		return b.opts.Namespaces[i]
	}
	return ""
}

// dispatch submits a call of tool i of Options.Tools.
func (b *Bridge) dispatch(run context.Context, i int, args jsonv.Value, settle func(jsonv.Value, error)) {
	b.submit(run, b.opts.Tools[i], b.namespaceOf(i), args, settle, false)
}

// dispatchInline submits a call of tool i of Options.Tools and, when nothing else is queued or
// in flight, drives it on the calling goroutine (see Namespace).
func (b *Bridge) dispatchInline(run context.Context, i int, args jsonv.Value, settle func(jsonv.Value, error)) {
	if b.submit(run, b.opts.Tools[i], b.namespaceOf(i), args, settle, true) {
		defer b.exited()
		b.do(nil)
	}
}

// NamespaceOf returns a namespace bound as global whose member members[i] calls the registry
// tool names[i] as a sub-call of this run, exactly as the tools namespace's members do (same
// ids, order, events and draining). codemode binds saved programs this way (the programs
// global). Its rejections are ToolCallErrors (the class the tools namespace declares, shared),
// and what a member is called in the failure of a missing one is noun.
func (b *Bridge) NamespaceOf(global, noun string, names, members []string) jsruntime.Namespace {
	ns := jsruntime.Namespace{Global: global, ErrorClass: &jsruntime.ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"}, MemberNoun: noun}
	ns.Functions = make([]jsruntime.Function, len(names))
	for i, name := range names {
		ns.Functions[i] = jsruntime.Function{
			Name: members[i],
			Call: func(run context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
				b.submit(run, name, "", args, settle, false)
			},
		}
	}
	return ns
}

// submit queues a call of the tool registered as name (in namespace, for the events), or
// settles it at once when it cannot be made. It reports whether the caller (an inline one) took
// the driver role and must drive.
func (b *Bridge) submit(run context.Context, name, namespace string, args jsonv.Value, settle func(jsonv.Value, error), inline bool) bool {
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
		namespace: namespace,
		settle:    settle,
		run:       run,
		seq:       b.counter,
		submitted: b.now(),
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
	e.ready = b.now()
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
			err := b.overError("%s tool call abandoned", e.call.Name)
			b.noteUnseen(e, "", false)
			b.mu.Unlock()
			b.traceAbandoned(e, err)
			e.settle(jsonv.Value{}, err)
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
			e.ready = b.now()
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
	e.started = b.now()
	if b.opts.Events != nil {
		b.emit(bridge.Event{Type: bridge.EventStart, RootCallID: c.RootCallID, ParentCallID: b.opts.CallID, SubCallID: c.CallID, Name: c.Name, Namespace: e.namespace, Arguments: c.Arguments,
			Time: e.started, Started: e.started, Queued: e.started.Sub(e.submitted)})
	}
	ctx := b.ctx
	if b.opts.Memory != nil {
		e.account = b.opts.Memory.Open()
		ctx = membudget.NewContext(ctx, e.account)
	}
	ctx = b.traceStart(ctx, e)
	e.prep = b.opts.Executor.Prepare(ctx, c)
}

// commit runs e's commit stage in the driver: post-execute, forwarding through the outer
// invocation, the program's promise, and the settle event's log task. The call's memory
// account is closed once the runtime has taken the result (settle returned).
func (b *Bridge) commit(e *entry) {
	defer e.account.Close()
	res := e.prep.Finish()
	traceCommit(e, res)
	b.forward(res)
	// Whether the program can still see the outcome is decided before settling: once settled,
	// the program may react and return, ending the run, which does not make the outcome unseen.
	unseen := res.IsError && e.run != nil && e.run.Err() != nil
	switch {
	case b.ctx.Err() != nil:
		e.settle(jsonv.Value{}, b.overError("%s result discarded", e.call.Name))
	case res.IsError:
		e.settle(jsonv.Value{}, failureError(res))
	default:
		e.settle(res.Value, nil)
	}
	settled := b.now()
	if unseen {
		b.mu.Lock()
		b.noteUnseen(e, failureMessage(res), true)
		b.mu.Unlock()
	}
	b.log(e, res, settled)
}

// failureError is the error a failed call's promise rejects with: its message, and its
// registry code (ToolCallError.code) when it has one.
func failureError(res registry.Result) error {
	if res.Err != nil && res.Err.Code != "" {
		return &jsruntime.CodedError{Code: string(res.Err.Code), Message: failureMessage(res)}
	}
	return errors.New(failureMessage(res))
}

// failureMessage is the message of a failed call's result, as the program's rejection has it.
func failureMessage(res registry.Result) string {
	if res.Err != nil {
		return res.Err.Message
	}
	return registry.TextOf(res.Content)
}

// Unseen is a failed sub-call whose outcome the program never saw: the run had ended (the
// program returned without awaiting it) before the call settled.
type Unseen struct {
	// SubCallID is the sub-call's id ("<outer>:code:<n>").
	SubCallID string
	// Call is the call as the program wrote it: tools.read_file, or tools["my-tool"].
	Call string
	// Started is false for a call that was still queued when the run ended and never ran.
	Started bool
	// Message is the failure of a started call: the tool's error, or how the end of the run
	// cancelled or detached it.
	Message string
	seq     int
}

// noteUnseen records e's failure when the run that made e has ended, so the program will not
// see it. Callers hold mu.
func (b *Bridge) noteUnseen(e *entry, msg string, started bool) {
	if b.detached.Load() {
		return // detach has recorded it
	}
	b.recordUnseen(e, msg, started)
}

// recordUnseen records e's failure, with message msg, when the run that made e has ended.
// Callers hold mu.
func (b *Bridge) recordUnseen(e *entry, msg string, started bool) {
	if e.run == nil || e.run.Err() == nil {
		return // the program sees it
	}
	b.unseen = append(b.unseen, Unseen{SubCallID: e.call.CallID, Call: bridge.ToolPath(e.namespace, e.call.Name), Started: started, Message: msg, seq: e.seq})
}

// Unseen returns the failures of sub-calls that settled after the run had ended, in
// submission order: calls the program never awaited that failed, were cancelled by the end of
// the run, never started, or were detached. Call it after Close, when every call has settled.
func (b *Bridge) Unseen() []Unseen {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := slices.Clone(b.unseen)
	slices.SortStableFunc(out, func(x, y Unseen) int { return x.seq - y.seq })
	return out
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
func (b *Bridge) log(e *entry, res registry.Result, settled time.Time) {
	if b.detached.Load() {
		return // Close has emitted its settle event
	}
	if len(b.opts.LogListeners) == 0 {
		if b.opts.Events != nil {
			b.emit(b.settleEvent(e, res, settled))
		}
		return
	}
	b.logTask(e, res, settled)
}

// settleEvent is e's settle event for outcome res, settled at the given time.
func (b *Bridge) settleEvent(e *entry, res registry.Result, settled time.Time) bridge.Event {
	c := e.call
	ev := bridge.Event{Type: bridge.EventSettle, RootCallID: c.RootCallID, ParentCallID: b.opts.CallID, SubCallID: c.CallID, Name: c.Name, Arguments: c.Arguments, IsError: res.IsError, Content: res.Content,
		Time: settled, Started: e.started, Queued: e.started.Sub(e.submitted), Running: e.ready.Sub(e.started)}
	if res.IsError {
		ev.ErrorMessage = failureMessage(res)
		if res.Err != nil {
			ev.ErrorCode = string(res.Err.Code)
		}
	} else {
		ev.Result = res.Value
	}
	return ev
}

// now is the time for an event, or the zero time when no events are wanted.
func (b *Bridge) now() time.Time {
	if !b.timed {
		return time.Time{}
	}
	return time.Now()
}

// logTask is log with listeners; apart so that the event escapes to the heap only here.
func (b *Bridge) logTask(e *entry, res registry.Result, settled time.Time) {
	c := e.call
	ev := b.settleEvent(e, res, settled)
	prev, done := b.lastLog, make(chan struct{})
	b.lastLog = done
	b.mu.Lock()
	b.live++
	b.mu.Unlock()
	go func() {
		defer b.exited()
		defer close(done)
		ev.Content = b.waterfall(bridge.LogEntry{
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
func (b *Bridge) waterfall(entry bridge.LogEntry) (content []registry.Content) {
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

// EmitAside emits e, an event of a call that is not one of the bridge's sub-calls (a state
// operation, bridge.Event.Binding), through the run's Events in turn with the bridge's own
// events; once the run's events are over (Close) it is dropped.
func (b *Bridge) EmitAside(e bridge.Event) {
	if b.opts.Events == nil {
		return
	}
	b.emitMu.Lock()
	defer b.emitMu.Unlock()
	if b.eventsOver {
		return
	}
	b.opts.Events(e)
}

// Timed reports whether the run's events carry times (someone listens to them).
func (b *Bridge) Timed() bool { return b.timed }

func (b *Bridge) emit(e bridge.Event) {
	if b.opts.Events == nil {
		return
	}
	b.emitMu.Lock()
	defer b.emitMu.Unlock()
	if b.eventsOver {
		return
	}
	// Settle events come in start order, so the settled call is the oldest open one.
	if e.Type == bridge.EventStart {
		b.open = append(b.open, e)
	} else if len(b.open) > 0 {
		b.open[0] = bridge.Event{}
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
		msg := b.detachedMessage(reason, ev.Name)
		now := time.Now()
		// The body is still running: its running time so far is all it has.
		b.opts.Events(bridge.Event{Type: bridge.EventSettle, RootCallID: ev.RootCallID, ParentCallID: ev.ParentCallID, SubCallID: ev.SubCallID, Name: ev.Name, Arguments: ev.Arguments,
			IsError: true, Content: []registry.Content{registry.TextContent(msg)}, ErrorMessage: msg,
			Time: now, Started: ev.Time, Queued: ev.Queued, Running: now.Sub(ev.Time)})
	}
	b.emitMu.Unlock()
	// The calls started and not committed are the detached ones (the events list them only
	// when there is a listener).
	b.mu.Lock()
	for _, e := range b.commits {
		b.recordUnseen(e, b.detachedMessage(reason, e.call.Name), true)
	}
	b.mu.Unlock()
	b.opts.Logger.Warn(fmt.Sprintf("run_code %s: sub-calls still in flight (%d bodies running) did not stop within %v of the end of the run; detached: their goroutines end when they return", b.opts.CallID, running, b.opts.DrainGrace))
}

// detachedMessage is the outcome of call name, detached when the run was over for reason.
func (b *Bridge) detachedMessage(reason, name string) string {
	return fmt.Sprintf("run_code run is over (%s); %s did not stop within %v of the end of the run and was detached: its result will be discarded", reason, name, b.opts.DrainGrace)
}

// Wait blocks until every goroutine the Bridge started has ended, including the bodies Close
// detached, and returns at once when there are none. It returns only after Close has been
// called. Tests and owners that must account for every goroutine use it.
func (b *Bridge) Wait() { <-b.gone }
