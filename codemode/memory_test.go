package codemode_test

import (
	"context"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/internal/membudget"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// Each run has its own sub-call memory budget (Options.SubCallMemory): a reservation over it
// rejects the sub-call with a ToolCallError the program can handle; a negative budget budgets
// nothing.
func TestSubCallMemoryBudgetPerRun(t *testing.T) {
	reserve := registry.Tool{Name: "reserve", Output: registry.AnyOutput(),
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			if err := membudget.Reserve(ctx, int64(inv.Arguments.Lookup("bytes").AsNumber())); err != nil {
				return jsonv.Value{}, err
			}
			return jsonv.StringValue("reserved"), nil
		}}
	program := `const out = [];
for (const bytes of [1048576, 3145728]) {
  try { out.push(await tools.reserve({bytes})); } catch (e) { out.push(e.name + ": " + e.message); }
}
return out;`
	for _, c := range []struct {
		budget int64
		want   string
	}{
		{2 << 20, `["reserved","ToolCallError: 3 MiB is over this run's memory budget of 2 MiB"]`},
		{0, `["reserved","reserved"]`}, // the default, 128 MiB
		{-1, `["reserved","reserved"]`},
	} {
		rt, err := jsruntime.New(jsruntime.Config{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rt.Close() })
		reg := installOn(t, rt, codemode.Options{SubCallMemory: c.budget}, reserve)
		// Two runs in turn: each starts with the whole budget.
		for range 2 {
			res := runCode(reg, program)
			if res.IsError || res.Value.Lookup("result").String() != c.want {
				t.Fatalf("budget %d: %v %v, want %s", c.budget, res.Value, res.Err, c.want)
			}
		}
	}
}
