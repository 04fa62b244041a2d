package replay_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
	"github.com/runcode-dev/runcode/replay"
)

// world is a set of real tools with observable effects: a file store that write changes and
// read reads, and a failing tool.
type world struct {
	mu     sync.Mutex
	files  map[string]string
	writes atomic.Int32
	bodies atomic.Int32
}

func (w *world) tools() []registry.Tool {
	return []registry.Tool{
		{Name: "read", Output: registry.AnyOutput(), ConcurrencySafe: func(jsonv.Value) bool { return true },
			Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
				w.bodies.Add(1)
				w.mu.Lock()
				defer w.mu.Unlock()
				path := inv.Arguments.Lookup("path").AsString()
				text, ok := w.files[path]
				if !ok {
					return jsonv.Value{}, errors.New("no such file: " + path)
				}
				return jsonv.ObjectValue(jsonv.Member{Key: "path", Value: jsonv.StringValue(path)}, jsonv.Member{Key: "text", Value: jsonv.StringValue(text)},
					jsonv.Member{Key: "size", Value: jsonv.Int(int64(len(text)))}), nil
			}},
		{Name: "write", Output: registry.AnyOutput(),
			Execute: func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) {
				w.bodies.Add(1)
				w.writes.Add(1)
				w.mu.Lock()
				defer w.mu.Unlock()
				w.files[inv.Arguments.Lookup("path").AsString()] = inv.Arguments.Lookup("text").AsString()
				return jsonv.BoolValue(true), nil
			}},
		{Name: "my-tool", Output: registry.AnyOutput(),
			Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
				w.bodies.Add(1)
				return jsonv.MustParse(`[1, 2.5, null, {"b": 1, "a": [true]}]`), nil
			}},
	}
}

func newWorld() *world {
	return &world{files: map[string]string{"a.txt": "alpha", "b.txt": "beta beta"}}
}

// install returns a Code Mode registry with tools, run with opts.
func install(t *testing.T, opts codemode.Options, tools ...registry.Tool) *registry.Registry {
	t.Helper()
	reg := registry.New()
	if _, err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Runtime = rt
	if err := codemode.Install(reg, opts); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetDefaultPresentation(registry.PresentCode); err != nil {
		t.Fatal(err)
	}
	return reg
}

func runProgram(reg *registry.Registry, code string) registry.Result {
	return reg.Execute(context.Background(), codemode.Call("run-1", code, "Test a replay"))
}

// events records dispatch events.
type events struct {
	mu  sync.Mutex
	all []bridge.Event
}

func (e *events) record(ev bridge.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.all = append(e.all, ev)
}

func (e *events) list() []bridge.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]bridge.Event(nil), e.all...)
}

// program makes parallel and sequential calls, writes, catches a failure and returns values of
// every JSON kind.
const program = `
const [a, b] = await Promise.all([tools.read({ path: "a.txt" }), tools.read({ path: "b.txt" })]);
console.log("sizes", a.size, b.size);
await tools.write({ path: "c.txt", text: a.text + b.text });
const c = await tools.read({ path: "c.txt" });
let failure = "";
try {
  await tools.read({ path: "missing.txt" });
} catch (e) {
  failure = (e instanceof ToolCallError) + " " + e.toolName + " " + e.message;
}
console.log(failure);
const odd = await tools["my-tool"]({});
return { c: c.text, odd };
`

// record runs program against the real tools and returns the outcome and the events.
func record(t *testing.T, code string) (registry.Result, []bridge.Event, *world) {
	t.Helper()
	w := newWorld()
	var rec events
	reg := install(t, codemode.Options{Events: rec.record}, w.tools()...)
	res := runProgram(reg, code)
	if res.IsError {
		t.Fatalf("recorded run failed: %s", registry.TextOf(res.Content))
	}
	return res, rec.list(), w
}

