package codemode_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// subSetup is a registry with run_code (configured by opts, Runtime filled in) and tools.
func subSetup(t testing.TB, opts codemode.Options, tools ...registry.Tool) *registry.Registry {
	t.Helper()
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return installOn(t, rt, opts, tools...)
}

// installOn is a registry with tools and run_code on rt (configured by opts, Runtime filled
// in), presenting code.
func installOn(t testing.TB, rt jsruntime.Runtime, opts codemode.Options, tools ...registry.Tool) *registry.Registry {
	t.Helper()
	reg := registry.New()
	if _, err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	opts.Runtime = rt
	if err := codemode.Install(reg, opts); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		t.Fatal(err)
	}
	return reg
}

func subRun(ctx context.Context, reg *registry.Registry, code string) registry.Result {
	return reg.Execute(ctx, codemode.Call("call-1", code, "Test sub-calls"))
}

// subGate is a tool whose bodies block until released, counting how many run at once.
type subGate struct {
	mu      sync.Mutex
	active  int
	peak    int
	order   []string
	started chan string
	release chan struct{}
}

func newSubGate() *subGate {
	return &subGate{started: make(chan string, 100), release: make(chan struct{}, 100)}
}

func (g *subGate) tool(name string, safe bool) registry.Tool {
	t := registry.Tool{Name: name, Output: registry.AnyOutput(), Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		id := inv.Arguments.Lookup("id").AsString()
		g.mu.Lock()
		g.active++
		g.peak = max(g.peak, g.active)
		g.order = append(g.order, id)
		g.mu.Unlock()
		g.started <- id
		select {
		case <-g.release:
		case <-ctx.Done():
		}
		g.mu.Lock()
		g.active--
		g.mu.Unlock()
		return jsonv.StringValue(id), nil
	}}
	if safe {
		t.ConcurrencySafe = func(jsonv.Value) bool { return true }
	}
	return t
}

// drive lets n bodies through, batch at a time, checking that no more than batch start
// before the test releases them.
func (g *subGate) drive(t *testing.T, n, batch int) {
	t.Helper()
	for done := 0; done < n; {
		k := min(batch, n-done)
		for range k {
			select {
			case <-g.started:
			case <-time.After(5 * time.Second):
				t.Fatal("timed out waiting for a sub-call to start")
			}
		}
		select {
		case id := <-g.started:
			t.Fatalf("sub-call %s started beyond the limit of %d", id, batch)
		case <-time.After(30 * time.Millisecond):
		}
		for range k {
			g.release <- struct{}{}
		}
		done += k
	}
}

func TestSubCallsUnderPromiseAllOverlapUpToMaxParallelSubCalls(t *testing.T) {
	for _, tc := range []struct{ max, calls, peak int }{{0, 3, 3}, {2, 4, 2}, {1, 3, 1}} {
		t.Run(fmt.Sprintf("max=%d", tc.max), func(t *testing.T) {
			g := newSubGate()
			reg := subSetup(t, codemode.Options{MaxParallelSubCalls: tc.max}, g.tool("read", true))
			code := fmt.Sprintf(`const ids = Array.from({length: %d}, (_, i) => String(i + 1));
return (await Promise.all(ids.map(id => tools.read({id})))).join(",")`, tc.calls)
			done := make(chan registry.Result, 1)
			go func() { done <- subRun(context.Background(), reg, code) }()
			g.drive(t, tc.calls, tc.peak)
			res := <-done
			want := []string{"1,2,3"}
			if tc.calls == 4 {
				want = []string{"1,2,3,4"}
			}
			if res.IsError || registry.TextOf(res.Content) != want[0] {
				t.Fatalf("result = %s", registry.TextOf(res.Content))
			}
			if g.peak != tc.peak {
				t.Fatalf("peak = %d, want %d", g.peak, tc.peak)
			}
		})
	}
}

func TestSubCallsToAnUnsafeToolUnderPromiseAllRunOneAtATimeInOrder(t *testing.T) {
	g := newSubGate()
	reg := subSetup(t, codemode.Options{}, g.tool("write", false))
	done := make(chan registry.Result, 1)
	go func() {
		done <- subRun(context.Background(), reg, `await Promise.all(["1", "2", "3"].map(id => tools.write({id})))`)
	}()
	g.drive(t, 3, 1)
	if res := <-done; res.IsError {
		t.Fatal(registry.TextOf(res.Content))
	}
	if g.peak != 1 || !slices.Equal(g.order, []string{"1", "2", "3"}) {
		t.Fatalf("peak = %d, order = %v", g.peak, g.order)
	}
}

// TestMaxParallelZeroMeansDefault: MaxParallelSubCalls 0 is the Go zero value and means the
// default, dispatch.DefaultMaxParallel (the upstream rejects 0; see the DECISIONS row): 12 safe
// calls under Promise.all run 10 at a time. A negative value was refused with the upstream's
// "must be a positive integer", which 0 contradicts; the message now says what is accepted.
func TestMaxParallelZeroMeansDefault(t *testing.T) {
	g := newSubGate()
	reg := subSetup(t, codemode.Options{MaxParallelSubCalls: 0}, g.tool("read", true))
	done := make(chan registry.Result, 1)
	go func() {
		done <- subRun(context.Background(), reg, `return (await Promise.all(Array.from({length: 12}, (_, i) => tools.read({id: String(i)})))).length`)
	}()
	g.drive(t, 12, dispatch.DefaultMaxParallel)
	if res := <-done; res.IsError || registry.TextOf(res.Content) != "12" {
		t.Fatalf("result = %s", registry.TextOf(res.Content))
	}
	if g.peak != dispatch.DefaultMaxParallel {
		t.Fatalf("peak = %d, want %d", g.peak, dispatch.DefaultMaxParallel)
	}

	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	err = codemode.Install(registry.New(), codemode.Options{Runtime: rt, MaxParallelSubCalls: -1})
	if err == nil || err.Error() != "maxParallelSubCalls must be a positive integer, or 0 for the default (10); got -1" {
		t.Fatalf("err = %v", err)
	}
}

