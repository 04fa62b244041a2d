package registry_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// presCollapseMsg is the exact message of a collapsed direct call of "read".
const presCollapseMsg = "unknown tool \"read\": only `run_code` is callable directly \u2014 call `read` from inside a `run_code` program instead"

// presRegistry returns a registry with the tools read and write, a transport that returns
// "ran", and presentation default def.
func presRegistry(t *testing.T, def registry.Presentation) *registry.Registry {
	t.Helper()
	reg := newRegistry(t, presTool("read"), presTool("write"))
	if err := reg.InstallTransport(presTool(registry.ReservedName)); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetDefaultPresentation(def); err != nil {
		t.Fatal(err)
	}
	return reg
}

// presTool is a parallel-safe tool named name that returns its name.
func presTool(name string) registry.Tool {
	return registry.Tool{
		Name: name, Description: name, Output: registry.AnyOutput(),
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue(name), nil
		},
		ConcurrencySafe: func(jsonv.Value) bool { return true },
	}
}

func presCall(name string, scope *registry.Scope) registry.Call {
	return registry.Call{CallID: "c1", Name: name, Arguments: jsonv.ObjectValue(), Scope: scope}
}

func presNames(reg *registry.Registry, scope *registry.Scope) string {
	return names(reg.Schemas(scope))
}

func TestDefaultPresentationIsNativeAndHidesTheTransport(t *testing.T) {
	reg := newRegistry(t, presTool("read"))
	if err := reg.InstallTransport(presTool(registry.ReservedName)); err != nil {
		t.Fatal(err)
	}
	agent := reg.NewScope("agent", nil)
	if p := reg.PresentationOf(agent); p != registry.PresentNative {
		t.Fatalf("default presentation = %q", p)
	}
	if got := presNames(reg, agent); got != "read" {
		t.Fatalf("native Schemas = %s", got)
	}
	if _, ok := reg.Get(registry.ReservedName, agent); ok {
		t.Fatal("Get finds the transport in a native scope")
	}
	res := reg.Execute(context.Background(), presCall(registry.ReservedName, agent))
	if !res.IsError || res.Err.Message != `unknown tool "run_code": the scope presents its tools as native, which offers no run_code; present it as code or both (Registry.SetDefaultPresentation, Scope.PresentAs)` || !errors.Is(res.Err, registry.CodeUnknownTool) {
		t.Fatalf("run_code in a native scope: %+v", res.Err)
	}
	if res := reg.Execute(context.Background(), presCall("read", agent)); res.IsError {
		t.Fatalf("native direct call failed: %s", res.Err.Message)
	}
}

func TestSetDefaultPresentation(t *testing.T) {
	reg := presRegistry(t, registry.PresentNative)
	var changes atomic.Int32
	reg.OnChange(func(*registry.Scope) { changes.Add(1) })
	if err := reg.SetDefaultPresentation("plain"); err == nil || !strings.Contains(err.Error(), `invalid presentation "plain"`) {
		t.Fatalf("invalid presentation: %v", err)
	}
	if err := reg.SetDefaultPresentation(""); err == nil {
		t.Fatal("empty presentation accepted")
	}
	for _, p := range []registry.Presentation{registry.PresentCode, registry.PresentBoth} {
		if err := reg.SetDefaultPresentation(p); err != nil {
			t.Fatal(err)
		}
		if got := reg.PresentationOf(nil); got != p {
			t.Fatalf("PresentationOf(nil) = %q, want %q", got, p)
		}
		if got := presNames(reg, nil); got != "read,write,run_code" {
			t.Fatalf("%s: Schemas = %s", p, got)
		}
	}
	if err := reg.SetDefaultPresentation(registry.PresentBoth); err != nil { // unchanged: no notification
		t.Fatal(err)
	}
	if n := changes.Load(); n != 2 {
		t.Fatalf("OnChange fired %d times, want 2", n)
	}
	if n := len(reg.SDKSchemas(nil)); n != 2 {
		t.Fatalf("SDKSchemas has %d tools", n)
	}
}

