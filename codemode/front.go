package codemode

// The front door: New, CodeMode.Run, Prompt, Call; the failure kinds; per-call hooks.

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// CodeMode is Code Mode installed in one registry (see [New]): it runs programs through the
// registry's run_code tool, with every policy of the registry applied, and writes the system
// prompt that teaches a model the SDK. Its methods may be called concurrently.
type CodeMode struct {
	reg   *registry.Registry
	opts  Options
	owned *jsruntime.Goja // the runtime New started (Options.Runtime nil), which Close closes
	runs  atomic.Uint64   // Run's calls so far, for their call ids
	cm    *codeMode       // the installed run_code's state
}

// New installs the reserved run_code tool ([registry.ReservedName]) into reg with opts and
// returns the handle that runs programs through it. A program sees every tool reg lists in
// [registry.Registry.SDKSchemas] for the caller's scope when its run starts. Without
// opts.Runtime, New starts an in-process runtime with the default [jsruntime.Config] (soft
// limits: see [jsruntime.NewProcessPool] for hard ones), which [CodeMode.Close] closes.
// Errors name the option that is invalid. New leaves the registry's presentation as it is: a
// scope reaches run_code, from its model or from Run, when it presents its tools as code or
// both ([registry.Registry.SetDefaultPresentation]).
func New(reg *registry.Registry, opts Options) (*CodeMode, error) {
	c := &CodeMode{reg: reg}
	if opts.Runtime == nil {
		rt, err := jsruntime.New(jsruntime.Config{})
		if err != nil {
			return nil, err
		}
		opts.Runtime, c.owned = rt, rt
	}
	cm, err := install(reg, opts)
	if err != nil {
		c.Close()
		return nil, err
	}
	c.cm = cm
	c.opts = opts
	return c, nil
}

// Close closes the runtime New started when Options.Runtime was nil (runs still going end as
// aborted); it does nothing when the runtime is the caller's to close. run_code stays
// installed: later runs fail.
func (c *CodeMode) Close() error {
	if c.owned == nil {
		return nil
	}
	return c.owned.Close()
}

// Install installs run_code into reg, as [New] does, for hosts that only route model calls
// through [registry.Registry.Execute] (with [Call]) and need no handle. opts.Runtime is
// required.
func Install(reg *registry.Registry, opts Options) error {
	_, err := install(reg, opts)
	return err
}

// Registry returns the registry Code Mode is installed in.
func (c *CodeMode) Registry() *registry.Registry { return c.reg }

// Program is one run_code call's arguments.
type Program struct {
	// Code is the program: TypeScript or JavaScript, the body of an async function (top-level
	// await and return work), or a module with `export default <expr>`.
	Code string
	// Description says what the program does, in 5-10 words; approval hooks and UIs show it.
	// Run sends "Run a program" when it is empty (run_code requires one).
	Description string
	// Scope is the agent the program runs for: it sees the tools the scope may call. nil is
	// the global view.
	Scope *registry.Scope
}

// defaultDescription is Run's description of a Program without one.
const defaultDescription = "Run a program"

// Outcome is what one run produced.
type Outcome struct {
	// Text is what the model reads of the run: its logs, then its result, then its notes (see
	// [RenderText]), or "Error: " and the failure; held to [Options.OutputBudget] like every
	// other field here (a run whose output was cut says so in a last note).
	Text string
	// Logs are the program's console lines (before a failure: those it wrote until then).
	Logs []string
	// Value is the value the program returned; undefined when it returned nothing or failed.
	Value jsonv.Value
	// Notes say where a value lost data on its way to JSON (a Map became {}), and what the
	// output budget cut.
	Notes []string
	// Failure is why the program failed; nil when it succeeded.
	Failure *RunFailure
	// Result is the run_code call's full registry result: its content blocks (images a
	// program's tools returned included), its additional contexts (deferred messages for the
	// model), its error with its code.
	Result registry.Result
}

