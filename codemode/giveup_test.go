package codemode_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// ExecuteOrGiveUp returns a run that ends as it is; it gives up on one still going Grace after
// its ceiling (a timeout) or Grace after its context ends (an abort), with the console lines the
// run had written and "abandoned" in the message, while a trace in the context still sees them.
func TestExecuteOrGiveUp(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	deaf := registry.Tool{Name: "deaf", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
		<-release // ignores cancellation: the run cannot end before the test does
		return jsonv.NullValue(), nil
	}}
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	// The run waits for its deaf sub-call as long as the test lasts, like a run stuck in a
	// native step.
	reg := installOn(t, rt, codemode.Options{DrainGrace: -1}, deaf)
	t.Cleanup(func() { rt.Close() })

	res, ended := codemode.ExecuteOrGiveUp(context.Background(), reg, codemode.Call("c1", `console.log("quick"); return 1`, "Quick"), codemode.GiveUp{Wall: time.Minute, Grace: time.Second})
	if !ended || res.IsError || registry.TextOf(res.Content) != "quick\n1" {
		t.Fatalf("a run that ends: ended %v, %q", ended, registry.TextOf(res.Content))
	}

	stuck := `console.log("before"); await tools.deaf({}); return 1`
	var mu sync.Mutex // the abandoned run goes on beside the test
	var traced []string
	ctx := codemode.WithRunTrace(context.Background(), &codemode.RunTrace{OnLog: func(line string) { mu.Lock(); traced = append(traced, line); mu.Unlock() }})
	start := time.Now()
	res, ended = codemode.ExecuteOrGiveUp(ctx, reg, codemode.Call("c2", stuck, "Stuck"), codemode.GiveUp{Wall: 100 * time.Millisecond, Grace: 100 * time.Millisecond})
	var f *codemode.RunFailure
	if ended || !errors.As(res.Err, &f) || f.Kind != jsruntime.KindTimeout || !strings.HasSuffix(f.Message, "and was abandoned") ||
		strings.Join(f.Logs, ",") != "before" || time.Since(start) < 200*time.Millisecond {
		t.Fatalf("past the ceiling: ended %v, %+v after %s", ended, f, time.Since(start))
	}
	mu.Lock()
	if strings.Join(traced, ",") != "before" {
		t.Errorf("the trace saw %q", traced)
	}
	mu.Unlock()

	ctx, cancel := context.WithCancelCause(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel(errors.New("interrupt")) }()
	res, ended = codemode.ExecuteOrGiveUp(ctx, reg, codemode.Call("c3", stuck, "Stuck"), codemode.GiveUp{Wall: time.Minute, Grace: 100 * time.Millisecond})
	if ended || !errors.As(res.Err, &f) || f.Kind != jsruntime.KindAbort || !strings.HasPrefix(f.Message, "interrupt; the program did not stop within 100ms and was abandoned") {
		t.Fatalf("after cancellation: ended %v, %+v", ended, f)
	}
}
