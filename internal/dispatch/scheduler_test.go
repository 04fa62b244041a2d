package dispatch_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/internal/dispatch"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/registry"
)

// schedSettleWindow is how long a negative check waits for something that must not happen.
const schedSettleWindow = 30 * time.Millisecond

// schedPool is a set of tools whose bodies block until the test releases them, recording
// starts, ends and the peak number of bodies running at once.
type schedPool struct {
	mu      sync.Mutex
	active  int
	peak    int
	log     []string
	gates   map[string]chan struct{}
	started chan string
	ended   chan string
}

func newSchedPool() *schedPool {
	return &schedPool{gates: map[string]chan struct{}{}, started: make(chan string, 100), ended: make(chan string, 100)}
}

func (p *schedPool) record(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log = append(p.log, s)
}

func (p *schedPool) lines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.log)
}

func (p *schedPool) gate(id string) chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	g, ok := p.gates[id]
	if !ok {
		g = make(chan struct{})
		p.gates[id] = g
	}
	return g
}

func (p *schedPool) release(ids ...string) {
	for _, id := range ids {
		close(p.gate(id))
	}
}

// tool returns a tool whose body waits for gate(args.id); safe classifies it (nil: exclusive).
func (p *schedPool) tool(name string, safe func(jsonv.Value) bool) registry.Tool {
	return registry.Tool{Name: name, Output: registry.AnyOutput(), ConcurrencySafe: safe,
		Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			id := inv.Arguments.Lookup("id").AsString()
			p.mu.Lock()
			p.active++
			p.peak = max(p.peak, p.active)
			p.log = append(p.log, "start "+id)
			p.mu.Unlock()
			p.started <- id
			select {
			case <-p.gate(id):
			case <-ctx.Done():
			}
			p.mu.Lock()
			p.active--
			p.log = append(p.log, "end "+id)
			p.mu.Unlock()
			p.ended <- id
			return jsonv.StringValue(id), nil
		}}
}

func schedSafe(jsonv.Value) bool { return true }

// schedExpect waits for the next id on c and checks it.
func schedExpect(t *testing.T, c chan string, want string) {
	t.Helper()
	select {
	case got := <-c:
		if got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("timed out waiting for %q", want)
	}
}

// schedExpectSet waits for len(want) ids on c and checks them in any order: bodies that
// overlap reach their first line in any order.
func schedExpectSet(t *testing.T, c chan string, want ...string) {
	t.Helper()
	var got []string
	for range want {
		select {
		case id := <-c:
			got = append(got, id)
		case <-time.After(5 * time.Second):
			t.Fatalf("timed out waiting for %v, got %v", want, got)
		}
	}
	slices.Sort(got)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// schedQuiet checks that nothing arrives on c for a short while.
func schedQuiet(t *testing.T, c chan string, what string) {
	t.Helper()
	select {
	case got := <-c:
		t.Fatalf("%s: %q happened too early", what, got)
	case <-time.After(schedSettleWindow):
	}
}

func schedNew(t *testing.T, opts dispatch.Options) *dispatch.Bridge {
	t.Helper()
	b, err := dispatch.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

func schedArgs(id string) string { return fmt.Sprintf(`{"id":%q}`, id) }

func schedWait(t *testing.T, os ...*outcome) {
	t.Helper()
	for _, o := range os {
		select {
		case <-o.done:
		case <-time.After(5 * time.Second):
			t.Fatal("timed out waiting for a settlement")
		}
	}
}

func schedSettleIDs(r *recorder, typ string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		if e.Type == typ {
			out = append(out, e.SubCallID)
		}
	}
	return out
}

func TestSchedSafeCallsOverlapUpToMaxParallel(t *testing.T) {
	for _, tc := range []struct {
		max, calls, peak int
	}{
		{0, 3, 3}, // the default (10) lets all three run
		{2, 4, 2},
		{1, 3, 1},
	} {
		t.Run(fmt.Sprintf("max=%d", tc.max), func(t *testing.T) {
			p := newSchedPool()
			reg := newRegistry(t, p.tool("read", schedSafe))
			b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"read"}, MaxParallel: tc.max})
			ns := b.Namespace()
			var outs []*outcome
			for i := range tc.calls {
				outs = append(outs, call(ns, "read", schedArgs(fmt.Sprint(i+1))))
			}
			next := 1
			for next <= tc.calls {
				// Exactly min(peak, remaining) bodies start, and no more until one ends.
				batch := min(tc.peak, tc.calls-next+1)
				var ids []string
				for range batch {
					ids = append(ids, fmt.Sprint(next))
					next++
				}
				schedExpectSet(t, p.started, ids...)
				schedQuiet(t, p.started, "a start beyond MaxParallel")
				p.release(ids...)
				for range ids {
					<-p.ended
				}
			}
			schedWait(t, outs...)
			if p.peak != tc.peak {
				t.Fatalf("peak = %d, want %d", p.peak, tc.peak)
			}
		})
	}
}