// Run runs p through the registry, as a model's run_code call would be run (pre-execute
// hooks, guards, approvals, wrappers and post-processing all apply), and returns its outcome.
// A program that failed (it threw, timed out, did not typecheck …) is an Outcome with a
// Failure and a nil error: like an HTTP status, it is the answer. The error is non-nil only
// when the call ran no program: its arguments were refused, a hook or guard denied it, ctx
// ended before it started, …; it is then the call's *[registry.Error] (see [KindOf] for its
// failure kind), and the Outcome still carries the Result and the Text the model would read.
//
// Hooks for this call alone travel in ctx: see [WithRunTrace]. Each Run gets the call id
// "codemode-N" (the root call id of its sub-calls), N counting the handle's runs from 1.
func (c *CodeMode) Run(ctx context.Context, p Program) (Outcome, error) {
	if p.Description == "" {
		p.Description = defaultDescription
	}
	call := Call("codemode-"+strconv.FormatUint(c.runs.Add(1), 10), p.Code, p.Description)
	call.Scope = p.Scope
	return OutcomeOf(c.reg.Execute(ctx, call))
}

// OutcomeOf returns the Outcome of res, the result of a run_code call, and the error Run
// returns with it (non-nil when the call ran no program). Hosts that execute run_code calls
// themselves (see [Call]) read their results with it.
func OutcomeOf(res registry.Result) (Outcome, error) {
	out := Outcome{Result: res, Text: resultText(res)}
	canonical, ran := CanonicalOutcome(res)
	if !ran {
		if res.Err == nil {
			return out, errors.New("codemode: run_code failed without an error")
		}
		return out, res.Err
	}
	out.Logs = stringsOf(canonical.Lookup("logs"))
	out.Notes = stringsOf(canonical.Lookup("notes"))
	if res.IsError {
		errors.As(res.Err, &out.Failure)
	} else {
		out.Value = canonical.Lookup("result")
	}
	return out, nil
}

