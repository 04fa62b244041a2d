package codemode_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// tracedSetup is a registry with run_code traced into an in-memory exporter, on a runtime of
// the given isolation, with tools.
func tracedSetup(t *testing.T, isolation string, maxParallel int, tools ...registry.Tool) (*registry.Registry, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	rt, err := jsruntime.Open(isolation, 0, jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return installOn(t, rt, codemode.Options{TracerProvider: tp, MaxParallelSubCalls: maxParallel}, tools...), exp
}

func echoTool() registry.Tool {
	return registry.Tool{
		Name: "echo", Description: "Return the arguments.",
		Parameters: jsonv.MustParse(`{"type":"object"}`), Output: registry.AnyOutput(),
		Execute:         func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) { return inv.Arguments, nil },
		ConcurrencySafe: func(jsonv.Value) bool { return true },
	}
}

func failTool() registry.Tool {
	return registry.Tool{
		Name: "fail", Description: "Fail.",
		Parameters: jsonv.MustParse(`{"type":"object"}`), Output: registry.AnyOutput(),
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			return jsonv.Value{}, registry.NewError(registry.CodeTimeout, "ToolTimeoutError", "upstream took too long")
		},
	}
}

// spanIndex finds spans by name and attributes.
type spanIndex []tracetest.SpanStub

