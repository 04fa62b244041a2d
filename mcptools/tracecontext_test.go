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

// The served run_code continues the trace of a client that sends _meta.traceparent: its span
// is a child of the client's span; a call without one starts a new trace.
func TestServerContinuesTraceparentFromMeta(t *testing.T) {
	reg := registry.New()
	exp := tracedCodeMode(t, reg)
	srv, err := mcptools.NewServer(reg, mcptools.ServerOptions{})
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
