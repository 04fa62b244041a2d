package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/bridge"
)

// A saved program: it takes an input (its exported Input type) and calls two tools.
const sumProgram = `export type Input = { a: number; b: number; word?: string };
const total = await tools.add({ a: input.a, b: input.b });
const word = await tools.shout({ word: input.word ?? "sum" });
export default { total, word };
`

// A saved program without input, whose file runs as it is.
const standaloneProgram = `const total = await tools.add({ a: 40, b: 2 });
console.log("not part of the result");
export default { total, list: [1, "two", null] };
`

func programsProject(t *testing.T) (dir string, lib string) {
	dir = fixture(t, map[string]string{
		"tools.json":        manifest,
		"add.py":            addPy,
		"sum.ts":            sumProgram,
		"standalone.ts":     standaloneProgram,
		"only-add.json":     `{"tools": [{"name": "add", "description": "Add two numbers.", "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}, "output": {"type": "number"}, "command": ["python3", "add.py"]}]}`,
		"does-not-check.ts": "const n: number = await tools.shout({ word: \"x\" });\nexport default n;\n",
	})
	return dir, filepath.Join(dir, "lib")
}

// save runs `runcode save` and fails the test unless it saved.
func save(t *testing.T, dir, lib, name, file string) {
	t.Helper()
	code, out, errOut := invoke(t, "", "save", "--tools", filepath.Join(dir, "tools.json"), "--programs", lib, name, filepath.Join(dir, file), "--description", "Test program "+name)
	if code != exitOK || !strings.HasPrefix(out, "saved "+name+" in ") {
		t.Fatalf("save %s: exit %d, stdout %q, stderr %q", name, code, out, errOut)
	}
}

// A saved program run by name returns what running its file returns, in both isolations.
func TestSavedProgramRunsByNameWithTheOutputOfItsFile(t *testing.T) {
	needTSC(t)
	dir, lib := programsProject(t)
	save(t, dir, lib, "standalone", "standalone.ts")
	save(t, dir, lib, "sum-up", "sum.ts")
	for _, isolation := range []string{"inprocess", "process"} {
		t.Run(isolation, func(t *testing.T) {
			args := []string{"run", "--json", "--isolation", isolation, "--tools", filepath.Join(dir, "tools.json"), "--programs", lib}
			code, fileOut, errOut := invoke(t, "", append(args, filepath.Join(dir, "standalone.ts"))...)
			if code != exitOK {
				t.Fatalf("file: exit %d, stderr %q", code, errOut)
			}
			var file struct{ Result json.RawMessage }
			if err := json.Unmarshal([]byte(fileOut), &file); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := invoke(t, "export default await programs.standalone();", append(args, "-")...)
			want := `{"logs":[],"result":` + string(file.Result) + "}\n"
			if code != exitOK || out != want {
				t.Fatalf("by name: exit %d, stderr %q, stdout %s\nwant %s", code, errOut, out, want)
			}
			code, out, errOut = invoke(t, `return await programs["sum-up"]({ a: 2, b: 3, word: "hey" });`, append(args, "-")...)
			if code != exitOK || out != `{"logs":[],"result":{"total":5,"word":"HEY"}}`+"\n" {
				t.Fatalf("with input: exit %d, stderr %q, stdout %s", code, errOut, out)
			}
		})
	}
}

