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