func TestSchedNegativeMaxParallelIsRejected(t *testing.T) {
	if _, err := dispatch.New(context.Background(), dispatch.Options{Executor: registry.New(), MaxParallel: -1}); err == nil {
		t.Fatal("New accepted MaxParallel -1")
	}
}

func TestSchedPreExecuteStagesNeverOverlapAndStartInOrder(t *testing.T) {
	p := newSchedPool()
	reg := newRegistry(t, p.tool("read", schedSafe))
	entered := make(chan string, 10)
	hold := make(chan struct{})
	reg.OnPreExecute(func(_ context.Context, exec registry.Execution, next func() registry.PreDecision) registry.PreDecision {
		p.record("pre-enter " + exec.CallID)
		entered <- exec.CallID
		if exec.CallID == "c:code:1" {
			<-hold
		}
		p.record("pre-exit " + exec.CallID)
		return next()
	})
	rec := &recorder{}
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"read"}, Events: rec.record})
	ns := b.Namespace()
	one, two := call(ns, "read", schedArgs("1")), call(ns, "read", schedArgs("2"))
	schedExpect(t, entered, "c:code:1")
	schedQuiet(t, entered, "call 2's pre-execute while call 1's is running")
	if got := schedSettleIDs(rec, bridge.EventStart); !slices.Equal(got, []string{"c:code:1"}) {
		t.Fatalf("start events while call 1 is in pre-execute: %v", got)
	}
	close(hold)
	schedExpect(t, entered, "c:code:2")
	schedExpectSet(t, p.started, "1", "2")
	p.release("1", "2")
	schedWait(t, one, two)
	want := []string{"pre-enter c:code:1", "pre-exit c:code:1", "pre-enter c:code:2", "pre-exit c:code:2"}
	var pre []string
	for _, l := range p.lines() {
		if strings.HasPrefix(l, "pre-") {
			pre = append(pre, l)
		}
	}
	if !slices.Equal(pre, want) {
		t.Fatalf("pre-execute log = %v, want %v", pre, want)
	}
	// Both bodies overlapped: the pre-execute stages are what is serialized, not the bodies.
	if p.peak != 2 {
		t.Fatalf("peak = %d, want 2", p.peak)
	}
}

