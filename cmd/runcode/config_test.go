package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sideBySide is a configuration with the reference memory and filesystem servers, namespaced,
// and the everything server at the top level with only its echo tool. ${RUNCODE_TEST_DIR} is
// the fixture directory.
const sideBySide = `{
  "mcpServers": {
    "memory": {"command": "mcp-server-memory", "env": {"MEMORY_FILE_PATH": "${RUNCODE_TEST_DIR}/memory.jsonl"}},
    "fs": {"command": "mcp-server-filesystem", "args": ["${RUNCODE_TEST_DIR}"], "timeout": "20s"}
  },
  "servers": {
    "everything": {"type": "stdio", "command": "mcp-server-everything", "namespace": false, "include": ["echo"]}
  }
}`

// sideBySideProgram uses the server's read_file and the workspace's read_file in one program.
const sideBySideProgram = `await tools.memory.create_entities({ entities: [{ name: "runcode", entityType: "project", observations: ["namespaced"] }] });
const graph = await tools.memory.read_graph({});
const fromServer = await tools.fs.read_text_file({ path: DIR + "/notes.txt" });
const fromWorkspace = await tools.read_file({ path: "notes.txt" });
const echoed: string = await tools.echo({ message: "flat" });
let failedTool = "";
try { await tools.fs.read_text_file({ path: "/etc/hostname" }); } catch (e) { failedTool = (e as ToolCallError).toolName; }
export default { entities: graph.entities.map((e) => e.name), fromServer: fromServer.content, fromWorkspace: fromWorkspace.content, echoed, failedTool };
`

