package sdkgen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

// echoTool is the worked example of the upstream contract.
func echoTool() Tool {
	return Tool{
		Name:        "echo",
		Description: "Echo.",
		Parameters:  jsonv.MustParse(`{"type":"object","properties":{"value":{"type":"string"}},"required":["value"]}`),
		Output:      jsonv.MustParse(`{"type":"string"}`),
	}
}

// variedTools covers every mapping rule the type checker should accept; the tsc test's program
// uses each of them.
func variedTools() []Tool {
	return []Tool{
		echoTool(),
		{
			Name:        "my-mcp.search",
			Description: "Search the index.\n  Returns */ ranked hits.",
			Parameters: jsonv.MustParse(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
				"properties":{
					"query":{"type":"string","minLength":1,"description":"What to look for."},
					"limit":{"type":"integer","minimum":1,"default":10},
					"filters":{"type":"object","properties":{
						"tags":{"type":"array","items":{"type":"string"}},
						"kind":{"enum":["doc","code",null]}}}},
				"required":["query"],"additionalProperties":false}`),
			Output: jsonv.MustParse(`{"type":"object","properties":{
					"hits":{"type":"array","items":{"type":"object","properties":{
						"id":{"type":"string"},
						"score":{"type":"number","description":"Higher is better | 0..1"},
						"snippet":{"type":["string","null"]}},
						"required":["id","score"]}},
					"total":{"type":"integer"},
					"next page":{"type":"string","nullable":true}},
				"required":["hits","total"],"additionalProperties":false}`),
		},
		{
			Name:       "delete",
			Parameters: jsonv.MustParse(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
			Output:     jsonv.MustParse(`{"type":"null"}`),
		},
		{Name: "list_things", Description: "Lists things."},
		{
			Name: "shape",
			Parameters: jsonv.MustParse(`{"type":"object","properties":{"shape":{"oneOf":[
					{"type":"object","properties":{"kind":{"type":"string","const":"circle"},"r":{"type":"number"}},"required":["kind","r"],"additionalProperties":false},
					{"type":"object","properties":{"kind":{"type":"string","const":"square"},"side":{"type":"number"}},"required":["kind","side"],"additionalProperties":false}]}},
				"required":["shape"]}`),
			Output: jsonv.MustParse(`{"anyOf":[{"type":"number"},{"type":"string"}]}`),
		},
		{
			Name: "$meta",
			Parameters: jsonv.MustParse(`{"type":"object","properties":{
					"labels":{"type":"object","additionalProperties":{"type":"string"}},
					"ref":{"$ref":"#/$defs/thing"},
					"note":{"type":"string","nullable":true},
					"both":{"allOf":[
						{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},
						{"type":"object","properties":{"b":{"type":"number"}},"required":["b"]}]},
					"grid":{"type":"array","items":{"type":"array","items":{"type":["integer","null"]}}}},
				"$defs":{"thing":{"type":"string"}}}`),
			Output: jsonv.MustParse(`{"type":"object","properties":{"weird key":{"type":"boolean"},"nested":{"type":"object","properties":{"deep":{"const":{"x":[1,"y"]}}},"required":["deep"]}},"required":["weird key","nested"]}`),
		},
		{
			Name:        "open",
			Description: "Takes and gives extra properties.",
			Parameters:  jsonv.MustParse(`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`),
			Output:      jsonv.MustParse(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"],"additionalProperties":true}`),
		},
		{
			Name:       "typed_extras",
			Parameters: jsonv.MustParse(`{"type":"object","properties":{"a":{"type":"number"}},"additionalProperties":{"type":"number"}}`),
			Output:     jsonv.MustParse(`{"type":"object","properties":{"hits":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"score":{"type":"number","description":"Higher is better | 0..1"}},"required":["id","score"]}}},"required":["hits"]}`),
		},
		{
			Name:       "héllo",
			Parameters: jsonv.MustParse(`{"type":"object","additionalProperties":false}`),
			Output:     jsonv.MustParse(`{"type":"array","items":{"enum":[1,"two",true]}}`),
		},
	}
}

