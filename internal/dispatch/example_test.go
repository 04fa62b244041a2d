package dispatch_test

import (
	"context"
	"fmt"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// A bridge turns a program's SDK calls into registry sub-calls with ids "<outer>:code:<n>" and
// reports each one's start and settlement.
func Example() {
	reg := registry.New()
	reg.Register(registry.Tool{Name: "echo", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		return inv.Arguments.Lookup("value"), nil
	}})
	rt, _ := jsruntime.New(jsruntime.Config{})

	b, _ := dispatch.New(context.Background(), dispatch.Options{
		Executor: reg,
		CallID:   "call-7",
		Tools:    []string{"echo"},
		Events:   func(e bridge.Event) { fmt.Println(e.Type, e.SubCallID, e.Arguments) },
	})
	res, _ := rt.Run(context.Background(), jsruntime.Request{
		Program:  `return [await tools.echo({value: 1}), await tools.echo({value: 2})]`,
		Bindings: []jsruntime.Namespace{b.Namespace()},
	})
	b.Close()
	fmt.Println(res.Value)
	// Output:
	// code-dispatch-start call-7:code:1 {"value":1}
	// code-dispatch call-7:code:1 {"value":1}
	// code-dispatch-start call-7:code:2 {"value":2}
	// code-dispatch call-7:code:2 {"value":2}
	// [1,2]
}
