package registry_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// counter is a tool that counts how often its body ran.
type counter struct {
	mu    sync.Mutex
	calls int
}

func (c *counter) tool(name string) registry.Tool {
	return registry.Tool{
		Name:   name,
		Output: registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.calls++
			return jsonv.StringValue("ran"), nil
		},
	}
}

func (c *counter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

func call(name string) registry.Call {
	return registry.Call{CallID: "c1", Name: name, Arguments: jsonv.MustParse(`{}`)}
}

func text(res registry.Result) string {
	return registry.TextOf(res.Content)
}

func TestPreExecuteWaterfall(t *testing.T) {
	cases := []struct {
		name      string
		listeners []registry.PreExecuteFunc
		approver  registry.Approver
		scoped    bool
		want      string // result text
	}{
		{"no listener allows", nil, nil, false, "ran"},
		{"deny", []registry.PreExecuteFunc{func(_ context.Context, _ registry.Execution, next func() registry.PreDecision) registry.PreDecision {
			return registry.Deny("not on my watch")
		}}, nil, false, "Error: not on my watch"},
		{"a later deny reaches an earlier listener through next", []registry.PreExecuteFunc{
			func(_ context.Context, _ registry.Execution, next func() registry.PreDecision) registry.PreDecision {
				return next()
			},
			func(_ context.Context, _ registry.Execution, next func() registry.PreDecision) registry.PreDecision {
				return registry.Deny("second says no")
			},
		}, nil, false, "Error: second says no"},
		{"ask without an approver", []registry.PreExecuteFunc{askWith("")}, nil, true, `Error: tool "t" requires approval (not yet supported)`},
		{"ask without an approver uses the reason", []registry.PreExecuteFunc{askWith("needs a human")}, nil, true, "Error: needs a human"},
		{"ask without an agent", []registry.PreExecuteFunc{askWith("")}, answer(registry.AllowedOnce), false, `Error: tool "t" requires approval, but the call has no agent to route it through`},
		{"allowed once", []registry.PreExecuteFunc{askWith("")}, answer(registry.AllowedOnce), true, "ran"},
		{"rejected", []registry.PreExecuteFunc{askWith("")}, answer(registry.Rejected), true, `Error: the user rejected tool "t"`},
		{"cancelled", []registry.PreExecuteFunc{askWith("")}, answer(registry.Cancelled), true, `Error: approval for tool "t" was cancelled`},
		{"unavailable", []registry.PreExecuteFunc{askWith("")}, answer(registry.Unavailable), true, `Error: tool "t" requires approval, but no approval channel is available`},
		{"panicking approver", []registry.PreExecuteFunc{askWith("")}, registry.ApproverFunc(func(context.Context, registry.Execution, string) registry.Approval { panic("x") }), true, `Error: tool "t" requires approval, but no approval channel is available`},
		{"panicking listener", []registry.PreExecuteFunc{func(context.Context, registry.Execution, func() registry.PreDecision) registry.PreDecision {
			panic("gate exploded")
		}}, nil, false, "Error: pre-execute listener panicked: gate exploded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body counter
			reg := newRegistry(t, body.tool("t"))
			var postRan bool
			reg.OnPostExecute(func(_ context.Context, _ registry.Execution, _ registry.Result, next func() registry.PostDecision) registry.PostDecision {
				postRan = true
				return next()
			})
			for _, l := range c.listeners {
				reg.OnPreExecute(l)
			}
			reg.SetApprover(c.approver)
			cl := call("t")
			if c.scoped {
				cl.Scope = reg.NewScope("agent", nil)
			}
			res := reg.Execute(context.Background(), cl)
			if got := text(res); got != c.want {
				t.Fatalf("result %q, want %q", got, c.want)
			}
			if ran := body.count() == 1; ran != (c.want == "ran") {
				t.Fatalf("body ran %d times", body.count())
			}
			// An approval stage's denial carries APPROVAL_DENIED (the program's
			// ToolCallError.code); a policy's plain Deny and a broken listener carry none.
			wantCode := registry.Code("")
			if res.IsError && strings.HasPrefix(c.name, "ask") || c.approver != nil && c.want != "ran" && !strings.Contains(c.name, "listener") {
				wantCode = registry.CodeApprovalDenied
			}
			if res.IsError && res.Err.Code != wantCode {
				t.Errorf("denial carries code %q, want %q", res.Err.Code, wantCode)
			}
			if wantPost := !strings.Contains(c.name, "panicking listener"); postRan != wantPost {
				t.Errorf("post-execute ran = %v, want %v", postRan, wantPost)
			}
		})
	}
}