func TestDeclarationsWorkedExample(t *testing.T) {
	got := Declarations([]Tool{echoTool()})
	want := "declare class ToolCallError extends Error { toolName: string; code?: string }\n\n" +
		"declare const tools: {\n" +
		"  /** Echo. */\n" +
		"  echo(args: { value: string }): Promise<string>;\n" +
		"}"
	if got != want {
		t.Fatalf("Declarations:\n%s\nwant:\n%s", got, want)
	}
}

func TestDeclarationsEmpty(t *testing.T) {
	want := "declare class ToolCallError extends Error { toolName: string; code?: string }\n\ndeclare const tools: {}"
	for _, tools := range [][]Tool{nil, {}} {
		if got := Declarations(tools); got != want {
			t.Errorf("Declarations(%#v)\n got: %q\nwant: %q", tools, got, want)
		}
	}
}

func TestDeclarationsTools(t *testing.T) {
	tests := []struct {
		name   string
		tool   Tool
		member string // the tool's lines in tools
	}{
		{"no schemas", Tool{Name: "t"},
			"  t(args?: Record<string, JsonValue>): Promise<JsonValue>;\n"},
		{"description", Tool{Name: "t", Description: " Does\n\tthings **/*.go well. "},
			"  /** Does things **\u200b/*.go well. */\n  t(args?: Record<string, JsonValue>): Promise<JsonValue>;\n"},
		{"whitespace description", Tool{Name: "t", Description: "\n"},
			"  t(args?: Record<string, JsonValue>): Promise<JsonValue>;\n"},
		{"quoted key", Tool{Name: "my-mcp.tool"},
			"  \"my-mcp.tool\"(args?: Record<string, JsonValue>): Promise<JsonValue>;\n"},
		{"reserved word bare", Tool{Name: "class"},
			"  class(args?: Record<string, JsonValue>): Promise<JsonValue>;\n"},
		{"non-ASCII quoted", Tool{Name: "naïve"},
			"  \"naïve\"(args?: Record<string, JsonValue>): Promise<JsonValue>;\n"},
		{"escapes in key", Tool{Name: "a\"b\\c\u0001"},
			"  \"a\\\"b\\\\c\\u0001\"(args?: Record<string, JsonValue>): Promise<JsonValue>;\n"},
		{"output descriptions rendered", Tool{Name: "t", Description: "Tool.",
			Parameters: jsonv.MustParse(`{"type":"object","properties":{}}`),
			Output:     jsonv.MustParse(`{"type":"object","description":"root","properties":{"n":{"type":"number","description":"Count."}},"required":["n"],"additionalProperties":false}`)},
			"  /** Tool. */\n  t(args?: Record<string, never>): Promise<{ /** Count. */ n: number }>;\n"},
		{"boolean schemas", Tool{Name: "t", Parameters: jsonv.BoolValue(true), Output: jsonv.BoolValue(false)},
			"  t(args?: JsonValue): Promise<never>;\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Declarations([]Tool{tt.tool})
			want := "declare const tools: {\n" + tt.member + "}"
			if !strings.HasSuffix(got, want) {
				t.Errorf("got:\n%s\nwant to end with:\n%s", got, want)
			}
		})
	}
}

