package workspace_test

import (
	"context"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/toolsets/workspace"
)

// A program that writes a file of empty lines and greps it for "" with a huge maxMatches used
// to make the host hold every match, unreserved (2 MiB of newlines reached 1.35 GB at --memory
// 512MiB). Now the schema refuses maxMatches over 10,000, and matches past the run's sub-call
// memory budget fail that sub-call, naming the sizes, which the program can catch; a grep that
// fits still works.
func TestHostileGrepOfEmptyLines(t *testing.T) {
	ws, err := workspace.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	reg := registry.New()
	if _, err := reg.Register(ws.Tools()...); err != nil {
		t.Fatal(err)
	}
	if err := codemode.Install(reg, codemode.Options{Runtime: rt, SubCallMemory: 1 << 20}); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		t.Fatal(err)
	}
	program := `await tools.write_file({path: "lines.txt", content: "\n".repeat(65536)});
const out = [];
for (const maxMatches of [1e9, 10000, 1000]) {
  try {
    const r = await tools.grep({pattern: "", path: "lines.txt", maxMatches});
    out.push("ok " + r.matches.length + (r.truncated ? " truncated" : ""));
  } catch (e) { out.push(e.name + ": " + e.message); }
}
return out;`
	res := reg.Execute(context.Background(), codemode.Call("call-1", program, "grep empty lines"))
	if res.IsError {
		t.Fatalf("run: %v", res.Err)
	}
	out := res.Value.Lookup("result")
	if out.Len() != 3 {
		t.Fatalf("result %s", out)
	}
	t.Logf("%s", out)
	for i, want := range []string{
		`"maxMatches": maximum: got 1×10⁰⁹, want 10,000`,
		`cannot search "lines.txt": the `,
		"ok 1000 truncated",
	} {
		if got := out.Index(i).AsString(); !strings.Contains(got, want) {
			t.Errorf("grep %d: got %q, want it to contain %q", i+1, got, want)
		}
	}
	if got := out.Index(1).AsString(); !strings.Contains(got, "over this run's memory budget of 1 MiB") {
		t.Errorf("grep of 10,000 matches under a budget of 1 MiB: got %q", got)
	}
}
