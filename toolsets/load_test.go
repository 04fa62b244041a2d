package toolsets_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/toolsets"
)

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Load registers every source's tools; a name two sources define is an error naming both; with
// no source it opens the workspace of the current directory, unless told not to; a config's
// notes reach OnNote.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	manifest := writeFile(t, dir, "tools.json", `{"tools": [{"name": "answer", "description": "The answer.", "output": {"type": "number"}, "command": ["sh", "-c", "echo 42"]}]}`)
	clash := writeFile(t, dir, "clash.json", `{"tools": [{"name": "read_file", "description": "Mine.", "command": ["true"]}]}`)
	config := writeFile(t, dir, "mcp.json", `{"mcpServers": {"off": {"command": "nowhere", "disabled": true}}}`)

	var notes []string
	reg, closeAll, err := toolsets.Load(context.Background(), toolsets.Sources{Manifests: []string{manifest}, Configs: []string{config}, Workspace: dir,
		OnNote: func(n string) { notes = append(notes, n) }})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"answer", "read_file"} {
		if _, ok := reg.Get(name, nil); !ok {
			t.Errorf("%s is not registered", name)
		}
	}
	closeAll()
	if len(notes) != 1 || !strings.Contains(notes[0], "off") {
		t.Errorf("notes %q, want one about the disabled server", notes)
	}

	_, _, err = toolsets.Load(context.Background(), toolsets.Sources{Manifests: []string{clash}, Workspace: dir})
	if err == nil || !strings.Contains(err.Error(), `tool "read_file" is defined by both manifest `+clash+" and workspace ") {
		t.Fatalf("a clash: %v", err)
	}

	t.Chdir(dir)
	reg, closeAll, err = toolsets.Load(context.Background(), toolsets.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := reg.Get("read_file", nil); !ok {
		t.Error("no sources: the workspace of the current directory is not loaded")
	}
	closeAll()
	reg, closeAll, err = toolsets.Load(context.Background(), toolsets.Sources{NoDefaultWorkspace: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := reg.Get("read_file", nil); ok {
		t.Error("NoDefaultWorkspace: the workspace was loaded")
	}
	closeAll()
}
