package mcpserve_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcpserve"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/typecheck"
)

// outcomeSchema compiles the outputSchema cs's run_code declares.
func outcomeSchema(t *testing.T, cs *mcp.ClientSession) *jsonschema.Schema {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].OutputSchema == nil {
		t.Fatalf("tools = %+v, want run_code with an outputSchema", list.Tools)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("run_code-output.json", list.Tools[0].OutputSchema); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("run_code-output.json")
	if err != nil {
		t.Fatalf("the declared outputSchema does not compile: %v", err)
	}
	return s
}

// structured returns res's structuredContent as the client decoded it, checked against schema.
func structured(t *testing.T, schema *jsonschema.Schema, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	m, ok := res.StructuredContent.(map[string]any)
	if !ok {
		t.Fatalf("structuredContent = %#v, want an object", res.StructuredContent)
	}
	if err := schema.Validate(m); err != nil {
		t.Fatalf("structuredContent %v does not satisfy the declared outputSchema: %v", m, err)
	}
	return m
}

// outcomeRegistry is a registry with one tool (add) and run_code on a runtime with cfg.
func outcomeRegistry(t *testing.T, cfg jsruntime.Config, checker codemode.TypeChecker) *registry.Registry {
	t.Helper()
	return outcomeRegistryWith(t, cfg, codemode.Options{TypeChecker: checker})
}

// outcomeRegistryWith is outcomeRegistry with Code Mode's options.
func outcomeRegistryWith(t *testing.T, cfg jsruntime.Config, opts codemode.Options) *registry.Registry {
	t.Helper()
	reg := registry.New()
	if _, err := reg.Register(registry.MustDefine(registry.TypedTool[srvAddIn, srvAddOut]{
		Name:        "add",
		Description: "Add two integers.",
		Execute: func(_ context.Context, _ *registry.Invocation, in srvAddIn) (srvAddOut, error) {
			return srvAddOut{Sum: in.A + in.B}, nil
		},
	})); err != nil {
		t.Fatal(err)
	}
	installCodeMode(t, reg, cfg, opts)
	return reg
}

// Every run_code result carries the canonical outcome as structuredContent beside the text,
// and the outcome satisfies the outputSchema the tool declares: successes with and without a
// result, and each failure kind a client can meet (worker-exit needs process isolation: see
// cmd/runcode's TestServeHTTPStructuredWorkerExit).
func TestServerStructuredContentMatchesTheOutputSchema(t *testing.T) {
	reg := outcomeRegistry(t, jsruntime.Config{ComputeBudget: 300 * time.Millisecond, MaxOutputBytes: 4096}, nil)
	cs := srvConnect(t, reg, mcpserve.ServerOptions{Structured: mcpserve.StructuredAlways}, nil)
	schema := outcomeSchema(t, cs)
	ctx := context.Background()
	for _, c := range []struct {
		name, code string
		want       map[string]any // compared exactly, except the message's text
		message    string         // the error message contains it
	}{
		{"result", `const { sum } = await tools.add({ a: 2, b: 3 }); console.log("sum", sum); return { sum, ok: true, list: [1, "two", null] };`,
			map[string]any{"logs": []any{"sum 5"}, "result": map[string]any{"sum": 5.0, "ok": true, "list": []any{1.0, "two", nil}}}, ""},
		{"no result", `console.log("only a log");`, map[string]any{"logs": []any{"only a log"}}, ""},
		{"string result", `return "text";`, map[string]any{"logs": []any{}, "result": "text"}, ""},
		{"exception", `console.log("before"); throw new Error("boom");`,
			map[string]any{"logs": []any{"before"}, "error": map[string]any{"kind": "exception"}}, "boom"},
		{"timeout", `console.log("spinning"); for (;;) {}`,
			map[string]any{"logs": []any{"spinning"}, "error": map[string]any{"kind": "timeout"}}, ""},
		{"output-limit", `return "x".repeat(10000);`,
			map[string]any{"logs": []any{}, "error": map[string]any{"kind": "output-limit"}}, ""},
		{"invalid-output", `const o: any = {}; o.self = o; return o;`,
			map[string]any{"logs": []any{}, "error": map[string]any{"kind": "invalid-output"}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := srvCallRunCode(ctx, cs, c.code)
			if err != nil {
				t.Fatal(err)
			}
			got := structured(t, schema, res)
			checkOutcome(t, got, c.want, c.message)
			_, failed := c.want["error"]
			if res.IsError != failed {
				t.Fatalf("isError %v for %v", res.IsError, got)
			}
			// The text is still the model-facing rendering.
			text := strings.Join(srvTexts(res), "\n")
			if failed && !strings.HasPrefix(text, "Error: code run failed ("+c.name+")") {
				t.Fatalf("text = %q", text)
			}
		})
	}
}

