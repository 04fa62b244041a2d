// Command agent-loop simulates the tool side of a Go agent loop with two agents over one
// registry: a "planner" that presents its tools natively and a "coder" that presents them as
// code (run_code only). For each agent it prints the prompt sections and the tool list its model
// would be sent, then replays what each model might call: the coder's model calling a tool
// directly (refused by the executor collapse), then the same work as a run_code program, and
// the planner's model calling the tool directly.
//
//	go run ./examples/agent-loop
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// cityQuery is the input of get_temperature.
type cityQuery struct {
	City string `json:"city" description:"City name."`
}

// reading is the result of get_temperature.
type reading struct {
	City     string  `json:"city"`
	Celsius  float64 `json:"celsius"`
	Observed string  `json:"observed"`
}

// conversion is the input of to_fahrenheit.
type conversion struct {
	Celsius float64 `json:"celsius"`
}

func tools() ([]registry.Tool, error) {
	temps := map[string]float64{"oslo": 4, "lisbon": 19, "cairo": 31}
	temperature, err := registry.Define(registry.TypedTool[cityQuery, reading]{
		Name:        "get_temperature",
		Description: "Get the current temperature of a city.",
		Execute: func(_ context.Context, _ *registry.Invocation, q cityQuery) (reading, error) {
			c, ok := temps[strings.ToLower(q.City)]
			if !ok {
				return reading{}, fmt.Errorf("no station in %q", q.City)
			}
			return reading{City: q.City, Celsius: c, Observed: "12:00"}, nil
		},
		ConcurrencySafe: func(cityQuery) bool { return true },
	})
	if err != nil {
		return nil, err
	}
	fahrenheit, err := registry.Define(registry.TypedTool[conversion, float64]{
		Name:        "to_fahrenheit",
		Description: "Convert degrees Celsius to degrees Fahrenheit.",
		Execute: func(_ context.Context, _ *registry.Invocation, c conversion) (float64, error) {
			return c.Celsius*9/5 + 32, nil
		},
		ConcurrencySafe: func(conversion) bool { return true },
	})
	if err != nil {
		return nil, err
	}
	return []registry.Tool{temperature, fahrenheit}, nil
}

// program is what the coder's model writes: several tool calls, one curated answer.
const program = `
const out: string[] = [];
for (const city of ["Oslo", "Lisbon", "Cairo"]) {
  const r = await tools.get_temperature({ city });
  const f = await tools.to_fahrenheit({ celsius: r.celsius });
  out.push(city + " " + f + "F");
}
return out.join(", ");
`

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(w io.Writer) error {
	reg := registry.New()
	list, err := tools()
	if err != nil {
		return err
	}
	if _, err := reg.Register(list...); err != nil {
		return err
	}
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		return err
	}
	if err := codemode.Install(reg, codemode.Options{Runtime: rt}); err != nil {
		return err
	}

	// Two agents over the same tools; each declares its own presentation.
	planner := reg.NewScope("planner", nil)
	coder := reg.NewScope("coder", nil)
	if _, err := planner.PresentAs(registry.PresentNative); err != nil {
		return err
	}
	if _, err := coder.PresentAs(registry.PresentCode); err != nil {
		return err
	}

	for _, agent := range []*registry.Scope{planner, coder} {
		if err := describe(w, reg, agent); err != nil {
			return err
		}
	}

	ctx := context.Background()
	fmt.Fprintln(w, "== coder's model calls get_temperature directly")
	res := reg.Execute(ctx, registry.Call{CallID: "coder-1", Name: "get_temperature", Scope: coder,
		Arguments: jsonv.MustParse(`{"city":"Oslo"}`)})
	fmt.Fprintln(w, registry.TextOf(res.Content))

	fmt.Fprintln(w, "== coder's model calls run_code")
	call := codemode.Call("coder-2", program, "Report three temperatures")
	call.Scope = coder
	res = reg.Execute(ctx, call)
	fmt.Fprintln(w, registry.TextOf(res.Content))

	fmt.Fprintln(w, "== planner's model calls get_temperature directly")
	res = reg.Execute(ctx, registry.Call{CallID: "planner-1", Name: "get_temperature", Scope: planner,
		Arguments: jsonv.MustParse(`{"city":"Oslo"}`)})
	fmt.Fprintln(w, registry.TextOf(res.Content))
	return nil
}

// describe prints what agent's model is sent: the Code Mode prompt sections and the tool list.
func describe(w io.Writer, reg *registry.Registry, agent *registry.Scope) error {
	sections, err := codemode.Sections(reg, agent, codemode.SectionOptions{})
	if err != nil {
		return err
	}
	var names []string
	for _, s := range codemode.WireSchemas(reg, agent) {
		names = append(names, s.Name)
	}
	fmt.Fprintf(w, "== %s (%s)\n", agent.Name(), reg.PresentationOf(agent))
	fmt.Fprintf(w, "wire tools: %s\n", strings.Join(names, ", "))
	prompt := codemode.RenderPrompt(sections)
	if prompt == "" {
		prompt = "(no Code Mode sections)"
	}
	fmt.Fprintf(w, "prompt:\n%s\n\n", prompt)
	return nil
}
