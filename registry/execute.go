package registry

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/runcode-dev/runcode/jsonv"
)

// Result is the outcome of one call: a success (IsError false, Value set) or a failure
// (IsError true, Err set, no Value).
type Result struct {
	// Value is the canonical JSON value of a success: what a program receives.
	Value jsonv.Value
	// Content is the model-facing content: the rendered value, or "Error: <message>".
	Content []Content
	IsError bool
	// Err describes a failure; errors.Is(res.Err, CodeX) tests its code.
	Err *Error
	// Meta is the tool's presentation metadata (top-level successes only).
	Meta jsonv.Value
	// AdditionalContexts ride the result in order: deferred by the body, then added by
	// post-execute decisions.
	AdditionalContexts []ContextMessage
	// ConcludesTurn marks a success after which the agent loop should end its turn.
	ConcludesTurn bool
}

// clone returns a copy of res whose slices are not shared with res.
func (res Result) clone() Result {
	res.Content = append([]Content(nil), res.Content...)
	if len(res.AdditionalContexts) > 0 {
		res.AdditionalContexts = append([]ContextMessage(nil), res.AdditionalContexts...)
	}
	return res
}

// errorResult builds the failure Result for err.
func errorResult(err *Error) Result {
	return Result{IsError: true, Err: err, Content: []Content{TextContent("Error: " + err.Message)}}
}

// ErrorResult returns the failure Result for err, normalized as the pipeline normalizes what a
// tool returns: a coded *Error keeps its code, any other error contributes its message.
func ErrorResult(err error) Result {
	if err == nil {
		err = errors.New("unknown failure")
	}
	return errorResult(asError(err))
}

// Invocation is what a tool body receives: the execution, and the means to attach context to
// its own result or to end the agent's turn.
type Invocation struct {
	Execution
	run  *runContext
	tree *callTree
}

// callTree holds the values shared by one top-level call and every call made on its behalf
// (see Invocation.RootValue).
type callTree struct {
	mu     sync.Mutex
	values map[any]any
}

// treeKey is the context key under which a top-level call's body context carries its callTree,
// so that the sub-calls its body makes (with that context or one derived from it) find it.
type treeKey struct{}

// RootValue returns the value stored under key for this call's call tree — the top-level call
// (one without a Parent) and every call made on its behalf with its body's context, however
// deeply nested — creating it with create on first use. It lets a tool keep state per
// top-level call, such as a budget shared by all the sub-calls of one Code Mode run, without
// knowing how the tree was made: a direct call is a tree of its own. The values live as long
// as the tree's calls reference them and are never shared with another top-level call. key
// must be comparable; use an unexported type, as for context keys. On an Invocation the
// registry did not create, or for a call with a Parent whose context does not descend from its
// parent's body context, the call is its own tree and create runs on every call.
func (inv *Invocation) RootValue(key any, create func() any) any {
	if inv.tree == nil {
		return create()
	}
	t := inv.tree
	t.mu.Lock()
	defer t.mu.Unlock()
	if v, ok := t.values[key]; ok {
		return v
	}
	if t.values == nil {
		t.values = make(map[any]any)
	}
	v := create()
	t.values[key] = v
	return v
}

// runContext is the mutable part of an invocation, shared by its copies.
type runContext struct {
	mu        sync.Mutex
	contexts  []ContextMessage
	concludes bool
}

func (rc *runContext) empty() bool {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.contexts) == 0 && !rc.concludes
}

// DeferContext attaches msg to this call's result; the agent loop appends it after the result.
// A composite tool uses it to carry its nested calls' contexts outward. On an Invocation the
// registry did not create it does nothing.
func (inv *Invocation) DeferContext(msg ContextMessage) {
	if inv.run == nil {
		return
	}
	inv.run.mu.Lock()
	defer inv.run.mu.Unlock()
	inv.run.contexts = append(inv.run.contexts, msg)
}