// The replay gives the program exactly what the recorded run gave it (values, a failure as a
// ToolCallError, a tool whose name is not an identifier), so the output is equal; no tool body
// runs, though the real tools are registered (as sources given for the SDK); the replay's own
// events carry the recorded outcomes; Check reports a complete replay.
func TestReplayGivesTheRecordedOutputWithoutRunningTools(t *testing.T) {
	want, recorded, _ := record(t, program)
	if !strings.Contains(registry.TextOf(want.Content), "true read no such file: missing.txt") {
		t.Fatalf("the recorded run did not see the failure: %s", registry.TextOf(want.Content))
	}
	// Through the trace file's form, as `run --replay` reads it.
	var trace strings.Builder
	for _, e := range recorded {
		trace.WriteString(e.Value().String() + "\n")
	}
	fromFile, err := bridge.ReadEvents(strings.NewReader(trace.String()))
	if err != nil {
		t.Fatal(err)
	}
	for name, evs := range map[string][]bridge.Event{"events": recorded, "trace file": fromFile} {
		rp, err := replay.New(evs)
		if err != nil {
			t.Fatal(err)
		}
		w := newWorld()
		var again events
		reg := install(t, codemode.Options{Executor: rp, Events: again.record}, w.tools()...)
		got := runProgram(reg, program)
		if registry.TextOf(got.Content) != registry.TextOf(want.Content) || got.Value.String() != want.Value.String() {
			t.Errorf("%s: replay output:\n%s\n%s\nwant:\n%s\n%s", name, registry.TextOf(got.Content), got.Value, registry.TextOf(want.Content), want.Value)
		}
		if n := w.bodies.Load(); n != 0 {
			t.Errorf("%s: %d tool bodies ran during the replay (%d writes)", name, n, w.writes.Load())
		}
		if err := rp.Check(); err != nil {
			t.Errorf("%s: Check: %v", name, err)
		}
		replayed := again.list()
		if len(replayed) != len(recorded) {
			t.Fatalf("%s: %d events in the replay, %d recorded", name, len(replayed), len(recorded))
		}
		// Start events come in submission order and settle events in commit order; how the two
		// interleave depends on scheduling (a settle event may follow the program's next call),
		// so each kind is compared in its own order.
		for _, typ := range []string{bridge.EventStart, bridge.EventSettle} {
			r, o := ofType(replayed, typ), ofType(recorded, typ)
			for i := range r {
				r[i].Time, r[i].Started, o[i].Time, o[i].Started = time.Time{}, time.Time{}, time.Time{}, time.Time{} // times differ
				if r[i].Value().String() != o[i].Value().String() {
					t.Errorf("%s: %s event %d:\n%s\nrecorded:\n%s", name, typ, i, r[i].Value(), o[i].Value())
				}
			}
		}
	}
}

// ofType returns the events of type typ, in order.
func ofType(evs []bridge.Event, typ string) []bridge.Event {
	var out []bridge.Event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// Declared from the recording alone (no tool source), the tools are the recorded names.
func TestReplayWithToolsDeclaredFromTheRecording(t *testing.T) {
	want, recorded, _ := record(t, program)
	rp, err := replay.New(recorded)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rp.Names(), ","); got != "read,write,my-tool" {
		t.Fatalf("names %s", got)
	}
	reg := install(t, codemode.Options{Executor: rp}, rp.Tools()...)
	got := runProgram(reg, program)
	if registry.TextOf(got.Content) != registry.TextOf(want.Content) {
		t.Errorf("replay output:\n%s\nwant:\n%s", registry.TextOf(got.Content), registry.TextOf(want.Content))
	}
}

// Arguments are compared as JSON values: member order and number spelling do not matter.
func TestReplayComparesArgumentsAsJSONValues(t *testing.T) {
	_, recorded, _ := record(t, `return await tools.write({ path: "x", text: "1", n: 1.5, o: { a: 1, b: [2] } })`)
	rp, err := replay.New(recorded)
	if err != nil {
		t.Fatal(err)
	}
	reg := install(t, codemode.Options{Executor: rp}, rp.Tools()...)
	got := runProgram(reg, `return await tools.write({ o: { b: [2.0], a: 1 }, n: 15e-1, text: "1", path: "x" })`)
	if got.IsError || registry.TextOf(got.Content) != "true" {
		t.Fatalf("replay: %s", registry.TextOf(got.Content))
	}
}

// The first call that does not match fails with a ToolCallError naming the expected and the
// actual call; every later one fails too, naming the divergence; Check returns it.
func TestReplayDivergenceFailsTheCall(t *testing.T) {
	_, recorded, _ := record(t, program)
	rp, err := replay.New(recorded)
	if err != nil {
		t.Fatal(err)
	}
	reg := install(t, codemode.Options{Executor: rp}, rp.Tools()...)
	got := runProgram(reg, `
const [a, b] = await Promise.all([tools.read({ path: "a.txt" }), tools.read({ path: "b.txt" })]);
const out = [a.text];
for (const args of [{ path: "d.txt", text: "changed" }, { path: "c.txt" }]) {
  try {
    await (args.text ? tools.write(args) : tools.read(args));
  } catch (e) {
    out.push((e instanceof ToolCallError) + " " + e.toolName + ": " + e.message);
  }
}
return out;`)
	text := registry.TextOf(got.Content)
	for _, want := range []string{
		`"alpha"`,
		`true write: replay: sub-call 3 diverged from the recording: expected tools.write({\"path\":\"c.txt\",\"text\":\"alphabeta beta\"}), got tools.write({\"path\":\"d.txt\",\"text\":\"changed\"})`,
		`true read: replay: sub-call 4 tools.read({\"path\":\"c.txt\"}): not answered: the replay diverged from the recording at sub-call 3`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %s:\n%s", want, text)
		}
	}
	var d *replay.DivergenceError
	if err := rp.Check(); !errors.As(err, &d) || d.Index != 3 || !errors.Is(err, replay.ErrDiverged) {
		t.Errorf("Check: %v", err)
	}
}