func TestPresentAsNearestDeclarationWins(t *testing.T) {
	reg := presRegistry(t, registry.PresentNative)
	preset := reg.NewScope("preset", nil)
	agent := reg.NewScope("agent", preset)
	child := reg.NewScope("child", agent)
	var changed []*registry.Scope
	reg.OnChange(func(s *registry.Scope) { changed = append(changed, s) })

	restorePreset, err := preset.PresentAs(registry.PresentCode)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*registry.Scope{preset, agent, child} {
		if p := reg.PresentationOf(s); p != registry.PresentCode {
			t.Fatalf("%s: %q, want code from the preset", s.Name(), p)
		}
	}
	restoreAgent, err := agent.PresentAs(registry.PresentNative)
	if err != nil {
		t.Fatal(err)
	}
	if p := reg.PresentationOf(child); p != registry.PresentNative {
		t.Fatalf("child: %q, want native from the agent", p)
	}
	if got := presNames(reg, child); got != "read,write" {
		t.Fatalf("child Schemas = %s", got)
	}
	if got := presNames(reg, preset); got != "read,write,run_code" {
		t.Fatalf("preset Schemas = %s", got)
	}

	// One declaration per scope.
	_, err = agent.PresentAs(registry.PresentBoth)
	want := `scope "agent": presentation "both" conflicts with "native" already declared for this scope; one composition selects one presentation`
	if err == nil || err.Error() != want {
		t.Fatalf("second declaration: %v", err)
	}
	if _, err := agent.PresentAs("weird"); err == nil {
		t.Fatal("invalid presentation accepted")
	}

	restoreAgent()
	restoreAgent() // idempotent
	if p := reg.PresentationOf(child); p != registry.PresentCode {
		t.Fatalf("after restoring the agent: %q", p)
	}
	again, err := agent.PresentAs(registry.PresentBoth)
	if err != nil {
		t.Fatalf("declaring after the disposer: %v", err)
	}
	restoreAgent() // a stale disposer leaves the new declaration alone
	if p := reg.PresentationOf(agent); p != registry.PresentBoth {
		t.Fatalf("stale disposer removed the new declaration: %q", p)
	}
	again()
	restorePreset()
	if p := reg.PresentationOf(child); p != registry.PresentNative {
		t.Fatalf("after restoring everything: %q", p)
	}
	if len(changed) != 6 || changed[0] != preset || changed[1] != agent {
		t.Fatalf("OnChange saw %d changes", len(changed))
	}
}

func TestTransportIsLastAndSurvivesRestrictionsInEveryNonNativeScope(t *testing.T) {
	reg := presRegistry(t, registry.PresentCode)
	agent := reg.NewScope("agent", nil)
	if _, err := agent.Register(presTool("own")); err != nil {
		t.Fatal(err)
	}
	if _, err := agent.Restrict(registry.Restriction{Allow: []string{"read"}}); err != nil {
		t.Fatal(err)
	}
	if got := presNames(reg, agent); got != "read,own,run_code" {
		t.Fatalf("Schemas = %s", got)
	}
	if _, err := agent.Restrict(registry.Restriction{Deny: []string{registry.ReservedName}}); err == nil {
		t.Fatal("a restriction named the transport")
	}
	if tool, ok := reg.Get(registry.ReservedName, agent); !ok || tool.Name != registry.ReservedName {
		t.Fatal("transport not found under code")
	}
	var sdk []registry.Schema
	for _, s := range reg.SDKSchemas(agent) {
		sdk = append(sdk, s.Schema)
	}
	if got := names(sdk); got != "read,own" {
		t.Fatalf("SDKSchemas = %s", got)
	}
}

// presStrictPipeline makes every policy hook fail t when it sees a call named name, and returns
// a counter of the results observers saw for that name.
func presStrictPipeline(t *testing.T, reg *registry.Registry, scope *registry.Scope, name string) *atomic.Int32 {
	t.Helper()
	reg.OnPreExecute(func(ctx context.Context, exec registry.Execution, next func() registry.PreDecision) registry.PreDecision {
		if exec.Name == name {
			t.Errorf("pre-execute saw the collapsed call %s", name)
		}
		return next()
	})
	reg.Guard(func(exec registry.Execution) string {
		if exec.Name == name {
			t.Errorf("guard saw the collapsed call %s", name)
		}
		return ""
	})
	scope.Guard(func(exec registry.Execution) string {
		if exec.Name == name {
			t.Errorf("scope guard saw the collapsed call %s", name)
		}
		return ""
	})
	reg.WrapExecute(func(ctx context.Context, exec registry.Execution, next func(context.Context) registry.Result) registry.Result {
		if exec.Name == name {
			t.Errorf("wrapper saw the collapsed call %s", name)
		}
		return next(ctx)
	})
	reg.OnPostExecute(func(ctx context.Context, exec registry.Execution, res registry.Result, next func() registry.PostDecision) registry.PostDecision {
		if exec.Name == name {
			t.Errorf("post-execute saw the collapsed call %s", name)
		}
		return next()
	})
	reg.SetApprover(registry.ApproverFunc(func(context.Context, registry.Execution, string) registry.Approval {
		t.Errorf("approver asked")
		return registry.Rejected
	}))
	var seen atomic.Int32
	reg.OnResult(func(exec registry.Execution, res registry.Result) {
		if exec.Name == name {
			seen.Add(1)
		}
	})
	return &seen
}

