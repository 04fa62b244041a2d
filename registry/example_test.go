package registry_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// Register a tool with JSON Schemas and execute calls: arguments are validated before the body
// runs, and failures are results with codes.
func Example() {
	reg := registry.New()
	_, err := reg.Register(registry.Tool{
		Name:        "greet",
		Description: "Greet someone.",
		Parameters:  jsonv.MustParse(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		Output:      registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue("hello, " + inv.Arguments.Lookup("name").AsString()), nil
		},
	})
	if err != nil {
		panic(err)
	}
	ok := reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: "greet", Arguments: jsonv.MustParse(`{"name":"Ada"}`)})
	fmt.Println(ok.Value, ok.Content[0].Text)

	bad := reg.Execute(context.Background(), registry.Call{CallID: "c2", Name: "greet", Arguments: jsonv.MustParse(`{}`)})
	fmt.Println(bad.Content[0].Text, errors.Is(bad.Err, registry.CodeInvalidArgs))
	// Output:
	// "hello, Ada" hello, Ada
	// Error: invalid arguments: missing required property "name" true
}

// A structured output's schema checked against the upstream Code Mode's subset: the registry
// accepts full JSON Schema, the subset does not accept format or numeric bounds.
func ExampleCheckObjectSubsetSchema() {
	schema := jsonv.MustParse(`{"type":"object","properties":{"url":{"type":"string","format":"uri"},"score":{"type":"number","minimum":0}},"required":["url"]}`)
	err := registry.CheckObjectSubsetSchema(schema)
	var violations registry.SchemaViolations
	fmt.Println(errors.Is(err, registry.CodeUnsupportedSchema), errors.As(err, &violations))
	for _, v := range violations {
		fmt.Println(v)
	}
	// Output:
	// true true
	// schema.properties.url.format is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)
	// schema.properties.score.minimum is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)
}
