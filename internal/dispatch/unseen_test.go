package dispatch_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// callIn is call with the run's context the runtime would pass.
func callIn(run context.Context, ns jsruntime.Namespace, name, args string) *outcome {
	return callWith(run, ns, name, args, false)
}

// Unseen lists, in submission order, the failures of the calls that settled after the run had
// ended (its context done): one that failed, one detached at Close, and one still queued that
// never started. A failure the program saw while it ran is not among them.
func TestUnseenFailures(t *testing.T) {
	release := make(chan struct{})
	slowFail := registry.Tool{Name: "slow_fail", Output: registry.AnyOutput(), ConcurrencySafe: func(jsonv.Value) bool { return true },
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			<-release
			return jsonv.Value{}, errors.New("slow failure")
		}}
	fastFail := registry.Tool{Name: "fast_fail", Output: registry.AnyOutput(),
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
			return jsonv.Value{}, errors.New("seen")
		}}
	d := newDeaf()
	defer close(d.release)
	reg := newRegistry(t, slowFail, fastFail, d.tool("deaf"), echo)
	b, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"slow_fail", "fast_fail", "deaf", "echo"},
		MaxParallel: 2, DrainGrace: 50 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ns := b.Namespace()
	run, endRun := context.WithCancel(context.Background())
	seen := callIn(run, ns, "fast_fail", `{}`)
	<-seen.done
	failed := callIn(run, ns, "slow_fail", `{}`)
	callIn(run, ns, "deaf", `{}`)
	<-d.started
	callIn(run, ns, "echo", `{"value":"x"}`) // queued behind the pool of 2
	endRun()                                 // the program returned
	close(release)
	<-failed.done
	b.Close()
	got := b.Unseen()
	if len(got) != 3 {
		t.Fatalf("Unseen = %+v, want 3", got)
	}
	want := []struct {
		id, call string
		started  bool
		message  string
	}{
		{"c:code:2", "tools.slow_fail", true, "slow failure"},
		{"c:code:3", "tools.deaf", true, "detached"},
		{"c:code:4", "tools.echo", false, ""},
	}
	for i, w := range want {
		u := got[i]
		if u.SubCallID != w.id || u.Call != w.call || u.Started != w.started || !strings.Contains(u.Message, w.message) {
			t.Errorf("Unseen[%d] = %+v, want %+v", i, u, w)
		}
	}
}
