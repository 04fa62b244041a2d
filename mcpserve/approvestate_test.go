package mcpserve_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/mcpserve"
	"github.com/runcode-dev/runcode/registry"
)

// stateApprovalRegistry is approvalRegistry's danger tool (it needs approval) with a codemode
// whose state is kept in store.
func stateApprovalRegistry(t *testing.T, store codemode.StateStore, dangered *atomic.Int64) (*registry.Registry, *registry.Scope) {
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
	if _, err := reg.Register(danger); err != nil {
		t.Fatal(err)
	}
	installCodeMode(t, reg, jsruntime.Config{}, codemode.Options{State: store})
	reg.SetApprover(mcpserve.Approver())
	return reg, reg.NewScope("agent", nil)
}

// stateValue reads key of the scope "" of store as JSON text ("" when missing).
func stateValue(t *testing.T, store codemode.StateStore, key string) string {
	t.Helper()
	v, ok, err := store.Get(context.Background(), "", key)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return ""
	}
	return string(v)
}

// countingProgram counts its runs in state before two calls that need approval, so an in-band
// run takes three rounds; it records what it read and what each call answered.
const countingProgram = `const n = ((await state.get("n")) ?? 0) + 1;
await state.set("n", n);
const log = (await state.get("log")) ?? [];
let a, b;
try { a = await tools.danger({ n: 1 }); } catch (e) { a = e.code; }
await state.set("log", [...log, "a:" + a]);
try { b = await tools.danger({ n: 2 }); } catch (e) { b = e.code; }
await state.set("after", ((await state.get("after")) ?? 0) + 1);
await state.delete("gone");
return n + " " + a + " " + b + " " + JSON.stringify(await state.keys());`

// A run that needs approval rounds has the effect on state of one run: the rounds before the
// last replay the state operations already done (a get answers what it answered in the first
// round, a set or delete done is not done again), so a counter is incremented once, whether
// the person accepts or declines, and the operations after an approved call happen once too.
func TestServerInBandStateIsChangedOnce(t *testing.T) {
	for _, c := range []struct {
		answer, want string
		dangered     int64
	}{
		{"accept", `1 10 20 ["after","log","n"]`, 2},
		{"decline", `1 APPROVAL_DENIED APPROVAL_DENIED ["after","log","n"]`, 0},
	} {
		t.Run(c.answer, func(t *testing.T) {
			store := codemode.NewMemoryStore(0)
			if err := store.Set(context.Background(), "", "gone", []byte(`true`)); err != nil {
				t.Fatal(err)
			}
			var dangered atomic.Int64
			reg, scope := stateApprovalRegistry(t, store, &dangered)
			var asked atomic.Int64
			cs := srvConnect(t, reg, mcpserve.ServerOptions{Scope: scope}, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked.Add(1)
					return &mcp.ElicitResult{Action: c.answer, Content: map[string]any{}}, nil
				},
			})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, err := srvCallRunCode(ctx, cs, countingProgram)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(srvTexts(res), ""); res.IsError || got != c.want {
				t.Fatalf("the run: isError %v, %q, want %q", res.IsError, got, c.want)
			}
			if asked.Load() != 2 || dangered.Load() != c.dangered {
				t.Errorf("asked %d times (want 2), danger ran %d times (want %d)", asked.Load(), dangered.Load(), c.dangered)
			}
			wantLog := `["a:10"]`
			if c.answer == "decline" {
				wantLog = `["a:APPROVAL_DENIED"]`
			}
			for key, want := range map[string]string{"n": "1", "after": "1", "log": wantLog, "gone": ""} {
				if got := stateValue(t, store, key); got != want {
					t.Errorf("state %q is %q after one run of three rounds, want %q", key, got, want)
				}
			}
			// A second run sees the first one's writes and adds one run's worth.
			res, err = srvCallRunCode(ctx, cs, countingProgram)
			if err != nil {
				t.Fatal(err)
			}
			if got := stateValue(t, store, "n"); res.IsError || got != "2" {
				t.Errorf("after a second run: isError %v (%q), n is %q, want 2", res.IsError, srvTexts(res), got)
			}
		})
	}
}

// A retry reads what the first round read, even when another run changed the value in between
// (here the elicitation handler, standing for another session): the approved call gets the
// arguments the person approved, and the program's count goes on from the value it read.
func TestServerInBandStateReplayReadsTheFirstRound(t *testing.T) {
	store := codemode.NewMemoryStore(0)
	if err := store.Set(context.Background(), "", "v", []byte(`1`)); err != nil {
		t.Fatal(err)
	}
	var dangered atomic.Int64
	reg, scope := stateApprovalRegistry(t, store, &dangered)
	cs := srvConnect(t, reg, mcpserve.ServerOptions{Scope: scope}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if err := store.Set(context.Background(), "", "v", []byte(`5`)); err != nil {
				return nil, err
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := srvCallRunCode(ctx, cs, `const v = await state.get("v");
const r = await tools.danger({ n: v });
await state.set("v", v + 1);
return v + " " + r;`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(srvTexts(res), ""); res.IsError || got != "1 10" {
		t.Fatalf("the run: isError %v, %q, want %q", res.IsError, got, "1 10")
	}
	if got := stateValue(t, store, "v"); dangered.Load() != 1 || got != "2" {
		t.Errorf("danger ran %d times (want 1); v is %q, want 2 (the run's write after the approval)", dangered.Load(), got)
	}
}

// A large value written before the call that needs approval is recorded by its digest, so the
// request state stays small; the retry recognises the write and does not do it again.
func TestServerInBandStateRecordsLargeWritesByDigest(t *testing.T) {
	store := codemode.NewMemoryStore(0)
	var dangered atomic.Int64
	reg, scope := stateApprovalRegistry(t, store, &dangered)
	cs := srvConnect(t, reg, mcpserve.ServerOptions{Scope: scope}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	params := &mcp.CallToolParams{Name: "run_code", Arguments: map[string]any{"description": "Run a test program", "code": `const n = ((await state.get("n")) ?? 0) + 1;
await state.set("n", n);
await state.set("big", "x".repeat(20000) + n);
return await tools.danger({ n });`}}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if !res.NeedsInput() || len(res.RequestState) > 2000 {
		t.Fatalf("the first round: needs input %v, a request state of %d bytes (want a question and at most 2,000 bytes)", res.NeedsInput(), len(res.RequestState))
	}
	if err := store.Delete(context.Background(), "", "big"); err != nil { // the retry must not write it again
		t.Fatal(err)
	}
	retry := *params
	retry.RequestState = res.RequestState
	retry.InputResponses = mcp.InputResponseMap{"approval": &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}}
	res, err = cs.CallTool(ctx, &retry)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(srvTexts(res), ""); res.IsError || got != "10" {
		t.Fatalf("the retry: isError %v, %q", res.IsError, got)
	}
	if n, big := stateValue(t, store, "n"), stateValue(t, store, "big"); n != "1" || big != "" {
		t.Errorf("after the retry n is %q (want 1) and big has %d bytes (want none: written once, in the first round)", n, len(big))
	}
}