// A call past the end of the recording diverges; a program that makes fewer calls than
// recorded runs, and Check says which call it did not make.
func TestReplayMoreOrFewerCalls(t *testing.T) {
	_, recorded, _ := record(t, `return await tools.read({ path: "a.txt" })`)
	rp, _ := replay.New(recorded)
	reg := install(t, codemode.Options{Executor: rp}, rp.Tools()...)
	got := runProgram(reg, `await tools.read({ path: "a.txt" }); return await tools.read({ path: "b.txt" })`)
	if !got.IsError || !strings.Contains(registry.TextOf(got.Content), `replay: sub-call 2 diverged from the recording: expected no more calls (the recording has 1), got tools.read({"path":"b.txt"})`) {
		t.Errorf("extra call: %s", registry.TextOf(got.Content))
	}

	_, recorded, _ = record(t, `await tools.read({ path: "a.txt" }); return await tools.read({ path: "b.txt" })`)
	rp, _ = replay.New(recorded)
	reg = install(t, codemode.Options{Executor: rp}, rp.Tools()...)
	if got := runProgram(reg, `return (await tools.read({ path: "a.txt" })).text`); got.IsError || registry.TextOf(got.Content) != "alpha" {
		t.Errorf("fewer calls: %s", registry.TextOf(got.Content))
	}
	if err := rp.Check(); err == nil || !strings.Contains(err.Error(), `made 1 of the 2 recorded sub-calls; the first one it did not make is tools.read({"path":"b.txt"})`) {
		t.Errorf("Check: %v", err)
	}
}

// A recording whose last call never settled (the trace was cut) cannot answer it; one written
// before traces carried results cannot answer a success.
func TestReplayOfIncompleteRecordings(t *testing.T) {
	_, recorded, _ := record(t, `return await tools.read({ path: "a.txt" })`)
	for _, c := range []struct {
		name   string
		events []bridge.Event
		want   string
	}{
		{"cut", recorded[:1], "the recording ends before this call settled, so it has no outcome to replay"},
		{"no result", func() []bridge.Event {
			evs := append([]bridge.Event(nil), recorded...)
			evs[1].Result = jsonv.Value{}
			return evs
		}(), "the recording has this call's content but not its result (a trace written before traces carried results); record the run again"},
	} {
		rp, err := replay.New(c.events)
		if err != nil {
			t.Fatal(err)
		}
		reg := install(t, codemode.Options{Executor: rp}, rp.Tools()...)
		got := runProgram(reg, `return await tools.read({ path: "a.txt" })`)
		if !got.IsError || !strings.Contains(registry.TextOf(got.Content), `replay: sub-call 1 tools.read({"path":"a.txt"}): `+c.want) {
			t.Errorf("%s: %s", c.name, registry.TextOf(got.Content))
		}
	}
}

func TestNewRejectsInconsistentRecordings(t *testing.T) {
	start := bridge.Event{Type: bridge.EventStart, SubCallID: "r:code:1", Name: "x", Arguments: jsonv.ObjectValue()}
	settle := start
	settle.Type = bridge.EventSettle
	for _, c := range []struct {
		events []bridge.Event
		want   string
	}{
		{[]bridge.Event{settle}, "event 1: sub-call r:code:1 settles without a start event"},
		{[]bridge.Event{start, start}, "event 2: sub-call r:code:1 starts twice"},
		{[]bridge.Event{start, settle, settle}, "event 3: sub-call r:code:1 settles twice"},
	} {
		if _, err := replay.New(c.events); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New: %v, want %q", err, c.want)
		}
	}
}

func TestEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1.0}`, true},
		{`{"a":1}`, `{"a":1,"b":null}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`"1"`, `1`, false},
		{`null`, `null`, true},
		{`{"a":{"b":false}}`, `{"a":{"b":0}}`, false},
	} {
		if got := replay.Equal(jsonv.MustParse(c.a), jsonv.MustParse(c.b)); got != c.want {
			t.Errorf("Equal(%s, %s) = %v", c.a, c.b, got)
		}
	}
}