func TestDeclarationsSorted(t *testing.T) {
	names := []string{"b", "a", "B", "_x", "$y", "a-b", "ab", "\uFF5E", "\U0001F600", "z9", "Z"}
	var tools []Tool
	for _, n := range names {
		tools = append(tools, Tool{Name: n})
	}
	got := Declarations(tools)
	// JavaScript order: "$" < "B" < "Z" < "_" < "a" < "a-b" < "ab" < "b" < "z9" < U+1F600 (0xD83D) < U+FF5E.
	wantOrder := []string{"$y", "B", "Z", "_x", "a", `"a-b"`, "ab", "b", "z9", "\"\U0001F600\"", "\"\uFF5E\""}
	var lines []string
	for _, l := range strings.Split(got, "\n") {
		if k, _, ok := strings.Cut(strings.TrimPrefix(l, "  "), "(args?: Record"); ok {
			lines = append(lines, k)
		}
	}
	if strings.Join(lines, ",") != strings.Join(wantOrder, ",") {
		t.Errorf("order %v, want %v", lines, wantOrder)
	}

	// Independent of the input order, byte for byte.
	base := variedTools()
	want := Section(base)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		shuffled := append([]Tool(nil), base...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got := Section(shuffled); got != want {
			t.Fatalf("Section depends on input order:\n%s\n----\n%s", got, want)
		}
	}
	// The input is not reordered.
	if base[0].Name != "echo" || base[1].Name != "my-mcp.search" {
		t.Error("Declarations reordered its argument")
	}
	// Duplicate names still sort deterministically.
	d1, d2 := Tool{Name: "d", Description: "one"}, Tool{Name: "d", Description: "two"}
	if Declarations([]Tool{d1, d2}) != Declarations([]Tool{d2, d1}) {
		t.Error("duplicate names sort by input order")
	}
}

// TestSection compares the whole prompt section with testdata/section.golden (byte-exact, no
// trailing newline). UPDATE_GOLDEN=1 rewrites the golden files.
func TestSection(t *testing.T) {
	got := Section(variedTools())
	checkGolden(t, "section.golden", got)

	if strings.HasSuffix(got, "\n") || !strings.HasSuffix(got, "\n```") {
		t.Error("section must end with the closing fence and no newline")
	}
	before, decls, ok := strings.Cut(got, "\n\n```ts\n")
	if !ok || before != instructions {
		t.Fatalf("the section must be the instructions, a blank line and the fence:\n%s", got)
	}
	if decls != Declarations(variedTools())+"\n```" {
		t.Error("fenced block is not exactly Declarations")
	}
	// The contract a program relies on (as the upstream Code Mode states it), said once.
	for _, frag := range []string{
		"run_code program",
		"`await tools.name(args)`",
		`tools["odd-name"](args)`,
		"`JSON.stringify`",
		"no argument is `{}`",
		"rejects with `ToolCallError`",
		"MAY overlap under `Promise.all`",
		"submission order",
	} {
		if strings.Count(before, frag) != 1 {
			t.Errorf("instructions must say %q once", frag)
		}
	}
	// They read right after run_code's description (an MCP server appends them to it) as well
	// as in a system prompt.
	for _, wrong := range []string{"system prompt", "tools section", "\n"} {
		if strings.Contains(before, wrong) {
			t.Errorf("instructions mention %q", wrong)
		}
	}
	if s := Section(nil); !strings.HasSuffix(s, "```ts\n"+Declarations(nil)+"\n```") {
		t.Errorf("empty section:\n%s", s)
	}
}

func TestDTS(t *testing.T) {
	got := DTS(variedTools())
	checkGolden(t, "tools.d.ts.golden", got)

	header, rest, _ := strings.Cut(got, "\n")
	if !strings.HasPrefix(header, "// Generated by runcode") || !strings.Contains(header, `/// <reference path="tools.d.ts" />`) ||
		!strings.Contains(header, "tsconfig") || !strings.Contains(header, "await tools.name(args)") {
		t.Errorf("header line: %q", header)
	}
	decls, ok := strings.CutSuffix(rest, "\n\n"+consoleDeclaration+"\n")
	if !ok || !strings.HasPrefix(decls, "\n") {
		t.Fatal("DTS is not header, blank line, declarations, blank line, the console declaration, newline")
	}
	// The editor's declarations are the model's, type for type and comment for comment; only
	// the line breaks differ.
	for _, tools := range [][]Tool{variedTools(), mappingTools(), loadMCPFixture(t, "server-memory"), loadMCPFixture(t, "server-filesystem")} {
		dts, _ := strings.CutSuffix(strings.SplitN(DTS(tools), "\n", 3)[2], "\n\n"+consoleDeclaration+"\n")
		prompt := Declarations(tools)
		if layoutFree(dts) != layoutFree(prompt) {
			t.Errorf("DTS and Declarations differ beyond layout:\n%s\n----\n%s", dts, prompt)
		}
		if prompt == dts && strings.Contains(prompt, "{ /**") {
			t.Error("DTS keeps a JSDoc comment on a line it does not start")
		}
		// An editor attaches a JSDoc comment only to a member whose line it starts.
		for _, line := range strings.Split(dts, "\n") {
			if i := strings.Index(line, "/**"); i >= 0 && strings.TrimSpace(line[:i]) != "" {
				t.Errorf("DTS line has a JSDoc comment after other text: %q", line)
			}
		}
	}
}

