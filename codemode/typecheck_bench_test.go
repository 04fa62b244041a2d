package codemode_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/typecheck"
)

// BenchmarkRunTypecheck is RunTrivialJS (50 tools, one sub-call) with Options.TypeChecker off,
// with one compiler process per check (cold: run --typecheck), and with a warm compiler (serve
// --typecheck). The difference to "off" is what the option adds to a run.
func BenchmarkRunTypecheck(b *testing.B) {
	for _, mode := range []string{"off", "cold", "warm"} {
		b.Run(mode, func(b *testing.B) {
			var checker codemode.TypeChecker
			if mode != "off" {
				c, err := typecheck.New(typecheck.Options{Warm: mode == "warm"})
				if errors.Is(err, typecheck.ErrNoCompiler) {
					b.Skip(err)
				}
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { c.Close() })
				checker = c
			}
			rt, err := jsruntime.New(jsruntime.Config{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { rt.Close() })
			tools := make([]registry.Tool, 50)
			for i := range tools {
				tools[i] = registry.Tool{
					Name:        fmt.Sprintf("echo%d", i),
					Description: "Return the arguments.",
					Parameters:  jsonv.MustParse(`{"type":"object","properties":{"x":{"type":"number"}}}`),
					Output:      registry.OutputOf(jsonv.MustParse(`{"type":"object"}`)),
					Execute:     func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) { return inv.Arguments, nil },
				}
			}
			reg := installOn(b, rt, codemode.Options{TypeChecker: checker}, tools...)
			// Outside the measure: the runtime's first preparation and the warm server's start.
			if res := runCode(reg, "return await tools.echo0({x: 0})"); res.IsError {
				b.Fatal(res.Err)
			}
			i := 0
			for b.Loop() {
				i++
				// A different text each run, as a model's programs are (the warm server
				// cannot answer from the last check).
				res := runCode(reg, fmt.Sprintf("const r = await tools.echo0({x: %d}); return r", i))
				if res.IsError {
					b.Fatal(res.Err)
				}
			}
		})
	}
}
