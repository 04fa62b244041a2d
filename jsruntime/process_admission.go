package jsruntime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// ErrBusy reports a run refused at once because every worker place is taken and the queue of
// runs waiting for one is full (ProcessConfig.MaxWorkers, MaxQueued). Nothing of the program
// ran; the caller may retry later. Test for it with errors.Is.
var ErrBusy = errors.New("jsruntime: every worker is busy and the queue of waiting runs is full")

type fairnessKey struct{}

// WithFairnessKey returns ctx carrying key, the party a run is for (an MCP session, a tenant):
// a ProcessPool that has runs waiting for a worker gives a freed worker to the waiting run whose
// key holds the fewest workers (keys take turns among equals), so one party cannot keep the
// others waiting while it starts run after run. Runs without a key share the key "".
func WithFairnessKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, fairnessKey{}, key)
}

type nestedKey struct{}

// WithNestedRun returns ctx marking a run started on behalf of another run that holds its worker
// place while it waits for this one (codemode's saved programs: `await programs.NAME(input)`). A
// ProcessPool runs such a run in a worker of its own without taking a place, so that nested runs
// cannot deadlock a pool whose places their outer runs hold (one place, one outer run waiting
// for its nested run); the host bounds how deep runs nest and how many of one run's nested runs
// go at once, and so how many workers beyond ProcessConfig.MaxWorkers exist. Goja ignores it.
func WithNestedRun(ctx context.Context) context.Context {
	return context.WithValue(ctx, nestedKey{}, true)
}

// isNestedRun reports whether ctx carries WithNestedRun's mark.
func isNestedRun(ctx context.Context) bool {
	nested, _ := ctx.Value(nestedKey{}).(bool)
	return nested
}

// fairnessKeyOf returns the key WithFairnessKey put in ctx, or "".
func fairnessKeyOf(ctx context.Context) string {
	k, _ := ctx.Value(fairnessKey{}).(string)
	return k
}

// admission hands out the pool's worker places: at most max runs hold one, at most maxQueued
// wait for one, and a place that frees goes to the waiting run whose key holds the fewest
// places, another key than the one that freed it among equals, the earliest after that.
type admission struct {
	max, maxQueued int

	mu      sync.Mutex
	holding map[string]int // places held, by key (keys holding none are deleted)
	waiting []*admissionWait
	// running and queued mirror the counts for readers that take no lock (Stats, the spin gate).
	running, queued atomic.Int64
}

// admissionWait is one run waiting for a place; ready is closed once it has one.
type admissionWait struct {
	key     string
	ready   chan struct{}
	granted bool // under admission.mu
}

func newAdmission(max, maxQueued int) *admission {
	return &admission{max: max, maxQueued: maxQueued, holding: map[string]int{}}
}

// acquire takes a place for a run of key, waiting in the queue while none is free, until ctx or
// stop is done (then it returns their error: context.Cause(ctx), or errPoolClosing). A full queue
// fails at once with ErrBusy.
func (a *admission) acquire(ctx context.Context, stop <-chan struct{}, key string) error {
	a.mu.Lock()
	if int(a.running.Load()) < a.max && len(a.waiting) == 0 {
		a.take(key)
		a.mu.Unlock()
		return nil
	}
	if len(a.waiting) >= a.maxQueued {
		running, queued := a.running.Load(), len(a.waiting)
		a.mu.Unlock()
		return fmt.Errorf("%w (%d runs running, %d waiting): retry in a few seconds", ErrBusy, running, queued)
	}
	w := &admissionWait{key: key, ready: make(chan struct{})}
	a.waiting = append(a.waiting, w)
	a.queued.Store(int64(len(a.waiting)))
	a.mu.Unlock()
	var err error
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		err = context.Cause(ctx)
	case <-stop:
		err = errPoolClosing
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if w.granted {
		// Granted as it gave up: hand the place on.
		a.give(key)
		return err
	}
	for i, x := range a.waiting {
		if x == w {
			a.waiting = append(a.waiting[:i], a.waiting[i+1:]...)
			break
		}
	}
	a.queued.Store(int64(len(a.waiting)))
	return err
}

// errPoolClosing is acquire's error when its stop channel closed.
var errPoolClosing = errors.New("stopped")

// release gives back the place of a run of key.
func (a *admission) release(key string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.give(key)
}

// take records a place held by key (under mu).
func (a *admission) take(key string) {
	a.holding[key]++
	a.running.Add(1)
}

// give frees key's place and grants it to the fairest waiting run, if any (under mu).
func (a *admission) give(key string) {
	if a.holding[key]--; a.holding[key] <= 0 {
		delete(a.holding, key)
	}
	a.running.Add(-1)
	if len(a.waiting) == 0 {
		return
	}
	// The fairest: the fewest places held; among equals, another key than the one that just
	// gave its place up (so keys take turns); then the earliest.
	best := 0
	rank := func(w *admissionWait) (int, bool) { return a.holding[w.key], w.key == key }
	for i, w := range a.waiting[1:] {
		held, same := rank(w)
		bestHeld, bestSame := rank(a.waiting[best])
		if held < bestHeld || held == bestHeld && bestSame && !same {
			best = i + 1
		}
	}
	w := a.waiting[best]
	a.waiting = append(a.waiting[:best], a.waiting[best+1:]...)
	a.queued.Store(int64(len(a.waiting)))
	w.granted = true
	a.take(w.key)
	close(w.ready)
}
