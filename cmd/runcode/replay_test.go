package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// replayProject has a writing tool whose every run appends to a log (the effect a replay must
// not have), a failing tool and a tool that computes.
func replayProject(t *testing.T) string {
	return fixture(t, map[string]string{
		"tools.json": `{"tools":[
  {"name":"note","description":"Append a note.","parameters":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]},
   "output":{"type":"object","properties":{"notes":{"type":"integer"}}},
   "command":["sh","-c","cat >> effects.log; echo >> effects.log; printf '{\"notes\":%s}' $(grep -c . effects.log)"]},
  {"name":"add","parameters":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}},"output":{"type":"number"},
   "command":["python3","-c","import json,sys; a=json.load(sys.stdin); print(a['a']+a['b'])"],"concurrencySafe":true},
  {"name":"fail","command":["sh","-c","echo 'disk on fire' >&2; exit 3"]}
]}`,
		"prog.ts": `const sums = await Promise.all([1, 2, 3].map((i) => tools.add({ a: i, b: 0.5 })));
const n = await tools.note({ text: "sums " + sums.join(",") });
try { await tools.fail({}); } catch (e) { console.log("caught:", e.message); }
console.log("notes", n.notes);
return { sums, notes: n.notes };`,
		"changed.ts": `const sums = await Promise.all([1, 2, 3].map((i) => tools.add({ a: i, b: 0.5 })));
try { await tools.note({ text: "other" }); } catch (e) { console.log(e.message); }
return sums;`,
	})
}

// run --replay gives the output of the recorded run (values, a failure the program caught,
// --json and text) with or without the sources, and runs no tool: the writing tool's effects
// are not repeated.
func TestRunReplayEqualsTheRecordedRun(t *testing.T) {
	dir := replayProject(t)
	t.Chdir(dir) // the tools' commands run in the working directory
	trace := filepath.Join(dir, "trace.jsonl")
	tools := filepath.Join(dir, "tools.json")
	code, want, errOut := invoke(t, "", "run", "--isolation", "inprocess", "--json", "--trace", trace, "--tools", tools, "prog.ts")
	if code != exitOK || !strings.Contains(want, `"caught: disk on fire`) {
		t.Fatalf("recorded run: exit %d, stdout %q, stderr %q", code, want, errOut)
	}
	effects, err := os.ReadFile("effects.log")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"no sources", []string{"run", "--replay", trace, "--json", "prog.ts"}},
		{"with sources", []string{"run", "--replay", trace, "--tools", tools, "--json", "prog.ts"}},
		{"process isolation, second trace", []string{"run", "--replay", trace, "--isolation", "process", "--trace", filepath.Join(dir, "again.jsonl"), "--json", "prog.ts"}},
	} {
		code, out, errOut := invoke(t, "", c.args...)
		if code != exitOK || out != want || errOut != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want stdout %q", c.name, code, out, errOut, want)
		}
	}
	if now, _ := os.ReadFile("effects.log"); string(now) != string(effects) {
		t.Errorf("the replay ran the writing tool: effects %q, recorded %q", now, effects)
	}
	// The replay's own trace carries the recorded outcomes.
	again, err := os.ReadFile(filepath.Join(dir, "again.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(again), `"errorMessage":"disk on fire"`) || !strings.Contains(string(again), `"result":{"notes":1}`) {
		t.Errorf("replay trace:\n%s", again)
	}
	// Text output too.
	_, wantText, _ := invoke(t, "", "run", "--isolation", "inprocess", "--tools", tools, "--replay", trace, "prog.ts")
	if !strings.HasPrefix(wantText, "caught: disk on fire\nnotes 1\n") {
		t.Errorf("text output of the replay: %q", wantText)
	}
}