// ConcludeTurn marks a successful result as the end of the agent's turn. It has no effect on a
// failed call.
func (inv *Invocation) ConcludeTurn() {
	if inv.run == nil {
		return
	}
	inv.run.mu.Lock()
	defer inv.run.mu.Unlock()
	inv.run.concludes = true
}

// Execute runs one call through the whole pipeline and returns its final result. It never
// panics and never returns a Go error: every failure is a Result with IsError and a coded Err.
// ctx is the caller's: cancelling it cancels the call (ABORTED_BEFORE_DISPATCH before the body
// started, ABORTED for a success when the cancellation comes before the end of post-execute).
func (r *Registry) Execute(ctx context.Context, call Call) Result {
	p := r.Prepare(ctx, call)
	p.Dispatch()
	return p.Finish()
}

// stage is how far a Prepared call has come.
type stage uint8

const (
	stageDispatch stage = iota // prepared: the body should run
	stagePost                  // a result exists that still goes through post-execute
	stageFinal                 // a result exists that skips post-execute
	stageDone                  // Finish ran
)

// Prepared is a call that went through the pre-dispatch stages (creation, pre-execute,
// approval, guards). Dispatch runs the wrappers and the body (possibly on another goroutine);
// Finish runs post-execute, FinalizeContent and the observers. Call Dispatch at most once and
// Finish exactly once, in that order.
type Prepared struct {
	r      *Registry
	ctx    context.Context
	exec   Execution
	stage  stage
	result Result
	inv    *Invocation
	// checked is the call's argument verdict from Classify, if any.
	checked argsCheck
	// invocation and run back inv, allocated with the Prepared.
	invocation Invocation
	run        runContext
	tree       callTree // the call tree when this call is its root

	// Snapshot of the hooks when the call was created.
	wrappers  []WrapFunc
	post      []PostExecuteFunc
	observers []ObserverFunc
	finalize  func(Execution, Result) []Content

	// span holds the recording span of the caller's context, on which the stages are
	// recorded as events (nil when there is none). A pointer, not the interface, keeps an
	// untraced Prepared within its allocation size class.
	span *recording
}

// Execution returns the call as the pipeline sees it.
func (p *Prepared) Execution() Execution { return p.exec }

// NeedsDispatch reports whether the call was allowed to reach its body.
func (p *Prepared) NeedsDispatch() bool { return p.stage == stageDispatch }

// Prepare creates the execution and runs the pre-dispatch policy: the pre-execute waterfall,
// approval, and guards. A direct call (no Parent) of a visible tool other than the transport in
// a scope whose presentation is exactly PresentCode ends at creation, before any policy, with
// UNKNOWN_TOOL and a hint to call the tool from a program; undefined arguments and an already
// cancelled caller take precedence.
func (r *Registry) Prepare(ctx context.Context, call Call) *Prepared {
	if call.RootCallID == "" {
		call.RootCallID = call.CallID
	}
	p := &Prepared{r: r, ctx: ctx, checked: call.checked, span: recordingSpan(ctx), exec: Execution{
		CallID: call.CallID, RootCallID: call.RootCallID, Name: call.Name, Arguments: call.Arguments,
		Scope: call.Scope, Parent: call.Parent, Token: Token{r.tokens.Add(1)},
	}}
	r.mu.RLock()
	pre := snapshot(r.pre)
	guards := snapshot(r.guards)
	var chain []*Scope
	for s := call.Scope; s != nil; s = s.parent {
		chain = append(chain, s)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		guards = append(guards, snapshot(chain[i].guards)...)
	}
	p.wrappers = snapshot(r.wrappers)
	p.post = snapshot(r.post)
	p.observers = snapshot(r.observers)
	approver := r.approver
	var needsApproval bool
	if e := r.resolve(call.Name, call.Scope); e != nil {
		p.finalize = e.tool.FinalizeContent
		needsApproval = e.tool.RequiresApproval
	}
	collapsed := r.collapses(call)
	r.mu.RUnlock()

	switch {
	case !call.Arguments.IsDefined():
		p.finishCreation(errorResult(&Error{Code: CodeInvalidArgs, Name: "ToolArgsError", Message: "tool execution arguments must be losslessly JSON-serializable"}))
		return p
	case ctx.Err() != nil:
		p.finishCreation(abortedBeforeDispatch(ctx))
		return p
	case collapsed:
		// The executor collapse: under PresentCode only the transport is callable directly.
		p.finishCreation(errorResult(collapseError(call.Name)))
		return p
	}

	stage := StagePreExecute
	p.event(stage)
	decision, err := p.runPre(pre)
	if err != nil {
		p.rejected(stage, err.Message)
		p.finish(stageFinal, errorResult(err))
		return p
	}
	if decision.kind == preAllow && needsApproval {
		decision = Ask("")
	}
	if decision.kind == preAsk {
		stage = StageApproval
		p.event(stage)
		decision = p.approve(approver, decision.reason)
	}
	if decision.kind == preDeny {
		p.rejected(stage, decision.reason)
		p.finish(stagePost, errorResult(&Error{Code: decision.code, Message: decision.reason}))
		return p
	}
	if len(guards) > 0 {
		p.event(StageGuards)
	}
	for _, g := range guards {
		reason, err := callGuard(g, p.exec)
		if err != nil {
			p.rejected(StageGuards, err.Message)
			p.finish(stagePost, errorResult(err))
			return p
		}
		if reason != "" {
			p.rejected(StageGuards, reason)
			p.finish(stagePost, errorResult(&Error{Message: reason}))
			return p
		}
	}
	return p
}