// checkOutcome compares an outcome with want; an error's message is only checked to contain
// message (and to be there).
func checkOutcome(t *testing.T, got, want map[string]any, message string) {
	t.Helper()
	if e, ok := got["error"].(map[string]any); ok {
		msg, _ := e["message"].(string)
		if msg == "" || !strings.Contains(msg, message) {
			t.Fatalf("error message = %q, want one containing %q", msg, message)
		}
		trimmed := map[string]any{}
		for k, v := range got {
			trimmed[k] = v
		}
		trimmed["error"] = map[string]any{"kind": e["kind"]}
		got = trimmed
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("structuredContent = %#v, want %#v", got, want)
	}
}

// Calls that run no program carry a failure of their own kind, also within the schema: bad
// arguments, a call refused while the server drains, and a run aborted by the drain.
func TestServerStructuredContentOfCallsThatRanNoProgram(t *testing.T) {
	f := newSrvFixture(t)
	gate := mcpserve.NewRunGate()
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{Gate: gate, Structured: mcpserve.StructuredAlways}, nil)
	schema := outcomeSchema(t, cs)
	ctx := context.Background()
	for _, args := range []map[string]any{
		{"code": "return 1"},
		{"code": "return 1", "description": "  "},
		{"code": 42, "description": "a number for code"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		got := structured(t, schema, res)
		checkOutcome(t, got, map[string]any{"logs": []any{}, "error": map[string]any{"kind": "invalid-arguments"}}, "")
		if !res.IsError {
			t.Fatalf("%v: isError false", args)
		}
	}

	// A run in flight when the drain's time is up ends as aborted, with its logs.
	inFlight := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := srvCallRunCode(ctx, cs, `console.log("waiting"); return await tools.wait({ millis: 0 });`)
		if err != nil {
			t.Error(err)
		}
		inFlight <- res
	}()
	<-f.started
	expired, cancel := context.WithCancel(ctx)
	cancel()
	if err := gate.Drain(expired); !errors.Is(err, context.Canceled) {
		t.Fatalf("Drain = %v", err)
	}
	got := structured(t, schema, <-inFlight)
	checkOutcome(t, got, map[string]any{"logs": []any{"waiting"}, "error": map[string]any{"kind": "abort"}}, "the server shut down")

	res, err := srvCallRunCode(ctx, cs, "return 1")
	if err != nil {
		t.Fatal(err)
	}
	got = structured(t, schema, res)
	checkOutcome(t, got, map[string]any{"logs": []any{}, "error": map[string]any{"kind": "shutting-down"}}, "retry on another server or later")
	if text := strings.Join(srvTexts(res), ""); !res.IsError || text != mcpserve.ShuttingDown {
		t.Fatalf("refused call: %q (isError %v)", text, res.IsError)
	}
}

// A program that does not typecheck fails with kind typecheck (with the real compiler).
func TestServerStructuredContentOfATypecheckFailure(t *testing.T) {
	checker, err := typecheck.New(typecheck.Options{})
	if errors.Is(err, typecheck.ErrNoCompiler) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer checker.Close()
	cs := srvConnect(t, outcomeRegistry(t, jsruntime.Config{}, checker), mcpserve.ServerOptions{Structured: mcpserve.StructuredAlways}, nil)
	schema := outcomeSchema(t, cs)
	res, err := srvCallRunCode(context.Background(), cs, `const n: number = (await tools.add({ a: 1, b: 2 })).total; return n;`)
	if err != nil {
		t.Fatal(err)
	}
	checkOutcome(t, structured(t, schema, res), map[string]any{"logs": []any{}, "error": map[string]any{"kind": "typecheck"}}, "main.ts:1:")
}

// Images and deferred contexts still follow the text; structuredContent holds only the outcome.
func TestServerStructuredContentBesideImages(t *testing.T) {
	f := newSrvFixture(t)
	cs := srvConnect(t, f.reg, mcpserve.ServerOptions{Structured: mcpserve.StructuredAlways}, nil)
	schema := outcomeSchema(t, cs)
	res, err := srvCallRunCode(context.Background(), cs, `const name = await tools.screenshot({}); return "took " + name;`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 3 {
		t.Fatalf("content = %#v", res.Content)
	}
	if _, ok := res.Content[2].(*mcp.ImageContent); !ok {
		t.Fatalf("third block = %#v, want the image", res.Content[2])
	}
	checkOutcome(t, structured(t, schema, res), map[string]any{"logs": []any{}, "result": "took shot.png"}, "")
}

// The declared schema is not vacuous: it refuses what no outcome looks like.
func TestOutputSchemaRefusesMalformedOutcomes(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(mcpserve.OutputSchema), &doc); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("s.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("s.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		`{}`,
		`{"logs":"x"}`,
		`{"logs":[1]}`,
		`{"logs":[],"result":1,"error":{"kind":"exception","message":"m"}}`,
		`{"logs":[],"error":{"kind":"exception"}}`,
		`{"logs":[],"error":{"kind":"exception","message":"m","extra":1}}`,
		`{"logs":[],"other":1}`,
	} {
		var v any
		json.Unmarshal([]byte(bad), &v)
		if schema.Validate(v) == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
}
