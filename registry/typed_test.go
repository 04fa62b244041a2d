package registry_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

func typedNullBody(context.Context, *registry.Invocation) (jsonv.Value, error) {
	return jsonv.NullValue(), nil
}

type SearchArgs struct {
	Query   string         `json:"query" minLength:"1" description:"What to look for."`
	Limit   *int           `json:"limit,omitempty" minimum:"1" maximum:"50"`
	Mode    string         `json:"mode,omitempty" enum:"exact,fuzzy"`
	Filters []SearchFilter `json:"filters,omitempty"`
	Meta    map[string]int `json:"meta,omitempty"`
	Since   *time.Time     `json:"since,omitempty"`
	Big     int64          `json:"big,omitempty"`
}

type SearchFilter struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

type SearchHit struct {
	Title string  `json:"title"`
	Score float64 `json:"score" minimum:"0" maximum:"1"`
	Kind  string  `json:"kind" enum:"doc,code"`
}

type SearchOut struct {
	Hits  []SearchHit `json:"hits"`
	Total int         `json:"total"`
}

// searchTool returns a typed tool and a pointer to the number of times its body ran.
func searchTool(t *testing.T, body func(in SearchArgs) (SearchOut, error)) (registry.Tool, *int) {
	t.Helper()
	calls := new(int)
	tool, err := registry.Define(registry.TypedTool[SearchArgs, SearchOut]{
		Name:        "search",
		Description: "Search the corpus.",
		Execute: func(_ context.Context, _ *registry.Invocation, in SearchArgs) (SearchOut, error) {
			*calls++
			return body(in)
		},
		ConcurrencySafe: func(in SearchArgs) bool { return in.Mode != "fuzzy" },
	})
	if err != nil {
		t.Fatal(err)
	}
	return tool, calls
}

func typedCall(reg *registry.Registry, name, args string) registry.Result {
	return reg.Execute(context.Background(), registry.Call{CallID: "c", Name: name, Arguments: jsonv.MustParse(args)})
}

func TestDefineInfersParametersAndOutput(t *testing.T) {
	tool, _ := searchTool(t, nil)
	wantParams := `{"type":"object","properties":{` +
		`"query":{"type":"string","minLength":1,"description":"What to look for."},` +
		`"limit":{"type":["integer","null"],"minimum":1,"maximum":50},` +
		`"mode":{"type":"string","enum":["exact","fuzzy"]},` +
		`"filters":{"type":"array","items":{"type":"object","properties":{"field":{"type":"string"},"value":{"type":"string"}},"required":["field","value"],"additionalProperties":false}},` +
		`"meta":{"type":"object","additionalProperties":{"type":"integer"}},` +
		`"since":{"type":["string","null"],"format":"date-time"},` +
		`"big":{"type":"integer"}},` +
		`"required":["query"],"additionalProperties":false}`
	if got := tool.Parameters.String(); got != wantParams {
		t.Errorf("parameters:\n got %s\nwant %s", got, wantParams)
	}
	wantOutput := `{"type":"object","properties":{` +
		`"hits":{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"},"score":{"type":"number","minimum":0,"maximum":1},"kind":{"type":"string","enum":["doc","code"]}},"required":["title","score","kind"],"additionalProperties":false}},` +
		`"total":{"type":"integer"}},"required":["hits","total"],"additionalProperties":false}`
	if got := tool.Output.Schema.String(); got != wantOutput {
		t.Errorf("output:\n got %s\nwant %s", got, wantOutput)
	}
	if tool.Name != "search" || tool.Description != "Search the corpus." {
		t.Errorf("tool = %+v", tool)
	}
}

