package registry_test

import (
	"context"
	"slices"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// The pipeline records its stages, in order, as events on the recording span of the call's
// context; a stage that ends the call adds a "rejected" event naming it; a context without a
// recording span gets nothing.
func TestPipelineStagesAreSpanEvents(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	reg := registry.New()
	if _, err := reg.Register(registry.Tool{
		Name: "echo", Description: "Echo.", Parameters: jsonv.MustParse(`{"type":"object"}`), Output: registry.AnyOutput(),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) { return inv.Arguments, nil },
	}); err != nil {
		t.Fatal(err)
	}
	reg.OnPreExecute(func(ctx context.Context, _ registry.Execution, next func() registry.PreDecision) registry.PreDecision {
		return next()
	})
	reg.Guard(func(exec registry.Execution) string {
		if exec.Arguments.Lookup("deny").AsBool() {
			return "denied by the test"
		}
		return ""
	})
	reg.OnPostExecute(func(_ context.Context, _ registry.Execution, _ registry.Result, next func() registry.PostDecision) registry.PostDecision {
		return next()
	})
	reg.OnResult(func(registry.Execution, registry.Result) {})

	run := func(args string) []sdktrace.Event {
		t.Helper()
		exp.Reset()
		ctx, span := tp.Tracer("test").Start(context.Background(), "call")
		reg.Execute(ctx, registry.Call{CallID: "c1", Name: "echo", Arguments: jsonv.MustParse(args)})
		span.End()
		return exp.GetSpans()[0].Events
	}
	names := func(events []sdktrace.Event) []string {
		var out []string
		for _, e := range events {
			out = append(out, e.Name)
		}
		return out
	}
	if got, want := names(run(`{}`)), []string{"pre-execute", "guards", "body", "body.end", "post-execute", "observers"}; !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	denied := run(`{"deny": true}`)
	if got, want := names(denied), []string{"pre-execute", "guards", "rejected", "post-execute", "observers"}; !slices.Equal(got, want) {
		t.Errorf("denied call's events %v, want %v", got, want)
	}
	if attrs := denied[2].Attributes; len(attrs) != 2 || attrs[0].Value.AsString() != "guards" || attrs[1].Value.AsString() != "denied by the test" {
		t.Errorf("rejected event attributes %v", attrs)
	}
	// A cancelled caller ends the call at its creation.
	exp.Reset()
	ctx, span := tp.Tracer("test").Start(context.Background(), "call")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	reg.Execute(cancelled, registry.Call{CallID: "c2", Name: "echo", Arguments: jsonv.MustParse(`{}`)})
	span.End()
	if got := names(exp.GetSpans()[0].Events); !slices.Equal(got, []string{"rejected", "observers"}) {
		t.Errorf("cancelled call's events %v", got)
	}
	// No recording span: no events, no failure.
	if res := reg.Execute(context.Background(), registry.Call{CallID: "c3", Name: "echo", Arguments: jsonv.MustParse(`{}`)}); res.IsError {
		t.Fatal(res.Err.Message)
	}
}