func askWith(reason string) registry.PreExecuteFunc {
	return func(context.Context, registry.Execution, func() registry.PreDecision) registry.PreDecision {
		return registry.Ask(reason)
	}
}

func answer(a registry.Approval) registry.Approver {
	return registry.ApproverFunc(func(context.Context, registry.Execution, string) registry.Approval { return a })
}

func TestGuardsDenyMonotonically(t *testing.T) {
	var body counter
	reg := newRegistry(t, body.tool("t"))
	agent := reg.NewScope("agent", nil)
	var order []string
	reg.Guard(func(registry.Execution) string { order = append(order, "global"); return "" })
	agent.Guard(func(registry.Execution) string { order = append(order, "agent"); return "agent says no" })
	reg.Guard(func(registry.Execution) string { order = append(order, "late global"); return "" })
	// A pre-execute listener that allows cannot overturn the guard's denial.
	reg.OnPreExecute(func(context.Context, registry.Execution, func() registry.PreDecision) registry.PreDecision {
		return registry.Allow()
	})
	res := reg.Execute(context.Background(), registry.Call{CallID: "c", Name: "t", Arguments: jsonv.MustParse(`{}`), Scope: agent})
	if text(res) != "Error: agent says no" || body.count() != 0 {
		t.Fatalf("result %q, body ran %d", text(res), body.count())
	}
	if strings.Join(order, ",") != "global,late global,agent" {
		t.Fatalf("guard order %v", order)
	}
	// The agent's guard does not apply to global calls.
	if res := reg.Execute(context.Background(), call("t")); res.IsError {
		t.Fatalf("global call: %s", text(res))
	}
	// A panicking guard fails closed.
	remove := reg.Guard(func(registry.Execution) string { panic("broken guard") })
	if res := reg.Execute(context.Background(), call("t")); text(res) != "Error: guard panicked: broken guard" {
		t.Fatalf("panicking guard: %q", text(res))
	}
	remove()
	remove() // idempotent
	if res := reg.Execute(context.Background(), call("t")); res.IsError {
		t.Fatalf("after removal: %s", text(res))
	}
}

func TestWrappersCannotDetachCallerCancellation(t *testing.T) {
	started := make(chan struct{})
	var sawValue any
	slow := registry.Tool{Name: "slow", Output: registry.AnyOutput(), Execute: func(ctx context.Context, _ *registry.Invocation) (jsonv.Value, error) {
		sawValue = ctx.Value(ctxKey{})
		close(started)
		<-ctx.Done()
		return jsonv.Value{}, context.Cause(ctx)
	}}
	reg := newRegistry(t, slow)
	var order []string
	reg.WrapExecute(func(ctx context.Context, exec registry.Execution, next func(context.Context) registry.Result) registry.Result {
		order = append(order, "outer")
		// Replace the context with one that is never cancelled: the caller's cancellation must
		// still reach the body.
		return next(context.WithValue(context.Background(), ctxKey{}, "wrapped"))
	})
	reg.WrapExecute(func(ctx context.Context, exec registry.Execution, next func(context.Context) registry.Result) registry.Result {
		order = append(order, "inner")
		return next(ctx)
	})
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() { <-started; cancel(errors.New("caller gave up")) }()
	res := reg.Execute(ctx, call("slow"))
	if text(res) != "Error: caller gave up" {
		t.Fatalf("result %q", text(res))
	}
	if sawValue != "wrapped" || strings.Join(order, ",") != "outer,inner" {
		t.Fatalf("value %v, order %v", sawValue, order)
	}
}

type ctxKey struct{}

