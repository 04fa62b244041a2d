// Package replay re-runs a Code Mode program against a recorded trace instead of its tools: an
// Executor answers each sub-call with the outcome recorded for it, so that a program can be
// debugged, tested or changed without touching the tools again (no tool runs, no tool source
// needs to be up, writing tools are safe).
//
//	rp, err := replay.Load("run.jsonl") // a `runcode run --trace` file
//	cm, err := codemode.New(reg, codemode.Options{Executor: rp})
//	out, err := cm.Run(ctx, codemode.Program{Code: program})
//	err = rp.Check() // nil when the run used the whole recording and never diverged
//
// [Load] reads a trace file and [New] takes events already read ([bridge.ReadEvents]); the
// [Executor] is passed as codemode.Options.Executor; [Executor.Tools] declares the recorded tools
// for a registry that has none; [Executor.Check] reports how the replay went.
//
// The Executor is a bridge.Executor, so the bridge cannot tell it from the registry: sub-call
// ids, scheduling, events, the program's values and ToolCallErrors are those of a real run.
// The n-th sub-call the program makes (in submission order) gets the outcome of the n-th
// recorded sub-call when their tool names are equal and their arguments are equal as JSON
// values (object member order does not matter; numbers compare by value). The first sub-call
// that does not match fails with a ToolCallError whose message starts with "replay:" and names
// the expected and the actual call; every later one fails too, naming that divergence, since
// the recording no longer says what they would have got.
//
// A recording is one run's dispatch events: what codemode.Options.Events receives, or a
// `runcode run --trace` file read with bridge.ReadEvents. An Executor replays one run.
package replay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// ErrDiverged is what a DivergenceError wraps: errors.Is(err, ErrDiverged) tests for one.
var ErrDiverged = errors.New("replay diverged from the recording")

// DivergenceError is the first sub-call a replayed program made that the recording does not
// answer.
type DivergenceError struct {
	// Index is the sub-call's position in submission order, from 1.
	Index int
	// Expected is the recorded call at that position ("" when the recording has no more
	// calls); Actual is the program's call. Both read tools.name({...}).
	Expected, Actual string
	// Reason says why, when the names and arguments matched but the recording cannot answer.
	Reason string
}

// Error returns the message the program's ToolCallError carries.
func (e *DivergenceError) Error() string {
	switch {
	case e.Reason != "":
		return fmt.Sprintf("replay: sub-call %d %s: %s", e.Index, e.Actual, e.Reason)
	case e.Expected == "":
		return fmt.Sprintf("replay: sub-call %d diverged from the recording: expected no more calls (the recording has %d), got %s", e.Index, e.Index-1, e.Actual)
	}
	return fmt.Sprintf("replay: sub-call %d diverged from the recording: expected %s, got %s", e.Index, e.Expected, e.Actual)
}

// Unwrap returns ErrDiverged.
func (e *DivergenceError) Unwrap() error { return ErrDiverged }

// Call is one recorded sub-call: its start event and, when it settled, its settle event.
type Call struct {
	Start  bridge.Event
	Settle *bridge.Event // nil: the recording ends before the call settled
}

// Executor answers sub-calls from a recording. Create it with New or Load; hand it to
// codemode.Options.Executor. Its methods are safe for concurrent use.
type Executor struct {
	calls  []Call
	names  []string           // tool names in order of first use
	spaces map[string]string  // the recorded namespace of each namespaced name
	inner  *registry.Registry // one tool per name, whose body answers from the recording

	mu       sync.Mutex
	next     int                      // sub-calls prepared so far
	diverged *DivergenceError         // the first divergence, if any
	steps    map[registry.Token]*step // prepared, not finalized
}

// step is what one prepared sub-call will get: the recorded call, or a failure.
type step struct {
	rec *Call
	err error
}

