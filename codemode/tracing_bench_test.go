package codemode_test

import (
	"context"
	"fmt"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// tracedBenchRegistry is benchRegistry with tracing on: the SDK's tracer provider with a batch
// span processor over an exporter that discards the spans, as a production setup pays for
// everything but the network.
func tracedBenchRegistry(b *testing.B, n int) *registry.Registry {
	b.Helper()
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { rt.Close() })
	reg := registry.New()
	for i := range n {
		name := "echo"
		if i > 0 {
			name = fmt.Sprintf("echo%d", i)
		}
		if _, err := reg.Register(registry.Tool{
			Name: name, Description: "Return the arguments.",
			Parameters:      jsonv.MustParse(`{"type":"object","properties":{"x":{"type":"number"}}}`),
			Output:          registry.OutputOf(jsonv.MustParse(`{"type":"object"}`)),
			Execute:         func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) { return inv.Arguments, nil },
			ConcurrencySafe: func(jsonv.Value) bool { return true },
		}); err != nil {
			b.Fatal(err)
		}
	}
	if err := codemode.Install(reg, codemode.Options{Runtime: rt, TracerProvider: tp}); err != nil {
		b.Fatal(err)
	}
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		b.Fatal(err)
	}
	return reg
}

// BenchmarkRunTrivialJSTraced is RunTrivialJS with tracing on (4 spans per run).
func BenchmarkRunTrivialJSTraced(b *testing.B) {
	benchRun(b, tracedBenchRegistry(b, 50), trivialProgram)
}

// BenchmarkSubCallSequentialTraced is SubCallSequential with tracing on (a span per sub-call).
func BenchmarkSubCallSequentialTraced(b *testing.B) {
	benchRun(b, tracedBenchRegistry(b, 1), `for (let i = 0; i < 1000; i++) await tools.echo({x: i}); return 1`)
}
