package mcpserve_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcpserve"
	"github.com/runcode-dev/runcode/registry"
)

// tracedCodeMode installs run_code in reg, traced into a new in-memory exporter.
func tracedCodeMode(t *testing.T, reg *registry.Registry) *tracetest.InMemoryExporter {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	installCodeMode(t, reg, jsruntime.Config{}, codemode.Options{TracerProvider: tp})
	return exp
}

// The served run_code continues the trace of a client that sends _meta.traceparent: its span
// is a child of the client's span; a call without one starts a new trace.
func TestServerContinuesTraceparentFromMeta(t *testing.T) {
	reg := registry.New()
	exp := tracedCodeMode(t, reg)
	srv, err := mcpserve.NewServer(reg, mcpserve.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	const traceID, spanID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	args := map[string]any{"code": "return 1", "description": "Traced call"}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code", Arguments: args,
		Meta: mcp.Meta{"traceparent": "00-" + traceID + "-" + spanID + "-01", "tracestate": "vendor=x"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_code", Arguments: args}); err != nil {
		t.Fatal(err)
	}
	spans := exp.GetSpans()
	var roots []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == "execute_tool run_code" {
			roots = append(roots, s)
		}
	}
	if len(roots) != 2 {
		t.Fatalf("%d run_code spans, want 2", len(roots))
	}
	continued := roots[0]
	if continued.SpanContext.TraceID().String() != traceID || continued.Parent.SpanID().String() != spanID || !continued.Parent.IsRemote() ||
		continued.SpanContext.TraceState().Get("vendor") != "x" {
		t.Errorf("continued span: trace %s parent %s (remote %v) state %q", continued.SpanContext.TraceID(), continued.Parent.SpanID(),
			continued.Parent.IsRemote(), continued.SpanContext.TraceState())
	}
	fresh := roots[1]
	if fresh.Parent.IsValid() || fresh.SpanContext.TraceID().String() == traceID {
		t.Errorf("a call without traceparent: parent %v trace %s, want a new trace", fresh.Parent, fresh.SpanContext.TraceID())
	}
}
