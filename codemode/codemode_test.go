package codemode_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// setup returns a registry with an echo tool and run_code installed on a real goja runtime.
func setup(t *testing.T, cfg jsruntime.Config, events func(bridge.Event), tools ...registry.Tool) *registry.Registry {
	t.Helper()
	echo := registry.Tool{
		Name:       "echo",
		Parameters: jsonv.MustParse(`{"type":"object","properties":{"value":{"type":"string"}},"required":["value"]}`),
		Output:     registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue("echo:" + inv.Arguments.Lookup("value").AsString()), nil
		},
	}
	rt, err := jsruntime.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return installOn(t, rt, codemode.Options{Events: events}, append([]registry.Tool{echo}, tools...)...)
}

func runCode(reg *registry.Registry, code string) registry.Result {
	return reg.Execute(context.Background(), codemode.Call("call-1", code, "Test the renderer"))
}

func TestRenderingOfTheOuterResult(t *testing.T) {
	reg := setup(t, jsruntime.Config{}, nil)
	cases := []struct {
		code, text, value string
	}{
		{`return {n: 42, ok: true}`, "{\n  \"n\": 42,\n  \"ok\": true\n}", `{"logs":[],"result":{"n":42,"ok":true}}`},
		{`return {}`, "{}", `{"logs":[],"result":{}}`},
		{`return ["x", 2]`, "[\n  \"x\",\n  2\n]", `{"logs":[],"result":["x",2]}`},
		{`return []`, "[]", `{"logs":[],"result":[]}`},
		{`return null`, "null", `{"logs":[],"result":null}`},
		{`return "raw"`, "raw", `{"logs":[],"result":"raw"}`},
		{`const x = 1`, codemode.NoOutput, `{"logs":[]}`},
		{`return ""`, codemode.NoOutput, `{"logs":[],"result":""}`},
		{`console.log("printed"); return "returned"`, "printed\nreturned", `{"logs":["printed"],"result":"returned"}`},
		{`console.log("printed")`, "printed", `{"logs":["printed"]}`},
		{`return 1e21`, "1e+21", `{"logs":[],"result":1e+21}`},
		{`return "<&>\u2028"`, "<&>\u2028", "{\"logs\":[],\"result\":\"<&>\u2028\"}"},
		{`return [[[[[[1, {a: 2}]]]]]]`, "[\n  [\n    [\n      [\n        [\n          [1,{\"a\":2}]\n        ]\n      ]\n    ]\n  ]\n]", `{"logs":[],"result":[[[[[[1,{"a":2}]]]]]]}`},
		{`return await tools.echo({value: "one"})`, "echo:one", `{"logs":[],"result":"echo:one"}`},
	}
	for _, c := range cases {
		t.Run(c.code, func(t *testing.T) {
			res := runCode(reg, c.code)
			if res.IsError {
				t.Fatalf("failed: %s", res.Err.Message)
			}
			if got := res.Content[0].Text; got != c.text {
				t.Errorf("text = %q, want %q", got, c.text)
			}
			if got := res.Value.String(); got != c.value {
				t.Errorf("value = %s, want %s", got, c.value)
			}
		})
	}
}

func TestFailedRunsAreCodedAndKeepTheCapturedOutput(t *testing.T) {
	reg := setup(t, jsruntime.Config{MaxOutputBytes: 200}, nil)
	cases := []struct {
		code string
		kind jsruntime.FailureKind
		text string
	}{
		{`console.log("captured before failure"); throw "bad"`, jsruntime.KindException, "Error: code run failed (exception): bad\nCaptured output:\ncaptured before failure"},
		{`throw "bad"`, jsruntime.KindException, "Error: code run failed (exception): bad"},
		{`return {id: 1n}`, jsruntime.KindInvalidOutput, "Error: code run failed (invalid-output): program completion cannot be converted to JSON: result.id: BigInt, which JSON cannot hold (convert it with String() or Number())"},
		{`return "x".repeat(300)`, jsruntime.KindOutputLimit, "Error: code run failed (output-limit): outer output exceeded 200 bytes"},
	}
	for _, c := range cases {
		t.Run(c.code, func(t *testing.T) {
			res := runCode(reg, c.code)
			if !res.IsError {
				t.Fatalf("succeeded: %s", res.Value)
			}
			if res.Content[0].Text != c.text {
				t.Errorf("text = %q, want %q", res.Content[0].Text, c.text)
			}
			if !errors.Is(res.Err, registry.CodeCodeRunFailed) || res.Err.Name != "CodeRunFailedError" {
				t.Errorf("error = %+v", res.Err)
			}
			var f *codemode.RunFailure
			if !errors.As(res.Err, &f) || f.Kind != c.kind {
				t.Errorf("RunFailure = %+v, want kind %s", f, c.kind)
			}
		})
	}
}

