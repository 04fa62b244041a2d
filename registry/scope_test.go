package registry_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// named returns a tool whose body answers with label.
func named(name, label string) registry.Tool {
	return registry.Tool{Name: name, Description: label, Output: registry.AnyOutput(),
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.StringValue(label), nil }}
}

func names(schemas []registry.Schema) string {
	var out []string
	for _, s := range schemas {
		out = append(out, s.Name)
	}
	return strings.Join(out, ",")
}

func TestScopedRegistrationsShadowInheritedTools(t *testing.T) {
	reg := newRegistry(t, named("a", "global a"), named("b", "global b"))
	preset := reg.NewScope("preset", nil)
	agent := reg.NewScope("agent", preset)
	if _, err := preset.Register(named("b", "preset b"), named("c", "preset c")); err != nil {
		t.Fatal(err)
	}
	undo, err := agent.Register(named("a", "agent a"))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(reg.Schemas(agent)); got != "a,b,c" {
		t.Fatalf("agent sees %s", got)
	}
	for name, want := range map[string]string{"a": "agent a", "b": "preset b", "c": "preset c"} {
		res := reg.Execute(context.Background(), registry.Call{CallID: "x", Name: name, Arguments: jsonv.MustParse(`{}`), Scope: agent})
		if res.Value.AsString() != want {
			t.Errorf("%s in agent = %v, want %s", name, res.Value, want)
		}
	}
	if tool, _ := reg.Get("a", nil); tool.Description != "global a" {
		t.Fatalf("global view of a: %q", tool.Description)
	}
	if _, ok := reg.Get("c", nil); ok {
		t.Fatal("a scoped tool leaked into the global view")
	}
	if _, err := agent.Register(named("a", "again")); err == nil || !strings.Contains(err.Error(), `tool "a" is already registered in this scope`) {
		t.Fatalf("duplicate in a layer: %v", err)
	}
	undo()
	if tool, _ := reg.Get("a", agent); tool.Description != "global a" {
		t.Fatalf("after unregistering the shadow: %q", tool.Description)
	}
}

func TestRestrictionsFilterWhatAScopeInherits(t *testing.T) {
	reg := newRegistry(t, named("read", "r"), named("write", "w"), named("shell", "s"))
	if err := reg.InstallTransport(named(registry.ReservedName, "transport")); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetDefaultPresentation(registry.PresentBoth); err != nil {
		t.Fatal(err)
	}
	agent := reg.NewScope("agent", nil)
	if _, err := agent.Register(named("own", "o")); err != nil {
		t.Fatal(err)
	}
	liftDeny, err := agent.Restrict(registry.Restriction{Deny: []string{"shell"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(reg.Schemas(agent)); got != "read,write,own,run_code" {
		t.Fatalf("after deny: %s", got)
	}
	liftAllow, err := agent.Restrict(registry.Restriction{Allow: []string{"read", "shell"}})
	if err != nil {
		t.Fatal(err)
	}
	// Restrictions intersect; the scope's own tool and the transport stay visible.
	if got := names(reg.Schemas(agent)); got != "read,own,run_code" {
		t.Fatalf("after allow: %s", got)
	}
	res := reg.Execute(context.Background(), registry.Call{CallID: "x", Name: "write", Arguments: jsonv.MustParse(`{}`), Scope: agent})
	if !errors.Is(res.Err, registry.CodeUnknownTool) {
		t.Fatalf("restricted-away tool executed: %+v", res)
	}
	if mode := reg.ExecutionMode(registry.Call{Name: "write", Arguments: jsonv.MustParse(`{}`), Scope: agent}); mode != registry.Exclusive {
		t.Fatalf("mode of a restricted tool: %s", mode)
	}
	// A child inherits its parent's filtered view, including the parent's own tools.
	child := reg.NewScope("child", agent)
	if got := names(reg.Schemas(child)); got != "read,own,run_code" {
		t.Fatalf("child sees %s", got)
	}
	// Tools registered later: a deny-only scope sees them, an allow-list scope does not.
	liftAllow()
	if _, err := reg.Register(named("late", "l")); err != nil {
		t.Fatal(err)
	}
	if got := names(reg.Schemas(agent)); got != "read,write,late,own,run_code" {
		t.Fatalf("after lifting allow: %s", got)
	}
	liftDeny()
	liftDeny()
	if got := names(reg.Schemas(agent)); got != "read,write,shell,late,own,run_code" {
		t.Fatalf("after lifting both: %s", got)
	}
	var sdk []registry.Schema
	for _, s := range reg.SDKSchemas(agent) {
		sdk = append(sdk, s.Schema)
	}
	if got := names(sdk); got != "read,write,shell,late,own" {
		t.Fatalf("SDK view: %s", got)
	}
}

func TestRestrictRejectsBadFilters(t *testing.T) {
	reg := newRegistry(t, named("a", "a"))
	agent := reg.NewScope("agent", nil)
	if _, err := agent.Register(named("mine", "m")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		x    registry.Restriction
		want string
	}{
		{registry.Restriction{}, `restriction of scope "agent" names no tools`},
		{registry.Restriction{Deny: []string{"nope"}}, `names unknown tool "nope"`},
		{registry.Restriction{Allow: []string{"mine"}}, `names "mine", which the scope registers itself`},
		{registry.Restriction{Deny: []string{registry.ReservedName}}, `cannot name the reserved Code Mode transport "run_code"`},
	}
	for _, c := range cases {
		_, err := agent.Restrict(c.x)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, registry.CodeInvalidDefinition) {
			t.Errorf("Restrict(%+v) = %v, want %q", c.x, err, c.want)
		}
	}
	if _, err := agent.Register(named(registry.ReservedName, "x")); err == nil {
		t.Error("a scope registered the reserved name")
	}
}

func TestChangeNotifications(t *testing.T) {
	reg := registry.New()
	var changes []string
	remove := reg.OnChange(func(s *registry.Scope) {
		if s == nil {
			changes = append(changes, "global")
		} else {
			changes = append(changes, s.Name())
		}
	})
	reg.OnChange(func(*registry.Scope) { panic("listener bug") })
	undo, _ := reg.Register(named("a", "a"))
	agent := reg.NewScope("agent", nil)
	agent.Register(named("b", "b"))
	lift, _ := agent.Restrict(registry.Restriction{Deny: []string{"a"}})
	lift()
	undo()
	undo()
	remove()
	reg.Register(named("c", "c"))
	if got := strings.Join(changes, ","); got != "global,agent,agent,agent,global" {
		t.Fatalf("changes: %s", got)
	}
	if agent.Parent() != nil {
		t.Fatal("top-level scope has a parent")
	}
}
