package codemode_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/runcode-dev/runcode/codemode"
	"github.com/runcode-dev/runcode/jsonv"
	"github.com/runcode-dev/runcode/jsruntime"
	"github.com/runcode-dev/runcode/registry"
)

// benchRegistry has run_code and n echo tools (echo, echo1, …) with small schemas, on a runtime
// with the default configuration.
func benchRegistry(b *testing.B, n int) *registry.Registry {
	return benchRegistryWith(b, n, jsruntime.Config{})
}

func benchRegistryWith(b *testing.B, n int, cfg jsruntime.Config) *registry.Registry {
	b.Helper()
	rt, err := jsruntime.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	return benchRegistryOn(b, n, rt)
}

// benchRegistryOn is benchRegistry on rt, which it closes when the benchmark ends.
func benchRegistryOn(b *testing.B, n int, rt jsruntime.ClosableRuntime) *registry.Registry {
	b.Helper()
	b.Cleanup(func() { rt.Close() })
	return installOn(b, rt, codemode.Options{}, benchTools(n)...)
}

// benchTools are n echo tools (echo, echo1, …) with small schemas.
func benchTools(n int) []registry.Tool {
	tools := make([]registry.Tool, n)
	for i := range tools {
		name := "echo"
		if i > 0 {
			name = fmt.Sprintf("echo%d", i)
		}
		tools[i] = registry.Tool{
			Name:            name,
			Description:     "Return the arguments.",
			Parameters:      jsonv.MustParse(`{"type":"object","properties":{"x":{"type":"number"}}}`),
			Output:          registry.OutputOf(jsonv.MustParse(`{"type":"object"}`)),
			Execute:         func(_ context.Context, inv *registry.Invocation) (jsonv.Value, error) { return inv.Arguments, nil },
			ConcurrencySafe: func(jsonv.Value) bool { return true },
		}
	}
	return tools
}

// codeCall is a run_code call of code.
func codeCall(code string) registry.Call {
	return codemode.Call("call-1", code, "Benchmark")
}

const trivialProgram = `const r = await tools.echo({x: 1}); return r`

func trivialCall() registry.Call { return codeCall(trivialProgram) }

func benchRun(b *testing.B, reg *registry.Registry, code string) {
	call := codeCall(code)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := reg.Execute(ctx, call); res.IsError {
			b.Fatal(res.Err.Message)
		}
	}
}

// BenchmarkRunTrivialJS is one run_code call end to end: registry pipeline, 50 bound tools,
// a fresh runtime, one sub-call through the registry, the result rendered.
func BenchmarkRunTrivialJS(b *testing.B) {
	benchRun(b, benchRegistry(b, 50), trivialProgram)
}

// BenchmarkRunTrivialJSNoPrewarm is RunTrivialJS with Config.Prewarm off: every run prepares its
// runtime itself, so this is the whole CPU cost of a run.
func BenchmarkRunTrivialJSNoPrewarm(b *testing.B) {
	benchRun(b, benchRegistryWith(b, 50, jsruntime.Config{Prewarm: -1}), trivialProgram)
}

// BenchmarkRunTrivialJSAfterIdle is RunTrivialJS for runs that come a little apart, as an
// agent's do: before each (untimed) the process idles for 2 ms, time enough to prepare the next
// realm, so this is the latency of a run that finds one ready and has to wake parked threads.
func BenchmarkRunTrivialJSAfterIdle(b *testing.B) {
	reg := benchRegistry(b, 50)
	call := trivialCall()
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		time.Sleep(2 * time.Millisecond)
		b.StartTimer()
		if res := reg.Execute(ctx, call); res.IsError {
			b.Fatal(res.Err.Message)
		}
	}
}

// BenchmarkSubCallSequential is 1,000 sequential awaited sub-calls in one run; divide by 1,000
// for the cost per sub-call.
func BenchmarkSubCallSequential(b *testing.B) {
	benchRun(b, benchRegistry(b, 1), `for (let i = 0; i < 1000; i++) await tools.echo({x: i}); return 1`)
}

// openIsolation opens a runtime of isolation for a test: the default in-process runtime, or a
// process pool of one worker.
func openIsolation(tb testing.TB, isolation string) jsruntime.ClosableRuntime {
	tb.Helper()
	var rt jsruntime.ClosableRuntime
	var err error
	if isolation == jsruntime.IsolationProcess {
		rt, err = jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 1})
	} else {
		rt, err = jsruntime.New(jsruntime.Config{})
	}
	if err != nil {
		tb.Fatal(err)
	}
	return rt
}

// benchBothIsolations runs code through run_code with n echo tools on a warm runtime of each
// isolation, side by side: in-process with the default configuration, and a process pool of one
// worker. calls is how many sub-calls one run makes, for a per-call figure.
func benchBothIsolations(b *testing.B, n int, code string, calls int) {
	for _, isolation := range []string{jsruntime.IsolationInProcess, jsruntime.IsolationProcess} {
		b.Run("isolation="+isolation, func(b *testing.B) {
			rt := openIsolation(b, isolation)
			benchRun(b, benchRegistryOn(b, n, rt), code)
			if calls > 1 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls), "ns/call")
			}
		})
	}
}

// BenchmarkProcessRunTrivialJS is RunTrivialJS on each isolation, side by side.
func BenchmarkProcessRunTrivialJS(b *testing.B) { benchBothIsolations(b, 50, trivialProgram, 1) }

// BenchmarkProcessSubCallSequential is SubCallSequential on each isolation, side by side; ns/call
// is the cost of one sub-call.
func BenchmarkProcessSubCallSequential(b *testing.B) {
	benchBothIsolations(b, 1, `for (let i = 0; i < 1000; i++) await tools.echo({x: i}); return 1`, 1000)
}

// BenchmarkProcessSubCallPromiseAll is 1,000 sub-calls in one Promise.all on each isolation, side
// by side; ns/call is the cost of one sub-call when the program does not wait for each.
func BenchmarkProcessSubCallPromiseAll(b *testing.B) {
	benchBothIsolations(b, 1, `const r = await Promise.all(Array.from({length: 1000}, (_, i) => tools.echo({x: i}))); return r.length`, 1000)
}

// BenchmarkProcessSubCallSequentialConcurrent is 8 runs at once, each making 100 sequential
// sub-calls, on a process pool of 8 workers: more processes than a small machine has CPUs, where
// a parent that spins for a worker's next frame competes with the workers for them. ns/call is
// wall time per sub-call across all runs.
func BenchmarkProcessSubCallSequentialConcurrent(b *testing.B) {
	rt, err := jsruntime.NewProcessPool(jsruntime.ProcessConfig{Size: 8})
	if err != nil {
		b.Fatal(err)
	}
	reg := benchRegistryOn(b, 1, rt)
	call := codeCall(`for (let i = 0; i < 100; i++) await tools.echo({x: i}); return 1`)
	b.ReportAllocs()
	b.SetParallelism(max(1, 8/runtime.GOMAXPROCS(0)))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if res := reg.Execute(context.Background(), call); res.IsError {
				b.Error(res.Err.Message)
				return
			}
		}
	})
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100), "ns/call")
}
