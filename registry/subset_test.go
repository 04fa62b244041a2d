package registry_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

const subsetHint = " is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)"

// TestSubsetCheckerRules: DECISIONS row 1 promised the upstream subset checker "with its error
// codes", but nothing offered it and UNSUPPORTED_SCHEMA was never produced. CheckSubsetSchema
// applies the upstream's rules with its messages, every violation in walk order.
func TestSubsetCheckerRules(t *testing.T) {
	cases := []struct {
		name, schema string
		want         []string // nil: inside the subset
	}{
		{"any JSON", `{}`, nil},
		{"annotations only", `{"description":"d","title":"t","default":[1],"examples":[{"a":null}]}`, nil},
		{"every keyword in place", `{"type":"object","title":"T","properties":{` +
			`"a":{"type":"string","enum":["x","y"],"const":"x","description":"d"},` +
			`"b":{"oneOf":[{"type":"integer","enum":[1,2]},{"type":"null","const":null}]},` +
			`"c":{"type":"array","items":{"type":"number","const":1.5}},"d":{"type":"array"},"e":{"type":"boolean","enum":[true]}},` +
			`"required":["a","b"],"additionalProperties":false}`, nil},
		{"a root that is not an object", `{"type":"string"}`, nil},
		{"boolean schema", `true`, []string{"schema must be a schema object"}},
		{"unsupported keywords", `{"type":"string","pattern":"^a","maxLength":3,"format":"uri","$schema":"x","nullable":true}`, []string{
			"schema.pattern" + subsetHint, "schema.maxLength" + subsetHint, "schema.format" + subsetHint, "schema.$schema" + subsetHint, "schema.nullable" + subsetHint}},
		{"unsupported combinators", `{"anyOf":[{}],"allOf":[{}],"not":{},"$ref":"#/x","minimum":1}`, []string{
			"schema.anyOf" + subsetHint, "schema.allOf" + subsetHint, "schema.not" + subsetHint, "schema.$ref" + subsetHint, "schema.minimum" + subsetHint}},
		{"annotations that are not strings", `{"type":"null","description":1,"title":[]}`, []string{
			"schema.description must be a string", "schema.title must be a string"}},
		{"type and oneOf", `{"type":"string","oneOf":[{},{}],"items":{}}`, []string{"schema cannot declare both type and oneOf"}},
		{"constraints without type", `{"const":1,"properties":{},"items":{}}`, []string{
			"schema.properties requires type or oneOf", "schema.items requires type or oneOf", "schema.const requires type or oneOf"}},
		{"oneOf with one branch", `{"oneOf":[{"type":"string"}]}`, []string{"schema.oneOf must be an array of at least two schemas"}},
		{"oneOf not an array", `{"oneOf":{}}`, []string{"schema.oneOf must be an array of at least two schemas"}},
		{"beside oneOf, after the branches", `{"oneOf":[{"type":"string"},{"type":"date"}],"required":[],"enum":[1]}`, []string{
			"schema.oneOf[1].type must be one of object/array/string/number/integer/boolean/null",
			"schema.required is not supported beside oneOf", "schema.enum is not supported beside oneOf"}},
		{"type array", `{"type":["string","null"]}`, []string{"schema.type must be a single type string (type arrays are not supported)"}},
		{"unknown type", `{"type":"float"}`, []string{"schema.type must be one of object/array/string/number/integer/boolean/null"}},
		{"misplaced keywords", `{"type":"string","properties":{},"items":{}}`, []string{
			`schema.properties is not supported on type "string"`, `schema.items is not supported on type "string"`}},
		{"scalar keywords on containers", `{"type":"array","enum":[[]],"const":[]}`, []string{
			`schema.enum is not supported on type "array"`, `schema.const is not supported on type "array"`}},
		{"object rules", `{"type":"object","properties":[],"required":"a","additionalProperties":{}}`, []string{
			"schema.properties must be an object of schemas", "schema.required must be an array of strings", "schema.additionalProperties must be a boolean"}},
		{"required not declared", `{"type":"object","properties":{"a":{}},"required":["a","b","c\"d"]}`, []string{
			`schema.required names "b" which is not in properties`, `schema.required names "c\"d" which is not in properties`}},
		{"required without properties", `{"type":"object","required":["a"]}`, []string{`schema.required names "a" which is not in properties`}},
		{"enum rules", `{"type":"object","properties":{"e":{"type":"string","enum":[]},"i":{"type":"integer","enum":[1,1.5]},"n":{"type":"null","enum":"x"}}}`, []string{
			"schema.properties.e.enum must be a non-empty array of string values",
			"schema.properties.i.enum must be a non-empty array of integer values",
			"schema.properties.n.enum must be a non-empty array of null values"}},
		{"const rules", `{"type":"array","items":{"oneOf":[{"type":"number","const":"1"},{"type":"boolean","enum":[true],"const":false}]}}`, []string{
			"schema.items.oneOf[0].const must be a number value",
			"schema.items.oneOf[1].const must be one of schema.items.oneOf[1].enum when both are declared"}},
		{"children in walk order", `{"type":"object","properties":{"a":{"type":"array","items":{"minItems":1}},"b":1},"required":["z"]}`, []string{
			"schema.properties.a.items.minItems" + subsetHint, "schema.properties.b must be a schema object",
			`schema.required names "z" which is not in properties`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := registry.CheckSubsetSchema(jsonv.MustParse(c.schema))
			if c.want == nil {
				if err != nil {
					t.Fatalf("CheckSubsetSchema = %v, want nil", err)
				}
				return
			}
			checkSubsetError(t, err, c.want)
		})
	}
}

