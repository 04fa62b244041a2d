package jsruntime

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/jsonv"
)

// inlineProbe is a binding with both forms, counting the calls each form gets; the Inline form
// runs block (if set) before it settles.
type inlineProbe struct {
	calls, inline atomic.Int32
	block         func(ctx context.Context)
}

func (p *inlineProbe) function(name string) Function {
	return Function{Name: name,
		Call: func(ctx context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
			p.calls.Add(1)
			go func() {
				if p.block != nil {
					p.block(ctx)
				}
				settle(args, nil)
			}()
		},
		Inline: func(ctx context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
			p.inline.Add(1)
			if p.block != nil {
				p.block(ctx)
			}
			settle(args, nil)
		}}
}

// echoFunction settles with its argument, through Call only.
func echoFunction(name string) Function {
	return Function{Name: name, Call: func(_ context.Context, args jsonv.Value, settle func(jsonv.Value, error)) { settle(args, nil) }}
}

// A pool makes sequential awaited calls through a binding's Inline form from a run's second
// call on (the reading goroutine runs them: no hand-off per call); the in-process runtime,
// whose loop must not block, never does.
func TestProcessCallsInlineWhenNothingElseIsRead(t *testing.T) {
	const program = `let n = 0; for (let i = 0; i < 20; i++) n += (await tools.echo({i})).i; return n`
	t.Run("process", func(t *testing.T) {
		p := newTestPool(t, ProcessConfig{Size: 1})
		var probe inlineProbe
		if got := runValue(t, p, Request{Program: program, Bindings: toolsNS(probe.function("echo"))}); got != "190" {
			t.Fatalf("value %s, want 190", got)
		}
		if in, calls := probe.inline.Load(), probe.calls.Load(); in != 19 || calls != 1 {
			t.Fatalf("%d calls through Inline and %d through Call, want 19 and 1 (the first)", in, calls)
		}
	})
	t.Run("process-members", func(t *testing.T) {
		p := newTestPool(t, ProcessConfig{Size: 1})
		members, err := NewMembers([]Member{{Name: "other"}, {Name: "echo"}})
		if err != nil {
			t.Fatal(err)
		}
		var probe inlineProbe
		fn := probe.function("echo")
		ns := Namespace{Global: "tools", Members: members,
			Dispatch: func(ctx context.Context, i int, args jsonv.Value, settle func(jsonv.Value, error)) {
				if i != 1 {
					settle(jsonv.Value{}, errors.New("wrong member"))
					return
				}
				fn.Call(ctx, args, settle)
			},
			InlineDispatch: func(ctx context.Context, i int, args jsonv.Value, settle func(jsonv.Value, error)) {
				if i != 1 {
					settle(jsonv.Value{}, errors.New("wrong member"))
					return
				}
				fn.Inline(ctx, args, settle)
			}}
		if got := runValue(t, p, Request{Program: program, Bindings: []Namespace{ns}}); got != "190" {
			t.Fatalf("value %s, want 190", got)
		}
		if in, calls := probe.inline.Load(), probe.calls.Load(); in != 19 || calls != 1 {
			t.Fatalf("%d calls through InlineDispatch and %d through Dispatch, want 19 and 1 (the first)", in, calls)
		}
	})
	t.Run("inprocess", func(t *testing.T) {
		g, err := New(Config{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { g.Close() })
		var probe inlineProbe
		if got := runValue(t, g, Request{Program: program, Bindings: toolsNS(probe.function("echo"))}); got != "190" {
			t.Fatalf("value %s, want 190", got)
		}
		if in, calls := probe.inline.Load(), probe.calls.Load(); in != 0 || calls != 20 {
			t.Fatalf("%d calls through Inline and %d through Call, want 0 and 20", in, calls)
		}
	})
}

// An inline call that waits for a later call of the same program does not deadlock: the run's
// goroutine relieves the pump held up in it within a few milliseconds, reads the later call
// and makes it through Call. (The program makes a first call, which never goes inline, and
// spins between the two calls so that the first is read alone, and goes inline.) Without the
// relief the run hung, past its wall ceiling.
func TestProcessInlineCallWaitingForALaterCall(t *testing.T) {
	p := newTestPool(t, ProcessConfig{Size: 1, Config: Config{WallCeiling: 20 * time.Second, ComputeBudget: 10 * time.Second}})
	released := make(chan struct{})
	var waitProbe inlineProbe
	waitProbe.block = func(context.Context) { <-released }
	var releaseProbe inlineProbe
	release := releaseProbe.function("release")
	inner := release.Call
	release.Call = func(ctx context.Context, args jsonv.Value, settle func(jsonv.Value, error)) {
		close(released)
		inner(ctx, args, settle)
	}
	release.Inline = func(context.Context, jsonv.Value, func(jsonv.Value, error)) {
		t.Error("release went inline while the pump was held up in wait")
	}
	begin := time.Now()
	got := runValue(t, p, Request{Bindings: toolsNS(echoFunction("first"), waitProbe.function("wait"), release), Program: `
		await tools.first({});
		const w = tools.wait({v: "waited"});
		const t0 = Date.now(); while (Date.now() - t0 < 200) {}
		await tools.release({});
		return (await w).v`})
	if got != `"waited"` {
		t.Fatalf("value %s", got)
	}
	if took := time.Since(begin); took > 5*time.Second {
		t.Errorf("the run took %v", took)
	}
	if waitProbe.inline.Load() != 1 {
		t.Fatalf("wait went through Call (%d, Inline %d): the test did not exercise an inline call", waitProbe.calls.Load(), waitProbe.inline.Load())
	}
}

// An inline call that ignores cancellation cannot hold a run: it ends at the wall ceiling, on
// the caller's cancellation, or on Close, as when the call is made through Call.
func TestProcessInlineCallIgnoringCancellation(t *testing.T) {
	for _, how := range []string{"wall", "cancel", "close"} {
		t.Run(how, func(t *testing.T) {
			p, err := NewProcessPool(ProcessConfig{Size: 1, Config: Config{WallCeiling: 300 * time.Millisecond}})
			if err != nil {
				t.Fatal(err)
			}
			release := make(chan struct{})
			entered := make(chan struct{}, 1)
			var probe inlineProbe
			probe.block = func(context.Context) { entered <- struct{}{}; <-release }
			defer func() {
				close(release)
				p.Close()
			}()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				<-entered
				switch how {
				case "cancel":
					cancel()
				case "close":
					p.Close()
				}
			}()
			begin := time.Now()
			res, err := p.Run(ctx, Request{Program: `await tools.first({}); console.log("in"); return await tools.deaf({})`,
				Bindings: toolsNS(echoFunction("first"), probe.function("deaf"))})
			took := time.Since(begin)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]FailureKind{"wall": KindTimeout, "cancel": KindAbort, "close": KindAbort}[how]
			if res.Error == nil || res.Error.Kind != want {
				t.Fatalf("result %+v, want a failure of kind %s", res, want)
			}
			if took > 3*time.Second {
				t.Errorf("the run took %v", took)
			}
			if len(res.Logs) != 1 || res.Logs[0] != "in" {
				t.Errorf("logs %q", res.Logs)
			}
			if probe.inline.Load() != 1 {
				t.Errorf("Inline calls %d, want 1", probe.inline.Load())
			}
		})
	}
}

