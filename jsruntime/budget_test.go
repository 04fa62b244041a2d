package jsruntime_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

func TestComputeBudget(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{ComputeBudget: 200 * time.Millisecond})
	ns := toolsNamespace(echo("echo"), never("slow"))
	tests := []struct{ name, program string }{
		{"sync loop", `for (;;) {}`},
		{"loop after an await", `await tools.echo({}); for (;;) {}`},
		{"loop with a pending decoy binding", `void tools.slow({}); for (;;) {}`},
		{"loop in a then callback", `await Promise.resolve().then(() => { for (;;) {} })`},
		{"loop in finally", `try { throw 1 } finally { for (;;) {} }`},
		{"loop in a getter of the completion", `return { get x() { for (;;) {} } }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res := run(t, g, tt.program, ns)
			wantFailure(t, res, jsruntime.KindTimeout, "compute budget exhausted (200ms busy)")
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestComputeBudgetOfOneSecondEndsPromptly(t *testing.T) {
	if testing.Short() {
		t.Skip("takes a second")
	}
	g := newRuntime(t, jsruntime.Config{ComputeBudget: time.Second})
	start := time.Now()
	res := run(t, g, `for (;;) {}`, nil)
	elapsed := time.Since(start)
	wantFailure(t, res, jsruntime.KindTimeout, "compute budget exhausted (1000ms busy)")
	if elapsed < time.Second || elapsed > 1500*time.Millisecond {
		t.Errorf("a 1s budget ended after %v", elapsed)
	}
}

func TestComputeBudgetExcludesIdleTime(t *testing.T) {
	var host asyncHost
	defer host.Wait()
	slow := host.fn("slow", func(ctx context.Context, _ jsonv.Value) (jsonv.Value, error) {
		select {
		case <-time.After(300 * time.Millisecond):
		case <-ctx.Done():
		}
		return jsonv.StringValue("late"), nil
	})
	g := newRuntime(t, jsruntime.Config{ComputeBudget: 100 * time.Millisecond})
	wantValue(t, run(t, g, `return await tools.slow({})`, toolsNamespace(slow)), `"late"`)
}

func TestWallCeiling(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{WallCeiling: 150 * time.Millisecond})
	start := time.Now()
	res := run(t, g, `console.log("waiting"); await tools.slow({})`, toolsNamespace(never("slow")))
	wantFailure(t, res, jsruntime.KindTimeout, "wall-clock ceiling reached (150ms)")
	if d := time.Since(start); d < 150*time.Millisecond || d > time.Second {
		t.Errorf("took %v", d)
	}
	if len(res.Logs) != 1 || res.Logs[0] != "waiting" {
		t.Errorf("logs = %q", res.Logs)
	}
}

func TestPromiseThatCanNeverSettle(t *testing.T) {
	g := newRuntime(t, jsruntime.Config{WallCeiling: 10 * time.Second})
	start := time.Now()
	res := run(t, g, `await new Promise(() => {})`, nil)
	wantFailure(t, res, jsruntime.KindException, "program awaits a promise that can never settle")
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v: should fail at once", d)
	}
	// A settled but unawaited binding does not keep a dead promise alive.
	res = run(t, g, `await tools.echo({}); await new Promise(() => {})`, toolsNamespace(echo("echo")))
	wantFailure(t, res, jsruntime.KindException, "program awaits a promise that can never settle")
}

func TestAbortMidRunKeepsLogs(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var host asyncHost
	defer host.Wait()
	hang := host.fn("hang", func(hctx context.Context, _ jsonv.Value) (jsonv.Value, error) {
		cancel(errors.New("user pressed stop"))
		<-hctx.Done()
		return jsonv.Value{}, hctx.Err()
	})
	g := newRuntime(t, jsruntime.Config{})
	res, err := g.Run(ctx, jsruntime.Request{Program: `console.log("before"); await tools.hang({}); console.log("after")`, Bindings: toolsNamespace(hang)})
	if err != nil {
		t.Fatal(err)
	}
	wantFailure(t, res, jsruntime.KindAbort, "user pressed stop")
	if len(res.Logs) != 1 || res.Logs[0] != "before" {
		t.Errorf("logs = %q, want [before]", res.Logs)
	}
}

func TestAbortStopsABusyLoop(t *testing.T) {
	ctx, cancel := context.WithTimeoutCause(context.Background(), 100*time.Millisecond, errors.New("deadline for the turn"))
	defer cancel()
	g := newRuntime(t, jsruntime.Config{})
	res, err := g.Run(ctx, jsruntime.Request{Program: `console.log(1); for (;;) {}`})
	if err != nil {
		t.Fatal(err)
	}
	wantFailure(t, res, jsruntime.KindAbort, "deadline for the turn")
	if fmt.Sprint(res.Logs) != "[1]" {
		t.Errorf("logs = %q", res.Logs)
	}
}

func TestAlreadyCancelledContextDoesNotRun(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("gone"))
	g := newRuntime(t, jsruntime.Config{})
	res, err := g.Run(ctx, jsruntime.Request{Program: `console.log("ran")`})
	if err != nil {
		t.Fatal(err)
	}
	wantFailure(t, res, jsruntime.KindAbort, "gone")
	if len(res.Logs) != 0 {
		t.Errorf("logs = %q", res.Logs)
	}
	// Contract misuse is reported even when the context is already done.
	if _, err := g.Run(ctx, jsruntime.Request{Bindings: []jsruntime.Namespace{{Global: "console"}}}); !errors.Is(err, jsruntime.ErrInvalidRequest) {
		t.Errorf("err = %v", err)
	}
}
