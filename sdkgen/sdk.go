// Package sdkgen turns tools' JSON Schemas into the TypeScript declarations of the Code Mode SDK:
// the typed `tools` object a run_code program calls, one member per tool with its description,
// arguments and result. It produces the same declarations in two wrappings: Section, the prompt
// section the model reads (instructions plus a ```ts block, laid out to cost few tokens), and
// DTS, a standalone declaration file for editors and the TypeScript compiler (the same types
// and comments, laid out so that editors show every JSDoc comment).
//
//	fmt.Println(sdkgen.Section([]sdkgen.Tool{{Name: "add", Description: "Add two numbers.",
//		Parameters: jsonv.MustParse(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`),
//		Output:     jsonv.MustParse(`{"type":"number"}`)}}))
//
// [Section] and [DTS] take the same [Tool] list (what a registry's SDKSchemas lists);
// [Declarations] is the bare declarations, [CompactSection], [Describe] and [Search] the
// compact presentation for large tool sets, and [TypeOf] one schema's TypeScript type.
//
// Object types are exact: a key the schema does not list is a type error unless the schema
// allows extra properties (additionalProperties true or a schema; DECISIONS row 15). Object
// types the tools repeat are declared once and named. The prompt section of the reference MCP
// servers' tools is 72-84 % of the bytes of their native JSON definitions (TestPromptEconomy).
//
// Output is deterministic: tools are sorted by name in JavaScript (UTF-16) order, properties keep
// their schema order, and an unchanged tool set renders byte-identical text whatever the input
// order. The package depends only on jsonv.
package sdkgen

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/runcode-dev/runcode/jsonv"
)

// Tool is one tool as the SDK sees it.
type Tool struct {
	// Name is the tool's registered name; it becomes the SDK key, bare when it is an identifier
	// (^[A-Za-z_$][A-Za-z0-9_$]*$) and JSON-quoted otherwise. Names should be unique; the
	// caller (the registry) guarantees it, and leaves run_code itself out.
	Name string
	// Namespace, when set, nests the tool: the SDK declares it as tools.<Namespace>.<member>,
	// where Name is "<Namespace>.<member>" (registry.QualifiedName); every key is bare or
	// JSON-quoted as for Name. A namespace's tools are declared together, at the place of the
	// first of them in name order. No top-level tool may be named like a namespace (the
	// registry refuses it).
	Namespace string
	// Description is shown as a JSDoc line above the tool's arguments type ("" for none).
	Description string
	// Parameters is the JSON Schema of the arguments (Undefined → open object).
	Parameters jsonv.Value
	// Output is the JSON Schema of the result value (Undefined → any JSON: JsonValue).
	Output jsonv.Value
}

// member returns the tool's key within its namespace (its Name when it has none).
func (t Tool) member() string {
	if t.Namespace == "" || len(t.Name) <= len(t.Namespace) {
		return t.Name
	}
	return t.Name[len(t.Namespace)+1:]
}

// argsOptional reports whether the tool's arguments object requires nothing: its schema is
// absent, or an object schema with no required property and no keyword that could refuse {}. The
// runtime passes {} for a call with no argument (tools.x() is tools.x({})), so the SDK
// declares the argument optional for such a tool, and a program that calls it without one
// typechecks. Any other schema keeps the argument required: the check is syntactic, and leaves
// a schema it cannot read at a glance as it was.
func (t Tool) argsOptional() bool {
	p := t.Parameters
	switch p.Kind() {
	case jsonv.Undefined:
		return true
	case jsonv.Bool:
		return p.AsBool()
	case jsonv.Object:
	default:
		return false
	}
	if ty, ok := p.Get("type"); ok && (ty.Kind() != jsonv.String || ty.AsString() != "object") {
		return false
	}
	if p.Lookup("required").Len() > 0 {
		return false
	}
	for _, k := range [...]string{"$ref", "allOf", "anyOf", "oneOf", "not", "if", "const", "enum",
		"minProperties", "dependentRequired", "dependentSchemas", "dependencies"} {
		if _, ok := p.Get(k); ok {
			return false
		}
	}
	return true
}

// level is the indentation level of the tool's member in the tools object.
func (t Tool) level() int {
	if t.Namespace == "" {
		return 1
	}
	return 2
}

