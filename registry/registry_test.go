package registry_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

func echoTool() registry.Tool {
	return registry.Tool{
		Name:        "echo",
		Description: "Echo a value.",
		Parameters:  jsonv.MustParse(`{"type":"object","properties":{"value":{"type":"string"},"n":{"type":"integer","minimum":0}},"required":["value"]}`),
		Output:      registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue("echo:" + inv.Arguments.Lookup("value").AsString()), nil
		},
		ConcurrencySafe: func(jsonv.Value) bool { return true },
	}
}

func newRegistry(t *testing.T, tools ...registry.Tool) *registry.Registry {
	t.Helper()
	reg := registry.New()
	if _, err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestExecuteRunsTheBodyAndRendersTheValue(t *testing.T) {
	reg := newRegistry(t, echoTool())
	res := reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: "echo", Arguments: jsonv.MustParse(`{"value":"hi"}`)})
	if res.IsError || res.Value.AsString() != "echo:hi" || res.Content[0].Text != "echo:hi" {
		t.Fatalf("result = %+v", res)
	}
}

func TestExecuteFailures(t *testing.T) {
	failing := registry.Tool{Name: "fail", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
		return jsonv.Value{}, errors.New("deliberate failure")
	}}
	coded := registry.Tool{Name: "coded", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
		return jsonv.Value{}, registry.NewError(registry.CodeUnknownTool, "X", "expected failure")
	}}
	panicking := registry.Tool{Name: "panic", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
		panic("kaboom")
	}}
	wrongOutput := registry.Tool{Name: "wrong", Output: registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
		return jsonv.Int(1), nil
	}}
	noValue := registry.Tool{Name: "novalue", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
		return jsonv.Value{}, nil
	}}
	reg := newRegistry(t, echoTool(), failing, coded, panicking, wrongOutput, noValue)
	cases := []struct {
		name, tool, args string
		code             registry.Code
		message          string
	}{
		{"unknown tool", "nope", `{}`, registry.CodeUnknownTool, `unknown tool "nope"`},
		{"missing property", "echo", `{}`, registry.CodeInvalidArgs, `invalid arguments: missing required property "value"`},
		{"wrong type", "echo", `{"value":1}`, registry.CodeInvalidArgs, `invalid arguments: "value" must be a string, got number`},
		{"non-object", "echo", `"x"`, registry.CodeInvalidArgs, `invalid arguments: "arguments" must be an object, got string`},
		{"two violations", "echo", `{"value":2,"n":-1}`, registry.CodeInvalidArgs, `invalid arguments: "n": minimum: got -1, want 0; "value" must be a string, got number`},
		{"plain error", "fail", `{}`, "", "deliberate failure"},
		{"coded error", "coded", `{}`, registry.CodeUnknownTool, "expected failure"},
		{"panic", "panic", `{}`, "", `tool "panic" panicked: kaboom`},
		{"invalid output", "wrong", `{}`, registry.CodeInvalidToolOutput, `tool "wrong" returned invalid output: "value" must be a string, got number`},
		{"undefined output", "novalue", `{}`, registry.CodeInvalidToolOutput, `tool "novalue" returned invalid output: value is not lossless JSON`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := reg.Execute(context.Background(), registry.Call{CallID: "c", Name: c.tool, Arguments: jsonv.MustParse(c.args)})
			if !res.IsError || res.Err == nil {
				t.Fatalf("expected failure, got %+v", res)
			}
			if res.Err.Message != c.message {
				t.Errorf("message = %q, want %q", res.Err.Message, c.message)
			}
			if res.Content[0].Text != "Error: "+c.message {
				t.Errorf("content = %q", res.Content[0].Text)
			}
			if c.code != "" && !errors.Is(res.Err, c.code) {
				t.Errorf("errors.Is(%v, %s) = false", res.Err, c.code)
			}
			if c.code == "" && res.Err.Code != "" {
				t.Errorf("unexpected code %s", res.Err.Code)
			}
		})
	}
}

