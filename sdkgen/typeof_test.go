package sdkgen

import (
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

func TestTypeOf(t *testing.T) {
	tests := []struct {
		name   string
		schema string // JSON text; "" means Undefined
		indent int
		want   string
	}{
		// Annotation-only and non-object schemas.
		{"undefined", "", 0, "JsonValue"},
		{"empty", `{}`, 0, "JsonValue"},
		{"annotations only", `{"description":"d","title":"t","default":1,"examples":[2]}`, 0, "JsonValue"},
		{"true", `true`, 0, "JsonValue"},
		{"false", `false`, 0, "never"},
		{"null schema", `null`, 0, "JsonValue"},
		{"number schema", `3`, 0, "JsonValue"},

		// Scalars.
		{"string", `{"type":"string"}`, 0, "string"},
		{"number", `{"type":"number"}`, 0, "number"},
		{"integer", `{"type":"integer"}`, 0, "number"},
		{"boolean", `{"type":"boolean"}`, 0, "boolean"},
		{"null", `{"type":"null"}`, 0, "null"},
		{"unknown type name", `{"type":"date"}`, 0, "unknown"},

		// const and enum.
		{"const string", `{"type":"string","const":"a"}`, 0, `"a"`},
		{"const number", `{"type":"number","const":2}`, 0, "2"},
		{"const boolean", `{"type":"boolean","const":true}`, 0, "true"},
		{"const null", `{"type":"null","const":null}`, 0, "null"},
		{"const wins over enum", `{"type":"string","const":"b","enum":["a","b"]}`, 0, `"b"`},
		{"const number formatting", `{"type":"number","const":1e21}`, 0, "1e+21"},
		{"const small number", `{"type":"number","const":-0.0000001}`, 0, "-1e-7"},
		{"const escapes", `{"type":"string","const":"a\"b\\c\n\u0001<&>"}`, 0, `"a\"b\\c\n\u0001<&>"`},
		{"const object", `{"const":{"a":[1,null],"b-c":"x"}}`, 0, `{"a":[1,null],"b-c":"x"}`},
		{"enum strings", `{"type":"string","enum":["a","b"]}`, 0, `"a" | "b"`},
		{"enum single", `{"type":"string","enum":["only"]}`, 0, `"only"`},
		{"enum numbers", `{"type":"integer","enum":[1,2.5,-3]}`, 0, "1 | 2.5 | -3"},
		{"enum mixed scalars", `{"enum":[1,"x",true,null]}`, 0, `1 | "x" | true | null`},
		{"enum with type array", `{"type":["string","null"],"enum":["a",null]}`, 0, `"a" | null`},
		{"enum empty", `{"enum":[]}`, 0, "never"},
		{"enum not an array ignored", `{"type":"string","enum":"a"}`, 0, "string"},

		// Arrays.
		{"array without items", `{"type":"array"}`, 0, "JsonValue[]"},
		{"array of strings", `{"type":"array","items":{"type":"string"}}`, 0, "string[]"},
		{"array of arrays", `{"type":"array","items":{"type":"array","items":{"type":"number"}}}`, 0, "number[][]"},
		{"array of union", `{"type":"array","items":{"oneOf":[{"type":"string"},{"type":"number"}]}}`, 0, "(string | number)[]"},
		{"array of enum", `{"type":"array","items":{"enum":["a","b"]}}`, 0, `("a" | "b")[]`},
		{"array of open object", `{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}}`, 0,
			"{ a?: string }[]"},
		{"array of closed object", `{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}}`, 0,
			"{ a: string }[]"},
		{"array item parens from nested member", `{"type":"array","items":{"type":"object","properties":{"a":{"type":["string","null"]}},"additionalProperties":false}}`, 0,
			"({ a?: string | null })[]"},
		{"array item parens from JSDoc text", `{"type":"array","items":{"type":"object","properties":{"a":{"type":"string","description":"this | that"}},"additionalProperties":false}}`, 0,
			"({ /** this | that */ a?: string })[]"},
		{"array items true", `{"type":"array","items":true}`, 0, "JsonValue[]"},
		{"array items false", `{"type":"array","items":false}`, 0, "never[]"},
		{"tuple items (draft-07)", `{"type":"array","items":[{"type":"string"},{"type":"number"}]}`, 0, "[string?, number?, ...JsonValue[]]"},
		{"prefixItems", `{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"number"}}`, 0, "[string?, ...number[]]"},
		{"items infer array", `{"items":{"type":"string"}}`, 0, "string[]"},

		// Objects.
		{"object without properties", `{"type":"object"}`, 0, "Record<string, JsonValue>"},
		{"object empty properties", `{"type":"object","properties":{}}`, 0, "Record<string, never>"},
		{"object additionalProperties true", `{"type":"object","additionalProperties":true}`, 0, "Record<string, JsonValue>"},
		{"object additionalProperties false", `{"type":"object","properties":{},"additionalProperties":false}`, 0, "Record<string, never>"},
		{"object additionalProperties schema", `{"type":"object","additionalProperties":{"type":"integer"}}`, 0, "{ [key: string]: number }"},
		{"object additionalProperties union", `{"type":"object","additionalProperties":{"type":["string","null"]}}`, 0, "{ [key: string]: string | null }"},
		{"object additionalProperties {}", `{"type":"object","additionalProperties":{}}`, 0, "Record<string, JsonValue>"},
		{"object additionalProperties false schema", `{"type":"object","additionalProperties":false}`, 0, "Record<string, never>"},
		{"object open with properties", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"}},"required":["a"]}`, 0,
			"{ a: string; b?: number }"},
		{"object additionalProperties true with properties", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`, 0,
			"{ a?: string } & Record<string, JsonValue>"},
		{"object closed", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`, 0,
			"{ a: string }"},
		{"object additionalProperties schema with properties", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"number"}}`, 0,
			"{ a?: string; [key: string]: JsonValue | undefined }"},
		{"object patternProperties opens", `{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x-":{}},"additionalProperties":false}`, 0,
			"{ a?: string } & Record<string, JsonValue>"},
		{"object indent 2", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, 2,
			"{ a?: string }"},
		{"negative indent is 0", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, -3,
			"{ a?: string }"},
		{"nested objects indent", `{"type":"object","properties":{"o":{"type":"object","properties":{"p":{"type":"boolean"}},"required":["p"],"additionalProperties":false}},"additionalProperties":false}`, 1,
			"{ o?: { p: boolean } }"},
		{"array of objects keeps indent", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"p":{"type":"null"}},"additionalProperties":false}}},"additionalProperties":false}`, 0,
			"{ l?: { p?: null }[] }"},
		{"required ignores non-strings and unknown names", `{"type":"object","properties":{"a":{}},"required":[1,"zz","a"],"additionalProperties":false}`, 0,
			"{ a: JsonValue }"},
		{"property false", `{"type":"object","properties":{"a":false},"additionalProperties":false}`, 0, "{ a?: never }"},
		{"properties infer object", `{"properties":{"a":{"type":"string"}},"required":["a"]}`, 0,
			"{ a: string }"},
		{"additionalProperties infers object", `{"additionalProperties":{"type":"boolean"}}`, 0, "{ [key: string]: boolean }"},

		// Property keys.
		{"key quoting", `{"type":"object","properties":{"plain":{},"_u":{},"$d":{},"a1":{},"delete":{},"a-b":{},"1x":{},"":{},"héllo":{},"q\"k":{},"sp ace":{}},"additionalProperties":false}`, 0,
			"{ plain?: JsonValue; _u?: JsonValue; $d?: JsonValue; a1?: JsonValue; delete?: JsonValue; \"a-b\"?: JsonValue; \"1x\"?: JsonValue; \"\"?: JsonValue; \"héllo\"?: JsonValue; \"q\\\"k\"?: JsonValue; \"sp ace\"?: JsonValue }"},

		// JSDoc.
		{"jsdoc collapse and escape", `{"type":"object","properties":{"a":{"type":"string","description":"  first\n\tline */ end  "}},"additionalProperties":false}`, 0,
			"{ /** first line *\u200b/ end */ a?: string }"},
		{"jsdoc unicode whitespace", `{"type":"object","properties":{"a":{"description":"x\u00a0\u3000y\u2028z\ufeff"}},"additionalProperties":false}`, 0,
			"{ /** x y z */ a?: JsonValue }"},
		{"jsdoc whitespace only", `{"type":"object","properties":{"a":{"description":" \n "}},"additionalProperties":false}`, 0,
			"{ a?: JsonValue }"},
		{"jsdoc empty", `{"type":"object","properties":{"a":{"description":""}},"additionalProperties":false}`, 0,
			"{ a?: JsonValue }"},
		{"jsdoc not a string", `{"type":"object","properties":{"a":{"description":7}},"additionalProperties":false}`, 0,
			"{ a?: JsonValue }"},
		{"jsdoc repeated close", `{"type":"object","properties":{"a":{"description":"*/*/ **/"}},"additionalProperties":false}`, 0,
			"{ /** *\u200b/*\u200b/ **\u200b/ */ a?: JsonValue }"},
		{"root description ignored", `{"type":"string","description":"root"}`, 0, "string"},

		// oneOf / anyOf / allOf.
		{"oneOf", `{"oneOf":[{"type":"string"},{"type":"null"}]}`, 0, "string | null"},
		// Objects too wide for one line: a property per line, at the caller's indentation.
		{"multi-line object indent 2", `{"type":"object","properties":{"a":{"type":"string","description":"A description long enough that the object no longer fits on one line with the member that it documents."},"b":{"type":"number"}},"required":["b"],"additionalProperties":false}`, 2,
			"{\n      /** A description long enough that the object no longer fits on one line with the member that it documents. */ a?: string;\n      b: number;\n    }"},
		{"nested multi-line objects", `{"type":"object","properties":{"o":{"type":"object","properties":{"p":{"type":"boolean","description":"A description long enough that the object no longer fits on one line with the member that it documents."}},"required":["p"],"additionalProperties":false},"q":{"type":"object","properties":{"r":{"type":"null"}}}},"additionalProperties":false}`, 1,
			"{\n    o?: {\n      /** A description long enough that the object no longer fits on one line with the member that it documents. */ p: boolean;\n    };\n    q?: { r?: null };\n  }"},
		{"more than 16 nodes breaks the line", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"d":{"type":"string"},"e":{"type":"string"},"f":{"type":"string"},"g":{"type":"string"},"h":{"type":"string"},"i":{"type":"string"},"j":{"type":"string"},"k":{"type":"string"},"l":{"type":"string"},"m":{"type":"string"},"n":{"type":"string"},"o":{"type":"string"},"p":{"type":"string"},"q":{"type":"string"}}}`, 0,
			"{\n  a?: string;\n  b?: string;\n  c?: string;\n  d?: string;\n  e?: string;\n  f?: string;\n  g?: string;\n  h?: string;\n  i?: string;\n  j?: string;\n  k?: string;\n  l?: string;\n  m?: string;\n  n?: string;\n  o?: string;\n  p?: string;\n  q?: string;\n}"},
		{"oneOf of objects same indent", `{"oneOf":[{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false},{"type":"number"}]}`, 1,
			"{ a?: string } | number"},
		{"oneOf nested union flat", `{"oneOf":[{"oneOf":[{"type":"string"},{"type":"number"}]},{"type":"null"}]}`, 0, "string | number | null"},
		{"oneOf of empties", `{"oneOf":[{},{}]}`, 0, "JsonValue | JsonValue"},
		{"anyOf", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, 0, "string | number"},
		{"allOf", `{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false},{"type":"object","properties":{"b":{"type":"number"}},"additionalProperties":false}]}`, 0,
			"{ a?: string } & { b?: number }"},
		{"allOf with union parenthesized", `{"allOf":[{"type":"object","additionalProperties":{"type":"string"}},{"anyOf":[{"type":"object","properties":{"x":{"const":1}},"additionalProperties":false},{"type":"object","properties":{"y":{"const":2}},"additionalProperties":false}]}]}`, 0,
			"{ [key: string]: string } & ({ x?: 1 } | { y?: 2 })"},
		{"allOf drops any-JSON branches", `{"allOf":[{},{"type":"string"},true,{"description":"x"}]}`, 0, "string"},
		{"allOf single", `{"allOf":[{"type":"boolean"}]}`, 0, "boolean"},
		{"type beside oneOf of required-only branches", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"additionalProperties":false,"oneOf":[{"required":["a"]},{"required":["b"]}]}`, 0,
			"{ a?: string; b?: string }"},
		{"type beside anyOf", `{"type":"string","anyOf":[{"const":"a"},{"const":"b"}]}`, 0, `string & ("a" | "b")`},
		{"empty oneOf", `{"oneOf":[]}`, 0, "never"},

		// Type arrays and nullable.
		{"type array", `{"type":["string","null"]}`, 0, "string | null"},
		{"type array dedupes", `{"type":["integer","number"]}`, 0, "number"},
		{"type array object or null", `{"type":["object","null"],"properties":{"a":{"type":"string"}}}`, 0,
			"{ a?: string } | null"},
		{"type array ignores non-strings", `{"type":[1,"boolean"]}`, 0, "boolean"},
		{"type array empty", `{"type":[]}`, 0, "JsonValue"},
		{"nullable", `{"type":"string","nullable":true}`, 0, "string | null"},
		{"nullable false", `{"type":"string","nullable":false}`, 0, "string"},
		{"nullable already null", `{"type":["string","null"],"nullable":true}`, 0, "string | null"},
		{"nullable enum with null", `{"enum":["a",null],"nullable":true}`, 0, `"a" | null`},
		{"nullable union", `{"anyOf":[{"type":"string"},{"type":"number"}],"nullable":true}`, 0, "string | number | null"},
		{"nullable array", `{"type":"array","items":{"type":"string"},"nullable":true}`, 0, "string[] | null"},
		{"nullable JsonValue", `{"nullable":true}`, 0, "JsonValue"},

		// Ignored validation keywords.
		{"ignored string keywords", `{"type":"string","minLength":1,"maxLength":9,"pattern":"^a","format":"uri","default":"a","title":"T","$schema":"https://json-schema.org/draft/2020-12/schema","$id":"x","$comment":"c","examples":["a"],"contentMediaType":"text/plain"}`, 0, "string"},
		{"ignored number keywords", `{"type":"integer","minimum":0,"maximum":9,"exclusiveMinimum":0,"multipleOf":3,"deprecated":true,"readOnly":true}`, 0, "number"},
		{"ignored object keywords", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false,"minProperties":1,"propertyNames":{"pattern":"^a"},"unevaluatedProperties":false,"dependentRequired":{"a":["b"]},"dependencies":{"a":["b"]},"$defs":{"x":{"$ref":"#"}}}`, 0,
			"{ a: string }"},
		{"ignored array keywords", `{"type":"array","items":{"type":"number"},"minItems":1,"uniqueItems":true,"contains":{"const":1}}`, 0, "number[]"},
		{"if alone ignored", `{"type":"string","if":{"const":"a"}}`, 0, "string"},

		// Inexpressible keywords: unknown for the node only.
		{"$ref", `{"$ref":"#/$defs/x"}`, 0, "unknown"},
		{"$ref with siblings", `{"$ref":"#/$defs/x","type":"string"}`, 0, "string"},
		{"not", `{"type":"string","not":{"const":""}}`, 0, "unknown"},
		{"if then", `{"if":{"type":"string"},"then":{"minLength":1}}`, 0, "unknown"},
		{"if else", `{"if":{"type":"string"},"else":{"type":"number"}}`, 0, "unknown"},
		{"dependentSchemas", `{"type":"object","dependentSchemas":{"a":{}}}`, 0, "unknown"},
		{"schema dependencies", `{"type":"object","dependencies":{"a":{"required":["b"]}}}`, 0, "unknown"},
		{"$dynamicRef", `{"$dynamicRef":"#node"}`, 0, "unknown"},
		{"unknown property only", `{"type":"object","properties":{"a":{"$ref":"#"},"b":{"type":"string"}},"additionalProperties":false}`, 0,
			"{\n  a?: unknown;\n  b?: string;\n}"},
		{"unknown item only", `{"type":"array","items":{"not":{}}}`, 0, "unknown[]"},
		{"unknown branch only", `{"oneOf":[{"$ref":"#"},{"type":"null"}]}`, 0, "unknown | null"},
		{"unknown allOf branch dropped", `{"allOf":[{"$ref":"#"},{"type":"number"}]}`, 0, "number"},
		{"unknown not nullable", `{"$ref":"#","nullable":true}`, 0, "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var schema jsonv.Value
			if tt.schema != "" {
				schema = jsonv.MustParse(tt.schema)
			}
			if got := TypeOf(schema, tt.indent); got != tt.want {
				t.Errorf("TypeOf(%s, %d)\n got: %q\nwant: %q", tt.schema, tt.indent, got, tt.want)
			}
		})
	}
}

