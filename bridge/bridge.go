// Package bridge connects one Code Mode run to the tool registry: every SDK call the program
// makes becomes a sub-call through registry.Execute, tagged with the outer call's token as its
// parent and numbered "<outer>:code:<n>" in submission order. The bridge emits a
// code-dispatch-start event when a sub-call starts and a code-dispatch event when it settles,
// and, when the run ends, drains: queued calls are abandoned, in-flight ones are cancelled and
// awaited, so no sub-call outlives its run.
//
// The bridge knows the runtime only through the jsruntime seam (it hands the runtime a
// jsruntime.Namespace) and knows nothing about goja or esbuild.
//
// Sub-calls are dispatched one at a time, in submission order, on one lane goroutine owned by
// the Bridge.
package bridge

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// Executor runs one tool call through the full pipeline; *registry.Registry implements it.
type Executor interface {
	Execute(ctx context.Context, call registry.Call) registry.Result
}

// The event types.
const (
	EventStart  = "code-dispatch-start"
	EventSettle = "code-dispatch"
)

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
	// Events, if set, receives every dispatch event, in order, from the bridge's lane goroutine.
	// It must not block for long: it delays later sub-calls.
	Events func(Event)
}

// Bridge is the dispatch bridge of one run. Create it with New, hand Namespace to the runtime,
// and call Close when the run has ended.
type Bridge struct {
	opts   Options
	ctx    context.Context // the run's context: cancelled when the run is over
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	queue   []*submission
	closing bool
	counter int
	wake    chan struct{}
	done    chan struct{}
}

type submission struct {
	call   registry.Call
	settle func(jsonv.Value, error)
}

// ErrRunSettled is the cancellation cause of a run that ended by itself; its text appears in
// "run_code run is over (run_code settled); …" rejections.
var ErrRunSettled = errors.New("run_code settled")

// New starts the bridge of one run. ctx is the outer call's context: cancelling it cancels
// every in-flight sub-call with the same cause.
func New(ctx context.Context, opts Options) *Bridge {
	if opts.RootCallID == "" {
		opts.RootCallID = opts.CallID
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	b := &Bridge{opts: opts, ctx: runCtx, cancel: cancel, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go b.lane()
	return b
}

// Namespace returns the tools namespace for the runtime: one function per bound tool, and the
// ToolCallError class with its toolName member.
func (b *Bridge) Namespace() jsruntime.Namespace {
	fns := make([]jsruntime.Function, len(b.opts.Tools))
	for i, name := range b.opts.Tools {
		fns[i] = jsruntime.Function{Name: name, Call: b.binding(name)}
	}
	return jsruntime.Namespace{
		Global:     "tools",
		Functions:  fns,
		ErrorClass: &jsruntime.ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"},
	}
}

func (b *Bridge) binding(name string) jsruntime.HostFunc {
	return func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.closing || b.ctx.Err() != nil {
			settle(jsonv.Value{}, b.overError("%s not dispatched", name))
			return
		}
		if !args.IsDefined() {
			settle(jsonv.Value{}, errors.New("tool arguments must be lossless JSON (call the tool with an arguments object, e.g. `{}`)"))
			return
		}
		b.counter++
		b.queue = append(b.queue, &submission{
			call: registry.Call{
				CallID:     b.opts.CallID + ":code:" + strconv.Itoa(b.counter),
				RootCallID: b.opts.RootCallID,
				Name:       name,
				Arguments:  args,
				Scope:      b.opts.Scope,
				Parent:     b.opts.Token,
			},
			settle: settle,
		})
		select {
		case b.wake <- struct{}{}:
		default:
		}
	}
}

// overError is the rejection of a call made, queued or finished after the run was over.
func (b *Bridge) overError(format string, args ...any) error {
	reason := ErrRunSettled.Error()
	if cause := context.Cause(b.ctx); cause != nil {
		reason = cause.Error()
	}
	return fmt.Errorf("run_code run is over (%s); "+format, append([]any{reason}, args...)...)
}

// lane dispatches submissions one at a time in submission order until Close.
func (b *Bridge) lane() {
	defer close(b.done)
	for {
		b.mu.Lock()
		if len(b.queue) == 0 {
			closing := b.closing
			b.mu.Unlock()
			if closing {
				return
			}
			<-b.wake
			continue
		}
		s := b.queue[0]
		b.queue = b.queue[1:]
		b.mu.Unlock()
		if b.ctx.Err() != nil {
			s.settle(jsonv.Value{}, b.overError("%s tool call abandoned", s.call.Name))
			continue
		}
		b.dispatch(s)
	}
}

func (b *Bridge) dispatch(s *submission) {
	c := s.call
	b.emit(Event{Type: EventStart, RootCallID: c.RootCallID, ParentCallID: b.opts.CallID, SubCallID: c.CallID, Name: c.Name, Arguments: c.Arguments})
	res := b.opts.Executor.Execute(b.ctx, c)
	b.emit(Event{Type: EventSettle, RootCallID: c.RootCallID, ParentCallID: b.opts.CallID, SubCallID: c.CallID, Name: c.Name, Arguments: c.Arguments, IsError: res.IsError, Content: res.Content})
	switch {
	case b.ctx.Err() != nil:
		s.settle(jsonv.Value{}, b.overError("%s result discarded", c.Name))
	case res.IsError:
		s.settle(jsonv.Value{}, errors.New(res.Err.Message))
	default:
		s.settle(res.Value, nil)
	}
}

func (b *Bridge) emit(e Event) {
	if b.opts.Events != nil {
		b.opts.Events(e)
	}
}

// Close ends the run: later calls are rejected as not dispatched, queued ones are abandoned,
// the in-flight one is cancelled (cause ErrRunSettled, or the outer cause when the outer context
// was cancelled first) and awaited together with its settle event. Close is idempotent.
func (b *Bridge) Close() {
	b.cancel(ErrRunSettled)
	b.mu.Lock()
	b.closing = true
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
	<-b.done
}