func TestSubCallResultsReachTheModelThroughTheOuterResult(t *testing.T) {
	img := registry.Content{Type: "image", Data: "AAAA", MimeType: "image/png"}
	shot := []registry.Content{registry.TextContent("a screenshot"), img}
	note := func(s string) registry.ContextMessage {
		return registry.ContextMessage{Source: "tool", Content: []registry.Content{registry.TextContent(s)}}
	}
	reg := subSetup(t, codemode.Options{},
		registry.Tool{Name: "shot", Output: registry.Output{Schema: jsonv.ObjectValue(), Render: func(_, _ jsonv.Value) []registry.Content { return shot }},
			Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
				return jsonv.StringValue("shot"), nil
			}},
		registry.Tool{Name: "notes", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			inv.DeferContext(note("first"))
			inv.DeferContext(note("second"))
			return jsonv.StringValue("notes"), nil
		}},
		registry.Tool{Name: "finish", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			inv.ConcludeTurn()
			if inv.Arguments.Lookup("fail").AsBool() {
				return jsonv.Value{}, fmt.Errorf("refused")
			}
			return jsonv.StringValue("finished"), nil
		}},
	)
	res := subRun(context.Background(), reg, `const s = await tools.shot({}); const n = await tools.notes({});
try { await tools.finish({fail: true}) } catch (e) { console.log(e.message) }
return s + "+" + n`)
	if res.IsError || registry.TextOf(res.Content) != "refused\nshot+notes" || res.ConcludesTurn {
		t.Fatalf("result = %+v", res)
	}
	want := []registry.ContextMessage{{Source: dispatch.ContextSource, Content: shot}, note("first"), note("second")}
	if fmt.Sprint(res.AdditionalContexts) != fmt.Sprint(want) {
		t.Fatalf("contexts = %+v, want %+v", res.AdditionalContexts, want)
	}
	if res := subRun(context.Background(), reg, `await tools.finish({})`); res.IsError || !res.ConcludesTurn {
		t.Fatalf("result = %+v, want it to conclude the turn", res)
	}
}

func TestDispatchLogShapesTheSettleEvents(t *testing.T) {
	var mu sync.Mutex
	var events []string
	reg := subSetup(t, codemode.Options{
		Events: func(e bridge.Event) {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, e.Value().String())
		},
		DispatchLog: []bridge.LogFunc{func(_ context.Context, e bridge.LogEntry, next func() []registry.Content) []registry.Content {
			return []registry.Content{registry.TextContent(strings.ToUpper(registry.TextOf(next())))}
		}},
	}, registry.Tool{Name: "echo", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		return jsonv.StringValue("echo:" + inv.Arguments.Lookup("value").AsString()), nil
	}})
	res := subRun(context.Background(), reg, `return await tools.echo({value: "x"})`)
	if registry.TextOf(res.Content) != "echo:x" {
		t.Fatalf("result = %s", registry.TextOf(res.Content))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 2 || !strings.Contains(events[1], `"isError":false,"content":[{"type":"text","text":"ECHO:X"}],`) ||
		!strings.HasSuffix(events[1], `,"result":"echo:x"}`) {
		t.Fatalf("events:\n%s", strings.Join(events, "\n"))
	}
}

// BenchmarkSubCallPromiseAll is 1,000 concurrency-safe sub-calls in one Promise.all in one run
// (at most 10 bodies at once); divide by 1,000 for the cost per sub-call.
func BenchmarkSubCallPromiseAll(b *testing.B) {
	reg := subSetup(b, codemode.Options{}, registry.Tool{
		Name:            "echo",
		Description:     "Return the arguments.",
		Parameters:      jsonv.MustParse(`{"type":"object","properties":{"x":{"type":"number"}}}`),
		Output:          registry.OutputOf(jsonv.MustParse(`{"type":"object"}`)),
		Execute:         func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) { return inv.Arguments, nil },
		ConcurrencySafe: func(jsonv.Value) bool { return true },
	})
	code := `const r = await Promise.all(Array.from({length: 1000}, (_, i) => tools.echo({x: i}))); return r.length`
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := subRun(ctx, reg, code); res.IsError || registry.TextOf(res.Content) != "1000" {
			b.Fatal(registry.TextOf(res.Content))
		}
	}
}

// Options.Console gets each console line of a run as the program writes it, with the run_code
// call's id, before the call returns: the lines are there even when the run fails.
func TestConsoleGetsLinesAsTheyAreWritten(t *testing.T) {
	var got []string // Console is called on the run's loop goroutine, before Execute returns
	reg := subSetup(t, codemode.Options{Console: func(callID, line string) { got = append(got, callID+": "+line) }})
	res := subRun(context.Background(), reg, `console.log("a"); console.error("b", 1); throw new Error("boom")`)
	if !res.IsError || !strings.Contains(registry.TextOf(res.Content), "boom") {
		t.Fatalf("result %s", registry.TextOf(res.Content))
	}
	if want := []string{"call-1: a", "call-1: b 1"}; !slices.Equal(got, want) {
		t.Fatalf("console %q, want %q", got, want)
	}
}
