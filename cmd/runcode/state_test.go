package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// runExe runs the CLI binary (this test binary as runcode) with args and stdin, and returns
// its exit status and combined output.
func runExe(t *testing.T, stdin string, args ...string) (int, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return 0, string(out)
}

const counterProgram = `const n = ((await state.get("count")) ?? 0) + 1;
await state.set("count", n);
await state.set("last", { n, list: [n, "x"] });
return { n, keys: await state.keys() };`

// state survives between two `runcode run --state DIR` processes, in both isolations, and
// several processes writing one directory at once lose none of each other's keys.
func TestStateSurvivesRunInvocations(t *testing.T) {
	for _, iso := range []string{"inprocess", "process"} {
		t.Run(iso, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			for i := 1; i <= 2; i++ {
				code, out := runExe(t, counterProgram, "run", "--json", "--isolation", iso, "--state", dir, "-")
				if want := fmt.Sprintf(`{"logs":[],"result":{"n":%d,"keys":["count","last"]}}`, i); code != exitOK || strings.TrimSpace(out) != want {
					t.Fatalf("run %d: exit %d, output %s, want %s", i, code, out, want)
				}
			}
		})
	}
	t.Run("concurrent processes", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "state")
		var wg sync.WaitGroup
		outs := make([]string, 3)
		for p := range outs {
			wg.Go(func() {
				program := fmt.Sprintf(`for (let i = 0; i < 20; i++) await state.set("p%d-" + i, { p: %d, i, pad: "y".repeat(200) }); return "ok"`, p, p)
				code, out := runExe(t, program, "run", "--isolation", "inprocess", "--state", dir, "-")
				outs[p] = fmt.Sprint(code, " ", strings.TrimSpace(out))
			})
		}
		wg.Wait()
		for p, out := range outs {
			if out != "0 ok" {
				t.Fatalf("writer %d: %s", p, out)
			}
		}
		code, out := runExe(t, `const ks = await state.keys(); let ok = 0; for (const k of ks) { const v = await state.get(k); if (k === "p" + v.p + "-" + v.i) ok++ } return [ks.length, ok]`,
			"run", "--json", "--state", dir, "-")
		if code != exitOK || strings.TrimSpace(out) != `{"logs":[],"result":[60,60]}` {
			t.Fatalf("exit %d: %s", code, out)
		}
	})
}

// Without --state a program's use of state fails naming the flag; a set over --max-state fails
// naming the cap and keeps what was there; a bad --max-state is a usage error.
func TestStateRefusedClearly(t *testing.T) {
	code, out := runExe(t, `await state.set("a", 1)`, "run", "-")
	if code != exitFailed || !strings.Contains(out, "ReferenceError: state is not defined") || !strings.Contains(out, "state is not available: pass --state DIR") {
		t.Fatalf("without --state: exit %d: %s", code, out)
	}
	dir := t.TempDir()
	program := `await state.set("small", "x".repeat(100));
try { await state.set("big", "x".repeat(2000)); } catch (e) { console.log(e.name, e.message); }
return await state.keys();`
	code, out = runExe(t, program, "run", "--state", dir, "--max-state", "1KiB", "-")
	if want := `StateError state.set: setting "big" would make state hold 2112 bytes, over its cap of 1024 bytes (--max-state)`; code != exitOK || !strings.Contains(out, want) || !strings.Contains(out, `[ 'small' ]`) && !strings.Contains(out, `"small"`) {
		t.Fatalf("over the cap: exit %d: %s", code, out)
	}
	code, out = runExe(t, "", "run", "--state", dir, "--max-state", "10", "-")
	if code != exitUsage || !strings.Contains(out, "--max-state must be at least 1KiB") {
		t.Fatalf("bad --max-state: exit %d: %s", code, out)
	}
}

