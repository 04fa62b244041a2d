package mcpserve_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcpserve"
	"github.com/runcode-dev/runcode/registry"
)

type dangerIn struct {
	N int `json:"n"`
}

// approvalRegistry has count (no approval) and danger (needs approval), each counting its runs,
// and pad (1,000 characters), with mcpserve.Approver installed; it returns the scope to serve.
func approvalRegistry(t *testing.T, counted, dangered *atomic.Int64) (*registry.Registry, *registry.Scope) {
	t.Helper()
	reg := registry.New()
	danger := registry.MustDefine(registry.TypedTool[dangerIn, int]{
		Name: "danger", Description: "Do something that needs approval.",
		Execute: func(_ context.Context, _ *registry.Invocation, in dangerIn) (int, error) {
			dangered.Add(1)
			return in.N * 10, nil
		},
	})
	danger.RequiresApproval = true
	count := registry.MustDefine(registry.TypedTool[struct{}, int]{
		Name: "count", Description: "Count.",
		Execute: func(context.Context, *registry.Invocation, struct{}) (int, error) {
			return int(counted.Add(1)), nil
		},
	})
	pad := registry.MustDefine(registry.TypedTool[struct{}, string]{
		Name: "pad", Description: "Return 1,000 characters.",
		Execute: func(context.Context, *registry.Invocation, struct{}) (string, error) {
			return strings.Repeat("x", 1000), nil
		},
	})
	if _, err := reg.Register(danger, count, pad); err != nil {
		t.Fatal(err)
	}
	installCodeMode(t, reg, jsruntime.Config{}, codemode.Options{})
	reg.SetApprover(mcpserve.Approver())
	return reg, reg.NewScope("agent", nil)
}