func attrOf(s tracetest.SpanStub, key string) (attribute.Value, bool) {
	for _, kv := range s.Attributes {
		if string(kv.Key) == key {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

func str(s tracetest.SpanStub, key string) string {
	v, _ := attrOf(s, key)
	return v.Emit()
}

func (ix spanIndex) named(name string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range ix {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

func (ix spanIndex) one(t *testing.T, name string) tracetest.SpanStub {
	t.Helper()
	got := ix.named(name)
	if len(got) != 1 {
		t.Fatalf("%d spans named %q, want 1; spans: %v", len(got), name, ix.names())
	}
	return got[0]
}

func (ix spanIndex) names() []string {
	var out []string
	for _, s := range ix {
		out = append(out, s.Name)
	}
	return out
}

func (ix spanIndex) byCallID(t *testing.T, id string) tracetest.SpanStub {
	t.Helper()
	for _, s := range ix {
		if str(s, "gen_ai.tool.call.id") == id {
			return s
		}
	}
	t.Fatalf("no span with gen_ai.tool.call.id %q; spans: %v", id, ix.names())
	return tracetest.SpanStub{}
}

func eventNames(s tracetest.SpanStub) []string {
	var out []string
	for _, e := range s.Events {
		out = append(out, e.Name)
	}
	return out
}

// A run with sequential sub-calls, a nested Promise.all and a caught failure gives one run_code
// span, a child span per sub-call in submission order with its ids, outcome and pipeline
// stages, and the runtime's compile and run spans, all in one trace.
func TestTracingSpanTreeOfARun(t *testing.T) {
	for _, isolation := range []string{jsruntime.IsolationInProcess, jsruntime.IsolationProcess} {
		t.Run(isolation, func(t *testing.T) {
			reg, exp := tracedSetup(t, isolation, 0, echoTool(), failTool())
			res := subRun(context.Background(), reg, `
				const a = await tools.echo({n: 1});
				const [b, [c, d]] = await Promise.all([tools.echo({n: 2}), Promise.all([tools.echo({n: 3}), tools.echo({n: 4})])]);
				try { await tools.fail({}); } catch (e) { console.log("caught", e.message); }
				return a.n + b.n + c.n + d.n;`)
			if res.IsError {
				t.Fatal(res.Err.Message)
			}
			ix := spanIndex(exp.GetSpans())
			root := ix.one(t, "execute_tool run_code")
			if root.Parent.IsValid() {
				t.Errorf("run_code span has parent %v, want none", root.Parent)
			}
			for key, want := range map[string]string{
				"gen_ai.tool.name": "run_code", "gen_ai.tool.call.id": "call-1", "runcode.root_call_id": "call-1",
				"runcode.description": "Test sub-calls", "runcode.outcome": "ok", "runcode.sub_calls": "5",
				"gen_ai.operation.name": "execute_tool",
			} {
				if got := str(root, key); got != want {
					t.Errorf("run_code span %s = %q, want %q", key, got, want)
				}
			}
			if root.Status.Code == codes.Error {
				t.Errorf("run_code span status %v, want unset", root.Status)
			}
			wantIDs := []string{"call-1:code:1", "call-1:code:2", "call-1:code:3", "call-1:code:4", "call-1:code:5"}
			for i, id := range wantIDs {
				s := ix.byCallID(t, id)
				if s.Parent.SpanID() != root.SpanContext.SpanID() || s.SpanContext.TraceID() != root.SpanContext.TraceID() {
					t.Errorf("%s: parent %v, want the run_code span %v", id, s.Parent.SpanID(), root.SpanContext.SpanID())
				}
				if got := str(s, "runcode.parent_call_id"); got != "call-1" {
					t.Errorf("%s: runcode.parent_call_id %q", id, got)
				}
				if got := str(s, "runcode.root_call_id"); got != "call-1" {
					t.Errorf("%s: runcode.root_call_id %q", id, got)
				}
				for _, key := range []string{"runcode.queued_ms", "runcode.running_ms"} {
					v, ok := attrOf(s, key)
					if !ok || v.AsFloat64() < 0 {
						t.Errorf("%s: %s = %v (present %v), want a duration", id, key, v.Emit(), ok)
					}
				}
				events := eventNames(s)
				for _, want := range []string{"started", registry.StagePreExecute, registry.StageBody, registry.StageBodyEnd} {
					if !slices.Contains(events, want) {
						t.Errorf("%s: events %v lack %q", id, events, want)
					}
				}
				if i < 4 {
					if s.Name != "execute_tool echo" || str(s, "runcode.outcome") != "ok" || s.Status.Code == codes.Error {
						t.Errorf("%s: %s outcome %q status %v, want execute_tool echo ok", id, s.Name, str(s, "runcode.outcome"), s.Status)
					}
				}
			}
			failed := ix.byCallID(t, "call-1:code:5")
			if failed.Name != "execute_tool fail" || str(failed, "runcode.outcome") != "error" || str(failed, "error.type") != "TIMEOUT" ||
				str(failed, "runcode.error.name") != "ToolTimeoutError" || failed.Status.Code != codes.Error || failed.Status.Description != "upstream took too long" {
				t.Errorf("failed sub-call span: %s outcome %q error.type %q name %q status %v", failed.Name, str(failed, "runcode.outcome"),
					str(failed, "error.type"), str(failed, "runcode.error.name"), failed.Status)
			}
			// Submission order is start order: each sub-call's span starts no earlier than the
			// one before.
			for i := 1; i < len(wantIDs); i++ {
				if ix.byCallID(t, wantIDs[i]).StartTime.Before(ix.byCallID(t, wantIDs[i-1]).StartTime) {
					t.Errorf("%s starts before %s", wantIDs[i], wantIDs[i-1])
				}
			}
			run := ix.one(t, jsruntime.SpanRun)
			if run.Parent.SpanID() != root.SpanContext.SpanID() || str(run, "runcode.isolation") != isolation || str(run, "runcode.outcome") != "ok" {
				t.Errorf("runtime run span: parent %v isolation %q outcome %q", run.Parent.SpanID(), str(run, "runcode.isolation"), str(run, "runcode.outcome"))
			}
			compiles := ix.named(jsruntime.SpanCompile)
			if isolation == jsruntime.IsolationInProcess {
				if len(compiles) != 1 || compiles[0].Parent.SpanID() != root.SpanContext.SpanID() || compiles[0].EndTime.After(run.StartTime) {
					t.Errorf("compile spans %v, want one child of run_code ending before the run", compiles)
				}
			} else if len(compiles) != 0 {
				t.Errorf("%d compile spans under process isolation, want none (the worker compiles)", len(compiles))
			}
			if len(ix) != 1+5+1+len(compiles) {
				t.Errorf("spans %v, want run_code, 5 sub-calls and the runtime's", ix.names())
			}
		})
	}
}

// A program that throws ends the run_code span as failed with the failure kind; a pre-dispatch
// rejection (a guard) shows as a "rejected" stage event.
func TestTracingFailedRunAndRejectedSubCall(t *testing.T) {
	reg, exp := tracedSetup(t, jsruntime.IsolationInProcess, 0, echoTool())
	reg.Guard(func(exec registry.Execution) string {
		if exec.Name == "echo" && exec.Arguments.Lookup("deny").AsBool() {
			return "echo is denied here"
		}
		return ""
	})
	res := subRun(context.Background(), reg, `
		await tools.echo({});
		await tools.echo({deny: true}).catch(() => {});
		throw new Error("boom");`)
	if !res.IsError {
		t.Fatal("the run succeeded")
	}
	ix := spanIndex(exp.GetSpans())
	root := ix.one(t, "execute_tool run_code")
	if str(root, "runcode.outcome") != "exception" || str(root, "error.type") != "CODE_RUN_FAILED" || root.Status.Code != codes.Error ||
		!strings.Contains(root.Status.Description, "boom") || str(root, "runcode.sub_calls") != "2" {
		t.Errorf("run_code span: outcome %q error.type %q status %v sub_calls %q", str(root, "runcode.outcome"), str(root, "error.type"), root.Status, str(root, "runcode.sub_calls"))
	}
	denied := ix.byCallID(t, "call-1:code:2")
	var rejected bool
	for _, e := range denied.Events {
		if e.Name == registry.StageRejected {
			rejected = true
			if fmt.Sprint(e.Attributes) != fmt.Sprint([]attribute.KeyValue{attribute.String("runcode.stage", "guards"), attribute.String("runcode.reason", "echo is denied here")}) {
				t.Errorf("rejected event attributes %v", e.Attributes)
			}
		}
		if e.Name == registry.StageBody {
			t.Errorf("the denied call's span has a body event: %v", eventNames(denied))
		}
	}
	if !rejected || str(denied, "runcode.outcome") != "error" {
		t.Errorf("denied sub-call: events %v outcome %q", eventNames(denied), str(denied, "runcode.outcome"))
	}
	if run := ix.one(t, jsruntime.SpanRun); str(run, "runcode.outcome") != "exception" || run.Status.Code != codes.Error {
		t.Errorf("runtime run span: outcome %q status %v", str(run, "runcode.outcome"), run.Status)
	}
}

// slowTool waits for its call's cancellation, then succeeds (a late success the registry
// makes ABORTED); started receives each call's start.
func slowTool(started chan<- struct{}) registry.Tool {
	return registry.Tool{
		Name: "slow", Description: "Wait for cancellation.",
		Parameters: jsonv.MustParse(`{"type":"object"}`), Output: registry.AnyOutput(),
		Execute: func(ctx context.Context, _ *registry.Invocation) (jsonv.Value, error) {
			select {
			case started <- struct{}{}:
			default:
			}
			<-ctx.Done()
			return jsonv.ObjectValue(), nil
		},
		ConcurrencySafe: func(jsonv.Value) bool { return true },
	}
}

// Cancelling the caller aborts the run: the running sub-call's span ends ABORTED and the
// run_code span's outcome is "abort".
func TestTracingCancelledRun(t *testing.T) {
	started := make(chan struct{}, 1)
	reg, exp := tracedSetup(t, jsruntime.IsolationInProcess, 0, slowTool(started))
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		<-started
		cancel(errors.New("the user pressed stop"))
	}()
	res := subRun(ctx, reg, `await tools.slow({});`)
	if !res.IsError {
		t.Fatal("the run succeeded")
	}
	ix := spanIndex(exp.GetSpans())
	root := ix.one(t, "execute_tool run_code")
	if str(root, "runcode.outcome") != "abort" || str(root, "runcode.sub_calls") != "1" || !strings.Contains(root.Status.Description, "the user pressed stop") {
		t.Errorf("run_code span: outcome %q sub_calls %q status %v", str(root, "runcode.outcome"), str(root, "runcode.sub_calls"), root.Status)
	}
	sub := ix.byCallID(t, "call-1:code:1")
	if str(sub, "runcode.outcome") != "error" || str(sub, "error.type") != "ABORTED" || str(sub, "runcode.error.name") != "AbortError" {
		t.Errorf("running sub-call: outcome %q error.type %q", str(sub, "runcode.outcome"), str(sub, "error.type"))
	}
	if run := ix.one(t, jsruntime.SpanRun); str(run, "runcode.outcome") != "abort" {
		t.Errorf("runtime run span outcome %q", str(run, "runcode.outcome"))
	}
}

// A program that ends while its calls are queued (one at a time) abandons them: the queued
// call's span says "abandoned", has no "started" event, and is still a child of run_code.
func TestTracingAbandonedSubCall(t *testing.T) {
	reg, exp := tracedSetup(t, jsruntime.IsolationInProcess, 1, slowTool(make(chan struct{})))
	res := subRun(context.Background(), reg, `Promise.all([tools.slow({}), tools.slow({})]); throw new Error("stop");`)
	if !res.IsError {
		t.Fatal("the run succeeded")
	}
	ix := spanIndex(exp.GetSpans())
	root := ix.one(t, "execute_tool run_code")
	if str(root, "runcode.outcome") != "exception" || str(root, "runcode.sub_calls") != "2" {
		t.Errorf("run_code span: outcome %q sub_calls %q", str(root, "runcode.outcome"), str(root, "runcode.sub_calls"))
	}
	// The first call may have started before the program threw (then the end of the run
	// aborted it, before or after its body began), or not.
	first, second := ix.byCallID(t, "call-1:code:1"), ix.byCallID(t, "call-1:code:2")
	if o, e := str(first, "runcode.outcome"), str(first, "error.type"); !(o == "error" && (e == "ABORTED" || e == "ABORTED_BEFORE_DISPATCH")) && !(o == "abandoned" && e == "ABORTED_BEFORE_DISPATCH") {
		t.Errorf("first sub-call: outcome %q error.type %q", o, e)
	}
	if str(second, "runcode.outcome") != "abandoned" || str(second, "error.type") != "ABORTED_BEFORE_DISPATCH" || second.Parent.SpanID() != root.SpanContext.SpanID() {
		t.Errorf("queued sub-call: outcome %q error.type %q parent %v", str(second, "runcode.outcome"), str(second, "error.type"), second.Parent.SpanID())
	}
	if slices.Contains(eventNames(second), "started") {
		t.Errorf("the abandoned call has a started event: %v", eventNames(second))
	}
}

// A run_code call made inside the embedder's own span continues its trace; without a
// TracerProvider the run opens no span and records nothing on the embedder's span.
func TestTracingParentSpanAndNoProvider(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	ctx, parent := tp.Tracer("embedder").Start(context.Background(), "agent turn")
	reg := subSetup(t, codemode.Options{}, echoTool())
	if res := subRun(ctx, reg, `await tools.echo({}); await tools.echo({});`); res.IsError {
		t.Fatal(res.Err.Message)
	}
	parent.End()
	spans := spanIndex(exp.GetSpans())
	if len(spans) != 1 {
		t.Fatalf("spans %v, want only the embedder's", spans.names())
	}
	// The run_code call's own pipeline stages are recorded on the caller's span (the registry
	// records on the span of the context a call is made with); its sub-calls' are not.
	if got := eventNames(spans[0]); !slices.Equal(got, []string{registry.StagePreExecute, registry.StageBody, registry.StageBodyEnd}) {
		t.Errorf("embedder span events %v, want the run_code call's stages only", eventNames(spans[0]))
	}

	traced, exp2 := tracedSetup(t, jsruntime.IsolationInProcess, 0, echoTool())
	ctx, parent = tp.Tracer("embedder").Start(context.Background(), "agent turn")
	if res := subRun(ctx, traced, `await tools.echo({});`); res.IsError {
		t.Fatal(res.Err.Message)
	}
	parent.End()
	root := spanIndex(exp2.GetSpans()).one(t, "execute_tool run_code")
	if root.Parent.SpanID() != parent.SpanContext().SpanID() || root.SpanContext.TraceID() != parent.SpanContext().TraceID() {
		t.Errorf("run_code span parent %v, want the embedder's span %v", root.Parent, parent.SpanContext())
	}
}