// New returns an Executor replaying events: one run's dispatch events in the order they were
// emitted. Each start event is one recorded sub-call, in order (except the sub-calls of a
// recorded sub-call, such as the tool calls of a saved program's nested run, whose call is
// answered as a whole); a settle event belongs to the
// start with its sub-call id. It fails on a settle without a start and on a sub-call id that
// starts twice.
func New(events []bridge.Event) (*Executor, error) {
	e := &Executor{inner: registry.New(), steps: map[registry.Token]*step{}, spaces: map[string]string{}}
	index := map[string]int{}
	seen := map[string]bool{}
	// nested holds the sub-calls made by recorded sub-calls (a saved program's run): the call
	// that made them is answered as a whole, so they are not replayed.
	nested := map[string]bool{}
	for i, ev := range events {
		if ev.Binding != "" {
			continue // a state operation: no tool ran it, and the replayed run has no store to match
		}
		switch ev.Type {
		case bridge.EventStart:
			if _, inner := index[ev.ParentCallID]; inner || nested[ev.ParentCallID] {
				nested[ev.SubCallID] = true
				continue
			}
			if _, dup := index[ev.SubCallID]; dup {
				return nil, fmt.Errorf("replay: event %d: sub-call %s starts twice", i+1, ev.SubCallID)
			}
			index[ev.SubCallID] = len(e.calls)
			e.calls = append(e.calls, Call{Start: ev})
			if !seen[ev.Name] {
				seen[ev.Name] = true
				e.names = append(e.names, ev.Name)
				if ev.Namespace != "" {
					e.spaces[ev.Name] = ev.Namespace
				}
			}
		case bridge.EventSettle:
			if nested[ev.SubCallID] {
				continue
			}
			n, ok := index[ev.SubCallID]
			if !ok {
				return nil, fmt.Errorf("replay: event %d: sub-call %s settles without a start event", i+1, ev.SubCallID)
			}
			if e.calls[n].Settle != nil {
				return nil, fmt.Errorf("replay: event %d: sub-call %s settles twice", i+1, ev.SubCallID)
			}
			settle := ev
			e.calls[n].Settle = &settle
		case bridge.EventRunStart, bridge.EventRunEnd:
			// The recorded program and outcome: a replay runs the program it is given.
		default:
			return nil, fmt.Errorf("replay: event %d: unknown event type %q", i+1, ev.Type)
		}
	}
	return e, nil
}

// Load reads a `runcode run --trace` file and returns an Executor replaying it.
func Load(path string) (*Executor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	events, err := bridge.ReadEvents(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return New(events)
}

// Calls returns the recorded sub-calls in submission order.
func (e *Executor) Calls() []Call { return append([]Call(nil), e.calls...) }

// Names returns the recorded tool names in order of first use.
func (e *Executor) Names() []string { return append([]string(nil), e.names...) }

// Tools declares the recorded tool names, for a registry that has no other source of them: each
// accepts any arguments and returns any JSON value. Programs see them in the tools namespace,
// a tool recorded in a registry namespace as tools.<namespace>.<member> again;
// their bodies refuse to run, since a replay answers every sub-call through the Executor.
func (e *Executor) Tools() []registry.Tool {
	tools := make([]registry.Tool, len(e.names))
	for i, name := range e.names {
		tools[i] = registry.Tool{
			Name:        name,
			Namespace:   e.spaces[name],
			Description: "Replayed from a recorded trace.",
			Output:      registry.AnyOutput(),
			Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
				return jsonv.Value{}, fmt.Errorf("tool %q is declared from a recorded trace and cannot run (a replay answers its calls)", name)
			},
		}
	}
	return tools
}

// Classify classifies every call as Parallel: a replayed body returns at once, and the order
// of answers is the submission order whatever the mode.
func (e *Executor) Classify(call registry.Call) (registry.Mode, registry.Call) {
	return registry.Parallel, call
}

// Prepare matches call with the next recorded sub-call and prepares its answer. The bridge
// prepares calls in submission order, so this is where a call gets its position.
func (e *Executor) Prepare(ctx context.Context, call registry.Call) *registry.Prepared {
	e.mu.Lock()
	st := e.match(call)
	if _, ok := e.inner.Get(call.Name, nil); !ok {
		// A name the recording does not know still gets a tool, so that its call fails with
		// the divergence rather than as an unknown tool.
		_, _ = e.inner.Register(e.tool(call.Name))
	}
	e.mu.Unlock()
	// The inner registry has no hooks and no scopes: the outer registry's policy does not
	// apply to calls no tool runs for, and the recording carries its verdicts.
	p := e.inner.Prepare(ctx, registry.Call{CallID: call.CallID, RootCallID: call.RootCallID, Name: call.Name, Arguments: call.Arguments, Parent: call.Parent})
	e.mu.Lock()
	e.steps[p.Execution().Token] = st
	e.mu.Unlock()
	return p
}

