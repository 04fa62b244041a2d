// Package jsruntime runs one model-written program and reports what it printed and returned.
//
//	rt, err := jsruntime.New(jsruntime.Config{}) // zero values are the documented defaults
//	res, err := rt.Run(ctx, jsruntime.Request{Program: `console.log("hi"); return 1 + 1`})
//	// res.Logs is ["hi"], res.Value is 2; res.Error a *Failure when the program failed
//
// The seam ([Request], [Namespace], [Result], [Failure]) knows nothing about tools: a program sees
// binding namespaces of asynchronous host functions, and yields a JSON completion value, its
// console output, or a failure of one of six kinds. The goja backend ([Goja]) transforms TypeScript
// with esbuild, runs the program as the body of an async function in a fresh goja runtime, drives
// a per-run event loop in which binding calls return promises settled from other goroutines, and
// enforces a busy-time compute budget and a wall-clock ceiling.
//
// Preparing a fresh runtime (guards, console, the binding functions) is most of a short run's
// cost, so Goja prepares the next one in the background after a run takes one (Config.Prewarm),
// for the bindings the previous run had. The built-ins goja lacks (structuredClone,
// TextEncoder, Map.groupBy, …) are added to a run whose program text names them.
//
// # Isolation
//
// Two backends implement Runtime with the same contract and pass the same conformance suite:
//
//   - Goja (New) runs in the calling process: fastest, the default for libraries.
//
//   - ProcessPool (NewProcessPool) runs each program in a warm worker process, the same binary
//     re-executed, under a hard OS memory limit (RLIMIT_DATA on Linux, plus
//     debug.SetMemoryLimit). Host functions stay in the calling process; the worker calls them
//     back over a pipe (length-prefixed binary frames), in program order. A worker that dies ends
//     its run as worker-exit ("worker exited with code <n> before completing") and is replaced.
//
// A binary that uses a ProcessPool must call RunWorkerIfRequested first thing in main (a test
// binary: in TestMain), before anything writes to stdout:
//
//	func main() {
//		jsruntime.RunWorkerIfRequested()
//		...
//	}
//
// # Hostile programs
//
// Programs are hostile. Every run gets a fresh realm; budgets interrupt JavaScript between
// instructions; the call stack is capped (MaxStackDepth); built-ins that allocate in one native
// step (String.prototype.repeat, padStart, padEnd, Array.prototype.join and fill, Array.from,
// typed-array and ArrayBuffer constructors, reached directly or through a prototype's
// constructor) throw a RangeError instead of allocating more than a quarter of MaxHeapBytes;
// built-ins that goja runs recursively in Go or in one long native step (flat, flatMap,
// toLocaleString, JSON.stringify, regexp split, replacement templates, bind, and String's
// localeCompare, normalize, replaceAll, split, trims and case mappings) are replaced or capped
// (GUARDS.md lists every guard and its limit); source text (the program, eval, the Function
// constructors) is measured by a linear scan before any parser sees it (5,000 levels), and JSON
// nests at most jsonv.MaxDepth levels wherever it is parsed, stringified or crosses the seam;
// a regular-expression match that runs 250 ms throws a RangeError (regexp2's
// DefaultMatchTimeout is set once, process-wide, by the first New); a heap watchdog samples
// the process heap every 5ms while runs are live and fails them all as worker-exit when it has
// grown past MaxHeapBytes. Programs that replace globals or prototypes (JSON, Object.keys,
// Array.prototype, Object.prototype, Promise, Symbol, Error) cannot change value validation,
// the output ledger or the injected error classes, which use intrinsics captured before the
// program runs. Close disposes of a runtime: live runs end as abort "runtime disposed".
//
// # Limits of in-process isolation
//
// goja cannot interrupt a native step, and has no heap limit. In-process, therefore:
//
//   - a Go fatal error (a stack overflow or an out-of-memory error) cannot be recovered: a
//     recursive or allocating native path that no guard covers ends the host process (under
//     ProcessPool it ends the worker: worker-exit);
//
//   - string growth by concatenation (let s = "x"; for (;;) s += s) is only caught by the
//     watchdog after the fact: one concatenation allocates before control returns to
//     JavaScript, so the heap overshoots the limit, by up to twice the string's size, and the
//     run ends only when that step returns (measured: 0.2–10s on a loaded 2-core machine);
//
//   - the watchdog's figure is the whole process's heap: the host's own allocations during a
//     run count against it, and concurrent runs are all failed together;
//
//   - a native step that is slow without allocating (a huge sparse array's indexOf, a
//     regular expression on an enormous input below the match timeout) holds its run past the
//     budgets until it returns.
//
// Use ProcessPool where a program must never take the host down: there a stuck step is ended by
// killing the worker (the worker reports the budget failure first), and memory is bounded by the
// OS.
package jsruntime

