package workspace_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/toolsets/workspace"
)

func Example() {
	dir, err := os.MkdirTemp("", "workspace-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	ws, err := workspace.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	reg := registry.New()
	if _, err := reg.Register(ws.Tools()...); err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	for _, call := range []registry.Call{
		{CallID: "c1", Name: "write_file", Arguments: jsonv.MustParse(`{"path":"notes/todo.md","content":"- buy milk\n- TODO: write tests\n","createDirs":true}`)},
		{CallID: "c2", Name: "grep", Arguments: jsonv.MustParse(`{"pattern":"todo","ignoreCase":true,"glob":"**/*.md"}`)},
		{CallID: "c3", Name: "read_file", Arguments: jsonv.MustParse(`{"path":"../etc/passwd"}`)},
	} {
		res := reg.Execute(ctx, call)
		if res.IsError {
			fmt.Println(call.Name, "error:", res.Err.Message)
			continue
		}
		fmt.Println(call.Name, res.Value)
	}
	// Output:
	// write_file {"path":"notes/todo.md","bytesWritten":31}
	// grep {"matches":[{"path":"notes/todo.md","line":2,"text":"- TODO: write tests"}],"truncated":false}
	// read_file error: path "../etc/passwd" escapes the workspace root
}
