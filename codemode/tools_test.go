package codemode_test

import (
	"context"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// What a run binds is cached per scope, but a run always sees the tools of the registry as it
// is when the run starts: registering, unregistering and restricting take effect at once, per
// scope.
func TestRunsSeeRegistryChanges(t *testing.T) {
	reg := setup(t, jsruntime.Config{}, nil)
	scope := reg.NewScope("agent", nil)
	keys := func(scope *registry.Scope) string {
		t.Helper()
		call := codemode.Call("c", `return Object.keys(tools).join(",")`, "List the tools")
		call.Scope = scope
		res := reg.Execute(context.Background(), call)
		if res.IsError {
			t.Fatal(res.Content[0].Text)
		}
		return res.Content[0].Text
	}
	tool := func(name string) registry.Tool {
		return registry.Tool{Name: name, Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.NullValue(), nil }}
	}
	if got := keys(nil) + "|" + keys(scope); got != "echo|echo" {
		t.Fatalf("before: %s", got)
	}
	unregister, err := reg.Register(tool("added"))
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(nil) + "|" + keys(scope); got != "echo,added|echo,added" {
		t.Fatalf("after Register: %s", got)
	}
	lift, err := scope.Restrict(registry.Restriction{Deny: []string{"echo"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(nil) + "|" + keys(scope); got != "echo,added|added" {
		t.Fatalf("after Restrict: %s", got)
	}
	if _, err := scope.Register(tool("own")); err != nil {
		t.Fatal(err)
	}
	if got := keys(scope); got != "added,own" {
		t.Fatalf("after a scoped Register: %s", got)
	}
	lift()
	unregister()
	if got := keys(nil) + "|" + keys(scope); got != "echo|echo,own" {
		t.Fatalf("after lifting and unregistering: %s", got)
	}
}
