package mcptools_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/mcptools"
	"github.com/runcode-dev/runcode/sdkgen"
)

// kindsPrelude opens every program of TestResultTypesAgree: rec records the JavaScript kind of
// the value a tool call resolved to, and the program returns the record.
const kindsPrelude = `const kinds: Record<string, string> = {};
function rec<T>(tool: string, v: T): T {
  kinds[tool] = v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
  return v;
}
`

// typedPrograms are programs written against the generated declarations of the reference MCP
// servers. Each @ts-expect-error line must be a type error (tsc reports an unused directive),
// so the probes pin the result types: a tool without an outputSchema resolves to a string,
// one with an outputSchema to its structured shape.
var typedPrograms = []struct {
	server string
	source func(t *testing.T, dir string) mcptools.Source
	// skip lists the tools the program does not call, with the reason.
	skip map[string]string
	body string // uses root, a directory the filesystem server may use
}{
	{
		server: "everything",
		source: func(*testing.T, string) mcptools.Source {
			return mcptools.Source{Command: []string{"mcp-server-everything"}}
		},
		skip: map[string]string{
			"simulate-research-query":   "needs MCP tasks (taskSupport: required)",
			"toggle-simulated-logging":  "starts background notifications",
			"toggle-subscriber-updates": "starts background notifications",
		},
		body: `
// get-env's text is JSON, and still arrives as the string the declaration promises.
const env = rec("get-env", await tools["get-env"]({}));
const envText: string = env;
// @ts-expect-error the text is a string, not the parsed object
void env.PATH;
if (typeof JSON.parse(envText) !== "object") throw new Error("get-env text is not JSON");

const echoed = rec("echo", await tools.echo({ message: '{"a":1}' }));
// @ts-expect-error a string has no property a
void echoed.a;
// @ts-expect-error a string is not a number
const echoedNumber: number = echoed;
void echoedNumber;

const sum = rec("get-sum", await tools["get-sum"]({ a: 2, b: 3 }));
if (!sum.includes("5")) throw new Error("get-sum: " + sum);

const image = rec("get-tiny-image", await tools["get-tiny-image"]({}));
const imageText: string = image;
void imageText;

const annotated = rec("get-annotated-message", await tools["get-annotated-message"]({ messageType: "success", includeImage: true }));
annotated.toUpperCase();

const links = rec("get-resource-links", await tools["get-resource-links"]({ count: 2 }));
if (!links.includes("resource link")) throw new Error("get-resource-links: " + links);

const reference = rec("get-resource-reference", await tools["get-resource-reference"]({ resourceType: "Text", resourceId: 1 }));
reference.trim();

const gz = rec("gzip-file-as-resource", await tools["gzip-file-as-resource"]({ name: "a.gz", data: "data:text/plain;base64,aGVsbG8=", outputType: "resource" }));
void gz.length;

const long = rec("trigger-long-running-operation", await tools["trigger-long-running-operation"]({ duration: 0.2, steps: 1 }));
long.trim();

const weather = rec("get-structured-content", await tools["get-structured-content"]({ location: "Chicago" }));
const celsius: number = weather.temperature;
void celsius;
// @ts-expect-error the structured result has no such field
void weather.pressure;
// @ts-expect-error the structured result is not a string
void weather.trim;
`,
	},
	{
		server: "memory",
		source: func(_ *testing.T, dir string) mcptools.Source {
			return mcptools.Source{Command: []string{"env", "MEMORY_FILE_PATH=" + filepath.Join(dir, "m.jsonl"), "mcp-server-memory"}, Approval: mcptools.ApprovalNone}
		},
		body: `
const created = rec("create_entities", await tools.create_entities({ entities: [
  { name: "Ada", entityType: "person", observations: ["writes Go"] },
  { name: "Grace", entityType: "person", observations: [] },
] }));
const firstName: string = created.entities[0].name;
void firstName;
// @ts-expect-error a structured result is not a string
void created.trim;
rec("create_relations", await tools.create_relations({ relations: [{ from: "Ada", to: "Grace", relationType: "knows" }] }));
const added = rec("add_observations", await tools.add_observations({ observations: [{ entityName: "Grace", contents: ["writes COBOL"] }] }));
void added.results;
const graph = rec("read_graph", await tools.read_graph({}));
const relationCount: number = graph.relations.length;
void relationCount;
// @ts-expect-error the graph has no such field
void graph.nodes;
rec("search_nodes", await tools.search_nodes({ query: "Go" }));
rec("open_nodes", await tools.open_nodes({ names: ["Ada"] }));
rec("delete_observations", await tools.delete_observations({ deletions: [{ entityName: "Ada", observations: ["writes Go"] }] }));
rec("delete_relations", await tools.delete_relations({ relations: [{ from: "Ada", to: "Grace", relationType: "knows" }] }));
const deleted = rec("delete_entities", await tools.delete_entities({ entityNames: ["Ada"] }));
void deleted;
`,
	},
	{
		server: "filesystem",
		source: func(_ *testing.T, dir string) mcptools.Source {
			return mcptools.Source{Command: []string{"mcp-server-filesystem", dir}, Approval: mcptools.ApprovalNone}
		},
		skip: map[string]string{"read_media_file": "needs a media file; its structured content is covered by the schema test"},
		body: `
const written = rec("write_file", await tools.write_file({ path: root + "/a.json", content: '{"k":1}' }));
void written.content;
// A file whose text is JSON arrives inside the declared object, as a string.
const text = rec("read_text_file", await tools.read_text_file({ path: root + "/a.json" }));
const body: string = text.content;
if (body !== '{"k":1}') throw new Error("read_text_file: " + body);
// @ts-expect-error content is a string, not the parsed file
void text.content.k;
// @ts-expect-error the result is an object, not a string
void text.trim;
rec("read_file", await tools.read_file({ path: root + "/a.json" }));
rec("read_multiple_files", await tools.read_multiple_files({ paths: [root + "/a.json"] }));
rec("edit_file", await tools.edit_file({ path: root + "/a.json", edits: [{ oldText: "1", newText: "2" }] }));
rec("create_directory", await tools.create_directory({ path: root + "/sub" }));
rec("move_file", await tools.move_file({ source: root + "/a.json", destination: root + "/sub/b.json" }));
rec("list_directory", await tools.list_directory({ path: root }));
rec("list_directory_with_sizes", await tools.list_directory_with_sizes({ path: root }));
rec("directory_tree", await tools.directory_tree({ path: root }));
rec("search_files", await tools.search_files({ path: root, pattern: "**/*.json" }));
rec("get_file_info", await tools.get_file_info({ path: root + "/sub/b.json" }));
const allowed = rec("list_allowed_directories", await tools.list_allowed_directories({}));
allowed.content.split("\n");
`,
	},
}

