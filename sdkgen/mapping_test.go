package sdkgen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

// TestTypeOfExtended covers the mapping beyond the upstream subset: tuples, index signatures,
// JSDoc annotations, and references expanded in place.
func TestTypeOfExtended(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		// Tuples.
		{"prefixItems closed", `{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"items":false,"minItems":2}`, "[string, number]"},
		{"prefixItems optional past minItems", `{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"items":false,"minItems":1}`, "[string, number?]"},
		{"prefixItems rest", `{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"boolean"},"minItems":1}`, "[string, ...boolean[]]"},
		{"prefixItems open rest", `{"prefixItems":[{"type":"string"}],"minItems":1}`, "[string, ...JsonValue[]]"},
		{"prefixItems union rest parenthesized", `{"prefixItems":[{"type":"string"}],"items":{"type":["string","null"]},"minItems":1}`, "[string, ...(string | null)[]]"},
		{"optional union element parenthesized", `{"prefixItems":[{"type":["string","null"]}],"items":false}`, "[(string | null)?]"},
		{"maxItems cuts", `{"prefixItems":[{"type":"string"},{"type":"number"},{"type":"null"}],"maxItems":2,"minItems":2}`, "[string, number]"},
		{"maxItems closes", `{"prefixItems":[{"type":"string"}],"items":{"type":"number"},"maxItems":1,"minItems":1}`, "[string]"},
		{"empty prefix closed", `{"prefixItems":[],"items":false}`, "[]"},
		{"empty prefix rest", `{"prefixItems":[],"items":{"type":"string"}}`, "string[]"},
		{"draft-07 additionalItems", `{"type":"array","items":[{"type":"string"},{"const":1}],"additionalItems":{"type":"number"},"minItems":2}`, "[string, 1, ...number[]]"},
		{"draft-07 closed", `{"type":"array","items":[{"type":"string"}],"additionalItems":false,"minItems":1}`, "[string]"},
		{"tuple of objects", `{"prefixItems":[{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}],"items":false,"minItems":1}`, "[{ a?: string }]"},

		// Index signatures.
		{"index covers properties", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":{"type":"string"}}`,
			"{ a: string; [key: string]: string }"},
		{"index covers literal and optional", `{"type":"object","properties":{"a":{"enum":["x","y"]},"n":{"type":"integer"}},"additionalProperties":{"type":["string","number"]}}`,
			"{ a?: \"x\" | \"y\"; n?: number; [key: string]: string | number | undefined }"},
		{"index falls back to JsonValue", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":{"type":"number"}}`,
			"{ a: string; [key: string]: JsonValue }"},
		{"index falls back to unknown", `{"type":"object","properties":{"a":{"not":{}}},"required":["a"],"additionalProperties":{"type":"number"}}`,
			"{ a: unknown; [key: string]: unknown }"},
		{"patternProperties index", `{"type":"object","patternProperties":{"^x-":{"type":"string"},"^n-":{"type":"number"}},"additionalProperties":false}`,
			"{ [key: string]: string | number }"},
		{"patternProperties with additionalProperties schema", `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":{"type":"boolean"}}`,
			"{ id: string; [key: string]: string | boolean }"},
		{"patternProperties closes the rest", `{"type":"object","patternProperties":{"^x-":{"type":"string"}}}`, "{ [key: string]: string }"},
		{"index of objects", `{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"number"}},"required":["v"],"additionalProperties":false}}`,
			"{ [key: string]: { v: number } }"},

		// JSDoc annotations.
		{"tags", `{"type":"object","properties":{"n":{"type":"integer","description":"Count.","minimum":0,"maximum":10,"default":5,"examples":[1,2,3,4]}},"additionalProperties":false}`,
			"{ /** Count. @minimum 0 @maximum 10 @default 5 @example 1 @example 2 @example 3 */ n?: number }"},
		{"tags without description", `{"type":"object","properties":{"u":{"type":"string","format":"uri","pattern":"^https?://a*/","minLength":1,"maxLength":99}},"additionalProperties":false}`,
			"{ /** @format uri @pattern ^https?://a*\\/ @minLength 1 @maxLength 99 */ u?: string }"},
		{"exclusive bounds", `{"type":"object","properties":{"a":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1},"b":{"type":"number","minimum":2,"exclusiveMinimum":true}},"additionalProperties":false}`,
			"{ /** @exclusiveMinimum 0 @exclusiveMaximum 1 */ a?: number; /** @exclusiveMinimum 2 */ b?: number }"},
		{"deprecated, multipleOf, items bounds, default object", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"number","multipleOf":2},"deprecated":true,"minItems":1,"maxItems":3,"default":[{"a":"*/"}],"description":"  Old\nlist. "}},"additionalProperties":false}`,
			"{ /** Old list. @deprecated @minItems 1 @maxItems 3 @default [{\"a\":\"*\\/\"}] */ l?: number[] }"},
		{"short description stays on the line", `{"type":"object","properties":{"a":{"type":"string","description":"A.","title":"ignored"}},"additionalProperties":false}`,
			"{ /** A. */ a?: string }"},
		{"long description breaks the line", `{"type":"object","properties":{"a":{"type":"string","description":"A long description that does not fit on one line with the member it documents."},"b":{"type":"number"}},"additionalProperties":false}`,
			"{\n  /** A long description that does not fit on one line with the member it documents. */ a?: string;\n  b?: number;\n}"},
		{"prose */ gets a zero-width space", `{"type":"object","properties":{"g":{"type":"string","description":"Glob such as **/*.go, not a comment end.","default":"**/*.go","pattern":"^a*/"}},"additionalProperties":false}`,
			"{ /** Glob such as **\u200b/*.go, not a comment end. @pattern ^a*\\/ @default \"**\\/*.go\" */ g?: string }"},
		{"absent additionalProperties closes listed properties", `{"type":"object","properties":{"a":{"type":"string"}}}`, "{ a?: string }"},
		{"no properties listed is any object", `{"type":"object"}`, "Record<string, JsonValue>"},
		{"explicit true stays open", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`, "{ a?: string } & Record<string, JsonValue>"},
		{"empty properties closes", `{"type":"object","properties":{}}`, "Record<string, never>"},

		// References expanded in place.
		{"ref to $defs", `{"type":"object","properties":{"p":{"$ref":"#/$defs/point"}},"$defs":{"point":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}},"additionalProperties":false}`,
			"{\n  p?: { x: number };\n}"},
		{"ref to definitions", `{"type":"array","items":{"$ref":"#/definitions/s"},"definitions":{"s":{"type":"string"}}}`, "string[]"},
		{"ref escaped pointer", `{"$ref":"#/$defs/a~1b%20c","$defs":{"a/b c":{"type":"boolean"}}}`, "boolean"},
		{"ref into properties and array", `{"type":"object","properties":{"a":{"type":"array","items":[{"const":1},{"const":2}]},"b":{"$ref":"#/properties/a/items/1"}},"additionalProperties":false}`,
			"{\n  a?: [1?, 2?, ...JsonValue[]];\n  b?: 2;\n}"},
		{"recursive ref is unknown in TypeOf", `{"type":"object","properties":{"next":{"$ref":"#"}},"additionalProperties":false}`, "{\n  next?: unknown;\n}"},
		{"unresolved ref", `{"$ref":"#/$defs/missing"}`, "unknown"},
		{"remote ref", `{"$ref":"https://example.com/s.json"}`, "unknown"},
		{"anchor ref", `{"$ref":"#node"}`, "unknown"},
		{"non-string ref", `{"$ref":7}`, "unknown"},
		{"ref with sibling allOf", `{"$ref":"#/$defs/o","required":["a"],"$defs":{"o":{"type":"string"}},"allOf":[{"enum":["a","b"]}]}`, "string & (\"a\" | \"b\")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TypeOf(jsonv.MustParse(tt.schema), 0); got != tt.want {
				t.Errorf("TypeOf(%s)\n got: %q\nwant: %q", tt.schema, got, tt.want)
			}
		})
	}
}

