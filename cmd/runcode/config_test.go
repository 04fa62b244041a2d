package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	if code != exitOK || !strings.Contains(out, "\n  fs: {\n") || !strings.Contains(out, "\n  memory: {\n") || !strings.Contains(out, "    read_graph(args: Record<string, never>): Promise<") {
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
func quoteJS(s string) string { return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"` }