func TestDescriptionMustNotBeBlank(t *testing.T) {
	reg := setup(t, jsruntime.Config{}, nil)
	res := reg.Execute(context.Background(), registry.Call{CallID: "c", Name: registry.ReservedName,
		Arguments: jsonv.MustParse(`{"code":"return 1","description":"   "}`)})
	if !res.IsError || res.Content[0].Text != "Error: invalid description: expected a non-empty string" {
		t.Fatalf("result = %+v", res)
	}
	res = reg.Execute(context.Background(), registry.Call{CallID: "c", Name: registry.ReservedName,
		Arguments: jsonv.MustParse(`{"code":"return 1"}`)})
	if !errors.Is(res.Err, registry.CodeInvalidArgs) || res.Err.Message != `invalid arguments: missing required property "description"` {
		t.Fatalf("result = %+v", res.Err)
	}
}

func TestSubCallsGoThroughTheRegistryWithTheParentToken(t *testing.T) {
	var (
		mu      sync.Mutex
		seen    []registry.Invocation
		outerOf registry.Token
		events  []string
	)
	probe := registry.Tool{Name: "probe", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, *inv)
		return jsonv.StringValue(inv.CallID), nil
	}}
	reg := setup(t, jsruntime.Config{}, func(e bridge.Event) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, e.Type+" "+e.SubCallID)
	}, probe)
	res := runCode(reg, `const a = await tools.probe({}); const b = await tools.probe({}); return [a, b]`)
	if res.IsError {
		t.Fatal(res.Err.Message)
	}
	if got := res.Value.Lookup("result").String(); got != `["call-1:code:1","call-1:code:2"]` {
		t.Fatalf("result = %s", got)
	}
	outerOf = seen[0].Parent
	for _, inv := range seen {
		if inv.Parent.IsZero() || inv.Parent != outerOf || inv.RootCallID != "call-1" {
			t.Fatalf("sub-call invocation = %+v", inv)
		}
	}
	if got := strings.Join(events, ","); got != "code-dispatch-start call-1:code:1,code-dispatch call-1:code:1,code-dispatch-start call-1:code:2,code-dispatch call-1:code:2" {
		t.Fatalf("events = %s", got)
	}
}

func TestToolFailureIsACatchableToolCallError(t *testing.T) {
	fail := registry.Tool{Name: "fail", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
		return jsonv.Value{}, errors.New("deliberate failure")
	}}
	reg := setup(t, jsruntime.Config{}, nil, fail)
	res := runCode(reg, `try { await tools.fail({}) } catch (e) { return [e instanceof ToolCallError, e instanceof Error, e.name, e.toolName, e.message, "code" in e] }`)
	if got := res.Value.Lookup("result").String(); got != `[true,true,"ToolCallError","fail","deliberate failure",false]` {
		t.Fatalf("result = %s (%+v)", got, res.Err)
	}
	res = runCode(reg, `await tools.echo({})`)
	if !strings.HasPrefix(res.Content[0].Text, `Error: code run failed (exception): ToolCallError: invalid arguments: missing required property "value"`) {
		t.Fatalf("uncaught: %q", res.Content[0].Text)
	}
}