import (
	"context"

	"go.opentelemetry.io/otel/trace"

	"github.com/runcode-dev/runcode/jsonv"
)

// HostFunc is one binding function. The runtime calls it on its loop goroutine, in the order the
// program makes the calls, with the argument converted to JSON as JSON.stringify gives it
// (undefined members dropped, toJSON called, NaN as null, a Map as {}); an argument for which
// JSON.stringify gives undefined (none, undefined, a function) is the empty object, so f() is
// f({}). An argument that cannot be converted at all (a BigInt, a cycle, a lone surrogate)
// rejects the call with "binding arguments cannot be converted to JSON: argument<path>:
// <why>" and the host function is not called. It must not block: it starts the work and
// reports the outcome by calling settle exactly once, from any goroutine, at any time (a settle
// after the run ended is ignored). A non-nil error rejects the
// program's promise with the namespace's error class and the error's message; the rejection's
// stack names the call (tools.read_file) and the program's frames where it was made. With a nil
// error, a value that cannot reach the program as lossless JSON (Undefined, nested deeper than
// jsonv.MaxDepth, text that is not valid UTF-8) rejects it with "binding resolution must be
// lossless JSON" (and the place, when there is one).
//
// A run whose program succeeded while calls it never awaited are still pending waits up to
// 100ms for them before it ends, so that one failing at once is reported with the other
// unhandled rejections ("Unhandled rejection: <message> (tools.x, main.ts:LINE:COL)"); the
// outcome of a call settled after that is the host's to report.
//
// ctx is the run's context; it is cancelled when the run ends.
type HostFunc func(ctx context.Context, args jsonv.Value, settle func(jsonv.Value, error))

// Function is one named member of a namespace. Names are arbitrary strings ("__proto__",
// "my-tool" and "constructor" are ordinary members).
//
// Group, when not empty, makes the function a member of a nested object of the namespace
// instead: Group "memory" puts Name "read_graph" at tools.memory.read_graph. A group object
// behaves like the namespace itself (null prototype, non-writable members in order, the same
// failure for a call of a member it lacks: "tools.memory.red_graph is not a tool (did you mean
// read_graph?)"), and is itself a member of the namespace, at the place of its first function.
// Groups nest one level. A group may not have the name of an ungrouped function of the same
// namespace, and names are unique within a group. A rejection of a grouped function names it
// "<group>.<name>" in its error class's member name property (toolName "memory.read_graph").
type Function struct {
	Name  string
	Group string
	Call  HostFunc
	// Inline, when not nil, is Call for a caller whose goroutine may block: it may do the
	// call's work before it returns, on the calling goroutine, instead of handing it to
	// another goroutine, and it settles exactly once as Call does. A runtime uses it only
	// where it has a goroutine with nothing else to do while the call runs (ProcessPool, from
	// a run's second call on, on the goroutine that reads the worker's frames, for a call
	// with no other frame waiting), which saves a goroutine hand-off per call; Goja never uses
	// it. The runtime keeps the run abandonable: when the run must end, or the call has run
	// 2–4ms (the program may be making other calls meanwhile), it stops waiting for Inline to
	// return and goes on reading on another goroutine. A goroutine it left in Inline is the
	// function's owner's to account for, like the work Call starts.
	Inline HostFunc
}

