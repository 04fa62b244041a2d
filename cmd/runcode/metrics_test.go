package main

import (
	"context"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/mcpserve"
	"github.com/runcode-dev/runcode/registry"
)

// A sub-call of a name that is no tool is counted under tool "(unknown)": the name comes from
// the caller and must not become a label value of its own (series without bound). Known tools
// keep their names; top-level calls are not sub-calls.
func TestSubCallMetricsBoundTheToolLabel(t *testing.T) {
	m := newServeMetrics(mcpserve.NewRunGate(), nil)
	reg := registry.New()
	defer reg.OnResult(m.observeSubCall)()
	if _, err := reg.Register(
		registry.Tool{Name: "echo", Parameters: jsonv.MustParse(`{"type":"object"}`), Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue("hi"), nil
		}},
		registry.Tool{Name: "outer", Parameters: jsonv.MustParse(`{"type":"object"}`), Output: registry.AnyOutput(), Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			for _, name := range []string{"echo", "no-such-tool-1", "no-such-tool-2"} {
				reg.Execute(ctx, registry.Call{Name: name, Arguments: jsonv.ObjectValue(), Parent: inv.Token, RootCallID: inv.RootCallID})
			}
			return jsonv.StringValue("done"), nil
		}},
	); err != nil {
		t.Fatal(err)
	}
	if res := reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: "outer", Arguments: jsonv.ObjectValue()}); res.IsError {
		t.Fatalf("outer: %+v", res.Err)
	}
	want := `
# HELP runcode_subcalls_total Tool calls made by programs, by tool and outcome: ok, error (the tool failed), or the pipeline's error code in lower case (invalid_args, timeout, aborted, …).
# TYPE runcode_subcalls_total counter
runcode_subcalls_total{outcome="ok",tool="echo"} 1
runcode_subcalls_total{outcome="unknown_tool",tool="(unknown)"} 2
`
	if err := testutil.CollectAndCompare(m.subCalls, strings.NewReader(want)); err != nil {
		t.Fatal(err)
	}
}
