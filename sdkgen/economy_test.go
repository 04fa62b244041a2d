package sdkgen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

// The prompt-economy targets (shared/BENCHMARKS.md): over each reference MCP tool set, the SDK
// without description text is at most 60 % of the native schemas without description text, and
// the whole prompt section (instructions included) at most 85 % of the native schemas.
const (
	maxBareRatio    = 0.60
	maxSectionRatio = 0.85
)

// nativeBytes is what the native tool definitions cost a model: the sum, over the tools, of
// each tool's definition as compact JSON, {"name":…,"description":…,"input_schema":…}, with the
// input schema exactly as the server sent it (the form of the baseline; a tool without
// a description has no "description" member).
func nativeBytes(tools []Tool) int {
	n := 0
	for _, t := range tools {
		ms := []jsonv.Member{{Key: "name", Value: jsonv.StringValue(t.Name)}}
		if t.Description != "" {
			ms = append(ms, jsonv.Member{Key: "description", Value: jsonv.StringValue(t.Description)})
		}
		ms = append(ms, jsonv.Member{Key: "input_schema", Value: t.Parameters})
		n += jsonv.ObjectValue(ms...).ByteLen()
	}
	return n
}

// withoutDescriptions returns tools with every description string removed: the tools'
// descriptions become empty, and every "description" keyword whose value is a string is
// deleted from every schema node of the arguments and result schemas (a property that is
// named "description" stays). Measuring both sides on these tools sets aside exactly the
// description text, which both carry verbatim, and the bytes that carry it (the JSON member
// "description":"…" on the native side, the JSDoc comment on the SDK side).
func withoutDescriptions(tools []Tool) []Tool {
	out := make([]Tool, len(tools))
	for i, t := range tools {
		out[i] = Tool{Name: t.Name, Parameters: stripDescriptions(t.Parameters), Output: stripDescriptions(t.Output)}
	}
	return out
}

// stripDescriptions removes the string "description" keywords of schema s and of every schema
// it contains. It knows where JSON Schema keeps subschemas, so property names and values of
// const, enum, default and examples are left alone.
func stripDescriptions(s jsonv.Value) jsonv.Value {
	if s.Kind() != jsonv.Object {
		return s
	}
	var ms []jsonv.Member
	for _, m := range s.Members() {
		v := m.Value
		switch m.Key {
		case "description":
			if v.Kind() == jsonv.String {
				continue
			}
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			if v.Kind() == jsonv.Object {
				var sub []jsonv.Member
				for _, p := range v.Members() {
					sub = append(sub, jsonv.Member{Key: p.Key, Value: stripDescriptions(p.Value)})
				}
				v = jsonv.ObjectValue(sub...)
			}
		case "items", "prefixItems", "anyOf", "oneOf", "allOf":
			if v.Kind() == jsonv.Array {
				items := make([]jsonv.Value, v.Len())
				for j := range items {
					items[j] = stripDescriptions(v.Index(j))
				}
				v = jsonv.ArrayValue(items...)
			} else {
				v = stripDescriptions(v)
			}
		case "additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames":
			v = stripDescriptions(v)
		}
		ms = append(ms, jsonv.Member{Key: m.Key, Value: v})
	}
	return jsonv.ObjectValue(ms...)
}

// economy is the byte table of one tool set.
type economy struct {
	native, nativeBare, sdk, sdkBare, section int
}

func measureEconomy(tools []Tool) economy {
	bare := withoutDescriptions(tools)
	return economy{
		native:     nativeBytes(tools),
		nativeBare: nativeBytes(bare),
		sdk:        len(Declarations(tools)),
		sdkBare:    len(Declarations(bare)),
		section:    len(Section(tools)),
	}
}