func sideBySideFixture(t *testing.T) (dir, config string) {
	t.Helper()
	for _, bin := range []string{"mcp-server-memory", "mcp-server-filesystem", "mcp-server-everything"} {
		needMCP(t, bin)
	}
	dir = fixture(t, map[string]string{"notes.txt": "alpha\n", "mcp.json": sideBySide})
	dir, _ = filepath.EvalSymlinks(dir)
	t.Setenv("RUNCODE_TEST_DIR", dir)
	program := "declare const DIR: string;\n" + sideBySideProgram
	if err := os.WriteFile(filepath.Join(dir, "prog.ts"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(dir, "mcp.json")
}

// Two real MCP servers from a configuration beside the workspace tools, two of them with a
// read_file: each server in its namespace, so the SDK, the type checker and the runtime agree
// and the trace names tools <server>.<tool>.
func TestConfigServersSideBySide(t *testing.T) {
	dir, config := sideBySideFixture(t)
	ws := []string{"--config", config, "--workspace", dir}

	code, out, errOut := invokeWithin(t, time.Minute, append([]string{"tools"}, ws...)...)
	if code != exitOK {
		t.Fatalf("tools: exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"\nmemory.read_graph ", "\nfs.read_file ", "\nfs.read_text_file ", "\nread_file ", "\necho "} {
		if !strings.Contains("\n"+out, want) {
			t.Errorf("tools lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "everything.") || strings.Contains(out, "\nadd ") {
		t.Errorf("the flat, filtered everything server lists other tools:\n%s", out)
	}

	code, out, errOut = invokeWithin(t, time.Minute, append([]string{"sdk"}, ws...)...)
	if code != exitOK || !strings.Contains(out, "\n  fs: {\n") || !strings.Contains(out, "\n  memory: {\n") || !strings.Contains(out, "    read_graph(args?: Record<string, never>): Promise<") {
		t.Fatalf("sdk: exit %d, stderr %q\n%s", code, errOut, out)
	}
	code, out, _ = invokeWithin(t, time.Minute, append([]string{"sdk", "--compact"}, ws...)...)
	if code != exitOK || !strings.Contains(out, "\n- memory.read_graph — ") || !strings.Contains(out, "\n- fs.read_file — ") {
		t.Fatalf("sdk --compact: exit %d\n%s", code, out)
	}

	needTSC(t)
	code, out, errOut = invokeWithin(t, 2*time.Minute, append(append([]string{"check"}, ws...), filepath.Join(dir, "prog.ts"))...)
	if code != exitOK {
		t.Fatalf("check: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	bad := filepath.Join(dir, "bad.ts")
	os.WriteFile(bad, []byte("await tools.memory.read_file({ path: \"x\" });\nawait tools.fs.read_graph({});\nexport {};\n"), 0o644)
	code, out, _ = invokeWithin(t, 2*time.Minute, append(append([]string{"check"}, ws...), bad)...)
	if code != exitFailed || !strings.Contains(out, "bad.ts:1:") || !strings.Contains(out, "'read_file' does not exist") || !strings.Contains(out, "bad.ts:2:") {
		t.Fatalf("check of a program that swaps the namespaces: exit %d\n%s", code, out)
	}

	trace := filepath.Join(dir, "trace.jsonl")
	program := "const DIR = " + quoteJS(dir) + ";\n" + sideBySideProgram
	progFile := filepath.Join(dir, "run.ts")
	os.WriteFile(progFile, []byte(program), 0o644)
	for _, iso := range []string{"inprocess", "process"} {
		os.Remove(filepath.Join(dir, "memory.jsonl"))
		code, out, errOut = invokeWithin(t, 2*time.Minute, append(append([]string{"run", "--json", "--typecheck", "--isolation", iso, "--trace", trace}, ws...), progFile)...)
		want := `{"logs":[],"result":{"entities":["runcode"],"fromServer":"alpha\n","fromWorkspace":"alpha\n","echoed":"Echo: flat","failedTool":"fs.read_text_file"}}`
		if code != exitOK || strings.TrimSpace(out) != want {
			t.Fatalf("run (%s): exit %d\nstdout %s\nwant   %s\nstderr %s", iso, code, out, want, errOut)
		}
		data, _ := os.ReadFile(trace)
		for _, name := range []string{`"name":"memory.create_entities"`, `"name":"memory.read_graph"`, `"name":"fs.read_text_file"`, `"name":"read_file"`, `"name":"echo"`} {
			if !strings.Contains(string(data), name) {
				t.Errorf("trace (%s) lacks %s", iso, name)
			}
		}
	}
}

// quoteJS quotes s as a JavaScript string literal.
func quoteJS(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// Configuration errors stop every command with exit 2 and a message naming the file, the
// server and what is wrong, and never showing an env or header value.
func TestConfigErrorsExitTwo(t *testing.T) {
	const secret = "cfg-secret-value-42"
	t.Setenv("RUNCODE_TEST_SECRET", secret)
	dir := fixture(t, map[string]string{
		"missing.json": `{"mcpServers": {"remote": {"url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer ${RUNCODE_TEST_UNSET}"}}}}`,
		"unknown.json": `{"mcpServers": {"memory": {"command": "mcp-server-memory", "enabled": true}}}`,
		"sse.json":     `{"mcpServers": {"old": {"type": "sse", "url": "http://127.0.0.1:1/sse"}}}`,
		"fails.json":   `{"mcpServers": {"ok": {"command": "sh", "args": ["-c", "cat >/dev/null"]}, "broken": {"command": "sh", "args": ["-c", "echo \"token=$TOKEN\" >&2; exit 4"], "env": {"TOKEN": "${RUNCODE_TEST_SECRET}"}}}}`,
		"clash.json":   `{"mcpServers": {"read_file": {"command": "mcp-server-memory"}}}`,
		"a.json":       `{"mcpServers": {"twice": {"command": "mcp-server-memory"}}}`,
		"b.json":       `{"servers": {"twice": {"command": "mcp-server-memory"}}}`,
	})
	code, _, errOut := invokeWithin(t, time.Minute, "tools", "--config", filepath.Join(dir, "a.json"), "--config", filepath.Join(dir, "b.json"))
	if code != exitUsage || !strings.Contains(errOut, `server "twice" is defined by both config `) {
		t.Errorf("a server in two files: exit %d, stderr %q", code, errOut)
	}
	cases := []struct{ file, want string }{
		{"missing.json", `server "remote": "headers": "Authorization": environment variable RUNCODE_TEST_UNSET is not set`},
		{"unknown.json", `server "memory": "enabled": unknown key`},
		{"sse.json", `server "old": "type": "sse" (the older HTTP+SSE transport) is not supported`},
		{"fails.json", `MCP server "broken" (sh -c echo "token=$TOKEN" >&2; exit 4): cannot start`},
	}
	if _, err := exec.LookPath("mcp-server-memory"); err == nil {
		cases = append(cases, struct{ file, want string }{"clash.json", `"read_file" is both a tool and a namespace`})
	}
	for _, c := range cases {
		for _, cmd := range []string{"tools", "sdk", "run"} {
			args := []string{cmd, "--config", filepath.Join(dir, c.file), "--workspace", dir}
			if cmd == "run" {
				args = append(args, "-")
			}
			code, out, errOut := invokeWithin(t, time.Minute, args...)
			if code != exitUsage || out != "" || !strings.Contains(errOut, c.want) {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 2 and …%s…", cmd, c.file, code, out, errOut, c.want)
			}
			if strings.Contains(errOut, secret) {
				t.Errorf("%s %s: stderr shows the secret: %q", cmd, c.file, errOut)
			}
		}
	}
}

// The files users have (issue 24): VS Code's JSONC, and a server marked "disabled", which is
// skipped with one warning and never started; a server name given twice is an error.
func TestConfigJSONCAndDisabled(t *testing.T) {
	needMCP(t, "mcp-server-memory")
	dir := fixture(t, map[string]string{
		"mcp.json": `// .vscode/mcp.json
{
  "servers": {
    "memory": {"type": "stdio", "command": "mcp-server-memory",}, // trailing comma
    /* not started: its command does not exist */
    "off": {"command": "/nonexistent/server", "disabled": true, "autoApprove": ["x"]},
  },
  "inputs": [],
}`,
		"dup.json": `{"mcpServers": {"memory": {"command": "mcp-server-memory"}, "memory": {"command": "/nonexistent/server"}}}`,
	})
	config := filepath.Join(dir, "mcp.json")
	code, out, errOut := invokeWithin(t, time.Minute, "tools", "--config", config)
	if code != exitOK || !strings.Contains(out, "memory.read_graph") || strings.Contains(out, "off.") {
		t.Fatalf("tools: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	want := "runcode: warning: config " + config + ": server \"off\" is disabled (\"disabled\": true); skipped\n"
	if errOut != want {
		t.Fatalf("stderr %q, want %q", errOut, want)
	}
	code, _, errOut = invokeWithin(t, time.Minute, "tools", "--config", filepath.Join(dir, "dup.json"))
	if code != exitUsage || !strings.Contains(errOut, `dup.json: server "memory": defined twice in "mcpServers"`) {
		t.Fatalf("a name given twice: exit %d, stderr %q", code, errOut)
	}
}

// Servers start in parallel: each of three servers waits, before it starts, until all three
// have been launched, so a one-at-a-time start could not get past the first (its wait would
// time out and it would fail).
func TestConfigServersStartInParallel(t *testing.T) {
	needMCP(t, "mcp-server-memory")
	dir := fixture(t, nil)
	barrier := `touch "$BARRIER_DIR/$NAME"; i=0; while [ "$(ls "$BARRIER_DIR" | wc -l)" -lt 3 ]; do i=$((i+1)); [ $i -gt 200 ] && { echo "alone after 20s" >&2; exit 1; }; sleep 0.1; done; exec mcp-server-memory`
	var entries []string
	for _, name := range []string{"a", "b", "c"} {
		entries = append(entries, `"`+name+`": {"command": "sh", "args": ["-c", `+quoteJS(barrier)+`], "env": {"NAME": "`+name+`", "BARRIER_DIR": "${RUNCODE_TEST_BARRIER}", "MEMORY_FILE_PATH": "${RUNCODE_TEST_BARRIER}/../`+name+`.jsonl"}}`)
	}
	barrierDir := filepath.Join(dir, "barrier")
	os.Mkdir(barrierDir, 0o755)
	t.Setenv("RUNCODE_TEST_BARRIER", barrierDir)
	config := filepath.Join(dir, "mcp.json")
	os.WriteFile(config, []byte(`{"mcpServers": {`+strings.Join(entries, ",")+`}}`), 0o644)
	code, out, errOut := invokeWithin(t, time.Minute, "tools", "--config", config)
	if code != exitOK || !strings.Contains(out, "a.read_graph") || !strings.Contains(out, "c.read_graph") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// --mcp-header sends headers (with ${VAR} expanded) to the --mcp-url before it, and a header
// value never appears in output, trace or errors.
func TestMCPHeaders(t *testing.T) {
	const token = "hdr-secret-token-77"
	t.Setenv("RUNCODE_TEST_TOKEN", token)
	srv := mcp.NewServer(&mcp.Implementation{Name: "guarded", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Description: "Echo the authorization header."},
		func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "you sent " + req.Extra.Header.Get("Authorization")}}}, nil, nil
		})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	defer hs.Close()

	dir := fixture(t, map[string]string{"p.ts": "return await tools.whoami({});"})
	trace := filepath.Join(dir, "t.jsonl")
	code, out, errOut := invokeWithin(t, time.Minute, "run", "--isolation", "inprocess", "--trace", trace,
		"--mcp-url", hs.URL, "--mcp-header", "Authorization: Bearer ${RUNCODE_TEST_TOKEN}", filepath.Join(dir, "p.ts"))
	if code != exitOK || out != "you sent [redacted]\n" {
		t.Fatalf("run: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if data, _ := os.ReadFile(trace); !strings.Contains(string(data), "you sent [redacted]") || strings.Contains(string(data), token) {
		t.Fatalf("trace: %s", data)
	}
	// The same server from a configuration file, namespaced.
	config := filepath.Join(dir, "mcp.json")
	os.WriteFile(config, []byte(`{"mcpServers": {"guarded": {"url": "`+hs.URL+`", "headers": {"Authorization": "Bearer ${RUNCODE_TEST_TOKEN}"}}}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "q.ts"), []byte("return await tools.guarded.whoami({});"), 0o644)
	code, out, errOut = invokeWithin(t, time.Minute, "run", "--isolation", "inprocess", "--config", config, filepath.Join(dir, "q.ts"))
	if code != exitOK || out != "you sent [redacted]\n" {
		t.Fatalf("run --config: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tools", "--mcp-url", hs.URL}, `MCP server "127.0.0.1:`},
		{[]string{"tools", "--mcp-url", hs.URL, "--mcp-header", "Authorization: Bearer wrong-" + token}, "Unauthorized"},
		{[]string{"tools", "--mcp-header", "Authorization: Bearer " + token, "--mcp-url", hs.URL}, "must follow the --mcp-url it is for"},
		{[]string{"tools", "--mcp-url", hs.URL, "--mcp-header", "no colon " + token}, "--mcp-header wants 'Name: value'"},
		{[]string{"tools", "--mcp-url", hs.URL, "--mcp-header", "X-Key: ${RUNCODE_TEST_UNSET}"}, "environment variable RUNCODE_TEST_UNSET is not set"},
	} {
		code, out, errOut := invokeWithin(t, time.Minute, c.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, c.want) || strings.Contains(errOut, token) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2, …%s…, no token", c.args, code, out, errOut, c.want)
		}
	}
}

// A configured env value never comes back: the everything server's get-env tool returns the
// whole environment, and the program, its output, the trace and --json see the value redacted.
func TestConfigEnvValueRedactedFromResults(t *testing.T) {
	needMCP(t, "mcp-server-everything")
	const secret = "env-secret-value-99"
	t.Setenv("RUNCODE_TEST_SECRET", secret)
	dir := fixture(t, map[string]string{
		"mcp.json": `{"mcpServers": {"ev": {"command": "mcp-server-everything", "env": {"MY_API_KEY": "${RUNCODE_TEST_SECRET}"}}}}`,
		"p.ts":     `const env: string = await tools.ev["get-env"]({}); console.log(env.includes("MY_API_KEY")); return env.split("\n").filter((l) => l.includes("MY_API_KEY"));`,
	})
	trace := filepath.Join(dir, "t.jsonl")
	code, out, errOut := invokeWithin(t, time.Minute, "run", "--json", "--trace", trace, "--config", filepath.Join(dir, "mcp.json"), filepath.Join(dir, "p.ts"))
	if code != exitOK || !strings.HasPrefix(out, `{"logs":["true"],"result":["  \"MY_API_KEY\": \"[redacted]\"`) || strings.Contains(out, secret) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	data, _ := os.ReadFile(trace)
	if !strings.Contains(string(data), `ev.get-env`) || strings.Contains(string(data), secret) {
		t.Fatalf("trace names ev.get-env: %v; shows the secret: %v", strings.Contains(string(data), `ev.get-env`), strings.Contains(string(data), secret))
	}
}

// Server names that are not identifiers, or that are names of Object.prototype, are namespaces
// like any other: bracket access where needed, and the SDK, tsc and both runtimes agree.
func TestConfigOddServerNames(t *testing.T) {
	needMCP(t, "mcp-server-memory")
	dir := fixture(t, map[string]string{
		"mcp.json": `{"mcpServers": {
		  "my-memory": {"command": "mcp-server-memory", "env": {"MEMORY_FILE_PATH": "${RUNCODE_TEST_DIR}/1.jsonl"}, "include": ["read_graph"]},
		  "__proto__": {"command": "mcp-server-memory", "env": {"MEMORY_FILE_PATH": "${RUNCODE_TEST_DIR}/2.jsonl"}, "include": ["read_graph"]},
		  "constructor": {"command": "mcp-server-memory", "env": {"MEMORY_FILE_PATH": "${RUNCODE_TEST_DIR}/3.jsonl"}, "include": ["read_graph"]}}}`,
		"p.ts": `const a = await tools["my-memory"].read_graph({});
const b = await tools.__proto__.read_graph({});
const c = await tools.constructor.read_graph({});
export default [a.entities.length, b.relations.length, c.entities.length, Object.keys(tools).sort()];
`,
	})
	t.Setenv("RUNCODE_TEST_DIR", dir)
	config, prog := filepath.Join(dir, "mcp.json"), filepath.Join(dir, "p.ts")
	code, out, errOut := invokeWithin(t, time.Minute, "sdk", "--compact", "--config", config)
	if code != exitOK || !strings.Contains(out, "\n- \"my-memory\".read_graph — ") || !strings.Contains(out, "\n- __proto__.read_graph — ") {
		t.Fatalf("sdk --compact: exit %d, stderr %q\n%s", code, errOut, out)
	}
	if _, err := exec.LookPath("tsc"); err == nil {
		if code, out, errOut := invokeWithin(t, 2*time.Minute, "check", "--config", config, prog); code != exitOK {
			t.Fatalf("check: exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	}
	for _, iso := range []string{"inprocess", "process"} {
		code, out, errOut := invokeWithin(t, time.Minute, "run", "--json", "--isolation", iso, "--config", config, prog)
		if want := `{"logs":[],"result":[0,0,0,["__proto__","constructor","my-memory"]]}`; code != exitOK || strings.TrimSpace(out) != want {
			t.Fatalf("run (%s): exit %d, stdout %q, stderr %q", iso, code, out, errOut)
		}
	}
}

// serve --config offers run_code over the configured servers: its description declares the
// namespaces and a call reaches the server.
func TestServeWithConfig(t *testing.T) {
	needMCP(t, "mcp-server-memory")
	dir := fixture(t, map[string]string{"mcp.json": `{"mcpServers": {"memory": {"command": "mcp-server-memory", "env": {"MEMORY_FILE_PATH": "${RUNCODE_TEST_DIR}/m.jsonl"}}}}`})
	t.Setenv("RUNCODE_TEST_DIR", dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, exit, stderr, err := connectServeStdio(ctx, "--isolation", "inprocess", "--config", filepath.Join(dir, "mcp.json"))
	if err != nil {
		t.Fatalf("%v; stderr %s", err, stderr.String())
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 1 || !strings.Contains(list.Tools[0].Description, "  memory: {\n") {
		t.Fatalf("tools: %v %+v", err, list)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{
		"description": "Count graph entities",
		"code": `await tools.memory.create_entities({ entities: [{ name: "a", entityType: "t", observations: [] }] });
return (await tools.memory.read_graph({})).entities.length;`}})
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "1" {
		t.Fatalf("run_code: %v %+v; stderr %s", err, res, stderr.String())
	}
	cs.Close()
	if code := <-exit; code != exitOK {
		t.Fatalf("serve exited %d; stderr %s", code, stderr.String())
	}
}

// In the compact presentation, the catalog names namespaced tools <server>.<tool> and
// describes them nested, as the full SDK declares them.
func TestConfigCompactCatalog(t *testing.T) {
	needMCP(t, "mcp-server-memory")
	dir := fixture(t, map[string]string{
		"mcp.json": `{"mcpServers": {"memory": {"command": "mcp-server-memory", "env": {"MEMORY_FILE_PATH": "${RUNCODE_TEST_DIR}/m.jsonl"}}}}`,
		"p.ts": `const d = await catalog.describe("memory.read_graph");
const found = (await catalog.search("graph")).map((t) => t.name);
return { nested: d.includes("  memory: {\n    /** Read the entire knowledge graph */\n    read_graph("), first: found[0], entities: (await tools.memory.read_graph({})).entities.length };`,
	})
	t.Setenv("RUNCODE_TEST_DIR", dir)
	code, out, errOut := invokeWithin(t, time.Minute, "run", "--json", "--compact", "--isolation", "inprocess", "--config", filepath.Join(dir, "mcp.json"), filepath.Join(dir, "p.ts"))
	if want := `{"logs":[],"result":{"nested":true,"first":"memory.read_graph","entities":0}}`; code != exitOK || strings.TrimSpace(out) != want {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A configuration that lists runcode itself, reading the same file (the client's own file with
// runcode's entry in it), stops with an error naming the loop instead of starting runcode after
// runcode.
func TestConfigThatStartsItselfIsALoop(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := fixture(t, nil)
	config := filepath.Join(dir, "mcp.json")
	os.WriteFile(config, []byte(`{"mcpServers": {"runcode": {"command": `+quoteJS(exe)+`, "args": ["serve", "--stdio", "--isolation", "inprocess", "--config", `+quoteJS(config)+`], "env": {"`+cliEnv+`": "1"}}}}`), 0o644)
	code, out, errOut := invokeWithin(t, time.Minute, "tools", "--config", config)
	if code != exitUsage || out != "" || !strings.Contains(errOut, `MCP server "runcode"`) || !strings.Contains(errOut, "config "+config+" is already being loaded by the runcode that started this one") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// --mcp-max-message caps what an MCP server may send: a larger answer fails its call, with
// the cap named, and the server answers the next call.
func TestMCPMaxMessage(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "wordy", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "say", Description: "Say n x's."},
		func(_ context.Context, _ *mcp.CallToolRequest, a struct {
			N int `json:"n"`
		}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", a.N)}}}, nil, nil
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()
	dir := t.TempDir()
	program := filepath.Join(dir, "p.ts")
	os.WriteFile(program, []byte(`
let failed = "";
try { await tools.say({n: 5000}); } catch (e) { failed = String(e.message); }
const after = await tools.say({n: 3});
return {failed, after};`), 0o644)
	code, out, errOut := invokeWithin(t, time.Minute, "run", "--isolation", "inprocess", "--json", "--mcp-url", hs.URL, "--mcp-max-message", "2KiB", program)
	if code != exitOK || !strings.Contains(out, "longer than the maximum of 2048 bytes") || !strings.Contains(out, `"after":"xxx"`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = invokeWithin(t, time.Minute, "tools", "--mcp-url", hs.URL, "--mcp-max-message", "100")
	if code != exitUsage || out != "" || !strings.Contains(errOut, "--mcp-max-message must be between 1KiB and 1GiB") {
		t.Fatalf("--mcp-max-message 100: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