// The prompt section's instructions: how a program calls the tools, what a call gives back, and
// how calls overlap. They read right both as a system-prompt section and after run_code's own
// description (where an MCP server puts them); what run_code is and what reaches the model is
// run_code's description's to say.
const (
	callsAs     = "`await tools.name(args)` (`tools[\"odd-name\"](args)` for other names); arguments cross as `JSON.stringify` gives them, and no argument is `{}`. "
	callOutcome = "A call resolves to the declared result or rejects with `ToolCallError`; catch it to carry on. " +
		"Independent calls MAY overlap under `Promise.all`: tools safe to run concurrently run together, the others one at a time in submission order."
	instructions = "A run_code program calls these tools as " + callsAs + callOutcome
)

// dtsHeader is the first line of a standalone declaration file.
const dtsHeader = `// Generated by runcode: Code Mode tool declarations. Add /// <reference path="tools.d.ts" /> or include this file in tsconfig.json; programs call await tools.name(args).`

// Declarations returns the TypeScript declarations for tools, without a fence or a trailing
// newline, separated by blank lines:
//
//   - JsonValue, when a type uses it;
//   - the type aliases of referenced schemas, tool by tool;
//   - the object types the tools repeat, each named once (shapes);
//   - ToolCallError;
//   - tools: one member per tool, its description as JSDoc on the member itself (so an editor
//     shows it on hover, completion and signature help), then name(args: <arguments>):
//     Promise<<result>> (args?: when the arguments require nothing, so tools.name() checks).
//
// Tools are sorted by name in UTF-16 code unit order (as JavaScript sorts strings); the result
// does not depend on the order of tools.
//
// A schema reached by a $ref (into $defs, definitions, any other place of the same schema, or
// "#" for the whole schema) is declared once per tool as type <Tool>_<Name>, where <Tool> is the
// tool's name and <Name> the definition's name, both in PascalCase with other characters
// dropped ("my-tool" with "$defs": {"tree_node": …} gives MyTool_TreeNode); "Args" and "Output"
// name a whole schema that refers to itself, and a number is appended where names would clash.
// The aliases come first, tool by tool, each in order of first reference, so recursive schemas
// are typed in full.
//
// An object type (with properties, and no reference inside) that the tools write more than once
// with the same text, descriptions included, is declared once when that is shorter: type
// <Name> = {…}, where Name is the title of the schema, else the property that holds it in
// PascalCase (in the singular for the elements of an array: "entities" gives Entity), else
// for a result the name of its one scalar property, else "<Tool>Result", numbered where names would clash. The
// arguments object of a tool is always written in place.
func Declarations(tools []Tool) string {
	sorted := sortedTools(tools)
	return declarations(sorted, prefixes(sorted), true, false)
}

// sortedTools returns a sorted copy of tools.
func sortedTools(tools []Tool) []Tool {
	sorted := slices.Clone(tools)
	slices.SortFunc(sorted, compareTools)
	return sorted
}

// renderedTool is one tool's types: its args and output type texts (at indentation level 1)
// and the aliases they need.
type renderedTool struct {
	args, output []byte
	aliases      []*alias
}

// renderTool renders tool t, whose aliases are named <prefix>_…, appending the text to *scratch.
func renderTool(scratch *[]byte, t Tool, prefix string, shapes *shapeTable, editor bool) renderedTool {
	sc := newScope(prefix, t.Parameters, t.Output)
	sc.shapes, sc.editor = shapes, editor
	var r renderedTool
	if t.Parameters.IsDefined() {
		r.args = sc.render(scratch, docArgs, t.level(), "")
	} else {
		r.args = []byte("Record<string, JsonValue>") // no schema: an open object
	}
	hint := prefix + "Result"
	if ps := t.Output.Lookup("properties"); ps.Kind() == jsonv.Object && ps.Len() == 1 {
		// A result of one scalar property is named after it: { content: string } is Content.
		p := ps.Members()[0]
		if ty := p.Value.Lookup("type").AsString(); ty != "array" && ty != "object" && pascal(p.Key) != "" {
			hint = pascal(p.Key)
		}
	}
	r.output = sc.render(scratch, docOutput, t.level(), hint) // no schema (Undefined): any JSON value
	r.aliases = sc.order
	return r
}