// TestPromptEconomy enforces the prompt-economy targets on the three reference MCP tool sets and
// logs the byte table (go test ./sdkgen -run TestPromptEconomy -v).
func TestPromptEconomy(t *testing.T) {
	t.Logf("%-18s %8s %8s %8s %8s %8s %6s %6s", "tool set", "native", "n-bare", "sdk", "sdk-bare", "section", "bare%", "sect%")
	for _, name := range mcpFixtures {
		tools := loadMCPFixture(t, name)
		e := measureEconomy(tools)
		bareRatio := float64(e.sdkBare) / float64(e.nativeBare)
		sectionRatio := float64(e.section) / float64(e.native)
		t.Logf("%-18s %8d %8d %8d %8d %8d %5.1f%% %5.1f%%", name, e.native, e.nativeBare, e.sdk, e.sdkBare, e.section, 100*bareRatio, 100*sectionRatio)
		if bareRatio > maxBareRatio {
			t.Errorf("%s: SDK without descriptions is %d bytes, %.1f %% of the native %d (target ≤ %.0f %%)", name, e.sdkBare, 100*bareRatio, e.nativeBare, 100*maxBareRatio)
		}
		if sectionRatio > maxSectionRatio {
			t.Errorf("%s: prompt section is %d bytes, %.1f %% of the native %d (target ≤ %.0f %%)", name, e.section, 100*sectionRatio, e.native, 100*maxSectionRatio)
		}
		// Nothing is lost: every description is in the section, verbatim.
		section := Section(tools)
		for _, tl := range tools {
			for _, d := range descriptions(tl) {
				if !strings.Contains(section, docForm(d)) {
					t.Errorf("%s: description %q is not in the section", name, d)
				}
			}
		}
	}
}

// descriptions returns every description string of tool t: its own and its schemas'.
func descriptions(t Tool) []string {
	out := []string{t.Description}
	var walk func(v jsonv.Value)
	walk = func(v jsonv.Value) {
		switch v.Kind() {
		case jsonv.Object:
			for _, m := range v.Members() {
				if m.Key == "description" && m.Value.Kind() == jsonv.String {
					out = append(out, m.Value.AsString())
				}
				walk(m.Value)
			}
		case jsonv.Array:
			for _, it := range v.Items() {
				walk(it)
			}
		}
	}
	walk(t.Parameters)
	walk(t.Output)
	return out
}

// docForm returns description d as a JSDoc comment holds it.
func docForm(d string) string {
	var g gen
	g.docText(d, proseBreak)
	return string(g.buf)
}

func ExampleSection_economy() {
	_ = fmt.Sprint
}

// TestNoArgsAliasOnlyWhenItPays: three or more tools that take no arguments share the NoArgs
// alias; fewer keep Record<string, never> spelled out; a schema that already names NoArgs keeps
// every tool's type spelled out.
func TestNoArgsAliasOnlyWhenItPays(t *testing.T) {
	none := jsonv.MustParse(`{"type":"object","properties":{},"additionalProperties":false}`)
	tool := func(name string) Tool { return Tool{Name: name, Parameters: none} }
	for _, c := range []struct {
		tools []Tool
		alias bool
	}{
		{[]Tool{tool("a"), tool("b")}, false},
		{[]Tool{tool("a"), tool("b"), tool("c")}, true},
		{[]Tool{tool("a"), tool("b"), tool("c"), {Name: "d", Parameters: jsonv.MustParse(`{"type":"object","properties":{"x":{"$ref":"#/$defs/NoArgs"}},"$defs":{"NoArgs":{"type":"string"}}}`)}}, false},
	} {
		d := Declarations(c.tools)
		if got := strings.Contains(d, "type NoArgs = Record<string, never>") && strings.Contains(d, "a(args?: NoArgs)"); got != c.alias {
			t.Errorf("%d tools: alias %v, want %v:\n%s", len(c.tools), got, c.alias, d)
		}
		if !c.alias && strings.Contains(d, "(args?: NoArgs)") {
			t.Errorf("NoArgs used without its alias:\n%s", d)
		}
	}
}