// finishCreation ends a call at its creation with res, which skips post-execute.
func (p *Prepared) finishCreation(res Result) {
	p.rejected(StageCreation, res.Err.Message)
	p.finish(stageFinal, res)
}

func (p *Prepared) finish(s stage, res Result) {
	p.stage, p.result = s, res
}

// aborted is the result of a call whose caller was cancelled after its body started and before
// its result was final.
func aborted(ctx context.Context) Result {
	return errorResult(&Error{Code: CodeAborted, Name: "AbortError", Message: "tool call aborted", Err: context.Cause(ctx)})
}

func abortedBeforeDispatch(ctx context.Context) Result {
	return errorResult(&Error{Code: CodeAbortedBeforeDispatch, Name: "AbortError", Message: "tool call aborted before dispatch", Err: context.Cause(ctx)})
}

// recovered turns a recovered panic value into a pipeline error naming where it happened.
func recovered(where string, p any) *Error {
	return &Error{Message: fmt.Sprintf("%s panicked: %v", where, p), Err: fmt.Errorf("panic: %v\n%s", p, debug.Stack())}
}

// runPre runs the pre-execute waterfall.
func (p *Prepared) runPre(listeners []PreExecuteFunc) (d PreDecision, err *Error) {
	if len(listeners) == 0 {
		return Allow(), nil
	}
	defer func() {
		if x := recover(); x != nil {
			err = recovered("pre-execute listener", x)
		}
	}()
	var next func(i int) PreDecision
	next = func(i int) PreDecision {
		if i == len(listeners) {
			return Allow()
		}
		return listeners[i](p.ctx, p.exec, func() PreDecision { return next(i + 1) })
	}
	return next(0), nil
}

// approve asks the approver about an Ask decision. Every denial it returns has the code
// CodeApprovalDenied.
func (p *Prepared) approve(a Approver, reason string) PreDecision {
	d := p.askApprover(a, reason)
	if d.kind == preDeny {
		d.code = CodeApprovalDenied
	}
	return d
}

