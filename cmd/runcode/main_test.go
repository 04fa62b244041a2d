package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// invoke runs the CLI in-process and returns its exit status, stdout and stderr.
func invoke(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// fixture writes files into a temp dir and returns it.
func fixture(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const manifest = `{"tools": [
  {"name": "add", "description": "Add two numbers.",
   "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
   "output": {"type": "number"}, "command": ["python3", "add.py"], "concurrencySafe": true, "timeout": "5s"},
  {"name": "shout", "description": "Upper-case a word.",
   "parameters": {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]},
   "output": {"type": "string"},
   "command": ["sh", "-c", "python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)[\"word\"].upper()))'"]},
  {"name": "fail", "description": "Always fails.", "command": ["sh", "-c", "echo 'disk on fire' >&2; exit 3"]}
]}`

const addPy = "import json, sys\na = json.load(sys.stdin)\nprint(json.dumps(a['a'] + a['b']))\n"

func project(t *testing.T) string {
	return fixture(t, map[string]string{
		"tools.json":     manifest,
		"add.py":         addPy,
		"ws/notes.txt":   "alpha\nbeta TODO\ngamma\n",
		"ws/sub/x.txt":   "TODO one\n",
		"typed.ts":       typedProgram,
		"throws.ts":      "const a = 1;\n\n\nthrow new Error(\"boom at four\");\n",
		"loop.ts":        "for(;;){}",
		"catch.ts":       catchProgram,
		"nothing.ts":     "const x = 1;",
		"badmanifest.js": "",
	})
}

const typedProgram = `interface Sum { total: number }
function twice<T>(x: T): [T, T] { return [x, x]; }
const total: number = await tools.add({ a: 2, b: 3 });
const word: string = await tools.shout({ word: "hey" });
const { matches } = await tools.grep({ pattern: "TODO" });
const s: Sum = { total };
console.log("word", word);
console.log(twice(matches.length));
return { ...s, files: matches.map((m: { path: string }) => m.path).sort() };
`

const catchProgram = `try {
  await tools.fail({});
} catch (e) {
  console.log(e instanceof ToolCallError, e.toolName, e.message);
}
try {
  await tools.add({ a: "x" });
} catch (e) {
  console.log(e instanceof ToolCallError, e.toolName, e.message);
}
`

func TestRunPrintsTheModelFacingText(t *testing.T) {
	dir := project(t)
	code, out, errOut := invoke(t, "", "run", "--tools", filepath.Join(dir, "tools.json"), "--workspace", filepath.Join(dir, "ws"), filepath.Join(dir, "typed.ts"))
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s, stdout %s", code, errOut, out)
	}
	want := "word HEY\n[ 2, 2 ]\n{\n  \"total\": 5,\n  \"files\": [\n    \"notes.txt\",\n    \"sub/x.txt\"\n  ]\n}\n"
	if out != want {
		t.Fatalf("stdout:\n%q\nwant:\n%q", out, want)
	}
	if errOut != "" {
		t.Fatalf("stderr: %q", errOut)
	}
}

func TestRunJSONAndTrace(t *testing.T) {
	dir := project(t)
	trace := filepath.Join(dir, "trace.jsonl")
	code, out, _ := invoke(t, "", "run", "--json", "--trace", trace, "--tools", filepath.Join(dir, "tools.json"), "--workspace", filepath.Join(dir, "ws"), filepath.Join(dir, "typed.ts"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, out)
	}
	if want := `{"logs":["word HEY","[ 2, 2 ]"],"result":{"total":5,"files":["notes.txt","sub/x.txt"]}}` + "\n"; out != want {
		t.Fatalf("--json:\n%s\nwant:\n%s", out, want)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 8 {
		t.Fatalf("trace has %d lines:\n%s", len(lines), data)
	}
	// The run's program opens the trace and its outcome closes it.
	program, _ := os.ReadFile(filepath.Join(dir, "typed.ts"))
	if want := `{"type":"code-run-start","rootCallId":"run-1","description":"Run typed.ts","program":` + string(jsonv.AppendJSON(nil, jsonv.StringValue(string(program)))) + `,"time":"`; !strings.HasPrefix(lines[0], want) {
		t.Errorf("trace line 1:\n%s\nwant prefix:\n%s", lines[0], want)
	}
	if want := `{"type":"code-run","rootCallId":"run-1","outcome":{"logs":["word HEY","[ 2, 2 ]"],"result":{"total":5,"files":["notes.txt","sub/x.txt"]}},"time":"`; !strings.HasPrefix(lines[7], want) || !strings.Contains(lines[7], `"durationMs":`) {
		t.Errorf("trace line 8:\n%s\nwant prefix:\n%s", lines[7], want)
	}
	lines = lines[1:7]
	wantPrefixes := []string{
		`{"type":"code-dispatch-start","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:1","name":"add","arguments":{"a":2,"b":3},"time":"`,
		`{"type":"code-dispatch","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:1","name":"add","arguments":{"a":2,"b":3},"isError":false,"content":[{"type":"text","text":"5"}],"time":"`,
		`{"type":"code-dispatch-start","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:2","name":"shout","arguments":{"word":"hey"},"time":"`,
		`{"type":"code-dispatch","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:2","name":"shout","arguments":{"word":"hey"},"isError":false,"content":[{"type":"text","text":"HEY"}],"time":"`,
		`{"type":"code-dispatch-start","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:3","name":"grep","arguments":{"pattern":"TODO"},"time":"`,
		`{"type":"code-dispatch","rootCallId":"run-1","parentCallId":"run-1","subCallId":"run-1:code:3","name":"grep","arguments":{"pattern":"TODO"},"isError":false,"content":[`,
	}
	for i, p := range wantPrefixes {
		if !strings.HasPrefix(lines[i], p) {
			t.Errorf("trace line %d:\n%s\nwant prefix:\n%s", i+1, lines[i], p)
		}
	}
	// Settle lines end with the duration and the value the program received.
	for i, suffix := range map[int]string{1: `,"result":5}`, 3: `,"result":"HEY"}`} {
		if !strings.Contains(lines[i], `Z","durationMs":`) || !strings.HasSuffix(lines[i], suffix) {
			t.Errorf("trace line %d lacks durationMs or ends otherwise than %s:\n%s", i+1, suffix, lines[i])
		}
	}
}

func TestRunFailures(t *testing.T) {
	dir := project(t)
	ws := filepath.Join(dir, "ws")

	code, out, _ := invoke(t, "", "run", "--workspace", ws, filepath.Join(dir, "throws.ts"))
	if code != exitFailed || !strings.HasPrefix(out, "Error: code run failed (exception): Error: boom at four") || !strings.Contains(out, "main.ts:4") {
		t.Fatalf("throw: exit %d, stdout %q", code, out)
	}

	start := time.Now()
	code, out, _ = invoke(t, "", "run", "--timeout", "1s", "--workspace", ws, filepath.Join(dir, "loop.ts"))
	elapsed := time.Since(start)
	if code != exitFailed || !strings.HasPrefix(out, "Error: code run failed (timeout): ") {
		t.Fatalf("loop: exit %d, stdout %q", code, out)
	}
	if elapsed > 3*time.Second {
		t.Fatalf("a 1s timeout took %v", elapsed)
	}

	code, out, _ = invoke(t, `console.log("before"); throw "raw"`, "run", "--json", "--workspace", ws, "-")
	if code != exitFailed || out != `{"logs":["before"],"error":{"kind":"exception","message":"raw"}}`+"\n" {
		t.Fatalf("--json failure: exit %d, stdout %q", code, out)
	}

	code, out, _ = invoke(t, `console.log("before"); throw "raw"`, "run", "--workspace", ws, "-")
	if code != exitFailed || out != "Error: code run failed (exception): raw\nCaptured output:\nbefore\n" {
		t.Fatalf("failure with logs: exit %d, stdout %q", code, out)
	}

	code, out, _ = invoke(t, "", "run", "--workspace", ws, filepath.Join(dir, "nothing.ts"))
	if code != exitOK || out != "(run_code completed with no output)\n" {
		t.Fatalf("no output: exit %d, stdout %q", code, out)
	}
}

func TestToolFailuresAreCatchableToolCallErrors(t *testing.T) {
	dir := project(t)
	code, out, errOut := invoke(t, "", "run", "--tools", filepath.Join(dir, "tools.json"), filepath.Join(dir, "catch.ts"))
	if code != exitOK {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	want := "true fail disk on fire\ntrue add invalid arguments: missing required property \"b\"; \"a\" must be a number, got string\n"
	if out != want {
		t.Fatalf("stdout:\n%q\nwant:\n%q", out, want)
	}
}

func TestSourceAndUsageErrorsExitTwo(t *testing.T) {
	dir := project(t)
	bad := fixture(t, map[string]string{"bad.json": `{"tools":[{"name":"add","comand":["x"]}]}`})
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"bad manifest", []string{"run", "--tools", filepath.Join(bad, "bad.json"), filepath.Join(dir, "nothing.ts")}, []string{`"add"`, `"comand"`}},
		{"missing manifest", []string{"tools", "--tools", filepath.Join(dir, "nope.json")}, []string{"nope.json"}},
		{"missing program", []string{"run", filepath.Join(dir, "nope.ts")}, []string{"cannot read program"}},
		{"no program", []string{"run"}, []string{"exactly one PROGRAM"}},
		{"unknown command", []string{"frobnicate"}, []string{`unknown command "frobnicate"`}},
		{"unknown flag", []string{"run", "--nope", "x.ts"}, []string{"-nope"}},
		{"bad size", []string{"run", "--max-output", "12XB", "x.ts"}, []string{`invalid --max-output "12XB"`, "KiB, MiB or GiB"}},
		{"duplicate tool", []string{"tools", "--tools", filepath.Join(dir, "tools.json"), "--tools", filepath.Join(dir, "tools.json")}, []string{`tool "add" is defined by both`}},
		{"unknown isolation", []string{"run", "--isolation", "vm", filepath.Join(dir, "nothing.ts")}, []string{`--isolation must be inprocess or process, got "vm"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := invoke(t, "", c.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q does not mention %q", errOut, w)
				}
			}
			if out != "" {
				t.Errorf("stdout not empty: %q", out)
			}
		})
	}
}

func TestSDKAndToolsListEveryTool(t *testing.T) {
	dir := project(t)
	code, out, errOut := invoke(t, "", "sdk", "--tools", filepath.Join(dir, "tools.json"), "--workspace", filepath.Join(dir, "ws"))
	if code != exitOK {
		t.Fatalf("sdk exit %d: %s", code, errOut)
	}
	for _, want := range []string{"add(args: { a: number; b: number }): Promise<number>;", "shout(args: { word: string }): Promise<string>;", "read_file(args: {", "grep(args: {", "declare const tools"} {
		if !strings.Contains(out, want) {
			t.Errorf("sdk output lacks %q", want)
		}
	}
	outFile := filepath.Join(dir, "tools.d.ts")
	if code, _, errOut := invoke(t, "", "sdk", "--tools", filepath.Join(dir, "tools.json"), "-o", outFile); code != exitOK {
		t.Fatalf("sdk -o: %s", errOut)
	}
	if data, err := os.ReadFile(outFile); err != nil || !strings.Contains(string(data), "shout(args: { word: string }): Promise<string>;") {
		t.Fatalf("sdk -o wrote %q, %v", data, err)
	}

	code, out, _ = invoke(t, "", "tools", "--tools", filepath.Join(dir, "tools.json"))
	if code != exitOK || !strings.Contains(out, "add    Add two numbers.\n") || !strings.Contains(out, "shout  Upper-case a word.\n") {
		t.Fatalf("tools: exit %d\n%s", code, out)
	}
	code, out, _ = invoke(t, "", "tools", "--json", "--tools", filepath.Join(dir, "tools.json"))
	if code != exitOK || !strings.Contains(out, "\"name\": \"add\",\n    \"description\": \"Add two numbers.\",\n    \"parameters\": {\n      \"type\": \"object\",") {
		t.Fatalf("tools --json: exit %d\n%s", code, out)
	}
}

func TestVersionAndHelp(t *testing.T) {
	if code, out, _ := invoke(t, "", "version"); code != exitOK || !strings.HasPrefix(out, "runcode ") {
		t.Fatalf("version: %d %q", code, out)
	}
	if code, out, _ := invoke(t, "", "--help"); code != exitOK || !strings.Contains(out, "runcode run") {
		t.Fatalf("--help: %d %q", code, out)
	}
	if code, out, _ := invoke(t, "", "run", "--help"); code != exitOK || !strings.Contains(out, "-max-parallel") {
		t.Fatalf("run --help: %d %q", code, out)
	}
	if code, _, errOut := invoke(t, ""); code != exitUsage || !strings.Contains(errOut, "Usage:") {
		t.Fatalf("no args: %d %q", code, errOut)
	}
}

// The README's examples run on this repository's own files.
func TestExamplesRun(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--workspace", repo, filepath.Join(repo, "examples/todos.ts")}, `"markers": `},
		{[]string{"run", "--workspace", repo, filepath.Join(repo, "examples/largest-go-files.ts")}, " Go files in the workspace"},
		{[]string{"run", "--workspace", repo, filepath.Join(repo, "examples/undocumented.ts")}, " files"},
		{[]string{"run", "--tools", filepath.Join(repo, "examples/tools/tools.json"), "--workspace", repo, filepath.Join(repo, "examples/manifest-demo.ts")}, "README.md: "},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.args[len(c.args)-1]), func(t *testing.T) {
			code, out, errOut := invoke(t, "", c.args...)
			if code != exitOK || !strings.Contains(out, c.want) {
				t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
			}
		})
	}
}

// The examples are well typed against the SDK that `runcode sdk` generates for their tools: each
// body is wrapped in an async function (as the runtime does) and checked by the real TypeScript
// compiler in strict mode.
func TestExamplesTypecheckAgainstTheGeneratedSDK(t *testing.T) {
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		t.Skip("tsc not installed; CI installs typescript")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	code, _, errOut := invoke(t, "", "sdk", "--tools", filepath.Join(repo, "examples/tools/tools.json"), "--workspace", repo, "-o", filepath.Join(dir, "tools.d.ts"))
	if code != exitOK {
		t.Fatalf("sdk: %s", errOut)
	}
	examples, err := filepath.Glob(filepath.Join(repo, "examples", "*.ts"))
	if err != nil || len(examples) < 4 {
		t.Fatalf("examples: %v %v", examples, err)
	}
	files := []string{filepath.Join(dir, "tools.d.ts")}
	for _, ex := range examples {
		body, err := os.ReadFile(ex)
		if err != nil {
			t.Fatal(err)
		}
		wrapped := "export {};\nasync function program(): Promise<unknown> {\n" + string(body) + "\n}\nvoid program;\n"
		name := filepath.Join(dir, filepath.Base(ex))
		if err := os.WriteFile(name, []byte(wrapped), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	out, err := exec.Command(tsc, append([]string{"--strict", "--noEmit", "--target", "es2022", "--lib", "es2022"}, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}

// --isolation process runs the program in a worker process (this test binary re-executed, see
// TestMain) with the same output, and a memory bomb there fails the run without harming the CLI.
func TestProcessIsolation(t *testing.T) {
	dir := project(t)
	args := []string{"run", "--isolation", "process", "--tools", filepath.Join(dir, "tools.json"), "--workspace", filepath.Join(dir, "ws")}
	code, out, errOut := invoke(t, "", append(args, filepath.Join(dir, "typed.ts"))...)
	want := "word HEY\n[ 2, 2 ]\n{\n  \"total\": 5,\n  \"files\": [\n    \"notes.txt\",\n    \"sub/x.txt\"\n  ]\n}\n"
	if code != exitOK || out != want {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	code, out, _ = invoke(t, `console.log("before"); let s = "x"; for (;;) s += s;`, append(args, "--memory", "256MiB", "-")...)
	if code != exitFailed || !strings.HasPrefix(out, "Error: code run failed (") || !strings.Contains(out, "Captured output:\nbefore") {
		t.Fatalf("memory bomb: exit %d, stdout %q", code, out)
	}
}

// Under Promise.all, concurrency-safe manifest tools overlap up to --max-parallel; the trace
// shows every start before the settles when they overlap, and start, settle pairs when
// --max-parallel is 1. Settle events stay in submission order either way.
func TestTraceOfPromiseAllHonoursMaxParallel(t *testing.T) {
	dir := fixture(t, map[string]string{
		"tools.json": `{"tools":[{"name":"nap","concurrencySafe":true,"output":{"type":"number"},
			"command":["sh","-c","sleep 0.2; cat >/dev/null; echo 1"]}]}`,
		"all.ts": `const r = await Promise.all([1, 2, 3].map((i) => tools.nap({ i }))); return r.length`,
	})
	for _, c := range []struct {
		parallel string
		want     string
	}{
		{"3", "start:1 start:2 start:3 settle:1 settle:2 settle:3"},
		{"1", "start:1 settle:1 start:2 settle:2 start:3 settle:3"},
	} {
		trace := filepath.Join(dir, "trace-"+c.parallel+".jsonl")
		code, out, errOut := invoke(t, "", "run", "--max-parallel", c.parallel, "--trace", trace, "--tools", filepath.Join(dir, "tools.json"), filepath.Join(dir, "all.ts"))
		if code != exitOK || out != "3\n" {
			t.Fatalf("--max-parallel %s: exit %d, stdout %q, stderr %q", c.parallel, code, out, errOut)
		}
		data, err := os.ReadFile(trace)
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			v, err := jsonv.ParseString(line)
			if err != nil {
				t.Fatal(err)
			}
			kind := "settle"
			switch v.Lookup("type").AsString() {
			case "code-run-start", "code-run":
				continue // the run's program and outcome
			case "code-dispatch-start":
				kind = "start"
			}
			order = append(order, kind+":"+strings.TrimPrefix(v.Lookup("subCallId").AsString(), "run-1:code:"))
		}
		if got := strings.Join(order, " "); got != c.want {
			t.Errorf("--max-parallel %s: trace order %s, want %s", c.parallel, got, c.want)
		}
	}
}

// run makes one run, so under process isolation it keeps one warm worker, not the pool's
// default two: the second only cost its start and its memory (31 MB resident, which counted in
// the peak of every run), and nested runs start more on demand, up to the default most.
func TestRunStartsOneWorker(t *testing.T) {
	dir := project(t)
	var pool *jsruntime.ProcessPool
	var out, errOut bytes.Buffer
	c := &cli{ctx: context.Background(), stdin: strings.NewReader("return 1 + 1"), stdout: &out, stderr: &errOut,
		wrapRuntime: func(rt jsruntime.ClosableRuntime) jsruntime.ClosableRuntime {
			pool, _ = rt.(*jsruntime.ProcessPool)
			return rt
		}}
	if code := c.main([]string{"run", "--isolation", "process", "--workspace", filepath.Join(dir, "ws"), "-"}); code != exitOK || out.String() != "2\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	if pool == nil {
		t.Fatal("run under --isolation process opened no process pool")
	}
	cfg := pool.Config()
	if cfg.Size != 1 || cfg.MaxWorkers != jsruntime.DefaultMaxWorkers(defaultMemory) {
		t.Errorf("run's pool keeps %d warm workers of at most %d, want 1 of at most %d", cfg.Size, cfg.MaxWorkers, jsruntime.DefaultMaxWorkers(defaultMemory))
	}
}