func TestCollapseRefusesDirectCallsUnderCode(t *testing.T) {
	reg := newRegistry(t, presTool("write"))
	read := presTool("read")
	var finalized atomic.Int32
	read.FinalizeContent = func(registry.Execution, registry.Result) []registry.Content {
		finalized.Add(1)
		return nil
	}
	if _, err := reg.Register(read); err != nil {
		t.Fatal(err)
	}
	if err := reg.InstallTransport(presTool(registry.ReservedName)); err != nil {
		t.Fatal(err)
	}
	agent := reg.NewScope("agent", nil)
	if _, err := agent.PresentAs(registry.PresentCode); err != nil {
		t.Fatal(err)
	}
	seen := presStrictPipeline(t, reg, agent, "read")

	res := reg.Execute(context.Background(), presCall("read", agent))
	if !res.IsError || res.Err.Message != presCollapseMsg {
		t.Fatalf("collapsed call: %+v", res.Err)
	}
	if res.Err.Code != registry.CodeUnknownTool || res.Err.Name != "ToolNotFoundError" || !errors.Is(res.Err, registry.CodeUnknownTool) {
		t.Fatalf("collapsed call info: %q %q", res.Err.Code, res.Err.Name)
	}
	if got := registry.TextOf(res.Content); got != "Error: "+presCollapseMsg {
		t.Fatalf("content = %q", got)
	}
	if seen.Load() != 1 || finalized.Load() != 1 {
		t.Fatalf("observers saw %d, FinalizeContent ran %d times; want 1 and 1", seen.Load(), finalized.Load())
	}
	if m := reg.ExecutionMode(presCall("read", agent)); m != registry.Exclusive {
		t.Fatalf("ExecutionMode of a collapsed call = %s", m)
	}
	// Get and Schemas stay presentation-agnostic about native tools.
	if _, ok := reg.Get("read", agent); !ok {
		t.Fatal("Get hides a native tool under code")
	}
	if got := presNames(reg, agent); got != "write,read,run_code" {
		t.Fatalf("Schemas = %s", got)
	}
	// The transport itself is never collapsed.
	if res := reg.Execute(context.Background(), presCall(registry.ReservedName, agent)); res.IsError || res.Value.AsString() != registry.ReservedName {
		t.Fatalf("run_code under code: %+v", res.Err)
	}
	// A staged call ends at Prepare.
	p := reg.Prepare(context.Background(), presCall("read", agent))
	if p.NeedsDispatch() {
		t.Fatal("a collapsed call needs dispatch")
	}
	if res := p.Finish(); res.Err.Message != presCollapseMsg {
		t.Fatalf("staged: %+v", res.Err)
	}
}

