package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/toolsets/workspace"
)

// A model calling the tools directly reads their natural output; a UI gets read and search cards.
func TestRenderingsAndPresentations(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"a.go": "package a\n// TODO one\n", "sub/b.go": "// TODO two\n", "empty.txt": ""} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	reg := registry.New()
	if _, err := reg.Register(ws.Tools()...); err != nil {
		t.Fatal(err)
	}
	run := func(name, args string) (registry.Result, jsonv.Value) {
		a := jsonv.MustParse(args)
		res := reg.Execute(context.Background(), registry.Call{CallID: "c", Name: name, Arguments: a})
		if res.IsError {
			t.Fatalf("%s: %s", name, res.Err.Message)
		}
		return res, a
	}
	cases := []struct{ name, args, text string }{
		{"read_file", `{"path":"a.go"}`, "a.go (lines 1-2 of 2)\npackage a\n// TODO one\n"},
		{"read_file", `{"path":"empty.txt"}`, "empty.txt (empty file)\n"},
		{"grep", `{"pattern":"TODO"}`, "a.go:2: // TODO one\nsub/b.go:1: // TODO two"},
		{"grep", `{"pattern":"nothing here"}`, "no matches"},
		{"grep", `{"pattern":"TODO","maxMatches":1}`, "a.go:2: // TODO one\n(more matches were left out: raise maxMatches or narrow the search)"},
		{"glob", `{"pattern":"**/*.go"}`, "a.go\nsub/b.go"},
		{"list_dir", `{}`, "a.go (22 bytes)\nempty.txt (0 bytes)\nsub/"},
	}
	for _, c := range cases {
		res, _ := run(c.name, c.args)
		if got := registry.TextOf(res.Content); got != c.text {
			t.Errorf("%s %s:\n got %q\nwant %q", c.name, c.args, got, c.text)
		}
	}

	res, args := run("read_file", `{"path":"a.go","startLine":2}`)
	read := reg.PresentResult("read_file", args, registry.ResultSummary{Content: res.Content}, nil)
	if read == nil || read.Card != registry.CardRead || read.Offset != 2 || read.TotalLines != 2 || read.Lang != "go" || strings.Join(read.Lines, "|") != "// TODO one" {
		t.Fatalf("read card: %+v", read)
	}
	res, args = run("grep", `{"pattern":"TODO"}`)
	search := reg.PresentResult("grep", args, registry.ResultSummary{Content: res.Content}, nil)
	if search == nil || search.Shape != "matches" || search.Total != 2 || len(search.Files) != 2 || search.Files[1].Matches[0].Line != 1 {
		t.Fatalf("grep card: %+v", search)
	}
	res, args = run("glob", `{"pattern":"**/*.go"}`)
	paths := reg.PresentResult("glob", args, registry.ResultSummary{Content: res.Content}, nil)
	if paths == nil || paths.Shape != "paths" || strings.Join(paths.Paths, ",") != "a.go,sub/b.go" || paths.Total != 2 {
		t.Fatalf("glob card: %+v", paths)
	}
	if v := reg.PresentResult("read_file", args, registry.ResultSummary{IsError: true}, nil); v != nil {
		t.Fatalf("failed read has a card: %+v", v)
	}
}