func checkSubsetError(t *testing.T, err error, want []string) {
	t.Helper()
	var e *registry.Error
	var v registry.SchemaViolations
	switch {
	case !errors.As(err, &e) || !errors.Is(err, registry.CodeUnsupportedSchema) || e.Name != "JsonSchemaError":
		t.Fatalf("err = %#v, want a JsonSchemaError with code UNSUPPORTED_SCHEMA", err)
	case e.Message != "unsupported JSON schema: "+strings.Join(want, "; "):
		t.Fatalf("message:\n%s\nwant:\nunsupported JSON schema: %s", e.Message, strings.Join(want, "; "))
	case !errors.As(err, &v) || strings.Join(v, "\n") != strings.Join(want, "\n"):
		t.Fatalf("violations = %q, want %q", v, want)
	}
}

// TestSubsetCheckerObjectRoot: a structured output's schema must also be object-rooted.
func TestSubsetCheckerObjectRoot(t *testing.T) {
	if err := registry.CheckObjectSubsetSchema(jsonv.MustParse(`{"type":"object","properties":{"a":{"type":"string"}}}`)); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`{"type":"string"}`, `{}`, `{"oneOf":[{"type":"object"},{"type":"null"}]}`} {
		checkSubsetError(t, registry.CheckObjectSubsetSchema(jsonv.MustParse(s)), []string{`schema.type must be "object" (structured output is object-rooted)`})
	}
	// Subset violations come first, alone.
	checkSubsetError(t, registry.CheckObjectSubsetSchema(jsonv.MustParse(`{"type":"string","format":"x"}`)), []string{"schema.format" + subsetHint})
}

// TestSubsetCheckerDepth: 5,000 nested oneOf (10,001 JSON levels) are checked, as upstream;
// a schema built in Go deeper than jsonv.MaxDepth is refused without being walked.
func TestSubsetCheckerDepth(t *testing.T) {
	schema := jsonv.MustParse(`{"type":"string"}`)
	for range 5000 {
		schema = jsonv.ObjectValue(jsonv.Member{Key: "oneOf", Value: jsonv.ArrayValue(schema, jsonv.MustParse(`{"type":"null"}`))})
	}
	if err := registry.CheckSubsetSchema(schema); err != nil {
		t.Fatal(err)
	}
	bad := jsonv.MustParse(`{"type":"date"}`)
	for range 5000 {
		bad = jsonv.ObjectValue(jsonv.Member{Key: "type", Value: jsonv.StringValue("array")}, jsonv.Member{Key: "items", Value: bad})
	}
	checkSubsetError(t, registry.CheckSubsetSchema(bad), []string{
		"schema" + strings.Repeat(".items", 5000) + ".type must be one of object/array/string/number/integer/boolean/null"})
	deep := jsonv.ObjectValue()
	for range jsonv.MaxDepth {
		deep = jsonv.ObjectValue(jsonv.Member{Key: "items", Value: deep})
	}
	checkSubsetError(t, registry.CheckSubsetSchema(deep), []string{"schema nests deeper than 12000 levels"})
}