// An inline call that panics rejects in the program, and the run goes on, as through Call.
func TestProcessInlineCallPanicking(t *testing.T) {
	p := newTestPool(t, ProcessConfig{Size: 1})
	boom := Function{Name: "boom",
		Call: func(context.Context, jsonv.Value, func(jsonv.Value, error)) { panic(errors.New("Call used")) },
		Inline: func(context.Context, jsonv.Value, func(jsonv.Value, error)) {
			panic("inline boom")
		}}
	got := runValue(t, p, Request{Bindings: toolsNS(echoFunction("first"), boom), Program: `
		await tools.first({});
		try { await tools.boom({}); return "no error" } catch (e) { return e.message + " / " + (await tools.boom({}).catch((e) => e.name)) }`})
	if got != `"binding \"boom\" failed: inline boom / ToolCallError"` {
		t.Fatalf("value %s", got)
	}
}

// Calls a program makes together still overlap when their binding has an Inline form: each
// of five calls returns only once all five have started. Calls read together go through Call;
// one read alone may go inline and hold the pump, which is then relieved.
func TestProcessInlineCallsStillOverlap(t *testing.T) {
	p := newTestPool(t, ProcessConfig{Size: 1, Config: Config{WallCeiling: 20 * time.Second}})
	const n = 5
	var entered atomic.Int32
	all := make(chan struct{})
	var probe inlineProbe
	probe.block = func(ctx context.Context) {
		if entered.Add(1) == n {
			close(all)
		}
		select {
		case <-all:
		case <-ctx.Done():
		}
	}
	begin := time.Now()
	got := runValue(t, p, Request{Bindings: toolsNS(probe.function("meet")), Program: `
		const rs = await Promise.all([1, 2, 3, 4, 5].map((i) => tools.meet({i})));
		return rs.map((r) => r.i).join()`})
	if got != `"1,2,3,4,5"` {
		t.Fatalf("value %s", got)
	}
	if took := time.Since(begin); took > 5*time.Second {
		t.Errorf("the run took %v", took)
	}
}
