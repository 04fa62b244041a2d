package codemode_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// A Go tool, run_code installed beside it, and one model-written program that calls the tool
// three times and returns a summary: only the summary reaches the model.
func Example() {
	reg := registry.New()
	reg.Register(registry.Tool{
		Name:        "square",
		Description: "Square a number.",
		Parameters:  jsonv.MustParse(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`),
		Output:      registry.OutputOf(jsonv.MustParse(`{"type":"number"}`)),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			n := inv.Arguments.Lookup("n").AsNumber()
			return jsonv.NumberValue(n * n)
		},
	})
	rt, _ := jsruntime.New(jsruntime.Config{})
	codemode.Install(reg, codemode.Options{Runtime: rt})
	reg.SetDefaultPresentation(registry.PresentCode)

	fmt.Println(strings.Contains(codemode.PromptSection(reg), "square(args: { n: number }): Promise<number>;"))
	res := reg.Execute(context.Background(), registry.Call{
		CallID: "call-1",
		Name:   registry.ReservedName,
		Arguments: jsonv.MustParse(`{"description": "Sum three squares",
			"code": "let sum: number = 0;\nfor (const n of [1, 2, 3]) sum += await tools.square({ n });\nconsole.log('done');\nreturn { sum };"}`),
	})
	fmt.Println(res.Content[0].Text)
	// Output:
	// true
	// done
	// {
	//   "sum": 14
	// }
}
