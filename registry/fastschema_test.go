package registry

import (
	"github.com/santhosh-tekuri/jsonschema/v6"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
)

// fastSchemas are schemas in the fast subset.
var fastSchemas = []string{
	`true`,
	`false`,
	`{}`,
	`{"type":"object"}`,
	`{"type":"object","properties":{"x":{"type":"number"}}}`,
	`{"type":"integer"}`,
	`{"type":["integer","string"]}`,
	`{"type":["null","boolean"]}`,
	`{"type":"array","items":{"type":"string"}}`,
	`{"type":"array","items":false}`,
	`{"items":{"type":"integer"}}`,
	`{"type":"object","required":["a","b"]}`,
	`{"required":["a"],"properties":{"a":{"type":"string"}}}`,
	`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
	`{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"number"}}`,
	`{"type":"object","additionalProperties":true}`,
	`{"enum":["a","b",1,null,true]}`,
	`{"type":"string","enum":["a","b"]}`,
	`{"const":1}`,
	`{"const":"a","description":"annotated","title":"t","default":"a","examples":["a"],"$comment":"c","deprecated":false,"readOnly":true,"writeOnly":false}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}},"required":["n"],"additionalProperties":false}`,
	`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"deep":{"type":"object","properties":{"deeper":{"type":"array","items":{"type":"object","required":["k"]}}}}}}`,
	`{"type":"object","properties":{"__proto__":{"type":"number"},"constructor":{"const":null}}}`,
}

// slowSchemas are valid schemas outside the subset.
var slowSchemas = []string{
	`{"type":"number","minimum":0}`,
	`{"type":"string","pattern":"^a"}`,
	`{"type":"string","format":"date"}`,
	`{"$defs":{"a":{"type":"string"}},"$ref":"#/$defs/a"}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`,
	`{"type":"object","properties":{"a":{"properties":{"b":{"minLength":1}}}}}`,
	`{"prefixItems":[{"type":"string"}]}`,
	`{"enum":[[1],{"a":1}]}`,
	`{"enum":["a"],"const":"a"}`,
	`{"anyOf":[{"type":"string"},{"type":"number"}]}`,
	`{"type":"object","patternProperties":{"^a":{"type":"string"}}}`,
	`{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"a":{"$schema":"https://json-schema.org/draft/2020-12/schema"}}}`,
}

var fastValues = []string{
	`null`, `true`, `false`, `0`, `1`, `-3`, `1.5`, `1e300`, `9007199254740993`, `0.1`,
	`""`, `"a"`, `"b"`, `"1"`,
	`[]`, `[1]`, `["a","b"]`, `[1,"a"]`, `[[1]]`, `[{"k":1}]`, `[{}]`,
	`{}`, `{"x":1}`, `{"x":"s"}`, `{"x":1,"y":2}`, `{"a":"s"}`, `{"a":1}`, `{"a":"s","b":null}`,
	`{"a":"s","z":2}`, `{"a":"s","z":"2"}`, `{"n":1}`, `{"n":1.5}`, `{"n":2,"tags":["x"]}`,
	`{"n":2,"tags":[1]}`, `{"n":2,"extra":true}`, `{"deep":{"deeper":[{"k":1},{}]}}`,
	`{"deep":{"deeper":[{"k":1}]}}`, `{"__proto__":1}`, `{"__proto__":"1"}`, `{"constructor":null}`,
	`{"constructor":{}}`,
}

// fastAgrees checks that the fast subset decides v exactly as the full validator does.
func fastAgrees(t *testing.T, schema, value string) {
	t.Helper()
	doc, err := jsonv.Parse([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	c, err := compileSchema(&schemaCache{}, doc)
	if err != nil {
		t.Fatalf("%s: %v", schema, err)
	}
	if c.fastSubset() == nil {
		t.Fatalf("%s is not in the fast subset", schema)
	}
	v, err := jsonv.Parse([]byte(value))
	if err != nil {
		t.Fatal(err)
	}
	full := mustValidator(t, c).Validate(v.Any()) == nil
	if fast := c.fastSubset().accepts(v); fast != full {
		t.Errorf("schema %s, value %s: fast accepts = %v, full validator accepts = %v", schema, value, fast, full)
	}
}

func TestFastSchemaDecidesLikeTheFullValidator(t *testing.T) {
	for _, s := range fastSchemas {
		for _, v := range fastValues {
			fastAgrees(t, s, v)
		}
	}
}

func TestSchemasOutsideTheFastSubsetUseTheFullValidator(t *testing.T) {
	for _, s := range slowSchemas {
		c, err := compileSchema(&schemaCache{}, jsonv.MustParse(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if c.fastSubset() != nil {
			t.Errorf("%s is in the fast subset", s)
		}
	}
	// Outside the subset, values are still checked, by the full validator.
	c, _ := compileSchema(&schemaCache{}, jsonv.MustParse(`{"type":"number","minimum":0}`))
	if v := c.violations(jsonv.MustParse(`-1`), ""); len(v) != 1 {
		t.Fatalf("violations = %v", v)
	}
}

// A value the fast subset rejects gets the full validator's messages.
func TestFastSchemaRejectionsKeepTheFullMessages(t *testing.T) {
	c, _ := compileSchema(&schemaCache{}, jsonv.MustParse(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`))
	got := c.violations(jsonv.MustParse(`{"b":1}`), "")
	want := []string{`missing required property "a"`, `"b" is not a declared property (additionalProperties: false)`}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("violations = %q, want %q", got, want)
	}
}

// FuzzFastSchema checks that, for any schema in the fast subset, the fast check and the full
// validator agree on any value.
func FuzzFastSchema(f *testing.F) {
	for i, s := range fastSchemas {
		f.Add(s, fastValues[i%len(fastValues)])
	}
	f.Fuzz(func(t *testing.T, schema, value string) {
		doc, err := jsonv.Parse([]byte(schema))
		if err != nil {
			return
		}
		c, err := compileSchema(&schemaCache{}, doc)
		if err != nil || c == nil || c.fastSubset() == nil {
			return
		}
		v, err := jsonv.Parse([]byte(value))
		if err != nil {
			return
		}
		full := mustValidator(t, c).Validate(v.Any()) == nil
		if fast := c.fastSubset().accepts(v); fast != full {
			t.Errorf("schema %s, value %s: fast accepts = %v, full validator accepts = %v", schema, value, fast, full)
		}
	})
}

// mustValidator returns c fully compiled.
func mustValidator(t *testing.T, c *compiledSchema) *jsonschema.Schema {
	t.Helper()
	full, err := c.validator()
	if err != nil {
		t.Fatalf("schema %s does not compile: %v", c.key, err)
	}
	return full
}