// TestTypeOfDeepOneOf: 5,000 nested oneOf levels render in full (the upstream check).
func TestTypeOfDeepOneOf(t *testing.T) {
	const depth = 5000
	var b strings.Builder
	for range depth {
		b.WriteString(`{"oneOf":[`)
	}
	b.WriteString(`{"type":"string"}`)
	for range depth {
		b.WriteString(`,{"type":"null"}]}`)
	}
	got := TypeOf(jsonv.MustParse(b.String()), 0)
	if !strings.HasPrefix(got, "string | null") || len(got) != 6+depth*7 {
		t.Fatalf("got prefix %q, length %d; want prefix %q, length %d", got[:min(len(got), 20)], len(got), "string | null", 6+depth*7)
	}
}

// TestTypeOfDeepNesting: deep nesting of every kind renders in full without crashing. (Object
// nesting is kept shallower: its indentation makes the text quadratic in depth.)
func TestTypeOfDeepNesting(t *testing.T) {
	for _, tc := range []struct {
		open, close string
		depth       int
		marker      string // occurs once per level
	}{
		{`{"type":"array","items":`, `}`, 5000, "[]"},
		{`{"anyOf":[{"type":"null"},`, `]}`, 5000, "null | "},
		{`{"allOf":[{"description":"x"},`, `]}`, 5000, "string"},
		{`{"type":"object","additionalProperties":false,"properties":{"a":`, `}}`, 2000, "a?: "},
	} {
		s := strings.Repeat(tc.open, tc.depth) + `{"type":"string"}` + strings.Repeat(tc.close, tc.depth)
		got := TypeOf(jsonv.MustParse(s), 0)
		want := tc.depth
		if tc.marker == "string" {
			want = 1
		}
		if n := strings.Count(got, tc.marker); n != want || !strings.Contains(got, "string") {
			t.Errorf("%s…: %d × %q in the text, want %d", tc.open, n, tc.marker, want)
		}
	}
}