// TestTypeOfInlineBudget: mutually multiplying references stop expanding instead of growing
// exponentially.
func TestTypeOfInlineBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"$ref":"#/$defs/d40","$defs":{"d0":{"type":"string"}`)
	for i := 1; i <= 40; i++ {
		b.WriteString(`,"d` + itoa(i) + `":{"type":"array","prefixItems":[{"$ref":"#/$defs/d` + itoa(i-1) + `"},{"$ref":"#/$defs/d` + itoa(i-1) + `"}],"items":false}`)
	}
	b.WriteString(`}}`)
	got := TypeOf(jsonv.MustParse(b.String()), 0)
	if len(got) > 1<<16 || !strings.Contains(got, "unknown") {
		t.Fatalf("length %d, want a bounded text with unknown past the budget", len(got))
	}
}

func itoa(i int) string { return jsonv.FormatNumber(float64(i)) }

func TestDeclarationsRefs(t *testing.T) {
	tests := []struct {
		name  string
		tools []Tool
		want  string // the declarations but JsonValue and ToolCallError
	}{
		{"recursive $defs", []Tool{{Name: "tree-walk",
			Parameters: jsonv.MustParse(`{"type":"object","properties":{"root":{"$ref":"#/$defs/node"}},"required":["root"],"additionalProperties":false,
				"$defs":{"node":{"type":"object","description":"A node.","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["name"],"additionalProperties":false}}}`)}},
			"/** A node. */\ntype TreeWalk_Node = { name: string; children?: TreeWalk_Node[] }\n\ndeclare const tools: {\n  \"tree-walk\"(args: { root: TreeWalk_Node }): Promise<JsonValue>;\n}"},
		{"root recursion names the whole schema", []Tool{{Name: "list",
			Parameters: jsonv.MustParse(`{"type":"object","properties":{"value":{"type":"number"},"next":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["value"],"additionalProperties":false}`)}},
			"type List_Args = { value: number; next?: List_Args | null }\n\ndeclare const tools: {\n  list(args: List_Args): Promise<JsonValue>;\n}"},
		{"draft-07 definitions, names sanitized and deduplicated", []Tool{{Name: "9 lives",
			Parameters: jsonv.MustParse(`{"type":"object","properties":{"a":{"$ref":"#/definitions/my-type"},"b":{"$ref":"#/definitions/my_type"},"c":{"$ref":"#/definitions/%C3%A9"},"d":{"$ref":"#/definitions/Args"}},"additionalProperties":false,
				"definitions":{"my-type":{"type":"string"},"my_type":{"type":"number"},"é":{"type":"boolean"},"Args":{"type":"null"}}}`)}},
			"type T9Lives_MyType = string\n\ntype T9Lives_MyType2 = number\n\ntype T9Lives_Def = boolean\n\ntype T9Lives_Args = null\n\ndeclare const tools: {\n  \"9 lives\"(args?: { a?: T9Lives_MyType; b?: T9Lives_MyType2; c?: T9Lives_Def; d?: T9Lives_Args }): Promise<JsonValue>;\n}"},
		{"tool prefixes deduplicated", []Tool{
			{Name: "a_b", Parameters: jsonv.MustParse(`{"$ref":"#/$defs/x","$defs":{"x":{"type":"string"}}}`)},
			{Name: "a-b", Parameters: jsonv.MustParse(`{"$ref":"#/$defs/x","$defs":{"x":{"type":"number"}}}`)}},
			"type AB_X = number\n\ntype AB2_X = string\n\ndeclare const tools: {\n  \"a-b\"(args: AB_X): Promise<JsonValue>;\n  a_b(args: AB2_X): Promise<JsonValue>;\n}"},
		{"cycle without an object in between", []Tool{{Name: "c",
			Parameters: jsonv.MustParse(`{"$ref":"#/$defs/a","$defs":{"a":{"anyOf":[{"$ref":"#/$defs/b"},{"type":"string"}]},"b":{"anyOf":[{"$ref":"#/$defs/a"},{"type":"number"}]}}}`)}},
			"type C_A = C_B | string\n\ntype C_B = unknown | number\n\ndeclare const tools: {\n  c(args: C_A): Promise<JsonValue>;\n}"},
		{"self reference at the top", []Tool{{Name: "s",
			Parameters: jsonv.MustParse(`{"allOf":[{"$ref":"#"}],"type":"object","properties":{"a":{"type":"array","prefixItems":[{"$ref":"#"}]}},"additionalProperties":false}`)}},
			"type S_Args = { a?: [S_Args?, ...JsonValue[]] }\n\ndeclare const tools: {\n  s(args: S_Args): Promise<JsonValue>;\n}"},
		{"output shares an identical definition", []Tool{{Name: "get",
			Parameters: jsonv.MustParse(`{"type":"object","properties":{"id":{"$ref":"#/$defs/Id"}},"additionalProperties":false,"$defs":{"Id":{"type":"string","format":"uuid"}}}`),
			Output:     jsonv.MustParse(`{"type":"object","properties":{"id":{"$ref":"#/$defs/Id"},"other":{"$ref":"#/$defs/Other"}},"additionalProperties":false,"$defs":{"Id":{"type":"string","format":"uuid"},"Other":{"$ref":"#/$defs/Id"}}}`)}},
			"/** @format uuid */\ntype Get_Id = string\n\ntype Get_Other = Get_Id\n\ndeclare const tools: {\n  get(args?: { id?: Get_Id }): Promise<{ id?: Get_Id; other?: Get_Other }>;\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.TrimPrefix(Declarations(tt.tools), jsonValueDecl)
			got = strings.Replace(got, toolCallErrorDecl, "", 1)
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestDeepRefChain: a chain of 5,000 definitions, each referring to the next, renders.
func TestDeepRefChain(t *testing.T) {
	const n = 5000
	var b strings.Builder
	b.WriteString(`{"$ref":"#/$defs/d0","$defs":{`)
	for i := range n {
		b.WriteString(`"d` + itoa(i) + `":{"anyOf":[{"$ref":"#/$defs/d` + itoa(i+1) + `"},{"type":"null"}]},`)
	}
	b.WriteString(`"d` + itoa(n) + `":{"type":"string"}}}`)
	got := Declarations([]Tool{{Name: "deep", Parameters: jsonv.MustParse(b.String())}})
	if c := strings.Count(got, "\ntype Deep_D"); c != n+1 || !strings.Contains(got, "type Deep_D5000 = string\n") {
		t.Fatalf("%d aliases", c)
	}
}

// mappingTools exercise every mapping rule beyond the upstream subset; mappingProgram uses them.
func mappingTools() []Tool {
	return []Tool{
		{
			Name:        "tree",
			Description: "Walks a tree.",
			Parameters: jsonv.MustParse(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{
					"root":{"$ref":"#/$defs/node"},
					"depth":{"type":"integer","minimum":0,"maximum":10,"default":3,"description":"How deep."},
					"order":{"enum":["pre","post"],"deprecated":true}},
				"required":["root"],"additionalProperties":false,
				"$defs":{"node":{"type":"object","description":"A tree node.","properties":{"name":{"type":"string","minLength":1},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["name"],"additionalProperties":false}}}`),
			Output: jsonv.MustParse(`{"type":"object","properties":{"count":{"type":"integer"},"deepest":{"$ref":"#/$defs/node"}},"required":["count"],"additionalProperties":false,
				"$defs":{"node":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["name"],"additionalProperties":false}}}`),
		},
		{
			Name:       "linked-list",
			Parameters: jsonv.MustParse(`{"type":"object","properties":{"value":{"type":"number"},"next":{"oneOf":[{"$ref":"#"},{"type":"null"}]}},"required":["value"],"additionalProperties":false}`),
			Output:     jsonv.MustParse(`{"definitions":{"sum":{"type":"number","exclusiveMinimum":0}},"$ref":"#/definitions/sum"}`),
		},
		{
			Name: "geo",
			Parameters: jsonv.MustParse(`{"type":"object","properties":{
					"point":{"type":"array","prefixItems":[{"type":"number"},{"type":"number"},{"type":"number"}],"items":false,"minItems":2},
					"path":{"type":"array","items":{"type":"array","items":[{"type":"string"},{"type":"number"}],"additionalItems":{"type":"boolean"},"minItems":2}},
					"labels":{"type":"object","properties":{"main":{"type":"string"}},"required":["main"],"additionalProperties":{"type":"string"}},
					"headers":{"type":"object","patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false},
					"mixed":{"type":"object","properties":{"n":{"type":"number"}},"required":["n"],"additionalProperties":{"type":"string"}},
					"when":{"type":["string","null"],"format":"date-time","examples":["2020-01-01T00:00:00Z"]},
					"level":{"enum":[1,"two",true,null]},
					"opt":{"type":"string","nullable":true},
					"both":{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"anyOf":[{"type":"object","properties":{"b":{"type":"number"}},"required":["b"]},{"type":"object","properties":{"c":{"type":"boolean"}},"required":["c"]}]}]}},
				"required":["point"],"additionalProperties":false}`),
			Output: jsonv.MustParse(`{"type":"object","properties":{"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"minItems":2,"items":false},"meta":{"type":"object","additionalProperties":{"type":"array","items":{"type":"string"}}}},"required":["pair","meta"],"additionalProperties":false}`),
		},
	}
}

const mappingProgram = `async function main(): Promise<void> {
  const t = await tools.tree({ root: { name: "a", children: [{ name: "b" }, { name: "c", children: [] }] }, depth: 2 });
  const count: number = t.count;
  const deep: string | undefined = t.deepest?.children?.[0]?.name;
  const node: Tree_Node = { name: "x", children: [{ name: "y" }] };
  await tools.tree({ root: node, order: "post" });

  await tools["linked-list"]({ value: 1, next: { value: 2, next: null } });
  const sum: number = await tools["linked-list"]({ value: 1 });

  await tools.geo({ point: [1, 2] });
  await tools.geo({
    point: [1, 2, 3],
    path: [["a", 1], ["b", 2, true, false]],
    labels: { main: "m", other: "o" },
    headers: { "x-a": "b" },
    mixed: { n: 1, s: "x" },
    when: null,
    level: "two",
    opt: null,
    both: { a: "x", b: 1 },
  });
  const g = await tools.geo({ point: [0, 0] });
  const first: string = g.pair[0];
  const second: number = g.pair[1];
  const metaList: string[] | undefined = g.meta["k"];
  void [count, deep, sum, first, second, metaList];

  // @ts-expect-error a node needs a name
  await tools.tree({ root: { children: [] } });
  // @ts-expect-error children are nodes
  await tools.tree({ root: { name: "a", children: ["b"] } });
  // @ts-expect-error next is a list or null
  await tools["linked-list"]({ value: 1, next: { next: null } });
  // @ts-expect-error a point has at most three numbers
  await tools.geo({ point: [1, 2, 3, 4] });
  // @ts-expect-error a point has at least two numbers
  await tools.geo({ point: [1] });
  // @ts-expect-error path elements start with a string
  await tools.geo({ point: [1, 2], path: [[1, 1]] });
  // @ts-expect-error label values are strings
  await tools.geo({ point: [1, 2], labels: { main: "m", other: 1 } });
  // @ts-expect-error both needs b or c
  await tools.geo({ point: [1, 2], both: { a: "x" } });
  // @ts-expect-error level is an enum
  await tools.geo({ point: [1, 2], level: 2 });
}
void main;
`

func TestMappingGolden(t *testing.T) {
	got := DTS(mappingTools())
	checkGolden(t, "mapping.d.ts.golden", got)
	typecheck(t, map[string]string{"tools.d.ts": got, "program.ts": mappingProgram})
}

// typecheck runs tsc --strict --noEmit over files in a temporary directory and fails the test
// on any diagnostic. It skips the test when tsc is not installed.
func typecheck(t *testing.T, files map[string]string) {
	t.Helper()
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		t.Skip("tsc not installed (npm install -g typescript@7); .ci/run installs it")
	}
	dir := t.TempDir()
	// No ambient types: a type root that does not exist keeps the @types of every node_modules
	// above dir out, with TypeScript 5 and 7 alike (`--types ""` is TypeScript 7's form only).
	args := []string{"--strict", "--noEmit", "--lib", "es2020", "--typeRoots", "./no-type-roots"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, name)
	}
	cmd := exec.Command(tsc, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}