// askApprover asks a about the call and returns its decision.
func (p *Prepared) askApprover(a Approver, reason string) PreDecision {
	name := p.exec.Name
	switch {
	case a == nil:
		if reason == "" {
			reason = fmt.Sprintf("tool %q requires approval (not yet supported)", name)
		}
		return Deny(reason)
	case p.exec.Scope == nil:
		return Deny(fmt.Sprintf("tool %q requires approval, but the call has no agent to route it through", name))
	}
	var answer Approval
	var why string
	func() {
		defer func() {
			if x := recover(); x != nil {
				answer, why = Unavailable, ""
			}
		}()
		if ea, ok := a.(ExplainingApprover); ok {
			answer, why = ea.ApproveExplained(p.ctx, p.exec, reason)
		} else {
			answer = a.Approve(p.ctx, p.exec, reason)
		}
	}()
	switch {
	case answer == AllowedOnce:
		return Allow()
	case why != "":
		return Deny(why)
	}
	return Deny(DenialMessage(name, answer))
}

// DenialMessage is the registry's message for a call of tool the Approver answered with answer
// (anything but AllowedOnce), as the program sees it when the Approver gives no explanation of
// its own. An ExplainingApprover that only adds to it starts its explanation with it.
func DenialMessage(tool string, answer Approval) string {
	switch answer {
	case Rejected:
		return fmt.Sprintf("the user rejected tool %q", tool)
	case Cancelled:
		return fmt.Sprintf("approval for tool %q was cancelled", tool)
	default:
		return fmt.Sprintf("tool %q requires approval, but no approval channel is available", tool)
	}
}

func callGuard(g GuardFunc, exec Execution) (reason string, err *Error) {
	defer func() {
		if x := recover(); x != nil {
			err = recovered("guard", x) // a broken guard fails closed
		}
	}()
	return g(exec), nil
}

// Dispatch runs the around-dispatch wrappers and the body, when the call was allowed to. It may
// run on any goroutine; it does nothing for a call that already has a result.
func (p *Prepared) Dispatch() {
	if p.stage != stageDispatch {
		return
	}
	if p.ctx.Err() != nil {
		p.finish(stagePost, abortedBeforeDispatch(p.ctx))
		return
	}
	p.event(StageBody)
	res, err := p.runWrapped()
	p.event(StageBodyEnd)
	if err != nil {
		p.finish(stageFinal, errorResult(err))
		return
	}
	if !res.IsError && p.ctx.Err() != nil {
		res = aborted(p.ctx)
	}
	p.finish(stagePost, res)
}

// runWrapped runs the wrapper chain around the body.
func (p *Prepared) runWrapped() (res Result, err *Error) {
	if len(p.wrappers) == 0 {
		return p.body(p.ctx), nil
	}
	defer func() {
		if x := recover(); x != nil {
			err = recovered("tools/execute wrapper", x)
		}
	}()
	var next func(i int, ctx context.Context) Result
	next = func(i int, ctx context.Context) Result {
		if ctx == nil {
			ctx = p.ctx
		}
		if i == len(p.wrappers) {
			return p.body(ctx)
		}
		return p.wrappers[i](ctx, p.exec, func(c context.Context) Result { return next(i+1, c) })
	}
	return next(0, p.ctx), nil
}

// fuse returns a context with inner's values and deadline that is also cancelled, with the
// same cause, when the caller's context is: a wrapper can shorten a call's life, never detach it.
func fuse(caller, inner context.Context) (context.Context, func()) {
	if inner == caller {
		return caller, func() {}
	}
	ctx, cancel := context.WithCancelCause(inner)
	stop := context.AfterFunc(caller, func() { cancel(context.Cause(caller)) })
	return ctx, func() { stop(); cancel(nil) }
}

// unknownTool is the error of a call to a tool that scope does not resolve. For run_code it
// names the fix: Code Mode is installed by codemode.New (the registry knows only the reserved
// name), and a scope presented as native hides it.
func (r *Registry) unknownTool(name string) *Error {
	msg := fmt.Sprintf("unknown tool %q", name)
	if name == ReservedName {
		r.mu.RLock()
		installed := r.transport != nil
		r.mu.RUnlock()
		if installed {
			msg += ": the scope presents its tools as native, which offers no run_code; present it as code or both (Registry.SetDefaultPresentation, Scope.PresentAs)"
		} else {
			msg += ": Code Mode is not installed in this registry; install it with codemode.New"
		}
	}
	return &Error{Code: CodeUnknownTool, Name: "ToolNotFoundError", Message: msg}
}