func TestSchedWriterDrainsThePoolRunsAloneAndHoldsLaterCallsUntilItsCommit(t *testing.T) {
	p := newSchedPool()
	reg := newRegistry(t, p.tool("read", schedSafe), p.tool("write", nil))
	postHold := make(chan struct{})
	postEntered := make(chan string, 10)
	reg.OnPostExecute(func(_ context.Context, exec registry.Execution, _ registry.Result, next func() registry.PostDecision) registry.PostDecision {
		p.record("post " + exec.CallID)
		postEntered <- exec.CallID
		if exec.CallID == "c:code:3" {
			<-postHold
		}
		return next()
	})
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"read", "write"}})
	ns := b.Namespace()
	outs := []*outcome{
		call(ns, "read", schedArgs("1")),
		call(ns, "read", schedArgs("2")),
		call(ns, "write", schedArgs("3")),
		call(ns, "read", schedArgs("4")),
	}
	// Two...
	schedExpectSet(t, p.started, "1", "2")
	schedQuiet(t, p.started, "the writer while reads run")
	p.release("1")
	schedExpect(t, postEntered, "c:code:1")
	schedQuiet(t, p.started, "the writer while a read runs")
	p.release("2")
	schedExpect(t, postEntered, "c:code:2")
	// ...then one...
	schedExpect(t, p.started, "3")
	schedQuiet(t, p.started, "a read while the writer runs")
	p.release("3")
	schedExpect(t, postEntered, "c:code:3")
	schedQuiet(t, p.started, "a read while the writer's post-execute runs")
	close(postHold)
	// ...then one.
	schedExpect(t, p.started, "4")
	p.release("4")
	schedWait(t, outs...)
	if p.peak != 2 {
		t.Fatalf("peak = %d, want 2", p.peak)
	}
	want := []string{"end 1", "post c:code:1", "end 2", "post c:code:2",
		"start 3", "end 3", "post c:code:3", "start 4", "end 4", "post c:code:4"}
	if got := p.lines()[2:]; !slices.Equal(got, want) {
		t.Fatalf("log:\n%v\nwant:\n%v", got, want)
	}
}

// An exclusive call waits for every earlier call to commit, not only for the pool to drain: a
// safe body that finishes while the exclusive call is being classified is committed (its
// post-execute runs) before the exclusive call's pre-execute.
func TestSchedExclusiveCallStartsOnlyAfterEarlierCommits(t *testing.T) {
	p := newSchedPool()
	classifying, decide := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	writeSafe := func(jsonv.Value) bool {
		if calls.Add(1) == 1 {
			close(classifying)
			<-decide
		}
		return false
	}
	reg := newRegistry(t, p.tool("read", schedSafe), p.tool("write", writeSafe))
	reg.OnPreExecute(func(_ context.Context, exec registry.Execution, next func() registry.PreDecision) registry.PreDecision {
		p.record("pre " + exec.CallID)
		return next()
	})
	reg.OnPostExecute(func(_ context.Context, exec registry.Execution, _ registry.Result, next func() registry.PostDecision) registry.PostDecision {
		p.record("post " + exec.CallID)
		return next()
	})
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"read", "write"}})
	ns := b.Namespace()
	read := call(ns, "read", schedArgs("1"))
	schedExpect(t, p.started, "1")
	write := call(ns, "write", schedArgs("2"))
	<-classifying
	// The read's body ends while the write is being classified: the pool is empty again, but
	// the read has not committed.
	p.release("1")
	schedExpect(t, p.ended, "1")
	time.Sleep(schedSettleWindow)
	close(decide)
	schedExpect(t, p.started, "2")
	p.release("2")
	schedWait(t, read, write)
	want := []string{"pre c:code:1", "start 1", "end 1", "post c:code:1", "pre c:code:2", "start 2", "end 2", "post c:code:2"}
	if got := p.lines(); !slices.Equal(got, want) {
		t.Fatalf("log:\n%v\nwant:\n%v", got, want)
	}
}

// A body that runs while nothing else is pending does not hold up a call submitted meanwhile:
// safe calls made one after the other, without waiting, still overlap.
func TestSchedCallSubmittedWhileALoneBodyRunsStillOverlaps(t *testing.T) {
	p := newSchedPool()
	reg := newRegistry(t, p.tool("read", schedSafe))
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"read"}})
	ns := b.Namespace()
	one := call(ns, "read", schedArgs("1"))
	schedExpect(t, p.started, "1")
	two := call(ns, "read", schedArgs("2"))
	schedExpect(t, p.started, "2") // while 1 is still running
	three := call(ns, "read", schedArgs("3"))
	schedExpect(t, p.started, "3")
	p.release("3", "2", "1")
	schedWait(t, one, two, three)
	if p.peak != 3 {
		t.Fatalf("peak = %d, want 3", p.peak)
	}
}