// declarations assembles the declarations of sorted tools, whose aliases take the prefixes pre;
// full adds JsonValue (when used) and ToolCallError. editor selects the layout of a declaration
// file (see DTS); the shapes named do not depend on it.
func declarations(sorted []Tool, pre []string, full, editor bool) string {
	shapes := newShapeTable()
	var scratch []byte
	rendered := make([]renderedTool, len(sorted))
	occ := make([]int, len(sorted)+1) // tool i's occurrences are shapes.occ[occ[i]:occ[i+1]]
	for i, t := range sorted {
		rendered[i] = renderTool(&scratch, t, pre[i], shapes, false)
		occ[i+1] = len(shapes.occ)
	}
	shapes.choose(reservedName)
	// The first rendering stands for a tool that uses no named shape, unless the layout differs.
	scratch = make([]byte, 0, len(scratch))
	for i, t := range sorted {
		if editor || shapes.usesNamed(occ[i], occ[i+1]) {
			rendered[i] = renderTool(&scratch, t, pre[i], shapes, editor)
		}
	}
	for _, sh := range shapes.order {
		g := gen{sc: &scope{shapes: shapes, editor: editor}, declaring: sh}
		g.render(sh.node, 0, 0)
		sh.text = g.buf
	}

	size := len(jsonValueDecl) + len(toolCallErrorDecl) + 64
	for i, r := range rendered {
		size += len(r.args) + len(r.output) + len(sorted[i].Name) + len(sorted[i].Description) + 32
		for _, a := range r.aliases {
			size += len(a.name) + len(a.text) + 16
		}
	}
	for _, sh := range shapes.order {
		size += len(sh.name) + len(sh.text) + 16
	}
	g := gen{buf: make([]byte, 0, size)}
	g.str(jsonValueDecl)
	body := len(g.buf)
	for _, r := range rendered {
		for _, a := range r.aliases {
			doc := len(g.buf)
			g.docComment(a.schema)
			if len(g.buf) > doc {
				g.buf[len(g.buf)-1] = '\n' // the JSDoc has a line of its own above the alias
			}
			g.typeDecl(a.name, a.text)
		}
	}
	for _, sh := range shapes.order {
		g.typeDecl(sh.name, sh.text)
	}
	if nameNoArgs(rendered) {
		g.typeDecl(noArgsName, []byte(noArgsType))
	}
	if full {
		g.str(toolCallErrorDecl)
	}
	if len(sorted) == 0 {
		g.str("declare const tools: {}")
	} else {
		g.str("declare const tools: {\n")
		var declared map[string]bool // the namespaces declared so far
		for i, t := range sorted {
			if t.Namespace == "" {
				g.toolMember(t, rendered[i])
				continue
			}
			if declared[t.Namespace] {
				continue
			}
			if declared == nil {
				declared = map[string]bool{}
			}
			declared[t.Namespace] = true
			g.pad(1)
			g.key(t.Namespace)
			g.str(": {\n")
			for j := i; j < len(sorted); j++ {
				if sorted[j].Namespace == t.Namespace {
					g.toolMember(sorted[j], rendered[j])
				}
			}
			g.pad(1)
			g.str("};\n")
		}
		g.str("}")
	}
	if !full || !bytes.Contains(g.buf[body:], []byte("JsonValue")) {
		return string(g.buf[body:])
	}
	return string(g.buf)
}

// noArgsName names the arguments of tools that take none (noArgsType) when enough tools share
// them that the alias costs fewer bytes than spelling the type out at each.
const (
	noArgsName    = "NoArgs"
	noArgsType    = "Record<string, never>"
	minNoArgsUses = 3 // 3 × (21 − 6) bytes saved > the 37 of the alias
)

// nameNoArgs reports whether at least minNoArgsUses tools take no arguments, and if so makes
// their rendered arguments the NoArgs alias. A name NoArgs already used by the rendered text
// (a schema's own title, say) keeps every tool's type spelled out.
func nameNoArgs(rendered []renderedTool) bool {
	uses := 0
	for _, r := range rendered {
		if bytes.Contains(r.args, []byte(noArgsName)) || bytes.Contains(r.output, []byte(noArgsName)) {
			return false
		}
		for _, a := range r.aliases {
			if a.name == noArgsName || bytes.Contains(a.text, []byte(noArgsName)) {
				return false
			}
		}
		if string(r.args) == noArgsType {
			uses++
		}
	}
	if uses < minNoArgsUses {
		return false
	}
	for i := range rendered {
		if string(rendered[i].args) == noArgsType {
			rendered[i].args = []byte(noArgsName)
		}
	}
	return true
}

