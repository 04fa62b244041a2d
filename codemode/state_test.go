package codemode_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/runcode-dev/runcode/bridge"
	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

func stateRegistry(t *testing.T, opts codemode.Options) *registry.Registry {
	t.Helper()
	rt, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return installOn(t, rt, opts)
}

func runIn(t *testing.T, reg *registry.Registry, ctx context.Context, code string) string {
	t.Helper()
	res := reg.Execute(ctx, codemode.Call("call-1", code, "Use state"))
	if res.IsError {
		return "error: " + res.Err.Message
	}
	return res.Value.Lookup("result").String()
}

// state.get/set/delete/keys keep JSON values in the store between runs, per scope.
func TestStateKeepsValuesBetweenRuns(t *testing.T) {
	stores := map[string]func(t *testing.T) codemode.StateStore{
		"memory": func(*testing.T) codemode.StateStore { return codemode.NewMemoryStore(0) },
		"dir": func(t *testing.T) codemode.StateStore {
			s, err := codemode.NewDirStore(t.TempDir(), 0)
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	}
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			reg := stateRegistry(t, codemode.Options{State: mk(t)})
			ctx := context.Background()
			if got := runIn(t, reg, ctx, `await state.set("n", {a: [1, "x", null]}); await state.set("ü/../k", 2); return await state.keys()`); got != `["n","ü/../k"]` {
				t.Fatalf("first run: %s", got)
			}
			if got := runIn(t, reg, ctx, `const v = await state.get("n"); const m = await state.get("missing"); await state.delete("ü/../k"); await state.delete("never"); return [v, m === undefined, await state.keys()]`); got != `[{"a":[1,"x",null]},true,["n"]]` {
				t.Fatalf("second run: %s", got)
			}
			other := codemode.WithStateScope(ctx, "other")
			if got := runIn(t, reg, other, `return [await state.keys(), (await state.get("n")) === undefined]`); got != `[[],true]` {
				t.Fatalf("another scope sees: %s", got)
			}
		})
	}
}

// Bad keys and arguments, a set over the cap, and a run without a store fail as catchable
// StateErrors that say what was wrong.
func TestStateRefusals(t *testing.T) {
	reg := stateRegistry(t, codemode.Options{State: codemode.NewMemoryStore(64)})
	ctx := context.Background()
	got := runIn(t, reg, ctx, `const out = [];
for (const f of [() => state.get(""), () => state.get("k".repeat(129)), () => state.get(1), () => state.set("k"), () => state.set("big", "x".repeat(100))])
  try { await f(); out.push("ok") } catch (e) { out.push(e.name + ": " + e.message) }
await state.set("small", "x".repeat(40));
out.push(await state.get("small") !== undefined);
return out`)
	for _, want := range []string{
		`StateError: state.get: a state key must not be empty`,
		`state.get: a state key may be at most 128 bytes, got 129`,
		`state.get: the key must be a string, got number`,
		`state.set: takes 2 argument(s), got 1: call it as state.set(key, value)`,
		`state.set: setting \"big\" would make state hold 105 bytes, over its cap of 64 bytes (--max-state)`,
		`true]`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("result lacks %q:\n%s", want, got)
		}
	}
	none := stateRegistry(t, codemode.Options{})
	if got := runIn(t, none, ctx, `await state.keys()`); !strings.Contains(got, "ReferenceError: state is not defined") || !strings.Contains(got, "--state DIR") {
		t.Errorf("without a store: %s", got)
	}
	if got := runIn(t, none, ctx, `const state = 3; return state`); got != "3" {
		t.Errorf("a program's own state variable: %s", got)
	}
	if got := runIn(t, reg, ctx, `const state = 3; return state`); !strings.Contains(got, "give the variable another name") {
		t.Errorf("a program's own state variable beside the binding: %s", got)
	}
}

