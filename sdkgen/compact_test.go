package sdkgen

import (
	"slices"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

func TestCompactSection(t *testing.T) {
	tools := append(variedTools(), Tool{Name: "long", Description: strings.Repeat("word ", 60)},
		Tool{Name: "multi", Description: "First line\nstill first. Second sentence."})
	got := CompactSection(tools)
	checkGolden(t, "compact.golden", got)
	if !strings.HasPrefix(got, "There are too many tools") || strings.HasSuffix(got, "\n") {
		t.Error("compact section must start with its instructions and have no trailing newline")
	}
	for _, frag := range []string{"catalog.describe(\"name\")", "catalog.search(\"words\")", "declare const catalog", "rejects with `ToolCallError`", callsAs, callOutcome,
		"\n- \"my-mcp.search\" — Search the index.\n", "\n- delete\n", "\n- multi — First line still first.", "…"} {
		if !strings.Contains(got, frag) {
			t.Errorf("compact section lacks %q", frag)
		}
	}
	if strings.Contains(got, "echo(args") {
		t.Error("compact section declares the tools")
	}
	// Its declarations typecheck together with a program that uses the helpers.
	_, block, _ := strings.Cut(got, "```ts\n")
	block, _, _ = strings.Cut(block, "```")
	typecheck(t, map[string]string{"compact.d.ts": block + consoleDeclaration + "\n", "program.ts": `async function main(): Promise<void> {
  const d: string = await catalog.describe("echo");
  const hits = await catalog.search({ query: "search", limit: 3 });
  for (const h of hits) console.log(h.name, h.description);
  const r = await tools["my-mcp.search"]({ query: "x" });
  try { await tools.echo({ value: d }); } catch (e) { if (e instanceof ToolCallError) console.log(e.toolName); }
  void [r, await catalog.search("x")];
}
void main;
`})
}

func TestSummary(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"Reads a file.", "Reads a file."},
		{"  Reads\n a file. Then more.", "Reads a file."},
		{"Version 1.2 is here! Yes", "Version 1.2 is here!"},
		{"No period", "No period"},
		{"e.g. this", "e.g. this"},
		{strings.Repeat("é", 200), strings.Repeat("é", 159) + "…"},
	} {
		if got := Summary(tt.in); got != tt.want {
			t.Errorf("Summary(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	tools := append(variedTools(), mappingTools()...)
	full := Declarations(tools)
	for _, tl := range tools {
		got, ok := Describe(tools, tl.Name)
		if !ok {
			t.Fatalf("Describe(%q) not found", tl.Name)
		}
		if !strings.HasPrefix(got, "declare const tools: {\n") && !strings.HasPrefix(got, "type ") && !strings.HasPrefix(got, "/**") {
			t.Errorf("Describe(%q) starts %q", tl.Name, got[:20])
		}
		// Every line of the description is in the full declarations: same aliases, same members.
		for _, line := range strings.Split(got, "\n") {
			if !strings.Contains(full, line) {
				t.Errorf("Describe(%q) line %q is not in Declarations", tl.Name, line)
			}
		}
	}
	got, _ := Describe(tools, "tree")
	want := "/** A tree node. */\ntype Tree_Node = { /** @minLength 1 */ name: string; children?: Tree_Node[] }\n\n" +
		"type Tree_Node2 = { name: string; children?: Tree_Node2[] }\n\n" +
		"declare const tools: {\n  /** Walks a tree. */\n  tree(args: {\n    root: Tree_Node;\n    /** How deep. @minimum 0 @maximum 10 @default 3 */ depth?: number;\n" +
		"    /** @deprecated */ order?: \"pre\" | \"post\";\n  }): Promise<{ count: number; deepest?: Tree_Node2 }>;\n}"
	if got != want {
		t.Errorf("Describe(tree):\n%s", got)
	}
	if _, ok := Describe(tools, "nope"); ok {
		t.Error("Describe found a missing tool")
	}
	if _, ok := Describe(nil, ""); ok {
		t.Error("Describe found a tool in nothing")
	}
	// The description typechecks with the compact declarations.
	_, block, _ := strings.Cut(CompactSection(tools), "```ts\n")
	block, _, _ = strings.Cut(block, "```")
	block = strings.Replace(block, "declare const tools:", "declare const anyTools:", 1)
	typecheck(t, map[string]string{"compact.d.ts": block, "tree.d.ts": got + "\n", "program.ts": `async function main(): Promise<void> {
  const r = await tools.tree({ root: { name: "a" } });
  const n: number = r.count;
  void n;
}
void main;
`})
}

func TestSearch(t *testing.T) {
	tools := []Tool{
		{Name: "read_file", Description: "Reads a file from disk."},
		{Name: "write_file", Description: "Writes a file."},
		{Name: "list_directory", Description: "Lists the files in a directory."},
		{Name: "searchIssues", Description: "Searches GitHub issues."},
		{Name: "unrelated", Description: "Nothing to see."},
	}
	names := func(ts []Tool) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Name)
		}
		return out
	}
	for _, tt := range []struct {
		query string
		limit int
		want  []string
	}{
		{"read file", 0, []string{"read_file", "write_file", "list_directory"}},
		{"files", 0, []string{"read_file", "write_file", "list_directory"}},
		{"FILE", 1, []string{"read_file"}},
		{"issues", 0, []string{"searchIssues"}},
		{"search", 0, []string{"searchIssues"}},
		{"dir", 0, []string{"list_directory"}},
		{"zzz", 0, nil},
		{"", 2, []string{"list_directory", "read_file"}},
	} {
		got := names(Search(tools, tt.query, tt.limit))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Search(%q, %d) = %v, want %v", tt.query, tt.limit, got, tt.want)
		}
		// Deterministic whatever the input order.
		rev := slices.Clone(tools)
		slices.Reverse(rev)
		if again := names(Search(rev, tt.query, tt.limit)); !slices.Equal(again, got) {
			t.Errorf("Search(%q) depends on input order: %v vs %v", tt.query, again, got)
		}
	}
	_ = jsonv.Value{}
}