func TestSchedExclusiveCallsRunOneAtATimeInSubmissionOrder(t *testing.T) {
	p := newSchedPool()
	reg := newRegistry(t, p.tool("write", nil))
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"write"}})
	ns := b.Namespace()
	var outs []*outcome
	for _, id := range []string{"1", "2", "3"} {
		outs = append(outs, call(ns, "write", schedArgs(id)))
	}
	for _, id := range []string{"1", "2", "3"} {
		schedExpect(t, p.started, id)
		schedQuiet(t, p.started, "an exclusive call while another runs")
		p.release(id)
	}
	schedWait(t, outs...)
	if p.peak != 1 {
		t.Fatalf("peak = %d, want 1", p.peak)
	}
}

func TestSchedCommitsInSubmissionOrderWhenBodiesFinishOutOfOrder(t *testing.T) {
	p := newSchedPool()
	reg := newRegistry(t, p.tool("read", schedSafe))
	reg.OnPostExecute(func(_ context.Context, exec registry.Execution, _ registry.Result, next func() registry.PostDecision) registry.PostDecision {
		p.record("post " + exec.CallID)
		return next()
	})
	rec := &recorder{}
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"read"}, Events: rec.record})
	ns := b.Namespace()
	var settled []string
	var mu sync.Mutex
	var outs []*outcome
	for _, id := range []string{"1", "2", "3"} {
		o := &outcome{done: make(chan struct{})}
		ns.Functions[0].Call(context.Background(), jsonv.MustParse(schedArgs(id)), func(v jsonv.Value, err error) {
			mu.Lock()
			settled = append(settled, v.AsString())
			mu.Unlock()
			o.value, o.err = v, err
			close(o.done)
		})
		outs = append(outs, o)
	}
	schedExpectSet(t, p.started, "1", "2", "3")
	p.release("3")
	schedExpect(t, p.ended, "3")
	p.release("2")
	schedExpect(t, p.ended, "2")
	time.Sleep(schedSettleWindow)
	mu.Lock()
	early := slices.Clone(settled)
	mu.Unlock()
	if len(early) != 0 {
		t.Fatalf("promises settled before call 1 committed: %v", early)
	}
	p.release("1")
	schedWait(t, outs...)
	if !slices.Equal(settled, []string{"1", "2", "3"}) {
		t.Fatalf("promise order = %v", settled)
	}
	var post []string
	for _, l := range p.lines() {
		if strings.HasPrefix(l, "post ") {
			post = append(post, l)
		}
	}
	if want := []string{"post c:code:1", "post c:code:2", "post c:code:3"}; !slices.Equal(post, want) {
		t.Fatalf("post-execute order = %v", post)
	}
	b.Close()
	if got := schedSettleIDs(rec, bridge.EventSettle); !slices.Equal(got, []string{"c:code:1", "c:code:2", "c:code:3"}) {
		t.Fatalf("settle events = %v", got)
	}
}

func TestSchedClassifiesAtStartTime(t *testing.T) {
	p := newSchedPool()
	var safe atomic.Bool
	reg := newRegistry(t, p.tool("write", nil), p.tool("flip", func(jsonv.Value) bool { return safe.Load() }))
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"write", "flip"}})
	ns := b.Namespace()
	w := call(ns, "write", schedArgs("w"))
	schedExpect(t, p.started, "w")
	// Submitted while flip is unsafe, started after it became safe: the two overlap.
	f1, f2 := call(ns, "flip", schedArgs("1")), call(ns, "flip", schedArgs("2"))
	safe.Store(true)
	p.release("w")
	schedExpectSet(t, p.started, "1", "2")
	p.release("1", "2")
	schedWait(t, w, f1, f2)
	// And the reverse: submitted safe, started unsafe, they run one at a time.
	w2 := call(ns, "write", schedArgs("w2"))
	schedExpect(t, p.started, "w2")
	f3, f4 := call(ns, "flip", schedArgs("3")), call(ns, "flip", schedArgs("4"))
	safe.Store(false)
	p.release("w2")
	schedExpect(t, p.started, "3")
	schedQuiet(t, p.started, "an unsafe flip while another runs")
	p.release("3")
	schedExpect(t, p.started, "4")
	p.release("4")
	schedWait(t, w2, f3, f4)
}

