package jsruntime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/runcode-dev/runcode/jsonv"
)

// errStopped is the value runs are interrupted with; the reason is the recorded failure.
var errStopped = errors.New("jsruntime: run stopped")

// Messages of failures detected on the loop.
const (
	msgNeverSettles   = "program awaits a promise that can never settle"
	msgStackOverflow  = "Maximum call stack size exceeded"
	msgInvalidOutput  = "program completion cannot be converted to JSON"
	msgBadArguments   = "binding arguments cannot be converted to JSON"
	msgBadResult      = "binding resolution must be lossless JSON"
	msgUnrenderable   = "program threw an unrenderable value"
	msgNotAFunction   = "program did not compile to a function"
	unhandledRejected = "Unhandled rejection: "
)

// run is one execution of one program in one fresh goja.Runtime. Only the goroutine that calls
// execute (the loop goroutine) touches the VM; other goroutines post jobs, or stop the run.
type run struct {
	cfg    Config
	hooks  runHooks
	req    Request
	realm  *realm
	vm     *goja.Runtime // realm.vm
	intr   *intrinsics   // &realm.intr
	led    *ledger
	parent context.Context // the caller's context: its cancellation aborts the run
	host   context.Context // passed to host functions; cancelled when the run ends
	cancel context.CancelFunc

	mu      sync.Mutex
	queue   []func() error
	failure *Failure // the first terminal failure, set once
	closed  bool     // the run has concluded; posts and stops are ignored
	wake    chan struct{}
	stuck   *time.Timer // armed by stop when hooks.onStuck is set

	// timers counts timer callbacks that may still run; execute waits for them.
	timers sync.WaitGroup

	// lineOneShift, polyfills and generators are the compiled program's.
	lineOneShift int
	polyfills    uint64
	generators   bool
	polyfillPrg  *goja.Program
	// bound are the request's bindings, validated (see bindNamespaces).
	bound []boundNamespace

	// Loop-goroutine state.
	wallDeadline time.Time     // when the wall-clock ceiling stops the run
	pending      int           // host calls not yet settled on the loop
	timerQ       timerQueue    // the program's timers (setTimeout, setInterval, setImmediate)
	started      time.Time     // when execute began (performance.now's origin)
	inspectCut   bool          // an inspector cut the console line being built short (see logInspected)
	busy         time.Duration // time spent running JavaScript
	budget       *time.Timer   // enter's compute-budget timer
	rejections   []*goja.Promise
	missing      []missingMember // the latest lookups of members a namespace lacks
	// callSites name the binding call of each rejection reason made (see setCallSiteStack).
	callSites map[*goja.Object]string
	// notes are the lines that say where values lost data crossing the boundary (see addNote);
	// notesLeft counts those left out past maxNotes.
	notes     []string
	notesLeft int
}

// maxNotes bounds the notes of a run: one line per place is enough to explain, and notes are
// not charged to the output.
const maxNotes = 5

// addNote records line (a conversion's note; "" for none) for the run's result, once.
func (r *run) addNote(line string) {
	if line == "" || slices.Contains(r.notes, line) {
		return
	}
	if len(r.notes) == maxNotes {
		r.notesLeft++
		return
	}
	r.notes = append(r.notes, line)
}

// withNotes returns res with the run's notes.
func (r *run) withNotes(res Result) Result {
	res.Notes = r.notes
	if r.notesLeft > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("Note: %d more notes like these were left out.", r.notesLeft))
	}
	return res
}

func newRun(ctx context.Context, g *Goja, req Request, led *ledger, rl *realm) *run {
	host, cancel := context.WithCancel(ctx)
	r := &run{
		cfg:         g.cfg,
		hooks:       g.hooks,
		req:         req,
		realm:       rl,
		polyfillPrg: g.polyfills,
		vm:          rl.vm,
		intr:        &rl.intr,
		led:         led,
		parent:      ctx,
		host:        host,
		cancel:      cancel,
		wake:        make(chan struct{}, 1),
	}
	rl.owner = r
	return r
}

// execute runs prg (the compiled program) to completion and builds the result.
func (r *run) execute(prg *goja.Program) Result {
	defer r.cancel()
	r.started = time.Now()
	r.wallDeadline = r.started.Add(r.cfg.WallCeiling)
	wallMs := r.cfg.WallCeiling.Milliseconds()
	r.timers.Add(2)
	wall := time.AfterFunc(r.cfg.WallCeiling, func() {
		defer r.timers.Done()
		r.stop(&Failure{Kind: KindTimeout, Message: fmt.Sprintf("wall-clock ceiling reached (%dms)", wallMs)})
	})
	stopAbort := context.AfterFunc(r.parent, func() {
		defer r.timers.Done()
		r.stop(r.abortFailure())
	})
	defer func() {
		if wall.Stop() {
			r.timers.Done()
		}
		r.mu.Lock()
		stuck := r.stuck
		r.mu.Unlock()
		if stuck != nil && stuck.Stop() {
			r.timers.Done()
		}
		if stopAbort() {
			r.timers.Done()
		}
		r.timers.Wait()
	}()

	value, size, failure := r.drive(prg)
	if failure == nil {
		r.reportUnhandledRejections()
	}
	if failure = r.conclude(failure); failure != nil {
		return r.withNotes(r.led.fail(failure))
	}
	return r.withNotes(r.led.succeed(value, size))
}

