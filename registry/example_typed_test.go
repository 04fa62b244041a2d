package registry_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// WeatherArgs is the input of the weather tool; its schema is inferred from the fields and
// their tags.
type WeatherArgs struct {
	City  string `json:"city" minLength:"1" description:"The city to report on."`
	Units string `json:"units,omitempty" enum:"metric,imperial"`
}

// Weather is the output of the weather tool.
type Weather struct {
	City        string  `json:"city"`
	Temperature float64 `json:"temperature"`
}

// Define a tool with Go types: the parameter and output schemas are inferred, arguments are
// validated before the body runs, and the body receives them decoded.
func ExampleDefine() {
	tool, err := registry.Define(registry.TypedTool[WeatherArgs, Weather]{
		Name:        "weather",
		Description: "Report the weather.",
		Execute: func(_ context.Context, _ *registry.Invocation, in WeatherArgs) (Weather, error) {
			t := 21.5
			if in.Units == "imperial" {
				t = 70.7
			}
			return Weather{City: strings.ToUpper(in.City), Temperature: t}, nil
		},
		Render: func(in WeatherArgs, out Weather) []registry.Content {
			return []registry.Content{registry.TextContent(fmt.Sprintf("%s: %v degrees", out.City, out.Temperature))}
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(tool.Parameters)

	reg := registry.New()
	if _, err := reg.Register(tool); err != nil {
		panic(err)
	}
	ok := reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: "weather", Arguments: jsonv.MustParse(`{"city":"Oslo","units":"imperial"}`)})
	fmt.Println(ok.Value, registry.TextOf(ok.Content))

	bad := reg.Execute(context.Background(), registry.Call{CallID: "c2", Name: "weather", Arguments: jsonv.MustParse(`{"units":"kelvin"}`)})
	fmt.Println(registry.TextOf(bad.Content), errors.Is(bad.Err, registry.CodeInvalidArgs))
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","minLength":1,"description":"The city to report on."},"units":{"type":"string","enum":["metric","imperial"]}},"required":["city"],"additionalProperties":false}
	// {"city":"OSLO","temperature":70.7} OSLO: 70.7 degrees
	// Error: invalid arguments: missing required property "city"; "units" must be one of ["metric","imperial"] true
}

// Matches is the output of the find tool: Paths is never null; Notes is null when the search
// could not say, and the tag says so.
type Matches struct {
	Paths []string `json:"paths"`
	Notes []string `json:"notes" runcode:"nullable"`
}

// A nil slice in a tool's output crosses as [], and its schema leaves null out (the SDK type is
// string[], not string[] | null), as Go code treats nil. The runcode:"nullable" tag opts a
// field back into null.
func ExampleDefine_nullable() {
	tool := registry.MustDefine(registry.TypedTool[WeatherArgs, Matches]{
		Name: "find",
		Execute: func(context.Context, *registry.Invocation, WeatherArgs) (Matches, error) {
			return Matches{}, nil // nothing found: both slices are nil
		},
	})
	fmt.Println(tool.Output.Schema)
	reg := registry.New()
	if _, err := reg.Register(tool); err != nil {
		panic(err)
	}
	res := reg.Execute(context.Background(), registry.Call{CallID: "c1", Name: "find", Arguments: jsonv.MustParse(`{"city":"Oslo"}`)})
	fmt.Println(res.Value)
	// Output:
	// {"type":"object","properties":{"paths":{"type":"array","items":{"type":"string"}},"notes":{"type":["array","null"],"items":{"type":"string"}}},"required":["paths","notes"],"additionalProperties":false}
	// {"paths":[],"notes":null}
}