func TestPanickingWrapperFailsWithoutPostExecute(t *testing.T) {
	var body counter
	reg := newRegistry(t, body.tool("t"))
	reg.WrapExecute(func(context.Context, registry.Execution, func(context.Context) registry.Result) registry.Result {
		panic("wrapper bug")
	})
	postRan := false
	reg.OnPostExecute(func(_ context.Context, _ registry.Execution, _ registry.Result, next func() registry.PostDecision) registry.PostDecision {
		postRan = true
		return next()
	})
	res := reg.Execute(context.Background(), call("t"))
	if text(res) != "Error: tools/execute wrapper panicked: wrapper bug" || postRan {
		t.Fatalf("result %q, post ran %v", text(res), postRan)
	}
}

func TestPostExecuteDecisions(t *testing.T) {
	greet := registry.Tool{
		Name: "greet",
		Output: registry.Output{Schema: jsonv.MustParse(`{"type":"string","maxLength":10}`), Render: func(_, v jsonv.Value) []registry.Content {
			return []registry.Content{registry.TextContent("rendered:" + v.AsString())}
		}},
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue("hello"), nil
		},
	}
	note := registry.ContextMessage{Source: "plugin:test", Content: []registry.Content{registry.TextContent("remember this")}}
	cases := []struct {
		name     string
		decision registry.PostDecision
		text     string
		value    string
		contexts int
	}{
		{"accept", registry.Accept(), "rendered:hello", `"hello"`, 0},
		{"replace content keeps the value", registry.AcceptContent(registry.TextContent("redacted")), "redacted", `"hello"`, 0},
		{"replace value renders again", registry.AcceptValue(jsonv.StringValue("bye")), "rendered:bye", `"bye"`, 0},
		{"a replaced value is validated", registry.AcceptValue(jsonv.StringValue("far too long")), `Error: tool "greet" returned invalid output: "value": maxLength: got 12, want 10`, "undefined", 0},
		{"block with feedback", registry.Block(registry.TextContent("no greetings"), registry.Content{Type: "image", Data: "AAAA", MimeType: "image/png"}), "Error: no greetings\n[image content]", "undefined", 0},
		{"block without feedback", registry.Block(), "Error: tool result blocked by post-execute policy", "undefined", 0},
		{"contexts ride the result", registry.Accept().WithContexts(note), "rendered:hello", `"hello"`, 1},
		{"contexts ride a block too", registry.Block(registry.TextContent("no")).WithContexts(note, note), "Error: no", "undefined", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg := newRegistry(t, greet)
			reg.OnPostExecute(func(_ context.Context, _ registry.Execution, res registry.Result, next func() registry.PostDecision) registry.PostDecision {
				if res.Value.AsString() != "hello" {
					t.Errorf("listener saw value %v", res.Value)
				}
				return c.decision
			})
			res := reg.Execute(context.Background(), call("greet"))
			if text(res) != c.text || res.Value.String() != c.value || len(res.AdditionalContexts) != c.contexts {
				t.Fatalf("got %q %s %d contexts, want %q %s %d", text(res), res.Value, len(res.AdditionalContexts), c.text, c.value, c.contexts)
			}
			if strings.Contains(c.name, "validated") && !errors.Is(res.Err, registry.CodeInvalidToolOutput) {
				t.Fatalf("code = %v", res.Err)
			}
		})
	}
}

func TestPostExecuteListenerPanicBecomesAnError(t *testing.T) {
	var body counter
	reg := newRegistry(t, body.tool("t"))
	reg.OnPostExecute(func(context.Context, registry.Execution, registry.Result, func() registry.PostDecision) registry.PostDecision {
		panic("policy bug")
	})
	if res := reg.Execute(context.Background(), call("t")); text(res) != "Error: post-execute listener panicked: policy bug" {
		t.Fatalf("result %q", text(res))
	}
}