// conclude records f unless a failure was recorded first, closes the run, and returns the
// failure that won (nil for success).
func (r *run) conclude(f *Failure) *Failure {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failure == nil {
		r.failure = f
	}
	r.closed = true
	return r.failure
}

// stop ends the run with failure f unless the run already has a failure or has concluded. It is
// safe to call from any goroutine: it interrupts running JavaScript and wakes an idle loop.
func (r *run) stop(f *Failure) {
	r.mu.Lock()
	if r.closed || r.failure != nil {
		r.mu.Unlock()
		return
	}
	r.failure = f
	if r.hooks.onStuck != nil {
		r.timers.Add(1)
		r.stuck = time.AfterFunc(r.hooks.stuckGrace, func() {
			defer r.timers.Done()
			r.mu.Lock()
			closed := r.closed
			r.mu.Unlock()
			if !closed {
				r.hooks.onStuck(f)
			}
		})
	}
	r.mu.Unlock()
	r.vm.Interrupt(errStopped)
	r.signal()
}

// post queues job to run on the loop. It reports false (and drops job) once the run has concluded.
func (r *run) post(job func() error) bool {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return false
	}
	r.queue = append(r.queue, job)
	r.mu.Unlock()
	r.signal()
	return true
}

func (r *run) signal() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// next returns the recorded failure, or else the next queued job (nil when the queue is empty).
// A cancelled parent context wins over queued jobs: they may be host calls failing because of it.
func (r *run) next() (func() error, *Failure) {
	if r.parent.Err() != nil {
		r.stop(r.abortFailure())
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failure != nil {
		return nil, r.failure
	}
	if len(r.queue) == 0 {
		return nil, nil
	}
	job := r.queue[0]
	r.queue[0] = nil
	if len(r.queue) == 1 {
		r.queue = r.queue[:0] // keep the backing array: most runs queue one job at a time
	} else {
		r.queue = r.queue[1:]
	}
	return job, nil
}

// runQueued runs the next queued job, if there is one, and reports whether it ran one; f is
// the run's failure, once there is one (recorded, or the job's).
func (r *run) runQueued() (ran bool, f *Failure) {
	job, f := r.next()
	if f != nil || job == nil {
		return false, f
	}
	if err := r.enter(job); err != nil {
		return false, r.failureOf(err)
	}
	return true, nil
}

// recorded returns the failure recorded by stop, if any.
func (r *run) recorded() *Failure {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failure
}

// abortFailure is the failure of a cancelled parent context.
func (r *run) abortFailure() *Failure {
	return &Failure{Kind: KindAbort, Message: context.Cause(r.parent).Error()}
}

// computeFailure is the failure of an exhausted compute budget.
func (r *run) computeFailure() *Failure {
	return &Failure{Kind: KindTimeout, Message: fmt.Sprintf("compute budget exhausted (%dms busy)", r.cfg.ComputeBudget.Milliseconds())}
}

// enter runs f, which runs JavaScript, charging the time to the compute budget: a timer armed
// for the rest of the budget interrupts the VM. Uncatchable goja errors raised as panics (an
// interrupt or a stack overflow while Go code drives the VM directly) are returned as errors.
func (r *run) enter(f func() error) (err error) {
	remaining := r.cfg.ComputeBudget - r.busy
	if remaining <= 0 {
		r.stop(r.computeFailure())
		return errStopped
	}
	// One timer per run, re-armed for each entry: entries are as frequent as settled host
	// calls. Each arming is one timers count, released by Stop or by the callback.
	r.timers.Add(1)
	if r.budget == nil {
		r.budget = time.AfterFunc(remaining, func() {
			defer r.timers.Done()
			r.stop(r.computeFailure())
		})
	} else {
		r.budget.Reset(remaining)
	}
	start := time.Now()
	defer func() {
		r.busy += time.Since(start)
		if r.budget.Stop() {
			r.timers.Done()
		}
		if x := recover(); x != nil {
			switch e := x.(type) {
			case *goja.InterruptedError:
				err = e
			case *goja.StackOverflowError:
				err = e
			default:
				panic(x)
			}
		}
	}()
	return f()
}

// failureOf classifies an error returned by JavaScript the loop ran.
func (r *run) failureOf(err error) *Failure {
	if f := r.recorded(); f != nil {
		return f
	}
	var so *goja.StackOverflowError
	var ex *goja.Exception
	switch {
	case errors.As(err, &so):
		return &Failure{Kind: KindException, Message: msgStackOverflow}
	case errors.Is(err, errStopped):
		// Interrupted, but the reason was not recorded (cannot happen: stop records first).
		return &Failure{Kind: KindAbort, Message: err.Error()}
	case errors.As(err, &ex):
		var msg string
		if err := r.enter(func() error { msg = r.renderThrown(ex.Value()); return nil }); err != nil {
			return r.failureOf(err)
		}
		return &Failure{Kind: KindException, Message: msg}
	}
	return &Failure{Kind: KindException, Message: err.Error()}
}

// drive sets the run up, calls the program function and runs the loop until the program's
// promise settles or the run is stopped. It returns the completion value or the failure.
func (r *run) drive(prg *goja.Program) (value jsonv.Value, size int, f *Failure) {
	var promise *goja.Promise
	err := r.enter(func() error {
		args, err := r.setup()
		if err != nil {
			return err
		}
		fnValue, err := r.vm.RunProgram(prg)
		if err != nil {
			return err
		}
		fn, ok := goja.AssertFunction(fnValue)
		if !ok {
			return errors.New(msgNotAFunction)
		}
		p, err := fn(goja.Undefined(), args...)
		if err != nil {
			return err
		}
		promise, ok = p.Export().(*goja.Promise)
		if !ok {
			return errors.New(msgNotAFunction)
		}
		return nil
	})
	if err != nil {
		return jsonv.Value{}, 0, r.failureOf(err)
	}

	for promise.State() == goja.PromiseStatePending {
		ran, f := r.runQueued()
		if f != nil {
			return jsonv.Value{}, 0, f
		}
		if ran {
			continue
		}
		if ran, f = r.runDueTimer(); f != nil {
			return jsonv.Value{}, 0, f
		}
		if ran {
			continue
		}
		if !r.waiting() {
			return jsonv.Value{}, 0, &Failure{Kind: KindException, Message: msgNeverSettles}
		}
		r.idle()
	}
	if f := r.recorded(); f != nil {
		return jsonv.Value{}, 0, f
	}

	result := promise.Result()
	if promise.State() == goja.PromiseStateRejected {
		var msg string
		if err := r.enter(func() error { msg = r.renderThrown(result); return nil }); err != nil {
			return jsonv.Value{}, 0, r.failureOf(err)
		}
		return jsonv.Value{}, 0, &Failure{Kind: KindException, Message: msg}
	}
	if !goja.IsUndefined(result) {
		var conv conversion
		if err := r.enter(func() error {
			conv = r.exportWithin(result, r.led.room())
			return nil
		}); err != nil {
			return jsonv.Value{}, 0, r.failureOf(err)
		}
		switch {
		case errors.Is(conv.err, errStopped):
			return jsonv.Value{}, 0, r.failureOf(conv.err)
		case errors.Is(conv.err, errOverBudget):
			return jsonv.Value{}, 0, &Failure{Kind: KindOutputLimit, Message: "output limit"}
		case conv.err != nil:
			return jsonv.Value{}, 0, &Failure{Kind: KindInvalidOutput, Message: withPlace(msgInvalidOutput, conv.err, "result")}
		}
		r.addNote(conv.note("result", ""))
		value, size = conv.value, conv.size
	}
	if f := r.settleLeftovers(); f != nil {
		return jsonv.Value{}, 0, f
	}
	return value, size, nil
}

// settleGrace is how long a run that succeeded waits for the host calls its program left
// pending (calls it never awaited) before it ends: a call that fails within it is reported as
// an unhandled rejection. It is short, since it delays the end of every run that leaves a call
// pending; a call still pending after it is the host's to report (the host context is
// cancelled when the run ends).
const settleGrace = 100 * time.Millisecond

// settleWait is how long a run whose wall-clock ceiling is remaining away waits for the calls
// its program left pending: settleGrace, cut so that the wait ends at least settleGrace before
// the ceiling, and so never turns a program that returned in time into a timeout.
func settleWait(remaining time.Duration) time.Duration {
	return max(min(settleGrace, remaining-settleGrace), 0)
}

// settleLeftovers runs the loop, after the program's completion value has been taken, until
// no host call is pending or the settle wait (settleWait) has passed. The settles run the
// program's reactions as any other job, under the same budgets.
func (r *run) settleLeftovers() *Failure {
	wait := settleWait(time.Until(r.wallDeadline))
	if r.pending == 0 || wait == 0 {
		return nil
	}
	grace := time.NewTimer(wait)
	defer grace.Stop()
	for r.pending > 0 {
		ran, f := r.runQueued()
		if f != nil {
			return f
		}
		if ran {
			continue
		}
		select {
		case <-r.wake:
		case <-grace.C:
			return nil
		}
	}
	return r.recorded()
}

// withPlace appends to msg where a value failed to cross the boundary, when err says.
func withPlace(msg string, err error, root string) string {
	var be *boundaryError
	if errors.As(err, &be) {
		return msg + ": " + be.describe(root)
	}
	return msg
}

// setup prepares the fresh VM and returns the program function's arguments: each namespace's
// object, each declared error class, then console.
func (r *run) setup() ([]goja.Value, error) {
	vm := r.vm
	vm.SetPromiseRejectionTracker(r.trackRejection)
	if r.generators || r.polyfills != 0 {
		if err := r.realm.guardGenerators(); err != nil {
			return nil, err
		}
	}
	if r.polyfills != 0 {
		if err := r.realm.installPolyfills(r.polyfillPrg, r.polyfills); err != nil {
			return nil, err
		}
	}
	args := r.realm.bindings
	if args == nil || !sameShape(r.realm.shape, r.bound) {
		var err error
		if args, err = r.realm.buildBindings(r.bound); err != nil {
			return nil, err
		}
	}
	return append(args, r.realm.console), nil
}

// trackRejection keeps, in order, the rejected promises nobody has handled yet.
func (r *run) trackRejection(p *goja.Promise, op goja.PromiseRejectionOperation) {
	switch op {
	case goja.PromiseRejectionReject:
		r.rejections = append(r.rejections, p)
	case goja.PromiseRejectionHandle:
		for i, q := range r.rejections {
			if q == p {
				r.rejections = append(r.rejections[:i], r.rejections[i+1:]...)
				break
			}
		}
	}
}

// reportUnhandledRejections logs one line per rejection that was never handled:
// "Unhandled rejection: <message>", and for the rejection of a binding call, the call and
// where the program made it: "Unhandled rejection: <message> (tools.read_file, main.ts:3:17)".
func (r *run) reportUnhandledRejections() {
	for _, p := range r.rejections {
		var msg string
		if err := r.enter(func() error { msg = r.renderReason(p.Result()); return nil }); err != nil {
			return
		}
		if o, ok := p.Result().(*goja.Object); ok && r.callSites[o] != "" {
			msg += " (" + r.callSites[o] + ")"
		}
		r.log(unhandledRejected + msg)
	}
}

// log charges one console line to the ledger; the first line that does not fit stops the run.
func (r *run) log(line string) {
	if !r.led.admit(line) {
		r.stop(&Failure{Kind: KindOutputLimit, Message: "output limit"})
	}
}

// isError reports whether o inherits from the realm's Error.prototype.
func (r *run) isError(o *goja.Object) bool {
	p := o.Prototype()
	for i := 0; p != nil && i < 10000; i++ {
		if p == r.intr.errorProto {
			return true
		}
		p = p.Prototype()
	}
	return false
}

// renderThrown renders a thrown value as the exception message: an Error's stack when it is not
// null or undefined, else its message; anything else as String(value).
func (r *run) renderThrown(v goja.Value) string { return r.render(v, true) }

// renderReason renders an unhandled rejection's reason: an Error's message, else String(value).
func (r *run) renderReason(v goja.Value) string { return r.render(v, false) }

func (r *run) render(v goja.Value, withStack bool) string {
	var msg string
	ex := r.vm.Try(func() {
		if o, ok := v.(*goja.Object); ok && o.ExportType() != proxyType && r.isError(o) {
			if withStack {
				if stack := o.Get("stack"); !isNullish(stack) {
					msg = fixLineOneColumns(strings.TrimSuffix(jsString(stack), "\n"), r.lineOneShift) // goja ends stacks with a newline
					msg = r.explainMissing(o, msg)
					return
				}
			}
			msg = r.explainMissing(o, jsString(o.Get("message")))
			return
		}
		msg = jsString(v)
	})
	if ex != nil {
		return msgUnrenderable
	}
	return msg
}

func isNullish(v goja.Value) bool {
	return v == nil || goja.IsUndefined(v) || goja.IsNull(v)
}

// jsString is String(v); it panics with a goja exception when conversion throws.
func jsString(v goja.Value) string {
	if v == nil {
		return "undefined"
	}
	if s, ok := v.(*goja.Symbol); ok {
		return "Symbol(" + s.String() + ")"
	}
	return v.String()
}