// TestTypeOfMaxDepth: nodes nested deeper than maxDepth render unknown; the rest is kept.
func TestTypeOfMaxDepth(t *testing.T) {
	// Built in Go: parsed JSON text stops at jsonv.MaxDepth, below this limit, but a Go embedder
	// may build a schema as deep as it likes.
	nest := func(n int) jsonv.Value {
		v := jsonv.ObjectValue(jsonv.Member{Key: "type", Value: jsonv.StringValue("string")})
		for range n {
			v = jsonv.ObjectValue(jsonv.Member{Key: "type", Value: jsonv.StringValue("array")}, jsonv.Member{Key: "items", Value: v})
		}
		return v
	}
	// maxDepth nodes in all: rendered in full.
	if got, want := TypeOf(nest(maxDepth-1), 0), "string"+strings.Repeat("[]", maxDepth-1); got != want {
		t.Errorf("at the limit: got %.40q… (length %d), want %.40q… (length %d)", got, len(got), want, len(want))
	}
	// One more: the innermost node is unknown.
	if got, want := TypeOf(nest(maxDepth), 0), "unknown"+strings.Repeat("[]", maxDepth); got != want {
		t.Errorf("past the limit: got %.40q… (length %d), want %.40q… (length %d)", got, len(got), want, len(want))
	}
}