// Two calls of one serve --stdio session share state (the official TypeScript client drives
// it), and the run_code description declares state.
func TestStateSharedByOneStdioSession(t *testing.T) {
	node, sdk := officialMCPSDK(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		flags []string
	}{
		{"memory", []string{"--isolation", "inprocess"}},
		{"dir, process isolation", []string{"--isolation", "process", "--state", filepath.Join(t.TempDir(), "s")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			programs, _ := json.Marshal([]string{`await state.set("greeting", {text: "hi"}); return "set"`, `return (await state.get("greeting")).text + " " + JSON.stringify(await state.keys())`})
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			args := append([]string{filepath.Join("testdata", "tsstateclient.cjs"), sdk, string(programs), exe, "serve", "--stdio", "--workspace", t.TempDir()}, c.flags...)
			cmd := exec.CommandContext(ctx, node, args...)
			cmd.Env = append(os.Environ(), cliEnv+"=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the client: %v\n%.2000s", err, out)
			}
			steps := map[string]struct {
				OK, IsError bool
				Text        string
			}{}
			for line := range strings.Lines(string(out)) {
				var s struct {
					Step, Text  string
					OK, IsError bool
				}
				if err := json.Unmarshal([]byte(line), &s); err != nil {
					t.Fatalf("the client printed %.300q: %v", line, err)
				}
				steps[s.Step] = struct {
					OK, IsError bool
					Text        string
				}{s.OK, s.IsError, s.Text}
			}
			if !strings.Contains(steps["tool"].Text, "declare const state: {") {
				t.Errorf("the description does not declare state:\n%s", steps["tool"].Text)
			}
			if s := steps["1"]; !s.OK || s.IsError || s.Text != `hi ["greeting"]` {
				t.Fatalf("the second call: %+v\n%s", s, out)
			}
		})
	}
}

// callText is the text of a run_code call's answer over HTTP (an SSE or JSON body).
func callText(t *testing.T, endpoint, session string, id int, code string) string {
	t.Helper()
	body := postCall(t, endpoint, session, id, code)
	if !strings.HasPrefix(body, "200 ") {
		t.Fatalf("call %d: %s", id, body)
	}
	_, data, ok := strings.Cut(body, "data: ")
	if !ok {
		data = strings.TrimPrefix(body, "200 ")
	}
	data, _, _ = strings.Cut(data, "\n")
	var msg struct {
		Result struct {
			Content []struct{ Text string }
			IsError bool
		}
	}
	if err := json.Unmarshal([]byte(data), &msg); err != nil || len(msg.Result.Content) == 0 {
		t.Fatalf("call %d: %v: %s", id, err, body)
	}
	return msg.Result.Content[0].Text
}

// Two serve --http sessions never see each other's state.
func TestStateIsolatedBetweenHTTPSessions(t *testing.T) {
	endpoint := startServeHTTP(t, "--isolation", "inprocess", "--workspace", t.TempDir())
	session := func() string {
		code, id, body := postInitialize(t, endpoint, "")
		if code != http.StatusOK || id == "" {
			t.Fatalf("initialize: %d %s", code, body)
		}
		postInitialized(t, endpoint, id)
		return id
	}
	a, b := session(), session()
	if got := callText(t, endpoint, a, 2, `await state.set("owner", "a"); return "ok"`); got != "ok" {
		t.Fatalf("a sets: %s", got)
	}
	if got := callText(t, endpoint, b, 2, `return JSON.stringify([await state.keys(), await state.get("owner")])`); got != `[[],null]` {
		t.Fatalf("b sees: %s", got)
	}
	if got := callText(t, endpoint, b, 3, `await state.set("owner", "b"); return "ok"`); got != "ok" {
		t.Fatalf("b sets: %s", got)
	}
	if got := callText(t, endpoint, a, 3, `return await state.get("owner")`); got != "a" {
		t.Fatalf("a sees: %s", got)
	}
}