// TestResultTypesAgree checks, for the reference MCP servers, that what the SDK declares is what
// a program receives: each program typechecks with tsc --strict against the declarations
// generated for the imported server (its @ts-expect-error probes pin the result types), then
// runs through run_code against the real server, and the JavaScript kind of every value it
// received matches the kind the tool's declared output schema says.
func TestResultTypesAgree(t *testing.T) {
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		t.Skip("tsc not installed (npm install -g typescript@7); .ci/run installs it")
	}
	for _, p := range typedPrograms {
		t.Run(p.server, func(t *testing.T) {
			needBin(t, "mcp-server-"+p.server)
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			srv, reg := importServer(t, p.source(t, root))
			body := kindsPrelude + "const root = " + strconv.Quote(root) + ";\n" + p.body + "\nreturn kinds;\n"

			typecheckProgram(t, tsc, sdkgen.DTS(codemode.SDKTools(reg)), body)

			res := runProgram(t, reg, body)
			if res.IsError {
				t.Fatalf("run failed: %v", res.Err)
			}
			kinds := res.Value.Lookup("result")
			if kinds.Kind() != jsonv.Object {
				t.Fatalf("the program returned %s", jsonv.AppendJSON(nil, res.Value))
			}
			for _, tl := range srv.Tools() {
				got, called := kinds.Get(tl.Name)
				reason, skipped := p.skip[tl.Name]
				switch {
				case called && skipped:
					t.Errorf("%s is called and listed as skipped (%s)", tl.Name, reason)
				case !called && !skipped:
					t.Errorf("%s is neither called nor skipped with a reason", tl.Name)
				case called:
					if want := declaredKind(tl.Output.Schema); got.AsString() != want {
						t.Errorf("%s: received a %s, declared %s (%s)", tl.Name, got.AsString(), want, jsonv.AppendJSON(nil, tl.Output.Schema))
					}
				}
			}
		})
	}
}

// declaredKind is the JavaScript kind (as rec records it) of the values an output schema's
// "type" allows; "" when it does not name one type.
func declaredKind(schema jsonv.Value) string {
	switch k := schema.Lookup("type").AsString(); k {
	case "integer":
		return "number"
	case "string", "number", "boolean", "object", "array", "null":
		return k
	}
	return ""
}

// noTypeRoots is a type root that does not exist: it keeps the @types of every node_modules
// above a test's directory out of a check, with TypeScript 5 and 7 alike (`--types ""` is
// TypeScript 7's form only).
const noTypeRoots = "./no-type-roots"

// typecheckProgram runs tsc --strict over the declarations and the program body wrapped in an
// async function, and fails the test on any diagnostic (an unused @ts-expect-error included).
func typecheckProgram(t *testing.T, tsc, dts, body string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"tools.d.ts": dts,
		"program.ts": "async function main(): Promise<unknown> {\n" + body + "}\nvoid main;\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(tsc, "--strict", "--noEmit", "--target", "es2022", "--lib", "es2022", "--typeRoots", noTypeRoots, "tools.d.ts", "program.ts")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}

// The type check is not vacuous: a probe that no longer holds fails it.
func TestResultTypesProbeFails(t *testing.T) {
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		t.Skip("tsc not installed")
	}
	needBin(t, "mcp-server-everything")
	_, reg := importServer(t, mcptools.Source{Command: []string{"mcp-server-everything"}})
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tools.d.ts"), []byte(sdkgen.DTS(codemode.SDKTools(reg))), 0o644)
	// get-sum is declared string: reading a field of it is an error, so this directive is
	// unused and tsc must fail.
	os.WriteFile(filepath.Join(dir, "program.ts"), []byte("async function main() {\n  const s = await tools[\"get-sum\"]({ a: 1, b: 2 });\n  // @ts-expect-error\n  s.length;\n}\nvoid main;\n"), 0o644)
	cmd := exec.Command(tsc, "--strict", "--noEmit", "--target", "es2022", "--lib", "es2022", "--typeRoots", noTypeRoots, "tools.d.ts", "program.ts")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Unused '@ts-expect-error' directive") {
		t.Fatalf("tsc accepted an unused probe: %v\n%s", err, out)
	}
	if !slices.ContainsFunc(strings.Split(string(out), "\n"), func(l string) bool { return strings.Contains(l, "program.ts(3,") }) {
		t.Errorf("the diagnostic is not on the probe's line:\n%s", out)
	}
}
