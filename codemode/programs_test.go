package codemode_test

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/programs"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/typecheck"
)

// programsHost is a registry with an echo tool and Code Mode over a program library in a
// temporary directory, with the TypeScript compiler for programs.save (and, when check is set,
// for every run).
type programsHost struct {
	reg     *registry.Registry
	lib     *programs.Library
	checker *typecheck.Checker
	scope   *registry.Scope
}

func newProgramsHost(t *testing.T, opts codemode.Options, check bool, saved map[string]string) *programsHost {
	t.Helper()
	if _, err := exec.LookPath("tsc"); err != nil {
		t.Skip("tsc not installed")
	}
	checker, err := typecheck.New(typecheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { checker.Close() })
	h := &programsHost{reg: registry.New(), lib: programs.Open(t.TempDir()), checker: checker}
	echo := registry.Tool{
		Name:        "echo",
		Description: "Echo a value back.",
		Parameters:  jsonv.MustParse(`{"type":"object","properties":{"value":{"type":"string"}},"required":["value"]}`),
		Output:      registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue("echo:" + inv.Arguments.Lookup("value").AsString()), nil
		},
	}
	if _, err := h.reg.Register(echo); err != nil {
		t.Fatal(err)
	}
	for name, src := range saved {
		h.save(t, name, src)
	}
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Runtime, opts.Programs, opts.ProgramCompiler = rt, h.lib, checker
	if check {
		opts.TypeChecker = checker
	}
	if err := codemode.Install(h.reg, opts); err != nil {
		t.Fatal(err)
	}
	if err := h.reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		t.Fatal(err)
	}
	h.scope = h.reg.NewScope("agent", nil)
	return h
}

// save saves src as name, checked against the registry's tools and the programs saved so far.
func (h *programsHost) save(t *testing.T, name, src string) {
	t.Helper()
	saved, err := h.lib.List()
	if err != nil {
		t.Fatal(err)
	}
	p, err := programs.Prepare(context.Background(), h.checker, programs.SDK{Tools: codemode.SDKTools(h.reg), Programs: saved}, name, src, "Program "+name)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.lib.Put(p); err != nil {
		t.Fatal(err)
	}
}

// run runs code for the host's agent and returns the text the model reads.
func (h *programsHost) run(code string) string {
	call := codemode.Call("call-1", code, "Test saved programs")
	call.Scope = h.scope
	return registry.TextOf(h.reg.Execute(context.Background(), call).Content)
}

const echoTwice = `export type Input = { word: string };
const a = await tools.echo({ value: input.word });
export default { twice: a + a };
`

// programs.save goes through the approval stage as the tool programs.save: without an approver
// it is denied (APPROVAL_DENIED) and nothing is saved; once approved, the program is typechecked,
// saved and callable by the next run; one that does not typecheck is refused.
func TestProgramsSaveRequiresApproval(t *testing.T) {
	h := newProgramsHost(t, codemode.Options{}, false, nil)
	saveCall := "return await programs.save('twice', " + jsString(echoTwice) + ", 'Echo twice');"
	denied := h.run("try { " + saveCall + " } catch (e) { return e.message; }")
	if !strings.Contains(denied, `"programs.save"`) {
		t.Fatalf("without an approver: %s", denied)
	}
	if list, _ := h.lib.List(); len(list) != 0 {
		t.Fatalf("saved without approval: %+v", list)
	}
	// The denial is the approval stage's: the sub-call's error has the code APPROVAL_DENIED.
	var codes []registry.Code
	remove := h.reg.OnResult(func(exec registry.Execution, res registry.Result) {
		if exec.Name == "programs.save" && res.Err != nil {
			codes = append(codes, res.Err.Code)
		}
	})
	h.run(saveCall)
	remove()
	if len(codes) != 1 || codes[0] != registry.CodeApprovalDenied {
		t.Fatalf("denied save: codes %v", codes)
	}

	var mu sync.Mutex
	var asked []string
	h.reg.SetApprover(registry.ApproverFunc(func(_ context.Context, exec registry.Execution, _ string) registry.Approval {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, exec.Name+" "+exec.Arguments.Lookup("name").AsString())
		return registry.AllowedOnce
	}))
	if got := h.run(saveCall + ""); !strings.Contains(got, `"name": "twice"`) || !strings.Contains(got, `"echo"`) {
		t.Fatalf("approved save: %s", got)
	}
	if len(asked) != 1 || asked[0] != "programs.save twice" {
		t.Fatalf("asked = %q", asked)
	}
	if got := h.run(`return (await programs.twice({ word: "hi" })).twice;`); got != "echo:hiecho:hi" {
		t.Fatalf("the saved program: %s", got)
	}
	refused := h.run(`try { await programs.save({ name: "bad", source: "const n: number = 'x';\nexport default n;" }); /* the one-object form is accepted too */ } catch (e) { return e.message; }`)
	if !strings.Contains(refused, "does not typecheck") || !strings.Contains(refused, "main.ts:1:7") {
		t.Fatalf("refused save: %s", refused)
	}
	if _, ok, _ := h.lib.Get("bad"); ok {
		t.Fatal("a program that does not typecheck was saved")
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string { return string(jsonv.AppendJSON(nil, jsonv.StringValue(s))) }

// With a type checker, the input of a saved program is checked against its Input type when it
// is called, even when the calling program's types let it through.
func TestSavedProgramInputIsCheckedAgainstItsInputType(t *testing.T) {
	h := newProgramsHost(t, codemode.Options{}, true, map[string]string{"twice": echoTwice})
	got := h.run(`const input: any = JSON.parse('{"word": 7}');
try { await programs.twice(input); } catch (e) { return (e as Error).message; }`)
	if !strings.Contains(got, "invalid input for programs.twice") || !strings.Contains(got, "number") {
		t.Fatalf("bad input: %s", got)
	}
	if got := h.run(`return (await programs.twice({ word: "a" })).twice;`); got != "echo:aecho:a" {
		t.Fatalf("good input: %s", got)
	}
}

// Saved programs calling each other in a cycle end at MaxProgramDepth, with an error naming the
// limit.
func TestSavedProgramsNestAtMostMaxDepth(t *testing.T) {
	h := newProgramsHost(t, codemode.Options{}, false, nil)
	h.save(t, "pong", "export default 1;\n")
	h.save(t, "ping", "export default await programs.pong();\n")
	h.save(t, "pong", "export default await programs.ping();\n")
	got := h.run(`try { await programs.ping(); } catch (e) { return e.message; }`)
	if !strings.Contains(got, "nest at most 4 deep") {
		t.Fatalf("cycle: %s", got)
	}
}

// Under the compact presentation, catalog.search finds saved programs beside tools, and
// catalog.describe gives a program's declarations.
func TestCatalogFindsSavedPrograms(t *testing.T) {
	h := newProgramsHost(t, codemode.Options{CompactAbove: 1}, false, map[string]string{"twice": echoTwice})
	if got := h.run(`return (await catalog.search("twice")).map(t => t.name).join();`); got != "programs.twice" {
		t.Fatalf("search: %s", got)
	}
	if got := h.run(`return await catalog.describe("programs.twice");`); !strings.Contains(got, "twice(input: RuncodePrograms.p0.Input)") || !strings.Contains(got, "word: string") {
		t.Fatalf("describe: %s", got)
	}
	prompt := codemode.PromptSectionFor(h.reg, codemode.Options{CompactAbove: 1})
	if !strings.Contains(prompt, "- programs.twice: Program twice") {
		t.Fatalf("compact prompt:\n%s", prompt)
	}
}
