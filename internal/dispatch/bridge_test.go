package dispatch_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// outcome collects one binding call's settlement.
type outcome struct {
	done  chan struct{}
	value jsonv.Value
	err   error
}

func call(ns jsruntime.Namespace, name, args string) *outcome {
	return callWith(context.Background(), ns, name, args, false)
}

// callWith calls the binding name of ns with args, passing run as the run's context, through
// its inline form when inline is set.
func callWith(run context.Context, ns jsruntime.Namespace, name, args string, inline bool) *outcome {
	o := &outcome{done: make(chan struct{})}
	for _, f := range ns.Functions {
		if f.Name == name {
			do := f.Call
			if inline {
				do = f.Inline
			}
			do(run, jsonv.MustParse(args), func(v jsonv.Value, err error) {
				o.value, o.err = v, err
				close(o.done)
			})
			return o
		}
	}
	panic("no binding " + name)
}

type recorder struct {
	mu     sync.Mutex
	events []bridge.Event
}

func (r *recorder) record(e bridge.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		e.Time, e.Started = time.Time{}, time.Time{} // the times are checked in event_test.go
		out = append(out, e.Value().String())
	}
	return out
}

func newRegistry(t *testing.T, tools ...registry.Tool) *registry.Registry {
	t.Helper()
	reg := registry.New()
	if _, err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	return reg
}

var echo = registry.Tool{
	Name:   "echo",
	Output: registry.AnyOutput(),
	Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		return jsonv.StringValue("echo:" + inv.Arguments.Lookup("value").AsString()), nil
	},
}

func TestSubCallsAreNumberedTaggedAndLoggedInOrder(t *testing.T) {
	var parents []registry.Token
	var mu sync.Mutex
	probe := registry.Tool{Name: "probe", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		mu.Lock()
		parents = append(parents, inv.Parent)
		mu.Unlock()
		return jsonv.StringValue(inv.CallID), nil
	}}
	var outer registry.Token
	outerTool := registry.Tool{Name: "outer", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		outer = inv.Token
		return jsonv.NullValue(), nil
	}}
	reg := newRegistry(t, echo, probe, outerTool)
	reg.Execute(context.Background(), registry.Call{CallID: "call-1", Name: "outer", Arguments: jsonv.MustParse(`{}`)})
	rec := &recorder{}
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, CallID: "call-1", Token: outer, Tools: []string{"echo", "probe"}, Events: rec.record})
	if err != nil {
		t.Fatal(err)
	}
	ns := b.Namespace()
	one, two := call(ns, "echo", `{"value":"one"}`), call(ns, "echo", `{"value":"two"}`)
	<-one.done
	<-two.done
	three := call(ns, "probe", `{}`)
	<-three.done
	b.Close()

	if one.value.AsString() != "echo:one" || two.value.AsString() != "echo:two" {
		t.Fatalf("values = %v, %v", one.value, two.value)
	}
	if three.value.AsString() != "call-1:code:3" {
		t.Fatalf("third sub-call id = %v", three.value)
	}
	if len(parents) != 1 || outer.IsZero() || parents[0] != outer {
		t.Fatalf("parents = %v", parents)
	}
	want := []string{
		`{"type":"code-dispatch-start","rootCallId":"call-1","parentCallId":"call-1","subCallId":"call-1:code:1","name":"echo","arguments":{"value":"one"}}`,
		`{"type":"code-dispatch","rootCallId":"call-1","parentCallId":"call-1","subCallId":"call-1:code:1","name":"echo","arguments":{"value":"one"},"isError":false,"content":[{"type":"text","text":"echo:one"}],"result":"echo:one"}`,
		`{"type":"code-dispatch-start","rootCallId":"call-1","parentCallId":"call-1","subCallId":"call-1:code:2","name":"echo","arguments":{"value":"two"}}`,
		`{"type":"code-dispatch","rootCallId":"call-1","parentCallId":"call-1","subCallId":"call-1:code:2","name":"echo","arguments":{"value":"two"},"isError":false,"content":[{"type":"text","text":"echo:two"}],"result":"echo:two"}`,
	}
	got := rec.lines()
	if strings.Join(got[:4], "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestFailuresReachTheProgramAsMessages(t *testing.T) {
	reg := newRegistry(t, echo, registry.Tool{Name: "fail", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
		return jsonv.Value{}, errors.New("deliberate failure")
	}})
	rec := &recorder{}
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"fail"}, Events: rec.record})
	if err != nil {
		t.Fatal(err)
	}
	o := call(b.Namespace(), "fail", `{}`)
	<-o.done
	b.Close()
	if o.err == nil || o.err.Error() != "deliberate failure" {
		t.Fatalf("err = %v", o.err)
	}
	if got := rec.lines()[1]; !strings.Contains(got, `"isError":true,"content":[{"type":"text","text":"Error: deliberate failure"}]`) {
		t.Fatalf("settle event = %s", got)
	}
}