// FuzzCheckSubsetSchema: on any JSON the checker returns (never panics), and every schema it
// accepts is also a schema the registry accepts for a tool's output.
func FuzzCheckSubsetSchema(f *testing.F) {
	for _, s := range []string{`{}`, `true`, `{"type":"object","properties":{"a":{"type":"string","enum":["x"],"const":"x"}},"required":["a"],"additionalProperties":false}`,
		`{"oneOf":[{"type":"integer"},{"type":"null"}]}`, `{"type":"array","items":{"type":"number","const":1.5}}`, `{"type":["string"]}`,
		`{"type":"object","required":["b"],"properties":[]}`, `{"anyOf":[{}],"description":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		schema, err := jsonv.ParseString(text)
		if err != nil {
			return
		}
		if registry.CheckSubsetSchema(schema) != nil {
			return
		}
		tool := registry.Tool{Name: "t", Output: registry.OutputOf(schema),
			Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.NullValue(), nil }}
		if _, err := registry.New().Register(tool); err != nil {
			t.Fatalf("inside the subset but refused by the registry: %s: %v", text, err)
		}
	})
}

// TestSubsetValueValidation: the subset's value validator, with the upstream's messages and
// walk order (required, then the declared properties, then undeclared ones).
func TestSubsetValueValidation(t *testing.T) {
	params := `{"type":"object","properties":{"path":{"type":"string"},"s":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},` +
		`"servers":{"type":"array","items":{"type":"object","properties":{"host":{"type":"string"}},"required":["host"]}},` +
		`"color":{"type":"string","enum":["red","green"]},"bag":{"type":"object"},"n":{"type":"integer","enum":[1,2],"const":1}},"required":["path"]}`
	cases := []struct {
		name, schema, value, root string
		want                      []string
	}{
		{"arguments", params, `{"s":1,"tags":["a",2],"servers":[{"host":"h"},{}],"color":"blue","bag":[],"n":2,"extra":true}`, "", []string{
			`missing required property "path"`, `"s" must be a string`, `"tags[1]" must be a string`, `missing required property "servers[1].host"`,
			`"color" must be one of ["red","green"]`, `"bag" must be an object`, `"n" must be 1`}},
		{"arguments root", params, `[]`, "", []string{`"arguments" must be an object`}},
		{"conforming", params, `{"path":"p","n":1,"tags":[]}`, "", nil},
		{"output paths", `{"type":"object","properties":{"file":{"type":"string"},"list":{"type":"array","items":{"type":"integer"}}},"required":["id"],"additionalProperties":false}`,
			`{"file":1,"list":[1,1.5,"x"],"z":null}`, "value", []string{
				`missing required property "value.id"`, `"value.file" must be a string`, `"value.list[1]" must be an integer`, `"value.list[2]" must be an integer`,
				`"value.z" is not a declared property (additionalProperties: false)`}},
		{"root types", `{"type":"number"}`, `"1"`, "value", []string{`"value" must be a number`}},
		{"boolean and null", `{"type":"array","items":{"oneOf":[{"type":"boolean"},{"type":"null"}]}}`, `[true,null,0]`, "value", []string{
			`"value[2]" must match exactly one oneOf branch (matched 0)`}},
		{"overlapping branches", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `2`, "value", []string{`"value" must match exactly one oneOf branch (matched 2)`}},
		{"one branch matches", `{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `2.5`, "value", nil},
		{"enum before const", `{"type":"string","enum":["a","b"],"const":"a"}`, `"c"`, "value", []string{`"value" must be one of ["a","b"]`, `"value" must be "a"`}},
		{"any JSON", `{"description":"anything"}`, `{"a":[1,{"b":null}]}`, "value", nil},
		{"own properties only", `{"type":"object","properties":{"toString":{"type":"string"}},"required":["constructor"]}`, `{}`, "value", []string{
			`missing required property "value.constructor"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := registry.ValidateSubsetValue(jsonv.MustParse(c.schema), jsonv.MustParse(c.value), c.root)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Fatalf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
	// 5,000 nested oneOf levels validate (upstream: no recursion limit to 5,000).
	schema, value := jsonv.MustParse(`{"type":"string"}`), jsonv.StringValue("x")
	for range 5000 {
		schema = jsonv.ObjectValue(jsonv.Member{Key: "type", Value: jsonv.StringValue("array")}, jsonv.Member{Key: "items", Value: schema})
		value = jsonv.ArrayValue(value)
	}
	if got := registry.ValidateSubsetValue(schema, value, "value"); got != nil {
		t.Fatalf("deep value: %q", got)
	}
}

// FuzzValidateSubsetValue: for a schema inside the subset, the subset's validator and the
// registry's full JSON Schema validation agree on every value (the messages differ).
func FuzzValidateSubsetValue(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"integer","enum":[1,2]}},"required":["a"],"additionalProperties":false}`, `{"a":1}`)
	f.Add(`{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `2.5`)
	f.Add(`{"type":"array","items":{"oneOf":[{"type":"string","const":"x"},{"type":"null"}]}}`, `["x",null,"y"]`)
	f.Add(`{"type":"object","properties":{"o":{"type":"object","properties":{},"additionalProperties":false}}}`, `{"o":{"k":[]}}`)
	f.Fuzz(func(t *testing.T, schemaText, valueText string) {
		schema, err1 := jsonv.ParseString(schemaText)
		value, err2 := jsonv.ParseString(valueText)
		if err1 != nil || err2 != nil || registry.CheckSubsetSchema(schema) != nil {
			return
		}
		violations := registry.ValidateSubsetValue(schema, value, "value")
		tool := registry.Tool{Name: "t", Output: registry.OutputOf(schema),
			Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) { return value, nil }}
		reg := registry.New()
		if _, err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
		res := reg.Execute(context.Background(), registry.Call{CallID: "c", Name: "t", Arguments: jsonv.ObjectValue()})
		if res.IsError != (len(violations) > 0) {
			t.Fatalf("schema %s, value %s: subset violations %q, registry %v", schemaText, valueText, violations, res.Err)
		}
	})
}