// ErrorClass describes the error class a namespace's rejections are instances of, e.g.
// {Name: "ToolCallError", MemberNameProperty: "toolName"}.
type ErrorClass struct {
	Name               string
	MemberNameProperty string
}

// Namespace is one object of binding functions the program sees under Global.
//
// Its functions are Functions, or, for a namespace bound in many runs, Members (prepared once
// with NewMembers) with Dispatch as the host function of all of them: then a run costs the same
// whatever the number of functions, and Functions must be empty. Either way the program sees
// the same object; its functions are built when the program first reads them.
type Namespace struct {
	Global    string
	Functions []Function
	Members   *Members
	Dispatch  Dispatch
	// InlineDispatch, when not nil, is Dispatch for a caller whose goroutine may block, as
	// Function.Inline is Call: it is used where and as Function.Inline is.
	InlineDispatch Dispatch
	ErrorClass     *ErrorClass // nil: rejections are plain Errors
	// MemberNoun is what a member is called in the failure of a program that calls one the
	// namespace lacks: "tool" gives "TypeError: tools.red_file is not a tool (did you mean
	// read_file?)". Empty means "function".
	MemberNoun string
	// Positional, when true, gives the host functions every argument of a call, as the JSON
	// array JSON.stringify makes of them (an argument that is undefined or a function is
	// null), instead of the first argument alone: state.set("k", v) arrives as ["k", v] and
	// state.keys() as []. The conversion and its failures are otherwise those of HostFunc.
	Positional bool
	// ResolveUndefined, when true, lets a host function settle with the Undefined value and
	// no error: the program's promise resolves to undefined (state.get of a missing key)
	// instead of being rejected.
	ResolveUndefined bool
}

// Request is one program to run.
type Request struct {
	// Program is TypeScript or JavaScript source: the body of an async function, so top-level
	// await and return work; or the module form of one, with top-level await and its result as
	// `export default <expr>` (or only `export {}`: no result), which runs as that body on the
	// same lines. Imports, and exports of any other kind, fail as syntax errors.
	Program  string
	Bindings []Namespace
	// OnLog, if set, is given each console line as the run's output admits it (a line cut at
	// the output cap as it was kept): in-process on the run's loop goroutine, under ProcessPool
	// on the goroutine that reads the worker's frames; always before Run returns. It lets a
	// host show a run's output as it is written, or what a run it stopped waiting for (a run
	// stuck in one native step) had written. It must not block.
	OnLog func(line string)
	// Tracer, if set, opens the run's spans (SpanCompile, SpanRun) as children of the span in
	// the context Run is given. Nil traces nothing.
	Tracer trace.Tracer
}

// FailureKind classifies a failed run.
type FailureKind string

// The failure kinds.
const (
	KindException     FailureKind = "exception"
	KindTimeout       FailureKind = "timeout"
	KindAbort         FailureKind = "abort"
	KindWorkerExit    FailureKind = "worker-exit"
	KindInvalidOutput FailureKind = "invalid-output"
	KindOutputLimit   FailureKind = "output-limit"
)

// Failure is why a run failed.
type Failure struct {
	Kind    FailureKind
	Message string
}

// Result is the outcome of one run. Logs are kept whatever the outcome.
type Result struct {
	// Value is the completion value; Undefined when the program returned nothing (or failed).
	Value jsonv.Value
	// Logs are the console lines in emission order.
	Logs []string
	// Notes, whatever the outcome, say where a value silently lost data crossing the boundary
	// as JSON.stringify would serialize it (a Map or a Set became {}, a function was left out),
	// one line each ("Note: result.cache is a Map, which JSON turns into {} (use
	// Object.fromEntries(map) to keep its entries)."), at most one line per value that crossed
	// (the returned value, each binding call's argument), without repeats, at most six in all.
	// They are not charged to the output.
	Notes []string
	// Error is set when the run failed.
	Error *Failure
}

// Runtime runs programs. Run returns a Go error only for misuse of the contract (invalid
// bindings); every program failure is Result.Error.
type Runtime interface {
	Run(ctx context.Context, req Request) (Result, error)
}