func TestDefinePointerInput(t *testing.T) {
	tool, err := registry.Define(registry.TypedTool[*SearchFilter, string]{
		Name: "filter",
		Execute: func(_ context.Context, _ *registry.Invocation, in *SearchFilter) (string, error) {
			return in.Field + "=" + in.Value, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{"field":{"type":"string"},"value":{"type":"string"}},"required":["field","value"],"additionalProperties":false}`
	if got := tool.Parameters.String(); got != want {
		t.Errorf("parameters %s, want %s", got, want)
	}
	res := typedCall(newRegistry(t, tool), "filter", `{"field":"a","value":"b"}`)
	if res.IsError || res.Value.AsString() != "a=b" || registry.TextOf(res.Content) != "a=b" {
		t.Errorf("result = %+v", res)
	}
}

func TestTypedToolExecution(t *testing.T) {
	hit := SearchHit{Title: "Go", Score: 0.5, Kind: "doc"}
	cases := []struct {
		name      string
		args      string
		body      func(SearchArgs) (SearchOut, error)
		wantCode  registry.Code // "" for success or an uncoded failure
		failure   bool          // an uncoded failure
		wantText  string        // the result's text on success, else "|"-separated parts of the error
		wantCalls int
	}{
		{
			name: "success",
			args: `{"query":"go","limit":2,"filters":[{"field":"lang","value":"en"}],"meta":{"a":1},"since":"2024-01-02T03:04:05Z"}`,
			body: func(in SearchArgs) (SearchOut, error) {
				if in.Query != "go" || *in.Limit != 2 || in.Filters[0].Value != "en" || in.Meta["a"] != 1 || in.Since.Year() != 2024 {
					return SearchOut{}, errors.New("bad decoding")
				}
				return SearchOut{Hits: []SearchHit{hit}, Total: 1}, nil
			},
			wantText:  "{\n  \"hits\": [\n    {\n      \"title\": \"Go\",\n      \"score\": 0.5,\n      \"kind\": \"doc\"\n    }\n  ],\n  \"total\": 1\n}",
			wantCalls: 1,
		},
		{
			name:      "nil slice output is []",
			args:      `{"query":"go"}`,
			body:      func(SearchArgs) (SearchOut, error) { return SearchOut{}, nil },
			wantText:  "{\n  \"hits\": [],\n  \"total\": 0\n}",
			wantCalls: 1,
		},
		{
			name:     "every violation with its path",
			args:     `{"limit":0,"mode":"slow","filters":[{"field":1,"value":"x"},{"value":true}],"meta":{"a":"b"},"extra":1}`,
			wantCode: registry.CodeInvalidArgs,
			wantText: `missing required property "query"|"extra" is not a declared property|"filters[0].field" must be a string, got number|` +
				`missing required property "filters[1].field"|"filters[1].value" must be a string, got boolean|"limit"|"meta.a" must be an integer, got string|"mode"`,
		},
		{
			name:     "null for a slice is refused",
			args:     `{"query":"go","filters":null}`,
			wantCode: registry.CodeInvalidArgs,
			wantText: `"filters" must be an array, got null`,
		},
		{
			name:     "decoding failure names the path",
			args:     `{"query":"go","big":1e19}`,
			wantCode: registry.CodeInvalidArgs,
			wantText: `invalid arguments: "big": cannot unmarshal number 10000000000000000000 into Go value of type int64`,
		},
		{
			name:     "time decoding failure names the path",
			args:     `{"query":"go","since":"yesterday"}`,
			wantCode: registry.CodeInvalidArgs,
			wantText: `invalid arguments: "since": parsing time`,
		},
		{
			name:      "output violating an enum tag",
			args:      `{"query":"go"}`,
			body:      func(SearchArgs) (SearchOut, error) { return SearchOut{Hits: []SearchHit{{Kind: "video"}}}, nil },
			wantCode:  registry.CodeInvalidToolOutput,
			wantText:  `"value.hits[0].kind"`,
			wantCalls: 1,
		},
		{
			name:      "output violating a bound",
			args:      `{"query":"go"}`,
			body:      func(SearchArgs) (SearchOut, error) { return SearchOut{Hits: []SearchHit{{Kind: "doc", Score: 2}}}, nil },
			wantCode:  registry.CodeInvalidToolOutput,
			wantText:  `"value.hits[0].score"`,
			wantCalls: 1,
		},
		{
			name: "output that is not JSON",
			args: `{"query":"go"}`,
			body: func(SearchArgs) (SearchOut, error) {
				return SearchOut{Hits: []SearchHit{{Kind: "doc", Score: typedNaN()}}}, nil
			},
			wantCode:  registry.CodeInvalidToolOutput,
			wantText:  `tool "search" returned invalid output`,
			wantCalls: 1,
		},
		{
			name:      "body error",
			args:      `{"query":"go"}`,
			body:      func(SearchArgs) (SearchOut, error) { return SearchOut{}, errors.New("index offline") },
			failure:   true,
			wantText:  "Error: index offline",
			wantCalls: 1,
		},
		{
			name: "coded body error",
			args: `{"query":"go"}`,
			body: func(SearchArgs) (SearchOut, error) {
				return SearchOut{}, registry.NewError(registry.CodeTimeout, "X", "slow")
			},
			wantCode:  registry.CodeTimeout,
			wantText:  "slow",
			wantCalls: 1,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tool, calls := searchTool(t, c.body)
			res := typedCall(newRegistry(t, tool), "search", c.args)
			text := registry.TextOf(res.Content)
			if *calls != c.wantCalls {
				t.Errorf("body ran %d times, want %d", *calls, c.wantCalls)
			}
			if c.failure {
				if !res.IsError || res.Err.Code != "" || text != c.wantText {
					t.Errorf("result = %+v", res)
				}
				return
			}
			if c.wantCode == "" {
				if res.IsError || text != c.wantText {
					t.Errorf("result = %+v\ntext %q\nwant %q", res, text, c.wantText)
				}
				return
			}
			if !res.IsError || !errors.Is(res.Err, c.wantCode) {
				t.Fatalf("result = %+v, want code %s", res, c.wantCode)
			}
			for _, want := range strings.Split(c.wantText, "|") {
				if !strings.Contains(text, want) {
					t.Errorf("error %q\ndoes not mention %q", text, want)
				}
			}
		})
	}
}

func typedNaN() float64 {
	zero := 0.0
	return zero / zero
}

func TestTypedToolConcurrencySafe(t *testing.T) {
	tool, _ := searchTool(t, nil)
	reg := newRegistry(t, tool)
	cases := []struct {
		args string
		want registry.Mode
	}{
		{`{"query":"go"}`, registry.Parallel},
		{`{"query":"go","mode":"exact"}`, registry.Parallel},
		{`{"query":"go","mode":"fuzzy"}`, registry.Exclusive},
		{`{"mode":"exact"}`, registry.Exclusive},                    // invalid: query missing
		{`{"query":"go","big":1e19}`, registry.Exclusive},           // valid but does not decode
		{`{"query":"go","mode":"exact","x":1}`, registry.Exclusive}, // invalid: undeclared property
	}
	for _, c := range cases {
		got := reg.ExecutionMode(registry.Call{CallID: "c", Name: "search", Arguments: jsonv.MustParse(c.args)})
		if got != c.want {
			t.Errorf("ExecutionMode(%s) = %s, want %s", c.args, got, c.want)
		}
	}
}

func TestTypedToolRenderAndPresent(t *testing.T) {
	type In struct {
		Name string `json:"name"`
	}
	type Out struct {
		Greeting string `json:"greeting"`
	}
	tool, err := registry.Define(registry.TypedTool[In, Out]{
		Name: "greet",
		Execute: func(_ context.Context, inv *registry.Invocation, in In) (Out, error) {
			return Out{Greeting: "hello, " + in.Name}, nil
		},
		Render: func(in In, out Out) []registry.Content {
			return []registry.Content{registry.TextContent(out.Greeting + " (for " + in.Name + ")")}
		},
		PresentCall: func(in In) *registry.CallView {
			return &registry.CallView{Card: registry.CardGeneric, Title: "Greet " + in.Name}
		},
		PresentResult: func(in In, res registry.ResultSummary) *registry.ResultView {
			return &registry.ResultView{Card: registry.CardGeneric, Title: "Greeted " + in.Name}
		},
		Timeout: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if tool.Timeout != time.Second {
		t.Errorf("Timeout = %v", tool.Timeout)
	}
	res := typedCall(newRegistry(t, tool), "greet", `{"name":"Ada"}`)
	if res.IsError || registry.TextOf(res.Content) != "hello, Ada (for Ada)" || res.Value.String() != `{"greeting":"hello, Ada"}` {
		t.Errorf("result = %+v", res)
	}
	// Render sees the value it is given, not the body's Go value.
	if got := registry.TextOf(tool.Output.Render(jsonv.MustParse(`{"name":"Bob"}`), jsonv.MustParse(`{"greeting":"hi"}`))); got != "hi (for Bob)" {
		t.Errorf("Render = %q", got)
	}
	// Undecodable input falls back to RenderValue.
	if got := registry.TextOf(tool.Output.Render(jsonv.MustParse(`{"name":1}`), jsonv.MustParse(`{"greeting":"hi"}`))); got != "{\n  \"greeting\": \"hi\"\n}" {
		t.Errorf("fallback Render = %q", got)
	}
	if v := tool.PresentCall(jsonv.MustParse(`{"name":"Ada"}`)); v == nil || v.Title != "Greet Ada" {
		t.Errorf("PresentCall = %+v", v)
	}
	if v := tool.PresentCall(jsonv.MustParse(`[]`)); v != nil {
		t.Errorf("PresentCall of undecodable arguments = %+v", v)
	}
	if v := tool.PresentResult(jsonv.MustParse(`{"name":"Ada"}`), registry.ResultSummary{}); v == nil || v.Title != "Greeted Ada" {
		t.Errorf("PresentResult = %+v", v)
	}
	if v := tool.PresentResult(jsonv.MustParse(`"x"`), registry.ResultSummary{}); v != nil {
		t.Errorf("PresentResult of undecodable arguments = %+v", v)
	}
}

func TestTypedToolWithoutOptionalCallbacks(t *testing.T) {
	tool, err := registry.Define(registry.TypedTool[struct{}, any]{
		Name:    "noop",
		Execute: func(context.Context, *registry.Invocation, struct{}) (any, error) { return nil, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if tool.ConcurrencySafe != nil || tool.PresentCall != nil || tool.PresentResult != nil {
		t.Errorf("optional callbacks set: %+v", tool)
	}
	if tool.Parameters.String() != `{"type":"object","properties":{},"additionalProperties":false}` || tool.Output.Schema.String() != `{}` {
		t.Errorf("schemas %s %s", tool.Parameters, tool.Output.Schema)
	}
	reg := newRegistry(t, tool)
	if res := typedCall(reg, "noop", `{}`); res.IsError || res.Value.String() != "null" {
		t.Errorf("result = %+v", res)
	}
	if mode := reg.ExecutionMode(registry.Call{Name: "noop", Arguments: jsonv.MustParse(`{}`)}); mode != registry.Exclusive {
		t.Errorf("mode = %s", mode)
	}
}

func TestTypedToolReturningJSONValue(t *testing.T) {
	tool := registry.MustDefine(registry.TypedTool[SearchFilter, jsonv.Value]{
		Name: "raw",
		Execute: func(_ context.Context, _ *registry.Invocation, in SearchFilter) (jsonv.Value, error) {
			if in.Field == "none" {
				return jsonv.Value{}, nil
			}
			return jsonv.MustParse(`{"z":1,"a":2}`), nil
		},
	})
	reg := newRegistry(t, tool)
	if res := typedCall(reg, "raw", `{"field":"f","value":"v"}`); res.IsError || res.Value.String() != `{"z":1,"a":2}` {
		t.Errorf("result = %+v", res)
	}
	if res := typedCall(reg, "raw", `{"field":"none","value":"v"}`); !errors.Is(res.Err, registry.CodeInvalidToolOutput) {
		t.Errorf("undefined value: result = %+v", res)
	}
}

type (
	unexported   struct{ Secret string }
	HiddenPtr    struct{ *unexported }
	SelfDecoding struct{ X int }
)

func (s *SelfDecoding) UnmarshalJSON([]byte) error { return nil }

func TestDefineErrors(t *testing.T) {
	cases := []struct {
		name string
		def  func() (registry.Tool, error)
		want string
	}{
		{"nil Execute", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[SearchFilter, string]{Name: "x"})
		}, `tool "x": Execute must not be nil`},
		{"non-struct input", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[string, string]{Name: "x", Execute: typedEchoString})
		}, `tool "x": the input type string must be a struct or a pointer to a struct`},
		{"map input", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[map[string]any, string]{Name: "x", Execute: func(context.Context, *registry.Invocation, map[string]any) (string, error) { return "", nil }})
		}, `the input type map[string]interface {} must be a struct`},
		{"self-decoding input", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[SelfDecoding, string]{Name: "x", Execute: func(context.Context, *registry.Invocation, SelfDecoding) (string, error) { return "", nil }})
		}, `implements its own JSON or text decoding`},
		{"channel in input", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[WithChan, string]{Name: "x", Execute: func(context.Context, *registry.Invocation, WithChan) (string, error) { return "", nil }})
		}, `tool "x": parameters: cannot infer a JSON Schema for registry_test.WithChan.Events (chan int): channels have no JSON representation`},
		{"embedded pointer to unexported struct", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[HiddenPtr, string]{Name: "x", Execute: func(context.Context, *registry.Invocation, HiddenPtr) (string, error) { return "", nil }})
		}, `registry_test.HiddenPtr.unexported.Secret (string): encoding/json cannot decode through the embedded pointer to unexported struct *registry_test.unexported`},
		{"func output", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[SearchFilter, func()]{Name: "x", Execute: func(context.Context, *registry.Invocation, SearchFilter) (func(), error) { return nil, nil }})
		}, `tool "x": output: cannot infer a JSON Schema for func(): funcs have no JSON representation`},
		{"complex output field", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[SearchFilter, WithComplex]{Name: "x", Execute: func(context.Context, *registry.Invocation, SearchFilter) (WithComplex, error) {
				return WithComplex{}, nil
			}})
		}, `output: cannot infer a JSON Schema for registry_test.WithComplex.C[key] (complex128)`},
		{"bad tag", func() (registry.Tool, error) {
			return registry.Define(registry.TypedTool[BadPattern, string]{Name: "x", Execute: func(context.Context, *registry.Invocation, BadPattern) (string, error) { return "", nil }})
		}, `field registry_test.BadPattern.S: pattern tag "("`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tool, err := c.def()
			if err == nil {
				t.Fatalf("no error; tool %+v", tool)
			}
			if !errors.Is(err, registry.CodeInvalidDefinition) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q\nwant code %s and %q", err, registry.CodeInvalidDefinition, c.want)
			}
		})
	}
	// HiddenPtr's schema can still be inferred for encoding.
	if _, err := registry.SchemaFor[HiddenPtr](); err != nil {
		t.Errorf("SchemaFor[HiddenPtr]: %v", err)
	}
}

func typedEchoString(_ context.Context, _ *registry.Invocation, s string) (string, error) {
	return s, nil
}

func TestMustDefinePanics(t *testing.T) {
	defer func() {
		if x := recover(); x == nil || !errors.Is(x.(error), registry.CodeInvalidDefinition) {
			t.Errorf("recovered %v", x)
		}
	}()
	registry.MustDefine(registry.TypedTool[string, string]{Name: "x", Execute: typedEchoString})
}

// A recursive input type validates through $defs.
func TestTypedToolRecursiveInput(t *testing.T) {
	tool := registry.MustDefine(registry.TypedTool[Category, int]{
		Name: "count",
		Execute: func(_ context.Context, _ *registry.Invocation, n Category) (int, error) {
			var count func(Category) int
			count = func(n Category) int {
				c := 1
				for _, ch := range n.Children {
					if ch != nil {
						c += count(*ch)
					}
				}
				return c
			}
			return count(n), nil
		},
	})
	reg := newRegistry(t, tool)
	if res := typedCall(reg, "count", `{"name":"a","children":[{"name":"b"},null,{"name":"c","children":[{"name":"d"}]}]}`); res.IsError || res.Value.AsNumber() != 4 {
		t.Errorf("result = %+v", res)
	}
	res := typedCall(reg, "count", `{"name":"a","children":[{"name":"b","children":[{"nom":"d"}]}]}`)
	if !errors.Is(res.Err, registry.CodeInvalidArgs) || !strings.Contains(res.Err.Message, `"children[0].children[0].name"`) || !strings.Contains(res.Err.Message, `"children[0].children[0].nom"`) {
		t.Errorf("result = %+v", res.Err)
	}
}
