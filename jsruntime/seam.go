// Package jsruntime runs one model-written program and reports what it printed and returned.
//
// The seam (Request, Namespace, Result, Failure) knows nothing about tools: a program sees
// binding namespaces of asynchronous host functions, and yields a JSON completion value, its
// console output, or a failure of one of six kinds. The goja backend (Goja) transforms TypeScript
// with esbuild, runs the program as the body of an async function in a fresh goja runtime, drives
// a per-run event loop in which binding calls return promises settled from other goroutines, and
// enforces a busy-time compute budget and a wall-clock ceiling.
package jsruntime

import (
	"context"

	"github.com/runcode-dev/runcode/jsonv"
)

// HostFunc is one binding function. The runtime calls it on its loop goroutine, in the order the
// program makes the calls, with the argument already checked to be lossless JSON. It must not
// block: it starts the work and reports the outcome by calling settle exactly once, from any
// goroutine, at any time (a settle after the run ended is ignored). A non-nil error rejects the
// program's promise with the namespace's error class and the error's message.
//
// ctx is the run's context; it is cancelled when the run ends.
type HostFunc func(ctx context.Context, args jsonv.Value, settle func(jsonv.Value, error))

// Function is one named member of a namespace. Names are arbitrary strings ("__proto__",
// "my-tool" and "constructor" are ordinary members).
type Function struct {
	Name string
	Call HostFunc
}

// ErrorClass describes the error class a namespace's rejections are instances of, e.g.
// {Name: "ToolCallError", MemberNameProperty: "toolName"}.
type ErrorClass struct {
	Name               string
	MemberNameProperty string
}

// Namespace is one object of binding functions the program sees under Global.
type Namespace struct {
	Global     string
	Functions  []Function
	ErrorClass *ErrorClass // nil: rejections are plain Errors
}

// Request is one program to run.
type Request struct {
	// Program is TypeScript or JavaScript source: the body of an async function, so top-level
	// await and return work.
	Program  string
	Bindings []Namespace
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
	// Error is set when the run failed.
	Error *Failure
}

// Runtime runs programs. Run returns a Go error only for misuse of the contract (invalid
// bindings); every program failure is Result.Error.
type Runtime interface {
	Run(ctx context.Context, req Request) (Result, error)
}