// resultText joins the text blocks of res's content, one block a line.
func resultText(res registry.Result) string {
	var parts []string
	for _, b := range res.Content {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Prompt returns the Code Mode part of the system prompt for scope (nil: the global view), by
// the scope's presentation (see [Sections]) with the handle's [Options.CompactAbove]: under
// code and both, the SDK of the tools the scope's programs may call (and, under code, the notice
// that run_code is the only tool the model may call directly); "" under native.
func (c *CodeMode) Prompt(scope *registry.Scope) (string, error) {
	sections, err := Sections(c.reg, scope, SectionOptions{CompactAbove: c.opts.CompactAbove})
	if err != nil {
		return "", err
	}
	return RenderPrompt(sections), nil
}

// Call returns the registry call of a model's run_code call with id, for hosts that route model
// calls through [registry.Registry.Execute] themselves: the arguments {"code": code,
// "description": description}. Set its Scope for a scoped agent. Read the result with
// [OutcomeOf], or send its content to the model as it is.
func Call(id, code, description string) registry.Call {
	return registry.Call{
		CallID: id,
		Name:   registry.ReservedName,
		Arguments: jsonv.ObjectValue(
			jsonv.Member{Key: "code", Value: jsonv.StringValue(code)},
			jsonv.Member{Key: "description", Value: jsonv.StringValue(description)},
		),
	}
}

// FailureKind classifies a failed run_code call: the kind of a [RunFailure], and the "kind" of a
// canonical outcome's error (see [CanonicalOutcome]). It is [jsruntime.FailureKind], whose
// runtime kinds it extends; the complete list is here.
type FailureKind = jsruntime.FailureKind

// The failure kinds: the runtime's, Code Mode's, and those of a call that ran no program.
const (
	// KindException: the program threw, or did not compile.
	KindException = jsruntime.KindException
	// KindTimeout: the program ran out of its compute budget or its wall-clock ceiling (or the
	// call timed out before its program started).
	KindTimeout = jsruntime.KindTimeout
	// KindAbort: the call was cancelled (its context ended).
	KindAbort = jsruntime.KindAbort
	// KindWorkerExit: the worker process running the program died (process isolation).
	KindWorkerExit = jsruntime.KindWorkerExit
	// KindInvalidOutput: the program's result cannot cross as JSON.
	KindInvalidOutput = jsruntime.KindInvalidOutput
	// KindOutputLimit: the program's output exceeded the runtime's output cap.
	KindOutputLimit = jsruntime.KindOutputLimit
	// KindTypecheck: the program does not typecheck (Options.TypeChecker).
	KindTypecheck FailureKind = "typecheck"
	// KindInvalidArguments: no program ran: the arguments were not an object with a code and a
	// non-empty description.
	KindInvalidArguments FailureKind = "invalid-arguments"
	// KindShuttingDown: no program ran: the server is draining and starts no new runs (retry
	// elsewhere or later).
	KindShuttingDown FailureKind = "shutting-down"
	// KindInternal: no program ran, for any other reason (a hook denied the call, the runtime
	// was closed, …).
	KindInternal FailureKind = "internal"
)

// FailureKinds returns every failure kind, in the order of their declarations.
func FailureKinds() []FailureKind {
	return []FailureKind{KindException, KindTimeout, KindAbort, KindWorkerExit, KindInvalidOutput, KindOutputLimit,
		KindTypecheck, KindInvalidArguments, KindShuttingDown, KindInternal}
}

// KindOf returns the failure kind of err, a run_code call's error (registry.Result.Err, or
// the error [CodeMode.Run] returns): a [RunFailure]'s kind; for a call that ran no program,
// KindInvalidArguments, KindAbort or KindTimeout by its error code, else KindInternal; "" for
// a nil error.
func KindOf(err error) FailureKind {
	var f *RunFailure
	switch {
	case err == nil:
		return ""
	case errors.As(err, &f):
		return f.Kind
	case errors.Is(err, registry.CodeInvalidArgs):
		return KindInvalidArguments
	case errors.Is(err, registry.CodeAborted), errors.Is(err, registry.CodeAbortedBeforeDispatch):
		return KindAbort
	case errors.Is(err, registry.CodeTimeout):
		return KindTimeout
	}
	return KindInternal
}

// RunTrace is a set of hooks for one run_code call, carried by its context (see
// [WithRunTrace]), in the way net/http/httptrace hooks one request. Any hook may be nil. The
// hooks see only the call whose context carries the trace: not other calls running at the same
// time, and not runs that tools of the program start themselves. They run beside
// [Options.Events] and [Options.Console], after them, and must not block.
type RunTrace struct {
	// OnEvent receives each dispatch event of the run's sub-calls (bridge.EventStart and
	// bridge.EventSettle), in order, never two at once.
	OnEvent func(bridge.Event)
	// OnLog receives each console line the run's output admits, as the program writes it and
	// before the call returns (see [jsruntime.Request.OnLog]).
	OnLog func(line string)
}

type runTraceKey struct{}

// WithRunTrace returns ctx carrying trace: a run_code call executed with the returned context
// (by [CodeMode.Run], or by [registry.Registry.Execute] with [Call]) calls trace's hooks. A
// trace already in ctx is replaced.
func WithRunTrace(ctx context.Context, trace *RunTrace) context.Context {
	return context.WithValue(ctx, runTraceKey{}, trace)
}

// RunTraceFrom returns the trace ctx carries, or nil.
func RunTraceFrom(ctx context.Context) *RunTrace {
	t, _ := ctx.Value(runTraceKey{}).(*RunTrace)
	return t
}

// takeRunTrace returns the trace of ctx and ctx without it, so the run's sub-calls (and runs
// they start) do not report to it.
func takeRunTrace(ctx context.Context) (context.Context, *RunTrace) {
	t := RunTraceFrom(ctx)
	if t == nil {
		return ctx, nil
	}
	return context.WithValue(ctx, runTraceKey{}, (*RunTrace)(nil)), t
}

// eventsFunc is the bridge's Events of a run: the option's, then the trace's.
func eventsFunc(global func(bridge.Event), t *RunTrace) func(bridge.Event) {
	var local func(bridge.Event)
	if t != nil {
		local = t.OnEvent
	}
	switch {
	case local == nil:
		return global
	case global == nil:
		return local
	}
	return func(e bridge.Event) { global(e); local(e) }
}

// logFunc is the runtime's OnLog of a run: the option's Console, then the trace's OnLog.
func logFunc(console func(callID, line string), callID string, t *RunTrace) func(string) {
	var local func(string)
	if t != nil {
		local = t.OnLog
	}
	switch {
	case console == nil && local == nil:
		return nil
	case console == nil:
		return local
	case local == nil:
		return func(line string) { console(callID, line) }
	}
	return func(line string) { console(callID, line); local(line) }
}
