package registry

import (
	"context"
	"sync"

	"github.com/runcode-dev/runcode/jsonv"
)

// hook is one registered hook; its pointer identity is what its remover removes.
type hook[T any] struct{ fn T }

// addHook appends fn to list under r.mu and returns its idempotent remover.
func addHook[T any](r *Registry, list *[]*hook[T], fn T) func() {
	h := &hook[T]{fn: fn}
	r.mu.Lock()
	*list = append(*list, h)
	r.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			for i, x := range *list {
				if x == h {
					*list = append((*list)[:i:i], (*list)[i+1:]...)
					return
				}
			}
		})
	}
}

// snapshot copies the functions of list; callers hold r.mu.
func snapshot[T any](list []*hook[T]) []T {
	if len(list) == 0 {
		return nil
	}
	out := make([]T, len(list))
	for i, h := range list {
		out[i] = h.fn
	}
	return out
}

// GuardFunc is a monotonic guard, checked after the pre-execute waterfall and before the body.
// A non-empty reason denies the call; "" leaves the decision alone. A guard has no way to
// allow, so no later guard or listener can overturn a denial.
type GuardFunc func(exec Execution) (reason string)

// Guard registers a guard for every call (a Scope's guards apply only to its calls). Guards run
// global first, then those of the call's scope chain from the farthest ancestor to the scope;
// the first reason wins. The returned function removes the guard.
func (r *Registry) Guard(g GuardFunc) (remove func()) {
	return addHook(r, &r.guards, g)
}

// PreDecision is the verdict of the pre-execute waterfall. Build it with Allow, Deny or Ask.
type PreDecision struct {
	kind   preKind
	reason string
	code   Code // of a denial; empty for a policy's plain Deny
}

type preKind uint8

const (
	preAllow preKind = iota
	preDeny
	preAsk
)

// Allow lets the call proceed (to the guards).
func Allow() PreDecision { return PreDecision{kind: preAllow} }

// Deny refuses the call with reason, which becomes the error message.
func Deny(reason string) PreDecision { return PreDecision{kind: preDeny, reason: reason} }

// Ask sends the call to the Approver; only an AllowedOnce answer lets it proceed. reason,
// optional, is shown to the approver and used as the denial message when there is none.
func Ask(reason string) PreDecision { return PreDecision{kind: preAsk, reason: reason} }

// PreExecuteFunc is one listener of the pre-execute waterfall. It may return its own decision,
// or call next to get the decision of the listeners after it (Allow when there are none) and
// return it or another. Arguments cannot be rewritten: they are already logged and shown.
type PreExecuteFunc func(ctx context.Context, exec Execution, next func() PreDecision) PreDecision

// OnPreExecute appends a listener to the pre-execute waterfall; listeners run in registration
// order (the first is outermost). A panicking listener fails the call with its message,
// without post-execute. The returned function removes the listener.
func (r *Registry) OnPreExecute(fn PreExecuteFunc) (remove func()) {
	return addHook(r, &r.pre, fn)
}

// Approval is an Approver's answer.
type Approval uint8

// The approval answers. Only AllowedOnce lets a call proceed.
const (
	AllowedOnce Approval = iota + 1
	Rejected
	Cancelled
	Unavailable
)

// Approver decides calls the pre-execute waterfall answered with Ask. Approve may block (for
// a person to answer) and must honour ctx.
type Approver interface {
	Approve(ctx context.Context, exec Execution, reason string) Approval
}

// ExplainingApprover is an Approver that can say why it did not allow a call. When the
// registry's Approver implements it, ApproveExplained is called instead of Approve, and a
// non-empty why replaces the registry's message of the denial (which still carries the code
// APPROVAL_DENIED): for example, that the client cannot ask a person and how to approve the
// tool instead.
type ExplainingApprover interface {
	Approver
	ApproveExplained(ctx context.Context, exec Execution, reason string) (answer Approval, why string)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, exec Execution, reason string) Approval

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, exec Execution, reason string) Approval {
	return f(ctx, exec, reason)
}

// WrapFunc is an around-dispatch wrapper: it runs around the body and everything inside it
// and returns the result. It may call next with a context of its own (to add values or a
// deadline for the delegated lifetime); the registry still cancels the body when the caller's
// context is cancelled, so a wrapper cannot detach the call from its caller.
type WrapFunc func(ctx context.Context, exec Execution, next func(ctx context.Context) Result) Result

// WrapExecute appends an around-dispatch wrapper; the first registered is outermost. A
// panicking wrapper fails the call with its message, without post-execute. The returned
// function removes the wrapper.
func (r *Registry) WrapExecute(fn WrapFunc) (remove func()) {
	return addHook(r, &r.wrappers, fn)
}

// PostDecision is the verdict of the post-execute waterfall. Build it with Accept,
// AcceptContent, AcceptValue or Block, and add contexts with WithContexts.
type PostDecision struct {
	kind     postKind
	content  []Content
	value    jsonv.Value
	feedback []Content
	contexts []ContextMessage
}

type postKind uint8

const (
	postAccept postKind = iota
	postAcceptContent
	postAcceptValue
	postBlock
)

// Accept keeps the result.
func Accept() PostDecision { return PostDecision{kind: postAccept} }

// AcceptContent keeps the result's value and replaces its model-facing content. This changes
// what the model reads, not what a program receives.
func AcceptContent(content ...Content) PostDecision {
	return PostDecision{kind: postAcceptContent, content: append([]Content(nil), content...)}
}

// AcceptValue replaces a successful result's value. The new value is validated against the
// tool's output schema and rendered again; an invalid one makes the call fail with
// INVALID_TOOL_OUTPUT. On a failed result it is ignored.
func AcceptValue(v jsonv.Value) PostDecision { return PostDecision{kind: postAcceptValue, value: v} }

// Block turns the result into a failure whose message is the text of feedback (blocks joined
// by newlines; a non-text block reads "[<type> content]").
func Block(feedback ...Content) PostDecision {
	return PostDecision{kind: postBlock, feedback: append([]Content(nil), feedback...)}
}

// WithContexts returns d with context messages to attach to the result.
func (d PostDecision) WithContexts(msgs ...ContextMessage) PostDecision {
	d.contexts = append(append([]ContextMessage(nil), d.contexts...), msgs...)
	return d
}

// PostExecuteFunc is one listener of the post-execute waterfall: it sees the result and may
// return its own decision or call next for the decision of the listeners after it (Accept when
// there are none).
type PostExecuteFunc func(ctx context.Context, exec Execution, res Result, next func() PostDecision) PostDecision

// OnPostExecute appends a listener to the post-execute waterfall; the first registered is
// outermost. A panicking listener fails the call with its message. The returned function
// removes the listener.
func (r *Registry) OnPostExecute(fn PostExecuteFunc) (remove func()) {
	return addHook(r, &r.post, fn)
}

// ObserverFunc sees every final result. It receives copies: it cannot change the result.
type ObserverFunc func(exec Execution, res Result)

// OnResult registers an observer of final results, called in registration order after
// FinalizeContent. A panicking observer is contained: the result and the other observers are
// unaffected. The returned function removes the observer.
func (r *Registry) OnResult(fn ObserverFunc) (remove func()) {
	return addHook(r, &r.observers, fn)
}