func TestCancellation(t *testing.T) {
	started := make(chan struct{})
	slow := registry.Tool{Name: "slow", Output: registry.AnyOutput(), Execute: func(ctx context.Context, _ *registry.Invocation) (jsonv.Value, error) {
		close(started)
		<-ctx.Done()
		return jsonv.StringValue("finished anyway"), nil
	}}
	reg := newRegistry(t, slow)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := reg.Execute(ctx, registry.Call{CallID: "c", Name: "slow", Arguments: jsonv.MustParse(`{}`)})
	if !errors.Is(res.Err, registry.CodeAbortedBeforeDispatch) || res.Err.Message != "tool call aborted before dispatch" {
		t.Fatalf("pre-cancelled: %+v", res.Err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	res = reg.Execute(ctx, registry.Call{CallID: "c", Name: "slow", Arguments: jsonv.MustParse(`{}`)})
	if !errors.Is(res.Err, registry.CodeAborted) || res.Err.Message != "tool call aborted" {
		t.Fatalf("cancelled while running: %+v", res.Err)
	}
}

func TestInvocationCarriesIdentityAndTokens(t *testing.T) {
	var got registry.Invocation
	probe := registry.Tool{Name: "probe", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		got = *inv
		return jsonv.NullValue(), nil
	}}
	reg := newRegistry(t, probe)
	reg.Execute(context.Background(), registry.Call{CallID: "outer", Name: "probe", Arguments: jsonv.MustParse(`{}`)})
	outer := got
	if outer.RootCallID != "outer" || outer.Token.IsZero() || !outer.Parent.IsZero() {
		t.Fatalf("outer invocation = %+v", outer)
	}
	reg.Execute(context.Background(), registry.Call{CallID: "outer:code:1", RootCallID: "outer", Name: "probe", Arguments: jsonv.MustParse(`{}`), Parent: outer.Token})
	if got.Parent != outer.Token || got.Token == outer.Token || got.RootCallID != "outer" {
		t.Fatalf("nested invocation = %+v", got)
	}
}

func TestRegisterRejectsInvalidDefinitions(t *testing.T) {
	reg := newRegistry(t, echoTool())
	exec := func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.NullValue(), nil }
	cases := []struct {
		tool registry.Tool
		want string
	}{
		{registry.Tool{Name: "", Execute: exec}, "tool name must not be empty"},
		{registry.Tool{Name: "x"}, `tool "x": Execute must not be nil`},
		{registry.Tool{Name: "run_code", Output: registry.AnyOutput(), Execute: exec}, `reserved`},
		{registry.Tool{Name: "echo", Output: registry.AnyOutput(), Execute: exec}, `tool "echo" is already registered in this registry`},
		{registry.Tool{Name: "bad", Output: registry.AnyOutput(), Execute: exec, Parameters: jsonv.MustParse(`{"type":"strin"}`)}, `tool "bad": parameters schema`},
		{registry.Tool{Name: "bad2", Execute: exec, Output: registry.OutputOf(jsonv.MustParse(`[1]`))}, `tool "bad2": output schema must be a JSON object or boolean`},
		{registry.Tool{Name: "noout", Execute: exec}, `tool "noout": must declare Output{Schema, Render}`},
		{registry.Tool{Name: "norender", Execute: exec, Output: registry.Output{Schema: jsonv.MustParse(`{}`)}}, `tool "norender": must declare Output{Schema, Render}`},
		{registry.Tool{Name: "negative", Execute: exec, Output: registry.AnyOutput(), Timeout: -1}, `tool "negative": Timeout must not be negative`},
	}
	for _, c := range cases {
		_, err := reg.Register(c.tool)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Register(%q) = %v, want it to mention %q", c.tool.Name, err, c.want)
		}
		if err != nil && !errors.Is(err, registry.CodeInvalidDefinition) {
			t.Errorf("Register(%q) error is not INVALID_DEFINITION", c.tool.Name)
		}
	}
}

func TestSchemasListsToolsInOrderWithTheTransportLast(t *testing.T) {
	exec := func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.NullValue(), nil }
	reg := newRegistry(t, registry.Tool{Name: "b", Output: registry.AnyOutput(), Execute: exec}, registry.Tool{Name: "a", Output: registry.AnyOutput(), Execute: exec})
	if err := reg.InstallTransport(registry.Tool{Name: registry.ReservedName, Output: registry.AnyOutput(), Execute: exec}); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetDefaultPresentation(registry.PresentBoth); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range reg.Schemas(nil) {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "b,a,run_code" {
		t.Fatalf("Schemas order = %v", names)
	}
	if n := len(reg.SDKSchemas(nil)); n != 2 {
		t.Fatalf("SDKSchemas has %d tools", n)
	}
	if got := reg.Schemas(nil)[0].Parameters.String(); got != `{"type":"object"}` {
		t.Fatalf("default parameters = %s", got)
	}
}