func TestCloseCancelsInFlightAbandonsQueuedAndRefusesLaterCalls(t *testing.T) {
	started := make(chan struct{})
	slow := registry.Tool{Name: "slow", Output: registry.AnyOutput(), Execute: func(ctx context.Context, _ *registry.Invocation) (jsonv.Value, error) {
		close(started)
		<-ctx.Done()
		return jsonv.Value{}, context.Cause(ctx)
	}}
	reg := newRegistry(t, slow, echo)
	rec := &recorder{}
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"slow", "echo"}, Events: rec.record})
	if err != nil {
		t.Fatal(err)
	}
	ns := b.Namespace()
	inFlight := call(ns, "slow", `{}`)
	queued := call(ns, "echo", `{"value":"x"}`)
	<-started
	b.Close()
	<-inFlight.done
	<-queued.done
	late := call(ns, "echo", `{"value":"y"}`)
	<-late.done

	for _, c := range []struct {
		o    *outcome
		want string
	}{
		{inFlight, "run_code run is over (run_code settled); slow result discarded"},
		{queued, "run_code run is over (run_code settled); echo tool call abandoned"},
		{late, "run_code run is over (run_code settled); echo not dispatched"},
	} {
		if c.o.err == nil || c.o.err.Error() != c.want {
			t.Errorf("err = %v, want %q", c.o.err, c.want)
		}
	}
	lines := rec.lines()
	if len(lines) != 2 || !strings.Contains(lines[1], `"isError":true`) {
		t.Fatalf("want one start and one error settle event, got:\n%s", strings.Join(lines, "\n"))
	}
}

func TestOuterCancellationCauseNamesTheReason(t *testing.T) {
	reg := newRegistry(t, echo)
	ctx, cancel := context.WithCancelCause(context.Background())
	b, err := dispatch.New(ctx, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"echo"}})
	if err != nil {
		t.Fatal(err)
	}
	cancel(fmt.Errorf("user pressed stop"))
	o := call(b.Namespace(), "echo", `{"value":"x"}`)
	<-o.done
	b.Close()
	if o.err == nil || o.err.Error() != "run_code run is over (user pressed stop); echo not dispatched" {
		t.Fatalf("err = %v", o.err)
	}
}

// TestCancelDuringPostExecuteAborts: a sub-call whose body succeeded and whose post-execute was
// running when the outer call was cancelled settled as a success (isError false, the tool's
// content) although the outer call was cancelled before its commit. It settles as ABORTED, as
// the upstream's cancellation contract reports it.
func TestCancelDuringPostExecuteAborts(t *testing.T) {
	reg := newRegistry(t, echo)
	inPost := make(chan struct{})
	reg.OnPostExecute(func(ctx context.Context, _ registry.Execution, _ registry.Result, next func() registry.PostDecision) registry.PostDecision {
		close(inPost)
		<-ctx.Done()
		return next()
	})
	ctx, cancel := context.WithCancelCause(context.Background())
	rec := &recorder{}
	b, err := dispatch.New(ctx, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"echo"}, Events: rec.record})
	if err != nil {
		t.Fatal(err)
	}
	o := call(b.Namespace(), "echo", `{"value":"x"}`)
	<-inPost
	cancel(errors.New("user pressed stop"))
	<-o.done
	b.Close()
	if o.err == nil || o.err.Error() != "run_code run is over (user pressed stop); echo result discarded" {
		t.Errorf("err = %v", o.err)
	}
	lines := rec.lines()
	if len(lines) != 2 || !strings.Contains(lines[1], `"isError":true,"content":[{"type":"text","text":"Error: tool call aborted"}]`) {
		t.Fatalf("want the settle event of an aborted call, got:\n%s", strings.Join(lines, "\n"))
	}
}