// body resolves the tool, validates the arguments, runs Execute under the tool's timeout, and
// validates and renders the value.
func (p *Prepared) body(ctx context.Context) Result {
	r := p.r
	r.mu.RLock()
	e := r.resolve(p.exec.Name, p.exec.Scope)
	mode := r.presentationOf(p.exec.Scope)
	r.mu.RUnlock()
	if e == nil && p.exec.Name == ReservedName && mode != PresentNative {
		return errorResult(missingRuntimeError(mode))
	}
	if e == nil {
		return errorResult(p.r.unknownTool(p.exec.Name))
	}
	args := p.exec.Arguments
	if v := p.checked.violationsOf(e, args); len(v) > 0 {
		return errorResult(&Error{Code: CodeInvalidArgs, Name: "ToolArgsError", Message: "invalid arguments: " + strings.Join(v, "; ")})
	}
	ctx, release := fuse(p.ctx, ctx)
	defer release()
	var timedOut func() bool
	if d := e.tool.Timeout; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, d, errTimeout)
		defer cancel()
		timedOut = func() bool { return errors.Is(context.Cause(ctx), errTimeout) }
	}
	tree, _ := ctx.Value(treeKey{}).(*callTree)
	if tree == nil || p.exec.Parent.IsZero() {
		tree = &p.tree
		ctx = context.WithValue(ctx, treeKey{}, tree)
	}
	p.invocation = Invocation{Execution: p.exec, run: &p.run, tree: tree}
	p.inv = &p.invocation
	value, err := runBody(ctx, e.tool, p.inv)
	if timedOut != nil && timedOut() && err != nil {
		return errorResult(&Error{Code: CodeTimeout, Name: "ToolTimeoutError", Message: fmt.Sprintf("tool %q timed out after %v", p.exec.Name, e.tool.Timeout), Err: err})
	}
	if err != nil {
		return errorResult(asError(err))
	}
	return p.accept(e, value)
}

// errTimeout is the cause of a context cancelled by a tool's Timeout.
var errTimeout = errors.New("tool timeout")

// accept validates a success value against e's output schema and renders it.
func (p *Prepared) accept(e *entry, value jsonv.Value) Result {
	name := p.exec.Name
	if !value.IsDefined() {
		return errorResult(&Error{Code: CodeInvalidToolOutput, Name: "ToolOutputError", Message: fmt.Sprintf("tool %q returned invalid output: value is not lossless JSON", name)})
	}
	if v := e.output.violations(value, "value"); len(v) > 0 {
		return errorResult(&Error{Code: CodeInvalidToolOutput, Name: "ToolOutputError", Message: fmt.Sprintf("tool %q returned invalid output: %s", name, strings.Join(v, "; "))})
	}
	args := p.exec.Arguments
	content, err := protect("output.render", func() []Content { return e.tool.Output.Render(args, value) })
	if err != nil {
		return errorResult(err)
	}
	res := Result{Value: value, Content: append([]Content(nil), content...)}
	if meta := e.tool.Output.PresentationMeta; meta != nil && p.exec.Parent.IsZero() {
		m, err := protect("output.presentationMeta", func() jsonv.Value { return meta(args, value) })
		if err != nil {
			return errorResult(err)
		}
		res.Meta = m
	}
	return res
}

// protect calls f, turning a panic into a pipeline error.
func protect[T any](where string, f func() T) (v T, err *Error) {
	defer func() {
		if x := recover(); x != nil {
			err = &Error{Message: fmt.Sprintf("%s failed: %v", where, x), Err: fmt.Errorf("panic: %v\n%s", x, debug.Stack())}
		}
	}()
	return f(), nil
}

