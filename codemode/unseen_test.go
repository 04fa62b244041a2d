package codemode_test

import (
	"context"
	"errors"
	"testing"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// bothRuntimes are the two isolations, for tests of what the model reads through run_code.
func bothRuntimes(t *testing.T) map[string]jsruntime.ClosableRuntime {
	t.Helper()
	inproc, err := jsruntime.New(jsruntime.Config{})
	if err != nil {
		t.Fatal(err)
	}
	pool, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 1, MemoryLimit: 512 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pool.Close() })
	return map[string]jsruntime.ClosableRuntime{"inprocess": inproc, "process": pool}
}

func textOf(res registry.Result) string { return registry.TextOf(res.Content) }

// What the model reads about calls the program did not await that failed after it returned:
// one cancelled by the end of the run, and one still queued behind it that never ran. A call
// that failed at once is reported by the runtime, with its line.
func TestUnawaitedCallsFailingAfterReturnAreReported(t *testing.T) {
	for name, rt := range bothRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			reg := installOn(t, rt, codemode.Options{},
				registry.Tool{Name: "slow_save", Output: registry.AnyOutput(), Execute: func(ctx context.Context, _ *registry.Invocation) (jsonv.Value, error) {
					<-ctx.Done() // runs until the end of the run cancels it
					return jsonv.Value{}, errors.New("save interrupted")
				}},
				registry.Tool{Name: "notify", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
					return jsonv.NullValue(), nil
				}},
				registry.Tool{Name: "broken", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
					return jsonv.Value{}, errors.New("broken at once")
				}, ConcurrencySafe: func(jsonv.Value) bool { return true }},
			)
			res := subRun(context.Background(), reg, "tools.broken({});\ntools.slow_save({});\ntools.notify({});\nreturn 'done';")
			want := "Unhandled rejection: broken at once (tools.broken, main.ts:1:13)\n" +
				"Unhandled rejection: save interrupted (tools.slow_save; the program returned before this call settled)\n" +
				"Unhandled rejection: tools.notify never ran: the program returned before it started\n" +
				"done"
			if res.IsError || textOf(res) != want {
				t.Fatalf("result (error %v):\n%s\nwant:\n%s", res.IsError, textOf(res), want)
			}
		})
	}
}

// A call of a tool that does not exist names the closest tools, through the real run_code path.
func TestMissingToolSuggestsClosest(t *testing.T) {
	for name, rt := range bothRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			noop := func(context.Context, *registry.Invocation) (jsonv.Value, error) { return jsonv.NullValue(), nil }
			reg := installOn(t, rt, codemode.Options{}, registry.Tool{Name: "read_file", Output: registry.AnyOutput(), Execute: noop}, registry.Tool{Name: "write_file", Output: registry.AnyOutput(), Execute: noop})
			res := subRun(context.Background(), reg, "const x = 1;\nawait tools.red_file({ path: 'a' });")
			want := "Error: code run failed (exception): TypeError: tools.red_file is not a tool (did you mean read_file?)\n\tat main.ts:2:21(8)"
			if !res.IsError || textOf(res) != want {
				t.Fatalf("result (error %v):\n%s\nwant:\n%s", res.IsError, textOf(res), want)
			}
		})
	}
}

// A failure the program awaited and handled is not reported, even when the program returns
// at once and the run ends before the bridge has finished committing the call.
func TestHandledFailureIsNotReported(t *testing.T) {
	for name, rt := range bothRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			reg := installOn(t, rt, codemode.Options{}, registry.Tool{Name: "broken", Output: registry.AnyOutput(), Execute: func(context.Context, *registry.Invocation) (jsonv.Value, error) {
				return jsonv.Value{}, errors.New("broken")
			}})
			for range 50 {
				res := subRun(context.Background(), reg, "try { await tools.broken({}) } catch (e) { return 'handled: ' + e.message }")
				if res.IsError || textOf(res) != "handled: broken" {
					t.Fatalf("result (error %v): %q", res.IsError, textOf(res))
				}
			}
		})
	}
}
