package mcptools_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/registry"
)

// needBin skips the test when an MCP server's bin is not on PATH (.ci/run installs them).
func needBin(t *testing.T, bin string) {
	t.Helper()
	if _, err := exec.LookPath(bin); err != nil {
		t.Skipf("%s not on PATH (npm install -g @modelcontextprotocol/server-%s)", bin, strings.TrimPrefix(bin, "mcp-server-"))
	}
}

// importServer connects src and registers its tools in a new registry.
func importServer(t *testing.T, src mcptools.Source) (*mcptools.Server, *registry.Registry) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv, err := mcptools.Connect(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	reg := registry.New()
	if _, err := reg.Register(srv.Tools()...); err != nil {
		t.Fatal(err)
	}
	return srv, reg
}

func callTool(reg *registry.Registry, name, args string) registry.Result {
	return reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: name, Arguments: jsonv.MustParse(args)})
}

// runProgram runs a program through run_code in Code Mode.
func runProgram(t *testing.T, reg *registry.Registry, code string) registry.Result {
	t.Helper()
	installCodeMode(t, reg, jsruntime.Config{}, codemode.Options{})
	return runInstalled(t, reg, code)
}

// runInstalled runs code through the run_code reg already has.
func runInstalled(t *testing.T, reg *registry.Registry, code string) registry.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return reg.Execute(ctx, codemode.Call("run-1", code, "test"))
}

func TestEverythingTools(t *testing.T) {
	needBin(t, "mcp-server-everything")
	srv, reg := importServer(t, mcptools.Source{Command: []string{"mcp-server-everything"}, Prefix: "ev."})
	if srv.Name() != "mcp-server-everything" {
		t.Errorf("Name = %q", srv.Name())
	}
	byName := map[string]registry.Tool{}
	for _, tl := range srv.Tools() {
		byName[tl.Name] = tl
	}
	echo, ok := byName["ev.echo"]
	if !ok {
		t.Fatalf("no ev.echo among %v", byName)
	}
	if echo.Description != "Echoes back the input string" {
		t.Errorf("description = %q", echo.Description)
	}
	// The server's key order survives: "type" before "properties" before "required".
	params := string(jsonv.AppendJSON(nil, echo.Parameters))
	if !strings.Contains(params, `"type":"object","properties":{"message":{"type":"string","description":"Message to echo"}},"required":["message"]`) {
		t.Errorf("parameters = %s", params)
	}
	if echo.ConcurrencySafe == nil || !echo.ConcurrencySafe(jsonv.MustParse(`{}`)) {
		t.Error("echo is readOnlyHint: it should be concurrency-safe")
	}
	if tl := byName["ev.toggle-simulated-logging"]; tl.ConcurrencySafe != nil {
		t.Error("a tool without readOnlyHint must be exclusive")
	}
	if got := string(jsonv.AppendJSON(nil, byName["ev.echo"].Output.Schema)); got != `{"type":"string"}` {
		t.Errorf("echo output schema = %s, want {\"type\":\"string\"}", got)
	}
	if got := string(jsonv.AppendJSON(nil, byName["ev.get-structured-content"].Output.Schema)); !strings.Contains(got, `"temperature"`) {
		t.Errorf("structured output schema = %s", got)
	}

	res := callTool(reg, "ev.echo", `{"message":"héllo <&>"}`)
	if res.IsError || res.Value.AsString() != "Echo: héllo <&>" {
		t.Errorf("echo = %+v", res)
	}
	res = callTool(reg, "ev.get-structured-content", `{"location":"Chicago"}`)
	if res.IsError || res.Value.Lookup("temperature").Kind() != jsonv.Number {
		t.Errorf("structured = %s %+v", jsonv.AppendJSON(nil, res.Value), res.Err)
	}
}

func TestImageReachesTheModel(t *testing.T) {
	needBin(t, "mcp-server-everything")
	_, reg := importServer(t, mcptools.Source{Command: []string{"mcp-server-everything"}})
	res := runProgram(t, reg, `const v = await tools["get-tiny-image"]({}); console.log(typeof v); return "done";`)
	if res.IsError {
		t.Fatal(res.Err)
	}
	var images int
	for _, m := range res.AdditionalContexts {
		for _, c := range m.Content {
			if c.Type == "image" && c.MimeType == "image/png" && c.Data != "" {
				images++
			}
		}
	}
	if images != 1 {
		t.Errorf("want one forwarded image, got contexts %+v", res.AdditionalContexts)
	}
	if text := registry.TextOf(res.Content); !strings.Contains(text, "string") || !strings.Contains(text, "done") {
		t.Errorf("outer result = %q", text)
	}
}

