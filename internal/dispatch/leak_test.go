package dispatch_test

import (
	"context"
	"testing"

	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/internal/leakcheck"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// Closing a bridge with sub-calls in flight and queued leaves no goroutine behind: not its workers,
// not the bodies, not the settle callbacks.
func TestCloseWithInFlightCallsLeavesNoGoroutines(t *testing.T) {
	leakcheck.Check(t)
	started := make(chan struct{}, 4)
	slow := registry.Tool{Name: "slow", Output: registry.AnyOutput(),
		ConcurrencySafe: func(jsonv.Value) bool { return true },
		Execute: func(ctx context.Context, _ *registry.Invocation) (jsonv.Value, error) {
			started <- struct{}{}
			<-ctx.Done()
			return jsonv.Value{}, context.Cause(ctx)
		}}
	reg := newRegistry(t, slow, echo)
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"slow", "echo"}, MaxParallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	ns := b.Namespace()
	outcomes := []*outcome{call(ns, "slow", `{}`), call(ns, "slow", `{}`), call(ns, "slow", `{}`), call(ns, "echo", `{"value":"x"}`)}
	<-started
	<-started
	b.Close()
	for i, o := range outcomes {
		<-o.done
		if o.err == nil {
			t.Errorf("call %d succeeded after Close", i)
		}
	}
}

// The workers a bridge keeps parked between sub-calls exit when it is closed.
func TestCloseAfterSettledCallsLeavesNoGoroutines(t *testing.T) {
	leakcheck.Check(t)
	reg := newRegistry(t, echo)
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"echo"}})
	if err != nil {
		t.Fatal(err)
	}
	ns := b.Namespace()
	for range 3 {
		o := call(ns, "echo", `{"value":"x"}`)
		<-o.done
		if o.err != nil {
			t.Fatal(o.err)
		}
	}
	b.Close()
}
