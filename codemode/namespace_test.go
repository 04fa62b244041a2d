package codemode_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// readFile is a read_file tool in namespace ns ("" for the top level) that says where it is.
func readFile(ns string) registry.Tool {
	return registry.Tool{
		Name: registry.QualifiedName(ns, "read_file"), Namespace: ns,
		Description: "Read a file (" + ns + ").",
		Parameters:  jsonv.MustParse(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		Output:      registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			if inv.Arguments.Lookup("path").AsString() == "missing" {
				return jsonv.Value{}, registry.NewError("", "", "no such file")
			}
			return jsonv.StringValue(ns + ":" + inv.Arguments.Lookup("path").AsString()), nil
		},
	}
}

// Tools with the same name in different namespaces are called as tools.<ns>.<name>; the
// prompt declares them so, and sub-calls, events and ToolCallError name them <ns>.<name>. (The
// process isolation runs the same over real MCP servers in cmd/runcode's config tests.)
func TestNamespacedToolsInARun(t *testing.T) {
	var mu sync.Mutex
	var names []string
	reg := setup(t, jsruntime.Config{}, func(e bridge.Event) {
		mu.Lock()
		defer mu.Unlock()
		if e.Type == "code-dispatch" {
			names = append(names, e.Name)
		}
	}, readFile(""), readFile("fs"), readFile("my-server"))
	section := codemode.PromptSection(reg)
	for _, want := range []string{"\n  fs: {\n    /** Read a file (fs). */\n    read_file(args: { path: string }): Promise<string>;\n  };\n", "\n  \"my-server\": {\n"} {
		if !strings.Contains(section, want) {
			t.Fatalf("prompt section lacks %q:\n%s", want, section)
		}
	}
	res := runCode(reg, `let failed = "";
try { await tools.fs.read_file({ path: "missing" }); } catch (e) { failed = e.toolName + ": " + e.message; }
return [await tools.read_file({ path: "a" }), await tools.fs.read_file({ path: "b" }), await tools["my-server"].read_file({ path: "c" }), failed, typeof tools["fs.read_file"]];`)
	if res.IsError {
		t.Fatal(res.Err.Message)
	}
	if got, want := res.Value.Lookup("result").String(), `[":a","fs:b","my-server:c","fs.read_file: no such file","undefined"]`; got != want {
		t.Fatalf("result = %s, want %s", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(names, ","); got != "fs.read_file,read_file,fs.read_file,my-server.read_file" {
		t.Fatalf("dispatched = %s", got)
	}
}