func TestFinalizeContentRunsExactlyOnceForEveryOutcome(t *testing.T) {
	cases := []struct {
		name  string
		setup func(reg *registry.Registry)
		call  registry.Call
	}{
		{"success", func(*registry.Registry) {}, call("t")},
		{"invalid arguments", func(*registry.Registry) {}, registry.Call{CallID: "c", Name: "t", Arguments: jsonv.MustParse(`{"n":"x"}`)}},
		{"undefined arguments", func(*registry.Registry) {}, registry.Call{CallID: "c", Name: "t"}},
		{"denied", func(r *registry.Registry) { r.Guard(func(registry.Execution) string { return "no" }) }, call("t")},
		{"pre-execute panic", func(r *registry.Registry) {
			r.OnPreExecute(func(context.Context, registry.Execution, func() registry.PreDecision) registry.PreDecision {
				panic("x")
			})
		}, call("t")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var seen []string
			tool := registry.Tool{
				Name:       "t",
				Parameters: jsonv.MustParse(`{"type":"object","properties":{"n":{"type":"number"}}}`),
				Output:     registry.AnyOutput(),
				Execute:    func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.Int(1), nil },
				FinalizeContent: func(exec registry.Execution, res registry.Result) []registry.Content {
					seen = append(seen, text(res))
					return []registry.Content{registry.TextContent("final")}
				},
			}
			reg := newRegistry(t, tool)
			c.setup(reg)
			res := reg.Execute(context.Background(), c.call)
			if len(seen) != 1 || text(res) != "final" {
				t.Fatalf("finalize saw %v, result %q", seen, text(res))
			}
		})
	}
}

func TestObserversSeeCopiesAndCannotBreakTheResult(t *testing.T) {
	var body counter
	reg := newRegistry(t, body.tool("t"))
	var got []string
	reg.OnResult(func(exec registry.Execution, res registry.Result) {
		res.Content[0].Text = "tampered"
		panic("observer bug")
	})
	reg.OnResult(func(exec registry.Execution, res registry.Result) {
		got = append(got, exec.CallID+" "+text(res))
	})
	res := reg.Execute(context.Background(), call("t"))
	if text(res) != "ran" || len(got) != 1 || got[0] != "c1 ran" {
		t.Fatalf("result %q, second observer saw %v", text(res), got)
	}
}

func TestDeferredContextsAndConcludeTurn(t *testing.T) {
	note := registry.ContextMessage{Source: "plugin:x", Content: []registry.Content{registry.TextContent("n")}}
	ok := registry.Tool{Name: "ok", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		inv.DeferContext(note)
		inv.ConcludeTurn()
		return jsonv.NullValue(), nil
	}}
	bad := registry.Tool{Name: "bad", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		inv.DeferContext(note)
		inv.ConcludeTurn()
		return jsonv.Value{}, errors.New("failed")
	}}
	reg := newRegistry(t, ok, bad)
	res := reg.Execute(context.Background(), call("ok"))
	if !res.ConcludesTurn || len(res.AdditionalContexts) != 1 || res.AdditionalContexts[0].Source != "plugin:x" {
		t.Fatalf("ok: %+v", res)
	}
	// A failure never concludes the turn; a block turns a concluding success into a failure.
	if res := reg.Execute(context.Background(), call("bad")); res.ConcludesTurn || len(res.AdditionalContexts) != 1 {
		t.Fatalf("bad: %+v", res)
	}
	reg.OnPostExecute(func(context.Context, registry.Execution, registry.Result, func() registry.PostDecision) registry.PostDecision {
		return registry.Block(registry.TextContent("blocked"))
	})
	if res := reg.Execute(context.Background(), call("ok")); res.ConcludesTurn || !res.IsError {
		t.Fatalf("blocked: %+v", res)
	}
}

func TestTimeout(t *testing.T) {
	sleepy := registry.Tool{Name: "sleepy", Output: registry.AnyOutput(), Timeout: 50 * time.Millisecond,
		Execute: func(ctx context.Context, _ *registry.Invocation) (jsonv.Value, error) {
			<-ctx.Done()
			return jsonv.Value{}, ctx.Err()
		}}
	reg := newRegistry(t, sleepy)
	start := time.Now()
	res := reg.Execute(context.Background(), call("sleepy"))
	if !errors.Is(res.Err, registry.CodeTimeout) || text(res) != `Error: tool "sleepy" timed out after 50ms` {
		t.Fatalf("result %q (%v)", text(res), res.Err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatalf("timeout took %v", time.Since(start))
	}
}

func TestPresentationMetaOnlyForTopLevelCalls(t *testing.T) {
	tool := registry.Tool{Name: "m", Output: registry.Output{Schema: jsonv.MustParse(`{}`), Render: registry.RenderValue,
		PresentationMeta: func(args, v jsonv.Value) jsonv.Value { return jsonv.StringValue("meta") }},
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) { return jsonv.Int(1), nil }}
	var outer registry.Token
	parent := registry.Tool{Name: "p", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		outer = inv.Token
		return jsonv.NullValue(), nil
	}}
	reg := newRegistry(t, tool, parent)
	if res := reg.Execute(context.Background(), call("m")); res.Meta.AsString() != "meta" {
		t.Fatalf("top-level meta = %v", res.Meta)
	}
	reg.Execute(context.Background(), call("p"))
	nested := call("m")
	nested.Parent = outer
	if res := reg.Execute(context.Background(), nested); res.Meta.IsDefined() {
		t.Fatalf("nested meta = %v", res.Meta)
	}
}