// typeDecl writes "type <name> = <text>" and a blank line.
func (g *gen) typeDecl(name string, text []byte) {
	g.str("type ")
	g.str(name)
	g.str(" = ")
	g.buf = append(g.buf, text...)
	g.str("\n\n")
}

// toolMember writes tool t's member of the tools object (or of its namespace's object): its
// JSDoc, then name(args: <arguments>): Promise<<result>>; (args?: for a tool whose arguments
// require nothing, see Tool.argsOptional).
func (g *gen) toolMember(t Tool, r renderedTool) {
	g.jsdoc(t.level(), t.Description)
	g.pad(t.level())
	g.key(t.member())
	if t.argsOptional() {
		g.str("(args?: ")
	} else {
		g.str("(args: ")
	}
	g.buf = append(g.buf, r.args...)
	g.str("): Promise<")
	g.buf = append(g.buf, r.output...)
	g.str(">;\n")
}

// jsonValueDecl opens the declarations when a type uses JsonValue.
const jsonValueDecl = "type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }\n\n"

// toolCallErrorDecl declares the error a failed call rejects with.
const toolCallErrorDecl = "declare class ToolCallError extends Error { toolName: string; code?: string }\n\n"

// Section returns the SDK prompt section: the instructions (one paragraph), a blank line, then
// the Declarations inside a ```ts fence. There is no newline after the closing fence.
func Section(tools []Tool) string {
	return instructions + "\n\n```ts\n" + Declarations(tools) + "\n```"
}

// DTS returns a standalone TypeScript declaration file for tools: a one-line header comment
// saying how to use it, a blank line, the declarations, a blank line, a declaration of the
// program's console, and a final newline.
//
// The declarations are those of Declarations, type for type and comment for comment, laid out
// for editors: an editor attaches a JSDoc comment only to a member whose line it starts, so
// every object type with a documented property has a property per line, where Declarations
// keeps short ones on one line for the model.
func DTS(tools []Tool) string {
	sorted := sortedTools(tools)
	return dtsHeader + "\n\n" + declarations(sorted, prefixes(sorted), true, true) + "\n\n" + consoleDeclaration + "\n"
}

// consoleDeclaration types the console methods a program has, so that an editor needs no DOM or
// Node typings. It merges with those typings' Console when they are present.
const consoleDeclaration = `interface Console {
  log(...data: any[]): void;
  info(...data: any[]): void;
  warn(...data: any[]): void;
  error(...data: any[]): void;
  debug(...data: any[]): void;
  table(tabularData?: any, properties?: string[]): void;
  dir(item?: any, options?: any): void;
}
declare var console: Console;`

// compareTools orders tools by name as JavaScript compares strings (UTF-16 code units). Ties
// (names equal in UTF-16, which only invalid UTF-8 or duplicates produce) fall back to the bytes
// and then the rest of the tool, so the order never depends on the input order.
func compareTools(a, b Tool) int {
	if c := compareUTF16(a.Name, b.Name); c != 0 {
		return c
	}
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
		return c
	}
	if c := strings.Compare(a.Description, b.Description); c != 0 {
		return c
	}
	if c := strings.Compare(a.Parameters.String(), b.Parameters.String()); c != 0 {
		return c
	}
	return strings.Compare(a.Output.String(), b.Output.String())
}

// compareUTF16 compares two strings by their UTF-16 code units. It differs from byte (code
// point) order only between a supplementary character (a surrogate pair, 0xD800-0xDBFF first)
// and a character in U+E000-U+FFFF. Invalid UTF-8 bytes compare as U+FFFD.
func compareUTF16(a, b string) int {
	// Fast path: the strings first differ at an ASCII byte (or one ends where the other goes on
	// with ASCII), so every rune before is complete and the same in both.
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	switch {
	case i == len(a) && i == len(b):
		return 0
	case i == len(a):
		if b[i] < utf8.RuneSelf {
			return -1
		}
	case i == len(b):
		if a[i] < utf8.RuneSelf {
			return 1
		}
	case a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf:
		return cmp.Compare(a[i], b[i])
	}
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			if ua, ub := firstUnit(ra), firstUnit(rb); ua != ub {
				return cmp.Compare(ua, ub)
			}
			return cmp.Compare(ra, rb) // same high surrogate: the low ones order as the runes
		}
		a, b = a[na:], b[nb:]
	}
	return cmp.Compare(len(a), len(b))
}

// firstUnit returns the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r >= 0x10000 {
		return 0xd800 + (r-0x10000)>>10
	}
	return r
}