// serve --http --stateless has no state without --state, and says so; with --state DIR every
// request shares the directory.
func TestStateStatelessNeedsStateDir(t *testing.T) {
	endpoint := startServeHTTP(t, "--stateless", "--isolation", "inprocess", "--workspace", t.TempDir())
	if got := callText(t, endpoint, "", 1, `await state.keys()`); !strings.Contains(got, "a serve --stateless server keeps nothing between requests; start it with --state DIR") {
		t.Fatalf("without --state: %s", got)
	}
	endpoint = startServeHTTP(t, "--stateless", "--isolation", "inprocess", "--state", t.TempDir(), "--workspace", t.TempDir())
	callText(t, endpoint, "", 1, `await state.set("k", 42)`)
	if got := callText(t, endpoint, "", 2, `return String(await state.get("k"))`); got != "42" {
		t.Fatalf("with --state: %s", got)
	}
}

// --trace records state operations like sub-calls, marked "binding": "state", with their keys
// and values; a --replay of that trace answers the tool calls and leaves state to the store.
func TestStateOperationsInTrace(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.jsonl")
	program := filepath.Join(dir, "p.ts")
	os.WriteFile(program, []byte(`await state.set("k", {v: 1}); return [await state.get("k"), await state.keys()]`), 0o644)
	code, out := runExe(t, "", "run", "--json", "--state", filepath.Join(dir, "s"), "--trace", trace, program)
	if want := `{"logs":[],"result":[{"v":1},["k"]]}`; code != exitOK || strings.TrimSpace(out) != want {
		t.Fatalf("exit %d: %s", code, out)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for line := range strings.Lines(string(data)) {
		var e struct {
			Type, Name, Binding, ParentCallID string
			Arguments, Result                 json.RawMessage
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		if e.Type == "code-dispatch" {
			names = append(names, fmt.Sprintf("%s %s %s %s %s", e.Name, e.Binding, e.ParentCallID, e.Arguments, e.Result))
		}
	}
	want := `state.set state run-1 {"key":"k","value":{"v":1}} ` + "\n" +
		`state.get state run-1 {"key":"k"} {"v":1}` + "\n" +
		`state.keys state run-1 {} ["k"]`
	if got := strings.Join(names, "\n"); got != want {
		t.Fatalf("settle events:\n%s\nwant:\n%s", got, want)
	}
	code, out = runExe(t, "", "run", "--json", "--state", filepath.Join(dir, "s2"), "--replay", trace, program)
	if want := `{"logs":[],"result":[{"v":1},["k"]]}`; code != exitOK || strings.TrimSpace(out) != want {
		t.Fatalf("replay: exit %d: %s", code, out)
	}
}

// The example keeps its count across runs, and typechecks against the SDK with state
// declared (check --state), not without it.
func TestStateExample(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	example := filepath.Join(repo, "examples", "state", "counter.ts")
	dir := filepath.Join(t.TempDir(), "state")
	for i := 1; i <= 2; i++ {
		code, out := runExe(t, "", "run", "--state", dir, example)
		if code != exitOK || !strings.HasPrefix(out, fmt.Sprintf("run: %d\n", i)) {
			t.Fatalf("run %d: exit %d: %s", i, code, out)
		}
	}
	if _, err := exec.LookPath("tsc"); err != nil {
		t.Skip("tsc not installed")
	}
	if code, out := runExe(t, "", "check", "--state", dir, example); code != exitOK {
		t.Fatalf("check --state: exit %d: %s", code, out)
	}
	if code, out := runExe(t, "", "check", example); code != exitFailed || !strings.Contains(out, "Cannot find name 'state'") {
		t.Fatalf("check without --state: exit %d: %s", code, out)
	}
	program := `try { await state.set("", 1) } catch (e) { if (e instanceof StateError) return e.operation }`
	if code, out := runExe(t, program, "check", "--state", dir, "-"); code != exitOK {
		t.Fatalf("StateError is declared: exit %d: %s", code, out)
	}
}
