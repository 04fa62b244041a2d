package registry_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

type tallyKey struct{}

// tallyTools returns a tool "tally" that counts its calls per call tree and returns the count,
// and a composite tool "outer" that calls tally n times as its sub-calls (and once through a
// nested composite, "middle"), returning the last count.
func tallyTools(reg **registry.Registry, created *atomic.Int32) []registry.Tool {
	tally := registry.Tool{Name: "tally", Output: registry.AnyOutput(),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			n := inv.RootValue(tallyKey{}, func() any { created.Add(1); return new(atomic.Int64) }).(*atomic.Int64)
			return jsonv.Int(n.Add(1)), nil
		}}
	composite := func(name, callee string, calls int) registry.Tool {
		return registry.Tool{Name: name, Output: registry.AnyOutput(),
			Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
				var last registry.Result
				for i := range calls {
					last = (*reg).Execute(ctx, registry.Call{CallID: inv.CallID + "/" + jsonv.Int(int64(i)).String(), Name: callee,
						Arguments: jsonv.MustParse(`{}`), Parent: inv.Token, RootCallID: inv.RootCallID})
				}
				return last.Value, nil
			}}
	}
	return []registry.Tool{tally, composite("middle", "tally", 1), composite("outer", "tally", 3), composite("outest", "middle", 2)}
}

// RootValue is shared by a top-level call and every call made on its behalf, nested or not, and
// by no other top-level call; a direct call is a tree of its own.
func TestRootValueIsPerCallTree(t *testing.T) {
	var reg *registry.Registry
	var created atomic.Int32
	reg = newRegistry(t, tallyTools(&reg, &created)...)
	for i, tc := range []struct{ tool, want string }{
		{"outer", "3"}, // three sub-calls share one counter
		{"outer", "3"}, // a second top-level call starts afresh
		{"outest", "2"},
		{"tally", "1"}, // a direct call is its own tree
		{"tally", "1"},
	} {
		res := reg.Execute(context.Background(), registry.Call{CallID: "c", Name: tc.tool, Arguments: jsonv.MustParse(`{}`)})
		if res.IsError || res.Value.String() != tc.want {
			t.Fatalf("call %d (%s): %+v %s, want %s", i, tc.tool, res.Err, res.Value, tc.want)
		}
	}
	if got := created.Load(); got != 5 {
		t.Fatalf("%d values created, want one per top-level call (5)", got)
	}
}

// On an Invocation the registry did not create, every call is a tree of its own.
func TestRootValueOnInvocationWithoutRegistry(t *testing.T) {
	inv := &registry.Invocation{}
	a := inv.RootValue(tallyKey{}, func() any { return new(int) })
	b := inv.RootValue(tallyKey{}, func() any { return new(int) })
	if a == b {
		t.Fatal("an Invocation the registry did not create shared a value between calls")
	}
}
