package sdkgen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

// mcpFixtures are the tools/list results captured from real MCP servers (testdata/mcp/README.md).
var mcpFixtures = []string{"server-everything", "server-filesystem", "server-memory"}

func loadMCPFixture(t *testing.T, name string) []Tool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "mcp", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	list := v.Lookup("tools")
	if list.Len() == 0 {
		t.Fatalf("%s: no tools", name)
	}
	tools := make([]Tool, list.Len())
	for i := range tools {
		mt := list.Index(i)
		output := mt.Lookup("outputSchema")
		if output.Kind() != jsonv.Object {
			// What mcptools declares for a tool without an outputSchema: its text, as one
			// string (DECISIONS row 16). mcptools' TestFixtureGoldensMatchImportedTools checks
			// that the goldens equal the declarations of the tools as mcptools converts them.
			output = textOutput
		}
		tools[i] = Tool{
			Name:        mt.Lookup("name").AsString(),
			Description: mt.Lookup("description").AsString(),
			Parameters:  mt.Lookup("inputSchema"),
			Output:      output,
		}
	}
	return tools
}

// textOutput is the result schema of an MCP tool without an outputSchema: its text content, as
// one string (DECISIONS row 16).
var textOutput = jsonv.MustParse(`{"type":"string"}`)

// unknownRE finds the type unknown outside JSDoc text.
var unknownRE = regexp.MustCompile(`(?m)^[^*\n]*\bunknown\b`)

// TestMCPFixtures renders the SDK of each captured server: the declaration file matches its
// golden file, has no unknown type (every schema of these servers is expressible), and tsc
// accepts it with a program that calls every tool with arguments built from its schema and reads
// every declared result field.
func TestMCPFixtures(t *testing.T) {
	files := map[string]string{}
	for _, name := range mcpFixtures {
		tools := loadMCPFixture(t, name)
		dts := DTS(tools)
		checkGolden(t, filepath.Join("mcp", name+".d.ts.golden"), dts)
		if loc := unknownRE.FindStringIndex(dts); loc != nil {
			t.Errorf("%s: unknown in the declarations: %q", name, dts[loc[0]:loc[1]])
		}
		// Each file is a module so that the fixtures' declarations do not clash.
		files[name+".ts"] = dts + "\nexport {};\n" + fixtureProgram(tools)
	}
	typecheck(t, files)
}

// fixtureProgram calls every tool with arguments sampled from its schema and reads its result
// fields; it checks that a misspelled optional argument is rejected and, for a tool with a
// required string argument, that a number is.
func fixtureProgram(tools []Tool) string {
	var b strings.Builder
	b.WriteString("async function main(): Promise<void> {\n")
	for i, tl := range sortedTools(tools) {
		call := "tools"
		if isIdent(tl.Name) {
			call += "." + tl.Name
		} else {
			call += "[" + strconv.Quote(tl.Name) + "]"
		}
		fmt.Fprintf(&b, "  const r%d = await %s(%s);\n", i, call, sample(tl.Parameters, tl.Parameters, 0))
		for _, p := range tl.Output.Lookup("properties").Members() {
			fmt.Fprintf(&b, "  void r%d[%s];\n", i, strconv.Quote(p.Key))
		}
		if tl.Output.Lookup("type").AsString() == "string" {
			fmt.Fprintf(&b, "  const s%d: string = r%d;\n  void s%d;\n  // @ts-expect-error a text result is a string\n  void r%d.nope;\n", i, i, i, i)
		}
		fmt.Fprintf(&b, "  void r%d;\n", i)
		ap := tl.Output.Lookup("additionalProperties")
		switch {
		case tl.Output.String() == textOutput.String():
			fmt.Fprintf(&b, "  const text%d: string = r%d;\n  void text%d;\n", i, i, i)
		case tl.Output.Lookup("properties").Len() > 0 && ap.Kind() != jsonv.Object && !ap.AsBool():
			fmt.Fprintf(&b, "  // @ts-expect-error not a declared result field\n  void r%d.notAField;\n", i)
		}
		// Exact arguments (DECISIONS row 15): a misspelled optional argument is an error.
		if ap := tl.Parameters.Lookup("additionalProperties"); ap.Kind() != jsonv.Object && !ap.AsBool() {
			for _, p := range tl.Parameters.Lookup("properties").Members() {
				if !isRequired(tl.Parameters.Lookup("required"), p.Key) {
					args := topArgs(tl.Parameters, "", "", strconv.Quote(p.Key+"s")+": "+sample(p.Value, tl.Parameters, 0))
					fmt.Fprintf(&b, "  // @ts-expect-error %s is misspelled\n  await %s(%s);\n", p.Key, call, args)
					break
				}
			}
		}
		for _, p := range tl.Parameters.Lookup("properties").Members() {
			if isRequired(tl.Parameters.Lookup("required"), p.Key) && p.Value.Lookup("type").AsString() == "string" {
				args := topArgs(tl.Parameters, p.Key, "12345", "")
				fmt.Fprintf(&b, "  // @ts-expect-error %s is a string\n  await %s(%s);\n", p.Key, call, args)
				break
			}
		}
	}
	b.WriteString("}\nvoid main;\n")
	return b.String()
}

