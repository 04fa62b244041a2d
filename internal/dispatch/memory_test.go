package dispatch_test

import (
	"context"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/internal/membudget"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

const mib = 1 << 20

// Each sub-call's memory account lives from its start to its commit: what its body reserved
// is still held while the runtime takes the result (settle), and returned right after. Calls
// that finish before an earlier one commit keep their reservations, and the earlier call,
// reserving last, is not kept waiting for them (that would deadlock the ordered commits).
func TestSubCallMemoryIsHeldUntilCommittedInOrder(t *testing.T) {
	budget := membudget.New(10 * mib)
	firstMayReserve := make(chan struct{})
	hold := registry.Tool{Name: "hold", Output: registry.AnyOutput(), ConcurrencySafe: func(jsonv.Value) bool { return true },
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			size := int64(inv.Arguments.Lookup("mib").AsNumber()) * mib
			if inv.Arguments.Lookup("first").AsBool() {
				select {
				case <-firstMayReserve:
				case <-ctx.Done():
					return jsonv.Value{}, ctx.Err()
				}
			}
			if err := membudget.Reserve(ctx, size); err != nil {
				return jsonv.Value{}, err
			}
			return jsonv.Int(size), nil
		}}
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: newRegistry(t, hold), CallID: "c", Tools: []string{"hold"}, MaxParallel: 4, Memory: budget})
	if err != nil {
		t.Fatal(err)
	}
	ns := b.Namespace()
	type settled struct {
		value jsonv.Value
		err   error
		held  int64 // the budget's holding while the result was being handed over
	}
	results := make(chan settled, 4)
	bind := func(args string) {
		for _, f := range ns.Functions {
			f.Call(context.Background(), jsonv.MustParse(args), func(v jsonv.Value, err error) {
				now, _ := budget.Held()
				results <- settled{v, err, now}
			})
		}
	}
	bind(`{"mib": 6, "first": true}`)
	for range 3 {
		bind(`{"mib": 3}`)
	}
	// The three later calls reserve 9 MiB and finish; they cannot commit before the first.
	deadline := time.Now().Add(5 * time.Second)
	for now, _ := budget.Held(); now != 9*mib; now, _ = budget.Held() {
		if time.Now().After(deadline) {
			t.Fatalf("the later calls hold %d, want 9 MiB", now)
		}
		time.Sleep(time.Millisecond)
	}
	close(firstMayReserve)
	want := []struct{ value, held int64 }{{6 * mib, 15 * mib}, {3 * mib, 9 * mib}, {3 * mib, 6 * mib}, {3 * mib, 3 * mib}}
	for i, w := range want {
		select {
		case r := <-results:
			if r.err != nil || r.value.AsNumber() != float64(w.value) || r.held != w.held {
				t.Fatalf("call %d settled with %v, %v while %d was held; want %d while %d was held", i+1, r.value, r.err, r.held, w.value, w.held)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("call %d never settled: the first call waits for memory the later ones hold", i+1)
		}
	}
	b.Close()
	if now, peak := budget.Held(); now != 0 || peak != 15*mib {
		t.Fatalf("held %d (peak %d) after the run; want 0 (peak 15 MiB: the first call's overdraft)", now, peak)
	}
}