func TestCompareUTF16(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"a", "b", -1},
		{"b", "a", 1},
		{"a", "a", 0},
		{"a", "ab", -1},
		{"B", "a", -1},
		{"_", "a", -1},
		{"Z", "_", -1},
		// U+FF5E is above the surrogates, U+1F600 is a pair starting 0xD83D: UTF-16 puts the
		// emoji first although its code point is larger.
		{"\U0001F600", "\uFF5E", -1},
		{"\uFF5E", "\U0001F600", 1},
		{"\uD7FF", "\U00010000", -1},
		{"\U0001F600", "\U0001F601", -1},
		{"\U00010400", "\U0001F600", -1},
		{"x\U0001F600", "x\uFF5E", -1},
		{"ab\x00", "ab", 1},
		{"ab", "ab\x00", -1},
		// Invalid UTF-8 compares as U+FFFD: a truncated é (U+FFFD) sorts after a whole é.
		{"\xC3", "\xC3\xA9", 1},
		{"\xFF", "\uFFFD", 0},
		{"\xFFa", "\uFFFDb", -1},
	}
	for _, tt := range tests {
		if got := compareUTF16(tt.a, tt.b); got != tt.want {
			t.Errorf("compareUTF16(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func FuzzTypeOf(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`true`,
		`false`,
		`{"type":"object","properties":{"a b":{"type":"array","items":{"oneOf":[{"type":"string"},{"type":"null"}]}}},"required":["a b"]}`,
		`{"allOf":[{"$ref":"#"},{"type":["object","null"],"additionalProperties":{"enum":[1,"a",null]}}],"nullable":true}`,
		`{"type":"object","properties":{"d":{"description":"*/ |\n&","const":{"x":[1e21]}}},"patternProperties":{"":{}}}`,
		`{"anyOf":[{"type":"array","prefixItems":[{}]},{"if":{},"then":{}}],"type":7,"enum":{}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := jsonv.ParseString(text)
		if err != nil {
			return
		}
		if TypeOf(v, 0) == "" {
			t.Fatalf("TypeOf(%s) is empty", text)
		}
		tools := []Tool{{Name: text, Description: text, Parameters: v, Output: v}}
		decls := Declarations(tools)
		if !strings.HasSuffix(decls, "}") {
			t.Fatal("Declarations lost its tail")
		}
		// Two tools with the same schemas share their shapes; the declaration file's layout
		// changes no type and no comment.
		two := append(tools, Tool{Name: text + "2", Parameters: v, Output: v})
		dts, _ := strings.CutSuffix(strings.SplitN(DTS(two), "\n", 3)[2], "\n\n"+consoleDeclaration+"\n")
		if layoutFree(dts) != layoutFree(Declarations(two)) {
			t.Fatalf("DTS and Declarations differ beyond layout:\n%s\n----\n%s", dts, Declarations(two))
		}
		if d, ok := Describe(tools, text); !ok || !strings.HasSuffix(d, "}") {
			t.Fatal("Describe lost the tool")
		}
		if !strings.Contains(CompactSection(tools), "\n- ") || len(Search(tools, text, 1)) > 1 {
			t.Fatal("compact presentation")
		}
	})
}
