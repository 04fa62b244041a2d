package codemode_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// TestValuesCrossAsJSONStringify: what the model reads of a returned value, and what a tool
// receives, follow JSON.stringify, in both isolations. A run that returned {a: 1, b: undefined}
// or a Map failed as invalid-output, and `tools.list_dir()` or an argument with an undefined
// member was refused; now the undefined member is dropped, the call gets {}, and a Map arrives
// as {} with one note line (after the result) saying how to keep its entries.
func TestValuesCrossAsJSONStringify(t *testing.T) {
	listDir := registry.Tool{
		Name:       "list_dir",
		Parameters: jsonv.MustParse(`{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}}}`),
		Output:     registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue("args:" + inv.Arguments.String()), nil
		},
	}
	mapNote := "Note: result.counts is a Map, which JSON turns into {} (use Object.fromEntries(map) to keep its entries)."
	argNote := "Note: argument.tags of tools.list_dir is a Set, which JSON turns into {} (use [...set] to keep its values)."
	cases := []struct {
		name, code, text, value string
	}{
		{"undefined member dropped", `return {a: 1, b: undefined}`, "{\n  \"a\": 1\n}", `{"logs":[],"result":{"a":1}}`},
		{"Map with a note", `console.log("counted"); return {counts: new Map([["x", 1]])}`, "counted\n{\n  \"counts\": {}\n}\n" + mapNote,
			`{"logs":["counted"],"result":{"counts":{}},"notes":["` + mapNote + `"]}`},
		{"no argument", `return await tools.list_dir()`, `args:{}`, `{"logs":[],"result":"args:{}"}`},
		{"undefined argument member", `return await tools.list_dir({path: "src", limit: undefined})`, `args:{"path":"src"}`,
			`{"logs":[],"result":"args:{\"path\":\"src\"}"}`},
		{"argument Set with a note", `return await tools.list_dir({tags: new Set(["a"])})`, "args:{\"tags\":{}}\n" + argNote,
			`{"logs":[],"result":"args:{\"tags\":{}}","notes":["` + argNote + `"]}`},
		{"a function alone is a note", `return () => 1`, "Note: the result is a function, which JSON leaves out.",
			`{"logs":[],"notes":["Note: the result is a function, which JSON leaves out."]}`},
	}
	for _, iso := range isolations(t) {
		t.Run(iso.name, func(t *testing.T) {
			reg := installOn(t, iso.rt, codemode.Options{}, listDir)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
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
			// A failed run keeps the notes, after the captured output.
			res := runCode(reg, `await tools.list_dir({tags: new Set(["a"])}); console.log("before"); throw new Error("late")`)
			if !res.IsError {
				t.Fatalf("succeeded: %s", res.Value)
			}
			text := res.Content[0].Text
			if !strings.HasPrefix(text, "Error: code run failed (exception): Error: late\n") || !strings.HasSuffix(text, "\nCaptured output:\nbefore\n"+argNote) {
				t.Errorf("text = %q, want the failure, the captured output, then the note", text)
			}
			if outcome, ok := codemode.CanonicalOutcome(res); !ok || outcome.Lookup("notes").String() != `["`+argNote+`"]` {
				t.Errorf("canonical outcome = %s", outcome)
			}
		})
	}
}

type namedRuntime struct {
	name string
	rt   jsruntime.Runtime
}

// isolations returns a runtime of each isolation, closed when the test ends.
func isolations(t *testing.T) []namedRuntime {
	g, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 1, MemoryLimit: 512 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close(); _ = p.Close() })
	return []namedRuntime{{"inprocess", g}, {"process", p}}
}

// TestNoArgumentTypechecksAndRuns: with the typecheck on, `tools.list_dir()` (every argument
// optional) typechecked as an error, since the SDK required an argument, though the runtime
// would send {}; now typecheck and run agree. A tool with a required property still fails the
// typecheck without an argument, and without the typecheck the same call fails the registry's
// schema validation with its normal error.
func TestNoArgumentTypechecksAndRuns(t *testing.T) {
	tools := []registry.Tool{{
		Name:       "list_dir",
		Parameters: jsonv.MustParse(`{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}}}`),
		Output:     registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue("listed " + inv.Arguments.String()), nil
		},
	}, {
		Name:       "read_file",
		Parameters: jsonv.MustParse(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		Output:     registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue("read"), nil
		},
	}}
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	checked := installOn(t, rt, codemode.Options{TypeChecker: realChecker(t)}, tools...)
	res := runCode(checked, `const limit: number | undefined = undefined; return [await tools.list_dir(), await tools.list_dir({ path: "src", limit })]`)
	if res.IsError {
		t.Fatalf("failed: %s", res.Err.Message)
	}
	if got, want := res.Value.Lookup("result").String(), `["listed {}","listed {\"path\":\"src\"}"]`; got != want {
		t.Errorf("result = %s, want %s", got, want)
	}
	res = runCode(checked, `return await tools.read_file()`)
	var f *codemode.RunFailure
	if !res.IsError || !errors.As(res.Err, &f) || f.Kind != codemode.KindTypecheck || f.Message != "main.ts:1:20: Expected 1 arguments, but got 0." {
		t.Errorf("read_file() = %+v, want the typecheck failure \"Expected 1 arguments, but got 0.\"", res.Err)
	}

	unchecked := installOn(t, rt, codemode.Options{}, tools...)
	res = runCode(unchecked, `try { await tools.read_file() } catch (e) { return [e.name, e.message] }`)
	if got, want := res.Value.Lookup("result").String(), `["ToolCallError","invalid arguments: missing required property \"path\""]`; got != want {
		t.Errorf("read_file() at run time = %s, want %s", got, want)
	}
}