func TestSchedFireAndForgetCallGetsOneSettleEventBeforeCloseReturns(t *testing.T) {
	for _, listeners := range [][]bridge.LogFunc{nil, {func(_ context.Context, _ bridge.LogEntry, next func() []registry.Content) []registry.Content {
		time.Sleep(10 * time.Millisecond)
		return next()
	}}} {
		p := newSchedPool()
		reg := newRegistry(t, p.tool("read", schedSafe))
		rec := &recorder{}
		b, err := dispatch.New(context.Background(), dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"read"}, Events: rec.record, LogListeners: listeners})
		if err != nil {
			t.Fatal(err)
		}
		o := call(b.Namespace(), "read", schedArgs("1"))
		schedExpect(t, p.started, "1")
		b.Close() // the body ends on cancellation with a success: the registry makes it ABORTED
		<-o.done
		lines := rec.lines()
		if len(lines) != 2 || !strings.Contains(lines[1], `"isError":true,"content":[{"type":"text","text":"Error: tool call aborted"}]`) {
			t.Fatalf("events (listeners %d):\n%s", len(listeners), strings.Join(lines, "\n"))
		}
		if o.err == nil || o.err.Error() != "run_code run is over (run_code settled); read result discarded" {
			t.Fatalf("err = %v", o.err)
		}
	}
}

func TestSchedPanickingLogListenerOnlyWarns(t *testing.T) {
	var buf bytes.Buffer
	var bufMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(schedWriter{&buf, &bufMu}, nil))
	reg := newRegistry(t, echo)
	rec := &recorder{}
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"echo"}, Events: rec.record, Logger: logger,
		LogListeners: []bridge.LogFunc{func(context.Context, bridge.LogEntry, func() []registry.Content) []registry.Content {
			panic("listener exploded")
		}}})
	o := call(b.Namespace(), "echo", `{"value":"x"}`)
	schedWait(t, o)
	b.Close()
	if o.err != nil || o.value.AsString() != "echo:x" {
		t.Fatalf("outcome = %v, %v", o.value, o.err)
	}
	if got := rec.lines(); len(got) != 2 || !strings.HasSuffix(got[1], `"isError":false,"content":[{"type":"text","text":"echo:x"}],"result":"echo:x"}`) {
		t.Fatalf("events:\n%s", strings.Join(got, "\n"))
	}
	bufMu.Lock()
	defer bufMu.Unlock()
	if !strings.Contains(buf.String(), "code-dispatch-log listener failed for echo: listener exploded; logging the original settled content") {
		t.Fatalf("log = %q", buf.String())
	}
}

type schedWriter struct {
	buf *bytes.Buffer
	mu  *sync.Mutex
}

func (w schedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func TestSchedLogWaterfallReshapesOnlyTheEventInOrder(t *testing.T) {
	reg := newRegistry(t, echo)
	rec := &recorder{}
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"echo"}, Events: rec.record,
		LogListeners: []bridge.LogFunc{
			func(_ context.Context, e bridge.LogEntry, next func() []registry.Content) []registry.Content {
				return []registry.Content{registry.TextContent("outer(" + registry.TextOf(next()) + ")@" + e.SubCallID)}
			},
			func(_ context.Context, e bridge.LogEntry, next func() []registry.Content) []registry.Content {
				return []registry.Content{registry.TextContent("inner(" + registry.TextOf(e.Content) + ")")}
			},
			func(context.Context, bridge.LogEntry, func() []registry.Content) []registry.Content {
				panic("never reached: inner does not call next")
			},
		}})
	o := call(b.Namespace(), "echo", `{"value":"x"}`)
	schedWait(t, o)
	b.Close()
	if o.value.AsString() != "echo:x" {
		t.Fatalf("program value = %v", o.value)
	}
	if got := rec.lines()[1]; !strings.Contains(got, `"content":[{"type":"text","text":"outer(inner(echo:x))@c:code:1"}]`) {
		t.Fatalf("settle event = %s", got)
	}
}