// layoutFree returns declarations with line breaks and indentation made spaces, and the
// semicolon before a closing brace dropped, so that the one-line and the multi-line form of an
// object type compare equal.
func layoutFree(decls string) string {
	s := strings.Join(strings.Fields(decls), " ")
	return strings.ReplaceAll(s, "; }", " }")
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n got: %q\nwant: %q", path, got, want)
	}
}

// tscProgram uses every tool of variedTools and reads result fields; each @ts-expect-error line
// must be a type error, or tsc reports the directive as unused.
const tscProgram = `async function main(): Promise<void> {
  const e: string = await tools.echo({ value: "hi" });

  const r = await tools["my-mcp.search"]({ query: "x", limit: 3, filters: { tags: ["a"], kind: null } });
  const total: number = r.total;
  for (const h of r.hits) {
    const id: string = h.id;
    const score: number = h.score;
    const snippet: string | null | undefined = h.snippet;
    void [id, score, snippet];
  }
  const next: string | null | undefined = r["next page"];

  const d: null = await tools.delete({ id: "1" });
  const l: JsonValue = await tools.list_things({ anything: [1, "two"] });

  const s: number | string = await tools.shape({ shape: { kind: "circle", r: 1 } });
  await tools.shape({ shape: { kind: "square", side: 2 } });

  const m = await tools.$meta({ labels: { a: "b" }, ref: "x", note: null, both: { a: "x", b: 2 }, grid: [[1, null]] });
  const w: boolean = m["weird key"];
  const deepX: 1 = m.nested.deep.x[0];
  const h: (1 | "two" | true)[] = await tools["héllo"]({});

  // additionalProperties: true keeps arguments and results open; a schema types the extras.
  const o = await tools.open({ a: "x", anything: [1, { y: null }] });
  const on: number = o.n;
  const oExtra: JsonValue = o.other;
  const te = await tools.typed_extras({ a: 1, other: 2 });
  const teScore: number = te.hits[0].score;

  try {
    await tools.echo({ value: "x" });
  } catch (err) {
    if (err instanceof ToolCallError) {
      const n: string = err.toolName;
      const msg: string = err.message;
      void [n, msg];
    }
  }
  const [a0, a1] = await Promise.all([tools.echo({ value: "a" }), tools.delete({ id: "b" })]);
  const a: string = a0;
  const b: null = a1;
  void [e, total, next, d, l, s, w, deepX, h, on, oExtra, teScore, a, b];

  // Exact arguments (DECISIONS row 15): a misspelled optional argument is an error unless the
  // schema allows extra properties.
  // @ts-expect-error misspelled argument (echo's schema has no additionalProperties)
  await tools.echo({ value: "hi", vaule: "hi" });
  // @ts-expect-error misspelled optional argument in a nested object
  await tools["my-mcp.search"]({ query: "x", filters: { tag: ["a"] } });
  // @ts-expect-error misspelled optional argument of a closed object
  await tools["my-mcp.search"]({ query: "x", limt: 3 });
  // @ts-expect-error extras must match the additionalProperties schema
  await tools.typed_extras({ a: 1, other: "2" });
  // @ts-expect-error a result field that is not declared
  void te.total;
  // @ts-expect-error a misspelled field of a result element
  void te.hits[0].scor;

  // @ts-expect-error value must be a string
  await tools.echo({ value: 1 });
  // @ts-expect-error value is required
  await tools.echo({});
  // @ts-expect-error query is required
  await tools["my-mcp.search"]({});
  // @ts-expect-error kind is an enum
  await tools["my-mcp.search"]({ query: "x", filters: { kind: "other" } });
  // @ts-expect-error no such tool
  await tools.nope({});
  // @ts-expect-error not a shape
  await tools.shape({ shape: { kind: "triangle", r: 1 } });
  // @ts-expect-error labels are strings
  await tools.$meta({ labels: { a: 1 } });
  // @ts-expect-error the result is a string, not a number
  const bad: number = await tools.echo({ value: "x" });
  // @ts-expect-error arguments must be JSON
  await tools.list_things({ value: "x", f: () => 1 });
  // @ts-expect-error no properties allowed
  await tools["héllo"]({ a: 1 });
  void bad;
}
void main;
`

