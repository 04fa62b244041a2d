package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// needTSC skips a test when the TypeScript compiler is not installed (CI installs it).
func needTSC(t *testing.T) string {
	t.Helper()
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		t.Skip("tsc not installed; CI installs typescript")
	}
	return tsc
}

// recordManifest is a manifest with add and a tool "record" that appends its argument to
// calls.log in the manifest's directory, so a test can tell whether any tool ran.
const recordManifest = `{"tools": [
  {"name": "add", "description": "Add two numbers.",
   "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"], "additionalProperties": false},
   "output": {"type": "number"}, "command": ["python3", "add.py"]},
  {"name": "record", "description": "Record a note.",
   "parameters": {"type": "object", "properties": {"note": {"type": "string"}}, "required": ["note"], "additionalProperties": false},
   "output": {"type": "string"}, "command": ["sh", "-c", "cat >> calls.log; echo '\"ok\"'"]}
]}`

// The same program in both forms, with type errors on lines 3 and 5.
const (
	badBody = `const sum = await tools.add({ a: 1, b: 2 });
await tools.record({ note: "started" });
const label: string = sum;

await tools.record({ note: 42 });
return label;
`
	badModule = `const sum = await tools.add({ a: 1, b: 2 });
await tools.record({ note: "started" });
const label: string = sum;

await tools.record({ note: 42 });
export default label;
`
	goodBody = `const sum = await tools.add({ a: 1, b: 2 });
await tools.record({ note: "sum " + sum });
return { sum, twice: sum * 2 };
`
	goodModule = `const sum = await tools.add({ a: 1, b: 2 });
await tools.record({ note: "sum " + sum });
export default { sum, twice: sum * 2 };
`
)

func checkProject(t *testing.T) string {
	return fixture(t, map[string]string{
		"tools.json":      recordManifest,
		"add.py":          addPy,
		"bad-body.ts":     badBody,
		"bad-module.ts":   badModule,
		"good-body.ts":    goodBody,
		"good-module.ts":  goodModule,
		"import.ts":       "import { x } from './x';\nexport default x;\n",
		"named-export.ts": "export const x = 1;\n",
	})
}