func TestSchedSlowLogListenerDelaysNeitherTheProgramNorReordersSettleEvents(t *testing.T) {
	reg := newRegistry(t, echo)
	rec := &recorder{}
	hold := make(chan struct{})
	b := schedNew(t, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"echo"}, Events: rec.record,
		LogListeners: []bridge.LogFunc{func(_ context.Context, e bridge.LogEntry, next func() []registry.Content) []registry.Content {
			if e.SubCallID == "c:code:1" {
				<-hold
			}
			return next()
		}}})
	ns := b.Namespace()
	one := call(ns, "echo", `{"value":"1"}`)
	schedWait(t, one) // the program has its value while call 1's listener is still blocked
	two := call(ns, "echo", `{"value":"2"}`)
	schedWait(t, two)
	time.Sleep(schedSettleWindow)
	if got := schedSettleIDs(rec, bridge.EventSettle); len(got) != 0 {
		t.Fatalf("settle events before call 1's listener finished: %v", got)
	}
	close(hold)
	b.Close()
	if got := schedSettleIDs(rec, bridge.EventSettle); !slices.Equal(got, []string{"c:code:1", "c:code:2"}) {
		t.Fatalf("settle events = %v", got)
	}
}

// schedOuter runs body inside a registry call of a tool "outer", handing it a bridge whose
// Outer is that call's invocation, and returns the outer result.
func schedOuter(t *testing.T, reg *registry.Registry, tools []string, body func(b *dispatch.Bridge)) registry.Result {
	t.Helper()
	if _, err := reg.Register(registry.Tool{Name: "outer", Output: registry.AnyOutput(), Execute: func(ctx context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		b, err := dispatch.New(ctx, dispatch.Options{Executor: reg, CallID: inv.CallID, Token: inv.Token, Tools: tools, Outer: inv})
		if err != nil {
			return jsonv.Value{}, err
		}
		defer b.Close()
		body(b)
		return jsonv.NullValue(), nil
	}}); err != nil {
		t.Fatal(err)
	}
	return reg.Execute(context.Background(), registry.Call{CallID: "call-1", Name: "outer", Arguments: jsonv.MustParse(`{}`)})
}

func schedContentTool(name string, content ...registry.Content) registry.Tool {
	return registry.Tool{Name: name, Output: registry.Output{Schema: jsonv.ObjectValue(), Render: func(_, _ jsonv.Value) []registry.Content { return content }},
		Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.NullValue(), nil }}
}

