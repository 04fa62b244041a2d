package jsruntime_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
)

// gate is a host function "host.wait" whose calls block until released, reporting each entry.
type gate struct {
	entered chan string
	release chan struct{}
}

func newGate() *gate { return &gate{entered: make(chan string, 64), release: make(chan struct{})} }

func (g *gate) namespace() jsruntime.Namespace {
	return jsruntime.Namespace{Global: "host", Functions: []jsruntime.Function{{Name: "wait", Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
		g.entered <- args.Lookup("who").AsString()
		<-g.release
		settle(jsonv.StringValue("done"), nil)
	}}}}
}

// start runs a program that calls host.wait({who}) in the background; its error (or the run's
// failure) arrives on the returned channel.
func (g *gate) start(ctx context.Context, p *jsruntime.ProcessPool, who string) <-chan error {
	done := make(chan error, 1)
	go func() {
		res, err := p.Run(ctx, jsruntime.Request{Program: fmt.Sprintf(`return await host.wait({who: %q});`, who), Bindings: []jsruntime.Namespace{g.namespace()}})
		if err == nil && res.Error != nil {
			err = fmt.Errorf("%s: %s", res.Error.Kind, res.Error.Message)
		}
		done <- err
	}()
	return done
}

func (g *gate) waitEntered(t *testing.T, n int) []string {
	t.Helper()
	var who []string
	for range n {
		select {
		case w := <-g.entered:
			who = append(who, w)
		case <-time.After(30 * time.Second):
			t.Fatalf("only %d of %d runs reached their tool call", len(who), n)
		}
	}
	return who
}

func newPool(t *testing.T, cfg jsruntime.ProcessConfig) *jsruntime.ProcessPool {
	t.Helper()
	p, err := jsruntime.NewProcessPool(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// Runs that await a tool hold their workers, so the pool starts more, up to MaxWorkers: eight
// runs waiting at once on a pool that keeps two warm. (A fixed pool of two ran two at a time,
// whatever they did.) Idle workers beyond Size are ended after IdleTimeout.
func TestProcessPoolGrowsForRunsWaitingOnToolsAndShrinksWhenIdle(t *testing.T) {
	p := newPool(t, jsruntime.ProcessConfig{MaxWorkers: 8, IdleTimeout: 200 * time.Millisecond})
	if got := p.Stats(); got.Size != 2 || got.MaxWorkers != 8 || got.Workers != 2 {
		t.Fatalf("new pool: %+v", got)
	}
	g := newGate()
	var done []<-chan error
	for i := range 8 {
		done = append(done, g.start(context.Background(), p, fmt.Sprint(i)))
	}
	g.waitEntered(t, 8)
	if got := p.Stats(); got.Busy != 8 || got.Workers != 8 || got.Queued != 0 {
		t.Fatalf("eight runs awaiting a tool: %+v", got)
	}
	close(g.release)
	for _, d := range done {
		if err := <-d; err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for p.Stats().Workers != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("idle workers were not ended: %+v", p.Stats())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Past MaxWorkers runs wait, up to MaxQueued; one more is refused at once with ErrBusy, and a
// waiting run whose context ends leaves the queue without taking a place.
func TestProcessPoolQueueIsBounded(t *testing.T) {
	p := newPool(t, jsruntime.ProcessConfig{Size: 1, MaxWorkers: 1, MaxQueued: 1})
	g := newGate()
	first := g.start(context.Background(), p, "first")
	g.waitEntered(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	queued := g.start(ctx, p, "queued")
	waitFor(t, func() bool { return p.Stats().Queued == 1 })
	start := time.Now()
	_, err := p.Run(context.Background(), jsruntime.Request{Program: `return 1`})
	if !errors.Is(err, jsruntime.ErrBusy) || time.Since(start) > 5*time.Second {
		t.Fatalf("a run past the queue: %v after %v, want ErrBusy at once", err, time.Since(start))
	}
	cancel()
	if err := <-queued; err == nil {
		t.Fatal("the cancelled queued run succeeded")
	}
	if got := p.Stats(); got.Queued != 0 || got.Busy != 1 {
		t.Fatalf("after the cancel: %+v", got)
	}
	close(g.release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(context.Background(), jsruntime.Request{Program: `return 2`})
	if err != nil || res.Error != nil || res.Value.String() != "2" {
		t.Fatalf("a run after the queue emptied: %v %+v", err, res.Error)
	}
}

// A freed worker goes to the waiting run whose key holds the fewest workers: a key that
// queued several runs first does not keep a later key waiting behind all of them.
func TestProcessPoolIsFairAcrossKeys(t *testing.T) {
	p := newPool(t, jsruntime.ProcessConfig{Size: 1, MaxWorkers: 1})
	g := newGate()
	a := jsruntime.WithFairnessKey(context.Background(), "session-a")
	b := jsruntime.WithFairnessKey(context.Background(), "session-b")
	var done []<-chan error
	done = append(done, g.start(a, p, "a1"))
	g.waitEntered(t, 1)
	for _, who := range []string{"a2", "a3"} {
		done = append(done, g.start(a, p, who))
		n := len(done) - 1
		waitFor(t, func() bool { return p.Stats().Queued == n })
	}
	done = append(done, g.start(b, p, "b1"))
	waitFor(t, func() bool { return p.Stats().Queued == 3 })
	var order []string
	var mu sync.Mutex
	go func() {
		for w := range g.entered {
			mu.Lock()
			order = append(order, w)
			mu.Unlock()
		}
	}()
	close(g.release)
	for _, d := range done {
		if err := <-d; err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(order) != 3 || order[0] != "b1" {
		t.Fatalf("runs after a1 entered in order %v, want b1 first", order)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
