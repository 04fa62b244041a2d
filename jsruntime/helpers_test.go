package jsruntime_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// newRuntime returns a runtime for cfg or fails the test.
func newRuntime(t testing.TB, cfg jsruntime.Config) *jsruntime.Goja {
	t.Helper()
	g, err := jsruntime.New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return g
}

// toolsNamespace is the namespace Code Mode passes: "tools" with ToolCallError.
func toolsNamespace(fns ...jsruntime.Function) []jsruntime.Namespace {
	return []jsruntime.Namespace{{
		Global:     "tools",
		Functions:  fns,
		ErrorClass: &jsruntime.ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"},
	}}
}

// run runs program with bindings under a background context and fails on a Go error.
func run(t testing.TB, g *jsruntime.Goja, program string, bindings []jsruntime.Namespace) jsruntime.Result {
	t.Helper()
	res, err := g.Run(context.Background(), jsruntime.Request{Program: program, Bindings: bindings})
	if err != nil {
		t.Fatalf("Run: unexpected Go error: %v", err)
	}
	return res
}

// echo settles inline with its argument.
func echo(name string) jsruntime.Function {
	return jsruntime.Function{Name: name, Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
		settle(args, nil)
	}}
}

// failing settles inline with an error.
func failing(name, message string) jsruntime.Function {
	return jsruntime.Function{Name: name, Call: func(_ context.Context, _ jsonv.Value, settle func(jsonv.Value, error)) {
		settle(jsonv.Value{}, errors.New(message))
	}}
}

// never never settles.
func never(name string) jsruntime.Function {
	return jsruntime.Function{Name: name, Call: func(context.Context, jsonv.Value, func(jsonv.Value, error)) {}}
}

// counting wraps fn and counts calls that reach the host.
func counting(fn jsruntime.Function, n *atomic.Int32) jsruntime.Function {
	call := fn.Call
	fn.Call = func(ctx context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
		n.Add(1)
		call(ctx, args, settle)
	}
	return fn
}

// asyncHost runs host work on goroutines the test owns: Wait blocks until all have finished.
type asyncHost struct{ wg sync.WaitGroup }

// fn returns a function whose work runs on a new goroutine: work's result settles the call.
func (h *asyncHost) fn(name string, work func(ctx context.Context, args jsonv.Value) (jsonv.Value, error)) jsruntime.Function {
	return jsruntime.Function{Name: name, Call: func(ctx context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			settle(work(ctx, args))
		}()
	}}
}

func (h *asyncHost) Wait() { h.wg.Wait() }

// wantFailure checks the kind and exact message of a failed result.
func wantFailure(t *testing.T, res jsruntime.Result, kind jsruntime.FailureKind, message string) {
	t.Helper()
	if res.Error == nil {
		t.Fatalf("want %s failure %q, got success %v (logs %q)", kind, message, res.Value, res.Logs)
	}
	if res.Error.Kind != kind || res.Error.Message != message {
		t.Fatalf("want %s failure %q, got %s %q", kind, message, res.Error.Kind, res.Error.Message)
	}
	if res.Value.IsDefined() {
		t.Errorf("failed result has a value %v", res.Value)
	}
}

// wantValue checks a successful result's value as compact JSON.
func wantValue(t *testing.T, res jsruntime.Result, want string) {
	t.Helper()
	if res.Error != nil {
		t.Fatalf("want value %s, got %s failure %q (logs %q)", want, res.Error.Kind, res.Error.Message, res.Logs)
	}
	if got := res.Value.String(); got != want {
		t.Fatalf("value = %s, want %s", got, want)
	}
}
