package codemode_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/typecheck"
)

// typecheckSetup returns a registry with run_code checking programs with checker, and a tool
// "record" that counts its calls.
func typecheckSetup(t *testing.T, checker codemode.TypeChecker, compactAbove int) (*registry.Registry, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	record := registry.Tool{
		Name:        "record",
		Description: "Record a number.",
		Parameters:  jsonv.MustParse(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"],"additionalProperties":false}`),
		Output:      registry.OutputOf(jsonv.MustParse(`{"type":"number"}`)),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			calls.Add(1)
			return inv.Arguments.Lookup("n"), nil
		},
	}
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	return installOn(t, rt, codemode.Options{TypeChecker: checker, CompactAbove: compactAbove}, record), &calls
}

func realChecker(t *testing.T) *typecheck.Checker {
	t.Helper()
	c, err := typecheck.New(typecheck.Options{})
	if errors.Is(err, typecheck.ErrNoCompiler) {
		t.Skipf("no TypeScript compiler: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func wantTypecheckFailure(t *testing.T, res registry.Result, message string) {
	t.Helper()
	var f *codemode.RunFailure
	if !res.IsError || !errors.As(res.Err, &f) {
		t.Fatalf("want a run failure, got %+v", res)
	}
	if f.Kind != codemode.KindTypecheck || f.Message != message {
		t.Fatalf("failure %s: %q, want typecheck: %q", f.Kind, f.Message, message)
	}
}

func TestTypecheckFailsTheRunBeforeAnyToolCall(t *testing.T) {
	reg, calls := typecheckSetup(t, realChecker(t), 0)
	// The first call would run (and be recorded) if the program ran at all.
	res := runCode(reg, "await tools.record({ n: 1 });\nconst s: string = await tools.record({ n: 2 });\nawait tools.record({ n: \"3\" });\nreturn s;")
	wantTypecheckFailure(t, res, "main.ts:2:7: Type 'number' is not assignable to type 'string'.\n"+
		"main.ts:3:22: Type 'string' is not assignable to type 'number'.")
	if n := calls.Load(); n != 0 {
		t.Fatalf("the tool was called %d times", n)
	}
	// The same errors in module form, on the same lines.
	res = runCode(reg, "await tools.record({ n: 1 });\nconst s: string = await tools.record({ n: 2 });\nawait tools.record({ n: \"3\" });\nexport default s;")
	wantTypecheckFailure(t, res, "main.ts:2:7: Type 'number' is not assignable to type 'string'.\n"+
		"main.ts:3:22: Type 'string' is not assignable to type 'number'.")
	if n := calls.Load(); n != 0 {
		t.Fatalf("the tool was called %d times", n)
	}
	// A program that typechecks runs, in both forms, with the same result.
	for _, code := range []string{"const n = await tools.record({ n: 2 });\nreturn n * 2;", "const n = await tools.record({ n: 2 });\nexport default n * 2;"} {
		res = runCode(reg, code)
		if res.IsError || res.Value.String() != `{"logs":[],"result":4}` {
			t.Fatalf("%q: %+v", code, res)
		}
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("the tool was called %d times, want 2", n)
	}
}

// A program that names a file outside itself fails its typecheck at that line, before the
// compiler runs and before any tool is called, in both forms.
func TestTypecheckRefusesReferencesToOtherFiles(t *testing.T) {
	reg, calls := typecheckSetup(t, realChecker(t), 0)
	res := runCode(reg, "await tools.record({ n: 1 });\ntype T = typeof import(\"/etc/hostname\");\nreturn 1;")
	wantTypecheckFailure(t, res, "main.ts:2:17: `import(`: triple-slash directives and imports are not supported: "+
		"a program is typechecked on its own against the SDK, whose tools are the global `tools`, and may not name other files or modules")
	res = runCode(reg, "/// <reference path=\"/etc/hostname\" />\nawait tools.record({ n: 1 });\nexport default 1;")
	wantTypecheckFailure(t, res, "main.ts:1:1: `/// <reference path`: triple-slash directives and imports are not supported: "+
		"a program is typechecked on its own against the SDK, whose tools are the global `tools`, and may not name other files or modules")
	if n := calls.Load(); n != 0 {
		t.Fatalf("the tool was called %d times", n)
	}
}

func TestTypecheckCompactPresentationKnowsTheCatalog(t *testing.T) {
	reg, _ := typecheckSetup(t, realChecker(t), 1) // every tool set is compact
	res := runCode(reg, "const d: string = await catalog.describe('record');\nconst n: number = await tools.record({ n: 1 });\nreturn [d.length > 0, n];")
	if res.IsError {
		t.Fatalf("failed: %v", res.Err)
	}
}

// recordingChecker is a TypeChecker double that records what it is asked and answers fixed
// problems or a fixed error.
type recordingChecker struct {
	calls        atomic.Int32
	declarations string
	problems     []string
	err          error
}

func (c *recordingChecker) CheckProgram(_ context.Context, declarations, _ string) ([]string, error) {
	c.calls.Add(1)
	c.declarations = declarations
	return c.problems, c.err
}

func TestTypecheckerThatCannotCheckFailsTheRun(t *testing.T) {
	checker := &recordingChecker{err: errors.New("compiler crashed")}
	reg, calls := typecheckSetup(t, checker, 0)
	res := runCode(reg, "await tools.record({ n: 1 })")
	wantTypecheckFailure(t, res, "the program could not be typechecked: compiler crashed")
	if calls.Load() != 0 {
		t.Fatal("a program that was not checked ran")
	}
	if !strings.Contains(checker.declarations, "record") {
		t.Fatalf("the checker did not get the SDK: %q", checker.declarations)
	}
}

func TestNoTypecheckerChecksNothing(t *testing.T) {
	reg, calls := typecheckSetup(t, nil, 0)
	res := runCode(reg, "const s: string = await tools.record({ n: 1 });\nreturn s;")
	if res.IsError || calls.Load() != 1 {
		t.Fatalf("an unchecked program did not run: %+v", res)
	}
}

// The declarations a typecheck uses follow the registry: a tool registered after a run is
// known to the next run's check.
func TestTypecheckSeesRegistryChanges(t *testing.T) {
	reg, _ := typecheckSetup(t, realChecker(t), 0)
	if res := runCode(reg, "return await tools.record({ n: 1 });"); res.IsError {
		t.Fatalf("failed: %v", res.Err)
	}
	later := registry.Tool{
		Name:       "later",
		Parameters: jsonv.MustParse(`{"type":"object","properties":{},"additionalProperties":false}`),
		Output:     registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue("late"), nil
		},
	}
	if _, err := reg.Register(later); err != nil {
		t.Fatal(err)
	}
	res := runCode(reg, "const s: string = await tools.later({});\nreturn s;")
	if res.IsError || res.Value.String() != `{"logs":[],"result":"late"}` {
		t.Fatalf("%+v", res)
	}
}

// The web globals the runtime adds (timers, URL, crypto, performance, console.table) are known to
// the check, typed as Node's typings type them.
func TestTypecheckKnowsTheWebGlobals(t *testing.T) {
	reg, _ := typecheckSetup(t, realChecker(t), 0)
	program := `await new Promise((r) => setTimeout(r, 1));
const t = setTimeout((a: string) => {}, 1, "x");
clearTimeout(t);
const i = setInterval(() => {}, 1);
clearInterval(i);
const u = new URL("https://example.com/a?b=1");
u.searchParams.append("c", "2");
const p = new URLSearchParams({ x: "y" });
const bytes: Uint8Array = crypto.getRandomValues(new Uint8Array(4));
const id: string = crypto.randomUUID();
const ms: number = performance.now();
console.table([{ a: 1 }]);
export default [u.href, p.toString(), bytes.length, id.length, ms >= 0, URL.canParse("x")];`
	res := runCode(reg, program)
	if res.IsError || res.Value.String() != `{"logs":["┌─────────┬───┐\n│ (index) │ a │\n├─────────┼───┤\n│ 0       │ 1 │\n└─────────┴───┘"],"result":["https://example.com/a?b=1&c=2","x=y",4,36,true,false]}` {
		t.Fatalf("%+v", res)
	}
}

// Every built-in the runtime adds beyond goja (polyfills) is known to the check, so a program
// that uses them typechecks and runs.
func TestTypecheckKnowsTheRuntimeBuiltins(t *testing.T) {
	reg, _ := typecheckSetup(t, realChecker(t), 0)
	program := `const g = Object.groupBy([1, 2, 3], (n) => (n % 2 ? "odd" : "even"));
const m = Map.groupBy([1, 2], (n) => n);
const { promise, resolve } = Promise.withResolvers<number>();
resolve(1);
const arr = await Array.fromAsync([Promise.resolve(1)]);
const s: symbol = Symbol.asyncIterator;
const c = structuredClone({ a: 1 });
const bytes: Uint8Array = new TextEncoder().encode("x");
const text: string = new TextDecoder().decode(bytes);
queueMicrotask(() => {});
const b: string = btoa("x") + atob("eA==");
export default [g.odd?.length, m.size, await promise, arr, typeof s, c, text, b];`
	res := runCode(reg, program)
	if res.IsError || res.Value.String() != `{"logs":[],"result":[2,2,1,[1],"symbol",{"a":1},"x","eA==x"]}` {
		t.Fatalf("%+v", res)
	}
}

// A typecheck failure is under the output cap like any other output: 20,000 errors at a 1 KiB
// cap keep the first errors whole and count the rest, within the cap (issue 24, item 13).
func TestTypecheckFailureIsCutToTheOutputCap(t *testing.T) {
	problems := make([]string, 20000)
	for i := range problems {
		problems[i] = fmt.Sprintf("main.ts:%d:5: Type 'string' is not assignable to type 'number'.", i+1)
	}
	rt, err := jsruntime.New(jsruntime.Config{MaxOutputBytes: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	reg := installOn(t, rt, codemode.Options{TypeChecker: &recordingChecker{problems: problems}})
	res := runCode(reg, "return 1")
	var f *codemode.RunFailure
	if !errors.As(res.Err, &f) || f.Kind != codemode.KindTypecheck {
		t.Fatalf("want a typecheck failure, got %+v", res)
	}
	if n := 2 + jsonv.StringByteLen(f.Message); n > 1<<10 {
		t.Fatalf("the failure takes %d bytes of JSON, over the 1 KiB cap: %.200q…", n, f.Message)
	}
	lines := strings.Split(f.Message, "\n")
	if len(lines) < 2 || lines[0] != problems[0] {
		t.Fatalf("the first error is not kept whole: %q", f.Message)
	}
	kept := len(lines) - 1
	for i, l := range lines[:kept] {
		if l != problems[i] {
			t.Fatalf("line %d = %q, want %q", i, l, problems[i])
		}
	}
	if want := fmt.Sprintf("… and %d more type errors (the output is capped at 1024 bytes)", len(problems)-kept); lines[kept] != want {
		t.Fatalf("last line = %q, want %q", lines[kept], want)
	}
}

// An error longer than the whole cap is cut to fit.
func TestTypecheckFailureOfOneHugeErrorIsCut(t *testing.T) {
	rt, err := jsruntime.New(jsruntime.Config{MaxOutputBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	reg := installOn(t, rt, codemode.Options{TypeChecker: &recordingChecker{problems: []string{strings.Repeat("é\"", 500)}}})
	var f *codemode.RunFailure
	if res := runCode(reg, "return 1"); !errors.As(res.Err, &f) {
		t.Fatalf("want a run failure, got %+v", res)
	}
	if n := 2 + jsonv.StringByteLen(f.Message); n > 100 || !strings.HasPrefix(f.Message, "é\"") {
		t.Fatalf("message %q takes %d bytes, want a prefix within 100", f.Message, n)
	}
}