func TestPromptSectionDeclaresTheCallableTools(t *testing.T) {
	reg := setup(t, jsruntime.Config{}, nil)
	section := codemode.PromptSection(reg)
	for _, want := range []string{"A run_code program calls these tools", "echo(args: { value: string }): Promise<string>;"} {
		if !strings.Contains(section, want) {
			t.Errorf("section lacks %q", want)
		}
	}
	if strings.Contains(section, "run_code(") {
		t.Error("the SDK declares run_code itself")
	}
	schemas := reg.Schemas(nil)
	last := schemas[len(schemas)-1]
	if last.Name != registry.ReservedName || last.Parameters.Lookup("required").String() != `["code","description"]` {
		t.Fatalf("run_code schema = %+v", last)
	}
}

func TestRenderingOfDeeplyNestedResults(t *testing.T) {
	const depth = 5000
	v, err := jsonv.ParseString(strings.Repeat("[", depth) + strings.Repeat("]", depth))
	if err != nil {
		t.Fatal(err)
	}
	text := codemode.RenderText(jsonv.ObjectValue(jsonv.Member{Key: "logs", Value: jsonv.ArrayValue()}, jsonv.Member{Key: "result", Value: v}))
	if !strings.HasPrefix(text, "[\n  [\n    [") || !strings.HasSuffix(text, "]") || len(text) >= 11000 {
		t.Fatalf("5000 nested arrays render as %d bytes starting %q", len(text), text[:min(len(text), 20)])
	}
	// Through a real run: the program builds the value, the renderer compacts beyond depth five.
	reg := setup(t, jsruntime.Config{}, nil)
	res := runCode(reg, `let v = []; for (let i = 1; i < 5000; i++) v = [v]; return v`)
	if res.IsError || res.Content[0].Text != text {
		t.Fatalf("run: %v, text of %d bytes", res.Err, len(res.Content[0].Text))
	}
}

// TestRunCodeDescriptionKeepsUpstreamOpening (issue 15, point 2): the description may be
// shortened, but it opens with the upstream's words (DECISIONS row 22).
func TestRunCodeDescriptionKeepsUpstreamOpening(t *testing.T) {
	reg := setup(t, jsruntime.Config{}, nil)
	tool, ok := reg.Get(registry.ReservedName, nil)
	if !ok {
		t.Fatal("run_code is not installed")
	}
	if !strings.HasPrefix(tool.Description, "Execute a TypeScript program against the available tools.") {
		t.Fatalf("description: %q", tool.Description)
	}
}

// TestModelContractSaidOnce: what the model must know about run_code (the upstream contract) is
// in run_code's description plus the SDK section, each point once, in text that reads right
// both in a system prompt and as one MCP tool description (the section follows the description
// there).
func TestModelContractSaidOnce(t *testing.T) {
	reg := setup(t, jsruntime.Config{}, nil)
	tool, _ := reg.Get(registry.ReservedName, nil)
	text := tool.Description + "\n\n" + codemode.PromptSection(reg)
	prose, _, _ := strings.Cut(text, "```ts")
	for _, point := range []string{
		"`console.log`",                   // only logs ...
		"returns reaches you",             // ... and the return value reach the model
		"images",                          // image results are forwarded
		"`await tools.name(args)`",        // how to call a tool
		`tools["odd-name"](args)`,         // bracket access for other names
		"`JSON.stringify`",                // how arguments cross
		"rejects with `ToolCallError`",    // how a call fails
		"MAY overlap under `Promise.all`", // the overlap rule
		"submission order",
		"Top-level `await` and `return`",
	} {
		if n := strings.Count(prose, point); n != 1 {
			t.Errorf("%q is said %d times in:\n%s", point, n, prose)
		}
	}
	for _, wrong := range []string{"system prompt", "declared in", "two required arguments"} {
		if strings.Contains(prose, wrong) {
			t.Errorf("the text says %q:\n%s", wrong, prose)
		}
	}
	if len(tool.Description) > 300 {
		t.Errorf("description is %d bytes; keep it short", len(tool.Description))
	}
}