// TestDTSTypechecks runs the real TypeScript compiler over a generated .d.ts and a program that
// uses it.
func TestDTSTypechecks(t *testing.T) {
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		t.Skip("tsc not installed; CI installs typescript")
	}
	dir := t.TempDir()
	files := map[string]string{"tools.d.ts": DTS(variedTools()), "program.ts": tscProgram}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(tsc, "--strict", "--noEmit", "--lib", "es2020", "tools.d.ts", "program.ts")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}

	// And a program with a mistake must fail, so the check is not vacuous.
	if err := os.WriteFile(filepath.Join(dir, "program.ts"), []byte(`async function f() { const x: number = await tools.echo({ value: "a" }); void x; }`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(tsc, "--strict", "--noEmit", "--lib", "es2020", "tools.d.ts", "program.ts")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("tsc accepted a type error:\n%s", out)
	}
}

func ExampleDeclarations() {
	fmt.Println(Declarations([]Tool{{
		Name:        "read-file",
		Description: "Reads a file.",
		Parameters:  jsonv.MustParse(`{"type":"object","properties":{"path":{"type":"string","description":"Absolute path."}},"required":["path"],"additionalProperties":false}`),
		Output:      jsonv.MustParse(`{"type":"object","properties":{"text":{"type":"string"},"size":{"type":"integer"}},"required":["text"]}`),
	}}))
	// Output:
	// declare class ToolCallError extends Error { toolName: string; code?: string }
	//
	// declare const tools: {
	//   /** Reads a file. */
	//   "read-file"(args: { /** Absolute path. */ path: string }): Promise<{ text: string; size?: number }>;
	// }
}

// syntheticTools returns n tools shaped like typical MCP tools.
func syntheticTools(n int) []Tool {
	params := jsonv.MustParse(`{"type":"object","properties":{
		"path":{"type":"string","description":"Absolute path of the file to read."},
		"offset":{"type":"integer","minimum":0,"description":"Line to start at."},
		"limit":{"type":"integer","minimum":1},
		"mode":{"enum":["text","binary","auto"]},
		"filters":{"type":"array","items":{"type":"object","properties":{"field":{"type":"string"},"op":{"enum":["eq","ne","lt","gt"]},"value":{"type":["string","number","null"]}},"required":["field","op","value"],"additionalProperties":false}}},
		"required":["path"],"additionalProperties":false}`)
	output := jsonv.MustParse(`{"type":"object","properties":{
		"content":{"type":"string"},
		"lines":{"type":"integer"},
		"truncated":{"type":"boolean"},
		"meta":{"type":"object","additionalProperties":{"type":"string"}}},
		"required":["content","lines"]}`)
	tools := make([]Tool, n)
	for i := range tools {
		tools[i] = Tool{
			Name:        fmt.Sprintf("server%d.tool_%04d", i%7, (i*7919)%n),
			Description: "Reads a file from the workspace and returns its content, line count and metadata.",
			Parameters:  params,
			Output:      output,
		}
	}
	return tools
}

func BenchmarkSDKRender(b *testing.B) {
	for _, n := range []int{50, 500} {
		tools := syntheticTools(n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				size = len(Section(tools))
			}
			b.ReportMetric(float64(size), "bytes/op-text")
		})
	}
}
