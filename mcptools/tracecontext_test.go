package mcptools_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcptools"
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

func spanWithCallID(t *testing.T, exp *tracetest.InMemoryExporter, id string) tracetest.SpanStub {
	t.Helper()
	for _, s := range exp.GetSpans() {
		for _, kv := range s.Attributes {
			if kv.Key == "gen_ai.tool.call.id" && kv.Value.AsString() == id {
				return s
			}
		}
	}
	t.Fatalf("no span for call %s", id)
	return tracetest.SpanStub{}
}

// A sub-call to an imported MCP tool carries the sub-call span's context to the MCP server as
// _meta.traceparent, so the server's own spans join the run's trace.
func TestMCPClientPassesTraceparentToTheServer(t *testing.T) {
	got := make(chan any, 1)
	srv := mcp.NewServer(&mcp.Implementation{Name: "probe-server", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "probe", Description: "Report the trace context."},
		func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			got <- req.Params.Meta["traceparent"]
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
	server, reg := importServer(t, mcptools.Source{URL: serveStreamable(t, srv), Name: "probe-server"})
	exp := tracedCodeMode(t, reg)
	res := runInstalled(t, reg, `await tools.probe({})`)
	if res.IsError {
		t.Fatal(res.Err.Message)
	}
	sub := spanWithCallID(t, exp, "run-1:code:1")
	want := fmt.Sprintf("00-%s-%s-01", sub.SpanContext.TraceID(), sub.SpanContext.SpanID())
	if tp := <-got; tp != want {
		t.Fatalf("the server got traceparent %v, want %s (the sub-call's span)", tp, want)
	}

	// Without tracing, nothing is added to the request.
	plain := registry.New()
	if _, err := plain.Register(server.Tools()...); err != nil {
		t.Fatal(err)
	}
	if res := callTool(plain, "probe", `{}`); res.IsError {
		t.Fatal(res.Err.Message)
	}
	if tp := <-got; tp != nil {
		t.Fatalf("an untraced call sent traceparent %v", tp)
	}
}
