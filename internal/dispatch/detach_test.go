package dispatch_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/internal/leakcheck"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// deaf is a tool whose body ignores its context: it returns only when release is closed.
type deaf struct {
	started chan struct{}
	release chan struct{}
}

// closeAfterGrace closes b, which runs bodies of d that ignore cancellation, and checks that
// Close returns after about grace instead of waiting for them.
func closeAfterGrace(t *testing.T, b *dispatch.Bridge, d *deaf, grace time.Duration) {
	t.Helper()
	start := time.Now()
	closed := make(chan struct{})
	go func() { b.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		close(d.release)
		<-closed
		t.Fatal("Close waited for bodies that ignore cancellation")
	}
	if took := time.Since(start); took < grace || took > grace+time.Second {
		t.Errorf("Close took %v, want about the grace period %v", took, grace)
	}
}

func newDeaf() *deaf { return &deaf{started: make(chan struct{}, 8), release: make(chan struct{})} }

func (d *deaf) tool(name string) registry.Tool {
	return registry.Tool{Name: name, Output: registry.AnyOutput(),
		ConcurrencySafe: func(jsonv.Value) bool { return true },
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			d.started <- struct{}{}
			<-d.release
			return jsonv.StringValue("late"), nil
		}}
}

// A body that ignores cancellation holds Close only for the grace period: Close then detaches
// it, emits the settle events the started calls lack, and returns. When the body finally
// returns, its goroutine ends (Wait returns), the registry's observers see the call's outcome
// (ABORTED: the run was over), and nothing more reaches the events or the outer invocation.
// Before the fix Close waited for the body forever.
func TestCloseDetachesBodiesThatIgnoreCancellation(t *testing.T) {
	leakcheck.Check(t)
	d := newDeaf()
	reg := newRegistry(t, d.tool("deaf"), echo)
	observed := make(chan registry.Result, 8)
	reg.OnResult(func(exec registry.Execution, res registry.Result) {
		if exec.Name == "deaf" {
			observed <- res
		}
	})
	var rec recorder
	const grace = 100 * time.Millisecond
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"deaf", "echo"},
		Events: rec.record, MaxParallel: 2, DrainGrace: grace, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ns := b.Namespace()
	first, second := call(ns, "deaf", `{}`), call(ns, "deaf", `{}`)
	<-d.started
	<-d.started
	queued := call(ns, "echo", `{"value":"x"}`) // blocked behind the pool of 2
	closeAfterGrace(t, b, d, grace)
	<-queued.done
	if queued.err == nil || !strings.Contains(queued.err.Error(), "abandoned") {
		t.Errorf("queued call: %v, want abandoned", queued.err)
	}
	events := rec.lines()
	if len(events) != 4 {
		t.Fatalf("events: %d, want 2 starts and 2 settles:\n%s", len(events), strings.Join(events, "\n"))
	}
	for i, id := range []string{"c:code:1", "c:code:2"} {
		ev := jsonv.MustParse(events[2+i])
		if ev.Lookup("type").AsString() != bridge.EventSettle || ev.Lookup("subCallId").AsString() != id || !ev.Lookup("isError").AsBool() ||
			!strings.Contains(ev.String(), "did not stop within 100ms of the end of the run and was detached") {
			t.Errorf("settle event %d: %s", i, ev)
		}
	}

	close(d.release)
	b.Wait()
	for range 2 {
		res := <-observed
		if !res.IsError || res.Err.Code != registry.CodeAborted {
			t.Errorf("observer saw %+v, want ABORTED", res.Err)
		}
	}
	for _, o := range []*outcome{first, second} {
		select {
		case <-o.done:
			if o.err == nil {
				t.Errorf("a detached call settled with a value: %s", o.value)
			}
		default: // the program's promise need not settle: the run is over
		}
	}
	if n := len(rec.lines()); n != 4 {
		t.Errorf("%d events after the detached bodies returned, want no more than the 4 emitted by Close", n)
	}
	b.Close() // idempotent, and returns at once
}

// A body that honours cancellation within the grace period is awaited and committed as before.
func TestCloseAwaitsBodiesWithinGrace(t *testing.T) {
	leakcheck.Check(t)
	slow := registry.Tool{Name: "slow", Output: registry.AnyOutput(),
		Execute: func(ctx context.Context, _ *registry.Invocation) (jsonv.Value, error) {
			<-ctx.Done()
			time.Sleep(20 * time.Millisecond) // cleaning up
			return jsonv.Value{}, context.Cause(ctx)
		}}
	reg := newRegistry(t, slow)
	var rec recorder
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"slow"}, Events: rec.record, DrainGrace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	o := call(b.Namespace(), "slow", `{}`)
	for len(rec.lines()) == 0 {
		time.Sleep(time.Millisecond)
	}
	b.Close()
	<-o.done
	events := rec.lines()
	if len(events) != 2 || strings.Contains(events[1], "detached") || !strings.Contains(events[1], dispatch.ErrRunSettled.Error()) {
		t.Fatalf("events:\n%s", strings.Join(events, "\n"))
	}
	b.Wait()
}
