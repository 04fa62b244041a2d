package toolsets_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/runcode-dev/runcode/toolsets"
)

// Load one registry from a tool manifest and the workspace tools of a directory; a tool name
// two sources define would be an error naming both.
func Example() {
	dir, err := os.MkdirTemp("", "toolsets-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	manifest := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(manifest, []byte(`{"tools": [{"name": "answer", "description": "The answer.",
		"output": {"type": "number"}, "command": ["sh", "-c", "echo 42"]}]}`), 0o600); err != nil {
		panic(err)
	}

	reg, closeAll, err := toolsets.Load(context.Background(), toolsets.Sources{Manifests: []string{manifest}, Workspace: dir})
	if err != nil {
		panic(err)
	}
	defer closeAll()
	for _, name := range []string{"answer", "read_file", "nowhere"} {
		_, ok := reg.Get(name, nil)
		fmt.Println(name, ok)
	}
	// Output:
	// answer true
	// read_file true
	// nowhere false
}
