package jsruntime_test

import (
	"context"
	"fmt"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

func Example() {
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		panic(err)
	}
	// A host function: here it answers at once; a real one starts work and settles later.
	add := func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
		sum := args.Lookup("a").AsNumber() + args.Lookup("b").AsNumber()
		v, err := jsonv.NumberValue(sum)
		settle(v, err)
	}
	res, err := rt.Run(context.Background(), jsruntime.Request{
		Program: `
			interface Sum { a: number; b: number }
			const args: Sum = { a: 2, b: 3 };
			const total: number = await tools.add(args);
			console.log("total is", total);
			return { total };`,
		Bindings: []jsruntime.Namespace{{
			Global:     "tools",
			Functions:  []jsruntime.Function{{Name: "add", Call: add}},
			ErrorClass: &jsruntime.ErrorClass{Name: "ToolCallError", MemberNameProperty: "toolName"},
		}},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Logs)
	fmt.Println(res.Value)
	// Output:
	// [total is 5]
	// {"total":5}
}