// The run's events record state operations like sub-calls, marked with their binding, and
// without values when they are redacted.
func TestStateOperationsAreEvents(t *testing.T) {
	for _, redact := range []bool{false, true} {
		t.Run(fmt.Sprint("redact=", redact), func(t *testing.T) {
			var mu sync.Mutex
			var lines []string
			reg := stateRegistry(t, codemode.Options{State: codemode.NewMemoryStore(0), RedactStateValues: redact, Events: func(e bridge.Event) {
				mu.Lock()
				defer mu.Unlock()
				v := e.Value()
				lines = append(lines, fmt.Sprintf("%s %s %s %s %s", e.Type, e.SubCallID, e.Name, v.Lookup("arguments"), v.Lookup("result")))
			}})
			runIn(t, reg, context.Background(), `await state.set("k", "secret"); await state.get("k"); await state.keys()`)
			mu.Lock()
			defer mu.Unlock()
			got := strings.Join(lines, "\n")
			want := `code-dispatch-start call-1:state:1 state.set {"key":"k","value":"secret"} undefined
code-dispatch call-1:state:1 state.set {"key":"k","value":"secret"} undefined
code-dispatch-start call-1:state:2 state.get {"key":"k"} undefined
code-dispatch call-1:state:2 state.get {"key":"k"} "secret"
code-dispatch-start call-1:state:3 state.keys {} undefined
code-dispatch call-1:state:3 state.keys {} ["k"]`
			if redact {
				want = strings.ReplaceAll(want, `,"value":"secret"`, "")
				want = strings.Replace(want, `"secret"`, "undefined", 1)
			}
			if got != want {
				t.Fatalf("events:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// Two DirStores on one directory (as two processes have) keep every key and the cap.
func TestDirStoreConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for w := range 4 {
		s, err := codemode.NewDirStore(dir, 4000)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for i := range 50 {
				err := s.Set(context.Background(), "", fmt.Sprintf("w%d-%d", w, i), []byte(`"`+strings.Repeat("x", 30)+`"`))
				if err != nil && !errors.Is(err, codemode.ErrStateFull) {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	s, _ := codemode.NewDirStore(dir, 4000)
	keys, err := s.Keys(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, k := range keys {
		v, ok, _ := s.Get(context.Background(), "", k)
		if !ok || len(v) != 32 {
			t.Fatalf("key %s: %q", k, v)
		}
		total += len(k) + len(v)
	}
	if total > 4000 || total < 4000-40 {
		t.Fatalf("the scope holds %d bytes of a 4000-byte cap (%d keys)", total, len(keys))
	}
}

// A StateInterceptor in the run's context sees every operation, with its checked key and a set's
// value as JSON, in program order: it may pass one to the store (next) or answer it itself, and
// what it answers is what the program receives and what the events record.
func TestStateInterceptorAnswersOrPassesOn(t *testing.T) {
	store := codemode.NewMemoryStore(0)
	var mu sync.Mutex
	var seen, events []string
	reg := stateRegistry(t, codemode.Options{State: store, Events: func(e bridge.Event) {
		if e.Type == bridge.EventSettle {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, fmt.Sprintf("%s %s", e.Name, e.Value().Lookup("result")))
		}
	}})
	ctx := codemode.WithStateInterceptor(context.Background(), func(ctx context.Context, op codemode.StateOp, next func(context.Context) (jsonv.Value, error)) (jsonv.Value, error) {
		seen = append(seen, fmt.Sprintf("%s %s %s", op.Op, op.Key, op.Value))
		switch {
		case op.Op == "get" && op.Key == "answered":
			return jsonv.MustParse(`{"from":"interceptor"}`), nil
		case op.Op == "set" && op.Key == "refused":
			return jsonv.Value{}, errors.New("not now")
		}
		return next(ctx)
	})
	got := runIn(t, reg, ctx, `await state.set("kept", [1, 2]);
let err;
try { await state.set("refused", 1); } catch (e) { err = e.name + ": " + e.message; }
return [await state.get("answered"), await state.get("kept"), err, await state.keys()];`)
	if want := `[{"from":"interceptor"},[1,2],"StateError: state.set: not now",["kept"]]`; got != want {
		t.Fatalf("the run returned %s, want %s", got, want)
	}
	if got, want := strings.Join(seen, "|"), `set kept [1,2]|set refused 1|get answered |get kept |keys  `; got != want {
		t.Errorf("the interceptor saw %q, want %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(events, "|"); !strings.Contains(got, `state.get {"from":"interceptor"}`) {
		t.Errorf("the events do not carry the interceptor's answer: %s", got)
	}
	if _, ok, _ := store.Get(context.Background(), "", "refused"); ok {
		t.Error("a set the interceptor refused reached the store")
	}
}