// topArgs returns the sampled arguments object of params (its required properties), with the
// value of property key replaced by value (when key is not empty) and extra appended.
func topArgs(params jsonv.Value, key, value, extra string) string {
	var parts []string
	for _, p := range params.Lookup("properties").Members() {
		switch {
		case p.Key == key:
			parts = append(parts, strconv.Quote(p.Key)+": "+value)
		case isRequired(params.Lookup("required"), p.Key):
			parts = append(parts, strconv.Quote(p.Key)+": "+sample(p.Value, params, 1))
		}
	}
	if extra != "" {
		parts = append(parts, extra)
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// sample returns a TypeScript expression of a JSON value that schema s accepts (for the schema
// shapes real servers send).
func sample(s, root jsonv.Value, depth int) string {
	if s.Kind() != jsonv.Object || depth > 20 {
		return "null"
	}
	if ref, ok := s.Get("$ref"); ok {
		if _, target, ok := resolve(root, ref.AsString()); ok {
			return sample(target, root, depth+1)
		}
	}
	if c, ok := s.Get("const"); ok {
		return c.String()
	}
	if e := s.Lookup("enum"); e.Len() > 0 {
		return e.Index(0).String()
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if bs := s.Lookup(k); bs.Len() > 0 {
			return sample(bs.Index(0), root, depth+1)
		}
	}
	ty := s.Lookup("type")
	if ty.Kind() == jsonv.Array {
		ty = ty.Index(0)
	}
	switch ty.AsString() {
	case "string":
		return `"s"`
	case "number", "integer":
		if m := s.Lookup("minimum"); m.Kind() == jsonv.Number {
			return m.String()
		}
		return "1"
	case "boolean":
		return "true"
	case "array":
		n, _ := bound(s, "minItems")
		items := make([]string, n)
		for i := range items {
			items[i] = sample(s.Lookup("items"), root, depth+1)
		}
		return "[" + strings.Join(items, ", ") + "]"
	case "object":
		var parts []string
		for _, p := range s.Lookup("properties").Members() {
			if isRequired(s.Lookup("required"), p.Key) {
				parts = append(parts, strconv.Quote(p.Key)+": "+sample(p.Value, root, depth+1))
			}
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return "null"
}

// TestFuzzCorpusTypechecks: tsc accepts the declaration file of every checked-in fuzz input
// (testdata/fuzz/FuzzTypeOf), each rendered as one tool whose arguments and result are that
// schema.
func TestFuzzCorpusTypechecks(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzTypeOf", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no fuzz corpus checked in")
	}
	files := map[string]string{}
	for i, p := range paths {
		text := readCorpusString(t, p)
		v, err := jsonv.ParseString(text)
		if err != nil {
			continue
		}
		files[fmt.Sprintf("corpus%03d.ts", i)] = DTS([]Tool{{Name: text, Description: text, Parameters: v, Output: v}}) + "\nexport {};\n"
	}
	if len(files) < 20 {
		t.Fatalf("only %d corpus entries parse as JSON", len(files))
	}
	typecheck(t, files)
}

// readCorpusString reads the string argument of a "go test fuzz v1" corpus file.
func readCorpusString(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	header, rest, _ := strings.Cut(string(data), "\n")
	rest = strings.TrimSpace(rest)
	if header != "go test fuzz v1" || !strings.HasPrefix(rest, "string(") || !strings.HasSuffix(rest, ")") {
		t.Fatalf("%s: not a single-string corpus entry", path)
	}
	s, err := strconv.Unquote(rest[len("string(") : len(rest)-1])
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}