// match decides what the next sub-call gets. Callers hold mu.
func (e *Executor) match(call registry.Call) *step {
	e.next++
	n := e.next
	// The call is described only when it fails: a matching call costs no rendering.
	failed := func(expected, reason string) *DivergenceError {
		return &DivergenceError{Index: n, Expected: expected, Actual: e.describe(call.Name, call.Arguments), Reason: reason}
	}
	if d := e.diverged; d != nil {
		return &step{err: failed("", fmt.Sprintf("not answered: the replay diverged from the recording at sub-call %d", d.Index))}
	}
	if n > len(e.calls) {
		e.diverged = failed("", "")
		return &step{err: e.diverged}
	}
	rec := &e.calls[n-1]
	if rec.Start.Name != call.Name || !Equal(rec.Start.Arguments, call.Arguments) {
		e.diverged = failed(e.describe(rec.Start.Name, rec.Start.Arguments), "")
		return &step{err: e.diverged}
	}
	switch {
	case rec.Settle == nil:
		return &step{err: failed("", "the recording ends before this call settled, so it has no outcome to replay")}
	case !rec.Settle.IsError && !rec.Settle.Result.IsDefined():
		return &step{err: failed("", "the recording has this call's content but not its result (a trace written before traces carried results); record the run again")}
	}
	return &step{rec: rec}
}

// take removes and returns the step of the prepared call with token tok.
func (e *Executor) take(tok registry.Token, remove bool) *step {
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.steps[tok]
	if remove {
		delete(e.steps, tok)
	}
	return st
}

// tool is the inner registry's tool for name: its body returns the recorded outcome, and its
// final content is the recorded content (what the model saw in the recorded run).
func (e *Executor) tool(name string) registry.Tool {
	return registry.Tool{
		Name:   name,
		Output: registry.AnyOutput(),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			st := e.take(inv.Token, false)
			switch {
			case st == nil:
				return jsonv.Value{}, errors.New("replay: no recorded outcome for this call")
			case st.err != nil:
				return jsonv.Value{}, st.err
			case st.rec.Settle.IsError && st.rec.Settle.ErrorCode != "":
				return jsonv.Value{}, &registry.Error{Code: registry.Code(st.rec.Settle.ErrorCode), Message: st.rec.Settle.ErrorMessage}
			case st.rec.Settle.IsError:
				return jsonv.Value{}, errors.New(st.rec.Settle.ErrorMessage)
			}
			return st.rec.Settle.Result, nil
		},
		FinalizeContent: func(exec registry.Execution, res registry.Result) []registry.Content {
			st := e.take(exec.Token, true)
			if st == nil || st.rec == nil || res.IsError != st.rec.Settle.IsError {
				return nil // a divergence, or a call the end of the run aborted: its own content
			}
			return append([]registry.Content(nil), st.rec.Settle.Content...)
		},
	}
}

// Check reports whether the replay was complete: nil when every recorded sub-call was made,
// in order, with its recorded name and arguments; otherwise the first divergence (a
// *DivergenceError), or an error saying how many recorded sub-calls the program did not make.
// Call it after the run.
func (e *Executor) Check() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.diverged != nil {
		return e.diverged
	}
	if e.next < len(e.calls) {
		return fmt.Errorf("replay: the program made %d of the %d recorded sub-calls; the first one it did not make is %s: %w",
			e.next, len(e.calls), e.describe(e.calls[e.next].Start.Name, e.calls[e.next].Start.Arguments), ErrDiverged)
	}
	return nil
}

// maxDescribedArguments bounds the arguments a divergence message shows of each call.
const maxDescribedArguments = 300

// describe renders a call of name, in the namespace it was recorded in, as a program writes it:
// tools.name({...}) or tools.namespace.member({...}), the arguments cut at
// maxDescribedArguments bytes.
func (e *Executor) describe(name string, args jsonv.Value) string {
	text := "undefined"
	if args.IsDefined() {
		text = args.String()
	}
	if len(text) > maxDescribedArguments {
		cut := maxDescribedArguments
		for cut > 0 && text[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
			cut--
		}
		text = text[:cut] + "…"
	}
	return bridge.ToolPath(e.spaces[name], name) + "(" + text + ")"
}

// Equal reports whether a and b are the same JSON value: objects with the same members in any
// order, arrays with equal items in order, numbers equal by value, strings, booleans and null
// equal as themselves. Undefined equals only Undefined.
func Equal(a, b jsonv.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case jsonv.Undefined, jsonv.Null:
		return true
	case jsonv.Bool:
		return a.AsBool() == b.AsBool()
	case jsonv.Number:
		return a.AsNumber() == b.AsNumber()
	case jsonv.String:
		return a.AsString() == b.AsString()
	case jsonv.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !Equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case jsonv.Object:
		am, bm := a.Members(), b.Members()
		if len(am) != len(bm) {
			return false
		}
		for _, m := range am {
			other, ok := b.Get(m.Key)
			if !ok || !Equal(m.Value, other) {
				return false
			}
		}
		return true
	}
	return false
}
