package dispatch_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/internal/leakcheck"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// callInline calls name's Inline form, as a runtime whose goroutine may block does.
func callInline(ns jsruntime.Namespace, name, args string) *outcome {
	return callWith(context.Background(), ns, name, args, true)
}

// goroutineID returns the calling goroutine's number, from its stack header.
func goroutineID() string {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	id, _, _ := bytes.Cut(bytes.TrimPrefix(buf[:n], []byte("goroutine ")), []byte(" "))
	return string(id)
}

// An inline call with nothing else queued or in flight is started, run and committed on the
// caller's goroutine: it has settled, and both its events are out, when Inline returns.
func TestInlineCallRunsOnTheCallersGoroutine(t *testing.T) {
	leakcheck.Check(t)
	ranOn := make(chan string, 1)
	where := registry.Tool{Name: "where", Output: registry.AnyOutput(),
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			ranOn <- goroutineID()
			return jsonv.StringValue("here"), nil
		}}
	var rec recorder
	b := schedNew(t, dispatch.Options{Executor: newRegistry(t, where), CallID: "c", Tools: []string{"where"}, Events: rec.record})
	for i := range 3 {
		o := callInline(b.Namespace(), "where", `{}`)
		select {
		case <-o.done:
		default:
			t.Fatalf("call %d had not settled when Inline returned", i)
		}
		if o.err != nil || o.value.AsString() != "here" {
			t.Fatalf("call %d: %v %s", i, o.err, o.value)
		}
		if got := <-ranOn; got != goroutineID() {
			t.Fatalf("call %d: the body ran on goroutine %s, not the caller's", i, got)
		}
		if n := len(rec.lines()); n != 2*(i+1) {
			t.Fatalf("call %d: %d events, want %d", i, n, 2*(i+1))
		}
	}
	b.Close()
	b.Wait()
}

// With a call in flight, an inline call is scheduled as through Call: Inline returns at once
// (the caller goes on reading), safe calls still overlap, and commits keep submission order.
func TestInlineCallWithACallInFlightIsHandedOff(t *testing.T) {
	leakcheck.Check(t)
	p := newSchedPool()
	var rec recorder
	b := schedNew(t, dispatch.Options{Executor: newRegistry(t, p.tool("safe", schedSafe)), CallID: "c", Tools: []string{"safe"}, Events: rec.record})
	ns := b.Namespace()
	first := call(ns, "safe", schedArgs("a"))
	schedExpect(t, p.started, "a")
	returned := make(chan *outcome, 1)
	go func() { returned <- callInline(ns, "safe", schedArgs("b")) }()
	var second *outcome
	select {
	case second = <-returned:
	case <-time.After(5 * time.Second):
		p.release("a", "b")
		t.Fatal("Inline ran the body itself while another call was in flight")
	}
	schedExpect(t, p.started, "b") // overlaps a
	p.release("b")
	schedExpect(t, p.ended, "b")
	select {
	case <-second.done:
		t.Fatal("b committed before a")
	case <-time.After(schedSettleWindow):
	}
	p.release("a")
	schedWait(t, first, second)
	if got := strings.Join(schedSettleIDs(&rec, bridge.EventSettle), " "); got != "c:code:1 c:code:2" {
		t.Fatalf("settle order %s", got)
	}
	b.Close()
	b.Wait()
}

// An exclusive call made inline holds later calls until it has committed, as the scheduler
// requires whichever goroutine drives.
func TestInlineExclusiveCallHoldsLaterCalls(t *testing.T) {
	leakcheck.Check(t)
	p := newSchedPool()
	b := schedNew(t, dispatch.Options{Executor: newRegistry(t, p.tool("writer", nil), p.tool("safe", schedSafe)), CallID: "c", Tools: []string{"writer", "safe"}})
	ns := b.Namespace()
	done := make(chan *outcome, 1)
	go func() { done <- callInline(ns, "writer", schedArgs("w")) }()
	schedExpect(t, p.started, "w")
	later := call(ns, "safe", schedArgs("s"))
	schedQuiet(t, p.started, "a call after an exclusive one")
	p.release("w")
	schedExpect(t, p.started, "s")
	p.release("s")
	schedWait(t, <-done, later)
	if got := strings.Join(p.lines(), ", "); got != "start w, end w, start s, end s" {
		t.Fatalf("order: %s", got)
	}
	b.Close()
	b.Wait()
}

// A body that ignores cancellation, run inline, is detached by Close after the grace period
// like any other; when it finally returns, the caller's goroutine comes back out of Inline and
// Wait returns.
func TestInlineBodyIgnoringCancellationIsDetached(t *testing.T) {
	leakcheck.Check(t)
	d := newDeaf()
	var rec recorder
	const grace = 100 * time.Millisecond
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: newRegistry(t, d.tool("deaf")), CallID: "c", Tools: []string{"deaf"},
		Events: rec.record, DrainGrace: grace, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	returned := make(chan *outcome, 1)
	go func() { returned <- callInline(b.Namespace(), "deaf", `{}`) }()
	<-d.started
	closeAfterGrace(t, b, d, grace)
	if events := rec.lines(); len(events) != 2 || !strings.Contains(events[1], "was detached") {
		t.Fatalf("events:\n%s", strings.Join(events, "\n"))
	}
	close(d.release)
	o := <-returned
	b.Wait()
	if o.err == nil {
		t.Errorf("a detached inline call settled with a value: %s", o.value)
	}
}