func TestExecutionMode(t *testing.T) {
	exec := func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.NullValue(), nil }
	panicky := registry.Tool{Name: "panicky", Output: registry.AnyOutput(), Execute: exec, ConcurrencySafe: func(jsonv.Value) bool { panic("no") }}
	unsafe := registry.Tool{Name: "unsafe", Output: registry.AnyOutput(), Execute: exec}
	reg := newRegistry(t, echoTool(), panicky, unsafe)
	cases := []struct {
		name, args string
		want       registry.Mode
	}{
		{"echo", `{"value":"x"}`, registry.Parallel},
		{"echo", `{}`, registry.Exclusive},
		{"panicky", `{}`, registry.Exclusive},
		{"unsafe", `{}`, registry.Exclusive},
		{"missing", `{}`, registry.Exclusive},
	}
	for _, c := range cases {
		if got := reg.ExecutionMode(registry.Call{Name: c.name, Arguments: jsonv.MustParse(c.args)}); got != c.want {
			t.Errorf("ExecutionMode(%s %s) = %s, want %s", c.name, c.args, got, c.want)
		}
	}
}

// The call Classify returns carries its argument verdict to the body, but only for the same
// arguments and the same definition: a tool re-registered in between, or arguments replaced,
// are validated again.
func TestClassifiedCallIsValidatedAgainstTheDefinitionItRuns(t *testing.T) {
	schema := func(typ string) registry.Tool {
		return registry.Tool{Name: "t", Output: registry.AnyOutput(),
			Parameters:      jsonv.MustParse(`{"type":"object","properties":{"x":{"type":"` + typ + `"}}}`),
			ConcurrencySafe: func(jsonv.Value) bool { return true },
			Execute:         func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) { return inv.Arguments, nil }}
	}
	run := func(reg *registry.Registry, c registry.Call) registry.Result {
		p := reg.Prepare(context.Background(), c)
		p.Dispatch()
		return p.Finish()
	}
	reg := registry.New()
	unregister, err := reg.Register(schema("number"))
	if err != nil {
		t.Fatal(err)
	}
	mode, valid := reg.Classify(registry.Call{CallID: "1", Name: "t", Arguments: jsonv.MustParse(`{"x":1}`)})
	if mode != registry.Parallel {
		t.Fatalf("mode = %s", mode)
	}
	mode, invalid := reg.Classify(registry.Call{CallID: "2", Name: "t", Arguments: jsonv.MustParse(`{"x":"s"}`)})
	if mode != registry.Exclusive {
		t.Fatalf("mode = %s", mode)
	}
	if res := run(reg, valid); res.IsError {
		t.Fatalf("valid call failed: %s", registry.TextOf(res.Content))
	}
	if res := run(reg, invalid); !errors.Is(res.Err, registry.CodeInvalidArgs) ||
		registry.TextOf(res.Content) != `Error: invalid arguments: "x" must be a number, got string` {
		t.Fatalf("invalid call: %s", registry.TextOf(res.Content))
	}
	replaced := valid
	replaced.Arguments = jsonv.MustParse(`{"x":"s"}`)
	if res := run(reg, replaced); !errors.Is(res.Err, registry.CodeInvalidArgs) {
		t.Fatalf("call with replaced arguments: %s", registry.TextOf(res.Content))
	}
	unregister()
	if _, err := reg.Register(schema("string")); err != nil {
		t.Fatal(err)
	}
	if res := run(reg, valid); !errors.Is(res.Err, registry.CodeInvalidArgs) {
		t.Fatalf("call classified valid before the tool changed: %s", registry.TextOf(res.Content))
	}
	if res := run(reg, invalid); res.IsError {
		t.Fatalf("call classified invalid before the tool changed: %s", registry.TextOf(res.Content))
	}
}