func TestCollapsePrecedence(t *testing.T) {
	reg := presRegistry(t, registry.PresentCode)
	agent := reg.NewScope("agent", nil)
	undefined := presCall("read", agent)
	undefined.Arguments = jsonv.Value{}
	if res := reg.Execute(context.Background(), undefined); !errors.Is(res.Err, registry.CodeInvalidArgs) {
		t.Fatalf("undefined arguments: %+v", res.Err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res := reg.Execute(ctx, presCall("read", agent)); !errors.Is(res.Err, registry.CodeAbortedBeforeDispatch) {
		t.Fatalf("cancelled caller: %+v", res.Err)
	}
}

func TestCollapseSparesInvisibleNamesNestedCallsAndOtherModes(t *testing.T) {
	reg := presRegistry(t, registry.PresentCode)
	agent := reg.NewScope("agent", nil)
	if _, err := agent.Restrict(registry.Restriction{Deny: []string{"write"}}); err != nil {
		t.Fatal(err)
	}
	var pre atomic.Int32
	reg.OnPreExecute(func(ctx context.Context, exec registry.Execution, next func() registry.PreDecision) registry.PreDecision {
		pre.Add(1)
		return next()
	})

	// Invisible names keep the generic path: full pipeline, then unknown tool at dispatch.
	for _, name := range []string{"write", "nope"} {
		pre.Store(0)
		res := reg.Execute(context.Background(), presCall(name, agent))
		if res.Err == nil || res.Err.Message != `unknown tool "`+name+`"` || res.Err.Code != registry.CodeUnknownTool || pre.Load() != 1 {
			t.Fatalf("%s: %+v (pre-execute ran %d times)", name, res.Err, pre.Load())
		}
	}

	// A program's sub-call (a Parent token) may call any visible tool.
	outer := reg.Prepare(context.Background(), presCall(registry.ReservedName, agent))
	nested := presCall("read", agent)
	nested.Parent = outer.Execution().Token
	if res := reg.Execute(context.Background(), nested); res.IsError {
		t.Fatalf("nested call collapsed: %s", res.Err.Message)
	}
	if m := reg.ExecutionMode(nested); m != registry.Parallel {
		t.Fatalf("nested ExecutionMode = %s", m)
	}
	outer.Finish()

	// both and native execute direct calls.
	for _, p := range []registry.Presentation{registry.PresentBoth, registry.PresentNative} {
		s := reg.NewScope(string(p), agent)
		if _, err := s.PresentAs(p); err != nil {
			t.Fatal(err)
		}
		if res := reg.Execute(context.Background(), presCall("read", s)); res.IsError {
			t.Fatalf("%s: %s", p, res.Err.Message)
		}
		if m := reg.ExecutionMode(presCall("read", s)); m != registry.Parallel {
			t.Fatalf("%s: ExecutionMode = %s", p, m)
		}
	}
	// The global view follows the default.
	if res := reg.Execute(context.Background(), presCall("read", nil)); res.Err == nil || res.Err.Message != presCollapseMsg {
		t.Fatalf("global view under a code default: %+v", res.Err)
	}
}

func TestTransportCallWithoutARuntimeNamesTheScopesMode(t *testing.T) {
	reg := newRegistry(t, presTool("read"))
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		t.Fatal(err)
	}
	agent := reg.NewScope("agent", nil)
	if _, err := agent.PresentAs(registry.PresentBoth); err != nil {
		t.Fatal(err)
	}
	res := reg.Execute(context.Background(), presCall(registry.ReservedName, agent))
	if !res.IsError || !strings.Contains(res.Err.Message, "requires a code runtime") || !strings.Contains(res.Err.Message, `mode "both"`) {
		t.Fatalf("run_code without a runtime: %+v", res.Err)
	}
	if m := reg.ExecutionMode(presCall(registry.ReservedName, agent)); m != registry.Exclusive {
		t.Fatalf("ExecutionMode = %s", m)
	}
	res = reg.Execute(context.Background(), presCall(registry.ReservedName, nil))
	if !res.IsError || !strings.Contains(res.Err.Message, `mode "code" requires a code runtime`) {
		t.Fatalf("global view: %+v", res.Err)
	}
}

// run_code in a registry without Code Mode names the fix, codemode.New, which the registry
// cannot import.
func TestUnknownRunCodeNamesTheFix(t *testing.T) {
	reg := newRegistry(t, presTool("read"))
	res := reg.Execute(context.Background(), presCall(registry.ReservedName, nil))
	want := `unknown tool "run_code": Code Mode is not installed in this registry; install it with codemode.New`
	if !res.IsError || res.Err.Message != want || !errors.Is(res.Err, registry.CodeUnknownTool) {
		t.Fatalf("got %+v, want %q", res.Err, want)
	}
	// Other unknown names keep the plain message.
	if res := reg.Execute(context.Background(), presCall("nope", nil)); res.Err == nil || res.Err.Message != `unknown tool "nope"` {
		t.Fatalf("got %+v", res.Err)
	}
}
