// Package bridge is what a host sees of the dispatch bridge between a Code Mode run and the tool
// registry: the dispatch events of its sub-calls, how a trace of them reads, and the seam
// through which the sub-calls are executed.
//
//	events, err := bridge.ReadEvents(traceFile) // a `runcode run --trace` file
//	for _, e := range events {
//		fmt.Println(e.SubCallID, e.Name, e.Duration())
//	}
//
// Every SDK call a program makes becomes a sub-call through the registry's staged pipeline,
// tagged with the outer call's token as its parent and numbered "<outer>:code:<n>" in
// submission order. Each sub-call has an [Event] of type [EventStart] when it starts and one of
// type [EventSettle] when it settles; a trace file adds [EventRunStart] and [EventRunEnd] around
// them. A host receives the events as they happen (codemode.Options.Events), reads a trace back
// with [ReadEvents] (or one line with [ParseEvent]), and may reshape the content a settle event
// carries with [LogFunc] listeners (codemode.Options.DispatchLog). [CallPath] and [ToolPath]
// name a call as the program wrote it.
//
// The sub-calls are executed through an [Executor]: *registry.Registry is one, and package
// replay answers them from a recorded trace instead (codemode.Options.Executor).
//
// Hosts never build the bridge itself: codemode makes one per run. Its scheduler (ordered
// starts and commits, the concurrency limit, draining when the run ends) is internal to
// runcode; docs/architecture.md describes its contract.
package bridge

import (
	"context"
	"strconv"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
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

// CallPath is how a program names the top-level tool registered as name: tools.name, or
// tools["name"] when the name is not an identifier.
func CallPath(name string) string { return "tools" + accessor(name) }

// ToolPath is how a program names the tool registered as name in namespace ("" for a
// top-level tool, as CallPath): tools.<namespace>.<member>, each part bracketed when it is not
// an identifier.
func ToolPath(namespace, name string) string {
	if namespace == "" || !strings.HasPrefix(name, namespace+".") {
		return CallPath(name)
	}
	return "tools" + accessor(namespace) + accessor(name[len(namespace)+1:])
}

// accessor is the JavaScript member access of key: .key, or ["key"] when key is not an
// identifier.
func accessor(key string) string {
	for i, c := range key {
		if c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return "[" + strconv.Quote(key) + "]"
	}
	if key == "" {
		return `[""]`
	}
	return "." + key
}
