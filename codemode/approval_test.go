package codemode_test

import (
	"context"
	"sync"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// A sub-call the registry refuses rejects with a ToolCallError whose code is the registry's
// code: APPROVAL_DENIED for a call its Approver rejected, INVALID_ARGS for bad arguments. The
// Approver sees the program's description through codemode.ProgramOf.
func TestSubCallRejectionsCarryTheRegistryCode(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	wrote := 0
	reg := subSetup(t, codemode.Options{},
		registry.Tool{Name: "write", RequiresApproval: true, Output: registry.AnyOutput(), Parameters: jsonv.MustParse(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
			Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
				mu.Lock()
				wrote++
				mu.Unlock()
				return jsonv.StringValue("ok"), nil
			}},
		registry.Tool{Name: "read", Output: registry.AnyOutput(), Parameters: jsonv.MustParse(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
			Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.StringValue("ok"), nil }})
	reg.SetApprover(registry.ApproverFunc(func(ctx context.Context, exec registry.Execution, _ string) registry.Approval {
		p, ok := codemode.ProgramOf(ctx)
		mu.Lock()
		defer mu.Unlock()
		if !ok {
			asked = append(asked, "<no program>")
			return registry.Unavailable
		}
		asked = append(asked, exec.Name+": "+p.Description)
		return registry.Rejected
	}))
	call := codemode.Call("call-1", `const codes = [];
		try { await tools.write({path: "a"}) } catch (e) { codes.push([e.code, e.message]) }
		try { await tools.read({}) } catch (e) { codes.push([e.code, e.message]) }
		return codes`, "Write the report")
	call.Scope = reg.NewScope("agent", nil)
	res := reg.Execute(context.Background(), call)
	if res.IsError {
		t.Fatalf("run failed: %s", registry.TextOf(res.Content))
	}
	got := string(jsonv.AppendJSON(nil, res.Value.Lookup("result")))
	want := `[["APPROVAL_DENIED","the user rejected tool \"write\""],["INVALID_ARGS","invalid arguments: missing required property \"path\""]]`
	if got != want {
		t.Errorf("codes: got %s, want %s", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if wrote != 0 {
		t.Errorf("the tool ran %d times", wrote)
	}
	if len(asked) != 1 || asked[0] != "write: Write the report" {
		t.Errorf("the approver was asked %q, want once for write with the program's description", asked)
	}
}
