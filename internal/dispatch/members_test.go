package dispatch_test

import (
	"context"
	"testing"

	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// With prepared Members the namespace carries them and one Dispatch, which calls the tool at
// the index it is given; Members that do not match Tools are refused.
func TestNamespaceWithMembers(t *testing.T) {
	name := registry.Tool{Name: "name", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		return jsonv.StringValue(inv.Name), nil
	}}
	other := name
	other.Name = "other"
	reg := newRegistry(t, echo, name, other)
	tools := []string{"echo", "name", "other"}
	members, err := dispatch.ToolMembers(tools, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, CallID: "c", Tools: tools, Members: members})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ns := b.Namespace()
	if ns.Members != members || ns.Dispatch == nil || len(ns.Functions) != 0 || ns.Global != "tools" || ns.MemberNoun != "tool" {
		t.Fatalf("namespace = %+v", ns)
	}
	got := make(chan string, 1)
	ns.Dispatch(context.Background(), 2, jsonv.MustParse(`{}`), func(v jsonv.Value, err error) { got <- v.AsString() })
	if v := <-got; v != "other" {
		t.Fatalf("Dispatch(2) reached %q", v)
	}
	if _, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, Tools: tools[:2], Members: members}); err == nil {
		t.Fatal("New accepted Members of 3 for 2 Tools")
	}
	if _, err := dispatch.ToolMembers([]string{"a", "a"}, nil); err == nil {
		t.Fatal("ToolMembers accepted a name twice")
	}
}