func TestCheckReportsTheProgramsOwnLines(t *testing.T) {
	needTSC(t)
	dir := checkProject(t)
	manifest := filepath.Join(dir, "tools.json")
	for _, name := range []string{"bad-body.ts", "bad-module.ts"} {
		t.Run(name, func(t *testing.T) {
			program := filepath.Join(dir, name)
			code, out, errOut := invoke(t, "", "check", "--tools", manifest, program)
			want := program + ":3:7: error TS2322: Type 'number' is not assignable to type 'string'.\n" +
				program + ":5:22: error TS2322: Type 'number' is not assignable to type 'string'.\n"
			if code != exitFailed || out != want {
				t.Fatalf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
			}
		})
	}
	for _, name := range []string{"good-body.ts", "good-module.ts"} {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := invoke(t, "", "check", "--tools", manifest, filepath.Join(dir, name))
			if code != exitOK || out != "" || errOut != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
		})
	}
	t.Run("stdin", func(t *testing.T) {
		code, out, _ := invoke(t, "const n: string = 1;\nexport {};\n", "check", "--tools", manifest, "-")
		if code != exitFailed || out != "<stdin>:1:7: error TS2322: Type 'number' is not assignable to type 'string'.\n" {
			t.Fatalf("exit %d, stdout %q", code, out)
		}
	})
	for name, want := range map[string]string{
		"import.ts":       ":1:1: error: import declarations are not supported",
		"named-export.ts": ":1:1: error: only `export default <expr>` and `export {}` are supported",
	} {
		t.Run(name, func(t *testing.T) {
			program := filepath.Join(dir, name)
			code, out, _ := invoke(t, "", "check", "--tools", manifest, program)
			if code != exitFailed || !strings.HasPrefix(out, program+want) {
				t.Fatalf("exit %d, stdout %q, want prefix %q", code, out, program+want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "calls.log")); err == nil {
		t.Fatal("check called a tool")
	}
}

// tscLine is one diagnostic line of `tsc --pretty false`.
var tscLine = regexp.MustCompile(`^(.+)\((\d+),(\d+)\): (error TS\d+: .*)$`)

// After `runcode init DIR`, `tsc -p DIR` reports for a module-form program in DIR exactly what
// `runcode check` reports (the same errors at the same places, in tsc's own format).
func TestInitMakesTscAgreeWithCheck(t *testing.T) {
	tsc := needTSC(t)
	dir := checkProject(t)
	manifest := filepath.Join(dir, "tools.json")
	proj := filepath.Join(dir, "proj")
	code, out, errOut := invoke(t, "", "init", "--tools", manifest, proj)
	if code != exitOK || !strings.Contains(out, "tools.d.ts") {
		t.Fatalf("init: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, f := range []string{"tools.d.ts", "tsconfig.json"} {
		if _, err := os.Stat(filepath.Join(proj, f)); err != nil {
			t.Fatal(err)
		}
	}
	for _, program := range []string{badModule, goodModule,
		"const n: number = await tools.add({ a: 1, b: 2, c: 3 });\nexport {};\n",
		// a message chain
		"const notes: { note: number }[] = [{ note: 1 }];\nawait Promise.all(notes.map((n) => tools.record(n)));\nexport {};\n",
	} {
		if err := os.WriteFile(filepath.Join(proj, "main.ts"), []byte(program), 0o644); err != nil {
			t.Fatal(err)
		}
		_, checkOut, checkErr := invoke(t, "", "check", "--tools", manifest, filepath.Join(proj, "main.ts"))
		cmd := exec.Command(tsc, "-p", proj, "--pretty", "false")
		cmd.Dir = proj
		tscOut, _ := cmd.CombinedOutput()
		// tsc's "main.ts(L,C): error …" in check's "PROGRAM:L:C: error …" shape, a message
		// chain's further lines joined to the first.
		var converted []string
		for line := range strings.Lines(string(tscOut)) {
			line = strings.TrimRight(line, "\n")
			if m := tscLine.FindStringSubmatch(line); m != nil {
				converted = append(converted, filepath.Join(proj, m[1])+":"+m[2]+":"+m[3]+": "+m[4])
			} else if strings.HasPrefix(line, "  ") && len(converted) > 0 {
				converted[len(converted)-1] += " " + strings.TrimSpace(line)
			} else {
				converted = append(converted, line)
			}
		}
		if got := strings.Join(converted, "\n") + "\n"; got != checkOut && !(len(converted) == 0 && checkOut == "") {
			t.Fatalf("program %q:\ntsc -p:\n%s\ncheck (stderr %q):\n%s", program, tscOut, checkErr, checkOut)
		}
	}
	// init again (the tools changed): it replaces its own files.
	if code, _, errOut := invoke(t, "", "init", "--tools", manifest, proj); code != exitOK {
		t.Fatalf("second init: exit %d, %s", code, errOut)
	}
	// but never a tsconfig.json it did not write.
	if err := os.WriteFile(filepath.Join(proj, "tsconfig.json"), []byte(`{"compilerOptions":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = invoke(t, "", "init", "--tools", manifest, proj)
	if code != exitUsage || !strings.Contains(errOut, "was not written by runcode") {
		t.Fatalf("init over a foreign tsconfig: exit %d, stderr %q", code, errOut)
	}
	if data, _ := os.ReadFile(filepath.Join(proj, "tsconfig.json")); string(data) != `{"compilerOptions":{}}` {
		t.Fatalf("the foreign tsconfig.json was changed: %s", data)
	}
}

func TestRunTypecheckFailsBeforeAnyToolCall(t *testing.T) {
	needTSC(t)
	dir := checkProject(t)
	manifest := filepath.Join(dir, "tools.json")
	for _, name := range []string{"bad-body.ts", "bad-module.ts"} {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := invoke(t, "", "run", "--isolation", "inprocess", "--typecheck", "--json", "--tools", manifest, filepath.Join(dir, name))
			want := `{"logs":[],"error":{"kind":"typecheck","message":"main.ts:3:7: Type 'number' is not assignable to type 'string'.\nmain.ts:5:22: Type 'number' is not assignable to type 'string'."}}` + "\n"
			if code != exitFailed || out != want {
				t.Fatalf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
			}
			code, out, _ = invoke(t, "", "run", "--isolation", "inprocess", "--typecheck", "--tools", manifest, filepath.Join(dir, name))
			if code != exitFailed || !strings.HasPrefix(out, "Error: code run failed (typecheck): main.ts:3:7: ") {
				t.Fatalf("exit %d, stdout %q", code, out)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "calls.log")); err == nil {
		t.Fatal("a program that failed its typecheck called a tool")
	}
	// A program that typechecks runs, and the tools are called.
	code, out, errOut := invoke(t, "", "run", "--isolation", "inprocess", "--typecheck", "--json", "--tools", manifest, filepath.Join(dir, "good-module.ts"))
	if code != exitOK || out != `{"logs":[],"result":{"sum":3,"twice":6}}`+"\n" {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "calls.log")); strings.TrimSpace(string(data)) != `{"note":"sum 3"}` {
		t.Fatalf("calls.log = %q", data)
	}
}

// The same file gives the same result in both forms' runs, in both isolations.
func TestModuleFormRunsLikeTheBodyForm(t *testing.T) {
	dir := checkProject(t)
	manifest := filepath.Join(dir, "tools.json")
	for _, iso := range []string{"inprocess", "process"} {
		t.Run(iso, func(t *testing.T) {
			_, body, _ := invoke(t, "", "run", "--isolation", iso, "--json", "--tools", manifest, filepath.Join(dir, "good-body.ts"))
			code, module, errOut := invoke(t, "", "run", "--isolation", iso, "--json", "--tools", manifest, filepath.Join(dir, "good-module.ts"))
			if code != exitOK || module != body || module != `{"logs":[],"result":{"sum":3,"twice":6}}`+"\n" {
				t.Fatalf("exit %d, stderr %q: module %q, body %q", code, errOut, module, body)
			}
		})
	}
	code, out, _ := invoke(t, "console.log('x');\nexport {};\n", "run", "--isolation", "inprocess", "--json", "--tools", manifest, "-")
	if code != exitOK || out != `{"logs":["x"]}`+"\n" {
		t.Fatalf("export {}: exit %d, stdout %q", code, out)
	}
}

// Without a compiler, check and run --typecheck stop with exit 2 and the install hint; without
// --typecheck, run never starts one.
func TestNoCompilerOnPath(t *testing.T) {
	dir := checkProject(t)
	manifest := filepath.Join(dir, "tools.json")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("RUNCODE_TSC", "")
	for _, args := range [][]string{
		{"check", "--tools", manifest, filepath.Join(dir, "good-body.ts")},
		{"run", "--isolation", "inprocess", "--typecheck", "--tools", manifest, filepath.Join(dir, "good-body.ts")},
	} {
		code, out, errOut := invoke(t, "", args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "no TypeScript compiler found") || !strings.Contains(errOut, "npm i -g typescript") {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", args[0], code, out, errOut)
		}
	}
	// A compiler that records being started.
	marker := filepath.Join(dir, "tsc-started")
	fake := filepath.Join(dir, "fake-tsc")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho started > "+marker+"\necho 'Version 5.9.3'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RUNCODE_TSC", fake)
	code, out, errOut := invoke(t, "return 1 + 1;", "run", "--isolation", "inprocess", "--tools", manifest, "-")
	if code != exitOK || out != "2\n" {
		t.Fatalf("run without --typecheck: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("run without --typecheck started the compiler")
	}
}

// serve --typecheck checks each run_code program (with a warm compiler) before it runs.
func TestServeTypecheck(t *testing.T) {
	needTSC(t)
	dir := checkProject(t)
	p := startCLI(t, "serve", "--stdio", "--isolation", "inprocess", "--typecheck", "--tools", filepath.Join(dir, "tools.json"))
	p.initialize()
	p.callRunCode(2, badBody)
	m, line := p.recvID("2", 60*time.Second)
	text, isErr := resultText(t, m, line, 2)
	if !isErr || !strings.Contains(text, "code run failed (typecheck): main.ts:3:7: Type 'number' is not assignable to type 'string'.\nmain.ts:5:22: ") {
		t.Fatalf("result %q (isError %v)", text, isErr)
	}
	p.callRunCode(3, goodModule)
	m, line = p.recvID("3", 60*time.Second)
	if text, isErr := resultText(t, m, line, 3); isErr || !strings.Contains(text, `"twice": 6`) {
		t.Fatalf("result %q (isError %v)", text, isErr)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "calls.log")); strings.TrimSpace(string(data)) != `{"note":"sum 3"}` {
		t.Fatalf("calls.log = %q", data)
	}
}

// The "Typings for editors" walk-through (docs/editors.md), command for command and output for
// output, in a project with one Go file holding two TODO markers: init a directory, put the
// programs of examples/editor in it, and tsc -p, check, run and run --typecheck print what the
// page shows.
func TestEditorExamples(t *testing.T) {
	tsc := needTSC(t)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(fixture(t, map[string]string{"main.go": "package main\n\n// TODO: flags\n// TODO: help\nfunc main() {}\n"}))

	// shell collects what the page's shell blocks show: each command after "$ " and its output.
	var shell strings.Builder
	session := func(out string, args ...string) {
		shell.WriteString("$ runcode " + strings.Join(args, " ") + "\n" + out)
	}
	var blocks []string
	endBlock := func() { blocks = append(blocks, shell.String()); shell.Reset() }

	code, out, errOut := invoke(t, "", "init", "--workspace", ".", "scripts")
	if code != exitOK || out != "wrote scripts/tools.d.ts and scripts/tsconfig.json\n" {
		t.Fatalf("init: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	session(out, "init", "--workspace", ".", "scripts")
	endBlock()
	var files []string
	for _, name := range []string{"todos.ts", "broken.ts"} {
		data, err := os.ReadFile(filepath.Join(repo, "examples/editor", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("scripts", name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, string(data))
	}
	expect := func(what string, code, wantCode int, out, want string) {
		t.Helper()
		if code != wantCode || out != want {
			t.Errorf("%s: exit %d, want %d; output:\n%s\nwant:\n%s", what, code, wantCode, out, want)
		}
	}

	code, out, _ = invoke(t, "", "check", "--workspace", ".", "scripts/todos.ts")
	expect("check todos.ts", code, exitOK, out, "")
	session(out, "check", "--workspace", ".", "scripts/todos.ts")
	code, out, _ = invoke(t, "", "run", "--workspace", ".", "scripts/todos.ts")
	expect("run todos.ts", code, exitOK, out, "files with markers: 1\n{\n  \"markers\": 2,\n  \"files\": 1\n}\n")
	session(out, "run", "--workspace", ".", "scripts/todos.ts")
	endBlock()
	code, out, _ = invoke(t, "", "check", "--workspace", ".", "scripts/broken.ts")
	expect("check broken.ts", code, exitFailed, out, "scripts/broken.ts:2:7: error TS2322: Type 'number' is not assignable to type 'string'.\n")
	session(out, "check", "--workspace", ".", "scripts/broken.ts")
	cmd := exec.Command(tsc, "-p", "scripts", "--pretty", "false")
	tscOut, err := cmd.CombinedOutput() // exit status 1 (TypeScript 7) or 2 (5): errors
	if want := "scripts/broken.ts(2,7): error TS2322: Type 'number' is not assignable to type 'string'.\n"; err == nil || string(tscOut) != want {
		t.Errorf("tsc -p scripts: %v, output:\n%s\nwant:\n%s", err, tscOut, want)
	}
	shell.WriteString("$ tsc -p scripts --pretty false\n" + string(tscOut))
	code, out, _ = invoke(t, "", "run", "--typecheck", "--workspace", ".", "scripts/broken.ts")
	expect("run --typecheck broken.ts", code, exitFailed, out, "Error: code run failed (typecheck): main.ts:2:7: Type 'number' is not assignable to type 'string'.\n")
	session(out, "run", "--typecheck", "--workspace", ".", "scripts/broken.ts")
	endBlock()

	// The "Typings for editors" section (docs/editors.md) shows exactly these sessions and files.
	for page, section := range docSections(t, repo, "Typings for editors") {
		for _, b := range blocks {
			if !strings.Contains(section, "```sh\n"+b+"```\n") {
				t.Errorf("%s: Typings for editors lacks this shell block:\n%s", page, b)
			}
		}
		for _, f := range files {
			if !strings.Contains(section, "```ts\n"+f+"```\n") {
				t.Errorf("%s: Typings for editors lacks this example file:\n%s", page, f)
			}
		}
	}

	// The same program as a body (what a model sends to run_code) gives the same outcome.
	data, _ := os.ReadFile("scripts/todos.ts")
	body := strings.Replace(string(data), "export default ", "return ", 1)
	_, module, _ := invoke(t, "", "run", "--json", "--workspace", ".", "scripts/todos.ts")
	if _, out, _ := invoke(t, body, "run", "--json", "--workspace", ".", "-"); out != module || module == "" {
		t.Fatalf("body form %q, module form %q", out, module)
	}
}

// typeBomb is a program whose types take the compiler many seconds (12s cold with TypeScript
// 7.0 on the development machine).
const typeBomb = `type Pair<T> = { l: T; r: T };
type Tree<T, N extends unknown[]> = N["length"] extends 80 ? T : Tree<Pair<T> | [T, T] | (T extends object ? { x: T } : never), [...N, 0]>;
type Deep<T> = { [K in keyof T]: T[K] extends object ? Deep<T[K]> : T[K] };
declare const a: Deep<Tree<{ v: 1 }, []>>;
declare const b: Deep<Tree<{ v: 2 }, []>>;
const c: typeof a = b;
export {};
`

// run --typecheck with a short --timeout: the typecheck is bounded by the run's wall-clock
// ceiling, and when the CLI has exited no compiler is left running and no scratch project is
// left behind.
func TestRunTypecheckTimeoutLeavesNoCompiler(t *testing.T) {
	needTSC(t)
	if _, err := os.Stat("/proc/self/cwd"); err != nil {
		t.Skip("no /proc")
	}
	dir := checkProject(t)
	bomb := filepath.Join(dir, "bomb.ts")
	if err := os.WriteFile(bomb, []byte(typeBomb), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	env := append(os.Environ(), cliEnv+"=1", "TMPDIR="+tmp)
	start := time.Now()
	p := startCLIWithEnv(t, env, "run", "--isolation", "inprocess", "--typecheck", "--timeout", "2s", "--tools", filepath.Join(dir, "tools.json"), bomb)
	code := p.wait(30 * time.Second)
	took := time.Since(start)
	out, _ := io.ReadAll(p.stdout)
	t.Logf("exit %d after %v: %s", code, took, strings.TrimSpace(string(out)))
	// A compiler still running has its working directory in its scratch project under tmp.
	deadline := time.Now().Add(2 * time.Second)
	for {
		left := processesUnder(t, tmp)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Fatalf("compiler processes %v still running after the CLI exited", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "runcode-typecheck-") {
			t.Fatalf("scratch project %s left behind", e.Name())
		}
	}
	// The typecheck ended at the run's ceiling: the run failed its typecheck, not abandoned.
	if want := "Error: code run failed (typecheck): the program could not be typechecked: typecheck: the TypeScript compiler failed: no answer within 2s\n"; code != exitFailed || string(out) != want {
		t.Fatalf("exit %d, stdout %q, want %q; stderr %q", code, out, want, p.stderr.String())
	}
}

// processesUnder returns the processes whose working directory is dir or below it.
func processesUnder(t *testing.T, dir string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err == nil && (cwd == dir || strings.HasPrefix(cwd, dir+"/")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// check and run --typecheck refuse a program that names a file outside itself, and the text
// of that file never reaches their output.
func TestTypecheckRefusesHostFiles(t *testing.T) {
	needTSC(t)
	dir := checkProject(t)
	manifest := filepath.Join(dir, "tools.json")
	host := t.TempDir()
	const secret = "RUNCODE-HOST-SECRET-5519"
	if err := os.WriteFile(filepath.Join(host, "secret.ts"), []byte("export declare const n: \""+secret+"\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(host, "global.ts"), []byte("declare const leaked: \""+secret+"\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	programs := map[string]struct {
		text, what string
		line       int
	}{
		"reference.ts": {"/// <reference path=\"" + filepath.Join(host, "global.ts") + "\" />\nconst y: \"a\" = leaked;\nexport {};\n", "`/// <reference path`", 1},
		"import.ts":    {"const k = 1;\nconst x: \"a\" = null as any as (typeof import(\"" + filepath.Join(host, "secret") + "\"))[\"n\"];\nreturn x;\n", "`import(`", 2},
	}
	for name, p := range programs {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, name)
			if err := os.WriteFile(file, []byte(p.text), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := invoke(t, "", "check", "--tools", manifest, file)
			want := fmt.Sprintf("%s:%d:", file, p.line)
			if code != exitFailed || !strings.HasPrefix(out, want) || !strings.Contains(out, p.what+": triple-slash directives and imports are not supported") || strings.Contains(out+errOut, secret) {
				t.Fatalf("check: exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			code, out, errOut = invoke(t, "", "run", "--isolation", "inprocess", "--typecheck", "--tools", manifest, file)
			want = fmt.Sprintf("Error: code run failed (typecheck): main.ts:%d:", p.line)
			if code != exitFailed || !strings.HasPrefix(out, want) || strings.Contains(out+errOut, secret) {
				t.Fatalf("run --typecheck: exit %d, stdout %q, stderr %q", code, out, errOut)
			}
		})
	}
}

// One invocation starts each configured MCP server once: check (which lists the tools for the
// SDK) and run --typecheck (which checks against the SDK, then runs against the same servers)
// share one start per server, whatever the number of servers, tools or calls.
func TestConfigServersStartOncePerInvocation(t *testing.T) {
	needTSC(t)
	needMCP(t, "mcp-server-memory")
	dir := fixture(t, map[string]string{
		"ok.ts":  "const g = await tools.a.read_graph({});\nconst h = await tools.b.read_graph({});\nreturn g.entities.length + h.entities.length;\n",
		"bad.ts": "const n: string = (await tools.a.read_graph({})).entities.length;\nreturn n;\n",
	})
	starts := filepath.Join(dir, "starts")
	entry := func(name string) string {
		return `"` + name + `": {"command": "sh", "args": ["-c", "echo started >> \"$STARTS/` + name + `\"; exec mcp-server-memory"], "env": {"STARTS": "` + starts + `", "MEMORY_FILE_PATH": "` + filepath.Join(dir, name+".jsonl") + `"}}`
	}
	config := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(config, []byte(`{"mcpServers": {`+entry("a")+`, `+entry("b")+`}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		exit int
		out  string
	}{
		{[]string{"check", "--config", config, filepath.Join(dir, "ok.ts")}, exitOK, ""},
		{[]string{"check", "--config", config, filepath.Join(dir, "bad.ts")}, exitFailed, "bad.ts:1:7: error TS2322"},
		{[]string{"run", "--typecheck", "--config", config, filepath.Join(dir, "ok.ts")}, exitOK, "0"},
	} {
		os.RemoveAll(starts)
		if err := os.Mkdir(starts, 0o755); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := invokeWithin(t, 2*time.Minute, c.args...)
		if code != c.exit || !strings.Contains(out, c.out) {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", c.args[0], code, out, errOut)
		}
		for _, name := range []string{"a", "b"} {
			data, err := os.ReadFile(filepath.Join(starts, name))
			if n := strings.Count(string(data), "started"); err != nil || n != 1 {
				t.Errorf("%s: server %s started %d times (%v), want once", strings.Join(c.args[:2], " "), name, n, err)
			}
		}
	}
}