// A program that no longer makes the recorded calls gets a ToolCallError naming the expected
// and the actual call; stderr says where the replay diverged; the program's own status stands.
func TestRunReplayDivergence(t *testing.T) {
	dir := replayProject(t)
	t.Chdir(dir)
	trace := filepath.Join(dir, "trace.jsonl")
	if code, out, errOut := invoke(t, "", "run", "--isolation", "inprocess", "--trace", trace, "--tools", "tools.json", "prog.ts"); code != exitOK {
		t.Fatalf("recorded run: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut := invoke(t, "", "run", "--isolation", "inprocess", "--replay", trace, "changed.ts")
	wantMsg := `replay: sub-call 4 diverged from the recording: expected tools.note({"text":"sums 1.5,2.5,3.5"}), got tools.note({"text":"other"})`
	if code != exitOK || !strings.HasPrefix(out, wantMsg+"\n") {
		t.Errorf("exit %d, stdout %q; want the message %q", code, out, wantMsg)
	}
	if errOut != "runcode: "+wantMsg+"\n" {
		t.Errorf("stderr %q", errOut)
	}
}

func TestRunReplayBadFile(t *testing.T) {
	dir := fixture(t, map[string]string{
		"bad.jsonl": `{"type":"code-dispatch-start","rootCallId":"r","parentCallId":"r","subCallId":"r:code:1","name":"x","arguments":{}}` + "\nnot json\n",
		"p.ts":      "return 1",
	})
	for _, c := range []struct{ file, want string }{
		{"bad.jsonl", "runcode: --replay: " + filepath.Join(dir, "bad.jsonl") + ": line 2: not JSON"},
		{"missing.jsonl", "runcode: --replay: open " + filepath.Join(dir, "missing.jsonl") + ": no such file or directory"},
	} {
		code, out, errOut := invoke(t, "", "run", "--replay", filepath.Join(dir, c.file), filepath.Join(dir, "p.ts"))
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.file, code, out, errOut, c.want)
		}
	}
}

// A trace of namespaced tools (a --config server) replays without the source flags: the trace
// records each call's namespace, so the replay declares tools.memory.read_graph again rather
// than a top-level "memory.read_graph" the program cannot reach (issue 24, item 13).
func TestRunReplayOfNamespacedToolsWithoutSources(t *testing.T) {
	needMCP(t, "mcp-server-memory")
	dir := fixture(t, map[string]string{
		"mcp.json": `{"mcpServers": {"memory": {"command": "mcp-server-memory", "env": {"MEMORY_FILE_PATH": "${RUNCODE_TEST_DIR}/memory.jsonl"}}}}`,
		"prog.ts": `await tools.memory.create_entities({ entities: [{ name: "runcode", entityType: "project", observations: ["replayed"] }] });
const graph = await tools.memory.read_graph({});
return graph.entities.map((e: { name: string }) => e.name);`,
	})
	t.Setenv("RUNCODE_TEST_DIR", dir)
	trace := filepath.Join(dir, "trace.jsonl")
	prog := filepath.Join(dir, "prog.ts")
	code, want, errOut := invokeWithin(t, time.Minute, "run", "--isolation", "inprocess", "--json", "--trace", trace, "--config", filepath.Join(dir, "mcp.json"), prog)
	if code != exitOK || !strings.Contains(want, `"result":["runcode"]`) {
		t.Fatalf("recorded run: exit %d, stdout %q, stderr %q", code, want, errOut)
	}
	if data, _ := os.ReadFile(trace); !strings.Contains(string(data), `"name":"memory.read_graph","namespace":"memory"`) {
		t.Errorf("the trace does not record the namespace:\n%s", data)
	}
	code, out, errOut := invokeWithin(t, time.Minute, "run", "--isolation", "inprocess", "--json", "--replay", trace, prog)
	if code != exitOK || out != want {
		t.Fatalf("replay without sources: exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
	// A divergence names the calls as the program writes them.
	changed := filepath.Join(dir, "changed.ts")
	os.WriteFile(changed, []byte(`return await tools.memory.read_graph({});`), 0o644)
	_, out, _ = invokeWithin(t, time.Minute, "run", "--isolation", "inprocess", "--json", "--replay", trace, changed)
	if !strings.Contains(out, `expected tools.memory.create_entities({`) || !strings.Contains(out, `got tools.memory.read_graph({})`) {
		t.Errorf("divergence: %s", out)
	}
}
