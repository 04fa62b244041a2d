package codemode_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/runcode-dev/runcode/codemode"
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
	return installOn(b, rt, codemode.Options{TracerProvider: tp}, benchTools(n)...)
}

// BenchmarkRunTrivialJSTraced is RunTrivialJS with tracing on (4 spans per run).
func BenchmarkRunTrivialJSTraced(b *testing.B) {
	benchRun(b, tracedBenchRegistry(b, 50), trivialProgram)
}

// BenchmarkSubCallSequentialTraced is SubCallSequential with tracing on (a span per sub-call).
func BenchmarkSubCallSequentialTraced(b *testing.B) {
	benchRun(b, tracedBenchRegistry(b, 1), `for (let i = 0; i < 1000; i++) await tools.echo({x: i}); return 1`)
}