// The sub-calls of a saved program carry the programs.NAME call as their parent in --trace, and
// that call carries the run's.
func TestSavedProgramSubCallsNestUnderItsCallInTheTrace(t *testing.T) {
	needTSC(t)
	dir, lib := programsProject(t)
	save(t, dir, lib, "sum-up", "sum.ts")
	tracePath := filepath.Join(dir, "trace.jsonl")
	code, out, errOut := invoke(t, `await tools.add({ a: 1, b: 1 });
return (await programs["sum-up"]({ a: 1, b: 2 })).total;`,
		"run", "--tools", filepath.Join(dir, "tools.json"), "--programs", lib, "--trace", tracePath, "-")
	if code != exitOK || out != "3\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	f, err := os.Open(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, err := bridge.ReadEvents(f)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range events {
		if e.Type == bridge.EventStart {
			got = append(got, e.ParentCallID+" > "+e.SubCallID+" "+e.Name)
		}
	}
	want := []string{
		"run-1 > run-1:code:1 add",
		"run-1 > run-1:code:2 programs.sum-up",
		"run-1:code:2 > run-1:code:2:code:1 add",
		"run-1:code:2 > run-1:code:2:code:2 shout",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("starts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// --replay answers the saved program's call as a whole, without any tool.
	code, out, errOut = invoke(t, `await tools.add({ a: 1, b: 1 });
return (await programs["sum-up"]({ a: 1, b: 2 })).total;`, "run", "--programs", lib, "--replay", tracePath, "-")
	if code != exitOK || out != "3\n" || errOut != "" {
		t.Fatalf("replay: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A saved program that calls a tool the sources no longer offer fails before any of its tools
// runs, naming the missing tool; the outer program can catch it.
func TestSavedProgramMissingToolRefusedBeforeAnyCall(t *testing.T) {
	needTSC(t)
	dir, lib := programsProject(t)
	save(t, dir, lib, "sum-up", "sum.ts")
	tracePath := filepath.Join(dir, "trace.jsonl")
	code, out, errOut := invoke(t, `try { await programs["sum-up"]({ a: 1, b: 2 }); } catch (e) { console.log(e instanceof ToolCallError, e.message); }`,
		"run", "--tools", filepath.Join(dir, "only-add.json"), "--programs", lib, "--trace", tracePath, "-")
	if code != exitOK || !strings.HasPrefix(out, "true ") || !strings.Contains(out, "tools.shout") || !strings.Contains(out, "not available") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	data, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"name":"add"`) {
		t.Fatalf("add ran:\n%s", data)
	}
}

// check typechecks calls of saved programs against their declared input and output.
func TestCheckCatchesABadInputOfASavedProgram(t *testing.T) {
	needTSC(t)
	dir, lib := programsProject(t)
	save(t, dir, lib, "sum-up", "sum.ts")
	bad := filepath.Join(dir, "bad.ts")
	if err := os.WriteFile(bad, []byte("const r = await programs[\"sum-up\"]({ a: 1, c: 2 });\nconst s: string = r.total;\nexport default s;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := invoke(t, "", "check", "--tools", filepath.Join(dir, "tools.json"), "--programs", lib, bad)
	if code != exitFailed || !strings.Contains(out, "bad.ts:1:") || !strings.Contains(out, "'c'") || !strings.Contains(out, "bad.ts:2:7: error TS2322") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	good := filepath.Join(dir, "good.ts")
	if err := os.WriteFile(good, []byte("const r = await programs[\"sum-up\"]({ a: 1, b: 2 });\nconst n: number = r.total;\nexport default n;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := invoke(t, "", "check", "--tools", filepath.Join(dir, "tools.json"), "--programs", lib, good); code != exitOK {
		t.Fatalf("good: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// A program that exports Input reads the global input when check checks it, as save does.
	if code, out, errOut := invoke(t, "", "check", "--tools", filepath.Join(dir, "tools.json"), filepath.Join(dir, "sum.ts")); code != exitOK {
		t.Fatalf("sum.ts: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// save refuses a program that does not typecheck, with the program's own lines, and keeps
// nothing; programs --json lists what was saved.
func TestSaveRefusesAProgramThatDoesNotTypecheckAndProgramsListsTheRest(t *testing.T) {
	needTSC(t)
	dir, lib := programsProject(t)
	code, out, errOut := invoke(t, "", "save", "--tools", filepath.Join(dir, "tools.json"), "--programs", lib, "broken", filepath.Join(dir, "does-not-check.ts"))
	if code != exitFailed || out != "" || !strings.Contains(errOut, "does-not-check.ts:1:7: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := invoke(t, "", "save", "--programs", lib, "bad name", filepath.Join(dir, "sum.ts")); code != exitUsage || !strings.Contains(errOut, "invalid program name") {
		t.Fatalf("bad name: exit %d, stderr %q", code, errOut)
	}
	save(t, dir, lib, "sum-up", "sum.ts")
	code, out, errOut = invoke(t, "", "programs", "--programs", lib, "--json")
	if code != exitOK {
		t.Fatalf("programs: exit %d, stderr %q", code, errOut)
	}
	var list []struct {
		Name, Description string
		Tools             []string
		HasInput          bool
		Declarations      string
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(list) != 1 || list[0].Name != "sum-up" || list[0].Description != "Test program sum-up" || strings.Join(list[0].Tools, ",") != "add,shout" ||
		!list[0].HasInput || !strings.Contains(list[0].Declarations, "total: number") {
		t.Fatalf("programs --json = %s", out)
	}
}

// serve lists the saved programs in run_code's description and follows the library: a program
// saved while it serves is listed (and callable) without a restart. Under process isolation
// with one worker, a program that calls a saved program does not wait for a second worker.
func TestServeListsSavedProgramsAndReloads(t *testing.T) {
	needTSC(t)
	dir, lib := programsProject(t)
	save(t, dir, lib, "standalone", "standalone.ts")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// No ToolListChangedHandler: with one, the SDK's client answers its close with a
	// cancellation the server replies to on a closed pipe. The test polls the list instead.
	cs, exit, stderr, err := connectServeStdio(ctx, "--tools", filepath.Join(dir, "tools.json"), "--programs", lib, "--workers", "1", "--timeout", "10s")
	if err != nil {
		t.Fatal(err)
	}
	description := func() string {
		list, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return list.Tools[0].Description
	}
	if d := description(); !strings.Contains(d, "standalone(input?: RuncodePrograms.") || strings.Contains(d, "sum-up") {
		t.Fatalf("description:\n%s", d)
	}
	call := func(code string) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{"description": "Call saved programs", "code": code}})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError {
			t.Fatalf("run failed: %s", text)
		}
		return text
	}
	if got := call(`return (await programs.standalone()).total;`); got != "42" {
		t.Fatalf("standalone = %q", got)
	}
	save(t, dir, lib, "sum-up", "sum.ts")
	for d := description(); !strings.Contains(d, `"sum-up"(input: RuncodePrograms.`); d = description() {
		select {
		case <-ctx.Done():
			t.Fatalf("description after save:\n%s\nstderr:\n%s", d, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	if got := call(`return (await programs["sum-up"]({ a: 20, b: 22 })).total;`); got != "42" {
		t.Fatalf("sum-up = %q", got)
	}
	cs.Close()
	if code := <-exit; code != exitOK {
		t.Fatalf("serve exited %d:\n%s", code, stderr.String())
	}
}

// The worked example of docs/programs-library.md: word-stats saved, then called by name.
func TestSavedProgramExampleRuns(t *testing.T) {
	needTSC(t)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	lib := t.TempDir()
	sources := []string{"--tools", filepath.Join(repo, "examples/tools/tools.json"), "--workspace", repo, "--programs", lib}
	code, out, errOut := invoke(t, "", append([]string{"save", "word-stats", filepath.Join(repo, "examples/saved/word-stats.ts"), "--description", "Word counts of the Markdown files under a directory"}, sources...)...)
	if code != exitOK || !strings.Contains(out, "tools: glob, read_file, word_count") {
		t.Fatalf("save: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	example := filepath.Join(repo, "examples/saved/use-word-stats.ts")
	if code, out, errOut := invoke(t, "", append([]string{"check", example}, sources...)...); code != exitOK {
		t.Fatalf("check: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = invoke(t, "", append([]string{"run", example}, sources...)...)
	if code != exitOK || !strings.Contains(out, " words in docs/ (on ") || !strings.Contains(out, `"docs/`) {
		t.Fatalf("run: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A program that uses state is saved against an SDK that declares it only with --state (as
// check declares it), and, saved from a run with --state, typechecks with state; run by name it
// sees the run's state.
func TestSavedProgramsUseState(t *testing.T) {
	needTSC(t)
	dir, lib := programsProject(t)
	counter := filepath.Join(dir, "counter.ts")
	if err := os.WriteFile(counter, []byte("const n = ((await state.get(\"n\")) as number | undefined) ?? 0;\nawait state.set(\"n\", n + 1);\nexport default n + 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"save", "--tools", filepath.Join(dir, "tools.json"), "--programs", lib}
	if code, _, errOut := invoke(t, "", append(base, "counter", counter)...); code == exitOK || !strings.Contains(errOut, "Cannot find name 'state'") {
		t.Fatalf("saved without --state: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := invoke(t, "", append(base, "--state", filepath.Join(dir, "st"), "counter", counter)...); code != exitOK {
		t.Fatalf("save --state: exit %d, stderr %q", code, errOut)
	}
	run := []string{"run", "--yes", "--tools", filepath.Join(dir, "tools.json"), "--programs", lib, "--state", filepath.Join(dir, "st"), "-"}
	for _, want := range []string{"1", "2"} {
		if code, out, errOut := invoke(t, "return await programs.counter();", run...); code != exitOK || strings.TrimSpace(out) != want {
			t.Fatalf("run: exit %d, stdout %q, stderr %q (want %s)", code, out, errOut, want)
		}
	}
	// programs.save from a run with state typechecks the proposed program with state declared.
	propose := `return await programs.save("peek", "export default (await state.get(\"n\")) ?? null", "reads n");`
	if code, out, errOut := invoke(t, propose, run...); code != exitOK || !strings.Contains(out, `"peek"`) {
		t.Fatalf("programs.save: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, out, errOut := invoke(t, "return await programs.peek();", run...); code != exitOK || strings.TrimSpace(out) != "2" {
		t.Fatalf("peek: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