// runBody calls the tool body, turning a panic into an error.
func runBody(ctx context.Context, t Tool, inv *Invocation) (v jsonv.Value, err error) {
	defer func() {
		if x := recover(); x != nil {
			err = recovered(fmt.Sprintf("tool %q", t.Name), x)
		}
	}()
	return t.Execute(ctx, inv)
}

// Finish runs the post-execute waterfall (unless the call failed in the pipeline itself), the
// tool's FinalizeContent and the observers, and returns the final result. A success whose
// caller's context was cancelled by the end of post-execute becomes ABORTED.
func (p *Prepared) Finish() Result {
	if p.stage == stageDispatch {
		p.Dispatch()
	}
	if p.stage == stageDone {
		return p.result.clone()
	}
	res := p.result
	if p.inv != nil && p.inv.run.empty() {
		p.inv = nil // nothing deferred: skip the merge below
	}
	if p.inv != nil {
		rc := p.inv.run
		rc.mu.Lock()
		res.AdditionalContexts = append(append([]ContextMessage(nil), rc.contexts...), res.AdditionalContexts...)
		res.ConcludesTurn = rc.concludes && !res.IsError
		rc.mu.Unlock()
	}
	if p.stage == stagePost && len(p.post) > 0 { // checked here: runPost's closure moves res to the heap
		p.event(StagePostExecute)
		res = p.runPost(res)
	}
	if !res.IsError && p.ctx.Err() != nil {
		// The caller was cancelled before the result became final (while post-execute ran, or
		// while a committing caller such as the bridge held the result): the call is aborted,
		// whatever post-execute decided. Contexts already attached still ride the result.
		contexts := res.AdditionalContexts
		res = aborted(p.ctx)
		res.AdditionalContexts = contexts
	}
	if p.finalize != nil {
		p.event(StageFinalize)
		if content, err := protect("finalizeContent", func() []Content { return p.finalize(p.exec, res.clone()) }); err == nil && content != nil {
			res.Content = append([]Content(nil), content...)
		}
	}
	if res.IsError {
		res.Value, res.Meta, res.ConcludesTurn = jsonv.Value{}, jsonv.Value{}, false
	}
	p.finish(stageDone, res)
	if len(p.observers) > 0 {
		p.event(StageObservers)
	}
	for _, o := range p.observers {
		func() {
			defer func() { _ = recover() }() // an observer cannot change or break the result
			o(p.exec, res.clone())
		}()
	}
	return res.clone()
}

// runPost runs the post-execute waterfall and applies its decision.
func (p *Prepared) runPost(res Result) Result {
	if len(p.post) == 0 {
		return res
	}
	var d PostDecision
	err := func() (err *Error) {
		defer func() {
			if x := recover(); x != nil {
				err = recovered("post-execute listener", x)
			}
		}()
		var next func(i int) PostDecision
		next = func(i int) PostDecision {
			if i == len(p.post) {
				return Accept()
			}
			return p.post[i](p.ctx, p.exec, res.clone(), func() PostDecision { return next(i + 1) })
		}
		d = next(0)
		return nil
	}()
	if err != nil {
		out := errorResult(err)
		out.AdditionalContexts = res.AdditionalContexts
		return out
	}
	contexts := append(append([]ContextMessage(nil), res.AdditionalContexts...), d.contexts...)
	switch d.kind {
	case postAcceptContent:
		res.Content = d.content
	case postAcceptValue:
		if !res.IsError {
			p.r.mu.RLock()
			e := p.r.resolve(p.exec.Name, p.exec.Scope)
			p.r.mu.RUnlock()
			if e == nil {
				res = errorResult(p.r.unknownTool(p.exec.Name))
			} else {
				concludes := res.ConcludesTurn
				res = p.accept(e, d.value)
				res.ConcludesTurn = concludes && !res.IsError
			}
		}
	case postBlock:
		msg := TextOf(d.feedback)
		if strings.TrimSpace(msg) == "" {
			msg = "tool result blocked by post-execute policy"
		}
		res = errorResult(&Error{Message: msg})
	}
	res.AdditionalContexts = contexts
	return res
}