func TestSchedCommitForwardsImagesContextsAndConclusions(t *testing.T) {
	img := registry.Content{Type: "image", Data: "AAAA", MimeType: "image/png"}
	shot := []registry.Content{registry.TextContent("a screenshot"), img}
	note := func(s string) registry.ContextMessage {
		return registry.ContextMessage{Source: "tool", Content: []registry.Content{registry.TextContent(s)}}
	}
	reg := newRegistry(t,
		schedContentTool("shot", shot...),
		schedContentTool("shotBlocked", shot...),
		schedContentTool("shotReplaced", shot...),
		registry.Tool{Name: "notes", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			inv.DeferContext(note("first"))
			inv.DeferContext(note("second"))
			return jsonv.NullValue(), nil
		}},
		registry.Tool{Name: "failingNotes", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			inv.DeferContext(note("from a failure"))
			inv.ConcludeTurn()
			return jsonv.Value{}, errors.New("boom")
		}},
		registry.Tool{Name: "finish", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
			inv.ConcludeTurn()
			return jsonv.NullValue(), nil
		}},
	)
	reg.OnPostExecute(func(_ context.Context, exec registry.Execution, _ registry.Result, next func() registry.PostDecision) registry.PostDecision {
		switch exec.Name {
		case "shotBlocked":
			return registry.Block(registry.TextContent("no pictures"))
		case "shotReplaced":
			return registry.AcceptContent(registry.TextContent("a picture was here"))
		}
		return next()
	})
	tools := []string{"shot", "shotBlocked", "shotReplaced", "notes", "failingNotes", "finish"}
	res := schedOuter(t, reg, tools, func(b *dispatch.Bridge) {
		ns := b.Namespace()
		schedWait(t,
			call(ns, "shotBlocked", `{}`), call(ns, "shotReplaced", `{}`), call(ns, "shot", `{}`),
			call(ns, "notes", `{}`), call(ns, "failingNotes", `{}`))
	})
	if res.IsError || res.ConcludesTurn {
		t.Fatalf("outer result = %+v (a failure must not conclude the turn)", res)
	}
	want := []registry.ContextMessage{
		{Source: dispatch.ContextSource, Content: shot},
		note("first"), note("second"), note("from a failure"),
	}
	if fmt.Sprint(res.AdditionalContexts) != fmt.Sprint(want) {
		t.Fatalf("contexts:\n%+v\nwant:\n%+v", res.AdditionalContexts, want)
	}

	reg2 := newRegistry(t, registry.Tool{Name: "finish", Output: registry.AnyOutput(), Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
		inv.ConcludeTurn()
		return jsonv.NullValue(), nil
	}})
	res = schedOuter(t, reg2, []string{"finish"}, func(b *dispatch.Bridge) { schedWait(t, call(b.Namespace(), "finish", `{}`)) })
	if res.IsError || !res.ConcludesTurn {
		t.Fatalf("outer result = %+v, want it to conclude the turn", res)
	}
}

func TestSchedOuterCancellationCancelsInFlightAbandonsQueuedRefusesLater(t *testing.T) {
	causes := make(chan error, 1)
	started := make(chan struct{})
	slow := registry.Tool{Name: "slow", Output: registry.AnyOutput(), Execute: func(ctx context.Context, _ *registry.Invocation) (jsonv.Value, error) {
		close(started)
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return jsonv.Value{}, context.Cause(ctx)
	}}
	reg := newRegistry(t, slow, echo)
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("user pressed stop")
	rec := &recorder{}
	b, err := dispatch.New(ctx, dispatch.Options{Executor: reg, CallID: "c", Tools: []string{"slow", "echo"}, Events: rec.record})
	if err != nil {
		t.Fatal(err)
	}
	ns := b.Namespace()
	inFlight := call(ns, "slow", `{}`)
	queued := call(ns, "echo", `{"value":"q"}`)
	<-started
	cancel(stop)
	if got := <-causes; got != stop {
		t.Fatalf("in-flight cause = %v", got)
	}
	schedWait(t, inFlight, queued)
	late := call(ns, "echo", `{"value":"l"}`)
	schedWait(t, late)
	b.Close()
	for _, c := range []struct {
		o    *outcome
		want string
	}{
		{inFlight, "run_code run is over (user pressed stop); slow result discarded"},
		{queued, "run_code run is over (user pressed stop); echo tool call abandoned"},
		{late, "run_code run is over (user pressed stop); echo not dispatched"},
	} {
		if c.o.err == nil || c.o.err.Error() != c.want {
			t.Errorf("err = %v, want %q", c.o.err, c.want)
		}
	}
	if got := schedSettleIDs(rec, bridge.EventStart); !slices.Equal(got, []string{"c:code:1"}) {
		t.Fatalf("start events = %v", got)
	}
	if got := schedSettleIDs(rec, bridge.EventSettle); !slices.Equal(got, []string{"c:code:1"}) {
		t.Fatalf("settle events = %v", got)
	}
}