func TestStagedExecutionMatchesExecute(t *testing.T) {
	var body counter
	reg := newRegistry(t, body.tool("t"))
	p := reg.Prepare(context.Background(), call("t"))
	if !p.NeedsDispatch() || p.Execution().Token.IsZero() || body.count() != 0 {
		t.Fatalf("prepared: %+v", p.Execution())
	}
	done := make(chan struct{})
	go func() { p.Dispatch(); close(done) }()
	<-done
	if res := p.Finish(); text(res) != "ran" || body.count() != 1 {
		t.Fatalf("finish: %q", text(res))
	}
	// A denied call has nothing to dispatch; Finish still applies post-execute.
	reg.Guard(func(registry.Execution) string { return "denied" })
	p = reg.Prepare(context.Background(), call("t"))
	if p.NeedsDispatch() {
		t.Fatal("denied call needs dispatch")
	}
	p.Dispatch()
	if res := p.Finish(); text(res) != "Error: denied" || body.count() != 1 {
		t.Fatalf("denied: %q", text(res))
	}
}

func TestUnknownToolGoesThroughThePipeline(t *testing.T) {
	reg := registry.New()
	var observed []string
	reg.OnResult(func(exec registry.Execution, res registry.Result) { observed = append(observed, exec.Name) })
	res := reg.Execute(context.Background(), call("ghost"))
	if !errors.Is(res.Err, registry.CodeUnknownTool) || res.Err.Name != "ToolNotFoundError" || len(observed) != 1 {
		t.Fatalf("result %+v, observed %v", res.Err, observed)
	}
}

// cyclicNode is an output type whose values can contain a cycle.
type cyclicNode struct {
	Name string      `json:"name"`
	Next *cyclicNode `json:"next,omitempty"`
}

func TestNonJSONOutputsAreInvalidToolOutput(t *testing.T) {
	loop := &cyclicNode{Name: "a"}
	loop.Next = loop
	cyclic := registry.MustDefine(registry.TypedTool[struct{}, *cyclicNode]{
		Name:    "cyclic",
		Execute: func(context.Context, *registry.Invocation, struct{}) (*cyclicNode, error) { return loop, nil },
	})
	nan := registry.MustDefine(registry.TypedTool[struct{}, float64]{
		Name:    "nan",
		Execute: func(context.Context, *registry.Invocation, struct{}) (float64, error) { return typedNaN(), nil },
	})
	reg := newRegistry(t, cyclic, nan)
	for _, name := range []string{"cyclic", "nan"} {
		res := reg.Execute(context.Background(), call(name))
		if !errors.Is(res.Err, registry.CodeInvalidToolOutput) || !strings.HasPrefix(res.Err.Message, `tool "`+name+`" returned invalid output: `) {
			t.Errorf("%s: %+v", name, res.Err)
		}
	}
}

// TestCancelDuringPostExecuteAborts: a success whose caller was cancelled while post-execute
// ran stayed a success; the caller was cancelled before the result was final, so the call
// ends ABORTED (with the cause), and the observers see that result.
func TestCancelDuringPostExecuteAborts(t *testing.T) {
	reg := newRegistry(t, echoTool())
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("user pressed stop")
	reg.OnPostExecute(func(_ context.Context, _ registry.Execution, _ registry.Result, next func() registry.PostDecision) registry.PostDecision {
		cancel(stop)
		return next()
	})
	var observed registry.Result
	reg.OnResult(func(_ registry.Execution, res registry.Result) { observed = res })
	res := reg.Execute(ctx, registry.Call{CallID: "c", Name: "echo", Arguments: jsonv.MustParse(`{"value":"x"}`)})
	if !res.IsError || !errors.Is(res.Err, registry.CodeAborted) || !errors.Is(res.Err, stop) ||
		registry.TextOf(res.Content) != "Error: tool call aborted" || res.Value.IsDefined() {
		t.Fatalf("result = %+v", res)
	}
	if !observed.IsError || !errors.Is(observed.Err, registry.CodeAborted) {
		t.Fatalf("observers saw %+v", observed)
	}
}