func TestToolErrorIsToolCallError(t *testing.T) {
	needBin(t, "mcp-server-memory")
	_, reg := importServer(t, mcptools.Source{Command: []string{"env", "MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "m.jsonl"), "mcp-server-memory"}})
	res := runProgram(t, reg, `try {
  await tools.add_observations({observations: [{entityName: "nobody", contents: ["x"]}]});
  return "no error";
} catch (e) { return e.name + ": " + e.message; }`)
	if text := registry.TextOf(res.Content); res.IsError || !strings.Contains(text, "ToolCallError: ") || !strings.Contains(text, "nobody") {
		t.Errorf("result = %q (%v)", text, res.Err)
	}
}

func TestCancellationIsPrompt(t *testing.T) {
	needBin(t, "mcp-server-everything")
	_, reg := importServer(t, mcptools.Source{Command: []string{"mcp-server-everything"}})
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	res := reg.Execute(ctx, registry.Call{CallID: "c1", Name: "trigger-long-running-operation", Arguments: jsonv.MustParse(`{"duration":30,"steps":3}`)})
	if !res.IsError {
		t.Fatalf("a cancelled call succeeded: %+v", res)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	// The session is still usable.
	if res := callTool(reg, "echo", `{"message":"still here"}`); res.IsError {
		t.Errorf("after cancel: %v", res.Err)
	}
}

func TestCallTimeout(t *testing.T) {
	needBin(t, "mcp-server-everything")
	_, reg := importServer(t, mcptools.Source{Command: []string{"mcp-server-everything"}, CallTimeout: 300 * time.Millisecond})
	res := callTool(reg, "trigger-long-running-operation", `{"duration":30,"steps":3}`)
	if !errors.Is(res.Err, registry.CodeTimeout) {
		t.Errorf("want TIMEOUT, got %+v", res)
	}
}

func TestKilledServer(t *testing.T) {
	needBin(t, "mcp-server-memory")
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pid")
	srv, reg := importServer(t, mcptools.Source{
		Name:    "memory",
		Command: []string{"sh", "-c", `echo $$ > "$0"; MEMORY_FILE_PATH="$1" exec mcp-server-memory`, pidfile, filepath.Join(dir, "m.jsonl")},
	})
	if res := callTool(reg, "read_graph", `{}`); res.IsError {
		t.Fatal(res.Err)
	}
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		res := callTool(reg, "read_graph", `{}`)
		if res.IsError {
			if !strings.Contains(res.Err.Message, `MCP server "memory"`) || !strings.Contains(res.Err.Message, "connection closed") {
				t.Errorf("message = %q", res.Err.Message)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("calls still succeed after the server was killed")
		}
		time.Sleep(50 * time.Millisecond)
	}
	done := make(chan struct{})
	go func() { srv.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close hangs after the server died")
	}
}

func TestConnectFailureNamesTheServer(t *testing.T) {
	_, err := mcptools.Connect(context.Background(), mcptools.Source{Command: []string{"no-such-mcp-server-xyz"}})
	if err == nil || !strings.Contains(err.Error(), `MCP server "no-such-mcp-server-xyz"`) {
		t.Errorf("err = %v", err)
	}
	// A command that exits at once: the cause and its stderr are in the message.
	_, err = mcptools.Connect(context.Background(), mcptools.Source{Name: "broken", Command: []string{"sh", "-c", "echo 'bad config' >&2; exit 3"}})
	if err == nil || !strings.Contains(err.Error(), `MCP server "broken"`) || !strings.Contains(err.Error(), "bad config") {
		t.Errorf("err = %v", err)
	}
}

func TestFilesystem(t *testing.T) {
	needBin(t, "mcp-server-filesystem")
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\nbeta\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	os.WriteFile(filepath.Join(root, "sub", "b.md"), []byte("# B\n"), 0o644)
	_, reg := importServer(t, mcptools.Source{Command: []string{"mcp-server-filesystem", root}})
	res := runProgram(t, reg, `const root = `+strconv.Quote(root)+`;
const list = (await tools.list_directory({path: root})).content;
const text = (await tools.read_text_file({path: root + "/a.txt"})).content;
const found = (await tools.search_files({path: root, pattern: "**/*.md"})).content;
return [list, text.split("\n")[1], found.slice(root.length)].join("|");`)
	want := "[FILE] a.txt\n[DIR] sub|beta|/sub/b.md"
	if res.IsError || !strings.Contains(registry.TextOf(res.Content), want) {
		t.Errorf("got %q (%v), want %q", registry.TextOf(res.Content), res.Err, want)
	}
}

// Issue 26: the reference filesystem server annotates write_file, edit_file and move_file
// destructiveHint: true, so they need approval by default; create_directory (destructiveHint:
// false) and the read-only tools do not. RequireApproval adds tools, ApprovalNone lifts it all,
// and a name the server lacks is an error.
func TestFilesystemDestructiveToolsNeedApproval(t *testing.T) {
	needBin(t, "mcp-server-filesystem")
	root := t.TempDir()
	needing := func(src mcptools.Source) []string {
		srv, _ := importServer(t, src)
		var out []string
		for _, tl := range srv.Tools() {
			if tl.RequiresApproval {
				out = append(out, tl.Name)
			}
		}
		slices.Sort(out)
		return out
	}
	cmd := []string{"mcp-server-filesystem", root}
	if got := needing(mcptools.Source{Command: cmd}); !slices.Equal(got, []string{"edit_file", "move_file", "write_file"}) {
		t.Errorf("default: %q need approval", got)
	}
	if got := needing(mcptools.Source{Command: cmd, RequireApproval: []string{"create_directory"}, AutoApprove: []string{"move_file"}}); !slices.Equal(got, []string{"create_directory", "edit_file", "write_file"}) {
		t.Errorf("requireApproval create_directory, autoApprove move_file: %q need approval", got)
	}
	if got := needing(mcptools.Source{Command: cmd, Approval: mcptools.ApprovalNone}); len(got) != 0 {
		t.Errorf("none: %q need approval", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if srv, err := mcptools.Connect(ctx, mcptools.Source{Command: cmd, RequireApproval: []string{"write_files"}}); err == nil || !strings.Contains(err.Error(), `requireApproval names tool "write_files"`) {
		if srv != nil {
			srv.Close()
		}
		t.Errorf("a misspelt name: %v", err)
	}
}
