package codemode

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// GiveUp says when [ExecuteOrGiveUp] stops waiting for a run that does not stop.
type GiveUp struct {
	// Wall is the run's wall-clock ceiling (the runtime's Limits.Wall): a run still going
	// Grace after it is given up on as a timeout.
	Wall time.Duration
	// Grace is how long a run may take to end past its ceiling, or once ctx is done.
	Grace time.Duration
	// OutputBudget holds the failure of a run given up on to the model's output budget, as
	// [Options.OutputBudget] holds every run's (zero: no budget).
	OutputBudget int
}

// ExecuteOrGiveUp executes call (a run_code call, see [Call]) through reg, and returns its
// result once it ends — or gives up on a run stuck in one native step that neither its
// wall-clock ceiling nor cancellation can interrupt: one still going g.Grace after g.Wall, or
// g.Grace after ctx is done. Then ended is false and res is a timeout (or abort) failure that
// says the run was abandoned, with the console lines it had written, held to g.OutputBudget.
// The abandoned run goes on in a goroutine nobody waits for: the host is to exit (closing the
// runtime would wait for it). Hooks in ctx ([WithRunTrace]) still apply.
func ExecuteOrGiveUp(ctx context.Context, reg *registry.Registry, call registry.Call, g GiveUp) (res registry.Result, ended bool) {
	console := &consoleLines{}
	trace := RunTraceFrom(ctx)
	local := RunTrace{OnLog: console.add}
	if trace != nil {
		local.OnEvent = trace.OnEvent
		if onLog := trace.OnLog; onLog != nil {
			local.OnLog = func(line string) { console.add(line); onLog(line) }
		}
	}
	runCtx := WithRunTrace(ctx, &local)
	done := make(chan registry.Result, 1) // the run's goroutine never blocks on it, abandoned or not
	go func() { done <- reg.Execute(runCtx, call) }()
	ceiling := time.NewTimer(g.Wall + g.Grace)
	defer ceiling.Stop()
	var f *RunFailure
	select {
	case res := <-done:
		return res, true
	case <-ceiling.C:
		f = &RunFailure{Kind: jsruntime.KindTimeout, Message: fmt.Sprintf("wall-clock ceiling reached (%dms); the program did not stop within %v of it", g.Wall.Milliseconds(), g.Grace)}
	case <-ctx.Done():
		grace := time.NewTimer(g.Grace)
		defer grace.Stop()
		select {
		case res := <-done:
			return res, true
		case <-grace.C:
		}
		f = &RunFailure{Kind: jsruntime.KindAbort, Message: fmt.Sprintf("%v; the program did not stop within %v", context.Cause(ctx), g.Grace)}
	}
	select {
	case res := <-done: // it ended as the time ran out
		return res, true
	default:
	}
	f.Message += " and was abandoned"
	f.Logs = console.snapshot()
	writeTool := ""
	if _, ok := reg.Get("write_file", nil); ok {
		writeTool = "tools.write_file"
	}
	f = FitFailure(f, g.OutputBudget, writeTool) // held to the model's output budget like any run's
	return registry.ErrorResult(&registry.Error{Code: registry.CodeCodeRunFailed, Name: "CodeRunFailedError", Message: f.Error(), Err: f}), false
}

// consoleLines keeps console lines as a run writes them. It is safe for concurrent use.
type consoleLines struct {
	mu    sync.Mutex
	lines []string
}

func (c *consoleLines) add(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lines = append(c.lines, line)
}

// snapshot returns a copy of the lines kept so far.
func (c *consoleLines) snapshot() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.lines)
}