// TestRequiresApprovalAsksTheApprover: a tool marked RequiresApproval runs only when the
// Approver allows the call; otherwise it is denied with APPROVAL_DENIED and its body never runs.
// A pre-execute listener may deny it first, but an Allow does not waive the approval.
func TestRequiresApprovalAsksTheApprover(t *testing.T) {
	cases := []struct {
		name     string
		approver registry.Approver
		listener registry.PreExecuteFunc
		want     string
	}{
		{"no approver", nil, nil, `Error: tool "t" requires approval (not yet supported)`},
		{"allowed", answer(registry.AllowedOnce), nil, "ran"},
		{"rejected", answer(registry.Rejected), nil, `Error: the user rejected tool "t"`},
		{"an explaining approver says why", explained{registry.Unavailable, "the client cannot ask a person"}, nil, "Error: the client cannot ask a person"},
		{"an explaining approver's plain denial", explained{registry.Cancelled, ""}, nil, `Error: approval for tool "t" was cancelled`},
		{"an explaining approver allows", explained{registry.AllowedOnce, "ignored"}, nil, "ran"},
		{"an Allow does not waive it", answer(registry.Rejected), func(context.Context, registry.Execution, func() registry.PreDecision) registry.PreDecision {
			return registry.Allow()
		}, `Error: the user rejected tool "t"`},
		{"a policy denies first", answer(registry.AllowedOnce), func(context.Context, registry.Execution, func() registry.PreDecision) registry.PreDecision {
			return registry.Deny("policy says no")
		}, "Error: policy says no"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body counter
			tool := body.tool("t")
			tool.RequiresApproval = true
			reg := newRegistry(t, tool)
			reg.SetApprover(c.approver)
			if c.listener != nil {
				reg.OnPreExecute(c.listener)
			}
			cl := call("t")
			cl.Scope = reg.NewScope("agent", nil)
			res := reg.Execute(context.Background(), cl)
			if got := text(res); got != c.want {
				t.Fatalf("result %q, want %q", got, c.want)
			}
			if ran := body.count() == 1; ran != (c.want == "ran") {
				t.Fatalf("body ran %d times", body.count())
			}
			wantCode := registry.CodeApprovalDenied
			if c.listener != nil && c.want == "Error: policy says no" {
				wantCode = ""
			}
			if res.IsError && res.Err.Code != wantCode {
				t.Errorf("code %q, want %q", res.Err.Code, wantCode)
			}
		})
	}
}

// explained is an ExplainingApprover with a fixed answer and explanation.
type explained struct {
	answer registry.Approval
	why    string
}

func (e explained) Approve(context.Context, registry.Execution, string) registry.Approval {
	panic("the registry asked Approve of an ExplainingApprover")
}

func (e explained) ApproveExplained(context.Context, registry.Execution, string) (registry.Approval, string) {
	return e.answer, e.why
}

// TestDenialMessageIsTheRegistrys: DenialMessage gives the message the registry uses when an
// Approver explains nothing, so an explanation that only adds to it can start with it.
func TestDenialMessageIsTheRegistrys(t *testing.T) {
	for _, a := range []registry.Approval{registry.Rejected, registry.Cancelled, registry.Unavailable} {
		var body counter
		tool := body.tool("t")
		tool.RequiresApproval = true
		reg := newRegistry(t, tool)
		reg.SetApprover(answer(a))
		cl := call("t")
		cl.Scope = reg.NewScope("agent", nil)
		if got, want := text(reg.Execute(context.Background(), cl)), "Error: "+registry.DenialMessage("t", a); got != want {
			t.Errorf("answer %d: %q, want %q", a, got, want)
		}
	}
}
