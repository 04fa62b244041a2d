package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Every server and command tool gets a minimal environment plus what its own entry gives it:
// the token a --config entry expands from ${VAR} reaches that server only, never another
// server (whose results are not redacted for it), an --mcp server or a manifest command.
// --mcp-env passes more of the host's variables to the --mcp before it.
func TestChildrenGetMinimalEnvironments(t *testing.T) {
	needMCP(t, "mcp-server-everything")
	const secret = "tok-A-4f9c1e7b22"
	t.Setenv("RUNCODE_TEST_SECRET", secret)
	t.Setenv("RUNCODE_TEST_KEEP", "kept-by-name")
	dir := fixture(t, map[string]string{
		"mcp.json": `{"mcpServers": {
		  "a": {"command": "mcp-server-everything", "env": {"A_TOKEN": "${RUNCODE_TEST_SECRET}"}, "include": ["get-env"]},
		  "b": {"command": "mcp-server-everything", "env": {"B_SETTING": "on"}, "include": ["get-env"]}}}`,
		"tools.json": `{"tools": [{"name": "env", "command": ["python3", "-c", "import json, os; print(json.dumps(dict(os.environ)))"]}]}`,
		"p.ts": `const seen = (e) => Object.keys(e).filter((k) => k.startsWith("RUNCODE_TEST_") || k.endsWith("_TOKEN") || k === "B_SETTING").sort();
const a = JSON.parse(await tools.a["get-env"]({}));
const b = JSON.parse(await tools.b["get-env"]({}));
const flat = JSON.parse(await tools["get-env"]({}));
const cmd = await tools.env({});
return { a: seen(a), aToken: a.A_TOKEN, b: seen(b), flat: seen(flat), cmd: seen(cmd),
  homes: [...new Set([a.HOME, b.HOME, flat.HOME, cmd.HOME])], paths: [a, b, flat, cmd].every((e) => e.PATH && e.PATH.length > 0) };`,
	})
	code, out, errOut := invokeWithin(t, time.Minute, "run", "--json", "--isolation", "inprocess",
		"--config", filepath.Join(dir, "mcp.json"), "--tools", filepath.Join(dir, "tools.json"),
		"--mcp", "mcp-server-everything", "--mcp-env", "RUNCODE_TEST_KEEP", filepath.Join(dir, "p.ts"))
	home, _ := os.LookupEnv("HOME")
	want := `{"logs":[],"result":{"a":["A_TOKEN"],"aToken":"[redacted]","b":["B_SETTING"],"flat":["RUNCODE_TEST_KEEP"],"cmd":[],"homes":["` + home + `"],"paths":true}}`
	if code != exitOK || strings.TrimSpace(out) != want || strings.Contains(out, secret) {
		t.Fatalf("exit %d\nstdout %s\nwant   %s\nstderr %s", code, out, want, errOut)
	}
	code, _, errOut = invokeWithin(t, time.Minute, "tools", "--mcp-env", "X", "--mcp", "mcp-server-everything")
	if code != exitUsage || !strings.Contains(errOut, "--mcp-env must follow the --mcp it is for") {
		t.Errorf("--mcp-env first: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = invokeWithin(t, time.Minute, "tools", "--mcp", "mcp-server-everything", "--mcp-env", "A-B")
	if code != exitUsage || !strings.Contains(errOut, `--mcp-env: "A-B" is not a variable name`) {
		t.Errorf("--mcp-env A-B: exit %d, stderr %q", code, errOut)
	}
}
