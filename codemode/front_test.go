package codemode_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// newCodeMode returns Code Mode on a real goja runtime in a registry holding tools, presented
// as code.
func newCodeMode(t *testing.T, opts codemode.Options, tools ...registry.Tool) *codemode.CodeMode {
	t.Helper()
	reg := registry.New()
	if _, err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	opts.Runtime = rt
	cm, err := codemode.New(reg, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		t.Fatal(err)
	}
	return cm
}

func frontEcho() registry.Tool {
	return registry.Tool{
		Name:       "echo",
		Parameters: jsonv.MustParse(`{"type":"object","properties":{"value":{"type":"string"}},"required":["value"]}`),
		Output:     registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			return jsonv.StringValue("echo:" + inv.Arguments.Lookup("value").AsString()), nil
		},
		ConcurrencySafe: func(jsonv.Value) bool { return true },
	}
}

// Run returns what the model reads, the logs, the value and the full result of a success; a
// failed program is an Outcome with a typed Failure and no error.
func TestRunOutcome(t *testing.T) {
	cm := newCodeMode(t, codemode.Options{}, frontEcho())
	ctx := context.Background()
	out, err := cm.Run(ctx, codemode.Program{Code: `console.log("hi"); return { got: await tools.echo({ value: "x" }) }`, Description: "Echo x"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "hi\n{\n  \"got\": \"echo:x\"\n}" || !slices.Equal(out.Logs, []string{"hi"}) ||
		string(jsonv.AppendJSON(nil, out.Value)) != `{"got":"echo:x"}` || out.Failure != nil || out.Result.IsError {
		t.Fatalf("outcome %+v", out)
	}

	out, err = cm.Run(ctx, codemode.Program{Code: `console.log("before"); throw new Error("boom")`})
	if err != nil {
		t.Fatalf("a failed program is no error of Run: %v", err)
	}
	if out.Failure == nil || out.Failure.Kind != codemode.KindException || !strings.Contains(out.Failure.Message, "boom") ||
		!slices.Equal(out.Logs, []string{"before"}) || out.Value.IsDefined() || !strings.HasPrefix(out.Text, "Error: code run failed (exception)") {
		t.Fatalf("failure outcome %+v", out)
	}
	if codemode.KindOf(out.Result.Err) != codemode.KindException {
		t.Errorf("KindOf = %q", codemode.KindOf(out.Result.Err))
	}
}

// A call that runs no program is Run's error, the registry's, with its kind.
func TestRunErrorWhenNoProgramRan(t *testing.T) {
	cm := newCodeMode(t, codemode.Options{}, frontEcho())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := cm.Run(ctx, codemode.Program{Code: `return 1`})
	var rerr *registry.Error
	if !errors.As(err, &rerr) || codemode.KindOf(err) != codemode.KindAbort {
		t.Fatalf("err %v (kind %q), want an abort", err, codemode.KindOf(err))
	}
	if !out.Result.IsError || !strings.HasPrefix(out.Text, "Error: ") {
		t.Errorf("outcome %+v", out)
	}
	// Every registry policy applies: a pre-execute hook that denies run_code denies Run.
	cm.Registry().OnPreExecute(func(_ context.Context, e registry.Execution, next func() registry.PreDecision) registry.PreDecision {
		if e.Name == registry.ReservedName {
			return registry.Deny("no programs today")
		}
		return next()
	})
	if _, err := cm.Run(context.Background(), codemode.Program{Code: `return 1`}); err == nil || !strings.Contains(err.Error(), "no programs today") {
		t.Errorf("a denied call: %v", err)
	}
}

// Outcome.Text is what the model reads: held to the output budget.
func TestRunTextIsBudgeted(t *testing.T) {
	cm := newCodeMode(t, codemode.Options{OutputBudget: codemode.MinOutputBudget}, frontEcho())
	out, err := cm.Run(context.Background(), codemode.Program{Code: `for (let i = 0; i < 2000; i++) console.log("line " + i)`})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Text) > codemode.MinOutputBudget || !strings.Contains(out.Text, "[runcode: the output") || out.Text != out.Result.Content[0].Text {
		t.Fatalf("text of %d bytes:\n%.300s", len(out.Text), out.Text)
	}
	if len(out.Logs) >= 2000 {
		t.Errorf("the logs are not the budgeted ones: %d lines", len(out.Logs))
	}
}

// Prompt is the Code Mode part of the system prompt, with the handle's options.
func TestPrompt(t *testing.T) {
	cm := newCodeMode(t, codemode.Options{}, frontEcho())
	p, err := cm.Prompt(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p, "`run_code` is the only tool") || !strings.Contains(p, "echo(args: { value: string }): Promise<string>;") {
		t.Fatalf("prompt:\n%s", p)
	}
	compact := newCodeMode(t, codemode.Options{CompactAbove: 1}, frontEcho())
	if p, _ := compact.Prompt(nil); strings.Contains(p, "echo(args:") {
		t.Errorf("Prompt ignores CompactAbove:\n%s", p)
	}
}

// New without a runtime starts one, which Close closes; it refuses invalid options; Install
// still installs, with a runtime.
func TestNewAndInstall(t *testing.T) {
	cm, err := codemode.New(registry.New(), codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Registry().SetDefaultPresentation(registry.PresentCode)
	if out, err := cm.Run(context.Background(), codemode.Program{Code: `return "ran"`}); err != nil || out.Text != "ran" {
		t.Fatalf("%+v %v", out, err)
	}
	cm.Close()
	if out, _ := cm.Run(context.Background(), codemode.Program{Code: `return "ran"`}); out.Failure == nil && !out.Result.IsError {
		t.Errorf("a run after Close: %+v", out)
	}
	if _, err := codemode.New(registry.New(), codemode.Options{MaxParallelSubCalls: -1}); err == nil || !strings.Contains(err.Error(), "maxParallelSubCalls") {
		t.Errorf("New with an invalid option: %v", err)
	}
	if err := codemode.Install(registry.New(), codemode.Options{}); err == nil || !strings.Contains(err.Error(), "Runtime is required") {
		t.Errorf("Install without a runtime: %v", err)
	}
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	reg := registry.New()
	if err := codemode.Install(reg, codemode.Options{Runtime: rt}); err != nil {
		t.Fatal(err)
	}
	reg.SetDefaultPresentation(registry.PresentCode)
	out, err := codemode.OutcomeOf(reg.Execute(context.Background(), codemode.Call("c1", `return 6 * 7`, "Multiply")))
	if err != nil || out.Text != "42" {
		t.Fatalf("%+v %v", out, err)
	}
}

// The failure kinds are one list.
func TestFailureKinds(t *testing.T) {
	kinds := codemode.FailureKinds()
	seen := map[codemode.FailureKind]bool{}
	for _, k := range kinds {
		if k == "" || seen[k] {
			t.Errorf("kind %q empty or repeated", k)
		}
		seen[k] = true
	}
	for _, k := range []codemode.FailureKind{jsruntime.KindException, jsruntime.KindTimeout, jsruntime.KindAbort, jsruntime.KindWorkerExit,
		jsruntime.KindInvalidOutput, jsruntime.KindOutputLimit, "typecheck", "invalid-arguments", "shutting-down", "internal"} {
		if !seen[k] {
			t.Errorf("FailureKinds lacks %q", k)
		}
	}
}

// traced records what one RunTrace receives.
type traced struct {
	mu     sync.Mutex
	events []bridge.Event
	logs   []string
}

func (r *traced) trace() *codemode.RunTrace {
	return &codemode.RunTrace{
		OnEvent: func(e bridge.Event) { r.mu.Lock(); r.events = append(r.events, e); r.mu.Unlock() },
		OnLog:   func(line string) { r.mu.Lock(); r.logs = append(r.logs, line); r.mu.Unlock() },
	}
}

// A RunTrace in the context sees its own call only: two runs at once, each with its own trace,
// get each other's events and logs in neither.
func TestRunTraceSeesOneCallOnly(t *testing.T) {
	// Both runs' sub-calls wait until both have started, so the runs overlap for sure.
	var started sync.WaitGroup
	started.Add(2)
	both := make(chan struct{})
	go func() { started.Wait(); close(both) }()
	meet := registry.Tool{
		Name:       "meet",
		Parameters: jsonv.MustParse(`{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}`),
		Output:     registry.OutputOf(jsonv.MustParse(`{"type":"string"}`)),
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			started.Done()
			select {
			case <-both:
			case <-time.After(10 * time.Second):
				return jsonv.Value{}, errors.New("the other run never started")
			}
			return jsonv.StringValue("met " + inv.Arguments.Lookup("who").AsString()), nil
		},
		ConcurrencySafe: func(jsonv.Value) bool { return true },
	}
	var global sync.Map // call id → events the option saw
	cm := newCodeMode(t, codemode.Options{Events: func(e bridge.Event) {
		n, _ := global.LoadOrStore(e.RootCallID, new(int))
		*n.(*int)++ // events of one run never overlap
	}}, meet)
	recs := map[string]*traced{"A": {}, "B": {}}
	var wg sync.WaitGroup
	for who, rec := range recs {
		wg.Go(func() {
			ctx := codemode.WithRunTrace(context.Background(), rec.trace())
			code := fmt.Sprintf(`console.log("start %s"); const r = await tools.meet({ who: %q }); console.log(r); return r`, who, who)
			if out, err := cm.Run(ctx, codemode.Program{Code: code}); err != nil || out.Failure != nil {
				t.Errorf("run %s: %v %+v", who, err, out.Failure)
			}
		})
	}
	wg.Wait()
	for who, rec := range recs {
		if want := []string{"start " + who, "met " + who}; !slices.Equal(rec.logs, want) {
			t.Errorf("run %s: logs %q, want %q", who, rec.logs, want)
		}
		if len(rec.events) != 2 || rec.events[0].Type != bridge.EventStart || rec.events[1].Type != bridge.EventSettle {
			t.Fatalf("run %s: %d events %+v", who, len(rec.events), rec.events)
		}
		for _, e := range rec.events {
			if got := e.Arguments.Lookup("who").AsString(); got != who || e.RootCallID != rec.events[0].RootCallID {
				t.Errorf("run %s received an event of run %s (%s)", who, got, e.RootCallID)
			}
		}
	}
	if recs["A"].events[0].RootCallID == recs["B"].events[0].RootCallID {
		t.Error("both runs have one call id")
	}
	// Options.Events still sees every run.
	count := 0
	global.Range(func(_, n any) bool { count += *n.(*int); return true })
	if count != 4 {
		t.Errorf("Options.Events saw %d events, want 4", count)
	}
}

// A run a tool of the program starts does not report to the outer run's trace.
func TestRunTraceNotInherited(t *testing.T) {
	var cm *codemode.CodeMode
	inner := registry.Tool{
		Name:   "inner",
		Output: registry.AnyOutput(),
		Execute: func(ctx context.Context, _ *registry.Invocation) (jsonv.Value, error) {
			out, err := cm.Run(ctx, codemode.Program{Code: `console.log("inner log"); return await tools.echo({ value: "in" })`})
			if err != nil {
				return jsonv.Value{}, err
			}
			return out.Value, nil
		},
	}
	cm = newCodeMode(t, codemode.Options{}, frontEcho(), inner)
	rec := &traced{}
	out, err := cm.Run(codemode.WithRunTrace(context.Background(), rec.trace()), codemode.Program{Code: `console.log("outer log"); return await tools.inner({})`})
	if err != nil || out.Text != "outer log\necho:in" {
		t.Fatalf("%q %v", out.Text, err)
	}
	if !slices.Equal(rec.logs, []string{"outer log"}) || len(rec.events) != 2 || rec.events[0].Name != "inner" {
		t.Errorf("the trace saw logs %q and %d events (%+v)", rec.logs, len(rec.events), rec.events)
	}
}

type nilListing struct {
	Items  []string          `json:"items"`
	ByName map[string]string `json:"byName"`
	Maybe  []string          `json:"maybe" runcode:"nullable"`
}

// A typed Go tool's nil slice and map reach a program as [] and {} (not null, which a program
// written against the SDK's string[] would crash on); a field tagged runcode:"nullable" is null
// and typed so.
func TestTypedNilCrossesAsEmpty(t *testing.T) {
	tool := registry.MustDefine(registry.TypedTool[struct{}, nilListing]{
		Name: "listing",
		Execute: func(context.Context, *registry.Invocation, struct{}) (nilListing, error) {
			return nilListing{}, nil
		},
	})
	cm := newCodeMode(t, codemode.Options{}, tool)
	prompt, err := cm.Prompt(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Promise<{ items: string[]; byName: { [key: string]: string }; maybe: string[] | null }>"; !strings.Contains(prompt, want) {
		t.Errorf("the SDK lacks %s:\n%s", want, prompt)
	}
	out, err := cm.Run(context.Background(), codemode.Program{Code: `const r = await tools.listing({}); return [r.items.length, Object.keys(r.byName).length, r.maybe]`})
	if err != nil || out.Failure != nil {
		t.Fatalf("%v %+v", err, out.Failure)
	}
	if got := string(jsonv.AppendJSON(nil, out.Value)); got != `[0,0,null]` {
		t.Errorf("value %s, want [0,0,null]", got)
	}
}