// The Go SDK's client speaks protocol 2026-07-28, so approvals are in-band: a program that needs
// two approvals takes three rounds, each replaying the calls already made from the request
// state; every tool runs exactly once, and the person is asked once per call.
func TestServerInBandApprovalsReplay(t *testing.T) {
	var counted, dangered atomic.Int64
	reg, scope := approvalRegistry(t, &counted, &dangered)
	var mu sync.Mutex
	var asked []string
	cs := srvConnect(t, reg, mcpserve.ServerOptions{Scope: scope}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := srvCallRunCode(ctx, cs, `const c = await tools.count({});
const a = await tools.danger({ n: 1 });
const b = await tools.danger({ n: 2 });
return c + " " + a + " " + b;`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(srvTexts(res), ""); res.IsError || got != "1 10 20" {
		t.Fatalf("the run: isError %v, %q", res.IsError, got)
	}
	if counted.Load() != 1 || dangered.Load() != 2 {
		t.Errorf("count ran %d times (want 1), danger %d (want 2)", counted.Load(), dangered.Load())
	}
	if len(asked) != 2 || !strings.Contains(asked[0], `"n": 1`) || !strings.Contains(asked[1], `"n": 2`) {
		t.Errorf("the questions: %q", asked)
	}
}

// A declined call is recorded with its denial: a later round gives the program the same
// APPROVAL_DENIED without asking again, and the rounds go on to the next question.
func TestServerInBandDenialIsReplayed(t *testing.T) {
	var counted, dangered atomic.Int64
	reg, scope := approvalRegistry(t, &counted, &dangered)
	var asked atomic.Int64
	cs := srvConnect(t, reg, mcpserve.ServerOptions{Scope: scope}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			if strings.Contains(req.Params.Message, `"n": 1`) {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := srvCallRunCode(ctx, cs, `let a;
try { a = await tools.danger({ n: 1 }); } catch (e) { a = e.message; }
const b = await tools.danger({ n: 2 });
const c = await tools.danger({ n: 3 });
return a + "|" + b + "|" + c;`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(srvTexts(res), ""); res.IsError || got != `the user declined tool "danger"|20|30` {
		t.Fatalf("the run: isError %v, %q", res.IsError, got)
	}
	if dangered.Load() != 2 || asked.Load() != 3 {
		t.Errorf("danger ran %d times (want 2); asked %d times (want 3)", dangered.Load(), asked.Load())
	}
}

// A call approved in-band that a guard then denies settles all the same: the rounds go on,
// and later rounds give the program the guard's denial again without asking.
func TestServerInBandApprovedCallDeniedByAGuard(t *testing.T) {
	var counted, dangered atomic.Int64
	reg, scope := approvalRegistry(t, &counted, &dangered)
	scope.Guard(func(exec registry.Execution) string {
		if exec.Name == "danger" && exec.Arguments.Lookup("n").String() == "1" {
			return "the guard says no"
		}
		return ""
	})
	var asked atomic.Int64
	cs := srvConnect(t, reg, mcpserve.ServerOptions{Scope: scope}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := srvCallRunCode(ctx, cs, `const r = await Promise.allSettled([tools.danger({ n: 1 }), tools.danger({ n: 2 })]);
return r.map((x) => x.status === "fulfilled" ? x.value : x.reason.message).join("|");`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(srvTexts(res), ""); res.IsError || got != "the guard says no|20" {
		t.Fatalf("the run: isError %v, %q", res.IsError, got)
	}
	if dangered.Load() != 1 || asked.Load() != 2 {
		t.Errorf("danger ran %d times (want 1); asked %d times (want 2)", dangered.Load(), asked.Load())
	}
}

// Calls made at once that need approval are asked about one per round; a call approved in one
// round finishes before the run stops for the next question, so it is recorded and runs once.
func TestServerInBandApprovalsOfParallelCalls(t *testing.T) {
	var counted, dangered atomic.Int64
	reg, scope := approvalRegistry(t, &counted, &dangered)
	var asked atomic.Int64
	cs := srvConnect(t, reg, mcpserve.ServerOptions{Scope: scope}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := srvCallRunCode(ctx, cs, `const r = await Promise.all([tools.count({}), tools.danger({ n: 1 }), tools.danger({ n: 2 }), tools.danger({ n: 3 })]);
return r.join(" ");`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(srvTexts(res), ""); res.IsError || got != "1 10 20 30" {
		t.Fatalf("the run: isError %v, %q", res.IsError, got)
	}
	if counted.Load() != 1 || dangered.Load() != 3 || asked.Load() != 3 {
		t.Errorf("count ran %d times (want 1), danger %d (want 3); asked %d times (want 3)", counted.Load(), dangered.Load(), asked.Load())
	}
}

// A request state that would not fit one reply (ServerOptions.MaxReplyBytes) is not sent: the
// call fails saying why and how else to approve, and the tool does not run.
func TestServerInBandStateOverTheReplyLimit(t *testing.T) {
	var counted, dangered atomic.Int64
	reg, scope := approvalRegistry(t, &counted, &dangered)
	var asked atomic.Int64
	cs := srvConnect(t, reg, mcpserve.ServerOptions{Scope: scope, MaxReplyBytes: 16 << 10}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Twenty calls of pad, each recorded with its result of 1,000 characters.
	res, err := srvCallRunCode(ctx, cs, `for (let i = 0; i < 20; i++) await tools.pad({});
return await tools.danger({ n: 1 });`)
	if err != nil {
		t.Fatal(err)
	}
	want := `tool "danger" needs approval, but the results of the 20 calls made before it take`
	if got := strings.Join(srvTexts(res), ""); !res.IsError || !strings.Contains(got, want) || !strings.Contains(got, "--approve danger") {
		t.Fatalf("the run: isError %v, %q, want %q", res.IsError, got, want)
	}
	if asked.Load() != 0 || dangered.Load() != 0 {
		t.Errorf("asked %d times, danger ran %d times", asked.Load(), dangered.Load())
	}
}

// A client that declared no elicitation capability gets the denial at once, as a
// ToolCallError with the code APPROVAL_DENIED that names the tool and says how to approve it.
func TestServerDeniesWithoutElicitation(t *testing.T) {
	var counted, dangered atomic.Int64
	reg, scope := approvalRegistry(t, &counted, &dangered)
	cs := srvConnect(t, reg, mcpserve.ServerOptions{Scope: scope}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := srvCallRunCode(ctx, cs, `try { await tools.danger({ n: 1 }); return "ran"; } catch (e) { return e.name + ": " + e.message; }`)
	if err != nil {
		t.Fatal(err)
	}
	want := `ToolCallError: tool "danger" requires approval, but this MCP client cannot ask a person`
	if got := strings.Join(srvTexts(res), ""); !strings.Contains(got, want) || !strings.Contains(got, "--approve danger") {
		t.Fatalf("the run: %q, want %q", got, want)
	}
	if dangered.Load() != 0 {
		t.Errorf("danger ran")
	}
}
