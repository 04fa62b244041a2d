package mcpserve

import (
	"context"
	"errors"
	"sync"
)

// RunGate admits run_code calls until it drains (ServerOptions.Gate): a server that is shutting
// down stops starting runs, lets those in flight finish for a while, and aborts the rest.
type RunGate struct {
	abort context.Context // cancelled by Drain when its context ends first: cancels every run
	stop  context.CancelCauseFunc

	mu      sync.Mutex
	closed  bool
	running int
	idle    chan struct{} // closed when closed and running reaches zero
}

// NewRunGate returns an open gate.
func NewRunGate() *RunGate {
	ctx, cancel := context.WithCancelCause(context.Background())
	return &RunGate{abort: ctx, stop: cancel, idle: make(chan struct{})}
}

// enter admits one run: it returns the run's context (ctx, also cancelled when Drain aborts the
// runs) and the function to call when the run ends; ok is false once the gate is draining.
func (g *RunGate) enter(ctx context.Context) (runCtx context.Context, leave func(), ok bool) {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil, nil, false
	}
	g.running++
	g.mu.Unlock()
	runCtx, cancel := context.WithCancelCause(ctx)
	unhook := context.AfterFunc(g.abort, func() { cancel(context.Cause(g.abort)) })
	return runCtx, func() {
		unhook()
		cancel(nil)
		g.mu.Lock()
		defer g.mu.Unlock()
		g.running--
		if g.closed && g.running == 0 {
			close(g.idle)
		}
	}, true
}

// Running returns the number of runs in flight.
func (g *RunGate) Running() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.running
}

// Draining reports whether Drain has been called: the gate admits no more runs.
func (g *RunGate) Draining() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

// Drain refuses every later run and waits until the runs in flight have ended. When ctx ends
// first, it aborts them (their contexts are cancelled, so they end as aborted runs), waits for
// them to end and returns ctx's error.
func (g *RunGate) Drain(ctx context.Context) error {
	g.mu.Lock()
	if !g.closed {
		g.closed = true
		if g.running == 0 {
			close(g.idle)
		}
	}
	g.mu.Unlock()
	select {
	case <-g.idle:
		return nil
	case <-ctx.Done():
	}
	g.stop(errors.New("the server shut down before the run finished"))
	<-g.idle
	return ctx.Err()
}