func BenchmarkRegistryExecute(b *testing.B) {
	reg := registry.New()
	if _, err := reg.Register(echoTool()); err != nil {
		b.Fatal(err)
	}
	call := registry.Call{CallID: "c", Name: "echo", Arguments: jsonv.MustParse(`{"value":"x"}`)}
	ctx := context.Background()
	for b.Loop() {
		if res := reg.Execute(ctx, call); res.IsError {
			b.Fatal(res.Err)
		}
	}
}

// benchArgs and benchOut are a small typed tool's input and output.
type benchArgs struct {
	Value string `json:"value"`
	N     int    `json:"n,omitempty" minimum:"0"`
}

type benchOut struct {
	Echo string `json:"echo"`
}

// BenchmarkExecuteTyped is one native Execute of a small typed tool: argument validation,
// decoding into the Go type, the body, conversion and output validation, rendering.
func BenchmarkExecuteTyped(b *testing.B) {
	tool := registry.MustDefine(registry.TypedTool[benchArgs, benchOut]{
		Name: "echo",
		Execute: func(_ context.Context, _ *registry.Invocation, in benchArgs) (benchOut, error) {
			return benchOut{Echo: in.Value}, nil
		},
	})
	reg := registry.New()
	if _, err := reg.Register(tool); err != nil {
		b.Fatal(err)
	}
	call := registry.Call{CallID: "c", Name: "echo", Arguments: jsonv.MustParse(`{"value":"x","n":1}`)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := reg.Execute(ctx, call); res.IsError {
			b.Fatal(res.Err)
		}
	}
}

// TestValidationPathsKeepRootLabel: below the root, a violation's path lost its root label
// ("file" must be a string, where the value is the tool's output). Paths now start at the root
// label as the upstream renders them: value.file, value[1] for outputs; arguments stay bare
// (the upstream's empty root label), with "arguments" naming the root itself.
func TestValidationPathsKeepRootLabel(t *testing.T) {
	returning := func(name, schema, value string) registry.Tool {
		return registry.Tool{Name: name, Output: registry.OutputOf(jsonv.MustParse(schema)),
			Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.MustParse(value), nil }}
	}
	nop := func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.NullValue(), nil }
	args := registry.Tool{Name: "args", Output: registry.AnyOutput(), Execute: nop,
		Parameters: jsonv.MustParse(`{"type":"object","properties":{"file":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}},"required":["file"],"additionalProperties":false}`)}
	reg := newRegistry(t, args,
		returning("object", `{"type":"object","properties":{"file":{"type":"string"}}}`, `{"file":1}`),
		returning("array", `{"type":"array","items":{"type":"integer"}}`, `[1,"x"]`),
		returning("nested", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer","minimum":0},"k":{"enum":["x"]}},"required":["id"],"additionalProperties":false}}}}`,
			`{"a":[{"n":-1,"k":"y","z":0}]}`),
		returning("root", `{"type":"string"}`, `1`))
	cases := []struct{ tool, args, want string }{
		{"object", `{}`, `tool "object" returned invalid output: "value.file" must be a string, got number`},
		{"array", `{}`, `tool "array" returned invalid output: "value[1]" must be an integer, got string`},
		{"nested", `{}`, `tool "nested" returned invalid output: missing required property "value.a[0].id"; ` +
			`"value.a[0].z" is not a declared property (additionalProperties: false); "value.a[0].k" must be one of ["x"]; "value.a[0].n": minimum: got -1, want 0`},
		{"root", `{}`, `tool "root" returned invalid output: "value" must be a string, got number`},
		{"args", `{"file":1,"tags":["a",2]}`, `invalid arguments: "file" must be a string, got number; "tags[1]" must be a string, got number`},
		{"args", `{"x":1}`, `invalid arguments: missing required property "file"; "x" is not a declared property (additionalProperties: false)`},
		{"args", `[]`, `invalid arguments: "arguments" must be an object, got array`},
	}
	for _, c := range cases {
		res := reg.Execute(context.Background(), registry.Call{CallID: "c", Name: c.tool, Arguments: jsonv.MustParse(c.args)})
		if res.Err == nil || res.Err.Message != c.want {
			t.Errorf("%s(%s): %+v\nwant %s", c.tool, c.args, res.Err, c.want)
		}
	}
}
